"""The second station: commands typed on another laptop, run by the serving machine.

``referee --station http://HOST:PORT --token T soul study Ben cobalt`` sends the command's
words to ``referee serve --station``; the server reads them with the command line's parser,
makes their move through the table's API under the evening's lock (``referee.cli.requests``)
and sends back stdout, stderr and the exit status, which
this side prints and exits with: the answer is the one the serving machine would give.
``referee --station URL --token T shell`` is the shell for the night, each line sent there.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from referee.cli import runner
from referee.cli.suggest import told
from referee.errors import RefereeError

#: What a station may not run (E54): commands that run until stopped (or write another
#: evening), and options typed as text that still name a file on the serving machine. Every
#: option or argument typed as a path is refused too, found in the command tree itself.
REFUSED_COMMANDS = {"serve", "shell", "watch", "demo"}
FILE_OPTIONS = ("--scenario", "--from-file")
TOKEN_ENV = "REFEREE_STATION_TOKEN"
TIMEOUT = 30.0

#: The root group's options a station may give (E65), by their names in the command tree:
#: `--explain` reads the rulebook shipped in the package, `--version` prints the version, help
#: is help, `--dry-run` writes nothing (E133); none names or reaches anything on the serving
#: machine. Every other root option, today's and any added later, is refused wherever it
#: stands on a station's line.
HARMLESS_ROOT = frozenset({"explain", "version", "help", "dry_run"})
#: Why each refused root option is the serving machine's own (E65); any other: the default.
_WHY_ROOT = {
    "db": "it runs on the evening served there, and on no other file",
    "debug": "a traceback would show the serving machine's files; use --debug there",
    "station": "give --station URL --token T once, before the command, on your own line",
    "token": "give --station URL --token T once, before the command, on your own line",
    "install_completion": "tab completion is set up on each machine for itself",
    "show_completion": "tab completion is set up on each machine for itself",
}

if TYPE_CHECKING:
    from referee.serve.server import StationReply


def _split_opt(opt: str) -> tuple[str, str]:
    """An option's prefix and name, as click splits them (``--db`` -> ``--``, ``db``)."""
    first = opt[:1]
    if first.isalnum():
        return "", opt
    if opt[1:2] == first:
        return opt[:2], opt[2:]
    return first, opt[1:]


def root_spellings() -> dict[str, str]:
    """Every spelling of a root option a station may not give, with the option's name (E65).

    Read from the one command tree the runner parses (``runner.root_command()``), so an option
    added to the root group later is refused until it is judged harmless here.
    """
    out: dict[str, str] = {}
    for param in runner.root_command().params:
        if param.param_type_name != "option" or param.name in HARMLESS_ROOT:
            continue
        for opt in (*param.opts, *param.secondary_opts):
            out[opt] = str(param.name)
    return out


def root_option_in(word: str, spellings: dict[str, str],
                   normalize: Callable[[str], str] | None = None) -> str | None:
    """The refused root option that ``word`` would be read as, or None (E65).

    Matched as click's parser reads a word: a long option alone or as ``--opt=VALUE``, a short
    one anywhere in a cluster such as ``-xV`` (more than the parser takes, never less).
    Unique prefixes are not matched because the parser accepts none (``--d`` is "No such
    option").
    """
    def norm(opt: str) -> str:
        if normalize is None:
            return opt
        prefix, name = _split_opt(opt)
        return prefix + normalize(name)

    name = norm(word.split("=", 1)[0])
    for opt, param in spellings.items():
        prefix, rest = _split_opt(opt)
        if len(prefix) == 1 and len(rest) == 1:  # a short option: -x, or in a cluster
            if word[:1] == prefix and word[1:2] != prefix and len(word) > 1 and \
                    any(norm(prefix + ch) == norm(opt) for ch in word[1:]):
                return param
        elif name == norm(opt):
            return param
    return None


def _names_a_file(word: str, options: tuple[str, ...]) -> bool:
    return any(word == o or word.startswith(o + "=") for o in options)


def refusal(args: list[str]) -> str | None:
    """Why a station may not run ``args``, or None when it may (E54, E65)."""
    there = "; run that command on the serving machine (E54)"
    cmd = runner.root_command()
    # E65 first, over every word of the line: the runner lifts root options from anywhere
    # (`hoist_root_options`), and a word after `--` is refused too: no station needs one.
    spellings = root_spellings()
    normalize = (cmd.context_settings or {}).get("token_normalize_func")
    for word in args:
        param = root_option_in(word, spellings, normalize)
        if param is not None:
            why = _WHY_ROOT.get(param, "it is the serving machine's own choice")
            return f"{word.split('=')[0]} cannot be sent to a station: {why} (E65)"
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
    why = refusal(args)
    if why is not None:
        return 2, "", f"error: {why}\n"
    from referee.cli.requests import run_captured  # a station's line: the API, not the runner

    return run_captured(args, db=evening, columns=columns, sealed=True)


