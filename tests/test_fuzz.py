"""A fuzz over every command group's arguments (E97): names, cards, numbers,
option values and files, typed at an evening in play. Every command exits 0 or 2, never with
a traceback or an internal error, and on exit 2 the evening's folder is byte for byte as it was.

Small here (``FUZZ_EXAMPLES``, default 60); ``benchmarks/fuzz.py`` runs many more and counts.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))

#: Never typed by the fuzz: they wait for a terminal (`shell`, `watch` without --once), serve
#: until stopped (`serve`) or write a whole evening elsewhere (`demo`).
SKIP = {("shell",), ("demo",), ("serve",)}

NAMES = ["Ada", "Ann", "Cy", "Di", "Max", "ada", "A", "Zed", "", " ", "[/]", "[bold]x",
         "Ada\n", "\x1b[2J", "Gus", "Flo", "fool", "mistress", "pot"]
CARDS = ["KC", "KC KW", "XVI", "0", "M21", "AC 6W 7S QP", "2S 7C 9C 3P 4P", "Knight of Cups",
         "ZZ", "KC KC", "-", "pass", "Cy: KC KW 2S 7C 9C 3P 4P", "5C,5S", "Relax", "AH 10S"]
NUMBERS = ["1", "0", "-1", "3", "10", "99999999999999999999", "nan", "inf", "1e308", "2.5",
           "-0", "007"]
WORDS = ["red:1", "blue:2", "red:0", "red", ":", "red:-1", "amber", "green", "the amber bottle",
         "evening", "scum", "wager", "fate", "Zzyzx", "health", "fiery=7", "upright", "first",
         "surrender", "aim", "stand", "xx" * 30, "é", "\x00", "[red]", "a,b"]


#: Characters no GM means to type: bytes that are not UTF-8 (as Python hands them on, lone
#: surrogates), NUL, C0 and C1 controls, line separators, and format characters (bidi
#: overrides and isolates, zero-width, soft hyphen, byte-order mark).
ODD = ["\udcff", "\udc80", "\udcfe\udcff", "\x00", "\x1b", "\x1b[2J", "\x07", "\r", "\n", "\t",
       "\x7f", "\x85", "\x9b", "\u2028", "\u2029", "\u202e", "\u2066", "\u200b", "\u200d",
       "\u00ad", "\ufeff", "\ud800"]


@dataclass
class Files:
    """Odd files a GM might give where a file is asked for, and odd paths: a pipe, a loop of
    symbolic links, a dangling link, a name over 255 bytes, a path through a file."""

    folder: Path
    paths: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        binary = self.folder / "binary.toml"
        binary.write_bytes(bytes(range(256)) * 4)
        deep = self.folder / "deep.toml"
        deep.write_text("a = " + "[" * 2000 + "]" * 2000 + "\n")
        fifo = self.folder / "pipe.json"
        if not fifo.exists():
            os.mkfifo(fifo)
        loop = self.folder / "loop.json"
        if not loop.is_symlink():
            loop.symlink_to(self.folder / "loop2.json")
            (self.folder / "loop2.json").symlink_to(loop)
        dangling = self.folder / "dangling.json"
        if not dangling.is_symlink():
            dangling.symlink_to(self.folder / "nowhere" / "e.json")
        self.paths = ["/dev/zero", str(binary), str(deep), str(self.folder / "missing.toml"),
                      str(self.folder), "-", "/dev/null", str(fifo), str(loop), str(dangling),
                      str(self.folder / ("n" * 300 + ".html")), str(binary / "under-a-file"),
                      str(self.folder / ("d" * 200) / ("e" * 200) / "e.json"),
                      str(self.folder / "bad\udcff.html")]


def leaves() -> list[tuple[tuple[str, ...], Any]]:
    """Every command of the console (path, click command), the skipped ones left out."""
    import typer.main as tm

    from referee.cli.main import full_app

    def walk(cmd: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
        if hasattr(cmd, "commands"):
            for name, sub in sorted(cmd.commands.items()):
                yield from walk(sub, (*path, name))
        elif path not in SKIP:
            yield path, cmd

    return list(walk(tm.get_command(full_app()), ()))


def values(files: Files, raw: bool = False) -> st.SearchStrategy[str]:
    """A value for an argument or an option; with ``raw`` also one mutated with odd bytes."""
    plain = st.one_of(st.sampled_from(NAMES), st.sampled_from(CARDS), st.sampled_from(NUMBERS),
                      st.sampled_from(WORDS), st.sampled_from(files.paths),
                      st.text(max_size=8))
    if not raw:
        return plain
    return st.one_of(plain, mutated(plain), st.text(st.characters(codec=None), max_size=8))


@st.composite
def mutated(draw: Any, base: st.SearchStrategy[str]) -> str:
    """A plain value with odd characters put in, over or after it (raw bytes, controls)."""
    text = draw(base)
    odd = draw(st.sampled_from(ODD))
    at = draw(st.integers(0, len(text)))
    how = draw(st.sampled_from(["insert", "replace", "append"]))
    if how == "replace" and text:
        return text[:at] + odd + text[at + 1:]
    if how == "append":
        return text + odd
    return text[:at] + odd + text[at:]


@st.composite
def command_lines(draw: Any, commands: list[tuple[tuple[str, ...], Any]],
                  files: Files, raw: bool = False) -> list[str]:
    """One command line: a command, values for its arguments, some of its options; with
    ``raw``, values mutated with odd bytes, and now and then an odd ``--db`` in front."""
    path, cmd = draw(st.sampled_from(commands))
    args = list(path)
    value = values(files, raw)
    if raw and draw(st.integers(0, 7)) == 0:
        args = ["--db", draw(st.sampled_from(files.paths))] + args
    for param in cmd.params:
        if param.param_type_name == "argument":
            count = draw(st.integers(0, 3)) if param.nargs == -1 else param.nargs
            if param.required or draw(st.booleans()):
                args += [draw(value) for _ in range(max(count, 0))]
        elif draw(st.integers(0, 3)) == 0 or (param.required and draw(st.integers(0, 5))):
            args.append(param.opts[0])
            if not param.is_flag:
                args.append(draw(value))
    if path == ("watch",) and "--json" not in args:
        args.append("--once")  # never the endless loop
    return args


def folder_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def setup_evening(db: Path) -> None:
    """An evening in play: a hand dealt, a Tarot Scum match, a Weir's Wager game, a character."""
    runner = CliRunner()
    for line in (
        ["new", "--fool", "Max", "--seat", "Ada:XVI:red:Ann:IX", "--seat", "Cy:III:blue:Di:II"],
        ["hand", "start"], ["hand", "show", "Cy", "KC KW"], ["hand", "show", "Ada", "2C 3W"],
        ["hand", "show", "Max", "AC 6W 7S QP"],
        ["scum", "new", "Ada", "Cy", "Di", "Ann", "--seed", "3"],
        ["wager", "new", "Ada", "Cy", "--seed", "3"],
        ["fate", "char", "new", "Gus", "--player", "Ada"],
    ):
        result = runner.invoke(_app(), ["--db", str(db), *line])
        assert result.exit_code == 0, (line, result.output)


