"""``docs/cli.md``: the reference of every command, generated from the app itself.

Regenerate it after changing a command (a test compares the file with this output)::

    python -m referee.cli.help.reference > docs/cli.md

and, after changing a command's first line or panel, the table of contents that
`referee --help` prints without importing the commands (``referee.cli.help.contents``)::

    python -m referee.cli.help.reference --contents > referee/cli/help/contents.py
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

import typer.main

from referee.cli import main
from referee.cli.help.table_of_contents import table_of_contents
from referee.cli.shell import shell

WIDTH = 80  # the reference is written as help reads in an 80-column terminal

HEADER = """# Command reference

Every `referee` command with its help, as `referee COMMAND --help` prints it in an 80-column
terminal. Generated from the app by `python -m referee.cli.help.reference > docs/cli.md`; a test
fails when this file and the app disagree. The rulings the help cites are in
[the rulebook](rules.md) (`referee rules ID`).
"""


CONTENTS_HEADER = '''\
"""The table of contents of `referee --help`, stored: each panel of commands in its order,
with the first paragraph of each command's help (``referee.cli.main.panels`` of the whole
tree). Kept as data so that `referee --help` imports no module of commands.

Generated: regenerate it after changing a command's first line or panel with

    python -m referee.cli.help.reference --contents > referee/cli/help/contents.py

(``tests/cli/test_tree.py`` fails while it and the registered commands disagree).
"""

from __future__ import annotations

#: (panel, ((command, the first paragraph of its help), ...)), as `referee --help` lists them.
Panels = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]

PANELS: Panels = (
'''


def _literal(text: str) -> str:
    assert text.isprintable(), text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _chunks(text: str, width: int) -> list[str]:
    """``text`` in pieces of at most ``width`` characters (where a space allows), each but the
    last ending in its space, so that joined they are ``text`` again."""
    pieces: list[str] = []
    while len(text) > width and " " in text[1:width]:
        cut = text.rindex(" ", 1, width) + 1
        pieces.append(text[:cut])
        text = text[cut:]
    return [*pieces, text]


def contents_source() -> str:
    """The text of ``referee/cli/help/contents.py``: the table of contents of the whole tree."""
    lines = [CONTENTS_HEADER.rstrip("\n")]
    for panel, items in main.panels(main.full_app()):
        lines.append(f"    ({_literal(panel)}, (")
        for name, text in items:
            one = f"        ({_literal(name)}, {_literal(text)}),"
            if len(one) <= 100:
                lines.append(one)
                continue
            lines.append(f"        ({_literal(name)},")
            pieces = _chunks(text, 100 - 14)
            for i, piece in enumerate(pieces):
                end = ")," if i == len(pieces) - 1 else ""
                lines.append(f"         {_literal(piece)}{end}")
        lines.append("    )),")
    lines.append(")")
    return "\n".join(lines) + "\n"


def _walk(cmd: Any, ctx: Any) -> Iterator[tuple[Any, Any]]:
    yield cmd, ctx
    commands = getattr(cmd, "commands", None)
    if isinstance(commands, Mapping):
        for name in cmd.list_commands(ctx):
            sub = commands[name]
            if sub.hidden:
                continue
            yield from _walk(sub, type(ctx)(sub, info_name=name, parent=ctx,
                                            terminal_width=WIDTH, max_content_width=WIDTH))


def render() -> str:
    """The whole reference, Markdown, the same wherever and at whatever width it is run."""
    assert main.app  # the runner builds the whole tree from the app main made
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)
    try:
        root = shell.full_command()
        ctx_class = type(root.make_context("referee", ["--help"], resilient_parsing=True))
        ctx = ctx_class(root, info_name="referee", terminal_width=WIDTH,
                        max_content_width=WIDTH)
        parts = [HEADER]

        for cmd, sub_ctx in _walk(root, ctx):
            # `referee --help` is the table of contents; the rest is each command's own help
            text = table_of_contents() if cmd is root else cmd.get_help(sub_ctx)
            parts.append(f"## `{sub_ctx.command_path}`\n")
            parts.append("```text\n" + text.rstrip() + "\n```\n")
        assert typer.main  # the tree above is built by typer
        return "\n".join(parts)
    finally:
        if saved is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved


if __name__ == "__main__":
    import sys

    sys.stdout.write(contents_source() if sys.argv[1:] == ["--contents"] else render())
