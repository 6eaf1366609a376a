"""`referee shell`: the GM's prompt for the night, with history and completion of commands,
names, souls and cards. Each line is read by the command line's parser (the lines typed most
without typer, ``referee.cli.entry``); a read answers as it runs, and a move's request is made
here through the table's API and answered by its command (``referee.cli.requests``).

Module-level imports stay light: prompt_toolkit is imported when the prompt opens.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer._click.utils import make_default_short_help  # typer ships its own click

from referee.cli.context import db_path
from referee.cli.main import Tree, described
from referee.cli.printing import printable
from referee.cli.room import phone_requests
from referee.cli.runner import LEAVE
from referee.cli.suggest import told
from referee.errors import BadInput, RefereeError
from referee.names import plural
from referee.serve.asks import asks_path, load_queue

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document

#: Argument and option names (click's parameter names) and what completes them.
PEOPLE = {"name", "source", "target", "assistant", "seller", "buyer", "holder", "stakeholder",
          "player", "person", "with_", "a_name", "b_name"}
CARDS = {"cards", "card", "previous", "play", "top", "bottom"}
BETTING = ("bet", "raise", "call", "check", "fold")
FIXED = {"table": ["evening", "scum", "wager", "fate"], "orientation": ["upright", "reversed"]}


class Vocabulary:
    """The names the evening knows, re-read whenever its file changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.people: list[str] = []
        self.players: list[str] = []  # at the table: the hand's, else every seat and the Fool
        self.souls: list[str] = []
        self.held: dict[str, list[str]] = {}  # each person's side's souls (R23: studied)
        self.colours: list[str] = []
        self.line = ""  # whose turn, for the toolbar
        self.to_act: str | None = None  # offered first after `bet `, `call ` ...
        self.seen: object = False  # the file's signature when last read

    def refresh(self) -> Vocabulary:
        from referee.serve import players

        now = players.signature(self.path)
        if now == self.seen:
            return self
        self.seen = now
        try:
            state = players.load_state(self.path)
        except RefereeError:
            self.people, self.players, self.souls, self.colours = [], [], [], []
            self.held = {}
            self.line = "no evening yet: `new --fool NAME --seat ...`"
            return self
        self.people = list(state.people)
        self.players = list(state.hand.live if state.hand is not None
                            else [*state.stakeholders, state.fool])
        self.souls = [s.key for s in state.souls if s.destroyed is None]
        self.held = {}
        for seat in state.seats:
            side = {seat.name, seat.assistant}
            souls = [s.key for s in state.souls if s.destroyed is None and s.holder in side]
            for person in side - {None}:
                self.held[str(person)] = souls
        self.colours = state.colours()
        hand = players.frame(state)["hand"]
        self.to_act = hand["to_act"] if hand else None
        if hand is None and state.ceremony is not None:  # R40: the ceremony, then `next`
            self.line = ("the ceremony is closed: `next NEW.json` starts the next evening"
                         if state.ceremony["closed"] else
                         "the evening is over: `ceremony` lists the claims, `ceremony close`")
        elif hand is None and state.over:  # R18: nothing invites another hand
            self.line = (f"the game is over: {state.winner or 'nobody'} and the Fool hold the "
                         "chips (R18)")
        elif hand is None:
            self.line = f"{plural(state.hands_played, 'hand')} played; `hand start` deals the next"
        elif hand["betting_over"]:
            self.line = f"hand {hand['no']}: betting is over, `hand showdown`"
        elif hand["to_act"] is None:
            self.line = (f"hand {hand['no']}: up cards first: "
                         + ", ".join(hand["missing_up"]) + " (`hand show`)")
        else:
            owes = f"owes {hand['owes']}" if hand["owes"] else "/".join(hand["moves"])
            self.line = f"hand {hand['no']}: {hand['to_act']} to act ({owes})"
        return self


class Line:
    """The text before the cursor, split as a shell would."""

    def __init__(self, words: list[str], partial: str, raw: str, quote: str | None) -> None:
        self.words = words      # complete words
        self.partial = partial  # the word being typed, unquoted
        self.raw = raw          # the same as typed (with its opening quote)
        self.quote = quote      # the open quote, if any


