"""The season's standings as data and on paper (``referee.season``; R43, E110-E112)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.evening import carry, ceremony, commands, souls
from referee.evening.state import State
from referee.season import Played, money_svg, render_html, standings, wall
from tests.profiles import examples
from tests.test_carry import DEFAULT, PREVIOUS, close, closed_evening, evenings, play
from tests.test_souls import fold


def _two() -> tuple[State, State]:
    # Evening 1: Cy gives his soul to Flo away from the table; Flo takes III (4 against 2).
    last = closed_evening((souls.give_soul, "Cy", "Flo", "Cy's soul"))
    last = close(fold(last, ceremony.promote(last, "Flo", "III")))
    nxt = fold(State(), carry.next_evening(
        last, previous=PREVIOUS, scenario=DEFAULT, now=9.0,
        changes=[carry.SeatChange("Flo", colour="purple")]))
    return last, nxt


def test_e110_standings_per_person_over_the_evenings() -> None:
    last, nxt = _two()
    data = standings([Played("two.json", nxt, "one.json"), Played("one.json", last)])
    assert [n["file"] for n in data["evenings"]] == ["one.json", "two.json"]  # by creation
    rows = {r["name"]: r for r in data["standings"]}
    # Cy: evening 1 a stakeholder (III, replaced by Flo); evening 2 not there at all.
    assert rows["Cy"]["evenings"] == 1 and rows["Cy"]["arcana"] == [None, None]
    assert rows["Cy"]["lost"] == "held by Flo" and rows["Cy"]["points"] == -3
    # Flo: 2 for the amber bottle and 2 for Cy's soul each evening, and in the second 2 for
    # the bottle sealed with black wax, given to her seat (1, no assistant, E14); her 5 as a
    # sitting member is a starting point. One promotion; III after both ceremonies (the
    # second still open: as it stands).
    assert rows["Flo"]["points"] == 4 + 6 and rows["Flo"]["promotions"] == 1
    assert rows["Flo"]["arcana"] == ["III", "III"] and rows["Flo"]["evenings"] == 2
    # Nobody's chips moved: ten for each of three stakeholders in each evening.
    assert data["totals"] == {"buy_ins": 6 * 1_000_000, "at_end": 6 * 1_000_000,
                              "in_pots": 0, "won": 0}
    assert all(r["money"] == 0 for r in data["standings"])


@settings(max_examples=examples(20))
@given(st.data())
def test_r43_the_money_won_sums_to_nothing(data: st.DataObject) -> None:
    # Several tables of one event: random evenings, each counted as it stands.
    tables = [play(data.draw, data.draw(evenings()), data.draw(st.integers(0, 10)))
              for _ in range(data.draw(st.integers(1, 3)))]
    season = standings([Played(f"table-{i}.json", s) for i, s in enumerate(tables)])
    assert sum(r["money"] for r in season["standings"]) == 0
    assert season["totals"]["buy_ins"] == 1_000_000 * sum(len(s.seats) for s in tables)
    assert season["totals"]["at_end"] == season["totals"]["buy_ins"]
    for row in season["standings"]:
        assert row["money"] == sum(row["money_by_evening"])
        assert row["evenings"] == sum(row["name"] in s.people for s in tables)


def test_e111_the_wall_shows_no_soul_and_no_point() -> None:
    last, nxt = _two()
    shown = wall(standings([Played("one.json", last), Played("two.json", nxt)]))
    assert shown["evenings"] == 2
    assert set(shown["standings"][0]) == {"rank", "name", "evenings", "money", "arcanum",
                                          "promotions"}
    assert {r["name"]: r["arcanum"] for r in shown["standings"]}["Flo"] == "III"


def test_e112_names_are_printed_never_read_as_markup() -> None:
    specs = [commands.parse_seat(s) for s in ("<b>Ann:I:red", "Bo&Co:II:blue")]
    state = fold(State(), commands.new_evening(
        State(), "<i>Max", specs, now=1.0, force=False,
        **souls.setup_from_scenario(DEFAULT, specs)))
    page = render_html(standings([Played("<x>.json", state)]))
    assert "<b>Ann" not in page and "&lt;b&gt;Ann" in page and "Bo&amp;Co" in page
    assert "<i>Max" not in page and "&lt;x&gt;.json" in page


def test_e112_a_season_without_money_still_draws() -> None:
    svg = money_svg({"labels": ["start", "1"], "money": []})
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "$0" in svg
