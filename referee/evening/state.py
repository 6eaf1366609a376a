"""The Fool's Errand evening as data: ``State = fold(events)``.

The state is plain data (JSON-able dataclasses) so the store can snapshot it.
``folds.apply`` folds one event in and checks the invariants after it (R10 chip
conservation, no negative counts, one holder per soul, Charges never negative,
each power given out once); a violation is a bug and raises loudly.

No ``from __future__ import annotations`` here: the annotations are evaluated as the classes
are built, so each TypedDict field is a type at once rather than a string that ``typing``
compiles into a ``ForwardRef`` at import (about eighty compiles, a few ms on every command).
"""

from dataclasses import dataclass, field
from typing import Any, Generic, NotRequired, TypedDict, TypeVar

from referee.errors import IllegalAction, InvariantViolation
from referee.evening.events import (
    BestHand,
    Guess,
    PowerUsed,
    PreviousEvening,
    ScenarioContent,
    Unheard,
)
from referee.jsontypes import JSONObject
from referee.said import Suggest, said
from referee.streams import plain

CHIPS_PER_COLOUR = 10  # R10
CHIP_VALUE = 100_000   # dollars, R10 / seed "The Money"
POT = "pot"
#: ``bet NAME all`` / ``raise NAME all``: every chip the player holds (E27).
ALL = -1
#: How long an effect of a power binds (S17): until its target's next action, to the end of
#: the betting round (``street``), or to the end of the hand.
TURN, ROUND, HAND = "turn", "round", "hand"
TOLL, LATE = "toll_paid", "late_bet"  #: E262, E286: chips some live players cannot win


# -- the books the fold keeps: plain JSON records, so a snapshot is the state as it is ---------


class Opening(TypedDict):
    """A betting round's opening as it happened (for ``hand fix``, E25)."""

    street: int
    opener: str
    able: list[str]                       # who could bet when it opened


class Effect(TypedDict):
    """A power in force in the hand (S11-S30): what it does, for how long, to whom."""

    kind: str                             # no_bets, only, all_in, opener, dead, counts_as ...
    scope: str                            # turn, round or hand
    target: str | None                    # None: everyone (a round-long effect)
    power: str                            # the power's title
    by: str
    moves: NotRequired[list[str]]         # only: the moves left to the target
    amount: NotRequired[int]              # only: the chips of the bet or raise (E163)
    street: NotRequired[int]              # round: the round it binds
    who: NotRequired[str]                 # opener: self or lowest
    card: NotRequired[str]
    counts: NotRequired[str]              # counts_as: what the card counts as (E56)
    needs: NotRequired[list[str]]
    suit: NotRequired[str]
    chips: NotRequired[dict[str, int]]    # toll: the chips paid (E262)
    passed: NotRequired[list[str]]        # toll: the players passed over, who cannot win them


class Answerable(TypedDict):
    """The bet or power that a power may answer now (S15, R38), and the state before it."""

    kind: str                             # bet or power
    by: str
    action: NotRequired[str]
    power: NotRequired[str]
    via: NotRequired[str]                 # who slid a card for the answer (R38)
    event: NotRequired[PowerUsed]         # the power's use, as recorded
    before: dict[str, Any]                # the state before it (``dump``)
    bet_before: NotRequired[dict[str, Any]]  # E265: before the bet it came with (Iron Rule)


def answered(answer: Answerable | None, want: str) -> bool:
    """S15, R38: whether the last thing that happened is a ``want`` (a bet, or a power) that
    may be answered now: a bet made with a power in one act (Iron Rule) is both (E265)."""
    return answer is not None and (
        answer["kind"] == want or (want == "bet" and "bet_before" in answer))


class PowerHeld(TypedDict):
    """A power given out this evening (R26): who holds it and what became of it."""

    holder: str
    used: bool
    hand: int
    used_hand: NotRequired[int | None]
    cancelled: NotRequired[str]           # by which power (E57)
    lost: NotRequired[str]                # to which power (S24)


class Bid(TypedDict):
    buyer: str
    chips: dict[str, int]
    promise: str


class Auction(TypedDict):
    """The open auction of a soul (R20)."""

    seller: str
    soul: str
    holder: str
    bids: list[Bid]


class Consumed(TypedDict):
    person: str
    arcanum: int
    soul: str


class Bar(TypedDict):
    """An assistant barred by a power (S25) until a hand number."""

    power: str
    by: str
    side: str | None
    until: int


