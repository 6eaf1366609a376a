"""Weir's Wager core (R32-R34, house decisions W1-W10 in docs/rules.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli.suggest import told
from referee.content.side_tables import POINTS_FILE, data_file, wager_points
from referee.errors import (
    BadInput,
    IllegalAction,
    InvariantViolation,
    ScenarioError,
    UnknownCard,
    UnknownName,
)
from referee.rules import wager
from referee.rules.wager import ELIXIRS, Elixir, PointsTable, WCard, parse_wcard
from referee.said import Suggest
from tests.profiles import examples

TABLE = wager_points()


def hand(top: str, bottom: str, elixir: Elixir, table: PointsTable = TABLE) -> wager.Hand:
    return wager.rank(parse_wcard(top), parse_wcard(bottom), elixir, table)


def started(*, seed: int = 3, elixir: Elixir | None = Elixir.RELAX,
            turns: int = 10) -> wager.WagerState:
    state = wager.WagerState()
    for event in wager.new_game(state, "Ann", "Bea", seed=seed, table=TABLE, elixir=elixir,
                                elixir_turns=turns):
        wager.apply(state, event)
    return state


def run(state: wager.WagerState, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for event in events:
        wager.apply(state, event)
    return events


def do_score(state: wager.WagerState, player: str, top: str, bottom: str) -> list[dict[str, Any]]:
    return run(state, wager.score(state, player, parse_wcard(top), parse_wcard(bottom)))


# -- R32: the deck and its notation --------------------------------------------------------------


def test_r32_deck_is_21_faces_plain_and_mirrored_plus_seven_elixirs() -> None:
    assert len(wager.FACES) == 21
    assert len(wager.WAGER_DECK) == 42 == len(set(wager.WAGER_DECK))
    assert [e.value for e in ELIXIRS] == [
        "Relax", "Calm", "Rest", "Heal", "Relief", "Soothe", "Repose"]
    assert wager.FACES[14:] == ("0", "II", "IX", "XII", "XVII", "Prince", "Thoth")


@pytest.mark.parametrize(("text", "label"), [
    ("5C", "5C"), ("kc", "KC"), ("KnC", "KnC"), ("Knight of Cups", "KnC"), ("ace of cups", "AC"),
    ("0", "0"), ("the fool", "0"), ("II", "II"), ("high priestess", "II"), ("M9", "IX"),
    ("hermit", "IX"), ("hanged man", "XII"), ("XVII", "XVII"), ("star", "XVII"),
    ("Prince", "Prince"), ("the prince", "Prince"), ("Thoth", "Thoth"),
    ("Book of Thoth", "Thoth"), ("~5C", "~5C"), ("~ 5c", "~5C"), ("5C~", "~5C"),
    ("~Prince", "~Prince"), ("~thoth", "~Thoth"), ("relax", "Relax"), ("sooth", "Soothe"),
    ("herm", "IX"),
])
def test_r32_spellings(text: str, label: str) -> None:
    assert parse_wcard(text).label == label


@pytest.mark.parametrize("text", ["5S", "KnW", "XVI", "the tower", "I"])
def test_r32_cards_outside_the_wager_deck_are_refused(text: str) -> None:
    with pytest.raises(UnknownCard, match="not in the Weir's Wager deck") as info:
        parse_wcard(text)
    assert info.value.ruling == "R32"


def test_r32_unknown_card_suggests_spellings() -> None:
    with pytest.raises(UnknownCard, match="did you mean Prince"):
        parse_wcard("prnce")


def test_r32_ambiguous_prefix_names_the_candidates() -> None:
    with pytest.raises(UnknownCard, match="ambiguous: Relax, Relief"):
        parse_wcard("rel")


def test_r32_an_elixir_has_no_mirror() -> None:
    with pytest.raises(BadInput, match="no mirror image"):
        parse_wcard("~Relax")


def test_w9_a_shell_expanded_tilde_is_explained() -> None:
    with pytest.raises(UnknownCard, match="quote the card"):
        parse_wcard("/home/gm")


def test_r32_elixirs_by_name_or_prefix() -> None:
    assert wager.parse_elixir("CALM") is Elixir.CALM
    assert wager.parse_elixir("rep") is Elixir.REPOSE
    with pytest.raises(UnknownName, match="ambiguous.*Elixirs: Relax"):
        wager.parse_elixir("re")
    with pytest.raises(UnknownName, match="did you mean Relax"):
        wager.parse_elixir("relx")


# -- R33: hands ----------------------------------------------------------------------------------

HANDS = [
    # top, bottom, elixir, kind, quality
    ("5C", "6C", Elixir.RELAX, "run", "true"),        # ascending: lower on top
    ("5C", "~6C", Elixir.CALM, "run", "mixed"),
    ("~5C", "~6C", Elixir.RELAX, "run", "false"),
    ("6C", "5C", Elixir.REST, "run", "true"),         # descending: higher on top
    ("~KC", "QC", Elixir.HEAL, "run", "mixed"),
    ("10C", "PC", Elixir.RELAX, "run", "true"),       # Ten, Page, Knight, Queen, King
    ("6C", "5C", Elixir.RELAX, "none", None),         # wrong direction for the round
    ("5C", "6C", Elixir.HEAL, "none", None),
    ("KC", "AC", Elixir.REST, "none", None),          # no wrap
    ("AC", "KC", Elixir.RELAX, "none", None),
    ("5C", "7C", Elixir.RELAX, "none", None),
    ("5C", "6C", Elixir.RELIEF, "none", None),        # runs do not count in Mirror rounds (W1)
    ("Prince", "~Prince", Elixir.RELIEF, "mirror", "true"),   # plain on top: true
    ("~Prince", "Prince", Elixir.SOOTHE, "mirror", "false"),  # mirror on top: false
    ("5C", "~5C", Elixir.REPOSE, "mirror", "true"),
    ("~IX", "IX", Elixir.RELIEF, "mirror", "false"),
    ("Prince", "~Prince", Elixir.RELAX, "none", None),  # pairs only in Mirror rounds
    ("Prince", "~Thoth", Elixir.RELIEF, "none", None),  # its OWN mirror
    ("Relax", "0", Elixir.RELAX, "set", "true"),
    ("Relax", "~0", Elixir.RELAX, "set", "mixed"),      # the partner's mirror counts (W2)
    ("Calm", "II", Elixir.CALM, "set", "true"),
    ("Rest", "IX", Elixir.REST, "set", "true"),
    ("Heal", "XII", Elixir.HEAL, "set", "true"),
    ("Relief", "XVII", Elixir.RELIEF, "set", "true"),
    ("Soothe", "Prince", Elixir.SOOTHE, "set", "true"),
    ("Repose", "~Thoth", Elixir.REPOSE, "set", "mixed"),
    ("Relax", "II", Elixir.RELAX, "poison", None),      # the wrong partner poisons
    ("Relax", "5C", Elixir.RELAX, "poison", None),
    ("Soothe", "~Thoth", Elixir.SOOTHE, "poison", None),
    ("0", "Relax", Elixir.RELAX, "none", None),         # the Elixir must be on top (W3)
    ("0", "5C", Elixir.RELAX, "none", None),
]


@pytest.mark.parametrize(("top", "bottom", "elixir", "kind", "quality"), HANDS)
def test_r33_hands(top: str, bottom: str, elixir: Elixir, kind: str, quality: str | None) -> None:
    made = hand(top, bottom, elixir)
    assert (made.kind, made.quality) == (kind, quality), made.reason


def test_r33_partners_in_order() -> None:
    partners = [wager.RULES[e].partner for e in ELIXIRS]
    assert partners == ["0", "II", "IX", "XII", "XVII", "Prince", "Thoth"]


def test_r33_same_card_twice_is_bad_input() -> None:
    with pytest.raises(BadInput, match="both top and bottom"):
        hand("5C", "5C", Elixir.RELAX)


def test_w3_only_the_elixir_on_the_table_can_be_held() -> None:
    with pytest.raises(BadInput, match="the Elixir on the table is Relax"):
        hand("Calm", "II", Elixir.RELAX)


def test_w1_what_each_elixir_rules() -> None:
    shapes = {e.value: (wager.RULES[e].shape, wager.RULES[e].favours) for e in ELIXIRS}
    assert shapes == {
        "Relax": ("ascending", "arcana"), "Calm": ("ascending", "cups"),
        "Rest": ("descending", "arcana"), "Heal": ("descending", "cups"),
        "Relief": ("mirror", "all"), "Soothe": ("mirror", "arcana"),
        "Repose": ("mirror", "cups"),
    }


# -- R34: points ---------------------------------------------------------------------------------


def test_r34_default_table_is_shipped_in_data() -> None:
    path = data_file(POINTS_FILE)
    assert path.name == "wager_points.toml" and path.exists()
    assert TABLE.hands["set"]["true"] > TABLE.hands["run"]["true"]


def test_r34_arcana_to_cups_favours_hands_with_a_non_cups_card() -> None:
    # Soothe is Arcana to Cups: the Prince's pair beats the same-quality Cups pair.
    assert hand("Prince", "~Prince", Elixir.SOOTHE).points > hand("5C", "~5C", Elixir.SOOTHE).points
    # Repose is Cups to Arcana: the other way round.
    assert hand("5C", "~5C", Elixir.REPOSE).points > hand("Prince", "~Prince", Elixir.REPOSE).points
    # Relief (All) favours neither.
    assert hand("5C", "~5C", Elixir.RELIEF).points == hand("Prince", "~Prince",
                                                            Elixir.RELIEF).points


def test_r34_cups_to_arcana_favours_all_cups_runs() -> None:
    assert hand("5C", "6C", Elixir.CALM).points > hand("5C", "6C", Elixir.RELAX).points
    assert hand("6C", "5C", Elixir.HEAL).points > hand("6C", "5C", Elixir.REST).points
    assert hand("5C", "6C", Elixir.CALM).favoured


def test_r34_points_by_quality_from_the_table() -> None:
    assert hand("5C", "6C", Elixir.RELAX).points == TABLE.hands["run"]["true"]
    assert hand("~5C", "6C", Elixir.RELAX).points == TABLE.hands["run"]["mixed"]
    assert hand("~5C", "~6C", Elixir.RELAX).points == TABLE.hands["run"]["false"]
    assert hand("Relax", "0", Elixir.RELAX).points == TABLE.hands["set"]["true"] + TABLE.bonus
    assert hand("Calm", "II", Elixir.CALM).points == TABLE.hands["set"]["true"]


def test_w4_poison_is_a_flat_cost() -> None:
    for elixir in ELIXIRS:
        assert hand(elixir.value, "5C", elixir).points == -TABLE.poison
    assert hand("Relax", "Prince", Elixir.RELAX).points == -TABLE.poison  # no favour bonus


def _scores_by_kind(elixir: Elixir, table: PointsTable) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for top, bottom in wager.all_hands(elixir):
        made = wager.rank(top, bottom, elixir, table)
        out.setdefault(made.kind, []).append(made.points)
    return out


@pytest.mark.parametrize("elixir", ELIXIRS)
def test_r34_a_set_beats_every_run_and_pair_of_the_round(elixir: Elixir) -> None:
    by_kind = _scores_by_kind(elixir, TABLE)
    assert by_kind["set"]
    others = by_kind.get("run", []) + by_kind.get("mirror", [])
    assert others
    assert min(by_kind["set"]) > max(others)
    assert max(by_kind["poison"]) < 0
    assert set(by_kind["none"]) == {0}


def valid_tables() -> st.SearchStrategy[dict[str, Any]]:
    points = st.integers(min_value=0, max_value=500)

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        run = {q: draw(points) for q in ("true", "mixed", "false")}
        mirror = {q: draw(points) for q in ("true", "false")}
        bonus = draw(st.integers(min_value=1, max_value=200))
        floor = max(*run.values(), *mirror.values()) + bonus + 1
        sets = {q: floor + draw(points) for q in ("true", "mixed")}
        cost = draw(st.integers(min_value=1, max_value=500))
        return {"run": run, "mirror": mirror, "set": sets, "poison": {"cost": cost},
                "favoured": {"bonus": bonus}}

    return build()


ANY_CARD = st.sampled_from(wager.WAGER_DECK)


@settings(max_examples=examples(100))
@given(valid_tables(), st.sampled_from(ELIXIRS), ANY_CARD, ANY_CARD, ANY_CARD)
def test_r34_property_set_outscores_every_run_and_pair(
        data: dict[str, Any], elixir: Elixir, partner_mirror: WCard, a: WCard, b: WCard) -> None:
    table = PointsTable.from_dict(data)
    partner = WCard(wager.RULES[elixir].partner, partner_mirror.mirror)
    made_set = wager.rank(WCard(elixir.value), partner, elixir, table)
    assert made_set.kind == "set"
    if a == b:
        return
    other = wager.rank(a, b, elixir, table)
    if other.kind in ("run", "mirror"):
        assert made_set.points > other.points


@settings(max_examples=examples(100))
@given(valid_tables(), st.sampled_from(ELIXIRS), ANY_CARD)
def test_r34_property_poisoning_always_costs_points(
        data: dict[str, Any], elixir: Elixir, bottom: WCard) -> None:
    table = PointsTable.from_dict(data)
    made = wager.rank(WCard(elixir.value), bottom, elixir, table)
    if bottom.face == wager.RULES[elixir].partner:
        assert made.kind == "set"
        return
    assert made.kind == "poison" and made.points < 0
    state = wager.WagerState()
    run(state, wager.new_game(state, "Ann", "Bea", seed=1, table=table, elixir=elixir))
    run(state, wager.score(state, "Ann", WCard(elixir.value), bottom))
    assert state.game is not None and state.game.scores["Ann"] < 0  # W5: no floor at 0


# -- R34: custom tables --------------------------------------------------------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "points.toml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """
[run]
true = 10
mixed = 8
false = 6
[mirror]
true = 10
false = 5
[set]
true = 40
mixed = 30
[poison]
cost = 20
[favoured]
bonus = 5
"""


def test_r34_option_custom_table(tmp_path: Path) -> None:
    table = wager_points(write(tmp_path, GOOD))
    assert table.source == "points.toml"
    assert hand("5C", "6C", Elixir.CALM, table).points == 15
    assert hand("Relax", "5C", Elixir.RELAX, table).points == -20


@pytest.mark.parametrize(("change", "message"), [
    (("true = 40", "true = 14"), "every set must beat every run and pair"),
    (("cost = 20", "cost = 0"), "poisoning costs points"),
    (("bonus = 5", "bonus = 0"), "bonus must be more than 0"),
    (("mixed = 8", "mixed = 'eight'"), "whole number"),
    (("mixed = 8", "mixd = 8"), "no quality 'mixd'"),
    (("[favoured]", "[favored]"), "unknown section [favored]"),
    (("false = 6", "false = -6"), "cannot be negative"),
    (("[set]", "[set\n"), "not valid TOML"),
])
def test_r34_bad_tables_are_refused(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    with pytest.raises(ScenarioError, match=message.replace("[", r"\[")) as info:
        wager_points(write(tmp_path, GOOD.replace(*change, 1)))
    assert info.value.ruling == "R34"


def test_r34_missing_table_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read points table"):
        wager_points(tmp_path / "nope.toml")


def test_table_round_trips() -> None:
    assert PointsTable.from_dict(TABLE.to_dict()).to_dict() == TABLE.to_dict()


# -- R34: the race to 999 and the Elixir ---------------------------------------------------------


def test_r34_first_to_999_wins_and_the_game_is_over() -> None:
    state = started(elixir=Elixir.RELAX)
    game = state.game
    assert game is not None
    while game.winner is None:
        elixir = game.elixir
        do_score(state, "Ann", elixir.value, wager.RULES[elixir].partner)
        if game.winner is None:
            run(state, wager.turn(state, 1, "Bea"))  # turns alternate (W12)
    assert game.winner == "Ann" and game.scores["Ann"] >= wager.TARGET
    with pytest.raises(IllegalAction, match="game is over: Ann won"):
        do_score(state, "Bea", "5C", "6C")
    with pytest.raises(IllegalAction, match="game is over"):
        wager.turn(state)


def test_r34_a_set_changes_the_elixir() -> None:
    state = started(elixir=Elixir.RELAX)
    events = do_score(state, "Ann", "Relax", "0")
    assert [e["kind"] for e in events] == ["wager_hand_scored", "wager_elixir_changed"]
    assert events[1]["reason"] == "set"
    assert state.game is not None and state.game.elixir is not Elixir.RELAX
    assert state.game.turns == 0


def test_w7_poison_does_not_change_the_elixir() -> None:
    state = started(elixir=Elixir.RELAX)
    events = do_score(state, "Ann", "Relax", "5C")
    assert len(events) == 1
    assert state.game is not None and state.game.elixir is Elixir.RELAX


def test_r34_the_elixir_changes_after_ten_turns() -> None:
    state = started(elixir=Elixir.RELIEF)
    for i in range(9):  # Bea, Ann, ... Bea: turns alternate (W12)
        assert len(do_score(state, ("Bea", "Ann")[i % 2], "5C", "6C")) == 1  # no hand: Mirror
    assert state.game is not None and state.game.turns == 9
    events = do_score(state, "Ann", "5C", "6C")
    assert events[-1] == {"kind": "wager_elixir_changed", "elixir": events[-1]["elixir"],
                          "reason": "turns"}
    assert state.game.elixir is not Elixir.RELIEF and state.game.turns == 0


def test_r34_option_elixir_turns() -> None:
    state = started(elixir=Elixir.RELIEF, turns=3)
    events = run(state, wager.turn(state, 7))
    assert [e["kind"] for e in events] == [
        "wager_turns_played", "wager_elixir_changed", "wager_turns_played",
        "wager_elixir_changed", "wager_turns_played"]
    assert state.game is not None and state.game.turns == 1


def test_w6_console_draws_are_seeded_and_never_repeat_the_leaving_elixir() -> None:
    for seed in range(30):
        for draw in range(5):
            for leaving in ELIXIRS:
                assert wager.draw_elixir(seed, draw, leaving) is not leaving
    a, b = started(seed=9, elixir=None), started(seed=9, elixir=None)
    assert a.game is not None and b.game is not None and a.game.elixir is b.game.elixir
    assert wager.turn(a, 25) == wager.turn(b, 25)


def test_w6_set_the_elixir_from_the_table() -> None:
    state = started(elixir=Elixir.RELAX)
    run(state, wager.turn(state, 4))
    run(state, wager.set_elixir(state, Elixir.HEAL))
    assert state.game is not None and state.game.elixir is Elixir.HEAL and state.game.turns == 0
    with pytest.raises(IllegalAction, match="already the Elixir"):
        wager.set_elixir(state, Elixir.HEAL)


def test_score_by_role_or_prefix() -> None:
    state = started()

    def who(query: str) -> str:
        return str(wager.score(state, query, parse_wcard("5C"), parse_wcard("7C"))[0]["player"])

    assert [who("mistress"), who("the fool"), who("b"), who("ANN")] == ["Bea", "Ann", "Bea", "Ann"]
    assert [who("mistres"), who("foo")] == ["Bea", "Ann"]  # a role's prefix (W11)
    with pytest.raises(UnknownName, match="unknown player 'Cid'.*Ann \\(the Fool\\)"):
        who("Cid")


def test_new_game_checks_names_and_turns() -> None:
    with pytest.raises(BadInput, match="both the Fool and the Mistress"):
        wager.new_game(wager.WagerState(), "Ann", "ann", seed=1, table=TABLE)
    with pytest.raises(BadInput, match="--elixir-turns"):
        wager.new_game(wager.WagerState(), "Ann", "Bea", seed=1, table=TABLE, elixir_turns=0)
    with pytest.raises(IllegalAction, match="--abandon"):
        wager.new_game(started(), "Cid", "Dan", seed=1, table=TABLE)


def test_no_game_yet() -> None:
    with pytest.raises(IllegalAction, match="wager new"):
        wager.score(wager.WagerState(), "Ann", parse_wcard("5C"), parse_wcard("6C"))


# -- the stream ----------------------------------------------------------------------------------


def test_stream_is_registered() -> None:
    from referee.streams import spec

    assert spec("wager") is wager.STREAM


@given(st.integers(0, 1000), st.lists(st.tuples(st.sampled_from(["Ann", "Bea"]), ANY_CARD,
                                                ANY_CARD), max_size=12))
def test_dump_load_round_trip(seed: int, turns: list[tuple[str, WCard, WCard]]) -> None:
    state = started(seed=seed, elixir=None)
    for player, top, bottom in turns:
        if top == bottom or (state.game is not None and state.game.winner):
            continue
        if state.game is not None and state.game.last == player:
            continue  # turns alternate (W12)
        run(state, wager.score(state, player, top, bottom))
    data = json.loads(json.dumps(wager.dump(state)))
    assert wager.dump(wager.load(data)) == data


def test_apply_catches_tampered_points() -> None:
    state = started(elixir=Elixir.RELAX)
    event = wager.score(state, "Ann", parse_wcard("5C"), parse_wcard("6C"))[0]
    event["points"] = 900
    with pytest.raises(InvariantViolation, match="does not score as recorded"):
        wager.apply(state, event)


def test_apply_catches_an_early_elixir_change() -> None:
    state = started(elixir=Elixir.RELAX)
    with pytest.raises(InvariantViolation, match="after 0 of 10 turns"):
        wager.apply(state, {"kind": "wager_elixir_changed", "elixir": "Calm", "reason": "turns"})


# -- W12: turns alternate, mirror names ----------------------------------------------------------


def test_w12_a_score_by_the_player_who_just_moved_is_refused() -> None:
    state = started()
    do_score(state, "Ann", "5C", "7C")
    with pytest.raises(IllegalAction, match="Ann \\(Fool\\) has just moved; it is Bea's turn"):
        do_score(state, "fool", "5C", "7C")
    with pytest.raises(IllegalAction) as info:
        wager.turn(state, 1, "ann")
    assert info.value.ruling == "W12"
    do_score(state, "Bea", "5C", "7C")
    assert state.game is not None and state.game.to_move == "Ann"


def test_w12_either_player_may_move_first_then_the_turn_alternates() -> None:
    state = started()
    assert state.game is not None and state.game.to_move is None
    run(state, wager.turn(state))  # nobody named: the Fool starts
    assert state.game.last == "Ann"
    other = started()
    run(other, wager.turn(other, 1, "mistress"))
    assert other.game is not None and other.game.to_move == "Ann"


def test_w12_several_turns_alternate_and_run_the_elixir_clock() -> None:
    state = started(elixir=Elixir.RELIEF, turns=4)
    events = run(state, wager.turn(state, 5, "bea"))
    assert [e.get("player") for e in events if e["kind"] == "wager_turns_played"] == [
        "Bea", "Bea"]  # four turns Bea Ann Bea Ann, then Bea's on the new Elixir
    assert state.game is not None and state.game.last == "Bea" and state.game.turns == 1
    assert state.game.elixir is not Elixir.RELIEF


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from(["Ann", "Bea", None]),
                          st.integers(1, 3)), max_size=15))
def test_w12_turns_alternate_whatever_the_gm_types(moves: list[tuple[bool, str | None, int]],
                                                   ) -> None:
    state = started(elixir=Elixir.RELIEF)
    game = state.game
    assert game is not None
    movers: list[str] = []
    for is_score, who, count in moves:
        before = game.last
        try:
            if is_score:
                do_score(state, who or "Ann", "5C", "7C")
                movers.append(who or "Ann")
            else:
                events = run(state, wager.turn(state, count, who))
                first = events[0]["player"]
                movers += [first if i % 2 == 0 else game.other(first) for i in range(count)]
        except IllegalAction:
            assert game.last == before  # refused: nothing moved
            continue
    assert all(a != b for a, b in zip(movers, movers[1:], strict=False))  # never twice in a row
    assert game.last == (movers[-1] if movers else None)


@pytest.mark.parametrize(("text", "label"), [
    ("Cups of Five", "~5C"), ("Five of Cups", "5C"), ("Prince the", "~Prince"),
    ("the Prince", "Prince"), ("Thoth of Book the", "~Thoth"), ("Hermit The", "~IX"),
    ("~5C", "~5C"), ("5C~", "~5C"),
])
def test_w12_the_seeds_mirror_names(text: str, label: str) -> None:
    assert parse_wcard(text).label == label


@pytest.mark.parametrize("text", ["~~5C", "~5C~", "5~C", "~Cups of Five"])
def test_w12_extra_tildes_are_refused(text: str) -> None:
    with pytest.raises((UnknownCard, BadInput)) as info:
        parse_wcard(text)
    assert info.value.ruling == "W12"


@pytest.mark.parametrize(("card", "mirror"), [("5C", "~5C"), ("~5C", "5C"), ("~Prince", "Prince")])
def test_w12_the_doubled_card_hint_names_the_right_mirror(card: str, mirror: str) -> None:
    with pytest.raises(BadInput, match=f"its mirror image is written {mirror} "):
        hand(card, card, Elixir.RELIEF)


def test_w14_describe_says_what_each_event_decided() -> None:
    state = started(elixir=Elixir.RELAX)
    lines = wager.describe(do_score(state, "Ann", "Relax", "0"))
    assert lines[0] == "Ann: Relax over 0 under Relax: true set, +350"
    assert lines[1].startswith("Elixir now") and "after a set" in lines[1]


# -- W15-W18: turns at once, rounds, names like role words, ambiguous prefixes -------------------


@given(st.sampled_from(["Ann", "Bea"]), st.integers(1, 100))
def test_w15_turns_each_split_as_the_fold_alternates(first: str, count: int) -> None:
    state = started(elixir=Elixir.RELIEF, turns=7)
    game = state.game
    assert game is not None
    each = wager.turns_each(game, first, count)
    assert sum(each.values()) == count and 0 <= each[first] - each[game.other(first)] <= 1
    run(state, wager.turn(state, count, first))
    moved = [first if i % 2 == 0 else game.other(first) for i in range(count)]
    assert each == {name: moved.count(name) for name in game.players}
    assert game.last == moved[-1]  # the fold agrees on who moved last


def test_w15_twelve_turns_six_each() -> None:
    game = started().game
    assert game is not None
    assert wager.turns_each(game, "Ann", 12) == {"Ann": 6, "Bea": 6}
    assert wager.turns_each(game, "Bea", 3) == {"Bea": 2, "Ann": 1}
    with pytest.raises(BadInput) as many:
        wager.turn(started(), 101)
    assert Suggest(("wager", "turn"), ("100",)) in many.value.said.suggests  # E240
    assert re.search(r"`referee wager turn 100`.*\(W15\)", told(many.value))


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.sampled_from([("5C", "7C"), ("Prince", "~Prince"), ("5C", "6C")]),
                max_size=14))
def test_w16_rounds_end_with_a_made_hand(hands: list[tuple[str, str]]) -> None:
    state = started(elixir=Elixir.RELIEF)  # mirror pairs count, 5C 6C is no hand here
    game = state.game
    assert game is not None
    for n, (top, bottom) in enumerate(hands):
        if game.winner is not None:
            break
        do_score(state, ("Ann", "Bea")[n % 2], top, bottom)
    numbered = wager.numbered_hands(game)
    assert [s for _, s in numbered] == game.history
    expected, number = [], 1
    for scored in game.history:  # a round runs up to and including its made hand (W7)
        expected.append(number)
        number += scored.hand != "none"
    assert [n for n, _ in numbered] == expected
    made = sum(s.hand != "none" for s in game.history)
    assert wager.round_number(game) == (made if game.winner else made + 1)


def test_w17_a_name_typed_in_full_is_that_player_even_a_role_word() -> None:
    state = wager.WagerState()
    run(state, wager.new_game(state, "Ann", "Fool", seed=1, table=TABLE, elixir=Elixir.RELIEF))
    game = state.game
    assert game is not None
    assert wager.resolve_player(game, "fool") == "Fool"  # the Mistress, by name
    assert wager.resolve_player(game, "the fool") == "Ann"  # the Fool, by role
    assert wager.resolve_player(game, "mistress") == "Fool"
    assert wager.role_word_notes(game) == [
        "'fool' is the name of Fool, who plays the Mistress: it names Fool; type 'Ann' for the "
        "Fool (W17)"]


@pytest.mark.parametrize(("fool", "mistress", "notes"), [
    ("Ann", "Bea", 0), ("Fool", "Bea", 0), ("Ann", "Fool", 1), ("Mistress", "Fool", 2),
    ("Ann", "Foolish", 1), ("Misty", "Bea", 0), ("Mistress Quickly", "Bea", 1),
    ("Lord Fool", "Bea", 0), ("Bea", "Lord Fool", 1),
])
def test_w17_new_warns_when_a_role_word_names_the_other_player(fool: str, mistress: str,
                                                                 notes: int) -> None:
    state = wager.WagerState()
    run(state, wager.new_game(state, fool, mistress, seed=1, table=TABLE))
    game = state.game
    assert game is not None
    warned = wager.role_word_notes(game)
    assert len(warned) == notes, warned
    for word, holder in (("fool", game.fool), ("mistress", game.mistress)):
        said = any(note.startswith(f"'{word}'") for note in warned)
        try:
            fits = wager.resolve_player(game, word) == holder
        except UnknownName:
            fits = False
        assert said == (not fits)  # warned exactly when the role word misses its player


def test_w18_an_ambiguous_prefix_lists_the_matches() -> None:
    state = wager.WagerState()
    run(state, wager.new_game(state, "Mia", "Mick", seed=1, table=TABLE))
    game = state.game
    assert game is not None
    with pytest.raises(UnknownName) as info:
        wager.resolve_player(game, "mi")
    assert info.value.line == ("player 'mi' is ambiguous: Mia (the Fool), Mick (the Mistress); "
                               "type more of the name (W18)")
    assert wager.resolve_player(game, "mis") == "Mick"  # a role's prefix, no name's
    assert wager.resolve_player(game, "mia") == "Mia"


NAME = st.text(alphabet="abfilmorst ", min_size=1, max_size=9).map(lambda t: " ".join(t.split()))


@settings(max_examples=examples(60), deadline=None)
@given(NAME, NAME, st.text(alphabet="abfilmorst ", min_size=1, max_size=6))
def test_w18_a_player_is_found_only_when_the_query_fits_no_one_else(fool: str, mistress: str,
                                                                     query: str) -> None:
    from hypothesis import assume

    assume(fool and mistress and fool.lower() != mistress.lower())
    state = wager.WagerState()
    run(state, wager.new_game(state, fool, mistress, seed=1, table=TABLE))
    game = state.game
    assert game is not None
    key = " ".join(query.lower().split())
    assume(key)

    def fits(name: str, role: str) -> bool:
        words = name.lower().split()
        bare = key.removeprefix("the ")
        return (name.lower().startswith(key) or any(w.startswith(key) for w in words)
                or (len(bare) >= 2 and role.startswith(bare)))

    exact = [p for p in game.players if p.lower() == key]
    fitting = [p for p, r in ((fool, "fool"), (mistress, "mistress")) if fits(p, r)]
    try:
        found = wager.resolve_player(game, query)
    except UnknownName as exc:
        assert not exact and len(fitting) != 1, (query, fitting, str(exc))
        if len(fitting) > 1:
            assert "ambiguous" in str(exc) and all(p in str(exc) for p in fitting)
        return
    assert found in (exact or fitting) and (exact or len(fitting) == 1)
