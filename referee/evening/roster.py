"""The roster of the Major Arcana: who holds which Arcanum (R40, R41), and how the ceremony's
events fold into the evening.

A first evening's roster is its table: the Fool holds 0 and each stakeholder their Arcanum. An
evening carried on from the last one (``referee.evening.carry``) starts from the roster that
the last ceremony closed with, kept in ``state.season["roster"]``, members who sit out tonight
included. The ceremony (``state.ceremony``) works on its own copy, less the dead (E19); its
close records the roster as the evening's last event.

Pure: ``referee.evening.folds`` calls the ``fold_*`` functions; nothing here imports it.
"""

from __future__ import annotations

from referee.errors import InvariantViolation
from referee.evening.events import (
    CeremonyClosed,
    ClaimDecided,
    EveningContinued,
    EveningEnded,
    Guess,
    PreviousEvening,
    Unheard,
)
from referee.evening.state import Ceremony, Decision, State
from referee.rules.cards import parse_arcanum, to_roman

#: The evening's events that may follow its end (E101).
CEREMONY = ("claim_decided", "ceremony_closed")
#: The events that begin an evening afresh in the file (`new --force` over a closed one).
NEW = ("evening_created", "evening_continued")


def numerals(roster: dict[int, str]) -> dict[str, str]:
    """``{16: "Ada"}`` -> ``{"XVI": "Ada"}``, Arcana in order (as stored)."""
    return {to_roman(a): name for a, name in sorted(roster.items())}


def numbers(roster: dict[str, str]) -> dict[int, str]:
    """``{"XVI": "Ada"}`` -> ``{16: "Ada"}``."""
    return {parse_arcanum(a): name for a, name in roster.items()}


def at_start(state: State) -> dict[int, str]:
    """The roster as the evening began: the last ceremony's (R41), or, for a first evening,
    the table itself: the Fool in 0 and every stakeholder in their Arcanum."""
    carried = state.season.get("roster")
    if carried is not None:
        return numbers(carried)
    out = {0: state.fool}
    for seat in state.seats:
        out[seat.arcanum] = seat.name
    return out


def standing(state: State) -> dict[int, str]:
    """The roster as it stands now: as the evening began, less the dead (a smashed soul's
    owner no longer holds their Arcanum, E19); during the ceremony, as its decisions left it."""
    if state.ceremony is not None:
        return numbers(state.ceremony["roster"])
    dead = dead_tonight(state)
    return {a: name for a, name in at_start(state).items() if name not in dead}


def dead_tonight(state: State) -> set[str]:
    """The stakeholders killed this evening by their smashed soul (R22)."""
    return {s.name for s in state.seats if s.dead}


def dead(state: State) -> set[str]:
    """Everyone dead in the season so far, this evening included (R22, R42)."""
    return set(state.season.get("dead", [])) | dead_tonight(state)


def member_arcanum(state: State, name: str) -> int | None:
    """The Arcanum ``name`` holds on the roster as it stands, if any."""
    for arcanum, member in standing(state).items():
        if member == name:
            return arcanum
    return None


def unseated(state: State) -> list[tuple[str, int]]:
    """Members on the roster this evening began with who hold no seat tonight (E102): the
    absent, the holder of 0 when another is the Fool, tonight's Fool's own Arcanum. They
    keep their Arcanum, and defend it with a sitting member's points (``points.sources``)."""
    if not state.season:
        return []
    seated = {s.name for s in state.seats}
    return [(name, arcanum) for arcanum, name in sorted(at_start(state).items())
            if name not in seated and not (arcanum == 0 and name == state.fool)]


def own_arcanum(state: State, name: str) -> int | None:
    """Where an own soul's owner loses 3 points while another holds it (R27, R41): a
    stakeholder's seat, or an unseated member's Arcanum; None for anyone who holds none."""
    for seat in state.seats:
        if seat.name == name:
            return seat.arcanum
    for member, arcanum in unseated(state):
        if member == name:
            return arcanum
    return None


