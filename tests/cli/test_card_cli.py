"""`referee card`: the players' reference card (E174). Its examples are ranked by the hand
evaluator itself; printed through headless Chromium it is one page on A4 and on Letter."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.cli.rulebook import players_card
from referee.rules.cards import parse_cards
from referee.rules.hands import CATEGORIES, CATEGORY_TITLES, best_hand
from tests.browser import Browser, chromium, shared
from tests.cli.conftest import GM

NEW = ("new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II")

#: Paper sizes in inches, as a print dialog gives them to Chromium.
PAPER = {"A4": (8.27, 11.69), "Letter": (8.5, 11.0)}


def test_e174_each_example_ranks_as_its_category_high_to_low() -> None:
    rows = players_card.rows()
    assert [r["category"] for r in rows] == list(CATEGORIES) and len(rows) == 16
    hands = []
    for row in rows:
        hand = best_hand(parse_cards(row["example"]), magic=row["magic"])
        assert hand.category == row["category"], row
        assert row["cards"] == [c.name for c in parse_cards(row["example"])]
        hands.append(hand)
    assert all(a > b for a, b in zip(hands, hands[1:], strict=False))  # high to low (R4)
    assert {r["category"] for r in rows if r["magic"]} == {
        "seven_of_a_kind", "six_of_a_kind", "five_of_a_kind"}  # only magic makes them (R8)


def test_e174_the_card_names_every_hand_in_card_names(
        gm: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = gm("card").output
    assert max(len(line) for line in out.splitlines()) <= 80  # wrapped to the terminal
    flat = " ".join(out.split())
    for row in players_card.rows():
        assert f"{row['place']}. {CATEGORY_TITLES[row['category']]}" in flat
        assert players_card.in_names(row["cards"]) in flat
    assert "Three pair: Knight of Cups, Knight of Wands, Three of Swords" in flat
    for heading, _ in players_card.SECTIONS:
        assert f"\n{heading}:\n" in out
    for ruling in ("R6", "R12", "R13", "R15", "R26"):  # Duets, both phases, the Fool, powers
        assert f"({ruling})" in flat or f", {ruling})" in flat
    assert not gm.db.exists()  # the card alone opens no evening
    data = gm.json("card")
    assert data["seat"] is None and [h["category"] for h in data["hands"]] == list(CATEGORIES)


def test_e174_seat_adds_the_players_colour_and_arcanum(gm: GM, tmp_path: Path) -> None:
    gm(*NEW)
    first = " ".join(gm("card", "--seat", "ada").output.split("\n\n")[0].split())
    assert first.endswith("for Ada · seat 2 from the Fool's left · red chips · XVI The Tower")
    assert "for Ben · assistant to Ada · red chips · IX The Hermit" in " ".join(
        gm("card", "--seat", "Ben").output.split())
    assert gm.json("card", "--seat", "Cy")["seat"] == {
        "name": "Cy", "role": "seat 1 from the Fool's left", "colour": "blue",
        "arcanum": "III The Empress"}
    page = tmp_path / "ada.html"
    gm("card", "--seat", "Ada", "--html", str(page))
    assert "Ada · seat 2 from the Fool&#x27;s left · red chips · XVI The Tower" in \
        page.read_text(encoding="utf-8")
    assert "unknown person 'Zed'" in gm.fails("card", "--seat", "Zed")


def test_e174_mistakes_are_one_line_and_write_nothing(gm: GM, tmp_path: Path) -> None:
    assert gm.fails("card", "--seat", "Ada").startswith(f"error: no evening in {gm.db} yet")
    gm(*NEW)
    page = tmp_path / "card.html"
    page.write_text("kept", encoding="utf-8")
    assert "already exists" in gm.fails("card", "--html", str(page))
    assert page.read_text(encoding="utf-8") == "kept"
    assert "one of the evening's own files" in gm.fails("card", "--html", str(gm.db))
    gm("card", "--html", str(page), "--force")
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_e174_the_page_holds_every_hand_and_no_script(tmp_path: Path) -> None:
    page = players_card.html({"name": "<b>Ada</b>", "role": "seat 1", "colour": "red",
                      "arcanum": "XVI The Tower"})
    assert "<script" not in page and "&lt;b&gt;Ada&lt;/b&gt;" in page  # names as data (E42)
    for row in players_card.rows():
        assert players_card.in_names(row["cards"]) in page
    body = re.search(r"body \{ font: ([\d.]+)pt", players_card.CSS)
    assert body is not None and float(body.group(1)) >= 9  # readable at arm's length


# -- printed: headless Chromium ------------------------------------------------------------


@pytest.fixture(scope="module")
def printer() -> Iterator[Browser]:
    if chromium() is None:
        pytest.skip("no Chromium")
    b = shared()
    try:
        yield b
    finally:
        b.blank()


def _pages(pdf: bytes) -> int:
    """The pages of a PDF as Chromium writes it (its page tree's /Count)."""
    counts = [int(n) for n in re.findall(rb"/Type\s*/Pages\b.*?/Count (\d+)", pdf, re.S)]
    counts += [int(n) for n in re.findall(rb"/Count (\d+).*?/Type\s*/Pages\b", pdf, re.S)]
    assert counts, "no page tree in the PDF"
    return max(counts)


@pytest.mark.system
@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("seat", [None, "Ada"])
def test_e174_the_card_prints_on_one_page(printer: Browser, tmp_path: Path, paper: str,
                                          seat: str | None) -> None:
    who: players_card.Holder | None = None if seat is None else {
        "name": "Bartholomew-Maximilian", "role": "seat 6 from the Fool's left",
        "colour": "turquoise", "arcanum": "XVIII The Moon"}
    page = tmp_path / "card.html"
    page.write_text(players_card.html(who), encoding="utf-8")
    printer.open(page.as_uri(), 800, 1100)
    smallest = printer.evaluate(
        "Math.min(...[...document.querySelectorAll('p, td, th, code')]"
        ".map(e => parseFloat(getComputedStyle(e).fontSize)))")
    assert smallest >= 12  # 9 pt, at arm's length
    width, height = PAPER[paper]
    pdf = base64.b64decode(printer.page("Page.printToPDF", {
        "paperWidth": width, "paperHeight": height, "printBackground": True,
        "displayHeaderFooter": False, "preferCSSPageSize": False})["data"])
    (tmp_path / f"card-{paper}.pdf").write_bytes(pdf)
    assert _pages(pdf) == 1, paper


@pytest.mark.system
def test_e174_the_guard_of_one_page_can_fail(printer: Browser, tmp_path: Path) -> None:
    """The same print of a card with its text doubled is two pages: the count is read."""
    page = tmp_path / "long.html"
    doubled = players_card.html(None).replace("</body>",
                                              players_card.html(None).split("<body>", 1)[1])
    page.write_text(doubled, encoding="utf-8")
    printer.open(page.as_uri(), 800, 1100)
    pdf = base64.b64decode(printer.page("Page.printToPDF", {
        "paperWidth": 8.5, "paperHeight": 11.0, "preferCSSPageSize": False})["data"])
    assert _pages(pdf) >= 2


def test_json_sections_are_the_cards(gm: GM) -> None:
    data = json.loads(gm("card", "--json").stdout)
    assert [s["heading"] for s in data["sections"]] == [h for h, _ in players_card.SECTIONS]
