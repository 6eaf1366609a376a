"""GM requests against the evening: validate against the State, return the events to store.

Every function here is pure: it takes the current state (never modifying it) and
the GM's words, and returns the events of one command, or raises a RefereeError
saying what is wrong and what is allowed now. The events are replayed on a copy
of the state before they are returned, so what is returned always folds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.errors import BadInput, IllegalAction, LawViolation
from referee.evening.events import ChipsGiven, EveningCreated, EveningEvent, SoulRecord
from referee.evening.folds import replay
from referee.evening.lookup import (
    SeatSpec,
    at_table,
    parse_chips,
    parse_seat,
    pending_buyout,
    person,
    stakeholder,
)
from referee.evening.state import POT, State, require_evening
from referee.names import check_name, plural
from referee.rules.cards import to_roman
from referee.rules.pots import check_named_chips
from referee.said import Suggest, said

STATUS = Suggest(("status",))  #: the move that shows the evening

if TYPE_CHECKING:
    from collections.abc import Mapping

    from referee.evening.events import ScenarioContent
    from referee.jsontypes import JSON, JSONObject

__all__ = ["SeatSpec", "at_table", "parse_chips", "parse_seat", "person", "stakeholder"]

DEFAULT_SETTINGS: JSONObject = {
    "r11_own_colour_first": True,  # R11 (option): own colour goes first when paying
}


# -- setup --------------------------------------------------------------------------------------


def check_seat_count(n: int) -> None:
    """Two to six stakeholders (the seed: six stakeholders and the Fool at most)."""
    if n > 6:
        raise BadInput(f"{n} seats given; a Fool's Errand table seats six stakeholders at most "
                       "(and the Fool): one --seat NAME:ARCANUM:COLOUR per stakeholder")
    if n < 2:
        raise BadInput(f"{n} seat given; a Fool's Errand table needs two to six stakeholders "
                       "(--seat NAME:ARCANUM:COLOUR, one per stakeholder)")


def new_evening(state: State, fool: str, seats: list[SeatSpec], *, now: float, force: bool,
                scenario: ScenarioContent | None = None, souls: list[SoulRecord] | None = None,
                settings: Mapping[str, JSON] | None = None) -> list[EveningCreated]:
    """The opening ceremony: seats in Arcanum order from the Fool's left, ten chips each (R10)."""
    if state.started and not force:
        raise IllegalAction(said("this file already holds an evening (", STATUS, " shows it); "
                                 "use --force to replace it (the old one is backed up first), or "
                                 "--db for another file"))
    check_seat_count(len(seats))
    fool = check_name(fool, "Fool's name")  # E42
    names = [fool] + [s.name for s in seats] + [s.assistant for s in seats if s.assistant]
    seen: dict[str, str] = {}
    for name in names:
        key = name.lower()
        if key in seen:
            raise BadInput(f"the name {name!r} is used twice; every person needs their own name")
        if key == POT:
            raise BadInput("'pot' is reserved for the pot; choose another name")
        seen[key] = name
    for label, values in (("Arcanum", [to_roman(s.arcanum) for s in seats]),
                          ("colour", [s.colour for s in seats])):
        dup = {v for v in values if values.count(v) > 1}
        if dup:
            raise BadInput(f"two stakeholders share the {label} {sorted(dup)[0]}; each needs "
                           f"their own")
    if any(s.arcanum == 0 for s in seats):
        raise BadInput("Arcanum 0 is the Fool's, the host's; give the stakeholder another")
    # "The others are seated about the table in descending order to the left of the Fool":
    # the highest-ranking Arcanum (lowest number) first, on the Fool's left (E1).
    ordered = sorted(seats, key=lambda s: s.arcanum)
    event: EveningCreated = {
        "kind": "evening_created",
        "fool": fool,
        "time": now,
        "seats": [
            {"name": s.name, "arcanum": s.arcanum, "colour": s.colour, "assistant": s.assistant,
             "assistant_arcanum": s.assistant_arcanum}
            for s in ordered
        ],
        "settings": {**DEFAULT_SETTINGS, **(settings or {})},
        "scenario": scenario or {},
        "souls": souls or [],
    }
    replay(State(), [event])
    return [event]


# -- away from the table ------------------------------------------------------------------------


def give_chips(state: State, source: str, target: str, chips_text: str) -> list[EveningEvent]:
    """Chips between two parties away from the table (R16)."""
    require_evening(state)
    src, dst = person(state, source), person(state, target)
    if src == dst:
        raise BadInput(f"{src} cannot give chips to themselves")
    for who in (src, dst):
        if at_table(state, who):
            where = "hosts the table" if who == state.fool else "is seated at the table"
            away = said() if who == state.fool else said("; ", Suggest(("rise",), (who,)),
                                                         " first")
            raise LawViolation(said(f"{who} {where}: at the table chips are never given or "
                                    "traded; both parties must be away from the table (the "
                                    "Law, R16)", away), ruling="R16")
    chips = parse_chips(state, chips_text)
    check_named_chips(state.holding(src), chips, src)
    event: ChipsGiven = {"kind": "chips_given", "from": src, "to": dst, "chips": chips}
    replay(state, [event])
    return [event]


