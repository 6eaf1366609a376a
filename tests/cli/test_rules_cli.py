"""`referee rules`, `--explain`, `rules last`, powers read aloud, `--version`, help at 80 columns
and the generated command reference, through the real CLI."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from typer.testing import CliRunner

import referee
from referee.cli import main, rulings
from referee.cli.help import reference
from referee.cli.main import app, table_of_contents
from referee.cli.shell import shell as prompt
from referee.rulebook import parse
from tests.cli.conftest import GM

ROOT = Path(__file__).resolve().parents[2]
BOOK = parse((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II"]


def _folder(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.is_file()}


# -- reading rulings -----------------------------------------------------------------------------


def test_rules_id_reads_the_whole_entry(gm: GM) -> None:
    out = gm("rules", "R16").stdout
    assert out.startswith("R16 The Law · Fool's Errand: the table, money and betting\n")
    body = out.split("\n", 1)[1]
    assert " ".join(body.split()) == " ".join(BOOK.get("R16").plain.split())


def test_rules_several_ids_any_case_in_the_order_asked(gm: GM) -> None:
    out = gm("rules", "e3", "R16").stdout
    assert out.index("E3 The opener") < out.index("R16 The Law")
    got = gm.json("rules", "R16", "E3", "r16")
    assert [r["id"] for r in got] == ["R16", "E3"]
    assert got[0] == {"id": "R16", "title": "The Law", "section": BOOK.get("R16").section,
                      "text": BOOK.get("R16").plain}


def test_rules_unknown_id_names_the_nearest_and_exits_2(gm: GM) -> None:
    line = gm.fails("rules", "R99")
    top = sorted((i for i in BOOK.ids if re.fullmatch(r"R\d+", i)), key=lambda i: -int(i[1:]))
    assert line == (f"error: no ruling R99 in the rulebook; the nearest are {', '.join(top[:3])} "
                    "(`referee rules` lists every id)")
    last_e = max((i for i in BOOK.ids if i.startswith("E")), key=lambda i: int(i[1:]))
    assert last_e in gm.fails("rules", "R16", "E999")  # the highest E ruling is the nearest


def test_rules_words_are_ranked_with_ids(gm: GM) -> None:
    out = gm("rules", "ANTE").stdout
    heads = [ln.split()[0] for ln in out.splitlines() if not ln.startswith(" ")]
    assert heads[0] == "R15" and {"R12", "R13"} <= set(heads)
    assert out.rstrip().endswith("best first; `referee rules ID` reads one in full.")
    got = gm.json("rules", "ante")
    assert [r["id"] for r in got] == heads[:-1]
    assert [r["score"] for r in got] == sorted((r["score"] for r in got), reverse=True)


def test_rules_words_that_find_nothing_say_so_and_exit_2(gm: GM) -> None:
    line = gm.fails("rules", "xyzzy", "plugh")
    assert line.startswith("error: no ruling mentions 'xyzzy plugh'")


def test_rules_lists_every_id_and_title_by_section(gm: GM) -> None:
    out = gm("rules").stdout
    for ruling in BOOK.rulings:
        assert re.search(rf"^  {ruling.id}\s+{re.escape(ruling.title)}$", out, re.M), ruling.id
    for section in BOOK.sections:
        assert f"\n{section}\n" in f"\n{out}"
    got = gm.json("rules")
    assert [s["section"] for s in got] == list(BOOK.sections)
    assert [r["id"] for s in got for r in s["rulings"]] == BOOK.ids


def test_rules_reads_the_packaged_book_from_any_directory(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["rules", "R1"])
    assert result.exit_code == 0 and "78 cards" in result.stdout
    assert rulings.rulebook_path().name == "rules.md" and rulings.rulebook_path().is_file()


# -- the ruling behind a refusal -----------------------------------------------------------------


@pytest.fixture
def seated(gm: GM) -> GM:
    gm("new", "--fool", "Max", *SEATS)
    gm("hand", "start")
    hand = gm.status()["hand"]
    cards = iter(["KC KW", "2S 3P", "4P 5C", "6S 7W"])
    gm("hand", "show", *(f"{n}: {next(cards)}" for n in hand["in"] if n != "Max"),
       "Max: 2W 6W 8S 7P")  # R9: every up card of round one, so that bets are ruled on
    return gm


def test_r16_explain_prints_the_ruling_after_the_one_refusal_line(
        seated: GM, tmp_path: Path) -> None:
    before = _folder(tmp_path)
    result = seated.invoke("--explain", "chips", "give", "Ada", "Cy", "red:1")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: Ada is seated")
    assert result.stdout.startswith("R16 The Law · ")
    assert "Powers never change hands." in result.stdout
    assert _folder(tmp_path) == before  # the evening's folder is byte for byte the same


def test_explain_stands_anywhere_and_a_typing_mistake_has_no_ruling(seated: GM) -> None:
    args = main._hoist_root_options(["bet", "Zed", "--explain"])  # as `referee` and the shell
    assert args == ["--explain", "bet", "Zed"]
    result = seated.invoke(*args)
    assert result.exit_code == 2 and result.stderr.startswith("error: unknown player 'Zed'")
    assert "No ruling is behind this refusal" in result.stdout


def test_r16_rules_last_reads_the_last_refusal_and_leaves_the_evening_alone(
        seated: GM, tmp_path: Path) -> None:
    before = _folder(tmp_path)
    line = seated.fails("chips", "give", "Ada", "Cy", "red:1")
    assert _folder(tmp_path) == before
    rulings.memory = None  # as a new process: from the cache file
    out = seated("rules", "last").stdout
    assert out.startswith(f"The last refusal: {line.removeprefix('error: ')}\nR16 The Law")
    got = seated.json("rules", "last")
    assert got["refusal"] == line.removeprefix("error: ")
    assert [r["id"] for r in got["rulings"]] == ["R16"]
    assert rulings.memory_path().is_file() and rulings.memory_path().parent != tmp_path
    assert _folder(tmp_path) == before


def test_rules_last_without_a_refusal_exits_2(gm: GM) -> None:
    assert "no refused command is remembered" in gm.fails("rules", "last")


def test_a_rules_lookup_is_no_refusal_to_remember(seated: GM) -> None:
    seated.fails("chips", "give", "Ada", "Cy", "red:1")
    seated.fails("rules", "R99")
    assert seated.json("rules", "last")["rulings"][0]["id"] == "R16"


def test_the_memory_is_never_written_beside_the_evening(
        seated: GM, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path))
    before = _folder(tmp_path)
    seated.fails("chips", "give", "Ada", "Cy", "red:1")
    assert _folder(tmp_path) == before


# -- the shell -----------------------------------------------------------------------------------


def test_shell_rules_complete_ids_and_remember_in_memory(
        seated: GM, capsys: pytest.CaptureFixture[str]) -> None:
    sh = prompt.Shell(prompt.full_command(), seated.db, debug=False)
    completer = prompt.make_completer(sh.root, sh.vocabulary)

    def complete(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text, len(text)),
                                                          CompleteEvent())]

    assert complete("rules R3") == [i for i in BOOK.ids if i.startswith("R3")]  # book order
    assert {"R3", "R30", "R37", "R38"} <= set(complete("rules R3"))
    assert [i for i in complete("rules R16 e2") if len(i) < 4] == [
        "E2", "E25", "E26", "E27", "E28", "E29", "E20", "E21", "E23", "E24",
        "E22"]  # in the rulebook's order (E200 ... among them where they stand)
    assert complete("rules la") == ["last"]
    assert sh.run_line("chips give Ada Cy red:1") == 2
    assert sh.run_line("rules last") == 0
    out = capsys.readouterr()
    assert out.out.startswith("The last refusal: Ada is seated") and "R16 The Law" in out.out
    assert not rulings.memory_path().exists()  # the shell keeps it in memory


# -- powers read aloud ---------------------------------------------------------------------------


def test_r26_power_access_show_list_and_use_read_the_power_aloud(seated: GM) -> None:
    text = ("Choose one minor card in your hand: until the hand ends it counts as its mirror rank "
            "in the same suit")
    out = seated("power", "access", "Ada", "XII", "upright").stdout
    assert "Ada receives Upside Down (R26), to read aloud:" in out
    assert "XII The Hanged Man, upright: Upside Down (1 Charge; before the showdown)" in out
    assert text in " ".join(out.split())
    out = seated("power", "show", "hanged man").stdout
    assert "upright: Upside Down (1 Charge; before the showdown) · held by Ada" in out
    assert "XII The Hanged Man, reversed: Suspended" in out and text in " ".join(out.split())
    out = seated("power", "show", "XII", "rev").stdout
    assert "Suspended" in out and "Upside Down" not in out
    shown = seated.json("power", "show", "XII")
    listed = seated.json("power", "list")["powers"]
    assert shown == [p for p in listed if p["card"] == "XII"]
    out = seated("power", "list").stdout
    assert " ".join(out.split()).count(" · available") == 43 and "Depleted: none." in out
    assert text in " ".join(out.split())


def test_r26_powers_read_at_80_columns(seated: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = seated("power", "access", "Ada", "XII", "reversed").stdout
    out += seated("power", "list").stdout + seated("power", "show", "0").stdout
    assert max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize(("args", "words"), [
    (["5C"], "minor card"), (["XII", "sideways"], "orientation"), (["XXX"], "unknown card")])
def test_r26_power_show_refuses_what_is_no_power(seated: GM, args: list[str], words: str) -> None:
    assert words in seated.fails("power", "show", *args)


def test_r26_power_use_reads_the_power_used(seated: GM) -> None:
    listed = seated.json("power", "list")["powers"]
    free = next(p for p in listed if p["name"] == "Ill Star")  # free, at any time (S11)
    seated("power", "access", "Cy", free["card"], free["orientation"])
    other = next(n for n in seated.status()["hand"]["in"] if n not in ("Cy", "Max"))
    out = seated("power", "use", "Cy", free["key"], "--target", other).stdout
    assert f"Cy uses {free['name']} on {other}" in out
    assert free["text"].split(".")[0] not in out  # one line at the table; read at its access
    seated("undo")
    out = seated("--explain", "power", "use", "Cy", free["key"], "--target", other).stdout
    assert f"Cy uses {free['name']} on {other}" in out
    assert f"{free['orientation']}: {free['name']} (0 Charges" in out
    assert " ".join(free["text"].split()) in " ".join(out.split())


# -- CLI conventions -----------------------------------------------------------------------------


def test_version_is_the_package_version(runner: CliRunner) -> None:
    for flag in ("--version", "-V"):
        result = runner.invoke(app, [flag])
        assert result.exit_code == 0 and result.stdout == f"referee {referee.__version__}\n"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "referee.__version__"}


def test_root_help_prints_the_completion_options_on_lines_of_their_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    toc = table_of_contents()
    assert re.search(r"^  --install-completion  +Install tab completion", toc, re.M)
    assert re.search(r"^  --show-completion  +Print the completion script", toc, re.M)
    assert re.search(r"^  --version, -V  +Print the version", toc, re.M)
    assert max(len(ln) for ln in toc.splitlines()) <= 80


def _commands(cmd: object, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    subs = getattr(cmd, "commands", None)
    out = [path]
    if isinstance(subs, dict):
        for name, sub in subs.items():
            out += _commands(sub, (*path, name))
    return out


def test_every_help_reads_at_80_columns(runner: CliRunner, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    result = runner.invoke(app, ["new", "--help"])
    assert "NAME:ARCANUM:COLOUR[:ASSISTANT[:ARCANUM]]" in result.stdout
    for path in _commands(prompt.full_command())[1:]:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "…" not in result.stdout, (path, result.stdout)


def test_docs_cli_md_is_the_reference_the_app_generates() -> None:
    written = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert written == reference.render(), (
        "docs/cli.md is out of date: regenerate it with "
        "`python -m referee.cli.help.reference > docs/cli.md`")
    for path in _commands(prompt.full_command()):
        assert f"## `{' '.join(('referee', *path))}`" in written


def test_the_guides_example_of_rules_runs_word_for_word(
        runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    section = guide.split("## The rulebook", 1)[1]
    block = re.search(r"```console\n(.*?)```", section, re.S)
    assert block is not None
    commands = re.split(r"^\$ ", block.group(1), flags=re.M)[1:]
    assert len(commands) >= 2
    for item in commands:
        line, expected = item.split("\n", 1)
        words = shlex.split(line)
        assert words[:2] == ["referee", "rules"], line
        result = runner.invoke(app, words[1:])
        assert result.exit_code == 0, result.output
        assert result.stdout == expected, line


def test_json_is_one_document(gm: GM) -> None:
    for args in (["rules"], ["rules", "R1"], ["rules", "deck"]):
        json.loads(gm(*args, "--json").stdout)


@pytest.mark.parametrize(("args", "ruling"), [
    (["chips", "give", "Ada", "Cy", "red:1"], "R16"),          # the Law
    (["bet", "Cy", "3"], "R12"),                                 # limit phase: one chip
    (["power", "access", "Max", "XII", "upright"], "R26"),       # the Fool has no powers
    (["fold", "Max"], "R15"),                                    # the Fool never folds
    (["hand", "rank", "KC", "KC"], "R8"),                        # a card twice
])
def test_rules_last_names_the_ruling_of_each_refusal(
        seated: GM, tmp_path: Path, args: list[str], ruling: str) -> None:
    before = _folder(tmp_path)
    result = seated.invoke("--explain", *args)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert result.stdout.startswith(f"{ruling} "), result.output
    assert _folder(tmp_path) == before
    rulings.memory = None
    assert seated.json("rules", "last")["rulings"][0]["id"] == ruling
