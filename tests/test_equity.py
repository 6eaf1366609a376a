"""Who is ahead on what is showing (``referee.rules.equity``, H26-H30): exact figures equal a
brute force over every deal; sampled figures lie within their stated 95% error of the exact
ones; shares of the hand and of each pot sum to one (R7: a tie is a share)."""

from __future__ import annotations

import doctest
import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import BadInput
from referee.rules import equity as engine
from referee.rules.cards import DECK, Card, parse_cards
from referee.rules.equity import Contender, Pot, Showing, deal_count, equity, unseen_cards
from referee.rules.hand_keys import evaluate
from tests.profiles import examples


def brute_force(showing: Showing) -> tuple[int, list[dict[str, Fraction]]]:
    """Every deal, one at a time, keyed by the full evaluation path: the number of deals and
    each group's (the hand, then each pot) exact shares."""
    names = [c.name for c in showing.contenders]
    groups = [names] + [list(p.eligible) for p in showing.pots]
    totals = [dict.fromkeys(g, Fraction(0)) for g in groups]
    deals = 0

    def deal(i: int, pool: list[Card], hands: dict[str, list[Card]]) -> None:
        nonlocal deals
        if i == len(showing.contenders):
            deals += 1
            keys = {n: evaluate(h, magic=True)[0] for n, h in hands.items()}
            for group, total in zip(groups, totals, strict=True):
                top = max(keys[n] for n in group)
                winners = [n for n in group if keys[n] == top]
                for n in winners:
                    total[n] += Fraction(1, len(winners))
            return
        c = showing.contenders[i]
        for combo in combinations(pool, c.hidden):
            rest = [card for card in pool if card not in combo]
            deal(i + 1, rest, {**hands, c.name: [*c.known, *combo]})

    pool = list(showing.unseen)
    for out in combinations([card for card in pool if card.is_major], showing.majors_out):
        deal(0, [card for card in pool if card not in out], {})
    return deals, [{n: v / deals for n, v in t.items()} for t in totals]


@st.composite
def small_tables(draw: st.DrawFn) -> Showing:
    """2-4 players with 0-2 cards to come (4 at most in all) from a few unseen cards, two
    pots."""
    deck = draw(st.permutations(DECK))
    players = draw(st.integers(2, 4))
    contenders = []
    pos = 0
    for i in range(players):
        known = draw(st.integers(1, 6))
        room = 4 - sum(c.hidden for c in contenders)  # at most 4 to come, for the brute force
        hidden = draw(st.integers(0, min(2, 7 - known, room)))
        contenders.append(Contender(f"p{i}", tuple(deck[pos:pos + known]), hidden))
        pos += known
    wanted = sum(c.hidden for c in contenders)
    unseen = tuple(deck[pos:pos + wanted + draw(st.integers(0, 4))])
    majors = sum(card.is_major for card in unseen)
    out = draw(st.integers(0, min(1, majors, len(unseen) - wanted)))
    names = [c.name for c in contenders]
    side = draw(st.lists(st.sampled_from(names), min_size=1, max_size=players, unique=True))
    pots = (Pot("main pot", 4, tuple(names)), Pot("side pot 1", 2, tuple(side)))
    return Showing(tuple(contenders), unseen, pots, out)


@settings(max_examples=examples(50))
@given(small_tables())
def test_h29_exact_figures_equal_a_brute_force_over_every_deal(showing: Showing) -> None:
    deals, expected = brute_force(showing)
    result = equity(showing)
    assert result.exact and result.error == 0
    assert result.deals == deals == deal_count(showing)
    assert result.fractions == expected[0]
    assert [p.fractions for p in result.pots] == expected[1:]


@settings(max_examples=examples(30))
@given(small_tables())
def test_r7_h30_the_shares_of_the_hand_and_of_each_pot_sum_to_one(showing: Showing) -> None:
    exact = equity(showing)
    sampled = equity(showing, exact_deals=0, most=engine.BATCH)
    assert exact.fractions is not None
    assert sum(exact.fractions.values()) == 1
    for result in (exact, sampled):
        assert sum(result.hand.values()) == pytest.approx(1)
        for pot in result.pots:
            assert set(pot.chances) == set(pot.pot.eligible)
            assert sum(pot.chances.values()) == pytest.approx(1)
            assert all(0 <= v <= 1 for v in pot.chances.values())


@settings(max_examples=examples(25))
@given(small_tables(), st.randoms(use_true_random=False))
def test_h26_seat_order_changes_no_figure(showing: Showing, rng: random.Random) -> None:
    seats = list(showing.contenders)
    rng.shuffle(seats)
    moved = Showing(tuple(seats), showing.unseen, showing.pots, showing.majors_out)
    assert equity(moved).fractions == equity(showing).fractions


def _heads_up(seed: int) -> Showing:
    """One stakeholder and the Fool after the last deal: four up and three to come against
    the Fool's seven, all up; 47,905 deals, so exact is at hand."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    ada = Contender("Ada", tuple(deck[:4]), 3)
    fool = Contender("Max", tuple(deck[4:11]), 0)
    return Showing((ada, fool), unseen_cards(deck[:11]), (Pot("main pot", 6, ("Ada", "Max")),))


def _three_way(seed: int) -> Showing:
    """Two stakeholders and the Fool, each with one card to come from a short unseen pile."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    ada = Contender("Ada", tuple(deck[:5]), 1)
    cy = Contender("Cy", tuple(deck[5:10]), 1)
    fool = Contender("Max", tuple(deck[10:16]), 1)
    pots = (Pot("main pot", 6, ("Ada", "Cy", "Max")), Pot("side pot 1", 2, ("Cy", "Max")))
    return Showing((ada, cy, fool), tuple(deck[16:40]), pots)


