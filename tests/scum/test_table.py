"""Tarot Scum move by move (referee/rules/scum/table.py): R29 passing, R30 series, T13-T22."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import BadInput, IllegalAction, InvariantViolation
from referee.rules import scum
from referee.rules.cards import DECK, parse_cards
from referee.rules.scum import Role
from tests.scum.bot import candidates, passing, play_hand

PLAYERS = ["Ann", "Bea", "Cid", "Dan"]


def run(state: scum.ScumState, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for event in events:
        scum.apply(state, json.loads(json.dumps(event)))
    return events


def started(seed: int = 4, *, dealt: bool = True, rotate: bool = True) -> scum.ScumState:
    state = scum.ScumState()
    run(state, scum.new_match(state, PLAYERS, seed=seed, rotate=rotate))
    if dealt:
        run(state, scum.deal_hand(state))
    return state


def table_of(state: scum.ScumState) -> scum.Table:
    return scum.require_match(state).current()


def passed(state: scum.ScumState) -> scum.ScumState:
    run(state, scum.pass_cards(state, *passing(table_of(state))))
    return state


# -- R29: the passing --------------------------------------------------------------------------


def test_r29_pass_cards_moves_the_cards_and_keeps_every_card_once() -> None:
    state = started()
    table = table_of(state)
    major, high, low = passing(table)
    fool, magician = table.by_role(Role.FOOL), table.by_role(Role.MAGICIAN)
    empress = table.by_role(Role.EMPRESS)
    run(state, scum.pass_cards(state, major, high, low))
    table = table_of(state)
    assert table.holdings is not None
    assert major[0] in table.holdings[magician] and set(high) <= set(table.holdings[empress])
    assert set(low) <= set(table.holdings[fool])
    assert {n: len(c) for n, c in table.holdings.items()} == {
        n: scum.held_after_passing(r) for n, r in table.roles.items()}
    every = Counter(c for cards in table.holdings.values() for c in cards)
    assert len(every) == 78 and set(every.values()) == {1}


@pytest.mark.parametrize("change", ["two majors", "minor to magician", "one minor",
                                    "not highest", "empress major", "not held"])
def test_r29_pass_cards_refuses_the_wrong_cards(change: str) -> None:
    state = started()
    table = table_of(state)
    assert table.holdings is not None
    major, high, low = passing(table)
    fool = table.holdings[table.by_role(Role.FOOL)]
    majors = [c for c in fool if c.is_major]
    minors = sorted((c for c in fool if not c.is_major), key=lambda c: c.rank)
    empress = table.holdings[table.by_role(Role.EMPRESS)]
    if change == "two majors":
        major = majors[:2]
    elif change == "minor to magician":
        major = minors[:1]
    elif change == "one minor":
        high = high[:1]
    elif change == "not highest":
        high = [high[0], minors[0]]
    elif change == "empress major":
        low = [low[0], next(c for c in empress if c.is_major)]
    else:
        low = [low[0], next(c for c in fool if not c.is_major and c not in high)]
    with pytest.raises((IllegalAction, BadInput), match=r"R29|T13"):
        scum.pass_cards(state, major, high, low)


def test_r29_passing_comes_once_and_before_play() -> None:
    state = passed(started())
    with pytest.raises(IllegalAction, match="already recorded"):
        scum.pass_cards(state, *passing(table_of(state)))


def test_t14_a_console_deal_needs_the_passing_before_play() -> None:
    state = started()
    with pytest.raises(IllegalAction, match="record the passing first"):
        scum.play(state, None, parse_cards("5C"))


def test_r29_without_a_deal_only_the_kinds_are_checked() -> None:
    state = started(dealt=False)
    with pytest.raises(IllegalAction, match="one major"):
        scum.pass_cards(state, parse_cards("5C"), parse_cards("KC KS"), parse_cards("2C 3C"))
    run(state, scum.pass_cards(state, parse_cards("XVI"), parse_cards("KC KS"),
                               parse_cards("2C 3C")))
    assert table_of(state).passed_cards


# -- R30: the series ------------------------------------------------------------------------------


def test_r29_the_empress_leads_the_first_series_and_others_wait() -> None:
    state = passed(started())
    table = table_of(state)
    empress = table.by_role(Role.EMPRESS)
    other = next(p for p in PLAYERS if p != empress)
    assert table.to_act == empress
    with pytest.raises(IllegalAction, match=f"{empress} leads, not {other}"):
        scum.play(state, other, parse_cards("5C"))
    with pytest.raises(IllegalAction, match="cannot pass"):
        scum.pass_turn(state, None)


def test_r30_t15_out_of_turn_after_a_pass_and_a_lower_follow_are_refused() -> None:
    state = passed(started(seed=11))
    table = table_of(state)
    lead = candidates(table, table.to_act)[0]
    assert lead is not None
    leader = table.to_act
    run(state, scum.play(state, None, lead))
    table = table_of(state)
    second = table.to_act
    assert second == PLAYERS[(PLAYERS.index(leader) + 1) % 4]  # seating order (T18)
    third = PLAYERS[(PLAYERS.index(second) + 1) % 4]
    with pytest.raises(IllegalAction, match=f"it is {second}'s turn, not {third}'s"):
        scum.pass_turn(state, third)
    run(state, scum.pass_turn(state, second))
    with pytest.raises(IllegalAction, match=f"{second} passed in this series"):
        scum.pass_turn(state, second)
    low = [c for c in table.holdings[third] if not c.is_major  # type: ignore[index]
           and c.rank <= lead[0].rank][:len(lead)]
    if len(low) == len(lead) and not any(c.is_major for c in lead):
        with pytest.raises(IllegalAction, match="does not beat|cannot follow"):
            scum.play(state, third, low)


def test_t16_a_card_not_held_is_refused_and_t7_a_card_played_twice() -> None:
    state = passed(started())
    table = table_of(state)
    leader = table.to_act
    assert table.holdings is not None
    foreign = next(c for p, cards in table.holdings.items() if p != leader for c in cards
                   if not c.is_major)
    with pytest.raises(IllegalAction, match=f"{leader} does not hold {foreign.short}"):
        scum.play(state, None, [foreign])
    undealt = started(dealt=False)
    lead = scum.require_match(undealt).current().to_act
    run(undealt, scum.play(undealt, lead, parse_cards("5C")))
    nxt = table_of(undealt).to_act
    with pytest.raises(BadInput, match="already played"):
        scum.play(undealt, nxt, parse_cards("5C"))


def test_r30_the_series_winner_leads_the_next() -> None:
    state = passed(started(seed=2))
    table = table_of(state)
    leader = table.to_act
    lead = candidates(table, leader)[0]
    assert lead is not None
    run(state, scum.play(state, None, lead))
    for _ in range(3):
        run(state, scum.pass_turn(state, None))
    table = table_of(state)
    assert table.to_act == leader and table.best is None
    assert any("wins the series" in line for line in scum.require_match(state).said)


def test_r30_an_all_wild_play_wins_the_series_at_once() -> None:
    state = started(dealt=False)
    leader = table_of(state).to_act
    run(state, scum.play(state, None, parse_cards("5C")))
    nxt = table_of(state).to_act
    run(state, scum.play(state, None, parse_cards("XX")))
    table = table_of(state)
    assert table.best is None and table.to_act == nxt != leader


def test_t17_without_a_deal_the_counts_say_when_a_player_is_out() -> None:
    state = started(dealt=False)
    table = table_of(state)
    leader = table.to_act
    assert table.left[leader] == scum.held_after_passing(Role.EMPRESS) == 19
    with pytest.raises(IllegalAction, match="holds only"):
        table.left[leader] = 1
        scum.play(state, None, parse_cards("5C 5S"))


def test_t21_the_name_is_optional_and_matches_by_prefix() -> None:
    state = started(dealt=False)
    leader = table_of(state).to_act
    event = scum.play(state, leader[:2].lower(), parse_cards("5C"))[0]
    assert event["player"] == leader
    assert scum.play(state, None, parse_cards("5C"))[0]["player"] == leader


def test_t19_the_lead_passes_on_when_the_series_winner_went_out() -> None:
    table = scum.Table(list(PLAYERS), {"Ann": Role.FOOL, "Bea": Role.MAGICIAN,
                                       "Cid": Role.HIGH_PRIESTESS, "Dan": Role.EMPRESS})
    table.left["Dan"] = 1
    from referee.rules.scum.table import fold_event

    fold_event(table, {"kind": "scum_played", "player": "Dan", "cards": ["5C"]})
    assert table.out == ["Dan"] and table.to_act == "Ann"
    for who in ("Ann", "Bea", "Cid"):
        fold_event(table, {"kind": "scum_passed", "player": who})
        if table.best is None:
            break
    assert table.best is None and table.to_act == "Ann"  # the next player after Dan leads


def test_fold_refuses_a_recorded_move_out_of_turn() -> None:
    state = started(dealt=False)
    table = table_of(state)
    wrong = next(p for p in PLAYERS if p != table.to_act)
    with pytest.raises(InvariantViolation, match="breaks the rules"):
        scum.apply(state, {"kind": "scum_played", "hand": 1, "player": wrong, "cards": ["5C"]})


# -- a whole hand --------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 10_000), st.data())
def test_random_legal_play_uses_every_card_once_and_places_everyone(seed: int,
                                                                     data: st.DataObject) -> None:
    state = started(seed, dealt=False)
    moves = play_hand(state, lambda opts: data.draw(st.integers(0, len(opts) - 1)))
    match = scum.require_match(state)
    result = match.results[-1]
    assert sorted(result.order) == sorted(PLAYERS)  # a permutation of the players
    played = [c for _, move in moves if move is not None for c in move]
    assert len(played) == len(set(played)) and set(played) <= set(DECK)  # each card once
    by = Counter(who for who, move in moves if move is not None for _ in move)
    last = result.order[-1]
    for name in PLAYERS:  # the first three played out every card they held, the last did not
        held = scum.held_after_passing(result.roles[name])
        assert by[name] == held if name != last else by[name] < held
    assert result.points == scum.score_hand(result.roles, result.order)


def test_a_hand_played_move_by_move_scores_as_scum_finish() -> None:
    by_moves = started(seed=21, dealt=False)
    play_hand(by_moves, lambda opts: 0)
    result = scum.require_match(by_moves).results[-1]
    by_hand = started(seed=21, dealt=False)
    run(by_hand, scum.finish(by_hand, result.order))
    other = scum.require_match(by_hand).results[-1]
    assert (other.order, other.points) == (result.order, result.points)


def test_scum_finish_must_agree_with_the_places_already_played() -> None:
    state = started(seed=5, dealt=False)
    table = table_of(state)
    table_first = table.to_act
    table.left[table_first] = 1  # about to go out
    run(state, scum.play(state, None, parse_cards("5C")))
    rest = [p for p in PLAYERS if p != table_first]
    with pytest.raises(IllegalAction, match=f"starting {table_first}"):
        scum.finish(state, [*rest, table_first])


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 10_000), st.integers(0, 60))
def test_dump_load_round_trip_in_the_middle_of_a_hand(seed: int, moves: int) -> None:
    state = passed(started(seed))
    for _ in range(moves):
        table = table_of(state)
        move = candidates(table, table.to_act)[-1]
        run(state, scum.pass_turn(state, None) if move is None else scum.play(state, None, move))
        if scum.require_match(state).hand > 1:
            break
    data = json.loads(json.dumps(scum.dump(state)))
    again = scum.load(data)
    assert scum.dump(again) == data
    a, b = scum.require_match(state).table, scum.require_match(again).table
    assert a is not None and b is not None
    assert (a.to_json(), a.holdings, a.played) == (b.to_json(), b.holdings, b.played)
