"""Arcana status points and promotion claims (R27, R28), derived from the evening.

Every point carries where it came from, so the GM can answer "why do I have 8?".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from referee.evening import roster
from referee.evening.state import State
from referee.rules.cards import to_roman

SEATED_START = 5   # R27
ASSISTANT_START = 1
OWN_SOUL_LOST = -3
SOUL_HELD = 2
CONSUMED = 1
DUET_POINTS = {"two_pair_duet": 1, "three_pair": 3}
DUET_WORDS = {"two_pair_duet": "two pair with a Duet", "three_pair": "three pair"}


@dataclass(frozen=True)
class Point:
    """Points of one person in one Arcanum, with their source."""

    person: str
    arcanum: int
    points: int
    source: str


class Claim(TypedDict):
    """A promotion claim that would succeed now (R28)."""

    person: str
    arcanum: str                     # its numeral
    points: int                      # the claimant's points in it
    occupant: str | None             # who holds it; None: vacant
    occupant_points: int | None


class Detail(TypedDict):
    """One contribution to a person's status (R27), as ``points --detail`` lists it."""

    person: str
    arcanum: str                     # its numeral, or "?" for a secret one (E43)
    points: int
    source: str


#: The Arcanum shown for points that would give a soul's secret Arcanum away (E43).
SECRET = "?"
HIDDEN = -1  # ``Point.arcanum`` of such points when they are masked


def arcanum_found(state: State, key: str) -> bool:
    """Whether anyone has guessed this soul's Arcanum right (an own soul's is public)."""
    soul = state.soul(key)
    return soul.kind == "own" or any(g["soul"] == key and g["result"]["arcanum"] == "correct"
                                     for g in state.guesses)


def secret_souls(state: State) -> set[str]:
    """The souls whose Arcanum nobody has found yet: their held points would tell (E43)."""
    return {s.key for s in state.souls if not arcanum_found(state, s.key)}


def shown_sources(state: State, *, reveal: bool = False) -> list[Point]:
    """``sources`` as anyone may see them (E43): without ``reveal`` the 2 points for holding a
    soul whose Arcanum nobody has found stand under ``HIDDEN``, not under that Arcanum."""
    points = sources(state)
    if reveal:
        return points
    secret = {f"holds {key}" for key in secret_souls(state)}
    return [Point(p.person, HIDDEN, p.points, p.source) if p.source in secret else p
            for p in points]


def numeral(arcanum: int) -> str:
    """An Arcanum's numeral, or ``?`` for a masked one (E43)."""
    return SECRET if arcanum == HIDDEN else to_roman(arcanum)


def sources(state: State) -> list[Point]:
    """Every contribution to every person's status, in the order of R27."""
    out: list[Point] = [Point(state.fool, 0, SEATED_START, "start: the Fool's seat")]
    for seat in state.seats:
        out.append(Point(seat.name, seat.arcanum, SEATED_START, "start: sitting member"))
        if seat.assistant and seat.assistant_arcanum is not None:
            out.append(Point(seat.assistant, seat.assistant_arcanum, ASSISTANT_START,
                             "start: assistant's attuned Arcanum"))
    for member, arcanum in roster.unseated(state):  # E102: a member sitting out tonight
        out.append(Point(member, arcanum, SEATED_START, "start: member, not seated tonight"))
    out += _duet_points(state)
    out += _soul_points(state)
    for c in state.consumed_points:
        out.append(Point(c["person"], c["arcanum"], CONSUMED, f"consumed {c['soul']}"))
    return out


def _duet_points(state: State) -> list[Point]:
    """The points of each hand's Duet-bearing categories (R27): both Arcana to the Fool; one
    kept by a player, the other to their assistant (E20)."""
    out: list[Point] = []
    for record in state.history:
        for name, best in record["best"].items():
            gain, duet = DUET_POINTS.get(best["category"]), best.get("duet")
            if not gain or not duet:
                continue
            low, high = sorted(duet)
            label = f"hand {record['no']}: {DUET_WORDS[best['category']]}"
            if name == state.fool:
                out += [Point(name, low, gain, label), Point(name, high, gain, label)]
                continue
            seat = state.seat(name)
            # The player keeps one Arcanum, the assistant gets the other: by default the player
            # keeps the lower-numbered, or the one named at the showdown (`--keep`, R27, E20).
            kept = record.get("keep", {}).get(name, low)
            other = high if kept == low else low
            out.append(Point(name, kept, gain, label))
            out.append(Point(seat.assistant or name, other, gain,
                             label + (" (to the assistant)" if seat.assistant else "")))
    return out