def test_h29_sampled_figures_lie_within_their_stated_error_of_the_exact_ones() -> None:
    """Each sampled figure's stated margin holds 95 times in 100: over some forty figures
    at most one in ten may miss it, and none by twice the margin (a 1 in 10,000 event)."""
    figures = missed = 0
    for seed in range(6):
        for showing in (_heads_up(seed), _three_way(seed)):
            exact = equity(showing)
            sampled = equity(showing, exact_deals=0, seed=seed)
            assert exact.exact and not sampled.exact
            assert 0 < sampled.error <= engine.ERROR
            assert sampled.deals >= engine.MIN_DEALS
            pairs = [(exact.hand, sampled.hand)] + [
                (e.chances, s.chances) for e, s in zip(exact.pots, sampled.pots, strict=True)]
            for want, got in pairs:
                for name, value in want.items():
                    figures += 1
                    gap = abs(got[name] - value)
                    missed += gap > sampled.error
                    assert gap <= 2 * sampled.error, (seed, name, value, got[name])
    assert figures >= 40
    assert missed <= figures // 10


def test_h29_the_heads_up_last_round_is_exact_against_an_independent_count() -> None:
    showing = _heads_up(3)
    result = equity(showing)
    fool_key = evaluate(list(showing.contenders[1].known))[0]
    wins = ties = 0
    known = list(showing.contenders[0].known)
    pool = list(showing.unseen)
    for combo in combinations(pool, 3):
        key = evaluate([*known, *combo])[0]
        wins += key > fool_key
        ties += key == fool_key
    total = len(list(combinations(pool, 3)))
    assert result.exact and result.deals == total == 47_905
    assert result.fractions == {"Ada": Fraction(2 * wins + ties, 2 * total),
                                "Max": Fraction(2 * (total - wins - ties) + ties, 2 * total)}


def test_h29_the_same_table_gives_the_same_sample_and_another_seed_another() -> None:
    showing = _three_way(1)
    first = equity(showing, exact_deals=0, seed=5)
    assert equity(showing, exact_deals=0, seed=5) == first
    assert equity(showing, exact_deals=0, seed=6).hand != first.hand


def test_h29_a_wider_error_takes_fewer_deals() -> None:
    showing = _three_way(2)
    fine = equity(showing, exact_deals=0)
    rough = equity(showing, exact_deals=0, error=0.02)
    assert rough.deals == engine.MIN_DEALS < fine.deals
    assert rough.error <= 0.02


def test_h26_a_card_slid_to_the_fool_is_an_unseen_major() -> None:
    # Ada needs any major for a Duet; Cy's hand is fixed. With the one major unseen gone to
    # the Fool face down, Ada can no longer make it.
    ada = Contender("Ada", tuple(parse_cards("2C 4W 6S 8P 10C XXI")), 1)
    cy = Contender("Cy", tuple(parse_cards("3C 5W 7S 9P KC")), 0)
    unseen = tuple(parse_cards("0 QW"))
    both = (Pot("main pot", 2, ("Ada", "Cy")),)
    assert equity(Showing((ada, cy), unseen, both)).fractions == {"Ada": Fraction(1, 2),
                                                                  "Cy": Fraction(1, 2)}
    assert equity(Showing((ada, cy), unseen, both, majors_out=1)).fractions == {
        "Ada": Fraction(0), "Cy": Fraction(1)}


def test_r7_a_tie_is_a_share() -> None:
    # Both show the same straight; the one card to come cannot improve either.
    ada = Contender("Ada", tuple(parse_cards("2C 3W 4S 5P 6C")), 1)
    cy = Contender("Cy", tuple(parse_cards("2W 3S 4P 5C 6W")), 0)
    result = equity(Showing((ada, cy), tuple(parse_cards("XX")),
                            (Pot("main pot", 2, ("Ada", "Cy")),)))
    assert result.fractions == {"Ada": Fraction(1, 2), "Cy": Fraction(1, 2)}


def test_r8_h28_a_magic_hand_may_hold_a_card_twice() -> None:
    # Ada's King of Cups counts as a second King of Wands: with the KW showing, a pair.
    ada = Contender("Ada", tuple(parse_cards("KW KW 2S")), 1, magic=True)
    cy = Contender("Cy", tuple(parse_cards("QC QW 3S")), 0)
    result = equity(Showing((ada, cy), tuple(parse_cards("4P 5P")), ()))
    assert result.fractions == {"Ada": Fraction(1), "Cy": Fraction(0)}
    with pytest.raises(BadInput, match="R8"):
        equity(Showing((Contender("Ada", ada.known, 1), cy), tuple(parse_cards("4P 5P"))))


@pytest.mark.parametrize(("showing", "ruling"), [
    (Showing((), ()), "H30"),
    (Showing((Contender("Ada", tuple(parse_cards("KC")), 3),), tuple(parse_cards("2C 3C"))),
     "H27"),
    (Showing((Contender("Ada", tuple(parse_cards("KC")), 0),), tuple(parse_cards("KC"))), "R8"),
    (Showing((Contender("Ada", tuple(parse_cards("KC")), 7),), tuple(DECK[:20])), "R7"),
    (Showing((Contender("Ada", tuple(parse_cards("KC")), 0),), (), (Pot("p", 1, ("Cy",)),)),
     "H30"),
    (Showing((Contender("Ada", tuple(parse_cards("KC")), 0),), tuple(parse_cards("2C")),
             majors_out=1), "H26"),
])
def test_h26_h30_a_table_no_deal_can_come_from_is_refused(showing: Showing, ruling: str
                                                          ) -> None:
    with pytest.raises(BadInput) as info:
        equity(showing)
    assert info.value.ruling == ruling


def test_docstring_examples() -> None:
    result = doctest.testmod(engine)
    assert result.attempted > 0 and result.failed == 0
