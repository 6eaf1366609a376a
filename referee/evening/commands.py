"""GM requests against the evening: validate against the State, return the events to store.

Every function here is pure: it takes the current state (never modifying it) and
the GM's words, and returns the events of one command, or raises a RefereeError
saying what is wrong and what is allowed now. The events are replayed on a copy
of the state before they are returned, so what is returned always folds.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from referee.errors import BadInput, IllegalAction, LawViolation
from referee.evening import betting
from referee.evening.state import POT, State, apply, require_evening
from referee.names import match_name
from referee.rules.cards import Card, format_cards, parse_arcanum, parse_cards, to_roman
from referee.rules.pots import check_named_chips, pick_chips
from referee.streams import Event

HOUR = 3600.0
DEFAULT_SETTINGS: dict[str, Any] = {
    "r11_own_colour_first": True,  # R11 (option): own colour goes first when paying
}


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
    return SeatSpec(parts[0], arcanum, parts[2].lower(), assistant, a_arc)


def _replay(state: State, events: list[Event]) -> State:
    sim = copy.deepcopy(state)
    for event in events:
        sim = apply(sim, copy.deepcopy(event))
    return sim


def require_not_over(state: State) -> None:
    if state.over:
        raise IllegalAction(f"the game is over: {state.winner or 'nobody'} and the Fool are "
                            "the only ones holding chips (R18)", ruling="R18")


# -- setup --------------------------------------------------------------------------------------


def new_evening(state: State, fool: str, seats: list[SeatSpec], *, now: float, force: bool,
                scenario: dict[str, Any] | None = None, souls: list[dict[str, Any]] | None = None,
                settings: dict[str, Any] | None = None) -> list[Event]:
    """The opening ceremony: seats in Arcanum order from the Fool's left, ten chips each (R10)."""
    if state.started and not force:
        raise IllegalAction("this file already holds an evening; use --force to replace it "
                            "(the old one is backed up first), or --db for another file")
    if not 2 <= len(seats) <= 6:
        raise BadInput(f"{len(seats)} seat(s) given; a Fool's Errand table seats two to six "
                       "stakeholders (--seat NAME:ARCANUM:COLOUR, one per stakeholder)")
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
    event: Event = {
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
    _replay(State(), [event])
    return [event]


# -- names --------------------------------------------------------------------------------------


def person(state: State, text: str) -> str:
    return match_name(text, state.people, "person")


def stakeholder(state: State, text: str) -> str:
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
        if not sep or not count.isdigit() or int(count) < 1:
            raise BadInput(f"bad chips {part!r}; write COLOUR:N[,COLOUR:N...], e.g. red:2,blue:1")
        c = colour(state, name)
        out[c] = out.get(c, 0) + int(count)
    if not out:
        raise BadInput("no chips named; write COLOUR:N[,COLOUR:N...], e.g. red:2")
    return out


# -- hands --------------------------------------------------------------------------------------


def _need_hand(state: State) -> Any:
    require_evening(state)
    if state.hand is None:
        raise IllegalAction("no hand in progress; deal one with `referee hand start`")
    return state.hand


def hour_passed(state: State, now: float) -> bool:
    """R13: an hour of play since the first hand."""
    return state.first_hand_at is not None and now - state.first_hand_at >= HOUR


def start_hand(state: State, *, now: float, open_phase: bool = False) -> list[Event]:
    """Deal in every seated stakeholder holding chips, and the Fool (R14, R15); antes (R13).

    Antes and bets come from the stakeholder's own stack, never the assistant's (E10).
    """
    require_evening(state)
    require_not_over(state)
    if state.hand is not None:
        raise IllegalAction(f"hand {state.hand.no} is still in progress; finish it with "
                            "`referee hand showdown` first")
    events: list[Event] = []
    # E12: an open phase declared between hands (or mid-hand) starts with this hand (R13)
    phase = "open" if (state.phase == "open" or state.open_pending or open_phase) else "limit"
    if open_phase and state.phase != "open":
        events.append({"kind": "phase_opened", "time": now})
    dealt = [s.name for s in state.seats
             if s.seated and not s.resigned and not s.dead and state.stack(s.name) > 0]
    if not dealt:
        raise IllegalAction("no seated stakeholder holds chips; nobody can be dealt in (R14)")
    antes: dict[str, dict[str, int]] = {}
    if phase == "open":
        for name in dealt:
            antes[name] = pick_chips(state.holding(name), 1, own=state.colour_of(name),
                                     own_first=state.settings.get("r11_own_colour_first", True))
    events.append({"kind": "hand_started", "no": state.hands_played + 1,
                   "order": [*dealt, state.fool], "antes": antes, "phase": phase, "time": now})
    _replay(state, events)
    return events


def show(state: State, who: str, cards_text: str, *, magic: bool = False) -> list[Event]:
    """A player's face-up cards so far, replacing what was given before (R9)."""
    hand = _need_hand(state)
    name = player(state, who)
    if name not in hand.order:
        raise IllegalAction(f"{name} is not dealt into hand {hand.no}")
    cards = parse_cards(cards_text)
    most = 7 if name == state.fool else 4
    if not cards or len(cards) > most:
        raise BadInput(f"{len(cards)} up card(s) for {name}; "
                       f"{'the Fool shows 1 to 7' if most == 7 else 'a stakeholder shows 1 to 4'}"
                       " (two down, two up, two up, one down)")
    if not magic:
        _check_unique_up(hand, name, cards)
    events: list[Event] = [{"kind": "cards_shown", "name": name,
                            "cards": [c.short for c in cards]}]
    sim = _replay(state, events)
    if sim.hand is not None and not betting.missing_up_cards(sim, sim.hand):
        events += _fool_moves(sim, opening=True)[0]
    return events


def _forfeited(hand: Any) -> dict[str, str]:
    """Cards given to the Fool for a power this hand, and by whom: out of the hand (R26)."""
    return {card: who for who, cards in hand.forfeited.items() for card in cards}


def _check_unique_up(hand: Any, name: str, cards: list[Card]) -> None:
    gone = _forfeited(hand)
    for c in cards:
        if c.short in gone:
            raise BadInput(f"{c.short} ({c.name}) was given to the Fool by {gone[c.short]} for a "
                           "power; it is out of this hand (R26; --magic if a power changed the "
                           "cards)", ruling="R26")
    seen: dict[str, str] = {}
    for other, shown in hand.showing.items():
        if other != name:
            for c in shown:
                seen[c] = other
    for c in cards:
        if cards.count(c) > 1:
            raise BadInput(f"{c.short} ({c.name}) given twice; a deck holds each card once "
                           "(R8; --magic if a power changed the cards)", ruling="R8")
        if c.short in seen:
            raise BadInput(f"{c.short} ({c.name}) is already showing for {seen[c.short]}; a deck "
                           "holds each card once (R8; --magic if a power changed the cards)",
                           ruling="R8")


def act(state: State, who: str, action: str, amount: int | None = None,
        chips_text: str | None = None) -> list[Event]:
    """One betting action in turn (R11-R15); the Fool's forced moves follow by themselves."""
    hand = _need_hand(state)
    name = player(state, who)
    if name == state.fool:
        return _fool_on_request(state, action)
    events, sim = _fool_moves(state, opening=True)
    hand = sim.hand
    assert hand is not None
    try:
        named = parse_chips(sim, chips_text) if chips_text else None
        if named is not None and amount is None and action in ("bet", "raise"):
            amount = sum(named.values()) - (betting.owed(sim, hand, name)
                                            if action == "raise" else 0)
        n = betting.verify_action(sim, hand, name, action, amount)
    except IllegalAction as exc:
        if not events:
            raise
        forced = "; ".join(f"{e['name']} {e['action']}s {sum(e['chips'].values()) or ''}".strip()
                           for e in events)
        raise IllegalAction(f"first the Fool's forced move: {forced} (R15); then {exc}",
                            ruling=exc.ruling) from None
    if named is not None:
        if action in ("check", "fold"):
            raise BadInput(f"--chips makes no sense with {action}")
        check_named_chips(sim.holding(name), named, name)
        if sum(named.values()) != n:
            raise BadInput(f"the chips named add up to {sum(named.values())}, but this {action} "
                           f"puts in {n}", ruling="R11")
        chips = named
    else:
        chips = pick_chips(sim.holding(name), n, own=sim.colour_of(name),
                           own_first=sim.settings.get("r11_own_colour_first", True))
    event: Event = {"kind": "action", "name": name, "action": action, "chips": chips,
                    "all_in": n > 0 and n == sim.stack(name), "auto": False}
    events.append(event)
    sim = _replay(sim, [event])
    # A new round whose up cards were all given already opens at once, the Fool's forced
    # opening bet included (E4).
    ready = sim.hand is not None and not betting.missing_up_cards(sim, sim.hand)
    fool_events, sim = _fool_moves(sim, opening=ready)
    return events + fool_events + _uncontested(sim)


def _fool_on_request(state: State, action: str) -> list[Event]:
    """The GM names the Fool: play his forced move if it is his turn and the move named (R15)."""
    hand = state.hand
    assert hand is not None
    current = betting.to_act(state, hand)
    if current != state.fool:
        raise IllegalAction(f"not the Fool's turn: {current or 'nobody'} is to act; the console "
                            "plays the Fool's forced bets and calls itself (R15)", ruling="R15")
    events, sim = _fool_moves(state, opening=True)
    forced = events[0]["action"]
    if action != forced:
        raise IllegalAction(f"the Fool must {forced} now, not {action}: {events[0]['why']}",
                            ruling="R15")
    return events + _uncontested(sim)


def _fool_moves(state: State, *, opening: bool) -> tuple[list[Event], State]:
    """The Fool's forced play while it is his turn (R15): call while he has chips; bet when he
    opens with the high hand showing; check otherwise. ``opening`` allows the opening bet.
    Returns the events and the state after them (``state`` itself when there are none)."""
    events: list[Event] = []
    sim = state
    while sim.hand is not None and betting.to_act(sim, sim.hand) == sim.fool:
        hand = sim.hand
        if hand.round.actions == 0 and not opening:
            break
        due = betting.owed(sim, hand, sim.fool)
        stack = sim.stack(sim.fool)
        if due:
            n, action, why = min(due, stack), "call", "the Fool must call while he has chips"
        elif hand.round.actions == 0:
            n, action, why = 1, "bet", "the Fool shows the high hand and must bet"
        else:
            n, action, why = 0, "check", "nothing to call"
        chips = pick_chips(sim.holding(sim.fool), n, own=None) if n else {}
        event: Event = {"kind": "action", "name": sim.fool, "action": action, "chips": chips,
                        "all_in": n > 0 and n == stack, "auto": True, "why": f"{why} (R15)"}
        events.append(event)
        sim = _replay(sim, [event])
    return events, sim


def _uncontested(sim: State) -> list[Event]:
    """When every stakeholder has folded, the Fool takes the pot without a showdown (R15, E7)."""
    hand = sim.hand
    if hand is None or hand.live != [sim.fool]:
        return []
    return [_award(sim, {}, {}, magic=False)]


def showdown(state: State, hands_text: list[tuple[str | None, str]], *, magic: bool,
             now: float, keep: list[str] | None = None) -> list[Event]:
    """Rank every live hand, return uncalled chips, award each pot (R7, R11, R14, R15, E11)."""
    hand = _need_hand(state)
    if not hand.betting_over:
        what = betting.options(state, hand)
        raise IllegalAction("betting is not over: "
                            + (f"{what.name} is to act ({'/'.join(what.moves)})" if what else "")
                            + "; showdown comes after the last betting round")
    given: dict[str, list[Card]] = {}
    for raw_name, cards_text in hands_text:
        if raw_name is None:
            raise BadInput(f"name the hand: \"NAME: CARDS\" (got {cards_text!r})")
        name = match_name(raw_name, hand.order, "player in this hand")
        if name in hand.folded:
            raise IllegalAction(f"{name} folded this hand and has no hand to show")
        if name in given:
            raise BadInput(f"{name}'s hand is given twice")
        given[name] = parse_cards(cards_text)
    missing = [p for p in hand.live if p not in given]
    if missing:
        raise BadInput(f"the showdown needs every hand still in: missing {', '.join(missing)}")
    for name, cards in given.items():
        want = 7 - len(hand.forfeited.get(name, []))
        if not magic and len(cards) != want:
            raise BadInput(f"{name} has {len(cards)} card(s); the showdown takes all {want} of "
                           f"their cards" + (" (one went for a power)" if want < 7 else ""))
        if not 1 <= len(cards) <= 7:
            raise BadInput(f"{name} has {len(cards)} card(s); a hand is one to seven cards")
        shorts = [c.short for c in cards]
        if not magic:
            for up in hand.showing.get(name, []):
                if up not in shorts:
                    raise BadInput(f"{name}'s showdown cards lack their up card {up}, given with "
                                   "`hand show`; check the cards (or --magic)")
            for card, giver in _forfeited(hand).items():
                if card in shorts:
                    raise BadInput(f"{card} was given to the Fool by {giver} for a power; it is "
                                   f"out of this hand and not in {name}'s (R26)", ruling="R26")
    from referee.rules.hands import best_hand, check_distinct

    check_distinct(list(given.values()), magic=magic)
    best = {name: best_hand(cards, magic=magic) for name, cards in given.items()}
    event = _award(state, given, best, magic=magic)
    event["time"] = now
    if keep:
        event["keep"] = _keeps(state, keep, best)
    _replay(state, [event])
    return [event]


def _keeps(state: State, keep: list[str], best: dict[str, Any]) -> dict[str, int]:
    """``--keep NAME:ARCANUM``: which Duet Arcanum a player keeps; the assistant gets the
    other (R27)."""
    out: dict[str, int] = {}
    for item in keep:
        who, sep, arc = item.partition(":")
        if not sep:
            raise BadInput(f"bad --keep {item!r}; write NAME:ARCANUM, e.g. Ada:XX")
        name = match_name(who, list(best), "player at this showdown")
        hand = best[name]
        if hand.category not in ("two_pair_duet", "three_pair") or not hand.duet:
            raise IllegalAction(f"{name} plays {hand.title.lower()}: no Duet points to share "
                                "(R27)", ruling="R27")
        number = parse_arcanum(arc)
        duet = [c.rank for c in hand.duet]
        if number not in duet:
            raise BadInput(f"{name}'s Duet is {' + '.join(to_roman(n) for n in duet)}; keep one "
                           "of those (R27)")
        out[name] = number
    return out


def _award(state: State, given: dict[str, list[Card]], best: dict[str, Any], *,
           magic: bool) -> Event:
    from referee.rules.hands import explain
    from referee.rules.pots import build_pots, split_pot

    hand = state.hand
    assert hand is not None
    layering = build_pots(hand.contrib, hand.live, state.fool)
    colours = {s.name: s.colour for s in state.seats}
    pots = []
    for i, pot in enumerate(layering.pots):
        contenders = [p for p in pot.eligible if p in best] or [state.fool]
        top = max(best[p] for p in contenders) if best else None
        winners = [p for p in contenders if top is None or best[p] == top]
        losers = [p for p in contenders if p not in winners]
        if top is None:
            why = "every stakeholder folded; the Fool's hand is live to the end (R15)"
        elif losers:
            runner = max(losers, key=lambda p: best[p])
            why = explain(best[winners[0]], best[runner])
        else:
            why = "uncontested" if len(winners) == 1 else "tied"
        pots.append({
            "name": "main pot" if i == 0 else f"side pot {i}",
            "chips": pot.chips,
            "eligible": list(pot.eligible),
            "winners": winners,
            "shares": split_pot(pot.chips, winners, colours),
            "why": why,
        })
    return {
        "kind": "showdown",
        "hands": {p: format_cards(c).split() for p, c in given.items()},
        "best": {p: {"category": h.category, "cards": [c.short for c in h.cards],
                     "duet": [c.rank for c in h.duet] if h.duet else None}
                 for p, h in best.items()},
        "returned": layering.returned,
        "pots": pots,
        "magic": magic,
    }


# -- away from the table ------------------------------------------------------------------------


def at_table(state: State, name: str) -> bool:
    """Seated stakeholders and the Fool are at the table (R16)."""
    if name == state.fool:
        return True
    for seat in state.seats:
        if seat.name == name:
            return seat.seated and not seat.resigned and not seat.dead
    return False


def give_chips(state: State, source: str, target: str, chips_text: str) -> list[Event]:
    """Chips between two parties away from the table (R16)."""
    require_evening(state)
    src, dst = person(state, source), person(state, target)
    if src == dst:
        raise BadInput(f"{src} cannot give chips to themselves")
    for who in (src, dst):
        if at_table(state, who):
            where = "hosts the table" if who == state.fool else "is seated at the table"
            raise LawViolation(f"{who} {where}: at the table chips are never given or traded; "
                               f"both parties must be away from the table (the Law, R16)",
                               ruling="R16")
    chips = parse_chips(state, chips_text)
    check_named_chips(state.holding(src), chips, src)
    event: Event = {"kind": "chips_given", "from": src, "to": dst, "chips": chips}
    _replay(state, [event])
    return [event]


def settle_chips(state: State, source: str, target: str, chips_text: str,
                 why: str) -> list[Event]:
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
    event: Event = {"kind": "chips_given", "from": src, "to": dst, "chips": chips,
                    "ruling": why.strip()}
    _replay(state, [event])
    return [event]


def rise(state: State, who: str) -> list[Event]:
    """A stakeholder rises: keeps their chips, is dealt out, still a stakeholder (R17)."""
    require_evening(state)
    name = stakeholder(state, who)
    seat = state.seat(name)
    if seat.resigned or seat.dead:
        raise IllegalAction(f"{name} is out of the game")
    if not seat.seated:
        raise IllegalAction(f"{name} has already risen from the table; `referee sit {name}` "
                            "seats them again")
    if state.hand is not None and name in state.hand.live:
        raise IllegalAction(f"{name} is in hand {state.hand.no}; fold or finish the hand before "
                            "rising", ruling="R17")
    return [{"kind": "seat_changed", "name": name, "seated": False}]


def sit(state: State, who: str) -> list[Event]:
    """A risen stakeholder sits again and is dealt into the next hand (R17)."""
    require_evening(state)
    name = stakeholder(state, who)
    seat = state.seat(name)
    if seat.resigned or seat.dead:
        raise IllegalAction(f"{name} is out of the game; resigned players never rejoin (R17)",
                            ruling="R17")
    if seat.seated:
        raise IllegalAction(f"{name} is already seated")
    return [{"kind": "seat_changed", "name": name, "seated": True}]


def resign(state: State, who: str) -> list[Event]:
    """A stakeholder whose side holds no chips leaves the game for good (R17)."""
    require_evening(state)
    name = stakeholder(state, who)
    seat = state.seat(name)
    if seat.resigned or seat.dead:
        raise IllegalAction(f"{name} is already out of the game")
    if state.side_chips(name):
        raise IllegalAction(f"{name}'s side still holds {state.side_chips(name)} chip(s); only a "
                            "side with no chips may resign", ruling="R17")
    if state.hand is not None and name in state.hand.live:
        raise IllegalAction(f"{name} is still in hand {state.hand.no} (all-in); resign after "
                            "the hand", ruling="R17")
    from referee.evening.souls import pending_buyout  # E18: buy or decline first

    holder = pending_buyout(state, name)
    if holder:
        raise IllegalAction(f"{holder} holds all ten of {name}'s chips: {holder} must be offered "
                            f"{name}'s soul first (`referee soul buyout {holder} {name}`, or "
                            f"`referee soul decline {holder} {name}`)", ruling="R17")
    return [{"kind": "seat_changed", "name": name, "resigned": True}]


def open_phase(state: State, *, now: float) -> list[Event]:
    """The Fool declares the open phase: antes, bets and raises at will (R13)."""
    require_evening(state)
    if state.phase == "open" or state.open_pending:
        raise IllegalAction("the open phase is already declared", ruling="R13")
    return [{"kind": "phase_opened", "time": now}]
