"""Between evenings: the evening's end and its promotion ceremony, the next evening and the
season's standings, the report and the handouts on paper (and the pages written beside an
evening), the demo evening, and the scenario files an evening starts from."""