class Surcharge(TypedDict):
    power: str
    by: str
    n: int


class Exile(TypedDict):
    """A stakeholder exiled by a power (S27): from which hand, until which."""

    power: str
    by: str
    hand: int
    until: int


#: An Arcanum in a record: its number in the evening's state, its numeral where it is shown.
ArcanumT = TypeVar("ArcanumT", int, str)


class Decision(TypedDict, Generic[ArcanumT]):
    """A claim heard in the ceremony (R40), as the roster then stood: one record, kept with its
    Arcana as numbers (``Decision[int]``, the state's) and shown with them as numerals
    (``Decision[str]``, ``referee.evening.ceremony.summary``)."""

    person: str
    arcanum: ArcanumT
    how: str                              # promote, switch or decline
    points: int
    occupant: str | None
    occupant_points: int | None
    left: NotRequired[ArcanumT]           # switch: the Arcanum left vacant


class Ceremony(TypedDict):
    """The ceremony once the evening ended (R40, ``referee.evening.roster``)."""

    declared: bool                        # the Fool declared the end (E100), or R18 ended it
    ended_at: float | None
    start: dict[str, str]                 # Arcanum numeral -> member, as it began
    roster: dict[str, str]                # as it stands
    decisions: list[Decision[int]]
    taken: list[int]                      # Arcana won in it (E103)
    winners: list[str]                    # who won a claim in it (E103)
    closed: bool
    closed_at: float | None
    unheard: list[Unheard]
    left: NotRequired[list[str]]          # members who left the Major Arcana


class Season(TypedDict, total=False):
    """What an evening carried on from the last one brought in (R41-R43); empty for a first."""

    evening: int
    previous: PreviousEvening
    roster: dict[str, str]
    absent: list[str]
    dead: list[str]
    sheets: dict[str, dict[str, int]]     # assistant -> soul -> clue sheet (E107)
    seen: list[str]


class PotPlayed(TypedDict):
    """A pot of a hand played: its size in chips and who won it."""

    size: int
    winners: list[str]


class Changed(TypedDict):
    cmd: int
    new: str


class Amendment(TypedDict):
    """A command replaced by an amendment (E138), and what the replay did."""

    cmd: int
    old: str
    new: str
    replayed: list[int]                   # the commands after it, replayed on it
    changed: list[Changed]                # the commands it replaced: the one, or several
    dropped: list[int]                    # commands the replay could no longer take


class ClockStop(TypedDict):
    """The clock standing still (R47, ``referee.evening.clock``): since ``at``, until
    ``until`` for a break (it runs again by itself then), until `room resume` for a pause."""

    why: str                              # pause or break
    at: float
    until: float | None
    minutes: int | None                   # a break's length as the GM gave it


class HandPlayed(TypedDict):
    """One hand in the evening's history (E50)."""

    no: int
    phase: str
    pots: list[PotPlayed]
    best: dict[str, BestHand]
    keep: dict[str, int]
    contested: bool
    time: float
    sides: dict[str, int]


@dataclass
class Seat:
    """A stakeholder's seat, from the Fool's left (R9)."""

    name: str
    arcanum: int
    colour: str
    assistant: str | None = None
    assistant_arcanum: int | None = None
    seated: bool = True
    resigned: bool = False
    dead: bool = False


@dataclass
class Round:
    """One betting round of a hand (R12-R15)."""

    street: int = 1                       # 1, 2, 3: after four, six and seven cards
    bet: int = 0                          # highest total committed this round, in chips
    committed: dict[str, int] = field(default_factory=dict)
    raises: int = 0
    acted: list[str] = field(default_factory=list)  # acted since the last bet or raise
    actions: int = 0
    opener: str | None = None             # fixed by the round's first action
    last: str | None = None               # who acted last


