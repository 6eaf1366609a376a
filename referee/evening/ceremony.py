"""The end of the evening and the promotion ceremony (R18, R28, R40): GM requests -> events.

Like ``commands``: pure functions of the State and the GM's words, returning the events of one
command or raising a RefereeError that says what is wrong and what is allowed now. The
roster they decide against, and how their events fold, are in ``referee.evening.roster``.
"""

from __future__ import annotations

from typing import TypedDict

from referee.errors import IllegalAction
from referee.evening import points as pts
from referee.evening import roster
from referee.evening.events import CeremonyClosed, ClaimDecided, EveningEnded, EveningEvent, Unheard
from referee.evening.folds import replay
from referee.evening.state import Decision, State, require_evening
from referee.names import match_name, plural
from referee.rules.cards import MAJOR_NAMES, parse_arcanum, to_roman
from referee.said import Suggest, said

CEREMONY = Suggest(("ceremony",))  #: the move that lists the claims (R40)

VACANT_NEEDS = pts.VACANT_NEEDS  # R28

#: A claim the ceremony would hear now (R40): a promotion claim (``points.Claim``), how it is
#: heard, the Arcanum a member would leave (``"from"``), and whether a soul's secret Arcanum
#: takes part in it (E43). ``"from"`` is a keyword, hence this form.
CeremonyClaim = TypedDict("CeremonyClaim", {
    "person": str, "arcanum": str, "points": int, "occupant": str | None,
    "occupant_points": int | None,
    "how": str,                      # promote or switch
    "from": str | None,              # switch: the numeral of the Arcanum the member holds
    "secret": bool,
})


def title(arcanum: int) -> str:
    """``XVI The Tower``."""
    return f"{to_roman(arcanum)} {MAJOR_NAMES[arcanum]}"


# -- the end ------------------------------------------------------------------------------------


def end(state: State, *, now: float) -> list[EveningEvent]:
    """The Fool declares the evening's end (R40, E100): between hands, once."""
    require_evening(state)
    if state.hand is not None:
        raise IllegalAction(f"hand {state.hand.no} is in progress; the evening ends between "
                            "hands: play it to its showdown first (E100)", ruling="E100")
    if state.ceremony is not None:
        raise IllegalAction(said("the evening has ended already; ", CEREMONY, " lists the "
                                 "claims (R40)"), ruling="R40")
    if state.over:
        raise IllegalAction(said(f"the evening is over already (R18): {state.winner or 'nobody'} "
                                 "and the Fool alone hold chips; the ceremony is next: ",
                                 CEREMONY, " (R40)"), ruling="R18")
    event: EveningEnded = {"kind": "evening_ended", "time": now}
    replay(state, [event])
    return [event]


def require_ended(state: State) -> None:
    """The ceremony comes once the evening has ended (R40)."""
    require_evening(state)
    if not roster.is_ended(state):
        raise IllegalAction(said("the evening has not ended: the ceremony comes when only the "
                                 "Fool and one stakeholder hold chips (R18), or when the Fool "
                                 "declares the end with ", Suggest(("end",)), " (R40)"),
                            ruling="R40")


def require_ceremony(state: State) -> None:
    """The ceremony is heard once the evening has ended, and until it is closed (R40)."""
    require_ended(state)
    if roster.is_closed(state):
        raise IllegalAction(said("the ceremony is closed and the roster recorded (R40); ",
                                 Suggest(("undo",)), " reopens it, ",
                                 Suggest(("next",), ("NEW.json",)), " starts the next evening"),
                            ruling="R40")


# -- the claims ---------------------------------------------------------------------------------


def _hidden(state: State) -> set[tuple[str, int]]:
    """(person, Arcanum) pairs a soul's secret Arcanum takes part in (E43)."""
    secret = {f"holds {key}" for key in pts.secret_souls(state)}
    return {(p.person, p.arcanum) for p in pts.sources(state) if p.source in secret}


def _heard(state: State) -> tuple[set[int], set[str], set[tuple[str, int]]]:
    """What the ceremony has settled so far: the Arcana won, the winners, the declines."""
    ceremony = state.ceremony
    if ceremony is None:
        return set(), set(), set()
    declined = {(d["person"], d["arcanum"]) for d in ceremony["decisions"]
                if d["how"] == "decline"}
    return set(ceremony["taken"]), set(ceremony["winners"]), declined


