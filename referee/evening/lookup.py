"""Who and what the GM names: people, stakeholders, colours, chips, souls' controllers.

Pure queries of the State, shared by every command module (R16, R17, R21).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import BadInput, IllegalAction
from referee.evening.state import CHIPS_PER_COLOUR, POT, Soul, State
from referee.names import check_name, match_name
from referee.rules.cards import parse_arcanum


@dataclass(frozen=True)
class SeatSpec:
    """One ``--seat NAME:ARCANUM:COLOUR[:ASSISTANT[:ARCANUM]]``."""

    name: str
    arcanum: int
    colour: str
    assistant: str | None = None
    assistant_arcanum: int | None = None


def parse_seat(text: str) -> SeatSpec:
    """``"Ada:XVI:red:Ben:IX"`` -> SeatSpec; a malformed one is one clear error."""
    parts = [p.strip() for p in text.split(":")]
    usage = "write NAME:ARCANUM:COLOUR[:ASSISTANT[:ARCANUM]], e.g. 'Ada:XVI:red:Ben:IX'"
    if len(parts) < 3 or len(parts) > 5 or not all(parts[:3]):
        raise BadInput(f"bad seat {text!r}; {usage}")
    arcanum = parse_arcanum(parts[1])
    assistant = parts[3] if len(parts) > 3 and parts[3] else None
    a_arc = parse_arcanum(parts[4]) if len(parts) > 4 and parts[4] else None
    if assistant and a_arc is None:
        raise BadInput(f"seat {text!r}: the assistant {assistant} needs an Arcanum for their "
                       f"starting status point (R27); {usage}")
    name = check_name(parts[0], "stakeholder's name")  # E42
    if assistant:
        assistant = check_name(assistant, "assistant's name")
    return SeatSpec(name, arcanum, parts[2].lower(), assistant, a_arc)


def person(state: State, text: str) -> str:
    return match_name(text, state.people, "person")


def stakeholder(state: State, text: str) -> str:
    """A stakeholder by name; naming the Fool says what the Fool is (he holds no seat)."""
    if state.fool and text.strip().lower() == state.fool.lower():
        raise IllegalAction(f"{state.fool} is the Fool: he hosts the table, holds no seat and "
                            "never rises, sits or resigns; name a stakeholder: "
                            f"{', '.join(state.stakeholders)} (R15)", ruling="R15")
    return match_name(text, state.stakeholders, "stakeholder")


def player(state: State, text: str) -> str:
    """A stakeholder or the Fool, as at the table."""
    return match_name(text, [*state.stakeholders, state.fool], "player")


def colour(state: State, text: str) -> str:
    return match_name(text, state.colours(), "chip colour")


def parse_chips(state: State, text: str) -> dict[str, int]:
    """``red:2,blue:1`` -> {colour: n}; colours by unique prefix."""
    out: dict[str, int] = {}
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        name, sep, count = part.partition(":")
        if not sep or not (count.isascii() and count.isdigit()) or int(count) < 1:
            raise BadInput(f"bad chips {part!r}; write COLOUR:N[,COLOUR:N...], e.g. red:2,blue:1")
        c = colour(state, name)
        out[c] = out.get(c, 0) + int(count)
    if not out:
        raise BadInput("no chips named; write COLOUR:N[,COLOUR:N...], e.g. red:2")
    return out


def at_table(state: State, name: str) -> bool:
    """Seated stakeholders and the Fool are at the table (R16); assistants, the risen, the
    resigned and the dead are away (E9)."""
    if name == state.fool:
        return True
    for seat in state.seats:
        if seat.name == name:
            return seat.seated and not seat.resigned and not seat.dead
    return False


def party(state: State, name: str) -> str:
    """The side ``name`` is on (a stakeholder with their assistant), else ``name`` itself."""
    return state.side_of(name) or name


def own_soul(state: State, name: str) -> Soul:
    for soul in state.souls:
        if soul.kind == "own" and soul.owner == name:
            return soul
    raise IllegalAction(f"{name} has no own soul on record")


def colour_holders(state: State, colour_name: str) -> dict[str, int]:
    """Chips of a colour per party, a side's assistant counting with the side (R21)."""
    out: dict[str, int] = {}
    for holder, holding in state.chips.items():
        n = holding.get(colour_name, 0)
        if n and holder != POT:
            who = party(state, holder)
            out[who] = out.get(who, 0) + n
    return out


def controller_of(state: State, name: str) -> str | None:
    """The party controlling all ten of ``name``'s colour, if any (R21)."""
    colour_name = state.seat(name).colour
    for who, n in colour_holders(state, colour_name).items():
        if n == CHIPS_PER_COLOUR and who != name:
            return who
    return None


def pending_buyout(state: State, name: str) -> str | None:
    """R17: the holder of all ten of ``name``'s chips who must first be offered the soul."""
    holder = controller_of(state, name)
    if holder is None:
        return None
    soul = own_soul(state, name)
    if soul.holder != name or holder in state.buyout_offers.get(name, []):
        return None
    return holder
