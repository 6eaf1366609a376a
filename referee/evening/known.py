"""What the console knows of each player's cards in the hand (R8, R44, E56, E77): one view,
built once per question from the folded hand, that every rule reads — whose turn it is not,
but what is whose: the up cards, the cards a power turned face down (hooded), the face-down
cards a power named as one player's (held fast, or a magic power's cards), the dead ones,
what a card counts as, and the cards that are out of the hand (given to the Fool for a power,
discarded by one).

Below the betting machine and the powers: it reads the hand's plain data and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from referee.evening.state import HandState
from referee.said import Said, Suggest, said


@dataclass(frozen=True)
class Holding:
    """One player's cards as the console knows them (R44)."""

    up: tuple[str, ...] = ()                 # face up, as dealt or turned (R9, S21)
    hooded: tuple[str, ...] = ()             # turned face down by a power (E77)
    named: tuple[str, ...] = ()              # face down, named as theirs by a power (E56)
    dead: tuple[str, ...] = ()               # up cards that count for nothing (S21)
    counts_as: dict[str, str] = field(default_factory=dict)  # magic (S22)
    held: frozenset[str] = frozenset()       # held fast (S23)

    @property
    def down(self) -> tuple[str, ...]:
        """The face-down cards known to be theirs: hooded or named by a power (R44)."""
        return tuple(dict.fromkeys((*self.hooded, *self.named)))

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card known to be theirs, up cards first (R44)."""
        return (*self.up, *self.down)


@dataclass(frozen=True)
class Known:
    """Every player's known cards, who holds each, and the cards out of the hand (R8, R44)."""

    players: dict[str, Holding]
    #: card -> (owner, how it is known: "up", "hooded", or the power that named it)
    owners: dict[str, tuple[str, str]]
    #: card -> why it is in no hand: given to the Fool for a power (R26), discarded (S21)
    out: dict[str, tuple[str, str]]

    def of(self, name: str) -> Holding:
        return self.players.get(name, Holding())

    def described(self, name: str) -> str:
        """``KC 10C 2C up, KW hooded``: a player's known cards, said by how they are known."""
        mine = self.of(name)
        parts = [f"{' '.join(mine.up)} up"] if mine.up else []
        if mine.hooded:
            parts.append(f"{' '.join(mine.hooded)} hooded")
        named = [c for c in mine.named if c not in mine.hooded]
        if named:
            powers = dict.fromkeys(self.owners[c][1] for c in named)
            parts.append(f"{' '.join(named)} named by {', '.join(powers)}")
        return ", ".join(parts) or "none"


#: Why a card is out of the hand, by the record it was put out by.
GIVEN, DISCARDED = "given", "discarded"


class _Named(NamedTuple):
    """What the powers in force say of each player's cards (S21, S22, S23, E56)."""

    dead: dict[str, list[str]]
    counts: dict[str, dict[str, str]]
    held: dict[str, set[str]]
    named: dict[str, list[tuple[str, str]]]  # card, and the power that named it


def _by_powers(hand: HandState) -> _Named:
    """The dead cards, what magic cards count as, the cards held fast and every card a power
    named as a player's, by player, read from the effects in force."""
    out = _Named({}, {}, {}, {})
    for f in hand.effects:
        kind, target = f["kind"], f["target"]
        if target is None:
            continue
        if kind == "dead":
            out.dead.setdefault(target, []).append(f["card"])
        elif kind in ("protect", "counts_as"):
            if kind == "protect":
                out.held.setdefault(target, set()).add(f["card"])
            else:
                out.counts.setdefault(target, {})[f["card"]] = f["counts"]
            for card in (f["card"], *f.get("needs", [])):
                out.named.setdefault(target, []).append((str(card), str(f["power"])))
    return out


def known(hand: HandState) -> Known:
    """The known cards of every player of ``hand`` (R44), read once from the fold."""
    dead, counts, held, named = _by_powers(hand)
    out = {card: (who, GIVEN) for who, cards in hand.forfeited.items() for card in cards}
    out.update({card: (who, DISCARDED) for who, cards in hand.out.items() for card in cards})
    owners: dict[str, tuple[str, str]] = {}
    players: dict[str, Holding] = {}
    # A card showing is its shower's, whatever a power named before it moved (Exchange of Vows).
    showing = {c for cards in hand.showing.values() for c in cards}
    for name in hand.order:
        up = tuple(hand.showing.get(name, []))
        # A card out of the hand (slid to the Fool, discarded) is known as no one's (R26, S21).
        hooded = tuple(c for c in hand.hooded.get(name, []) if c not in up and c not in out)
        for card in up:
            owners.setdefault(card, (name, "up"))
        for card in hooded:
            owners.setdefault(card, (name, "hooded"))
        mine: list[str] = []
        for card, power in named.get(name, []):
            if card not in showing and card not in mine and card not in out:
                mine.append(card)
                owners.setdefault(card, (name, power))
        players[name] = Holding(up=up, hooded=hooded, named=tuple(mine),
                                dead=tuple(dead.get(name, [])), counts_as=counts.get(name, {}),
                                held=frozenset(held.get(name, set())))
    return Known(players=players, owners=owners, out=out)


def still_to_give(hand: HandState, seen: Known | None = None) -> dict[str, int]:
    """R44: how many cards the showdown still asks of each live player: the seven dealt, less
    those given to the Fool for powers (R26), less the ones the console knows (the Fool's are
    all up: the ones still to show)."""
    seen = seen or known(hand)
    return {name: max(0, 7 - len(hand.forfeited.get(name, [])) - len(seen.of(name).cards))
            for name in hand.live}


def showdown_line(hand: HandState) -> Said:
    """What the showdown still asks for (R44): the cards nobody has seen, counted for each
    live player (the console adds the ones it knows), and the move that records it (E240)."""
    asked = [(name, n) for name, n in still_to_give(hand).items() if n > 0]
    if not asked:
        return said("every card still in is known: record the showdown with ",
                    Suggest(("hand", "showdown")))
    fool = hand.order[-1]  # the Fool sits last (E2); his cards are all up (R9)
    counts = ", ".join(f"{name} {n}" + (" still to come, all up" if name == fool else "")
                       for name, n in asked)
    first = asked[0][0]
    return said(f"record the showdown with the cards nobody has seen ({counts}; the console "
                "adds the ones it knows, R44): ",
                Suggest(("hand", "showdown"), (f"{first}: CARDS", "...")))


def face_down(hand: HandState, owner: str, dealt: int) -> int:
    """Face-down cards ``owner`` holds now, of the ``dealt`` dealt face down (two, three after
    the last card, R9): less those slid to the Fool (R26), with those a power turned down and
    less those it turned up (S21)."""
    return dealt - len(hand.forfeited.get(owner, [])) + hand.shift.get(owner, 0)
