"""Who is ahead on what is showing (H26-H30): each player's chance to win the hand and each pot.

The engine is given what the table shows, as plain data (:class:`Showing`): each live
player's cards that count (:class:`Contender`) and how many more cards they will hold, the
unseen cards those are drawn from, and the pots with who may win each. Every arrangement of
the unseen cards is equally likely (H26). A deal gives every contender their missing cards;
the best hand among a pot's players wins it, and a tie is a share, ``1/k`` to each of ``k``
tied (R7, H30). "The hand" is the best hand among every contender.

Exact or sampled (H29). When the deals are few (at most :data:`EXACT_DEALS`), every one is
counted and the figures are exact fractions. Otherwise deals are drawn at random, seeded, in
batches, until every figure's 95% confidence half-width is within the error asked (0.5
percentage points by default): the figure lies that close to the exact one 19 times in 20.

The work is vectorised with numpy (:mod:`key_arrays`, the key engine's key path by array):
a batch of deals is keyed in a few array operations per distinct rank pattern, not per
hand. numpy is imported by these two modules only, and they only by the console's
chances of the hand (H26).

>>> from referee.rules.cards import parse_cards
>>> ada = Contender("Ada", tuple(parse_cards("KC KW KS KP 0 I")), 1)
>>> max_ = Contender("Max", tuple(parse_cards("2C 3W 5S 7P 9C II III")), 0)
>>> unseen = tuple(parse_cards("4C 4W"))
>>> result = equity(Showing((ada, max_), unseen))
>>> result.exact, result.deals, result.hand
(True, 2, {'Ada': 1.0, 'Max': 0.0})
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from referee.errors import BadInput
from referee.rules import key_arrays
from referee.rules.cards import DECK, Card
from referee.rules.hand_keys import hand_keys

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Ints = NDArray[np.int64]

#: H29: at most this many deals are counted one by one; more are sampled.
EXACT_DEALS = 3_000_000
#: H29: the error asked of a sampled figure (a probability: 0.005 is 0.5 points), at 95%.
ERROR = 0.005
CONFIDENCE = 0.95
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval
#: Deals drawn per batch, at least before the error is first judged, and at most.
BATCH = 8_192
MIN_DEALS = 16_384
MAX_DEALS = 400_000
#: Shares of a tie among up to seven players are whole multiples of 1/420 (lcm of 1..7).
_LCM = 420

HAND = "hand"


@dataclass(frozen=True)
class Contender:
    """A player still in the hand, as the table shows them.

    Args:
        name: who.
        known: the cards that count for them now, as they count (a card changed by magic
            as what it counts as; a dead card left out).
        hidden: how many more cards they will hold, drawn from the unseen cards.
        magic: their known cards were changed by magic, so a card may be there twice
            (R8): their hands take the key engine's full path.
    """

    name: str
    known: tuple[Card, ...]
    hidden: int
    magic: bool = False


@dataclass(frozen=True)
class Pot:
    """A pot: its name, its size in chips and the contenders who may win it (E29, R15)."""

    name: str
    size: int
    eligible: tuple[str, ...]


@dataclass(frozen=True)
class Showing:
    """What the table shows: the contenders in seat order, the unseen cards, the pots.

    ``majors_out`` unseen cards are out of play and known only to be majors (cards slid
    to the Fool face down for a power, H26): each deal takes them from the unseen majors
    before the contenders' cards.
    """

    contenders: tuple[Contender, ...]
    unseen: tuple[Card, ...]
    pots: tuple[Pot, ...] = ()
    majors_out: int = 0


@dataclass(frozen=True)
class PotEquity:
    """One pot's figures: each eligible contender's chance (shares of ties included)."""

    pot: Pot
    chances: dict[str, float]
    fractions: dict[str, Fraction] | None = None


@dataclass(frozen=True)
class Equity:
    """The figures: exact (every deal counted) or sampled (with its 95% error)."""

    exact: bool
    deals: int
    error: float  # the largest 95% half-width of any figure, a probability; 0 when exact
    hand: dict[str, float]
    pots: tuple[PotEquity, ...] = ()
    fractions: dict[str, Fraction] | None = None  # the hand's, when exact
    confidence: float = CONFIDENCE
    target: float = ERROR
    unseen: int = 0


# ---------------------------------------------------------------- checking the input


def check(showing: Showing) -> None:
    """Refuse a table no deal can come from (more cards wanted than unseen, a card twice).

    Raises:
        BadInput: no contender, a hand of more than seven cards or none, a card both known
            and unseen (without magic), more cards to deal than are unseen, a pot with a
            player who is not in the hand.
    """
    if not showing.contenders:
        raise BadInput("no player is in the hand: there is nobody to be ahead (H30)",
                       ruling="H30")
    names = [c.name for c in showing.contenders]
    if len(set(names)) != len(names):
        raise BadInput(f"a player is in the hand twice: {', '.join(names)}")
    unseen = {card.index for card in showing.unseen}
    if len(unseen) != len(showing.unseen):
        raise BadInput("a card is unseen twice: the unseen cards are distinct deck cards (R8)",
                       ruling="R8")
    for c in showing.contenders:
        _check_hand(c, unseen)
    majors = sum(card.is_major for card in showing.unseen)
    if showing.majors_out > majors:
        raise BadInput(f"{showing.majors_out} majors are out face down, but only {majors} are "
                       "unseen (H26)", ruling="H26")
    wanted = sum(c.hidden for c in showing.contenders) + showing.majors_out
    if wanted > len(showing.unseen):
        raise BadInput(f"the players still need {wanted} cards, but only "
                       f"{len(showing.unseen)} are unseen (H27)", ruling="H27")
    for pot in showing.pots:
        strangers = [p for p in pot.eligible if p not in names]
        if strangers or not pot.eligible:
            raise BadInput(f"{pot.name}: {', '.join(strangers) or 'nobody'} cannot win it; "
                           "a pot goes to players still in the hand (H30)", ruling="H30")


def _check_hand(c: Contender, unseen: set[int]) -> None:
    """A contender's hand is one to seven cards (R7), and without magic none of its known
    cards is twice in the deck or among the unseen (R8)."""
    size = len(c.known) + c.hidden
    if c.hidden < 0 or not 1 <= size <= 7:
        raise BadInput(f"{c.name} would hold {size} cards: a hand is one to seven (R7)",
                       ruling="R7")
    if not c.magic:
        own = [card.index for card in c.known]
        if len(set(own)) != len(own) or unseen & set(own):
            raise BadInput(f"{c.name}'s cards are twice in the deck; without magic a card "
                           "is in one place only (R8)", ruling="R8")


def deal_count(showing: Showing) -> int:
    """How many deals of the unseen cards there are: the majors out face down, then each
    contender's missing cards (order within a hand does not matter)."""
    majors = sum(card.is_major for card in showing.unseen)
    count = math.comb(majors, showing.majors_out)
    left = len(showing.unseen) - showing.majors_out
    for c in showing.contenders:
        count *= math.comb(left, c.hidden)
        left -= c.hidden
    return count


