"""``docs/cli.md``: the reference of every command, generated from the app itself.

Regenerate it after changing a command (a test compares the file with this output)::

    python -m referee.cli.reference > docs/cli.md
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

WIDTH = 80  # the reference is written as help reads in an 80-column terminal

HEADER = """# Command reference

Every `referee` command with its help, as `referee COMMAND --help` prints it in an 80-column
terminal. Generated from the app by `python -m referee.cli.reference > docs/cli.md`; a test
fails when this file and the app disagree. The rulings the help cites are in
[the rulebook](rules.md) (`referee rules ID`).
"""


def _walk(cmd: Any, ctx: Any) -> Iterator[tuple[Any, Any]]:
    yield cmd, ctx
    commands = getattr(cmd, "commands", None)
    if isinstance(commands, dict):
        for name in cmd.list_commands(ctx):
            sub = commands[name]
            if sub.hidden:
                continue
            yield from _walk(sub, type(ctx)(sub, info_name=name, parent=ctx,
                                            terminal_width=WIDTH, max_content_width=WIDTH))


def render() -> str:
    """The whole reference, Markdown, the same wherever and at whatever width it is run."""
    import typer.main

    from referee.cli import main, shell

    assert main.app  # the runner builds the whole tree from the app main made
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)
    try:
        root = shell.full_command()
        ctx_class = type(root.make_context("referee", ["--help"], resilient_parsing=True))
        ctx = ctx_class(root, info_name="referee", terminal_width=WIDTH,
                        max_content_width=WIDTH)
        parts = [HEADER]
        from referee.cli.main import table_of_contents

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

    sys.stdout.write(render())
