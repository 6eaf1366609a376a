"""The command line: it parses what the GM types, calls the evening below it and prints the
answer. Nothing else in the package prints.

At the top, what every command line goes through: ``entry`` (the console's entry point, and
the lines typed most read without typer), ``main`` (the typer app and its command tree),
``guard`` and ``errors`` (the error boundary, the checks at the door), ``context`` (what a
run carries), ``runner`` (what every prompt shares) and ``requests`` (a typed line read into
its request, made through the table's API), ``transaction`` (the request, the one write),
``typed_most`` (the bodies of the commands typed most), ``printing``, ``suggest``,
``rulings``, ``log_formats`` and ``options``. Below, the commands by concern: ``table``,
``powers``, ``between``, ``side``, ``room``, ``shell``, ``rulebook``; ``output`` draws the
evening, ``help`` holds the table of contents and the reference.

No package here imports its modules: a command line loads the module of its command word
alone (``main.TREE``).
"""