# ---------------------------------------------------------------- keys in bulk


def keys_of(showing: Showing, dealt: Sequence[Ints]) -> Ints:
    """The key of every contender's hand in each deal: one column per contender.

    ``dealt[i]`` holds contender ``i``'s missing cards, a row per deal (deck indices).
    """
    n = len(dealt[0]) if dealt else 0
    columns: list[Ints | None] = [None] * len(showing.contenders)
    plain: list[tuple[int, tuple[list[int], Ints]]] = []
    for i, (c, idx) in enumerate(zip(showing.contenders, dealt, strict=True)):
        known = [card.index for card in c.known]
        if c.magic:
            columns[i] = key_arrays.magic_keys(known, idx)
        elif c.hidden == 0:
            columns[i] = np.full(n, hand_keys([known])[0], dtype=np.int64)
        else:
            plain.append((i, (known, idx)))
    if plain:
        for (i, _), keys in zip(plain, key_arrays.keys([part for _, part in plain]), strict=True):
            columns[i] = keys
    return np.stack([col for col in columns if col is not None], axis=1)


# ---------------------------------------------------------------- outcomes


def _groups(showing: Showing) -> list[list[int]]:
    """Column indices of the hand (every contender) and of each pot's eligible players."""
    names = [c.name for c in showing.contenders]
    out = [list(range(len(names)))]
    for pot in showing.pots:
        out.append([names.index(p) for p in pot.eligible])
    return out


