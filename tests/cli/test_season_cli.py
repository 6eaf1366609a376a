"""Two evenings through the CLI: `end`, the ceremony, `next` and `season` (R40-R43,
E102-E114).

The first evening, ``one.json``: the Fool Max; Cy (III, blue, assistant Di) in seat 1, Ed
(VII, green, assistant Flo) in seat 2, Ada (XVI, red, assistant Ben) in seat 3, Gus (XIX,
yellow, assistant Hal) in seat 4 (R9). The default scenario's bottles go out in seat order
(E14): the cobalt phial (Harry Houdini, I) to Di, the amber bottle (III) to Flo, the cracked
green bottle (IX) to Ben, the bottle sealed with black wax (XVI) to Hal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.cli.conftest import GM

SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II",
         "--seat", "Ed:VII:green:Flo:XVII", "--seat", "Gus:XIX:yellow:Hal:I"]
# The cobalt phial's first two clues on sheet 1 (seat 1) and the second on sheet 2.
SHEET1 = ("Gaslight and greasepaint.", "I crossed the ocean as a small child")
SHEET2_SECOND = "Handcuffs, jail cells"


def scenario(tmp_path: Path, n: int = 4) -> Path:
    """A scenario of ``n`` souls new to the season, each with a sheet for every seat."""
    lines = ['name = "Fool\'s Errand: the second night"']
    for i in range(1, n + 1):
        lines += ["[[souls]]", f'label = "vial {i}"', f'name = "Stranger Number{i}"',
                  f'aliases = ["Number{i}"]', f'arcanum = "{["X", "XI", "XII", "XIII"][i - 1]}"',
                  "[souls.clues]"]
        lines += [f'{s} = ["vial {i}, sheet {s}, first", "vial {i}, sheet {s}, second", '
                  f'"vial {i}, sheet {s}, third"]' for s in range(1, 7)]
    path = tmp_path / "second.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def first(gm: GM) -> GM:
    """The first evening, played to its closed ceremony (once, ``GM.played``)."""
    gm.played("season-first", _play_first)
    return gm


def _play_first(gm: GM) -> GM:
    gm("new", "--fool", "Max", *SEATS)
    gm("soul", "study", "Di", "cobalt")  # Di learns clue 1 of sheet 1
    # Card of Fate: Alice maims Bob, who then fails a convalescence (F13): Health Maimed, and
    # one card more on his next try.
    gm("fate", "char", "new", "Alice", "-m", "fiery=7", "-t", "Swordsman=2", "-i", "Sabre=3")
    gm("fate", "char", "new", "Bob", "-m", "calm=7", "-i", "Pistol=4")
    gm("fate", "fight", "alice", "bob", "--cof", "7H", "--a", "7S 2D", "--b", "2C 3C",
       "--complication", "5S")
    gm("fate", "heal", "bob", "--area", "health", "--measure", "calm", "--cof", "7H",
       "--cards", "2S 3S 4S 5S 6S 8S 9S")
    # Away from the table: Ada's soul to Ed; Gus's soul to Ed, who smashes it when Gus
    # attacks him: Gus is dead (R22) and XIX is vacant (E19).
    for who in ("Ada", "Ed", "Gus"):
        gm("rise", who)
    gm("soul", "give", "Ada", "Ed", "Ada")
    gm("soul", "give", "Gus", "Ed", "Gus")
    gm("soul", "smash", "Ed", "Gus")
    gm("end")
    gm("ceremony", "close")
    return gm


def second_gm(gm: GM) -> GM:
    return GM(gm.runner, gm.db.with_name("two.json"))


def test_r41_next_needs_a_closed_ceremony(gm: GM, tmp_path: Path) -> None:
    gm("new", "--fool", "Max", *SEATS)
    line = gm.fails("next", str(tmp_path / "two.json"))
    assert "ceremony is not closed" in line and "R41" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evening.json", "evening.json.lock"]
    gm("end")
    assert "ceremony is not closed" in gm.fails("next", str(tmp_path / "two.json"))


def test_r42_the_next_evening_carries_the_roster_souls_clues_dead_and_characters(
        first: GM, tmp_path: Path) -> None:
    two = second_gm(first)
    new = scenario(tmp_path)
    # The dead are never seated again: not in the vacant XIX, not as an assistant (R42).
    line = first.fails("next", str(two.db), "--scenario", str(new), "--seat", "Gus:XIX:yellow")
    assert "Gus is dead" in line and "R42)" in line
    assert "Gus is dead" in first.fails("next", str(two.db), "--scenario", str(new), "--seat",
                                        "Ada:::Gus:IV")
    assert not two.db.exists()
    # The default scenario has 6 souls, 4 of them seen already: 2 new for 3 stakeholders.
    assert "2 souls new to the season for 3 stakeholders" in first.fails("next", str(two.db))
    # Di and Flo change sides: Di now assists Ed in seat 2, Flo assists Cy in seat 1.
    first("next", str(two.db), "--scenario", str(new), "--seat", "Cy:::Flo",
          "--seat", "Ed:::Di")
    status = two.status()
    # R41: the members present in Arcanum order from the Fool's left, ten new chips each.
    assert [(s["name"], s["arcanum"], s["assistant"]) for s in status["seats"]] == [
        ("Cy", "III", "Flo"), ("Ed", "VII", "Di"), ("Ada", "XVI", "Ben")]
    assert status["fool"] == "Max"
    assert {name: sum(chips.values()) for name, chips in status["chips"].items()
            if name in ("Cy", "Ed", "Ada")} == {"Cy": 10, "Ed": 10, "Ada": 10}
    # R41: Ada's soul is still Ed's: 5 - 3 = 2 in the Tower for her, 2 for Ed.
    points = two.json("points", "--reveal")
    assert points["Ada"]["XVI"] == 2 and points["Ed"]["XVI"] == 2
    # R42: every soul where it ended; Gus's is gone; Hal (not seated) still holds the bottle
    # with black wax; the new scenario's vials go out in seat order.
    souls = {s["soul"]: s["holder"] for s in two.json("soul", "list")}
    assert souls == {"the cobalt phial": "Di", "the amber bottle": "Flo",
                     "the cracked green bottle": "Ben", "the bottle sealed with black wax": "Hal",
                     "Cy's soul": "Cy", "Ed's soul": "Ed", "Ada's soul": "Ed",
                     "vial 1": "Flo", "vial 2": "Di", "vial 3": "Ben"}
    # E107: Di keeps her sheet (1) for the phial in seat 2: the clue she knew is still hers,
    # and her next study is the second clue of sheet 1, not of sheet 2.
    handout = two.json("handout", "Di")
    [phial] = [s for s in handout["souls"] if s["soul"] == "the cobalt phial"]
    assert phial["clues"][0].startswith(SHEET1[0])
    out = two("soul", "study", "Di", "cobalt").output
    assert SHEET1[1] in out and SHEET2_SECOND not in out
    # R42: Bob's wound is still Maimed and still healing: his next try has a card more.
    bob = two.json("fate", "char", "show", "bob")
    assert bob["areas"]["health"] == "maimed" and bob["heal_bonus"] == {"health": 1}
    line = two.fails("fate", "heal", "bob", "--area", "health", "--measure", "calm", "--cof",
                     "7H", "--cards", "2S 3S 4S 5S 6S 8S 9S")
    assert "the pool is 8 = 7 Calm + 1 earlier failed convalescence" in line
    # The roster as the ceremony left it: XIX vacant since Gus died (E19).
    two("end")
    assert [r["arcanum"] for r in two.json("ceremony")["roster"]] == ["0", "III", "VII", "XVI"]


def test_r43_verify_follows_the_chain_and_catches_an_edited_first_evening(
        first: GM, tmp_path: Path) -> None:
    two = second_gm(first)
    first("next", str(two.db), "--scenario", str(scenario(tmp_path)))
    out = two("verify").output
    assert "sound" in out and "carries on from evening.json, whose final digest matches" in out
    # A byte of the first evening changed outside the referee: Ada's soul went to Ed, not Cy.
    original = first.db.read_bytes()
    first.db.write_bytes(original.replace(b'"to":"Ed"', b'"to":"Cy"', 1))
    assert first.db.read_bytes() != original
    result = two.invoke("verify")
    assert result.exit_code == 2
    assert "the last evening evening.json: the file's checksum does not match" in result.output
    # The first evening changed by the referee itself after `next`: undo the close, close again.
    first.db.write_bytes(original)
    first("undo")
    first("ceremony", "close")
    result = two.invoke("verify", "--json")
    assert result.exit_code == 2
    problems = json.loads(result.stdout)["problems"]
    assert any("does not end where this one began" in p for p in problems), problems
    # Without the first file beside it, the link is not checked (E114).
    first.db.rename(tmp_path / "elsewhere.json")
    assert "which is not beside it" in two("verify").output


def test_e108_a_newcomer_takes_a_vacant_arcanum_only(first: GM, tmp_path: Path) -> None:
    two = second_gm(first)
    new = str(scenario(tmp_path))
    line = first.fails("next", str(two.db), "--scenario", new, "--seat", "Zoe:XVI:pink")
    assert "XVI The Tower is held by Ada" in line
    assert "a newcomer takes a vacant one" in first.fails("next", str(two.db), "--scenario", new,
                                                          "--seat", "Zoe::pink")
    assert "not XV" in first.fails("next", str(two.db), "--scenario", new, "--seat", "Ada:XV:")
    first("next", str(two.db), "--scenario", new, "--seat", "Zoe:XIX:pink:Hal")
    seats = [(s["name"], s["arcanum"], s["assistant"]) for s in two.status()["seats"]]
    assert seats[-1] == ("Zoe", "XIX", "Hal")  # Hal keeps his Arcanum I from the last evening
    assert two.json("points")["Zoe"] == {"XIX": 5}


def test_e102_an_absent_member_keeps_the_arcanum_and_defends_it(first: GM, tmp_path: Path) -> None:
    two = second_gm(first)
    new = str(scenario(tmp_path))
    assert "Zed" in first.fails("next", str(two.db), "--scenario", new, "--absent", "Zed")
    first("next", str(two.db), "--scenario", new, "--absent", "ada")
    assert [s["name"] for s in two.status()["seats"]] == ["Cy", "Ed"]
    # Ada defends XVI with 5, less 3 for her soul that Ed holds (E102, R41).
    assert two.json("points", "--reveal")["Ada"] == {"XVI": 2}
    two("end")
    data = two.json("ceremony")
    assert {r["arcanum"]: (r["member"], r["absent"]) for r in data["roster"]}["XVI"] == \
        ("Ada", True)
    assert "Ada is not at this evening" in two.fails("ceremony", "switch", "Ada", "III")


def test_r41_the_fool_named_by_the_gm(first: GM, tmp_path: Path) -> None:
    two = second_gm(first)
    new = str(scenario(tmp_path))
    assert "tonight's Fool, yet named absent" in first.fails(
        "next", str(two.db), "--scenario", new, "--absent", "Max")
    first("next", str(two.db), "--scenario", new, "--fool", "Ed")
    status = two.status()
    assert status["fool"] == "Ed" and [s["name"] for s in status["seats"]] == ["Cy", "Ada"]
    # Ed keeps VII and defends it, Max keeps 0 (E102): both not seated tonight.
    points = two.json("points", "--reveal")
    assert points["Ed"]["VII"] == 5 and points["Ed"]["0"] == 5


def test_r41_an_assistant_serves_one_side_and_the_refusal_says_how_to_move_them(
        first: GM, tmp_path: Path) -> None:
    two = second_gm(first)
    new = str(scenario(tmp_path))
    # Ben assisted Ada last evening; naming him for Cy alone would leave him on two sides.
    line = first.fails("next", str(two.db), "--scenario", new, "--seat", "Cy:::Ben")
    assert "Ben assists Ada (carried from the last evening) and is named for Cy" in line
    assert "--seat Ada:::-" in line and line.endswith("(R41)")
    line = first.fails("next", str(two.db), "--scenario", new, "--seat", "Cy:::Ben",
                       "--seat", "Ed:::Ben")
    assert "Ben is named assistant of both Cy and Ed" in line
    assert not two.db.exists()
    # The move the first line names: Ada sits alone, Ben assists Cy with his Arcanum IX.
    first("next", str(two.db), "--scenario", new, "--seat", "Ada:::-", "--seat", "Cy:::Ben")
    assert [(s["name"], s["assistant"]) for s in two.status()["seats"]] == [
        ("Cy", "Ben"), ("Ed", "Flo"), ("Ada", None)]


def test_next_writes_a_new_file_only(first: GM, tmp_path: Path) -> None:
    assert "this evening's own file" in first.fails("next", str(first.db))
    (tmp_path / "taken.json").write_text("{}")
    assert "exists already" in first.fails("next", str(tmp_path / "taken.json"))
    assert (tmp_path / "taken.json").read_text() == "{}"


def test_undo_takes_back_the_next_evening(first: GM, tmp_path: Path) -> None:
    two = second_gm(first)
    first("next", str(two.db), "--scenario", str(scenario(tmp_path)))
    two("undo")
    assert "no evening" in two.fails("status")


def _season(runner: CliRunner, *args: str) -> Any:
    from referee.cli.main import app

    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_r43_the_season_follows_the_chain_back(first: GM, tmp_path: Path) -> None:
    two = second_gm(first)
    first("next", str(two.db), "--scenario", str(scenario(tmp_path)))
    data = _season(first.runner, "--db", str(two.db), "season")
    assert [n["file"] for n in data["evenings"]] == ["evening.json", "two.json"]
    rows = {r["name"]: r for r in data["standings"]}
    # Gus died in the first evening; his chips (ten yellow) were not settled: he played one
    # evening and won nothing; everyone else of the first table played both but Hal.
    assert rows["Gus"]["evenings"] == 1 and rows["Gus"]["money"] == 0
    assert rows["Cy"]["evenings"] == 2 and rows["Hal"]["evenings"] == 1
    assert rows["Ada"]["arcana"] == ["XVI", "XVI"] and rows["Gus"]["arcana"] == [None, None]
    assert rows["Ada"]["lost"] == "held by Ed" and rows["Gus"]["lost"] == "smashed"
    totals = data["totals"]
    assert totals["buy_ins"] == 7 * 1_000_000 and totals["won"] == 0
    # The folder gives the same two evenings; a file that is no evening is left out.
    (tmp_path / "notes.json").write_text('{"x": 1}')
    assert [n["file"] for n in _season(first.runner, "season", str(tmp_path))["evenings"]] == \
        ["evening.json", "two.json"]
    assert "no evening file or folder" in first.fails("season", str(tmp_path / "gone.json"))


def test_e112_the_season_page_draws_money_and_roster(first: GM, tmp_path: Path) -> None:
    two = second_gm(first)
    first("next", str(two.db), "--scenario", str(scenario(tmp_path)))
    page = tmp_path / "season.html"
    two("season", "--html", str(page))
    text = page.read_text()
    assert text.count("<svg") == 2 and "Money won so far after each evening" in text
    # No script and nothing fetched: every address on the page is the SVG namespace's.
    assert "<script" not in text and "src=" not in text and "href=" not in text
    assert text.count("http") == text.count('xmlns="http://www.w3.org/2000/svg"')
    assert "already exists" in two.fails("season", "--html", str(page))
    assert "evening's own file" in two.fails("season", "--html", str(two.db))


def test_e54_a_station_may_not_write_or_read_another_evening_file() -> None:
    from referee.cli import main
    from referee.cli.room import station

    assert main.app is not None
    assert "would read a file" in str(station.refusal(["next", "two.json"]))
    assert "would read a file" in str(station.refusal(["season", "one.json"]))
    assert "names a file" in str(station.refusal(["season", "--html", "s.html"]))
    assert station.refusal(["ceremony", "promote", "Flo", "III"]) is None  # the served one