def is_ended(state: State) -> bool:
    """Whether the evening has ended: by R18, or because the Fool declared it (R40)."""
    return state.over or state.ceremony is not None


def is_closed(state: State) -> bool:
    """Whether the ceremony is closed and the roster recorded (R40)."""
    return state.ceremony is not None and bool(state.ceremony["closed"])


# -- the fold ---------------------------------------------------------------------------------


def _begin(state: State, *, declared: bool, time: float | None) -> Ceremony:
    roster = numerals(standing(state))
    return Ceremony(declared=declared, ended_at=time, start=dict(roster), roster=roster,
                    decisions=[], taken=[], winners=[], closed=False, closed_at=None,
                    unheard=[])


def fold_ended(state: State, e: EveningEnded) -> State:
    """``evening_ended``: the Fool declares the end (R40, E100)."""
    state.ceremony = _begin(state, declared=True, time=e["time"])
    return state


def fold_claim(state: State, e: ClaimDecided) -> State:
    """``claim_decided``: one claim heard against the roster as it stands (R40)."""
    if state.ceremony is None:  # an evening over by R18: its ceremony begins with this claim
        state.ceremony = _begin(state, declared=False, time=None)
    ceremony = state.ceremony
    decision: Decision[int] = Decision(person=e["person"], arcanum=e["arcanum"],
                                       how=e["how"], points=e["points"], occupant=e["occupant"],
                                       occupant_points=e["occupant_points"])
    if "left" in e:
        decision["left"] = e["left"]
    ceremony["decisions"].append(decision)
    if e["how"] == "decline":
        return state
    roster = numbers(ceremony["roster"])
    if roster.get(e["arcanum"]) != e["occupant"]:
        raise InvariantViolation(f"R40: {to_roman(e['arcanum'])} is held by "
                                 f"{roster.get(e['arcanum'])}, not {e['occupant']}")
    if e["how"] == "switch":
        if roster.get(e["left"]) != e["person"]:
            raise InvariantViolation(f"R40: {e['person']} does not hold {to_roman(e['left'])}")
        del roster[e["left"]]  # a member who switches leaves their old Arcanum vacant
    roster[e["arcanum"]] = e["person"]  # the occupant, if any, leaves the Major Arcana
    ceremony["roster"] = numerals(roster)
    ceremony["taken"].append(e["arcanum"])
    ceremony["winners"].append(e["person"])
    return state


def fold_closed(state: State, e: CeremonyClosed) -> State:
    """``ceremony_closed``: the roster is recorded, the evening's last event (R40)."""
    if state.ceremony is None:
        state.ceremony = _begin(state, declared=False, time=None)
    ceremony = state.ceremony
    if numbers(e["roster"]) != numbers(ceremony["roster"]):
        raise InvariantViolation(f"R40: the roster closed, {e['roster']}, is not the one the "
                                 f"ceremony left, {ceremony['roster']}")
    ceremony["closed"] = True
    ceremony["closed_at"] = e["time"]
    ceremony["left"] = list(e["left"])
    ceremony["unheard"] = [Unheard(**c) for c in e["unheard"]]
    return state


def fold_continued(state: State, e: EveningContinued) -> State:
    """``evening_continued``, after the fold of the table it sets (``evening_created``'s): what
    the last evening handed on (R41, R42) and the link to it (R43)."""
    state.season = {
        "evening": e["evening"],
        "previous": PreviousEvening(**e["previous"]),
        "roster": dict(e["roster"]),
        "absent": list(e["absent"]),
        "dead": list(e["dead"]),
        "sheets": {a: dict(s) for a, s in e["sheets"].items()},
        "seen": list(e["seen"]),
    }
    state.studies = {a: dict(s) for a, s in e["studies"].items()}
    state.guesses = [Guess(**g) for g in e["guesses"]]
    return state