def split_line(text: str) -> Line:
    """Split ``text`` into complete words and the word under the cursor (quotes may be open)."""
    words: list[str] = []
    current, quote, start, in_word = "", None, len(text), False
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
            else:
                current += ch
        elif ch.isspace():
            if in_word:
                words.append(current)
                current, in_word = "", False
        else:
            if not in_word:
                start, in_word = i, True
            if ch in "\"'":
                quote = ch
            else:
                current += ch
    if not in_word:
        return Line(words, "", "", None)
    return Line(words, current, text[start:], quote)


def _is_group(cmd: Any) -> bool:
    """A group of commands (the root's are a ``main.Tree``, built on first use)."""
    return isinstance(getattr(cmd, "commands", None), Mapping)


def _takes_value(param: Any) -> bool:
    return bool(param.param_type_name == "option" and not param.is_flag
                and not getattr(param, "count", False))


def _option_names(cmd: Any) -> list[str]:
    names: list[str] = []
    for p in cmd.params:
        if p.param_type_name == "option" and not getattr(p, "hidden", False) \
                and p.name not in ("install_completion", "show_completion"):
            names += [o for o in [*p.opts, *p.secondary_opts] if o.startswith("--")]
    return [*names, "--help"]


def _find_option(cmd: Any, word: str) -> Any:
    for p in cmd.params:
        if p.param_type_name == "option" and word in (*p.opts, *p.secondary_opts):
            return p
    return None


def _studied(vocab: Vocabulary, words: list[str]) -> list[str] | None:
    """After `soul study NAME`: the souls NAME's side holds, the only ones NAME may study
    (R23, E173); None elsewhere, or when NAME is no one's (then every soul is offered)."""
    if words[:2] != ["soul", "study"] or len(words) != 3:
        return None
    typed = words[2].lower()
    named = [p for p in vocab.held if p.lower() == typed] or \
        [p for p in vocab.held if p.lower().startswith(typed)]
    return vocab.held[named[0]] if len(named) == 1 else None


def _quoted(text: str) -> str:
    return f'"{text}"' if any(c in text for c in " '\"") else text


