"""A count: the chips on the table against the books, colour by colour (E130-E132).

The GM types what lies in front of people and in the pot; :func:`count_chips` compares it
with the books and returns one ``chips_counted`` event, an assertion: it moves nothing, and a
difference is never corrected (``chips settle ... --why`` is the referee's ruling, R11/R22).
The event records the books as they stood, so that ``verify`` (the fold, :func:`check_count`)
rechecks each count at its moment. :func:`last_moves` names the commands that last touched
each difference. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence

from referee.errors import BadInput, InvariantViolation
from referee.evening.amend import effective
from referee.evening.events import ChipsCounted, Counted, Difference
from referee.evening.state import POT, State, require_evening
from referee.names import match_name
from referee.said import Suggest, said
from referee.streams import Event, plain, spec

#: How many of the moves that last touched a difference are named (E131).
MOVES_NAMED = 3


def parse_count(state: State, words: list[str]) -> Counted:
    """``Ada red:7 blue:3 Cy blue:8 pot:4`` -> {holder: {colour: n}} or {holder: total}.

    A name starts a holder; ``COLOUR:N`` words after it are what lies in front of them (a
    colour not named is none, E130); ``NAME:N`` (``pot:4``) is a total, compared as one.

    Raises:
        BadInput: nothing counted, a colour before any name, a count that is no number, or
            a holder named twice.
    """
    require_evening(state)
    holders = [*state.people, POT]
    colours = state.colours()
    out: Counted = {}
    current: str | None = None
    example = said("e.g. ", Suggest(("count",), ("Ada", "red:7", "blue:3", "Cy", "blue:8",
                                                 "pot:4")))
    tokens = " ".join(words).replace(",", " ").split()
    for i, word in enumerate(tokens):
        name, sep, number = word.partition(":")
        if not sep:
            if name.isdigit() or name.lower() in (c.lower() for c in colours):
                after = tokens[i + 1] if i + 1 < len(tokens) else ""
                # E142: a colour and its count apart (`grey 1`) are named as the one word
                one = f"{name}:{after}" if not name.isdigit() and after.isdigit() else "blue:10"
                raise BadInput(said(f"{word!r} alone counts nothing: write a colour and its "
                                    f"count as one word, `{one}`, ", example, " (E142)"),
                               ruling="E142")
            _counted(out, current)
            current = _holder(holders, name, out)
            out[current] = {}
            continue
        if not number.isdigit():
            raise BadInput(said(f"bad count {word!r}: give COLOUR:N or NAME:N with N a whole "
                                "number of chips, ", example, " (E130)"), ruling="E130")
        n = int(number)
        if name.lower() in (c.lower() for c in colours) or not _is_holder(holders, name):
            colour = match_name(name, colours, "chip colour")
            if current is None:
                raise BadInput(said(f"{word!r} counts chips of no one: name whose they are "
                                    "first, ", example, " (E130)"), ruling="E130")
            held = out[current]
            assert isinstance(held, dict)  # a total ends its holder (`current` is None)
            held[colour] = held.get(colour, 0) + n
            continue
        current = _holder(holders, name, out)
        out[current] = n
        current = None
    if not out:
        raise BadInput(said("nothing counted: name whose chips you count and what lies there, ",
                            example, " (E130)"), ruling="E130")
    _counted(out, current)
    return out


def _counted(out: Counted, name: str | None) -> None:
    """A holder named with nothing counted after it is a slip, not a count of none (E142)."""
    if name is not None and out.get(name) == {}:
        raise BadInput(f"{name} is named with nothing counted: give what lies in front of "
                       f"them, `{name} blue:10`, or `{name}:0` when nothing does (E142)",
                       ruling="E142")


def _is_holder(holders: list[str], text: str) -> bool:
    key = text.lower()
    return any(h.lower() == key or h.lower().startswith(key) for h in holders)


def _holder(holders: list[str], text: str, seen: Container[str]) -> str:
    name = match_name(text, holders, "person (or the pot)")
    if name in seen:
        raise BadInput(f"{name} is counted twice in one count; give each person once (E130)",
                       ruling="E130")
    return name


def books(state: State, holders: Iterable[str]) -> dict[str, dict[str, int]]:
    """What the books say each holder has, by colour (no zero counts)."""
    return {h: {c: n for c, n in sorted(state.holding(h).items()) if n} for h in holders}


def differences(counted: Counted, held: dict[str, dict[str, int]]) -> list[Difference]:
    """Each holder and colour where the count and the books differ (a total: colour None)."""
    out: list[Difference] = []
    for holder, count in counted.items():
        book = held.get(holder, {})
        if isinstance(count, int):
            total = sum(book.values())
            if count != total:
                out.append({"holder": holder, "colour": None, "counted": count,
                            "books": total})
            continue
        for colour in sorted(set(count) | set(book)):
            if count.get(colour, 0) != book.get(colour, 0):
                out.append({"holder": holder, "colour": colour,
                            "counted": count.get(colour, 0), "books": book.get(colour, 0)})
    return out


def count_chips(state: State, counted: Counted,
                moves: dict[str, list[str]] | None = None) -> list[ChipsCounted]:
    """The ``chips_counted`` event for ``counted`` (E130): the count, the books at this
    moment and every difference, with the moves that last touched each (E131). Moves
    nothing, whatever it finds (E132)."""
    require_evening(state)
    held = books(state, counted)
    diff = differences(counted, held)
    for d in diff:
        d["moves"] = list((moves or {}).get(_key(d), []))
    return [ChipsCounted(kind="chips_counted", counted=counted, books=held, differences=diff)]


def _key(d: Difference) -> str:
    return f"{d['holder']}:{d['colour'] or ''}"


def check_count(state: State, event: ChipsCounted) -> None:
    """A recorded count against the books at its moment (E130): ``verify`` replays every
    event through the fold, so a count edited after it was taken is found there.

    Raises:
        InvariantViolation: the books or the differences recorded are not those of the
            evening at that moment.
    """
    held = books(state, event["counted"])
    if held != event["books"]:
        raise InvariantViolation(f"the count recorded books of {event['books']}, but the "
                                 f"books then held {held} (E130)")
    found = [{k: v for k, v in d.items() if k != "moves"}
             for d in differences(event["counted"], held)]
    recorded = [{k: v for k, v in d.items() if k != "moves"} for d in event["differences"]]
    if found != recorded:
        raise InvariantViolation(f"the count recorded the differences {recorded}, but the "
                                 f"count against the books then gives {found} (E130)")


def last_moves(commands: Iterable[tuple[str, list[Event]]], state: State,
               apply: Callable[[State, Event], State], wanted: list[Difference],
               ) -> dict[str, list[str]]:
    """The newest ``MOVES_NAMED`` commands that changed each difference's holder and colour
    (E131): ``commands`` are (text, events) oldest first, folded from ``state`` (the empty
    one) with ``apply``."""
    keys = {_key(d): (d["holder"], d["colour"]) for d in wanted}
    found: dict[str, list[str]] = {k: [] for k in keys}
    for text, events in commands:
        before = {k: _held(state, h, c) for k, (h, c) in keys.items()}
        for event in events:
            state = apply(state, event)
        for k, (holder, colour) in keys.items():
            if _held(state, holder, colour) != before[k]:
                found[k] = [*found[k][-(MOVES_NAMED - 1):], text]
    return found


def _held(state: State, holder: str, colour: str | None) -> int:
    holding = state.holding(holder)
    return sum(holding.values()) if colour is None else holding.get(colour, 0)


def count_said(state: State, words: list[str],
               log: Callable[[], Iterable[tuple[int, str, Sequence[Mapping[str, object]]]]]
               ) -> list[ChipsCounted]:
    """`count NAME COLOUR:N ...` (E130): the count read against the books and recorded, each
    difference with the newest commands that touched it (E131), read from the evening's
    ``log`` (its commands, oldest first, as the table hands them) only when there is one."""
    counted = parse_count(state, words)
    found = differences(counted, books(state, counted))
    moves = None
    if found:
        sp = spec("evening")
        commands = ((text, events) for _, text, events in effective(
            (cmd, text, [plain(e) for e in events]) for cmd, text, events in log()))
        moves = last_moves(commands, sp.empty(), sp.apply, found)
    return count_chips(state, counted, moves)
