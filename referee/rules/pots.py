"""Chips by colour, side pots and splits (R10, R11, R14, R15). Pure functions.

Chips are counted, never valued: a holding is ``{colour: count}``. A player's
contribution to a hand is the ordered list of the colours they put in, so the
first chips in fill the main pot and later ones the side pots (E6).

>>> pick_chips({"red": 2, "blue": 5}, 3, own="red")
{'red': 2, 'blue': 1}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from referee.errors import IllegalAction

Holding = dict[str, int]


def total(holding: Mapping[str, int]) -> int:
    """Number of chips in a holding."""
    return sum(holding.values())


def pick_chips(holding: Mapping[str, int], n: int, *, own: str | None,
               own_first: bool = True) -> Holding:
    """Which ``n`` chips a player puts in when the referee names no colours (R11 option).

    Own colour first (when ``own_first``), then the other colours, largest holding first,
    ties by colour name. ``n`` must not exceed the holding.
    """
    if n > total(holding):
        raise ValueError("not enough chips")
    out: Holding = {}
    order = sorted((c for c in holding if holding[c] > 0), key=lambda c: (-holding[c], c))
    if own_first and own in order:
        order.remove(own)
        order.insert(0, own)
    left = n
    for colour in order:
        if left == 0:
            break
        take = min(left, holding[colour])
        out[colour] = take
        left -= take
    return out


def check_named_chips(holding: Mapping[str, int], named: Mapping[str, int], who: str) -> None:
    """The chips the referee named must be held (R11)."""
    for colour, n in named.items():
        have = holding.get(colour, 0)
        if n <= 0:
            raise IllegalAction(f"chip counts must be positive, got {colour}:{n}", ruling="R11")
        if have < n:
            held = ", ".join(f"{c}:{k}" for c, k in sorted(holding.items()) if k) or "no chips"
            raise IllegalAction(
                f"{who} holds {have} {colour} {'chip' if have == 1 else 'chips'}, not {n}; "
                f"{who} holds {held}", ruling="R11"
            )


@dataclass(frozen=True)
class Pot:
    """One pot: its chips by colour and who may win it."""

    chips: Holding
    eligible: tuple[str, ...]
    returned_to: str | None = None  # set for uncalled chips (R15), which are no pot at all

    @property
    def size(self) -> int:
        return total(self.chips)


@dataclass
class Layering:
    """Pots of a hand, main first, plus uncalled chips going back to their owner."""

    pots: list[Pot] = field(default_factory=list)
    returned: dict[str, Holding] = field(default_factory=dict)


def pot_name(i: int) -> str:
    """The name of the hand's ``i``-th pot, from 0: ``main pot``, then ``side pot 1`` ..."""
    return "main pot" if i == 0 else f"side pot {i}"


def build_pots(contrib: Mapping[str, Sequence[str]], live: Sequence[str],
               fool: str | None, antes: Mapping[str, int] | None = None,
               barred: Sequence[tuple[Mapping[str, int], Sequence[str]]] = (),
               late: Sequence[tuple[str, int, Sequence[str]]] = ()) -> Layering:
    """Split the contributions into a main pot and side pots (R14, R15).

    Args:
        contrib: every player's chips in the pot, by colour, in the order put in (the ante,
            when there is one, first).
        live: players still in the hand (not folded), in seat order; the Fool included.
        fool: the Fool's name; he is eligible for every pot whatever he put in (R15).
        antes: how many of each player's first chips were an ante (R13).
        barred: dead chips some live players may not win, with those players (E262: a toll
            paid while they were all-in or Suspended); they are counted in ``antes`` too.
        late: a folded player's last chips bet, with the live players who cannot win them
            (E286: a bet no live player matched, its bettor folded by a power while those
            players were all-in or Suspended): dead money for the others.

    Antes are dead money (R15): they lie in the main pot, are never returned and match no
    bet, so the pot levels are cut by the bets alone. A player all-in on the ante contests
    the antes (and the first bets) but no chip bet above what they bet. A layer of bets that
    no other live player matched is an uncalled bet and goes back to its owner (R15). Bets
    no live player reached (a bettor a power folded, E286) are dead money in the top pot the
    live contest, never a pot of the Fool's alone.
    """
    dead, bets, barred = _dead_and_bets(contrib, antes or {}, barred, late)
    amounts = {p: len(c) for p, c in bets.items()}
    out = Layering()
    if dead:
        out.pots.append(Pot(dict(dead), tuple(live)))
    prev = 0
    for level in sorted(set(amounts.values())):
        chips: Counter[str] = Counter()
        contributors = [p for p, a in amounts.items() if a >= level]
        for p in contributors:
            chips.update(bets[p][prev:level])
        live_in = [p for p in live if amounts.get(p, 0) >= level]
        if len(contributors) == 1 and live_in == contributors:
            owner = contributors[0]
            back = out.returned.setdefault(owner, {})
            for colour, n in chips.items():
                back[colour] = back.get(colour, 0) + n
        elif not live_in and out.pots:  # E286: bet by the folded alone, dead in the top pot
            _into_top(out, chips)
        else:
            eligible = [p for p in live if p in live_in or p == fool or not live_in]
            if out.pots and list(out.pots[-1].eligible) == eligible:
                _into_top(out, chips)
            else:
                out.pots.append(Pot(dict(chips), tuple(eligible)))
        prev = level
    for chips_, passed in barred:
        _dead_for(out, chips_, tuple(p for p in live if p not in passed or p == fool))
    return out


