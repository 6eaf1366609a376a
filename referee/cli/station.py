"""The second station: commands typed on another laptop, run by the serving machine.

``referee --station http://HOST:PORT --token T soul study Ben cobalt`` sends the command's
words to ``referee serve --station``; the server runs them through the one in-process
runner under the evening's lock and sends back stdout, stderr and the exit status, which
this side prints and exits with: the answer is the one the serving machine would give.
``referee --station URL --token T shell`` is the shell for the night, each line sent there.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import typer

#: What a station may not run (E54): commands that run until stopped (or write another
#: evening), and options typed as text that still name a file on the serving machine. Every
#: option or argument typed as a path is refused too, found in the command tree itself.
REFUSED_COMMANDS = {"serve", "shell", "watch", "demo"}
FILE_OPTIONS = ("--scenario", "--from-file", "--install-completion", "--show-completion")
TOKEN_ENV = "REFEREE_STATION_TOKEN"
TIMEOUT = 30.0


def _names_a_file(word: str, options: tuple[str, ...]) -> bool:
    return any(word == o or word.startswith(o + "=") for o in options)


def refusal(args: list[str]) -> str | None:
    """Why a station may not run ``args``, or None when it may (E54)."""
    from referee.cli import runner

    there = "; run that command on the serving machine (E54)"
    cmd = runner.root_command()
    words: list[str] = []  # the command's path, e.g. ["scenario", "show"]
    positional = 0
    ended = False
    for word in args:
        if ended or not word.startswith("-") or word == "-":
            sub = getattr(cmd, "commands", {}).get(word) if not ended else None
            if sub is not None and positional == 0:
                cmd, words = sub, [*words, word]
                if len(words) == 1 and word in REFUSED_COMMANDS:
                    return f"`{word}` cannot run through a station" + there
            else:
                positional += 1
            continue
        if word == "--":
            ended = True
            continue
        if _names_a_file(word, FILE_OPTIONS):
            return f"{word.split('=')[0]} names a file on the serving machine" + there
        for param in getattr(cmd, "params", []):
            if type(param.type).__name__ not in ("Path", "TyperPath"):
                continue
            if param.param_type_name == "option" and _names_a_file(
                    word, (*param.opts, *param.secondary_opts)):
                return f"{word.split('=')[0]} names a file on the serving machine" + there
    for param in getattr(cmd, "params", []):
        if param.param_type_name == "argument" and positional and \
                type(param.type).__name__ in ("Path", "TyperPath"):
            return (f"`{' '.join(words)}` would read a file on the serving machine" + there)
    return None


def run_remote(args: list[str], evening: Path, columns: int | None = None
               ) -> tuple[int, str, str]:
    """Run a station's command line on the served evening: ``(exit, stdout, stderr)``."""
    from referee.cli import runner

    why = refusal(args)
    if why is not None:
        return 2, "", f"error: {why}\n"
    return runner.run_line(args, db=evening, columns=columns)


# -- the station's side -----------------------------------------------------------------------


class StationError(Exception):
    """The station cannot reach the server, or the server refused the token."""


def send(url: str, token: str, args: list[str]) -> tuple[int, str, str]:
    """Send one command line to the server at ``url``: ``(exit, stdout, stderr)``.

    Raises:
        StationError: no answer, or the server refused the request.
    """
    import shutil
    import urllib.error
    import urllib.request

    columns = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    body = json.dumps({"args": args, "columns": columns}).encode("utf-8")
    request = urllib.request.Request(
        url.rstrip("/") + "/station", data=body, method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            data: dict[str, Any] = json.loads(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        text = exc.read().decode("utf-8", "replace").strip() or exc.reason
        if exc.code == 404:
            text = "it takes no commands: start it with `referee serve --station`"
        raise StationError(f"the station at {url} refused: {text}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise StationError(f"cannot reach the station at {url}: {reason}; is "
                           "`referee serve --station` running there?") from None
    except ValueError:
        raise StationError(f"{url} answered something that is no station's answer") from None
    return int(data["exit"]), str(data["stdout"]), str(data["stderr"])


def remote(url: str, token: str | None, args: list[str]) -> int:
    """``referee --station URL --token T ARGS``: run there, print here. Returns the status."""
    import os

    token = token or os.environ.get(TOKEN_ENV)
    if not url.startswith(("http://", "https://")):
        typer.echo(f"error: --station takes the URL that `referee serve` printed, like "
                   f"http://192.168.1.20:8765, not {url!r}", err=True)
        return 2
    if not token:
        typer.echo(f"error: a station needs the GM's station token: --token T (or ${TOKEN_ENV})",
                   err=True)
        return 2
    if args[:1] == ["shell"]:
        return RemoteShell(url, token).run(sys.stdin)
    try:
        code, out, err = send(url, token, args)
    except StationError as exc:
        typer.echo(f"error: {exc}", err=True)
        return 2
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


class RemoteShell:
    """``referee shell`` on a station: each line runs on the serving machine."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token

    def run_line(self, text: str) -> int:
        from referee.cli import runner
        from referee.cli.runner import LEAVE
        from referee.cli.runner import Leave as _Leave
        from referee.errors import RefereeError

        try:
            words = runner.split(text)
        except RefereeError as exc:
            typer.echo(f"error: {exc.line}", err=True)
            return 2
        if not words:
            return 0
        if words[0].lower() in LEAVE:
            raise _Leave
        try:
            code, out, err = send(self.url, self.token, words)
        except StationError as exc:
            typer.echo(f"error: {exc}", err=True)
            return 2
        sys.stdout.write(out)
        sys.stderr.write(err)
        sys.stdout.flush()
        return code

    def run(self, lines: Iterable[str]) -> int:
        from referee.cli import runner

        if not sys.stdin.isatty() or lines is not sys.stdin:
            return runner.run_piped(lines, self.run_line)
        return self.interactive()

    def interactive(self) -> int:
        from prompt_toolkit import PromptSession

        from referee.cli import runner

        session: PromptSession[str] = PromptSession(
            bottom_toolbar=f" station {self.url} · `help` lists commands, Ctrl-D leaves")
        typer.echo(f"The referee shell at the station {self.url}: every line runs there "
                   "(`exit` or Ctrl-D leaves).")
        return runner.prompt_loop(session, "station> ", self.run_line)
