"""Tarot Scum core (R29-R31, house decisions T1-T11 in docs/rules.md)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import BadInput, IllegalAction, InvariantViolation, UnknownName
from referee.rules import scum
from referee.rules.cards import DECK, Card, parse_cards
from referee.rules.scum import Role

PLAYERS = ["Ann", "Bea", "Cid", "Dan"]


def started(*, rotate: bool = False, seed: int = 7) -> scum.ScumState:
    state = scum.ScumState()
    for event in scum.new_match(state, PLAYERS, seed=seed, rotate=rotate):
        scum.apply(state, event)
    return state


def play_hand(state: scum.ScumState, order: list[str]) -> list[dict[str, object]]:
    events = scum.finish(state, order)
    for event in events:
        scum.apply(state, event)
    return events


def cards(text: str) -> list[Card] | None:
    return scum.read_cards(text)


# -- R29: roles, deal sizes, passing, leader ----------------------------------------------------


def test_r29_role_cards_are_fool_magician_high_priestess_empress() -> None:
    assert [r.card.short for r in scum.ROLES] == ["0", "I", "II", "III"]
    assert [r.card_name for r in scum.ROLES] == [
        "The Fool", "The Magician", "The High Priestess", "The Empress"]


def test_r29_deal_sizes_and_hand_sizes_with_the_role_card() -> None:
    assert scum.DEAL_SIZE == {Role.FOOL: 20, Role.MAGICIAN: 17,
                              Role.HIGH_PRIESTESS: 19, Role.EMPRESS: 18}
    assert {r: scum.hand_size(r) for r in scum.ROLES} == {
        Role.FOOL: 21, Role.MAGICIAN: 18, Role.HIGH_PRIESTESS: 20, Role.EMPRESS: 19}
    assert sum(scum.hand_size(r) for r in scum.ROLES) == 78


def test_r29_passing_owed_and_the_empress_leads() -> None:
    owed = [(p.giver, p.receiver, p.what) for p in scum.PASSING]
    assert owed == [
        (Role.FOOL, Role.MAGICIAN, "one major"),
        (Role.FOOL, Role.EMPRESS, "his two highest minors"),
        (Role.EMPRESS, Role.FOOL, "two minors of her choice"),
    ]
    assert scum.LEADER is Role.EMPRESS


def test_r29_the_role_card_is_in_the_hand_and_wild() -> None:
    roles = scum.draw_roles(PLAYERS, random.Random(1))
    hands = scum.deal(roles, random.Random(2))
    for name, role in roles.items():
        assert role.card in hands[name]
        assert len(hands[name]) == scum.hand_size(role)
    fool_card = Role.FOOL.card
    assert scum.check(cards("9C"), [fool_card]).wins_series  # the role card is wild


@given(st.integers(min_value=0, max_value=2**32))
def test_r29_every_card_is_dealt_exactly_once(seed: int) -> None:
    rng = random.Random(seed)
    roles = scum.draw_roles(PLAYERS, rng)
    hands = scum.deal(roles, rng)
    dealt = Counter(card for hand in hands.values() for card in hand)
    assert set(dealt) == set(DECK)
    assert set(dealt.values()) == {1}
    assert {name: len(h) for name, h in hands.items()} == {
        name: scum.hand_size(role) for name, role in roles.items()}


@given(st.integers(min_value=0, max_value=2**32))
def test_r29_roles_are_one_card_each(seed: int) -> None:
    roles = scum.draw_roles(PLAYERS, random.Random(seed))
    assert sorted(roles) == sorted(PLAYERS)
    assert sorted(roles.values()) == sorted(scum.ROLES)


# -- R30: plays and follows ----------------------------------------------------------------------

LEGAL = [
    # previous, play, wins_series
    ("-", "5C", False),
    ("-", "5C 5S 5W 5P", False),
    ("-", "5C 5S 5W 5P XVI", False),          # four of a rank plus one wild: five cards
    ("-", "0", True),                         # a single wild leads and wins at once
    ("-", "0 I II IV V", True),               # any count of wilds when leading
    ("5C", "6C", False),
    ("5C", "KS", False),
    ("5C", "XXI", True),                      # one wild against a single: wins at once
    ("5C 5S", "7C XVI", False),               # a pair may be one card plus a wild
    ("5C 5S", "0 I", True),                   # an all-wild pair wins the series at once
    ("5C 5S 5W", "6C 6S XX", False),          # the seed: a triple is a double with a wild
    ("5C 5S 5W", "VI VII VIII", True),        # ... or a triple of wilds
    ("5C 5S XIX", "6C 6S 6W", False),         # a natural triple beats a wild-made one
    ("QC", "KC", False),                      # King is high
    ("AC", "2C", False),                      # Ace is low
    ("5C 5S", "pass", False),                 # a pass is always legal when following
]


@pytest.mark.parametrize(("previous", "play", "wins"), LEGAL)
def test_r30_legal_follows(previous: str, play: str, wins: bool) -> None:
    verdict = scum.check(cards(previous), cards(play))
    assert verdict.legal, verdict.reason
    assert verdict.wins_series is wins
    assert "(R30)" in verdict.reason


ILLEGAL = [
    ("5C", "5S", "higher"),                         # same rank is not higher
    ("5C 5S", "5W XVI", "higher"),                  # nor with a wild (T4)
    ("6C", "5C", "higher"),
    ("KC", "AC", "higher"),                         # Ace low (R29)
    ("5C 5S", "7C", "2 cards"),                     # same count
    ("5C 5S", "7C 7S 7W", "2 cards"),
    ("5C 5S", "7C 7S XVI", "2 cards"),              # adding a wild changes the count
    ("5C", "0 I", "1 card"),                        # all-wild must match the count
    ("5C 5S", "0 I II", "2 cards"),
    ("-", "5C 6C", "one rank"),
    ("-", "5C 5S XVI XX", "at most one wild"),      # at most one wild added to a set
    ("0 I", "KC KS", "already won"),                # nothing follows an all-wild play (T5)
    ("0 I", "II III", "already won"),
    ("-", "pass", "leader cannot pass"),            # T6
]


@pytest.mark.parametrize(("previous", "play", "why"), ILLEGAL)
def test_r30_illegal_follows_say_why(previous: str, play: str, why: str) -> None:
    verdict = scum.check(cards(previous), cards(play))
    assert not verdict.legal
    assert why in verdict.reason
    assert verdict.reason.endswith("(R30)")
    assert not verdict.wins_series


def test_r30_verify_and_can_follow_agree() -> None:
    five = scum.read_play(parse_cards("5C 5S"))
    seven = scum.read_play(parse_cards("7C XVI"))
    assert scum.can_follow(five, seven)
    assert not scum.can_follow(seven, five)
    with pytest.raises(IllegalAction) as info:
        scum.verify_follow(seven, five)
    assert info.value.ruling == "R30"


def test_r30_a_play_is_described_by_count_and_rank() -> None:
    assert scum.read_play(parse_cards("6C")).describe() == "a single Six"
    assert scum.read_play(parse_cards("6C 6S XX")).describe() == "a triple of Sixes (one wild)"
    assert scum.read_play(parse_cards("0 I")).describe() == "an all-wild play of two"


def test_r30_bad_previous_play_is_bad_input() -> None:
    with pytest.raises(BadInput, match="previous play is no play"):
        scum.check(cards("5C 6C"), cards("7C"))


def test_t7_a_card_twice_is_bad_input() -> None:
    with pytest.raises(BadInput, match="5C appears twice"):
        scum.check(None, cards("5C 5C"))
    with pytest.raises(BadInput, match="in both the previous play and this one"):
        scum.check(cards("5C"), cards("5C"))


def test_r30_empty_play_is_bad_input() -> None:
    with pytest.raises(BadInput, match="at least one card"):
        scum.read_play([])


PLAYS = st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True)


@given(PLAYS, PLAYS)
def test_r30_a_legal_follow_is_never_lower(previous: list[Card], play: list[Card]) -> None:
    if set(previous) & set(play):
        return
    try:
        verdict = scum.check(previous, play)
    except BadInput:
        return  # the previous cards were no play at all
    if not verdict.legal:
        return
    before, after = scum.read_play(previous), scum.read_play(play)
    assert after.count == before.count
    assert not before.is_all_wild
    if after.is_all_wild:
        assert verdict.wins_series
    else:
        assert before.rank is not None and after.rank is not None
        assert after.rank > before.rank
        assert not verdict.wins_series


@given(st.integers(min_value=1, max_value=14), st.integers(min_value=1, max_value=4),
       st.integers(min_value=1, max_value=14), st.booleans(), st.booleans())
def test_r30_same_count_follow_is_legal_exactly_when_higher(
        r1: int, n: int, r2: int, wild1: bool, wild2: bool) -> None:
    suits = [DECK[i * 14].suit for i in range(4)]
    prev = [Card(s, r1) for s in suits[:n]]
    play = [Card(s, r2) for s in suits[:n]]
    if wild1:
        prev = prev[1:] + [Card(None, 20)] if n > 1 else prev + [Card(None, 20)]
    if wild2:
        play = play[1:] + [Card(None, 21)] if n > 1 else play + [Card(None, 21)]
    if len(prev) != len(play) or r1 == r2:
        return
    assert scum.check(prev, play).legal is (r2 > r1)


# -- R31: points and the match -------------------------------------------------------------------


@pytest.mark.parametrize(("role", "points"), [
    (Role.FOOL, [9, 7, 5, 3]),
    (Role.HIGH_PRIESTESS, [8, 6, 4, 2]),
    (Role.MAGICIAN, [7, 5, 3, 1]),
    (Role.EMPRESS, [6, 4, 2, 0]),
])
def test_r31_points_by_role_and_place(role: Role, points: list[int]) -> None:
    assert [scum.hand_points(role, place) for place in (1, 2, 3, 4)] == points


def test_r31_score_hand_by_finishing_order() -> None:
    roles = {"Ann": Role.FOOL, "Bea": Role.EMPRESS, "Cid": Role.MAGICIAN,
             "Dan": Role.HIGH_PRIESTESS}
    assert scum.score_hand(roles, ["Bea", "Ann", "Dan", "Cid"]) == {
        "Bea": 6, "Ann": 7, "Dan": 4, "Cid": 1}


def test_r31_rotated_match_gives_each_player_each_role_once() -> None:
    state = started(rotate=True)
    for _ in range(4):
        play_hand(state, PLAYERS)
    match = state.match
    assert match is not None and match.is_over
    for name in PLAYERS:
        assert sorted(r.roles[name] for r in match.results) == sorted(scum.ROLES)


def test_t2_rotation_moves_everyone_to_the_next_arcanum() -> None:
    roles = {"Ann": Role.FOOL, "Bea": Role.MAGICIAN, "Cid": Role.HIGH_PRIESTESS,
             "Dan": Role.EMPRESS}
    assert scum.rotate_roles(roles) == {"Ann": Role.MAGICIAN, "Bea": Role.HIGH_PRIESTESS,
                                        "Cid": Role.EMPRESS, "Dan": Role.FOOL}


def test_r31_a_match_is_four_hands_then_over() -> None:
    state = started()
    for _ in range(4):
        play_hand(state, PLAYERS)
    with pytest.raises(IllegalAction, match="over after 4 hands") as info:
        scum.finish(state, PLAYERS)
    assert info.value.ruling == "R31"


def test_r31_totals_add_up_over_the_match() -> None:
    state = started(seed=11)
    total = Counter[str]()
    for order in (PLAYERS, PLAYERS[::-1], PLAYERS, PLAYERS[::-1]):
        match = state.match
        assert match is not None
        expected = scum.score_hand(match.roles, order)
        total.update(expected)
        play_hand(state, order)
    assert state.match is not None
    assert state.match.totals() == dict(total)


def test_t1_random_roles_are_seeded_and_reproducible() -> None:
    a, b = started(seed=5), started(seed=5)
    for _ in range(3):
        ea, eb = play_hand(a, PLAYERS), play_hand(b, PLAYERS)
        assert ea == eb
    roles_by_seed = {json.dumps(started(seed=s).match.roles, sort_keys=True)  # type: ignore[union-attr]
                     for s in range(20)}
    assert len(roles_by_seed) > 1


def test_t8_a_tie_shares_the_win() -> None:
    state = started(rotate=True)
    # Every hand finishes in role order Fool, Priestess, Magician, Empress: 9+6+3+0 each.
    for _ in range(4):
        match = state.match
        assert match is not None
        by_role = {r: n for n, r in match.roles.items()}
        order = [by_role[Role.FOOL], by_role[Role.HIGH_PRIESTESS], by_role[Role.MAGICIAN],
                 by_role[Role.EMPRESS]]
        play_hand(state, order)
    match = state.match
    assert match is not None
    assert len(set(match.totals().values())) == 1
    assert match.leaders() == PLAYERS
    assert "share the win" in scum.winner_text(match)


# -- match commands: bad input -------------------------------------------------------------------


def test_new_match_needs_four_different_names() -> None:
    with pytest.raises(BadInput, match="four players; got 3") as info:
        scum.new_match(scum.ScumState(), PLAYERS[:3], seed=1)
    assert info.value.ruling == "R29"
    with pytest.raises(BadInput, match="named twice"):
        scum.new_match(scum.ScumState(), ["Ann", "ann", "Cid", "Dan"], seed=1)
    with pytest.raises(BadInput, match="blank"):
        scum.new_match(scum.ScumState(), ["Ann", " ", "Cid", "Dan"], seed=1)


def test_t9_new_match_over_an_unfinished_one_needs_abandon() -> None:
    state = started()
    with pytest.raises(IllegalAction, match="--abandon"):
        scum.new_match(state, PLAYERS, seed=2)
    events = scum.new_match(state, ["Eve", "Fay", "Gus", "Hal"], seed=2, abandon=True)
    scum.apply(state, events[0])
    assert state.match is not None and state.match.players[0] == "Eve"
    assert state.matches == 2


def test_t11_finish_matches_prefixes_and_any_case() -> None:
    state = started()
    events = scum.finish(state, ["d", "CI", "bea", "An"])
    assert events[0]["order"] == ["Dan", "Cid", "Bea", "Ann"]


def test_finish_refuses_wrong_count_duplicates_and_strangers() -> None:
    state = started()
    with pytest.raises(BadInput, match="give all four"):
        scum.finish(state, ["Ann", "Bea", "Cid"])
    with pytest.raises(BadInput, match="Ann is named twice.*missing: Dan"):
        scum.finish(state, ["Ann", "Bea", "Cid", "an"])
    with pytest.raises(UnknownName, match="did you mean Bea"):
        scum.finish(state, ["Ann", "Bee", "Cid", "Dan"])


def test_finish_without_a_match() -> None:
    with pytest.raises(IllegalAction, match="scum new"):
        scum.finish(scum.ScumState(), PLAYERS)


# -- the stream ----------------------------------------------------------------------------------


def test_stream_is_registered() -> None:
    from referee.streams import spec

    assert spec("scum") is scum.STREAM


@given(st.integers(min_value=0, max_value=10**6), st.booleans(),
       st.lists(st.permutations(PLAYERS), min_size=0, max_size=4))
def test_dump_load_round_trip(seed: int, rotate: bool, orders: list[list[str]]) -> None:
    state = started(rotate=rotate, seed=seed)
    for order in orders:
        play_hand(state, order)
    data = json.loads(json.dumps(scum.dump(state)))
    assert scum.dump(scum.load(data)) == data
    empty = json.loads(json.dumps(scum.dump(scum.ScumState())))
    assert scum.dump(scum.load(empty)) == empty


def test_apply_catches_tampered_points() -> None:
    state = started()
    event = scum.finish(state, PLAYERS)[0]
    event["points"] = dict.fromkeys(PLAYERS, 9)
    with pytest.raises(InvariantViolation, match="R31"):
        scum.apply(state, event)


def test_apply_catches_a_rotation_that_does_not_rotate() -> None:
    state = started(rotate=True)
    event = scum.finish(state, PLAYERS)[0]
    event["next_roles"] = event["roles"]
    with pytest.raises(InvariantViolation, match="rotate"):
        scum.apply(state, event)


def test_apply_catches_two_players_with_one_role() -> None:
    event = scum.new_match(scum.ScumState(), PLAYERS, seed=1)[0]
    event["roles"] = dict.fromkeys(PLAYERS, "fool")
    with pytest.raises(InvariantViolation, match="R29"):
        scum.apply(scum.ScumState(), event)


def test_r31_t1_a_new_match_rotates_by_default() -> None:
    state = scum.ScumState()
    for event in scum.new_match(state, PLAYERS, seed=3):
        scum.apply(state, event)
    assert state.match is not None and state.match.rotate is True