# -- the station's side -----------------------------------------------------------------------


class StationError(Exception):
    """The station cannot reach the server, or the server refused the token."""


@dataclass(frozen=True)
class Answer:
    """What the serving machine answered a station's line."""

    exit: int
    stdout: str
    stderr: str
    token: str | None = None  # the new station token, when the line made a new evening (E66)


def exchange(url: str, token: str, args: list[str]) -> Answer:
    """Send one command line to the server at ``url`` and read its answer.

    Raises:
        StationError: no answer, or the server refused the request.
    """
    import ssl  # a line sent to a station only (ssl, urllib)
    import urllib.error
    import urllib.request

    columns = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    body = json.dumps({"args": args, "columns": columns}).encode("utf-8")
    request = urllib.request.Request(
        url.rstrip("/") + "/station", data=body, method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            # The answer comes in here; its fields are checked as they are read below.
            data: StationReply = json.loads(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        text = exc.read().decode("utf-8", "replace").strip() or exc.reason
        if exc.code == 404:
            text = "it takes no commands: start it with `referee serve --station`"
        raise StationError(f"the station at {url} refused: {text}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, ssl.SSLCertVerificationError):
            raise StationError(f"the certificate of {url} is not one this machine trusts "
                               f"({reason.verify_message}): give the one `serve --tls` uses "
                               "as SSL_CERT_FILE=CERT (E67)") from None
        raise StationError(f"cannot reach the station at {url}: {reason}; is "
                           "`referee serve --station` running there?") from None
    except ValueError:
        raise StationError(f"{url} answered something that is no station's answer") from None
    new = data.get("token")
    return Answer(int(data["exit"]), str(data["stdout"]), str(data["stderr"]),
                  new if isinstance(new, str) and new else None)


def send(url: str, token: str, args: list[str]) -> tuple[int, str, str]:
    """Send one command line to the server at ``url``: ``(exit, stdout, stderr)``.

    Raises:
        StationError: no answer, or the server refused the request.
    """
    answer = exchange(url, token, args)
    return answer.exit, answer.stdout, answer.stderr


def remote(url: str, token: str | None, args: list[str]) -> int:
    """``referee --station URL --token T ARGS``: run there, print here. Returns the status."""
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
        answer = exchange(url, token, args)
    except StationError as exc:
        typer.echo(f"error: {exc}", err=True)
        return 2
    sys.stdout.write(answer.stdout)
    sys.stderr.write(answer.stderr)
    if answer.token:
        typer.echo(f"This station's token is new with the new evening: give --token "
                   f"{answer.token} (or ${TOKEN_ENV}) from now on (E66).", err=True)
    return answer.exit


def answer_words(words: list[str]) -> list[str]:
    """`ok N [ANSWER]` and `no N REASON` at a station's prompt, as at the shell's (R46, E212):
    the `requests` line they stand for; any other line as it is.

    >>> answer_words(["ok", "3"]), answer_words(["no", "3", "not", "now"])
    (['requests', 'accept', '3'], ['requests', 'decline', '3', 'not', 'now'])
    """
    if len(words) < 2 or words[0] not in ("ok", "no"):
        return words
    if words[0] == "ok":
        return ["requests", "accept", words[1], *([" ".join(words[2:])] if words[2:] else [])]
    return ["requests", "decline", *words[1:]]


class RemoteShell:
    """``referee shell`` on a station: each line runs on the serving machine."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token

    def run_line(self, text: str) -> int:
        try:
            words = runner.split(text)
        except RefereeError as exc:
            typer.echo(f"error: {told(exc)}", err=True)
            return 2
        if not words:
            return 0
        own = runner.at_the_prompt(words, sys.stdin.isatty())  # on this terminal, not there
        if own is not None:
            return own
        words = answer_words(words)
        try:
            answer = exchange(self.url, self.token, words)
        except StationError as exc:
            typer.echo(f"error: {exc}", err=True)
            return 2
        sys.stdout.write(answer.stdout)
        sys.stderr.write(answer.stderr)
        if answer.token:
            self.token = answer.token
            typer.echo(f"The station token is new with the new evening: this shell goes on "
                       f"with it ({answer.token}) (E66).", err=True)
        sys.stdout.flush()
        return answer.exit

    def run(self, lines: Iterable[str]) -> int:
        if not sys.stdin.isatty() or lines is not sys.stdin:
            return runner.run_piped(lines, self.run_line)
        return self.interactive()

    def interactive(self) -> int:
        from prompt_toolkit import PromptSession  # a terminal's prompt only

        session: PromptSession[str] = PromptSession(
            bottom_toolbar=f" station {self.url} · `help` lists commands, Ctrl-D leaves")
        typer.echo(f"The referee shell at the station {self.url}: every line runs there "
                   "(`exit` or Ctrl-D leaves).")
        return runner.prompt_loop(session, "station> ", self.run_line)
