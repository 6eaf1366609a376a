"""The rulebook, docs/rules.md: its parser and search, and that it is whole.

Every ruling id cited in ``referee/`` has an entry; every entry is cited by the code or a test;
the repository stands on its own (no file names a path outside it).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rulebook import ID, Rulebook, canonical, number_of, parse, plain

ROOT = Path(__file__).resolve().parent.parent
BOOK = parse((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
GAMES = ("Cards and notation", "Fool's Errand", "Tarot Scum", "Weir's Wager", "Card of Fate")


def _order(ruling_id: str) -> tuple[str, int, str]:
    return ruling_id[0], number_of(ruling_id), ruling_id


def _cited(paths: list[Path]) -> dict[str, list[str]]:
    """Ruling ids written in these files (``# noqa: E402`` is a lint code, not a ruling), and
    ids named in test function names (``test_e23_...``)."""
    out: dict[str, list[str]] = {}
    for path in paths:
        text = re.sub(r"#\s*noqa[^\n]*", "", path.read_text(encoding="utf-8"))
        ids = {m.group(0) for m in ID.finditer(text)}
        for name in re.findall(r"def (test_\w+)", text):
            ids |= {canonical(w) for w in name.split("_") if re.fullmatch(r"[rhestwf]\d+a?", w)}
        for ruling_id in ids:
            out.setdefault(ruling_id, []).append(str(path.relative_to(ROOT)))
    return out


def _code() -> list[Path]:
    return sorted((ROOT / "referee").rglob("*.py"))


# -- the book is whole ---------------------------------------------------------------------------


def test_the_house_rulings_are_all_there_in_order() -> None:
    house = [i for i in BOOK.ids if i.startswith("R")]
    assert {f"R{n}" for n in [*range(1, 39), *range(40, 44)]} | {"R16a"} <= set(house)
    for _, rulings in BOOK.by_section():  # in each section in order: R16a after R16
        ids = [r.id for r in rulings if r.id.startswith("R")]
        assert ids == sorted(ids, key=_order)


def test_an_id_with_a_letter_after_its_number_reads_in_any_case() -> None:
    book = parse("## A\n- **R16 Law.** a\n- **R16a Souls.** b\n- **R17 Leaving.** c\n")
    assert book.get("r16A").title == "Souls" and book.get("R16").title == "Law"
    assert [m.group(0) for m in ID.finditer("refused (R16a), see R16.")] == ["R16a", "R16"]
    assert book.nearest("R16b")[:2] == ["R16", "R16a"]


def test_every_entry_has_an_id_a_title_a_text_and_a_section_of_its_game() -> None:
    assert len(BOOK.rulings) == len(set(BOOK.ids))
    for ruling in BOOK.rulings:
        assert ruling.title and ruling.text, ruling.id
        assert ruling.section.startswith(GAMES), (ruling.id, ruling.section)
    for letter in "HESTWF":
        assert any(r.id.startswith(letter) for r in BOOK.rulings), letter


def test_the_four_rule_texts_are_cited_by_title() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for title in ("Fool's Errand", "Tarot Scum", "Weir's Wager", "Card of Fate"):
        assert f"**{title}**" in text, title


def test_every_ruling_cited_in_the_code_has_an_entry() -> None:
    missing = {i: where for i, where in _cited(_code()).items() if BOOK.get(i) is None}
    assert not missing, f"ids cited in referee/ without an entry in docs/rules.md: {missing}"


def test_every_entry_is_cited_by_the_code_or_a_test() -> None:
    tests = [p for p in sorted((ROOT / "tests").rglob("*.py")) if p.name != "test_rulebook.py"]
    data = sorted((ROOT / "data").glob("*.toml"))
    cited = _cited(_code() + tests + data)
    uncited = sorted((i for i in BOOK.ids if i not in cited), key=_order)
    assert not uncited, f"entries of docs/rules.md that no code or test cites: {uncited}"


def _repository_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        listed = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                  if p.is_file() and not {".git", ".venv", "__pycache__"} & set(p.parts)]
    return [ROOT / name for name in listed if (ROOT / name).is_file()]


@pytest.mark.system
def test_no_file_names_a_path_outside_the_repository() -> None:
    # Built from pieces, so that this file does not name them itself.
    outside = [".." + "/", "RULINGS" + ".md", "DESIGN" + ".md", "STYLE" + ".md", "shared" + "/"]
    found = []
    for path in _repository_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        found += [f"{path.relative_to(ROOT)}: {needle}" for needle in outside if needle in text]
    assert not found, found


# -- the parser -----------------------------------------------------------------------------------


SAMPLE = """# Book

Intro text, not an entry.

## Fool's Errand: hands

- **R4 Categories.** From the highest
  to the lowest.
- **H9 Flushes under magic.** Duplicates count toward a flush.

The project's decisions:

- **W1 What each Elixir rules.** From the list:

  | Elixir | runs |
  |---|---|
  | Relax | ascending |

  Sets count in every round.

## Empty section

Only words.
"""


def test_parse_joins_lines_keeps_tables_and_sections() -> None:
    book = parse(SAMPLE)
    assert book.ids == ["R4", "H9", "W1"]
    assert book.sections == ("Fool's Errand: hands",)
    assert book.get("r4") is not None and book.get("R4").text == "From the highest to the lowest."
    w1 = book.get("W1")
    assert w1 is not None
    assert w1.text == ("From the list:\n\n| Elixir | runs |\n|---|---|\n| Relax | ascending |"
                       "\n\nSets count in every round.")
    assert book.get("H9").title == "Flushes under magic"


def test_parse_refuses_an_id_given_twice() -> None:
    with pytest.raises(ValueError, match="R4 is given twice"):
        parse("## A\n- **R4 One.** a\n- **R4 Two.** b\n")


def test_nearest_ids_by_letter_then_number() -> None:
    assert BOOK.nearest("R99") == sorted((i for i in BOOK.ids if i[0] == "R"), key=_order,
                                         reverse=True)[:3]
    assert BOOK.nearest("E999")[0] == max((r for r in BOOK.ids if r[0] == "E"), key=_order)
    assert set(BOOK.nearest("X16")) <= {i for i in BOOK.ids if number_of(i) == 16}


def test_find_is_case_insensitive_ranked_and_needs_every_word() -> None:
    hits = [r.id for r, _ in BOOK.find(["ANTE"])]
    assert {"R12", "R13", "R15"} <= set(hits)
    assert hits[0] == "R15"  # four mentions of antes
    assert [r.id for r, _ in BOOK.find(["the", "law"])][0] == "R16"  # the title counts most
    assert BOOK.find(["xyzzy"]) == [] and BOOK.find([]) == []


def test_plain_takes_markdown_out() -> None:
    assert plain("`--magic` is **bold** and *(option)*") == "--magic is bold and (option)"


_words = st.text(alphabet="abcdefghij", min_size=1, max_size=8)


@st.composite
def books(draw: st.DrawFn) -> tuple[str, list[tuple[str, str, list[str]]]]:
    ids = draw(st.lists(st.tuples(st.sampled_from("RHESTWF"), st.integers(1, 99)),
                        min_size=1, max_size=12, unique=True))
    entries = [(f"{letter}{n}", " ".join(draw(st.lists(_words, min_size=1, max_size=3))),
                draw(st.lists(_words, min_size=1, max_size=20))) for letter, n in ids]
    lines = ["# Book", "", "## Section", ""]
    for ruling_id, title, words in entries:
        lines.append(f"- **{ruling_id} {title}.** {' '.join(words[:5])}")
        lines += [f"  {' '.join(words[i:i + 5])}" for i in range(5, len(words), 5)]
    return "\n".join(lines) + "\n", entries


@given(books())
def test_parse_reads_back_every_entry_written(case: tuple[str, list[tuple[str, str, list[str]]]]
                                              ) -> None:
    text, entries = case
    book = parse(text)
    assert [(r.id, r.title, r.text) for r in book.rulings] == [
        (i, title, " ".join(words)) for i, title, words in entries]


@given(books(), st.lists(_words, min_size=1, max_size=3))
def test_every_hit_holds_every_word(case: tuple[str, list[tuple[str, str, list[str]]]],
                                    words: list[str]) -> None:
    book: Rulebook = parse(case[0])
    hits = book.find(words)
    scores = [score for _, score in hits]
    assert scores == sorted(scores, reverse=True)
    for ruling, _ in hits:
        tokens = f"{ruling.id} {ruling.title} {ruling.text}".casefold().split()
        assert all(any(t.startswith(w) for t in tokens) for w in words)
    # and every entry holding every word is found
    holding = [r.id for r in book.rulings if all(
        any(t.startswith(w) for t in f"{r.id} {r.title} {r.text}".casefold().split())
        for w in words)]
    assert sorted(r.id for r, _ in hits) == sorted(holding)


DECIDED = re.compile(r"Decided in `([\w./]+)`\.")


def _decider(name: str) -> Path:
    """The file a ``Decided in`` names: a module of the package, or a file of its data."""
    if "/" in name:
        return ROOT / name
    parts = name.split(".")
    module = ROOT.joinpath(*parts).with_suffix(".py")
    return module if module.exists() else ROOT.joinpath(*parts, "__init__.py")


def _misfiled(book: Rulebook) -> dict[str, str]:
    """Entries whose ``Decided in `MODULE`.`` is missing, doubled, names no file, or names a
    file that does not cite the entry's id."""
    wrong = {}
    for ruling in book.rulings:
        named = DECIDED.findall(ruling.text)
        if len(named) != 1:
            wrong[ruling.id] = f"names {len(named)} deciding modules, not 1"
            continue
        path = _decider(named[0])
        if not path.is_file():
            wrong[ruling.id] = f"{named[0]} does not exist"
        elif ruling.id not in {m.group(0) for m in ID.finditer(path.read_text("utf-8"))}:
            wrong[ruling.id] = f"{named[0]} does not cite {ruling.id}"
    return wrong


def test_every_ruling_names_the_module_that_decides_it_and_that_module_cites_it() -> None:
    """From the book to the code in one step: each entry's ``Decided in `MODULE`.`` names a
    module that exists and cites the id (so a search for the id there finds the ruling)."""
    assert not _misfiled(BOOK)


def test_a_misfiled_ruling_is_caught() -> None:
    planted = parse("## Fool's Errand: betting\n\n"
                    "- **R15 The Fool.** He calls.\n\n  Decided in `referee.rules.cards`.\n"
                    "- **E7 Folds.** The Fool wins.\n\n  Decided in `referee.evening.nowhere`.\n"
                    "- **E9 Away.** Assistants are away.\n")
    assert _misfiled(planted) == {"R15": "referee.rules.cards does not cite R15",
                                  "E7": "referee.evening.nowhere does not exist",
                                  "E9": "names 0 deciding modules, not 1"}
