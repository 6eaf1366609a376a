"""The table of contents of the commands, by the part of the evening each serves: what
`referee --help` prints, and `help` at the shell's prompt (there, or at a station's shell).

Read from ``referee.cli.help.contents`` (the first lines of the commands' docstrings, stored), so
it imports no module of commands and builds none.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Iterable

from referee.cli.help.contents import PANELS

#: What `help` in `referee shell` lists after the commands: the words of the prompt itself.
AT_THE_PROMPT = (
    ("help COMMAND", "One command in full (also `COMMAND --help`); `help` or `?` alone: this."),
    ("try LINE", "What LINE would record and change; nothing is written (E133)."),
    ("--explain LINE", "LINE, and after a refusal its ruling in full (also `rules last`)."),
    ("clear", "Clear the screen (also Ctrl-L)."),
    ("exit", "Leave the shell (also `quit` or Ctrl-D)."),
)


def table_of_contents(shell: bool = False) -> str:
    """``referee --help``: every command by the part of the evening it serves; with
    ``shell``, `help` at the shell's prompt: the same commands, then the prompt's own words.

    Read from ``referee.cli.help.contents`` (the first lines of the commands' docstrings, stored),
    so it imports no module of commands and builds none: typer would convert all ~90
    commands (evaluating every annotation) just to print their first lines.
    """
    options = [("--db PATH", "The evening file (default: $REFEREE_DB, else the user data dir)."),
               ("--debug", "Show tracebacks of internal errors."),
               ("--explain", "After a refusal, read its ruling in full (also `rules last`)."),
               ("--dry-run", "Show the events, rulings and changes a command would make; "
                "write nothing (E133; `try LINE` in the shell)."),
               ("--station URL", "Run the command at a `referee serve --station` (with --token "
                "T)."),
               ("--version, -V", "Print the version and exit."),
               ("--install-completion", "Install tab completion for your shell."),
               ("--show-completion", "Print the completion script, to install it by hand."),
               ("--help, -h", "Show this and exit.")]
    columns = max(60, min(100, shutil.get_terminal_size((80, 24)).columns))

    def rows(items: Iterable[tuple[str, str]], width: int) -> list[str]:
        # Each description wrapped under itself, so the list reads at 80 columns.
        return [textwrap.fill(text, columns, initial_indent=f"  {name}".ljust(width),
                              subsequent_indent=" " * width)
                for name, text in items]

    panels = [(panel, [(n, t) for n, t in items if not (shell and n == "shell")])
              for panel, items in PANELS]  # in the shell, `shell` is where one is already
    names = [n for _, items in panels for n, _ in items]
    commands = max(len(n) for n in [*names, *(n for n, _ in AT_THE_PROMPT if shell)]) + 4
    out = (["Type a command as after `referee` (Tab completes it).", ""] if shell else
           ["Usage: referee [--db PATH] [--debug] [--explain] [--dry-run] COMMAND [ARGS]...",
            "", "  Referee console for a live Fool's Errand evening and its side tables."])
    out += ["  Every command has --help; every command that reads has --json." if shell else
            "  Every command has --help (`referee help COMMAND` too); every command that\n"
            "  reads has --json.", ""]
    for panel, items in panels:
        out += [f"{panel}:", *rows(items, commands), ""]
    if shell:
        out += ["At this prompt:", *rows(AT_THE_PROMPT, commands)]
    else:
        out += ["Options:", *rows(options, max(len(n) for n, _ in options) + 4)]
    return "\n".join(out)
