"""``python -m referee``: the same console as the ``referee`` command."""

from referee.cli.entry import main

main()
