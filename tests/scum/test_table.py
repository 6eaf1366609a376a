"""Tarot Scum move by move (referee/rules/scum/table.py): R29 passing, R30 series, T13-T22."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli.suggest import told
from referee.errors import BadInput, IllegalAction, InvariantViolation
from referee.rules import scum
from referee.rules.cards import DECK, parse_cards
from referee.rules.scum import Role
from referee.said import Suggest
from tests.profiles import examples
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
    with pytest.raises((IllegalAction, BadInput), match=r"R29|R30a|T13"):
        scum.pass_cards(state, major, high, low)


def test_r29_passing_comes_once_and_before_play() -> None:
    state = passed(started())
    with pytest.raises(IllegalAction, match="already recorded"):
        scum.pass_cards(state, *passing(table_of(state)))


def test_t14_a_console_deal_needs_the_passing_before_play() -> None:
    state = started()
    with pytest.raises(IllegalAction, match="record the passing before the first play"):
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


@settings(max_examples=examples(30), deadline=None)
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


@settings(max_examples=examples(10), deadline=None)
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


# -- R30a: the Fool's two highest, role cards face up (T23-T27) ----------------------------------


def _table_with(fool_cards: str) -> scum.Table:
    """A dealt hand where Ann, the Fool, holds ``fool_cards`` and the rest of his 21 are majors;
    the other three share the other cards as R29 deals them."""
    roles = {"Ann": Role.FOOL, "Bea": Role.MAGICIAN, "Cid": Role.HIGH_PRIESTESS,
             "Dan": Role.EMPRESS}
    chosen = parse_cards(fool_cards)
    spare = [c for c in DECK if c.is_major and c.rank > 3 and c not in chosen]
    fool = [*chosen, Role.FOOL.card, *spare[:21 - 1 - len(chosen)]]
    rest = [c for c in DECK if c not in fool and c not in {r.card for r in roles.values()}]
    holdings = {"Ann": fool}
    for name, size in (("Bea", 17), ("Cid", 19), ("Dan", 18)):
        holdings[name] = [roles[name].card, *rest[:size]]
        rest = rest[size:]
    assert not rest and sum(len(c) for c in holdings.values()) == 78
    return scum.Table(list(PLAYERS), roles, holdings=holdings)


def _gives(table: scum.Table, to_empress: str) -> dict[tuple[Role, Role], list[Any]]:
    assert table.holdings is not None
    empress = [c for c in table.holdings["Dan"] if not c.is_major][:2]
    return {(Role.FOOL, Role.MAGICIAN): [table.holdings["Ann"][-1]],
            (Role.FOOL, Role.EMPRESS): parse_cards(to_empress),
            (Role.EMPRESS, Role.FOOL): empress}


def test_r30a_one_king_two_knights_the_king_and_a_knight_go() -> None:
    from referee.rules.scum.table import verify_gifts, verify_passing

    table = _table_with("KC KnS KnW 5C 2S")
    for ok in ("KC KnS", "KnW KC"):
        verify_passing(table, _gives(table, ok))
        verify_gifts(table, _gives(table, ok))
    with pytest.raises(IllegalAction) as refused:
        verify_gifts(table, _gives(table, "KnS KnW"))
    assert refused.value.line == ("Ann gives the Empress his two highest minors, a King and a "
                                  "Knight (KC with KnS or KnW), not KnS KnW (R30a)")
    with pytest.raises(IllegalAction, match="a King and a Knight"):
        verify_gifts(table, _gives(table, "KC 5C"))


def test_r30a_two_kings_both_go_and_three_knights_any_two() -> None:
    from referee.rules.scum.table import verify_gifts

    kings = _table_with("KC KS KnW 5C")
    verify_gifts(kings, _gives(kings, "KS KC"))
    with pytest.raises(IllegalAction, match=r"two Kings \(KC and KS\), not KC KnW"):
        verify_gifts(kings, _gives(kings, "KC KnW"))
    knights = _table_with("KnC KnS KnW 5C")
    for pair in ("KnC KnS", "KnC KnW", "KnS KnW"):
        verify_gifts(knights, _gives(knights, pair))
    with pytest.raises(IllegalAction, match=r"two Knights \(two of KnC KnS KnW\)"):
        verify_gifts(knights, _gives(knights, "KnC 5C"))


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(1, 100_000))
def test_r30a_accepted_passings_are_exactly_the_fools_top_two_ranks(seed: int) -> None:
    """Over random deals, every pair of the Fool's minors is tried: the passing is accepted
    exactly when its ranks are his two highest ranks as a multiset."""
    from itertools import combinations

    state = started(seed)
    table = table_of(state)
    assert table.holdings is not None
    major, _, low = passing(table)
    minors = [c for c in table.holdings[table.by_role(Role.FOOL)] if not c.is_major]
    top_two = sorted((c.rank for c in minors), reverse=True)[:2]
    for pair in combinations(minors, 2):
        wanted = sorted((c.rank for c in pair), reverse=True) == top_two
        try:
            scum.pass_cards(state, major, list(pair), low)
        except IllegalAction as exc:
            assert not wanted, exc.line
            assert "two highest minors" in exc.line and "(R30a)" in exc.line
        else:
            assert wanted, [c.short for c in pair]


def test_r30a_without_a_deal_a_role_card_is_played_only_by_its_holder() -> None:
    state = started(13, dealt=False)  # Ann the Fool, Bea the Magician, Cid the Empress
    table = table_of(state)
    assert (table.by_role(Role.MAGICIAN), table.by_role(Role.EMPRESS)) == ("Bea", "Cid")
    run(state, scum.play(state, "Cid", parse_cards("5C")))
    run(state, scum.play(state, "Dan", parse_cards("6C")))
    run(state, scum.play(state, "Ann", parse_cards("7C")))
    with pytest.raises(IllegalAction) as refused:
        scum.play(state, "Bea", parse_cards("III"))
    assert "Bea cannot play III: it is Cid's role card (The Empress), dealt face up" in (
        refused.value.line) and "(R30a)" in refused.value.line
    with pytest.raises(IllegalAction, match="Dan's role card"):
        scum.play(state, "Bea", parse_cards("II"))
    run(state, scum.play(state, "Bea", parse_cards("0")))  # the Fool may have passed it (T23)
    assert table_of(state).to_act == "Bea"  # an all-wild single wins the series
    run(state, scum.play(state, "Bea", parse_cards("I")))


def test_t23_once_the_passing_is_recorded_the_fools_0_is_where_it_went() -> None:
    kept = started(13, dealt=False)
    run(kept, scum.pass_cards(kept, parse_cards("XX"), parse_cards("KC KS"),
                              parse_cards("2C 3C")))
    run(kept, scum.play(kept, "Cid", parse_cards("5C")))
    run(kept, scum.play(kept, "Dan", parse_cards("6C")))
    run(kept, scum.play(kept, "Ann", parse_cards("7C")))
    with pytest.raises(IllegalAction, match="it is Ann's role card"):
        scum.play(kept, "Bea", parse_cards("0"))
    run(kept, scum.play(kept, "Bea", parse_cards("XX")))  # the major Ann gave her (T24)
    given = started(13, dealt=False)
    run(given, scum.pass_cards(given, parse_cards("0"), parse_cards("KC KS"),
                               parse_cards("2C 3C")))
    run(given, scum.play(given, "Cid", parse_cards("5C")))
    run(given, scum.play(given, "Dan", parse_cards("6C")))
    with pytest.raises(IllegalAction, match="0: it went from Ann to Bea"):
        scum.play(given, "Ann", parse_cards("0"))


def test_t23_the_fool_cannot_give_another_players_role_card() -> None:
    for dealt in (False, True):
        state = started(13, dealt=dealt)
        table = table_of(state)
        low = passing(table)[2] if dealt else parse_cards("2C 3C")
        high = passing(table)[1] if dealt else parse_cards("KC KS")
        for card in ("I", "II", "III"):
            with pytest.raises(IllegalAction, match=r"role card|not dealt"):
                scum.pass_cards(state, parse_cards(card), high, low)
    state = started(13, dealt=False)
    run(state, scum.pass_cards(state, parse_cards("0"), parse_cards("KC KS"),
                               parse_cards("2C 3C")))  # his own: the rule text allows it


def test_t24_a_card_seen_in_the_passing_is_the_receivers() -> None:
    state = started(13, dealt=False)
    run(state, scum.pass_cards(state, parse_cards("XX"), parse_cards("KC KS"),
                               parse_cards("2C 3C")))
    with pytest.raises(IllegalAction, match=r"2C: it went from Cid to Ann \(The Fool\) in the "
                                            r"passing \(T24\)"):
        scum.play(state, "Cid", parse_cards("2C"))
    run(state, scum.play(state, "Cid", parse_cards("KC")))  # given to her by Ann


def test_t23_a_move_recorded_before_the_check_still_folds() -> None:
    """An evening whose log holds a role card played by another player (recorded before the
    console knew R30a) replays: the fold does not judge it again."""
    state = started(13, dealt=False)
    for player, card in (("Cid", "5C"), ("Dan", "6C"), ("Ann", "7C"), ("Bea", "III")):
        scum.apply(state, {"kind": "scum_played", "hand": 1, "player": player, "cards": [card]})
    assert table_of(state).best is None and table_of(state).to_act == "Bea"


def test_t26_cards_left_as_dealt_then_counted() -> None:
    state = started(13, dealt=False)
    table = table_of(state)
    assert {n: table.cards_left(n) for n in PLAYERS} == {"Ann": 21, "Bea": 18, "Cid": 19,
                                                          "Dan": 20}
    run(state, scum.play(state, "Cid", parse_cards("5C 5S")))
    table = table_of(state)
    assert {n: table.cards_left(n) for n in PLAYERS} == {"Ann": 20, "Bea": 19, "Cid": 17,
                                                          "Dan": 20}
    dealt = passed(started(13))
    table = table_of(dealt)
    assert table.holdings is not None
    assert {n: table.cards_left(n) for n in PLAYERS} == {n: len(c) for n, c in
                                                          table.holdings.items()}


def test_t25_refused_moves_name_the_commands_that_work() -> None:
    state = started(13, dealt=False)
    with pytest.raises(IllegalAction) as leads:
        scum.play(state, "Ann", parse_cards("5C"))
    assert leads.value.said.suggests == (Suggest(("scum", "play"), ("Cid", "CARDS")),)  # E240
    assert told(leads.value).endswith("`referee scum play Cid CARDS`")
    run(state, scum.play(state, "Cid", parse_cards("5C")))
    with pytest.raises(IllegalAction) as turn:
        scum.pass_turn(state, "Ann")
    assert "`referee scum play Dan CARDS` or `referee scum pass Dan`" in told(turn.value)
    with pytest.raises(IllegalAction) as low:
        scum.play(state, "Dan", parse_cards("4C"))
    assert "or pass, `referee scum pass Dan`" in told(low.value)


@settings(max_examples=examples(60), deadline=None)
@given(st.permutations(list(Role)), st.sampled_from([None, "0", "XX"]))
def test_t23_t24_a_role_card_is_refused_exactly_for_those_who_cannot_hold_it(
        order: list[Role], to_magician: str | None) -> None:
    """Without a deal, for every player and every role card: refused exactly when the player is
    not its holder as the table has seen it (R30a); the Fool's 0 goes with a recorded passing."""
    from referee.rules.scum.table import verify_known

    roles = dict(zip(PLAYERS, order, strict=True))
    table = scum.Table(list(PLAYERS), roles)
    by_role = {r: n for n, r in roles.items()}
    if to_magician is not None:
        from referee.rules.scum.table import fold_event

        fold_event(table, {"kind": "scum_cards_passed", "passes": [
            {"from_role": "fool", "to_role": "magician", "cards": [to_magician]},
            {"from_role": "fool", "to_role": "empress", "cards": ["KC", "KS"]},
            {"from_role": "empress", "to_role": "fool", "cards": ["2C", "3C"]}]})
    for role in Role:
        if role is not Role.FOOL:
            holders = {by_role[role]}
        elif to_magician is None:  # unrecorded: the Fool kept it or gave it
            holders = {by_role[Role.FOOL], by_role[Role.MAGICIAN]}
        else:
            holders = {by_role[Role.MAGICIAN if to_magician == "0" else Role.FOOL]}
        for name in PLAYERS:
            try:
                verify_known(table, name, [role.card])
            except IllegalAction as exc:
                assert name not in holders and exc.ruling in ("T23", "T24"), exc.line
            else:
                assert name in holders, (name, role)
