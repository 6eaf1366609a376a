"""Side pots, uncalled chips and splits by colour (R11, R14, R15)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import IllegalAction
from referee.rules.pots import build_pots, check_named_chips, pick_chips, split_pot, total


def test_r11_own_colour_first_then_largest_holding() -> None:
    assert pick_chips({"red": 2, "blue": 5, "green": 5}, 4, own="red") == {"red": 2, "blue": 2}
    assert pick_chips({"red": 2, "blue": 5}, 3, own="red", own_first=False) == {"blue": 3}


def test_r11_named_colours_must_be_held() -> None:
    with pytest.raises(IllegalAction, match="holds 1 blue"):
        check_named_chips({"blue": 1}, {"blue": 2}, "Ada")


def test_r14_all_in_player_makes_a_side_pot() -> None:
    # Ada all-in for 2, Cy and Ed put in 5 each; the Fool put nothing in.
    contrib = {"Ada": ["red"] * 2, "Cy": ["blue"] * 5, "Ed": ["green"] * 5}
    layering = build_pots(contrib, ["Cy", "Ed", "Ada", "Fool"], "Fool")
    main, side = layering.pots
    assert main.chips == {"red": 2, "blue": 2, "green": 2}
    assert main.eligible == ("Cy", "Ed", "Ada", "Fool")
    assert side.chips == {"blue": 3, "green": 3}
    assert side.eligible == ("Cy", "Ed", "Fool")  # R15: the Fool is eligible for every pot
    assert layering.returned == {}


def test_r15_uncalled_bet_goes_back() -> None:
    contrib = {"Ada": ["red"] * 3, "Cy": ["blue"] * 1}
    layering = build_pots(contrib, ["Ada", "Fool"], "Fool")  # Cy folded
    assert layering.returned == {"Ada": {"red": 2}}
    assert [p.chips for p in layering.pots] == [{"red": 1, "blue": 1}]
    assert layering.pots[0].eligible == ("Ada", "Fool")


def test_r15_folded_players_chips_stay_in_the_pot() -> None:
    contrib = {"Ada": ["red"] * 2, "Cy": ["blue"] * 2, "Ed": ["green"] * 1}
    layering = build_pots(contrib, ["Ada", "Cy", "Fool"], "Fool")  # Ed folded
    assert sum(p.size for p in layering.pots) == 5
    assert all("Ed" not in p.eligible for p in layering.pots)


def test_r11_split_takes_own_colour_back_and_odd_chip_to_the_left() -> None:
    # 5 chips between Ada (seated first) and Cy: Ada gets 3 (odd chip), Cy 2.
    shares = split_pot({"red": 2, "blue": 1, "green": 2}, ["Ada", "Cy"],
                       {"Ada": "red", "Cy": "blue"})
    assert shares == {"Ada": {"red": 2, "green": 1}, "Cy": {"blue": 1, "green": 1}}


@given(st.dictionaries(st.sampled_from(["A", "B", "C", "D", "Fool"]),
                       st.lists(st.sampled_from(["red", "blue", "green"]), max_size=12),
                       min_size=1),
       st.sets(st.sampled_from(["A", "B", "C", "D"])))
def test_r10_pots_and_returns_hold_every_chip_once(contrib: dict[str, list[str]],
                                                   folded: set[str]) -> None:
    live = [p for p in ["A", "B", "C", "D", "Fool"] if p not in folded]
    layering = build_pots(contrib, live, "Fool")
    seen: Counter[str] = Counter()
    for pot in layering.pots:
        seen.update(pot.chips)
        assert "Fool" in pot.eligible
        assert not set(pot.eligible) & folded
    for chips in layering.returned.values():
        seen.update(chips)
    want: Counter[str] = Counter()
    for colours in contrib.values():
        want.update(colours)
    assert +seen == +want


@given(st.dictionaries(st.sampled_from(["red", "blue", "green"]), st.integers(0, 9)),
       st.lists(st.sampled_from(["A", "B", "C"]), min_size=1, max_size=3, unique=True))
def test_r11_split_conserves_chips_and_shares_differ_by_at_most_one(
        chips: dict[str, int], winners: list[str]) -> None:
    shares = split_pot(chips, winners, {"A": "red", "B": "blue", "C": None})
    got: Counter[str] = Counter()
    for h in shares.values():
        got.update(h)
    assert +got == +Counter(chips)
    sizes = [total(shares[w]) for w in winners]
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)  # odd chips go to the first seats


# -- antes are dead money (R13, R15) ------------------------------------------------------------


def test_e262_a_toll_paid_after_an_all_in_lies_with_the_side_pot() -> None:
    # Ada all-in for 2, which Cy and Ed call; then each pays a toll chip (dead, counted with
    # the antes) and bets 3 more: the tolls join the side pot Ada cannot win.
    contrib = {"Ada": ["red"] * 2, "Cy": ["blue"] * 6, "Ed": ["green"] * 6}
    tolls = [({"blue": 1, "green": 1}, ["Ada"])]
    layering = build_pots(contrib, ["Cy", "Ed", "Ada", "Fool"], "Fool",
                          antes={"Cy": 1, "Ed": 1}, barred=tolls)
    main, side = layering.pots
    assert (main.size, main.eligible) == (6, ("Cy", "Ed", "Ada", "Fool"))
    assert side.chips == {"blue": 4, "green": 4}
    assert side.eligible == ("Cy", "Ed", "Fool")
    assert layering.returned == {}


def test_r15_antes_lie_in_the_main_pot_and_are_never_returned() -> None:
    # Ada and Cy antes; Cy bets 1, Ada folds, the Fool (no ante) calls 1: nothing is uncalled.
    contrib = {"Ada": ["red"], "Cy": ["blue"] * 3, "Max": ["red", "blue"]}
    layering = build_pots(contrib, ["Cy", "Max"], "Max", antes={"Ada": 1, "Cy": 1})
    assert layering.returned == {}
    assert [(p.size, p.eligible) for p in layering.pots] == [(6, ("Cy", "Max"))]


def test_r15_all_in_on_the_ante_contests_the_antes_but_not_a_bet_above_it() -> None:
    # Ada's ante was her last chip; the Fool's forced bet of one chip is matched by no bet.
    contrib = {"Ada": ["red"], "Cy": ["blue"], "Max": ["blue"]}
    layering = build_pots(contrib, ["Ada", "Max"], "Max", antes={"Ada": 1, "Cy": 1})
    assert [(p.chips, p.eligible) for p in layering.pots] == [({"red": 1, "blue": 1},
                                                               ("Ada", "Max"))]
    assert layering.returned == {"Max": {"blue": 1}}


def test_r15_a_bet_the_antes_seemed_to_match_is_uncalled() -> None:
    # Cy antes 1 and bets 2; Ada antes 1 and calls only 1, all-in; the top chip is Cy's alone.
    contrib = {"Ada": ["red"] * 2, "Cy": ["blue"] * 3}
    layering = build_pots(contrib, ["Ada", "Cy", "Max"], "Max", antes={"Ada": 1, "Cy": 1})
    assert layering.returned == {"Cy": {"blue": 1}}
    assert [p.size for p in layering.pots] == [4]


_PLAYERS = ["A", "B", "C", "D"]


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.booleans()), min_size=2,
                max_size=4),
       st.integers(0, 6))
def test_r15_antes_never_come_back_and_returns_are_the_unmatched_top(
        seats: list[tuple[bool, int, bool]], fool_bet: int) -> None:
    """Random hands with antes, bets, folds and all-ins: every chip in one pot or returned,
    no ante ever returned, and each return is exactly the part of the top bet no other
    player matched (R10, R13, R15)."""
    contrib: dict[str, list[str]] = {}
    antes: dict[str, int] = {}
    bets: dict[str, int] = {}
    live = []
    for name, (ante, bet, folded) in zip(_PLAYERS, seats, strict=False):
        antes[name] = int(ante)
        bets[name] = bet
        contrib[name] = [f"ante-{name}"] * int(ante) + [f"bet-{name}"] * bet
        if not folded:
            live.append(name)
    contrib["Fool"] = ["bet-Fool"] * fool_bet
    bets["Fool"] = fool_bet
    live.append("Fool")
    layering = build_pots(contrib, live, "Fool", antes=antes)
    seen: Counter[str] = Counter()
    for pot in layering.pots:
        seen.update(pot.chips)
        assert "Fool" in pot.eligible
    for who, chips in layering.returned.items():
        seen.update(chips)
        assert all(c == f"bet-{who}" for c in chips), "an ante came back (R15)"
        others = max(v for p, v in bets.items() if p != who)
        assert who in live and total(chips) == bets[who] - others
    want: Counter[str] = Counter()
    for colours in contrib.values():
        want.update(colours)
    assert +seen == +want
    top = max(bets.values())
    leaders = [p for p, v in bets.items() if v == top]
    second = max([v for p, v in bets.items() if p not in leaders] or [0])
    if len(leaders) == 1 and leaders[0] in live and top > second:
        assert total(layering.returned.get(leaders[0], {})) == top - second
    else:
        assert layering.returned == {}