def _app() -> Any:
    from referee.cli.main import full_app

    return full_app()


def misbehaviour(db: Path, args: list[str], strict: bool = False,
                 files: Files | None = None) -> str | None:
    """What is wrong with how ``referee ARGS`` ended on the evening at ``db``, if anything.

    ``strict`` (the raw-bytes fuzz): a refusal is exactly one line, leaves the odd files as
    they were too, and the evening's chips still balance afterwards.
    """
    folder = db.parent
    before = folder_bytes(folder)
    odd = _odd_state(files) if strict and files is not None else None
    result = CliRunner().invoke(_app(), ["--db", str(db), *args], input="")
    out = result.output
    if result.exit_code not in (0, 2):
        return f"exit {result.exit_code}: {out[-400:]!r} ({result.exception!r})"
    if "Traceback" in out or "internal error" in out:
        return f"a traceback or internal error: {out[-400:]!r}"
    if result.exit_code == 2:
        if folder_bytes(folder) != before:
            return "exit 2, but the evening's folder changed"
        lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
        if "--json" not in args and (not lines or not lines[-1].startswith("error:")):
            return f"exit 2 without an error line: {result.stderr!r}"
        # One line; with --json the refusal may be the JSON answer itself (`scenario check`).
        if strict and "--explain" not in args and (
                len(lines) > 1 or (not lines and "--json" not in args)):
            return f"a refusal of {len(lines)} lines: {result.stderr[-400:]!r}"
        if odd is not None and _odd_state(files) != odd:
            return "exit 2, but an odd file or path changed"
    if strict:
        return _unbalanced(db)
    return None