@dataclass
class HandState:
    """The hand being played."""

    no: int
    phase: str
    order: list[str]                      # dealt in, seat order from the Fool's left, Fool last
    folded: list[str] = field(default_factory=list)
    showing: dict[str, list[str]] = field(default_factory=dict)
    contrib: dict[str, list[str]] = field(default_factory=dict)  # colours put in, in order
    round: Round = field(default_factory=Round)
    betting_over: bool = False
    forfeited: dict[str, list[str]] = field(default_factory=dict)  # cards given for powers
    started: float = 0.0
    antes: dict[str, int] = field(default_factory=dict)   # dead chips each put in: ante, tolls
    tolls: dict[str, int] = field(default_factory=dict)   # of those, tolls paid (S16, E280)
    #: Each round's opening as it happened: street, opener, who could bet (for ``hand fix``).
    openings: list[Opening] = field(default_factory=list)
    # Powers in force (S11-S30), folded from power_used events by referee.evening.powers.effects:
    # {kind, scope: turn|round|hand, target, power, by, ...}; the bet or power a power may
    # answer now; up cards gone face down (net, per player); cards discarded by powers.
    effects: list[Effect] = field(default_factory=list)
    answerable: Answerable | None = None
    shift: dict[str, int] = field(default_factory=dict)
    out: dict[str, list[str]] = field(default_factory=dict)
    #: Up cards a power turned face down (Hood the Lantern), per player: down cards now (E77).
    hooded: dict[str, list[str]] = field(default_factory=dict)
    #: Down cards a power turned face up (Daylight and the like), per player: dealt down (E273).
    turned_up: dict[str, list[str]] = field(default_factory=dict)

    @property
    def live(self) -> list[str]:
        return [p for p in self.order if p not in self.folded]


@dataclass
class Soul:
    """A soul (R19): bottled (scenario) or a stakeholder's own."""

    key: str                  # label for bottled souls, "<name>'s soul" for own souls
    kind: str                 # "bottled" | "own"
    holder: str | None
    arcanum: int              # attuned Arcanum (own soul: its owner's)
    identity: str             # the secret name (own soul: the owner)
    owner: str | None = None  # for own souls
    destroyed: str | None = None  # "smashed" | "consumed"
    aliases: list[str] = field(default_factory=list)