class ShellCompleter:
    """prompt_toolkit completer: commands and options from the click tree, the evening's
    people, souls and chip colours, and cards (short forms and long names)."""

    def __init__(self, root: Any, vocabulary: Callable[[], Vocabulary]) -> None:
        self.root = root
        self.vocabulary = vocabulary

    def get_completions(self, document: Document, complete_event: CompleteEvent
                        ) -> Iterator[Completion]:
        from prompt_toolkit.completion import Completion

        line = split_line(document.text_before_cursor)
        for text, replace, meta in self.candidates(line):
            yield Completion(text, start_position=-len(replace), display_meta=meta or None)

    def candidates(self, line: Line) -> Iterator[tuple[str, str, str]]:
        """(text to insert, typed text it replaces, description) for the word being typed."""
        cmd, param, option_value = self._locate(line.words)
        typed = line.partial
        if line.quote is None and typed.startswith("-") and not option_value:
            yield from _prefixed(_option_names(cmd), typed, line.raw)
            return
        if param is None:
            if _is_group(cmd) and not option_value:
                yield from self._commands(cmd, line)
            return
        if param.name == "cards" and param.nargs == -1 and getattr(cmd, "name", "") == "show":
            yield from self._shown(line)  # `hand show NAME CARDS [NAME CARDS ...]`
            return
        yield from self._values(param.name, line)

    def _commands(self, cmd: Any, line: Line) -> Iterator[tuple[str, str, str]]:
        """The command words of the group ``cmd`` that the word typed begins, each with the
        start of its help. The root's come from the stored table of contents: a Tab on the
        command word builds no command (``main.Tree``)."""
        if isinstance(cmd.commands, Tree):  # shortened as click shortens a command's help
            about = {n: make_default_short_help(t, 60) for n, t in described().items()}
        else:
            about = {n: c.get_short_help_str(60) for n, c in cmd.commands.items()
                     if not c.hidden}
        names = sorted(about)
        if cmd is self.root and not line.words:
            names += ["help", "try", "clear", *LEAVE]
        for name in _prefixed(names, line.partial, line.raw):
            yield name[0], name[1], about.get(name[0], "")

    def _shown(self, line: Line) -> Iterator[tuple[str, str, str]]:
        """`hand show`: a player's name where a name goes (first, or after cards: the next
        player's), cards after it; inside "NAME: CARDS", cards after the colon."""
        players = self.vocabulary().players
        typed = line.partial
        after = line.words[line.words.index("show") + 1:] if "show" in line.words else []
        given = [w for w in after if not w.startswith("-")]
        if ":" in typed or (line.quote is not None and (given or " " in typed)):
            yield from _cards(typed.rsplit(":", 1)[-1].rsplit(" ", 1)[-1])
            return
        if line.quote is not None:  # "NAME: CARDS", several players at once
            yield from _prefixed([f"{n}: " for n in players], typed, typed)
            return
        if not given:
            yield from ((n, line.raw, "a player") for n, _, _ in _prefixed(players, typed, ""))
            return
        yield from _cards(typed)
        named = {w.rstrip(":").lower() for w in given}
        yield from ((n, line.raw, "the next player") for n, _, _ in
                    _prefixed([p for p in players if p.lower() not in named], typed, ""))

    def _values(self, kind: str, line: Line) -> Iterator[tuple[str, str, str]]:
        vocab = self.vocabulary()
        typed, raw = line.partial, line.raw
        if kind in PEOPLE:
            people = vocab.people
            if vocab.to_act and line.words and line.words[0] in BETTING:
                people = [vocab.to_act, *[p for p in people if p != vocab.to_act]]
            yield from _prefixed(people, typed, raw)
        elif kind == "soul":
            studied = _studied(vocab, line.words)
            for soul in vocab.souls if studied is None else studied:
                if _matches(soul, typed):
                    yield _quoted(soul), raw, "soul"
        elif kind == "chips":
            piece = typed.rsplit(",", 1)[-1]
            if ":" not in piece:
                yield from _prefixed([f"{c}:" for c in vocab.colours], piece, piece)
        elif kind == "arcanum":
            yield from _cards(typed, majors_only=True)
        elif kind in FIXED:
            yield from _prefixed(FIXED[kind], typed, raw)
        elif kind == "hands":  # "NAME: CARDS": a name first, then cards
            if ":" in typed:
                piece = typed.rsplit(" ", 1)[-1] if typed.rsplit(":", 1)[-1].strip() else ""
                yield from _cards(piece)
            elif line.quote is None:
                for name in vocab.people:
                    if _matches(name, typed):
                        yield f'"{name}: ', raw, "a hand still in"
            else:
                yield from _prefixed([f"{n}: " for n in vocab.people], typed, typed)
        elif kind in CARDS:
            piece = typed.rsplit(" ", 1)[-1] if line.quote else typed
            yield from _cards(piece)
        elif kind == "terms":  # `rules`: ruling ids, and `last`
            from referee.cli import rulings

            yield from _prefixed([*rulings.book().ids, rulings.LAST], typed, raw)

    def _locate(self, words: list[str]) -> tuple[Any, Any, bool]:
        """The command the words lead to, the parameter the next word fills, and whether
        that is an option's value."""
        cmd = self.root
        if words and words[0] in ("help", "referee", "try"):  # `try LINE` (E133)
            words = words[1:]
        positional = 0
        i = 0
        while i < len(words):
            word = words[i]
            if word.startswith("-") and word != "-":
                option = _find_option(cmd, word.split("=", 1)[0])
                if option is not None and _takes_value(option) and "=" not in word:
                    if i + 1 == len(words):
                        return cmd, option, True
                    i += 1
            elif _is_group(cmd) and word in cmd.commands:
                cmd, positional = cmd.commands[word], 0
            else:
                positional += 1
            i += 1
        if _is_group(cmd):
            return cmd, None, False
        arguments = [p for p in cmd.params if p.param_type_name == "argument"]
        for arg in arguments:
            if arg.nargs == -1 or positional < arg.nargs:
                return cmd, arg, False
            positional -= arg.nargs
        return cmd, None, False


def make_completer(root: Any, vocabulary: Callable[[], Vocabulary]) -> Completer:
    """A prompt_toolkit ``Completer`` over the click tree ``root`` and the evening's names."""
    from prompt_toolkit.completion import Completer

    class _Completer(ShellCompleter, Completer):
        pass

    return _Completer(root, vocabulary)


def _matches(candidate: str, typed: str) -> bool:
    low, typed = candidate.lower(), typed.lower()
    return low.startswith(typed) or (low.startswith("the ") and low[4:].startswith(typed))


def _prefixed(names: Iterable[str], typed: str, raw: str) -> Iterator[tuple[str, str, str]]:
    for name in names:
        if _matches(name, typed):
            yield name, raw, ""