def settle_chips(state: State, source: str, target: str, chips_text: str,
                 why: str) -> list[EveningEvent]:
    """The referee's own ruling on chips: overriding a split (R11), settling a dead player's
    chips (R22). Between hands only, with the reason recorded."""
    require_evening(state)
    if state.hand is not None:
        raise IllegalAction(f"hand {state.hand.no} is in progress; settle chips between hands "
                            "(the pot must be awarded first)")
    if not why.strip():
        raise BadInput("say why: --why TEXT is recorded with the ruling")
    src, dst = person(state, source), person(state, target)
    if src == dst:
        raise BadInput(f"{src} cannot settle chips with themselves")
    chips = parse_chips(state, chips_text)
    check_named_chips(state.holding(src), chips, src)
    event: ChipsGiven = {"kind": "chips_given", "from": src, "to": dst, "chips": chips,
                    "ruling": why.strip()}
    replay(state, [event])
    return [event]


def rise(state: State, who: str) -> list[EveningEvent]:
    """A stakeholder rises: keeps their chips, is dealt out, still a stakeholder (R17)."""
    require_evening(state)
    name = stakeholder(state, who)
    seat = state.seat(name)
    if seat.resigned or seat.dead:
        raise IllegalAction(f"{name} is out of the game")
    if not seat.seated:
        raise IllegalAction(said(f"{name} has already risen from the table; ",
                                 Suggest(("sit",), (name,)), " seats them again"))
    if state.hand is not None and name in state.hand.live:
        from referee.evening.betting import act_hint

        raise IllegalAction(said(f"{name} is in hand {state.hand.no}; fold or finish the hand "
                                 "before rising (R17); ", act_hint(state, state.hand)),
                            ruling="R17")
    return [{"kind": "seat_changed", "name": name, "seated": False}]


def sit(state: State, who: str) -> list[EveningEvent]:
    """A risen stakeholder sits again and is dealt into the next hand (R17)."""
    require_evening(state)
    name = stakeholder(state, who)
    seat = state.seat(name)
    if seat.dead:  # R22, E19: a smashed soul's owner died; resigning is another thing
        raise IllegalAction(f"{name} is dead (their soul was smashed): the dead never sit "
                            "again (R22, E19)", ruling="R22")
    if seat.resigned:
        raise IllegalAction(f"{name} is out of the game; resigned players never rejoin (R17)",
                            ruling="R17")
    if seat.seated:
        raise IllegalAction(said(f"{name} is already seated; ", STATUS, " shows the table"))
    from referee.evening.powers.constraints import exiled

    why = exiled(state, name)
    if why:
        raise IllegalAction(f"{name} was exiled by {why} and sits out the next hand; they may "
                            "sit again once it is over (S27)", ruling="S27")
    return [{"kind": "seat_changed", "name": name, "seated": True}]


def resign(state: State, who: str) -> list[EveningEvent]:
    """A stakeholder whose side holds no chips leaves the game for good (R17)."""
    require_evening(state)
    name = stakeholder(state, who)
    seat = state.seat(name)
    if seat.resigned or seat.dead:
        raise IllegalAction(f"{name} is already out of the game")
    if state.side_chips(name):
        raise IllegalAction(f"{name}'s side still holds "
                            f"{plural(state.side_chips(name), 'chip')}; only a side with no "
                            "chips may resign", ruling="R17")
    if state.hand is not None and name in state.hand.live:
        raise IllegalAction(f"{name} is still in hand {state.hand.no} (all-in); resign after "
                            "the hand", ruling="R17")
    holder = pending_buyout(state, name)  # E18: buy or decline first
    if holder:
        raise IllegalAction(said(f"{holder} holds all ten of {name}'s chips: {holder} must be "
                                 f"offered {name}'s soul first (",
                                 Suggest(("soul", "buyout"), (holder, name)), ", or ",
                                 Suggest(("soul", "decline"), (holder, name)), ")"),
                            ruling="R17")
    return [{"kind": "seat_changed", "name": name, "resigned": True}]


def open_phase(state: State, *, now: float) -> list[EveningEvent]:
    """The Fool declares the open phase: antes, bets and raises at will (R13)."""
    require_evening(state)
    if state.phase == "open" or state.open_pending:
        raise IllegalAction(said("the open phase is already declared; ", STATUS, " shows the "
                                 "phase"), ruling="R13")
    return [{"kind": "phase_opened", "time": now}]