def _dead_and_bets(contrib: Mapping[str, Sequence[str]], antes: Mapping[str, int],
                   barred: Sequence[tuple[Mapping[str, int], Sequence[str]]],
                   late: Sequence[tuple[str, int, Sequence[str]]]
                   ) -> tuple[Counter[str], dict[str, Sequence[str]],
                              list[tuple[Mapping[str, int], Sequence[str]]]]:
    """The dead chips (antes, less those ``barred`` from some players, E262), each player's
    bets, and the chips barred, with a folded bettor's ``late`` chips among them (E286)."""
    dead: Counter[str] = Counter()
    bets: dict[str, Sequence[str]] = {}
    for p, paid in contrib.items():
        k = min(antes.get(p, 0), len(paid))
        dead.update(paid[:k])
        if len(paid) > k:
            bets[p] = paid[k:]
    for chips, _ in barred:
        dead.subtract(chips)
    held = list(barred)
    for p, n, passed in late:  # E286: the last chips of a folded bettor's, theirs no more
        held.append((Counter(bets[p][-n:]), passed))
        bets[p] = bets[p][:-n]
        if not bets[p]:
            del bets[p]
    return +dead, bets, held  # the barred chips make pots of their own (E262)


def _into_top(out: Layering, chips: Mapping[str, int]) -> None:
    """``chips`` added to the last pot made, for the same players."""
    merged = Counter(out.pots[-1].chips)
    merged.update(chips)
    out.pots[-1] = Pot(dict(merged), out.pots[-1].eligible)


def _dead_for(out: Layering, chips: Mapping[str, int], eligible: tuple[str, ...]) -> None:
    """E262: dead chips only ``eligible`` may win, in the pot they alone contest, made where
    the pots narrow past them (main pot first) when there is none."""
    for i, pot in enumerate(out.pots):
        if pot.eligible == eligible:
            merged = Counter(pot.chips)
            merged.update(chips)
            out.pots[i] = Pot(dict(merged), eligible)
            return
    at = next((i for i, pot in enumerate(out.pots) if len(pot.eligible) < len(eligible)),
              len(out.pots))
    out.pots.insert(at, Pot({c: n for c, n in chips.items() if n}, eligible))


def split_pot(chips: Mapping[str, int], winners: Sequence[str],
              colours: Mapping[str, str | None]) -> dict[str, Holding]:
    """Deal a pot out to its winners (R11).

    ``winners`` in seat order from the Fool's left; the odd chips go to the first of them (E8).
    Each winner first takes back chips of their own colour (``colours[name]``), then the
    rest is dealt colour by colour, largest pile first.
    """
    size = total(chips)
    n = len(winners)
    shares = {w: size // n + (1 if i < size % n else 0) for i, w in enumerate(winners)}
    left = {c: k for c, k in chips.items() if k}
    out: dict[str, Holding] = {w: {} for w in winners}
    for w in winners:
        own = colours.get(w)
        if own and left.get(own):
            take = min(shares[w], left[own])
            out[w][own] = take
            left[own] -= take
            shares[w] -= take
    for w in winners:
        for colour in sorted(left, key=lambda c: (-left[c], c)):
            if shares[w] == 0:
                break
            take = min(shares[w], left[colour])
            if take:
                out[w][colour] = out[w].get(colour, 0) + take
                left[colour] -= take
                shares[w] -= take
    assert not any(left.values()), "split left chips over"
    return {w: {c: k for c, k in h.items() if k} for w, h in out.items()}