def _cards(typed: str, majors_only: bool = False) -> Iterator[tuple[str, str, str]]:
    """Short forms first (``KnC``, ``XVI``), then long names (``Knight of Cups``)."""
    from referee.rules.cards import DECK

    deck = [c for c in DECK if c.is_major] if majors_only else DECK
    if not typed:
        for card in deck:
            yield card.short, "", card.long
        return
    for card in deck:
        if card.short.lower().startswith(typed.lower()):
            yield card.short, typed, card.long
    if len(typed) >= 2:
        for card in deck:
            if _matches(card.name, typed):
                yield card.name, typed, card.short


class Shell:
    """Runs command lines through one click command tree, built once for the night."""

    def __init__(self, root: Any, db: Path | None, debug: bool) -> None:
        self.root = root
        self.db = db
        self.debug = debug
        self.vocab = Vocabulary(db if db is not None else db_path())
        #: Whether a prompt shows the vocabulary (its toolbar, Tab): piped lines have neither,
        #: so they do not re-read the evening after every line only to refresh it.
        self.prompting = False
        #: The newest phone request the GM has been told of (R46, E215).
        self.seen = _newest_request(self.vocab.path)
        from referee.cli import rulings

        rulings.on_disk = False  # the shell remembers its last refusal in memory

    def vocabulary(self) -> Vocabulary:
        return self.vocab.refresh()

    def run_line(self, text: str) -> int:
        """Run one line as ``referee LINE``; a mistake prints one line. Returns the exit status.

        Raises:
            runner.Leave: the line was ``exit`` or ``quit``.
        """
        from referee.cli import errors, requests, runner

        try:
            runner.check_length(text)  # E184: at once, before any word is read
            words = runner.plain_words(text)
            if words is None:
                words = runner.split(text)
        except RefereeError as exc:
            errors.refuse(printable(told(exc)), exc.ruling)
            return 2
        own = runner.at_the_prompt(words, self.prompting)  # exit, clear, help alone
        if own is not None:
            return own
        if words and words[0] in ("ok", "no"):  # R46: the GM's answer to a phone (E212)
            try:
                return self.answer(words)
            except RefereeError as exc:
                errors.refuse(printable(told(exc)), exc.ruling)
                return 2
        if words and words[0] == "shell":
            typer.echo("error: this is the shell already; type a command, or `exit`", err=True)
            return 2
        try:
            code = self.without_parser(words)
            if code is not None:
                return code
            return requests.run(words, db=self.db, debug=self.debug, root=self.root,
                                  shell=True)
        finally:
            if self.prompting:
                self.vocab.refresh()

    def answer(self, words: list[str]) -> int:
        """`ok N [ANSWER]` or `no N REASON`: a phone's request accepted or declined (R46),
        as `requests accept` and `requests decline` (E212).

        Raises:
            RefereeError: no number, no reason to decline with, or the queue's refusal.
        """
        how = "`ok N` (a question: `ok N ANSWER`) or `no N REASON`"
        if len(words) < 2 or not words[1].isdigit():
            raise BadInput(f"give the request's number: {how} (E212)", ruling="E212")
        no = int(words[1])
        if words[0] == "no":
            if len(words) < 3:
                raise BadInput(f"say why, for the phone: `no {no} REASON` (E213)",
                               ruling="E213")
            return phone_requests.decline(self.vocab.path, no, " ".join(words[2:]))
        return phone_requests.accept(self.vocab.path, no, " ".join(words[2:]) or None)

    def waiting(self) -> str:
        """What the phones asked before the shell started and still waits (R46, E215)."""
        if not asks_path(self.vocab.path).exists():
            return ""
        n = sum(1 for a in load_queue(self.vocab.path).asks if a["status"] == "open")
        return (f"{plural(n, 'phone request')} {'waits' if n == 1 else 'wait'} for you: "
                "`requests` lists them, `ok N` / `no N REASON` answers." if n else "")

    def news(self) -> list[str]:
        """The lines for the requests the phones made since the last look (R46, E215)."""
        if not asks_path(self.vocab.path).exists():
            return []
        lines, self.seen = phone_requests.news(self.vocab.path, self.seen)
        return [printable(line) for line in lines]

    def without_parser(self, words: list[str]) -> int | None:
        """Run one of the lines the console reads without typer (``referee.cli.entry``, E160:
        status, a betting move, `chips give`, `log --last N`) as ``requests.run`` runs any
        line: the same body, context and boundary, the same lock, the same answer
        to Ctrl-C. Typed on every line of the night, such a line is not parsed by click again.
        Returns None for any other line (nothing was run, nothing printed)."""
        from referee.cli import context, entry, requests, runner
        from referee.cli.guard import guarded, not_text, start
        from referee.cli.transaction import Parsed

        args = runner.root_args(words, self.db, self.debug)
        if not_text(args) is not None or not entry._plain_streams():
            return None  # the parser's path says what is wrong, or wraps the streams
        line = entry.read(args)
        if line is None:
            return None

        def body() -> None:  # as ``entry.attempt`` runs it
            context.run_alone(context.Context(db=line.db))
            obj = start(line.db)
            obj.line = line.text
            obj.reading = "make"  # a move's request comes back here, made below
            context.run_alone(obj)
            line.body()
            # The answer out now, as a terminal shows it at once, before it is marked shown
            # (E41); a pipe that refuses it refuses it again where the shell flushes it.
            with contextlib.suppress(OSError):
                sys.stdout.flush()

        words = line.words[2:] if line.db is not None else line.words
        with requests.RUNNING:
            try:
                _, code = guarded(body, words, (Parsed,))
            except Parsed as parsed:  # the move the line asks for, through the table's API
                code = requests.made(parsed, words)
            except KeyboardInterrupt:
                typer.echo("interrupted", err=True)
                return 130
            finally:
                context.run_alone(None)
        return code or 0

    def piped(self, lines: Iterable[str]) -> int:
        """Run every line; the status is that of the last line that failed, else 0."""
        from referee.cli import runner

        return runner.run_piped(lines, self.run_line)

    def interactive(self) -> int:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, History, InMemoryHistory

        history: History
        try:
            history = FileHistory(str(history_file()))
        except OSError:
            history = InMemoryHistory()

        session: PromptSession[str] = PromptSession(
            history=history,
            completer=make_completer(self.root, self.vocabulary),
            complete_while_typing=False,
            bottom_toolbar=lambda: printable(f" {self.vocab.path} · {self.vocab.line} · Tab "
                                             "completes, `help`, Ctrl-D leaves"),
        )
        typer.echo("The referee shell: type commands without `referee` (`help` lists them, "
                   "Tab completes, `exit` or Ctrl-D leaves).")
        waiting = self.waiting()
        if waiting:
            typer.echo(waiting)
        self.prompting = True
        self.vocab.refresh()
        from referee.cli import runner
        from referee.cli.shell.request_alerts import Bell

        bell = Bell(self.vocab.path, self.news)
        bell.start()
        try:
            return runner.prompt_loop(session, "referee> ", self.run_line, pre_run=bell.at_prompt)
        finally:
            bell.stop()