def claims(state: State) -> list[CeremonyClaim]:
    """Every claim that would succeed now, in the Fool's order by default, the Arcana 0, I,
    ... XXI (R40): each against the roster as it stands, on the points at the end (R28).

    Left out: an Arcanum already won in this ceremony and a person who already won a claim
    in it (E103), a claim declined (E104), the dead (R22) and those not here (E105).
    """
    points = pts.totals(state)
    standing = roster.standing(state)
    taken, winners, declined = _heard(state)
    hidden = _hidden(state)
    dead = roster.dead(state)
    people = [p for p in state.people if p not in dead]
    out: list[CeremonyClaim] = []
    for arcanum in range(22):
        if arcanum in taken:
            continue
        occupant = standing.get(arcanum)
        occupant_points = points.get(occupant, {}).get(arcanum, 0) if occupant else None
        for person in people:
            if person in (occupant, *winners) or (person, arcanum) in declined:
                continue
            n = points.get(person, {}).get(arcanum, 0)
            if not (n > occupant_points if occupant_points is not None else n >= VACANT_NEEDS):
                continue
            held = roster.member_arcanum(state, person)
            out.append({"person": person, "arcanum": to_roman(arcanum), "points": n,
                        "occupant": occupant, "occupant_points": occupant_points,
                        "how": "promote" if held is None else "switch",
                        "from": to_roman(held) if held is not None else None,
                        "secret": (person, arcanum) in hidden
                        or (occupant, arcanum) in hidden})
    return out


def _claimant(state: State, text: str) -> str:
    """A person at this evening who may claim: alive (R22) and here (E105)."""
    away = [name for name, _ in roster.unseated(state) if name != state.fool]
    if text.strip().lower() in {n.lower() for n in away} and text.strip().lower() not in {
            p.lower() for p in state.people}:
        name = next(n for n in away if n.lower() == text.strip().lower())
        raise IllegalAction(f"{name} is not at this evening: claims are heard from those "
                            "present (E105)", ruling="E105")
    name = match_name(text, state.people, "person")
    if name in roster.dead(state):
        raise IllegalAction(f"{name} is dead (their soul was smashed): the dead claim nothing "
                            "(R22)", ruling="R22")
    return name


def _decision(state: State, name: str, arcanum: int, how: str) -> ClaimDecided:
    points = pts.totals(state)
    occupant = roster.standing(state).get(arcanum)
    return {"kind": "claim_decided", "person": name, "arcanum": arcanum, "how": how,
            "points": points.get(name, {}).get(arcanum, 0), "occupant": occupant,
            "occupant_points": points.get(occupant, {}).get(arcanum, 0) if occupant else None}


def promote(state: State, who: str, arcanum: str) -> list[EveningEvent]:
    """R40: someone outside the Major Arcana claims ARCANUM and is given it."""
    return _claim(state, who, arcanum, "promote")


def switch(state: State, who: str, arcanum: str) -> list[EveningEvent]:
    """R40: a member claims another Arcanum and moves, leaving their old one vacant."""
    return _claim(state, who, arcanum, "switch")


def _claim(state: State, who: str, arcanum_text: str, how: str) -> list[EveningEvent]:
    require_ceremony(state)
    name = _claimant(state, who)
    arcanum = parse_arcanum(arcanum_text)
    held = roster.member_arcanum(state, name)
    if held == arcanum:
        raise IllegalAction(f"{name} holds {title(arcanum)} already", ruling="R40")
    if how == "promote" and held is not None:
        raise IllegalAction(said(f"{name} holds {title(held)}: a member moves with ",
                                 Suggest(("ceremony", "switch"), (name, to_roman(arcanum))),
                                 " (R40)"), ruling="R40")
    if how == "switch" and held is None:
        raise IllegalAction(said(f"{name} holds no Arcanum: ",
                                 Suggest(("ceremony", "promote"), (name, to_roman(arcanum))),
                                 " hears their claim (R40)"), ruling="R40")
    taken, winners, declined = _heard(state)
    decisions = state.ceremony["decisions"] if state.ceremony else []
    if arcanum in taken:
        by = next(d["person"] for d in decisions
                  if d["arcanum"] == arcanum and d["how"] != "decline")
        raise IllegalAction(f"{title(arcanum)} was taken by {by} in this ceremony: each Arcanum "
                            "changes hands once in a ceremony (E103)", ruling="E103")
    if name in winners:
        won = next(d["arcanum"] for d in decisions
                   if d["person"] == name and d["how"] != "decline")
        raise IllegalAction(f"{name} won {title(won)} in this ceremony already: a person wins one "
                            "claim in a ceremony (E103)", ruling="E103")
    if (name, arcanum) in declined:
        raise IllegalAction(said(f"{name} declined {title(arcanum)} in this ceremony; ",
                                 Suggest(("undo",)), " takes the decline back (E104)"),
                            ruling="E104")
    event = _decision(state, name, arcanum, how)
    n, occupant, against = event["points"], event["occupant"], event["occupant_points"]
    if occupant is None and n < VACANT_NEEDS:
        raise IllegalAction(f"{name} has {plural(n, 'point')} in {title(arcanum)}, which is "
                            f"vacant: a vacant Arcanum needs {VACANT_NEEDS} (R28)", ruling="R28")
    if occupant is not None and against is not None and n <= against:
        raise IllegalAction(f"{name} has {plural(n, 'point')} in {title(arcanum)} and "
                            f"{occupant}, who holds it, has {against}: a claim needs more than "
                            "the occupant's (R28)", ruling="R28")
    if how == "switch":
        assert held is not None
        event["left"] = held
    replay(state, [event])
    return [event]