def _shares(keys: Ints, cols: list[int]) -> Ints:
    """Each deal's share of a pot for each of ``cols``, in 420ths (R7: a tie is a share)."""
    sub = keys[:, cols]
    best = (sub == sub.max(axis=1, keepdims=True)).astype(np.int64)
    shares: Ints = best * (_LCM // best.sum(axis=1, keepdims=True))
    return shares


# ---------------------------------------------------------------- exact


def _combos(n: int, k: int) -> Ints:
    if k == 0:
        return np.zeros((1, 0), dtype=np.int64)
    flat = np.fromiter((i for combo in combinations(range(n), k) for i in combo),
                       dtype=np.int64, count=math.comb(n, k) * k)
    return flat.reshape(-1, k)


def _masks(combos: Ints) -> tuple[Ints, Ints]:
    """Each combination of pool positions (0-77) as two 63-bit masks."""
    lo = np.zeros(len(combos), dtype=np.int64)
    hi = np.zeros(len(combos), dtype=np.int64)
    for col in range(combos.shape[1]):
        pos = combos[:, col]
        low = pos < 63
        lo |= np.where(low, np.int64(1) << np.where(low, pos, 0), 0)
        hi |= np.where(low, 0, np.int64(1) << np.where(low, 0, pos - 63))
    return lo, hi


def _exact(showing: Showing) -> tuple[list[Ints], int]:
    """Every deal counted: the sum of each group's shares (420ths) and the number of deals."""
    pool = np.array([card.index for card in showing.unseen], dtype=np.int64)
    # The layers of a deal: the majors out (positions among the unseen majors), then each
    # contender's missing cards; the key of each contender's combination is worked out once.
    layers: list[tuple[int | None, Ints, Ints, Ints]] = []  # contender, combos, lo, hi
    if showing.majors_out:
        majors = np.array([i for i, card in enumerate(showing.unseen) if card.is_major])
        combos = majors[_combos(len(majors), showing.majors_out)]
        layers.append((None, combos, *_masks(combos)))
    for i, c in enumerate(showing.contenders):
        if c.hidden:
            combos = _combos(len(pool), c.hidden)
            layers.append((i, combos, *_masks(combos)))
    keyed = {i: keys_of(Showing((showing.contenders[i],), showing.unseen),
                        [pool[combos]])[:, 0]
             for i, combos, _, _ in layers if i is not None}
    fixed = {i: keys_of(Showing((c,), showing.unseen),
                        [np.zeros((1, 0), dtype=np.int64)])[0, 0]
             for i, c in enumerate(showing.contenders) if not c.hidden}
    groups = _groups(showing)
    totals = [np.zeros(len(g), dtype=np.int64) for g in groups]
    deals = 0
    width = len(showing.contenders)
    for rows, picks in _joined(layers):
        keys = np.empty((rows, width), dtype=np.int64)
        for i in range(width):
            keys[:, i] = keyed[i][picks[i]] if i in keyed else fixed[i]
        deals += rows
        for total, cols in zip(totals, groups, strict=True):
            total += _shares(keys, cols).sum(axis=0)
    return totals, deals


def _joined(layers: list[tuple[int | None, Ints, Ints, Ints]],
            chunk: int = 1 << 20) -> Iterator[tuple[int, dict[int, Ints]]]:
    """Every deal as the combination index chosen in each layer, in chunks: combinations of
    later layers disjoint from those before. Yields how many deals, and ``{contender:
    combination indices}``."""
    if not layers:
        yield 1, {}
        return
    order = sorted(range(len(layers)), key=lambda j: len(layers[j][1]))
    first = layers[order[0]]
    rows: dict[int | None, Ints] = {first[0]: np.arange(len(first[1]))}
    lo, hi = first[2], first[3]
    for step, j in enumerate(order[1:], start=1):
        who, combos, clo, chi = layers[j]
        last = step == len(order) - 1
        size = max(1, chunk // max(1, len(combos)))
        pieces: list[tuple[dict[int | None, Ints], Ints, Ints]] = []
        for start in range(0, len(lo), size):
            part = slice(start, start + size)
            a = np.repeat(np.arange(len(lo))[part], len(combos))
            b = np.tile(np.arange(len(combos)), len(lo[part]))
            ok = ((lo[a] & clo[b]) == 0) & ((hi[a] & chi[b]) == 0)
            a, b = a[ok], b[ok]
            joined = {k: v[a] for k, v in rows.items()}
            joined[who] = b
            if last:
                yield len(a), {k: v for k, v in joined.items() if k is not None}
            else:
                pieces.append((joined, lo[a] | clo[b], hi[a] | chi[b]))
        if last:
            return
        rows = {k: np.concatenate([p[0][k] for p in pieces]) for k in pieces[0][0]}
        lo = np.concatenate([p[1] for p in pieces])
        hi = np.concatenate([p[2] for p in pieces])
    yield len(lo), {k: v for k, v in rows.items() if k is not None}


# ---------------------------------------------------------------- sampled


def _shuffle(rows: Ints, first: int, rng: np.random.Generator) -> Ints:
    """Each row's ``first`` places drawn at random from the row, without replacement, in
    place: the first steps of a Fisher-Yates shuffle, every row at once."""
    every = np.arange(len(rows))
    width = rows.shape[1]
    for place in range(first):
        other = rng.integers(place, width, size=len(rows))
        held = rows[:, place].copy()
        rows[:, place] = rows[every, other]
        rows[every, other] = held
    return rows


def _draw(showing: Showing, rng: np.random.Generator, n: int) -> list[Ints]:
    """``n`` random deals: each contender's missing cards, a row per deal (deck indices)."""
    pool = np.array([card.index for card in showing.unseen], dtype=np.int64)
    wanted = sum(c.hidden for c in showing.contenders)
    out = showing.majors_out
    if out:  # H26: the cards slid face down are unseen majors, out of play
        is_major = np.array([card.is_major for card in showing.unseen])
        majors = _shuffle(np.tile(pool[is_major], (n, 1)), out, rng)[:, out:]
        rows = np.concatenate([majors, np.tile(pool[~is_major], (n, 1))], axis=1)
    else:
        rows = np.tile(pool, (n, 1))
    dealt = _shuffle(rows, wanted, rng)
    result = []
    start = 0
    for c in showing.contenders:
        result.append(dealt[:, start:start + c.hidden])
        start += c.hidden
    return result


def _sampled(showing: Showing, error: float, seed: int, most: int
             ) -> tuple[list[Any], list[Any], int]:
    """Deals drawn until every figure's 95% half-width is within ``error``: the mean share
    and the half-width of every figure, per group, and how many deals were drawn."""
    rng = np.random.default_rng(seed)
    groups = _groups(showing)
    sums = [np.zeros(len(g)) for g in groups]
    squares = [np.zeros(len(g)) for g in groups]
    n = 0
    while True:
        batch = min(BATCH, most - n)
        keys = keys_of(showing, _draw(showing, rng, batch))
        for total, square, cols in zip(sums, squares, groups, strict=True):
            share = _shares(keys, cols) / _LCM
            total += share.sum(axis=0)
            square += (share * share).sum(axis=0)
        n += batch
        means = [total / n for total in sums]
        widths = [Z95 * np.sqrt(np.maximum(sq / n - m * m, 0.0) * n / (n - 1) / n)
                  for sq, m in zip(squares, means, strict=True)]
        if n >= most or (n >= MIN_DEALS and max(3 / n, *(float(w.max()) for w in widths))
                                           <= error):
            return means, widths, n


# ---------------------------------------------------------------- the figures


def equity(showing: Showing, *, error: float = ERROR, seed: int = 0,
           exact_deals: int = EXACT_DEALS, most: int = MAX_DEALS) -> Equity:
    """Each contender's chance to win the hand and each pot, from what is showing (H26-H30).

    Args:
        showing: the table as it shows.
        error: the 95% half-width asked of sampled figures (a probability, 0.005 = 0.5
            points).
        seed: the seed of the sample, so that the same table gives the same figures.
        exact_deals: count every deal when there are at most this many (H29).
        most: draw at most this many deals (the error reached is then reported).

    Raises:
        BadInput: a table no deal can come from (:func:`check`).
    """
    check(showing)
    names = [c.name for c in showing.contenders]
    groups = _groups(showing)
    count = deal_count(showing)
    if count <= exact_deals:
        totals, deals = _exact(showing)
        assert deals == count, (deals, count)
        fracs = [{names[c]: Fraction(int(t), _LCM * deals) for c, t in zip(cols, total,
                                                                            strict=True)}
                 for cols, total in zip(groups, totals, strict=True)]
        chances = [{k: float(v) for k, v in f.items()} for f in fracs]
        pots = tuple(PotEquity(pot, chances[i + 1], fracs[i + 1])
                     for i, pot in enumerate(showing.pots))
        return Equity(True, deals, 0.0, chances[0], pots, fracs[0], target=error,
                      unseen=len(showing.unseen))
    if not 0 < error < 1:
        raise BadInput(f"an error of {error} is no probability; ask for one between 0 and 1")
    means, widths, n = _sampled(showing, error, seed, most)
    figures = [{names[c]: float(m) for c, m in zip(cols, mean, strict=True)}
               for cols, mean in zip(groups, means, strict=True)]
    # a figure seen never to vary is still only known to within 3/n (the rule of three)
    reached = max(3 / n, *(float(w.max()) for w in widths))
    pots = tuple(PotEquity(pot, figures[i + 1]) for i, pot in enumerate(showing.pots))
    return Equity(False, n, reached, figures[0], pots, None, target=error,
                  unseen=len(showing.unseen))


def unseen_cards(seen: Sequence[Card]) -> tuple[Card, ...]:
    """The deck less the cards seen, in deck order (H26)."""
    out = {card.index for card in seen}
    return tuple(card for card in DECK if card.index not in out)