def _newest_request(path: Path) -> int:
    """The newest request's number in the queue beside ``path`` (0: none), read only when a
    queue exists."""
    if not asks_path(path).exists():
        return 0
    return max((a["no"] for a in load_queue(path).asks), default=0)


def history_file() -> Path:
    """``shell-history`` in the user data directory (created on first use)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("referee", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "shell-history"


def full_command() -> Any:
    """The click command of the whole app, even when ``run()`` pruned it to `shell`."""
    from referee.cli import runner

    return runner.build_root()


def shell(
    station: Annotated[str | None, typer.Option(
        "--station", help="Run every line at `referee serve --station` URL instead.")] = None,
    token: Annotated[str | None, typer.Option(
        "--token", help="The station token that `serve` printed.")] = None,
) -> None:
    """A prompt for the whole night: every command without `referee`, with history and Tab.

    Piped (stdin not a terminal), runs each line of stdin and exits with the status of
    the last line that failed. With --station every line runs on the serving machine.
    """
    from referee.cli import context

    if station is not None:
        from referee.cli.room import station as remote

        raise typer.Exit(remote.remote(station, token, ["shell"]))

    from referee.storage import memo

    sh = Shell(full_command(), context.current().db, context.current().debug)
    memo.keep()  # E155: a line starts from the last line's fold while the file is unchanged
    try:
        code = sh.interactive() if sys.stdin.isatty() else sh.piped(sys.stdin)
    finally:
        memo.keep(False)
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add `shell` (Setup) to the root app."""
    app.command("shell", rich_help_panel="Setup")(shell)