@dataclass
class State:
    """The whole evening."""

    started: bool = False
    fool: str = ""
    seats: list[Seat] = field(default_factory=list)
    chips: dict[str, dict[str, int]] = field(default_factory=dict)
    phase: str = "limit"
    open_pending: bool = False
    settings: JSONObject = field(default_factory=dict)
    created: float = 0.0
    first_hand_at: float | None = None
    # R47: seconds the clock stood still after the first hand, in stops now over, and the
    # stop the GM made last (a break past its end is over, though kept here until the next).
    stood: float = 0.0
    stop: ClockStop | None = None
    hands_played: int = 0
    hand: HandState | None = None
    history: list[HandPlayed] = field(default_factory=list)
    over: bool = False
    winner: str | None = None
    # Souls, clues, Charges, powers, status (R19-R28)
    scenario: ScenarioContent = field(default_factory=lambda: ScenarioContent())
    souls: list[Soul] = field(default_factory=list)
    studies: dict[str, dict[str, int]] = field(default_factory=dict)   # assistant -> soul -> n
    guesses: list[Guess] = field(default_factory=list)
    charges: dict[str, int] = field(default_factory=dict)              # stakeholder (side) -> n
    powers: dict[str, PowerHeld] = field(default_factory=dict)         # key -> who, what became
    consumed_points: list[Consumed] = field(default_factory=list)
    buyout_offers: dict[str, list[str]] = field(default_factory=dict)  # stakeholder -> holders
    auction: Auction | None = None
    # Powers reaching past the hand (S25-S27): assistant -> bar, stakeholder -> extra cost,
    # stakeholder -> exile.
    barred: dict[str, Bar] = field(default_factory=dict)
    surcharges: dict[str, list[Surcharge]] = field(default_factory=dict)
    exiles: dict[str, Exile] = field(default_factory=dict)
    # The season (R40-R43, ``referee.evening.roster``): what an evening carried on from the
    # last one brought in (empty for a first evening), and the ceremony once the evening ended.
    season: Season = field(default_factory=lambda: Season())
    ceremony: Ceremony | None = None
    #: Commands replaced by an amendment (E138).
    amendments: list[Amendment] = field(default_factory=list)

    # -- people -----------------------------------------------------------------------------

    def seat(self, name: str) -> Seat:
        for seat in self.seats:
            if seat.name == name:
                return seat
        raise KeyError(name)

    @property
    def stakeholders(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def assistants(self) -> list[str]:
        return [s.assistant for s in self.seats if s.assistant]

    @property
    def people(self) -> list[str]:
        out = [self.fool]
        for s in self.seats:
            out.append(s.name)
            if s.assistant:
                out.append(s.assistant)
        return out

    def side_of(self, name: str) -> str | None:
        """The stakeholder whose side ``name`` is on (themselves or their assistant)."""
        for s in self.seats:
            if name in (s.name, s.assistant):
                return s.name
        return None

    def colour_of(self, name: str) -> str | None:
        for s in self.seats:
            if s.name == name:
                return s.colour
        return None

    def colours(self) -> list[str]:
        return [s.colour for s in self.seats]

    @property
    def own_colour_first(self) -> bool:
        """R11, the house setting: a player pays in their own colour first."""
        return bool(self.settings.get("r11_own_colour_first", True))

    def holding(self, name: str) -> dict[str, int]:
        return self.chips.get(name, {})

    def stack(self, name: str) -> int:
        return sum(self.chips.get(name, {}).values())

    def side_chips(self, stakeholder: str) -> int:
        seat = self.seat(stakeholder)
        return self.stack(seat.name) + (self.stack(seat.assistant) if seat.assistant else 0)

    def soul(self, key: str) -> Soul:
        for soul in self.souls:
            if soul.key == key:
                return soul
        raise KeyError(key)


def require_evening(state: State) -> None:
    """Every evening command needs an evening in the file."""
    if not state.started:
        raise IllegalAction(said("no evening in this file yet; start one with ",
                                 Suggest(("new",), ("--fool", "NAME", "--seat",
                                                    "NAME:ARCANUM:COLOUR", "..."))))


# -- chips ------------------------------------------------------------------------------------


def move_chips(state: State, source: str, target: str, chips: dict[str, int]) -> None:
    """Move counted chips by colour; a shortfall is a bug (validated before)."""
    src = state.chips.setdefault(source, {})
    dst = state.chips.setdefault(target, {})
    for colour, n in chips.items():
        if n < 0 or src.get(colour, 0) < n:
            raise InvariantViolation(f"{source} cannot give {n} {colour}: holds {src}")
        src[colour] = src.get(colour, 0) - n
        dst[colour] = dst.get(colour, 0) + n
        if src[colour] == 0:
            del src[colour]


def check_invariants(state: State) -> None:
    """R10, R19, R25, R26 after every event; a failure is a bug. (Each is read in one pass:
    this runs after every event of every fold, so it is most of what replaying an evening
    costs.)"""
    if not state.started:
        return
    _check_chips(state)
    for soul in state.souls:
        if (soul.holder is None) == (soul.destroyed is None):
            raise InvariantViolation(f"R19: soul {soul.key} must have one holder or be destroyed")
    for side, n in state.charges.items():
        if n < 0:
            raise InvariantViolation(f"R25: {side} has {n} Charges")
    for key, power in state.powers.items():
        if power.get("used") and not power.get("holder"):
            raise InvariantViolation(f"R26: power {key} used without a holder")


def _check_chips(state: State) -> None:
    """R10: ten chips of each seat's colour, none negative, none of another colour; the pot
    holds what the hand's contributions say, and nothing between hands."""
    totals = dict.fromkeys([s.colour for s in state.seats], 0)
    unknown: set[str] = set()
    for holder, holding in state.chips.items():
        for colour, n in holding.items():
            if n < 0:
                raise InvariantViolation(f"R10: {holder} holds {n} {colour} chips")
            if colour in totals:
                totals[colour] += n
            else:
                unknown.add(colour)
    for colour, n in totals.items():
        if n != CHIPS_PER_COLOUR:
            raise InvariantViolation(f"R10: {n} {colour} chips, not 10")
    if unknown:
        raise InvariantViolation(f"R10: unknown chip colours {unknown}")
    pot = state.chips.get(POT)
    in_pot_now = sum(pot.values()) if pot else 0
    if state.hand is not None:
        in_pot = sum(len(c) for c in state.hand.contrib.values())
        if in_pot != in_pot_now:
            raise InvariantViolation(f"R10: pot holds {in_pot_now}, contributions {in_pot}")
    elif in_pot_now:
        raise InvariantViolation("R10: chips left in the pot between hands")


def dump(state: State) -> dict[str, Any]:
    """``state`` as plain JSON-able data, sharing nothing with it (``dataclasses.asdict`` does
    the same, at about six times the cost: it deep-copies every leaf)."""
    return plain(state)  # type: ignore[no-any-return]  # a dataclass made plain: a dict




def copy(state: State) -> State:
    """A deep copy of ``state`` for a command to fold its events on, leaving the evening's
    state as it was; field by field, with what the folds only ever replace shared (about a
    tenth of ``load(dump(state))``).

    Shared, never copied: strings, numbers and the records no fold changes in place once made
    (the scenario, the clock's stop, each hand in the history, a guess, a consumed point, a
    bar, an exile, a surcharge, the state an answer puts back: ``powers.effects.on_access``
    replaces it, and ``powers.effects`` restores from a copy of it). Everything a fold
    changes in place (the chips, the seats, the souls, the hand and its round, the powers
    given out, the auction, the ceremony, the season's clue sheets) is copied."""
    hand = state.hand
    auction, ceremony, season = state.auction, state.ceremony, state.season
    return State(
        started=state.started, fool=state.fool,
        seats=[Seat(s.name, s.arcanum, s.colour, s.assistant, s.assistant_arcanum, s.seated,
                    s.resigned, s.dead) for s in state.seats],
        chips={k: dict(v) for k, v in state.chips.items()},
        phase=state.phase, open_pending=state.open_pending, settings=dict(state.settings),
        created=state.created, first_hand_at=state.first_hand_at,
        stood=state.stood, stop=state.stop,  # a stop is replaced, never changed in place
        hands_played=state.hands_played, hand=None if hand is None else _copy_hand(hand),
        history=list(state.history), over=state.over, winner=state.winner,
        scenario=state.scenario,
        souls=[Soul(s.key, s.kind, s.holder, s.arcanum, s.identity, s.owner, s.destroyed,
                    list(s.aliases)) for s in state.souls],
        studies={k: dict(v) for k, v in state.studies.items()},
        guesses=list(state.guesses), charges=dict(state.charges),
        powers={k: PowerHeld(**v) for k, v in state.powers.items()},
        consumed_points=list(state.consumed_points),
        buyout_offers={k: list(v) for k, v in state.buyout_offers.items()},
        auction=None if auction is None else Auction(
            seller=auction["seller"], soul=auction["soul"], holder=auction["holder"],
            bids=list(auction["bids"])),
        barred=dict(state.barred),
        surcharges={k: list(v) for k, v in state.surcharges.items()},
        exiles=dict(state.exiles),
        season=_copy_season(season) if season else Season(),
        ceremony=None if ceremony is None else _copy_ceremony(ceremony),
        amendments=list(state.amendments),
    )


def _copy_hand(hand: HandState) -> HandState:
    r = hand.round
    answer = hand.answerable
    return HandState(
        no=hand.no, phase=hand.phase, order=list(hand.order), folded=list(hand.folded),
        showing={k: list(v) for k, v in hand.showing.items()},
        contrib={k: list(v) for k, v in hand.contrib.items()},
        round=Round(r.street, r.bet, dict(r.committed), r.raises, list(r.acted), r.actions,
                    r.opener, r.last),
        betting_over=hand.betting_over,
        forfeited={k: list(v) for k, v in hand.forfeited.items()},
        started=hand.started, antes=dict(hand.antes), tolls=dict(hand.tolls),
        openings=list(hand.openings),
        effects=list(hand.effects),
        answerable=None if answer is None else Answerable(**answer),
        shift=dict(hand.shift), out={k: list(v) for k, v in hand.out.items()},
        hooded={k: list(v) for k, v in hand.hooded.items()},
        turned_up={k: list(v) for k, v in hand.turned_up.items()},
    )


def _copy_season(season: Season) -> Season:
    out = Season(**season)
    if "sheets" in season:
        out["sheets"] = {k: dict(v) for k, v in season["sheets"].items()}
    if "absent" in season:
        out["absent"] = list(season["absent"])
    if "dead" in season:
        out["dead"] = list(season["dead"])
    if "seen" in season:
        out["seen"] = list(season["seen"])
    if "roster" in season:
        out["roster"] = dict(season["roster"])
    return out


def _copy_ceremony(ceremony: Ceremony) -> Ceremony:
    out = Ceremony(**ceremony)
    out["start"], out["roster"] = dict(ceremony["start"]), dict(ceremony["roster"])
    out["decisions"], out["taken"] = list(ceremony["decisions"]), list(ceremony["taken"])
    out["winners"], out["unheard"] = list(ceremony["winners"]), list(ceremony["unheard"])
    if "left" in ceremony:
        out["left"] = list(ceremony["left"])
    return out


def load(data: dict[str, Any]) -> State:
    data = dict(data)
    data["seats"] = [Seat(**s) for s in data.get("seats", [])]
    data["souls"] = [Soul(**s) for s in data.get("souls", [])]
    hand = data.get("hand")
    if hand is not None:
        hand = dict(hand)
        hand["round"] = Round(**hand["round"])
        data["hand"] = HandState(**hand)
    return State(**data)
