"""How each stored event changes the evening (the fold). Validation happened before storing;
what is checked here is what would be a bug."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from referee.errors import IllegalAction, InvariantViolation
from referee.evening import events, roster
from referee.evening.clock import close
from referee.evening.events import (
    Action,
    AuctionBid,
    AuctionClosed,
    AuctionOpened,
    BuyoutDeclined,
    CardsFixed,
    CardsShown,
    ChargesGiven,
    ChipsCounted,
    ChipsGiven,
    ClockResumed,
    ClockStopped,
    CommandAmended,
    EveningContinued,
    EveningCreated,
    EveningEvent,
    Guess,
    HandStarted,
    PhaseOpened,
    PowerAccessed,
    PowerUsed,
    ScenarioContent,
    SeatChanged,
    SettingsChanged,
    Showdown,
    SoulDestroyed,
    SoulGiven,
    SoulGuessed,
    SoulSold,
    SoulStudied,
    SoulTraded,
)
from referee.evening.state import (
    CHIPS_PER_COLOUR,
    POT,
    Answerable,
    HandState,
    PotPlayed,
    Seat,
    Soul,
    State,
    check_invariants,
    copy,
    dump,
    load,
    move_chips,
)
from referee.said import Suggest, said
from referee.streams import StreamSpec, plain

R = TypeVar("R")
#: Each kind's handler, taking that kind's record: the one place a kind names its fold, so
#: the mapping is as loose as a dict of kinds must be; every handler is typed by its record.
HANDLERS: dict[str, Callable[[State, Any], State]] = {}


def handles(kind: str) -> Callable[[Callable[[State, R], State]], Callable[[State, R], State]]:
    def register(fn: Callable[[State, R], State]) -> Callable[[State, R], State]:
        HANDLERS[kind] = fn
        return fn

    return register


def apply(state: State, event: EveningEvent) -> State:
    """Fold one event into the state (mutating it) and check the invariants after it.

    The betting machine and the powers' effects are imported by the events that use them, so
    a command away from the table (chips, souls, seats) neither imports nor builds them."""
    handler = HANDLERS.get(event["kind"])
    if handler is None:
        raise InvariantViolation(f"unknown event kind {event['kind']!r}")
    check_open(state, event)  # E101: after the end only the ceremony goes on
    hand = state.hand
    if hand is not None and hand.answerable is not None and not still_answerable(
            event, hand.answerable):
        hand.answerable = None  # S15, R38: a bet or power is answered at once or not at all
    state = handler(state, event)
    if state.started and state.hand is None:
        check_end(state)
    check_invariants(state)
    return state


#: The clock's events (R47): they move nothing of the books.
CLOCK = ("clock_stopped", "clock_resumed")


def check_open(state: State, event: EveningEvent) -> None:
    """E101: from the Fool's declared end or the ceremony's first decision the evening's books
    are closed, for the ceremony is heard on the points at the end; only the ceremony goes on,
    and after its close nothing at all. Raised before a command writes anything."""
    ceremony = state.ceremony
    if ceremony is None or event["kind"] in roster.NEW:
        return
    if event["kind"] in CLOCK and not ceremony["closed"]:
        return  # R47, E200: a break during the ceremony; the clock stood still at the end
    if ceremony["closed"]:
        raise IllegalAction(said("the evening is closed: its ceremony has recorded the roster "
                                 "(R40); the next evening starts with ",
                                 Suggest(("next",), ("NEW.json",)), ", and ", Suggest(("undo",)),
                                 " reopens the ceremony (E101)"), ruling="E101")
    if event["kind"] not in roster.CEREMONY:
        how = ("the Fool declared its end" if ceremony["declared"] and not ceremony["decisions"]
               else "its ceremony has begun")
        raise IllegalAction(said(f"the evening is over and {how}: its books are closed, so only ",
                                 Suggest(("ceremony",), ("...",)), " goes on; ",
                                 Suggest(("undo",)), " takes back the last step (E101)"),
                            ruling="E101")


def still_answerable(event: EveningEvent, answer: Answerable) -> bool:
    """A bet or power stays answerable through power uses and the Fool's forced moves only,
    and through one card slid to the Fool for the answer (R38, S15): sliding it and using its
    power are one act."""
    if event["kind"] == "power_accessed":
        return "via" not in answer
    return event["kind"] == "power_used" or (event["kind"] == "action"
                                             and bool(event.get("auto")))


def replay(state: State, made: Sequence[EveningEvent]) -> State:
    """The state after ``events``, folded on a copy: ``state`` itself is left as it was. The
    commands replay what they are about to return, so what they return always folds. The
    events are folded as copies: nothing the copy keeps is shared with what is returned."""
    state = copy(state)
    for event in made:
        state = apply(state, plain(event))
    return state


def fold_on(state: State, made: Sequence[EveningEvent]) -> State:
    """``state`` after ``made``, folded into ``state`` itself, one event after another: for a
    command that already holds its own copy (``replay``) and folds each event it computes as it
    goes, instead of copying the state again for each.

    The events themselves are folded, not copies: they are the ones the command has just made
    and returns, which nothing changes after, and the state folded from them is the command's
    own, dropped when it returns. What the evening keeps is folded from copies of the events
    (``Evening.commit``)."""
    for event in made:
        state = apply(state, event)
    return state


def _hand(state: State) -> HandState:
    if state.hand is None:
        raise InvariantViolation("no hand in progress")
    return state.hand


@handles("evening_created")
def _created(state: State, e: EveningCreated | EveningContinued) -> State:
    new = State(started=True, fool=e["fool"], created=e["time"], settings=dict(e["settings"]))
    new.seats = [Seat(**s) for s in e["seats"]]
    new.chips = {new.fool: {}}
    for seat in new.seats:
        new.chips[seat.name] = {seat.colour: CHIPS_PER_COLOUR}
        if seat.assistant:
            new.chips[seat.assistant] = {}
        new.charges[seat.name] = 0
    new.chips[POT] = {}
    new.scenario = ScenarioContent(**e.get("scenario", {}))
    new.souls = [Soul(**s) for s in e.get("souls", [])]
    return new


@handles("phase_opened")
def _phase_opened(state: State, e: PhaseOpened) -> State:
    if state.hand is not None:
        state.open_pending = True
    else:
        state.phase = "open"
    return state


@handles("hand_started")
def _hand_started(state: State, e: HandStarted) -> State:
    from referee.evening import betting

    state.phase = e["phase"]
    state.open_pending = False
    if state.first_hand_at is None:
        state.first_hand_at = e["time"]
    hand = HandState(no=e["no"], phase=e["phase"], order=list(e["order"]), started=e["time"])
    for name, chips in e["antes"].items():
        move_chips(state, name, POT, chips)
        hand.contrib[name] = _colours(chips)
        hand.antes[name] = sum(chips.values())
    state.hand = hand
    betting.begin_round(state, hand)
    return state


def _colours(chips: dict[str, int]) -> list[str]:
    return [colour for colour, n in chips.items() for _ in range(n)]


@handles("clock_stopped")
def _clock_stopped(state: State, e: ClockStopped) -> State:
    close(state, e["time"])  # R47: a pause or a break replaces the one before it
    state.stop = {"why": e["why"], "at": e["time"], "until": e["until"],
                  "minutes": e.get("minutes")}
    return state


@handles("clock_resumed")
def _clock_resumed(state: State, e: ClockResumed) -> State:
    close(state, e["time"])  # R47
    return state


@handles("cards_shown")
def _cards_shown(state: State, e: CardsShown) -> State:
    _hand(state).showing[e["name"]] = list(e["cards"])
    return state


@handles("cards_fixed")
def _cards_fixed(state: State, e: CardsFixed) -> State:
    _hand(state).showing[e["name"]] = list(e["cards"])
    return state


@handles("action")
def _action(state: State, e: Action) -> State:
    from referee.evening import betting
    from referee.evening.powers import effects

    hand = _hand(state)
    r = hand.round
    name, action, chips = e["name"], e["action"], e["chips"]
    effects.on_action(state, hand, e)  # S15, S17: answerable bets, turn effects used up
    if r.actions == 0:
        r.opener = name
        hand.openings.append({"street": r.street, "opener": name,
                              "able": betting.actors(state, hand)})
    n = sum(chips.values())
    if n:
        move_chips(state, name, POT, chips)
        hand.contrib.setdefault(name, []).extend(_colours(chips))
        r.committed[name] = r.committed.get(name, 0) + n
    if action == "fold":
        hand.folded.append(name)
    elif action in ("bet", "raise") and r.committed.get(name, 0) > r.bet:
        if action == "raise" or r.bet > 0:
            r.raises += 1
        r.bet = r.committed[name]
        r.acted = [name]
    else:
        r.bet = max(r.bet, r.committed.get(name, 0))
        r.acted.append(name)
    r.actions += 1
    r.last = name
    betting.advance(state, hand)
    return state


@handles("showdown")
def _showdown(state: State, e: Showdown) -> State:
    """The end of a hand: uncalled chips back, then every pot to its winners (R11, R15)."""
    from referee.evening.powers import effects

    hand = _hand(state)
    for name, chips in e["returned"].items():
        move_chips(state, POT, name, chips)
    pots: list[PotPlayed] = []
    for pot in e["pots"]:
        for name, chips in pot["shares"].items():
            move_chips(state, POT, name, chips)
        pots.append(PotPlayed(size=sum(pot["chips"].values()), winners=pot["winners"]))
    if state.stack(POT):
        raise InvariantViolation(f"chips left in the pot after hand {hand.no}")
    state.history.append({
        "no": hand.no,
        "phase": hand.phase,
        "pots": pots,
        "best": e["best"],
        "keep": dict(e.get("keep", {})),
        "contested": bool(e["hands"]),
        "time": e.get("time", 0.0),
        # Each side's chips once the pots are paid: the evening in a picture (E50).
        "sides": {s.name: state.side_chips(s.name) for s in state.seats},
    })
    effects.hand_ended(state, hand)  # S27: Exile
    state.hand = None
    state.hands_played += 1
    return state


def check_end(state: State) -> None:
    """R18: over when only the Fool and one stakeholder's side hold chips. Between hands,
    after every event: chips moved by a buyout or a gift can bring a side back."""
    side = {s.assistant: s.name for s in state.seats if s.assistant}  # one look at the seats
    holders: set[str] = set()
    for name, holding in state.chips.items():
        if name == POT or name == state.fool or not sum(holding.values()):
            continue
        holders.add(side.get(name, name))
    state.over = len(holders) <= 1
    state.winner = next(iter(holders), None) if state.over else None


@handles("chips_given")
def _chips_given(state: State, e: ChipsGiven) -> State:
    move_chips(state, e["from"], e["to"], e["chips"])
    return state


@handles("chips_counted")
def _chips_counted(state: State, e: ChipsCounted) -> State:
    from referee.evening.count import check_count

    check_count(state, e)  # E130: an assertion, rechecked at its moment; it moves nothing
    return state


@handles("command_amended")
def _command_amended(state: State, e: CommandAmended) -> State:
    from referee.evening.amend import amended_state

    return amended_state(state, e)  # E138: the evening as the replay left it


@handles("seat_changed")
def _seat_changed(state: State, e: SeatChanged) -> State:
    seat = state.seat(e["name"])
    if "seated" in e:
        seat.seated = e["seated"]
    if e.get("resigned"):
        seat.resigned = True
        seat.seated = False
    return state


@handles("settings_changed")
def _settings_changed(state: State, e: SettingsChanged) -> State:
    state.settings.update(e["settings"])
    return state


# -- souls, Charges, powers (R19-R26) ---------------------------------------------------------


@handles("soul_studied")
def _soul_studied(state: State, e: SoulStudied) -> State:
    state.studies.setdefault(e["assistant"], {})[e["soul"]] = e["n"]
    return state


@handles("soul_guessed")
def _soul_guessed(state: State, e: SoulGuessed) -> State:
    made = [g for g in state.guesses if g["assistant"] == e["assistant"] and g["soul"] == e["soul"]]
    if len(made) >= 3:
        raise InvariantViolation(f"R24: a fourth guess by {e['assistant']} for {e['soul']}")
    state.guesses.append(Guess(assistant=e["assistant"], side=e["side"], soul=e["soul"],
                               name=e["name"], arcanum=e["arcanum"], result=e["result"],
                               charges=e["charges"]))
    state.charges[e["side"]] = state.charges.get(e["side"], 0) + e["charges"]
    return state


@handles("auction_opened")
def _auction_opened(state: State, e: AuctionOpened) -> State:
    state.auction = {"seller": e["seller"], "soul": e["soul"], "holder": e["holder"],
                     "bids": []}
    return state


@handles("auction_bid")
def _auction_bid(state: State, e: AuctionBid) -> State:
    if state.auction is None or state.auction["soul"] != e["soul"]:
        raise InvariantViolation(f"R20: a bid for {e['soul']} with no auction of it open")
    state.auction["bids"].append({"buyer": e["buyer"], "chips": dict(e["chips"]),
                                  "promise": e["promise"]})
    return state


@handles("auction_closed")
def _auction_closed(state: State, e: AuctionClosed) -> State:
    state.auction = None
    return state


def _close_auction(state: State, soul: str) -> None:
    if state.auction is not None and state.auction["soul"] == soul:
        state.auction = None


@handles("soul_sold")
def _soul_sold(state: State, e: SoulSold) -> State:
    soul = state.soul(e["soul"])
    if soul.holder != e.get("holder", e["seller"]):
        raise InvariantViolation(f"R20: {e['seller']} does not hold {soul.key}")
    move_chips(state, e["buyer"], e["seller"], e["chips"])
    soul.holder = e["buyer"]
    _close_auction(state, soul.key)
    return state


@handles("soul_traded")
def _soul_traded(state: State, e: SoulTraded) -> State:
    soul = state.soul(e["soul"])
    for payer, n in e["payers"].items():
        move_chips(state, payer, e["seller"], {e["colour"]: n})
    soul.holder = e["buyer"]
    _close_auction(state, soul.key)
    return state


@handles("buyout_declined")
def _buyout_declined(state: State, e: BuyoutDeclined) -> State:
    state.buyout_offers.setdefault(e["owner"], []).append(e["buyer"])
    return state


@handles("soul_destroyed")
def _soul_destroyed(state: State, e: SoulDestroyed) -> State:
    soul = state.soul(e["soul"])
    soul.holder = None
    soul.destroyed = e["how"]
    _close_auction(state, soul.key)
    victim = e.get("victim")
    if e["how"] == "smashed" and victim:
        seat = state.seat(victim)
        seat.dead = True
        seat.seated = False
    if e["how"] == "consumed":
        state.consumed_points.append({"person": e["holder"], "arcanum": e["arcanum"],
                                      "soul": soul.key})
    return state


@handles("soul_given")
def _soul_given(state: State, e: SoulGiven) -> State:
    state.soul(e["soul"]).holder = e["to"]
    _close_auction(state, e["soul"])
    return state


@handles("charges_given")
def _charges_given(state: State, e: ChargesGiven) -> State:
    state.charges[e["from"]] -= e["n"]
    state.charges[e["to"]] = state.charges.get(e["to"], 0) + e["n"]
    return state


@handles("power_accessed")
def _power_accessed(state: State, e: PowerAccessed) -> State:
    from referee.evening.powers import effects

    hand = _hand(state)
    effects.grant(hand.forfeited, state.powers, e, hand.no, hand.showing, hand.shift)
    effects.on_access(hand, e)  # R38: slid for an answer
    return state


@handles("power_used")
def _power_used(state: State, e: PowerUsed) -> State:
    from referee.evening.powers import effects

    return effects.apply_power(state, e)


# -- the ceremony and the next evening (R40-R42): ``referee.evening.roster`` --------------------


@handles("evening_continued")
def _continued(state: State, e: EveningContinued) -> State:
    return roster.fold_continued(_created(state, e), e)


HANDLERS["evening_ended"] = roster.fold_ended
HANDLERS["claim_decided"] = roster.fold_claim
HANDLERS["ceremony_closed"] = roster.fold_closed


STREAM: StreamSpec[State, EveningEvent] = StreamSpec(
    name="evening", empty=State, apply=apply, dump=dump, load=load, read=events.read,
    copy=copy)