def _odd_state(files: Files | None) -> list[tuple[str, int, int]]:
    """The odd paths as they stand: kind and size of each (a pipe stays a pipe)."""
    found = []
    for path in files.paths if files is not None else []:
        try:
            st_ = os.lstat(path)
        except (OSError, ValueError):
            continue
        if stat.S_ISDIR(st_.st_mode):
            continue
        found.append((path, stat.S_IFMT(st_.st_mode), st_.st_size))
    return found


def _unbalanced(db: Path) -> str | None:
    """Whether the evening's chips still balance: every colour's chips all somewhere, none
    below zero (R10)."""
    from referee.errors import RefereeError
    from referee.evening.state import CHIPS_PER_COLOUR
    from referee.storage.store import open_evening

    if not db.is_file():
        return None
    try:
        with open_evening(db, write=False) as ev:
            state = ev.state("evening")
    except RefereeError as exc:
        return f"the evening no longer opens: {exc}"
    if not state.started:
        return None
    totals: dict[str, int] = {}
    for holding in state.chips.values():
        for colour, n in holding.items():
            if n < 0:
                return f"a holding below zero: {colour} {n}"
            totals[colour] = totals.get(colour, 0) + n
    if totals != dict.fromkeys(state.colours(), CHIPS_PER_COLOUR):
        return f"the chips do not balance: {totals}"
    return None


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz-base")
    setup_evening(folder / "e.json")
    return folder


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Files:
    return Files(tmp_path_factory.mktemp("fuzz-files"))


@pytest.fixture(scope="module")
def commands() -> list[tuple[tuple[str, ...], Any]]:
    found = leaves()
    assert len(found) > 70  # every command group, not a sample
    return found


def test_fuzz_every_command_exits_0_or_2_and_a_refusal_changes_nothing(
        base: Path, inputs: Files, commands: list[tuple[tuple[str, ...], Any]],
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(inputs.folder)  # `--html report.html` and friends land in a scratch dir

    @settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck), deadline=None)
    @given(lines=st.lists(command_lines(commands, inputs), min_size=1, max_size=3))
    def run(lines: list[list[str]]) -> None:
        work = tmp_path_factory.mktemp("fuzz")
        shutil.copytree(base, work, dirs_exist_ok=True)
        for args in lines:
            problem = misbehaviour(work / "e.json", args)
            assert problem is None, f"referee {args}: {problem}"

    run()
    # `--html /dev/zero --force` once replaced the device with a page: never again.
    for device in ("/dev/zero", "/dev/null"):
        assert stat.S_ISCHR(os.stat(device).st_mode), f"{device} is no longer a device"


def test_fuzz_raw_bytes_and_odd_paths_are_refused_in_one_line(
        base: Path, inputs: Files, commands: list[tuple[tuple[str, ...], Any]],
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second generator: values mutated with raw bytes, NUL, control
    and format characters, and odd paths (a pipe, a symlink loop, long names) as files and as
    ``--db``. Exit 0 or 2, never a traceback; a refusal is one line and changes no file; the
    chips balance after every command (E94-E97)."""
    monkeypatch.chdir(inputs.folder)

    @settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck), deadline=None)
    @given(lines=st.lists(command_lines(commands, inputs, raw=True), min_size=1, max_size=3))
    def run(lines: list[list[str]]) -> None:
        work = tmp_path_factory.mktemp("fuzz")
        shutil.copytree(base, work, dirs_exist_ok=True)
        for args in lines:
            problem = misbehaviour(work / "e.json", args, strict=True, files=inputs)
            assert problem is None, f"referee {args}: {problem}"

    run()
