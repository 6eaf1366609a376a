"""The evening on the room's screens and the phones: the wall's floor, between the report and
the command line.

- ``players``: the players' view of the evening as plain data (what `referee watch` and the
  table page show, nothing secret) and the poll that notices a changed evening file;
- ``frame``: the table page's data, recomputed once per change of the evening file;
- ``pages``: the HTML answers and their Content-Security-Policy;
- ``access``: the tokens of the station and the assistants, and the links they make;
- ``room``: what the GM puts on the wall, beside the evening;
- ``server``: the HTTP server of `referee serve`: routes and answers, on uvicorn's protocol;
- ``connections``: its connections' limits and timeouts, and what h11 refuses (E68, E191);
- ``push``: each change of the evening pushed to the pages that show it (E192).
"""