def decline(state: State, who: str, arcanum_text: str | None = None) -> list[EveningEvent]:
    """R40: a claimant declines a claim that would succeed (E104)."""
    require_ceremony(state)
    name = _claimant(state, who)
    mine = [c for c in claims(state) if c["person"] == name]
    if arcanum_text is not None:
        arcanum = to_roman(parse_arcanum(arcanum_text))
        found = [c for c in mine if c["arcanum"] == arcanum]
        if not found:
            could = ", ".join(c["arcanum"] for c in mine) or "none"
            raise IllegalAction(f"{name} has no claim to {arcanum} that would succeed now, so "
                                f"nothing to decline (their claims: {could}) (R40)", ruling="R40")
        mine = found
    if not mine:
        raise IllegalAction(said(f"{name} has no claim that would succeed now, so nothing to "
                                 "decline; ", CEREMONY, " lists the claims (R40)"), ruling="R40")
    if len(mine) > 1:
        raise IllegalAction(said(f"{name} could claim {', '.join(c['arcanum'] for c in mine)}: "
                                 "say which they decline, ",
                                 Suggest(("ceremony", "decline"), (name, mine[0]["arcanum"])),
                                 " (E104)"), ruling="E104")
    event = _decision(state, name, parse_arcanum(mine[0]["arcanum"]), "decline")
    replay(state, [event])
    return [event]


def close(state: State, *, now: float) -> list[EveningEvent]:
    """R40: the roster as the ceremony leaves it, recorded as the evening's last event."""
    require_ceremony(state)
    standing = roster.standing(state)
    start = roster.numbers(state.ceremony["start"]) if state.ceremony else standing
    left = [name for name in start.values() if name not in standing.values()]
    unheard = [Unheard(person=c["person"], arcanum=c["arcanum"], points=c["points"])
               for c in claims(state)]
    event = CeremonyClosed(kind="ceremony_closed", time=now, roster=roster.numerals(standing),
                           left=left, unheard=unheard)
    replay(state, [event])
    return [event]


# -- what the report, the console and the wall show -------------------------------------------


#: A claim decided in the ceremony (R40) as it is shown: the state's record, its Arcana as
#: numerals.
DecisionShown = Decision[str]


class RosterEntry(TypedDict):
    """One Arcanum of the roster as it stands."""

    arcanum: str
    title: str
    member: str
    seated: bool
    absent: bool


class CeremonyView(TypedDict):
    """The ceremony as the report, the console and the wall show it (``summary``)."""

    stage: str                            # playing, ended, ceremony or closed
    ended_by: str | None                  # the Fool, or R18
    decisions: list[DecisionShown]
    roster: list[RosterEntry]
    left: list[str]                       # members who left the Major Arcana
    unheard: list[Unheard]
    claims: list[CeremonyClaim]


def summary(state: State, *, reveal: bool = True) -> CeremonyView:
    """The ceremony as data: where the evening stands, the decisions, the roster (R40).

    ``stage`` is ``playing``, ``ended`` (nothing decided yet), ``ceremony`` or ``closed``.
    Without ``reveal`` an open claim a soul's secret Arcanum takes part in is left out (E43).
    """
    ceremony = state.ceremony
    if not roster.is_ended(state):
        stage = "playing"
    elif ceremony is None or (not ceremony["decisions"] and not ceremony["closed"]):
        stage = "ended"
    else:
        stage = "closed" if ceremony["closed"] else "ceremony"
    standing = roster.standing(state)
    seated = {s.name for s in state.seats}
    unseated = {name for name, _ in roster.unseated(state)}
    out: CeremonyView = {
        "stage": stage,
        "ended_by": None if stage == "playing" else (
            "the Fool" if ceremony is not None and ceremony["declared"] else "R18"),
        "decisions": [_shown(d) for d in (ceremony["decisions"] if ceremony else [])],
        "roster": [{"arcanum": to_roman(a), "title": MAJOR_NAMES[a], "member": name,
                    "seated": name in seated or name == state.fool and a == 0,
                    "absent": name in unseated and name != state.fool}
                   for a, name in sorted(standing.items())],
        "left": list(ceremony.get("left", []) if ceremony else []) if stage == "closed" else [
            n for n in roster.numbers(ceremony["start"] if ceremony else {}).values()
            if n not in standing.values()],
        "unheard": list(ceremony["unheard"] if ceremony else []),
        "claims": [],
    }
    if stage in ("ended", "ceremony"):
        out["claims"] = [c for c in claims(state) if reveal or not c["secret"]]
    return out


def _shown(d: Decision[int]) -> DecisionShown:
    """``d`` with its Arcana as numerals, its keys in their order."""
    shown: DecisionShown = {"person": d["person"], "arcanum": to_roman(d["arcanum"]),
                            "how": d["how"], "points": d["points"], "occupant": d["occupant"],
                            "occupant_points": d["occupant_points"]}
    if "left" in d:
        shown["left"] = to_roman(d["left"])
    return shown