def _soul_points(state: State) -> list[Point]:
    """The points of souls held, and of own souls lost (R27, E21, E23, E106)."""
    out: list[Point] = []
    for soul in state.souls:
        # E23: an assistant holds the side's own soul for the player ("The Assistant may hold
        # ... souls ... for the Player"): neither a loss for the owner nor a gain for them.
        at_home = soul.kind == "own" and soul.owner is not None and soul.holder is not None \
            and soul.owner in (soul.holder, state.side_of(soul.holder))  # Fool tonight (R41)
        if soul.holder and not at_home:
            out.append(Point(soul.holder, soul.arcanum, SOUL_HELD, f"holds {soul.key}"))  # E21
        # Only a member loses points in their own Arcanum; an own soul carried into an
        # evening where its owner holds none costs nothing (R41, E106).
        lost_in = roster.own_arcanum(state, soul.owner) if soul.kind == "own" and soul.owner \
            else None
        if soul.owner and lost_in is not None and not at_home:
            why = f"own soul {soul.destroyed}" if soul.destroyed else f"own soul held by " \
                f"{soul.holder}"
            out.append(Point(soul.owner, lost_in, OWN_SOUL_LOST, why))
    return out


def totals(state: State) -> dict[str, dict[int, int]]:
    """Points per person per Arcanum (every person listed, even with none)."""
    out: dict[str, dict[int, int]] = {p: {} for p in state.people}
    for p in sources(state):
        bucket = out.setdefault(p.person, {})
        bucket[p.arcanum] = bucket.get(p.arcanum, 0) + p.points
    return out


def points_json(state: State, *, reveal: bool = True) -> dict[str, dict[str, int]]:
    """``{person: {arcanum numeral: points}}``, Arcana in order; without ``reveal`` the
    points of a secret Arcanum under ``"?"``, last (E43)."""
    out: dict[str, dict[int, int]] = {p: {} for p in state.people}
    for p in shown_sources(state, reveal=reveal):
        bucket = out.setdefault(p.person, {})
        bucket[p.arcanum] = bucket.get(p.arcanum, 0) + p.points
    return {person: {numeral(a): n for a, n in sorted(arcana.items(),
                                                      key=lambda kv: (kv[0] == HIDDEN, kv[0]))}
            for person, arcana in out.items()}


def occupants(state: State) -> dict[int, str]:
    """Who holds each Arcanum: the roster as it stands (R40), the living only (E19); in a
    first evening the Fool and the stakeholders."""
    return roster.standing(state)


VACANT_NEEDS = 7  # R28


def promotions(state: State, *, reveal: bool = True) -> list[Claim]:
    """Every claim that would succeed now (R28): vacant with 7+, occupied with more. Without
    ``reveal``, a claim that secret points take part in, the claimant's or the occupant's, is
    left out: its Arcanum would give the soul away (E43)."""
    claims = _claims(state)
    if reveal:
        return claims
    secret = {f"holds {key}" for key in secret_souls(state)}
    hidden = {(p.person, to_roman(p.arcanum)) for p in sources(state) if p.source in secret}
    return [c for c in claims if (c["person"], c["arcanum"]) not in hidden
            and (c["occupant"], c["arcanum"]) not in hidden]


def _claims(state: State) -> list[Claim]:
    points = totals(state)
    held = occupants(state)
    claims: list[Claim] = []
    dead = roster.dead(state)
    here = set(state.people)
    for person, arcana in points.items():
        if person in dead or person not in here:  # the dead claim nothing (R22); the
            continue  # absent are not at the ceremony (E105)
        for arcanum, n in sorted(arcana.items()):
            occupant = held.get(arcanum)
            if occupant == person:
                continue
            if occupant is None:
                ok, occ_points = n >= VACANT_NEEDS, None
            else:
                occ_points = points.get(occupant, {}).get(arcanum, 0)
                ok = n > occ_points
            if ok:
                claims.append({"person": person, "arcanum": to_roman(arcanum), "points": n,
                               "occupant": occupant, "occupant_points": occ_points})
    return claims


def points_detail(state: State, *, reveal: bool = True) -> list[Detail]:
    """Every point with its source; without ``reveal`` secret Arcana as ``"?"`` (E43)."""
    return [{"person": p.person, "arcanum": numeral(p.arcanum), "points": p.points,
             "source": p.source} for p in shown_sources(state, reveal=reveal)]
