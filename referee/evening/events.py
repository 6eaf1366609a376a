"""The events of the Fool's Errand evening: one TypedDict per kind, the only things ever stored.

The store keeps events as plain JSON objects (``referee.streams.Event``); these records say
what each kind holds, so that a reader finds every field of, say, a showdown in one place.
``KINDS`` maps each ``kind`` to its record; ``tests/test_events.py`` checks that every event
the commands produce has exactly the fields its record names. Chips are counts by colour,
cards are short names (R2), times are seconds since the epoch. (No ``from __future__ import
annotations`` here: TypedDict reads ``NotRequired`` from the evaluated annotations.)
"""


from collections.abc import Mapping
from typing import Literal, NotRequired, Required, TypedDict, cast

from referee.errors import InvariantViolation
from referee.jsontypes import JSON as JSON  # the records' hints name it (typing.get_type_hints)
from referee.jsontypes import JSONObject

# A field that is a JSON object is written ``dict[str, JSON]``, which is what ``JSONObject``
# means: the alias is a string, which TypedDict would compile each time this module is imported.

Chips = dict[str, int]


class SeatRecord(TypedDict):
    """A seat as the evening opens it, from the Fool's left (R9)."""

    name: str
    arcanum: int
    colour: str
    assistant: str | None
    assistant_arcanum: int | None


class SoulRecord(TypedDict):
    """A soul as the evening opens with it (R19): bottled (the scenario's) or a stakeholder's."""

    key: str
    kind: str                        # bottled or own
    holder: str | None
    arcanum: int
    identity: str
    owner: NotRequired[str | None]
    destroyed: NotRequired[str | None]
    aliases: NotRequired[list[str]]


class PowerSpec(TypedDict):
    """A power of the evening's set (R26, S1-S10), as the scenario's content copies it in."""

    key: str                         # "XIII-reversed"
    card: int
    orientation: str                 # upright or reversed
    name: str
    charges: int
    when: str
    text: str
    magic: bool
    timing: str                      # own_turn, before_turn, answer_bet ... (S11)
    effect: dict[str, JSON]          # kind and its parameters (power_vocab), free-form


class ScenarioContent(TypedDict, total=False):
    """The scenario's content as ``evening_created`` copies it in (E14), so that the file
    stands alone (``referee.evening.souls.setup_from_scenario``); empty for an evening opened
    with no scenario."""

    name: str
    source: str                      # the file it was read from
    clues: dict[str, dict[str, list[str]]]  # soul label -> clue sheet number -> its clues
    powers: list[PowerSpec]


class EveningCreated(TypedDict):
    kind: Literal["evening_created"]
    fool: str
    time: float
    seats: list[SeatRecord]
    settings: dict[str, JSON]        # options by name (r11_own_colour_first): an open table
    scenario: ScenarioContent        # the scenario's content, copied in (E14)
    souls: list[SoulRecord]


class PhaseOpened(TypedDict):
    kind: Literal["phase_opened"]
    time: float


class ClockStopped(TypedDict):
    """The evening's clock stands still (R47): a pause until `room resume`, or a break that
    ends by itself at ``until``."""

    kind: Literal["clock_stopped"]
    time: float
    why: str                         # pause or break
    until: float | None              # a break's end; None: a pause, until `room resume`
    minutes: NotRequired[int]        # a break's length as the GM gave it


class ClockResumed(TypedDict):
    """The evening's clock runs again (R47): `room resume`, or a hand dealt (E200)."""

    kind: Literal["clock_resumed"]
    time: float


class HandStarted(TypedDict):
    kind: Literal["hand_started"]
    no: int
    order: list[str]                 # seat order from the Fool's left, the Fool last
    antes: dict[str, Chips]          # R13: dead money (R15)
    phase: str
    time: float


class CardsShown(TypedDict):
    kind: Literal["cards_shown"]
    name: str
    cards: list[str]                 # every up card so far (E25)


class CardsFixed(TypedDict):
    kind: Literal["cards_fixed"]
    name: str
    old: str
    new: str
    cards: list[str]
    openers: list[JSONObject]        # rounds whose opener the correction would change (E25)


class Action(TypedDict):
    kind: Literal["action"]
    name: str
    action: str                      # bet, raise, call, check, fold
    chips: Chips
    all_in: bool
    auto: bool                       # the Fool's forced move, played by the console (R15)
    why: NotRequired[str]
    power: NotRequired[str]          # made by a power (Iron Rule, Standstill ...)


class BestHand(TypedDict):
    category: str
    cards: list[str]                 # the five that count, best first
    duet: list[int] | None           # the Duet's ranks (R3)


class ShowdownPot(TypedDict):
    name: str                        # main pot, side pot 1 ...
    chips: Chips
    eligible: list[str]
    winners: list[str]
    shares: dict[str, Chips]
    why: str


class Showdown(TypedDict):
    kind: Literal["showdown"]
    hands: dict[str, list[str]]
    best: dict[str, BestHand]
    leaders: NotRequired[list[str]]
    returned: dict[str, Chips]       # uncalled bets (R15), never an ante
    pots: list[ShowdownPot]
    magic: bool
    time: NotRequired[float]
    keep: NotRequired[dict[str, int]]
    sides: NotRequired[dict[str, int]]


#: ``"from"`` is a keyword in Python: the records that move something are written this way.
ChipsGiven = TypedDict("ChipsGiven", {
    "kind": Literal["chips_given"], "from": str, "to": str, "chips": Chips,
    "ruling": NotRequired[str],      # `chips settle --why` (E24)
})


#: What the GM counted (E130): holder -> {colour: n}, or holder -> a total.
Counted = dict[str, dict[str, int] | int]


class Difference(TypedDict):
    """Where a count and the books differ (E130), and the commands that last touched it
    (E131)."""

    holder: str
    colour: str | None               # None: a total
    counted: int
    books: int
    moves: NotRequired[list[str]]


class ChipsCounted(TypedDict):
    kind: Literal["chips_counted"]
    counted: Counted                 # holder -> {colour: n}, or a total (E130)
    books: dict[str, Chips]          # what the books said at that moment, by colour
    differences: list[Difference]


class Replayed(TypedDict):
    """A command as an amendment replayed it (E138)."""

    cmd: int                         # its number, as it was
    text: str
    events: list[JSONObject]         # its events, as stored


class Rippled(TypedDict):
    """An outcome an amendment changes (E138, ``referee.evening.ripple``)."""

    what: str                        # "opener of hand 1 round 2", "status points of Ada" ...
    before: str | int | list[str] | None
    after: str | int | list[str] | None


class Replaced(TypedDict):
    """A command an amendment replaced (E140)."""

    cmd: int
    old: str
    new: str


class Dropped(TypedDict):
    """A command an amendment dropped (E140)."""

    cmd: int
    text: str


class CommandAmended(TypedDict):
    kind: Literal["command_amended"]
    cmd: int                         # the command replaced (E138)
    old: str                         # its text as it was
    new: str                         # the text it is now
    replayed: list[Replayed]         # each later command: cmd (as it was), text, events
    ripple: list[Rippled]            # what, before, after: every outcome that changed
    state: dict[str, JSON]           # the evening as the replay left it
    changed: NotRequired[list[Replaced]]  # every command replaced: cmd, old, new (E140)
    dropped: NotRequired[list[Dropped]]   # every command dropped: cmd, text (E140)


class SeatChanged(TypedDict):
    kind: Literal["seat_changed"]
    name: str
    seated: NotRequired[bool]
    resigned: NotRequired[bool]


class SettingsChanged(TypedDict):
    kind: Literal["settings_changed"]
    settings: dict[str, JSON]


class SoulStudied(TypedDict):
    kind: Literal["soul_studied"]
    assistant: str
    soul: str
    clue: str
    n: int
    of: int


class Guess(TypedDict):
    """A guess as the evening keeps it (``State.guesses``) and carries it on (R41)."""

    assistant: str
    side: str
    soul: str
    name: str | None
    arcanum: str | None
    result: dict[str, str | None]
    charges: int


class SoulGuessed(Guess):
    """A guess as it is made (R24): the guess, and the guesses left for that soul."""

    kind: Literal["soul_guessed"]
    left: int


class AuctionOpened(TypedDict):
    kind: Literal["auction_opened"]
    seller: str
    soul: str
    holder: str


class AuctionBid(TypedDict):
    kind: Literal["auction_bid"]
    soul: str
    buyer: str
    chips: Chips
    promise: str


class AuctionClosed(TypedDict):
    kind: Literal["auction_closed"]
    seller: str
    soul: str
    how: str


class SoulSold(TypedDict):
    kind: Literal["soul_sold"]
    seller: str
    buyer: str
    soul: str
    chips: Chips
    promise: str
    holder: NotRequired[str]         # the assistant holding it for the seller (R21)


class SoulTraded(TypedDict):
    kind: Literal["soul_traded"]
    seller: str
    buyer: str
    soul: str
    payers: dict[str, int]
    colour: str
    count: int
    how: str                         # force-trade or buyout (R21)


class BuyoutDeclined(TypedDict):
    kind: Literal["buyout_declined"]
    buyer: str
    owner: str


class SoulDestroyed(TypedDict):
    kind: Literal["soul_destroyed"]
    soul: str
    how: str                         # smashed or consumed
    holder: str
    victim: str | None
    arcanum: NotRequired[int]


SoulGiven = TypedDict("SoulGiven", {"kind": Literal["soul_given"], "from": str, "to": str,
                                     "soul": str})

ChargesGiven = TypedDict("ChargesGiven", {"kind": Literal["charges_given"], "from": str,
                                          "to": str, "n": int})


class PowerAccessed(TypedDict):
    kind: Literal["power_accessed"]
    name: str
    card: str
    rank: int
    orientation: str
    power: str
    granted: bool
    depleted: bool


#: A power's use: the fields every use has, then each effect's own (its kind, declared in
#: ``referee.evening.powers.kinds``, writes and folds them). ``"as"`` is a keyword.
PowerUsed = TypedDict("PowerUsed", {
    "kind": Required[Literal["power_used"]],
    "name": Required[str],
    "power": Required[str],
    "charges": Required[int],
    "title": str,
    "hand": int | None,
    "timing": str,
    "effect": str,
    "summary": str,
    "surcharge": int,                # the extra Charges a Toll laid on the user (S26)
    "opener": str | None,            # the turn the use began fixes the round's opener (E3)
    "seed": int,                     # lose_power: the draw of the power lost (S24)
    "target": str | None,
    "paid": dict[str, Chips],        # toll: what each payer put in
    "folded": list[str],             # toll: who folded rather than pay
    "passed": bool,                  # skip: the turn passed with a check
    "action": str,                   # force: the move forced
    "amount": int,                   # force: the chips of the bet or raise forced (E163)
    "street": int,                   # the round a round-long effect binds
    "who": str,                      # opener: self or lowest
    "card": str,
    "new": str,
    "owner": str,                    # replace_up: whose up card is replaced
    "up": bool,                      # discard: whether the card was showing
    "revealed": list[list[str]],     # reveal: [owner, card] pairs
    "as": str,                       # counts_as: what the card counts as
    "needs": list[str],              # counts_as: the other cards it names (E56)
    "suit": str,                     # counts_as, same_rank: the second card's suit
    "cancels": str,                  # cancel: the power cancelled
    "lost": str,                     # lose_power: the power lost
    "n": int,                        # surcharge: Charges added
    "assistant": str,                # bar: the assistant barred
    "cards": list[str],              # protect: the cards held fast
    "forgets": dict[str, list[str]],  # private, unseen: hooded cards that may have moved (E251)
}, total=False)


# -- the ceremony and the next evening (R40-R43): ``referee.evening.ceremony`` and ``carry`` ----


class EveningEnded(TypedDict):
    kind: Literal["evening_ended"]
    time: float                      # the Fool declares the end (R40, E100)


class ClaimDecided(TypedDict):
    kind: Literal["claim_decided"]
    person: str
    arcanum: int
    how: str                         # promote, switch or decline (R40)
    points: int                      # the claimant's points in the Arcanum at the end (R28)
    occupant: str | None             # who held it as the roster then stood
    occupant_points: int | None
    left: NotRequired[int]           # switch: the Arcanum the member leaves vacant


class Unheard(TypedDict):
    """A claim that would have succeeded and was not made (R40)."""

    person: str
    arcanum: str                     # its numeral
    points: int


class CeremonyClosed(TypedDict):
    kind: Literal["ceremony_closed"]
    time: float
    roster: dict[str, str]           # Arcanum numeral -> member: the evening's last record
    left: list[str]                  # members who left the Major Arcana in this ceremony
    unheard: list[Unheard]


class PreviousEvening(TypedDict):
    """The last evening as the next one links to it (R43)."""

    file: str                        # its file's name, looked for beside this one (E114)
    digest: str                      # the head of its hash chain at the end
    created: float
    events: int


class EveningContinued(TypedDict):
    """The first event of an evening started from the last one (R41, R42): an
    ``evening_created`` with what carries, and the last evening's final digest (R43)."""

    kind: Literal["evening_continued"]
    fool: str
    time: float
    seats: list[SeatRecord]
    settings: dict[str, JSON]
    scenario: ScenarioContent        # the new scenario, plus the clue sheets of carried souls
    souls: list[SoulRecord]          # every soul not destroyed, where it ended, and the new ones
    previous: PreviousEvening
    evening: int                     # its number in the chain, the first being 1
    roster: dict[str, str]           # Arcanum numeral -> member, as the last ceremony left it
    absent: list[str]                # members and assistants of the last evening not here
    dead: list[str]                  # everyone dead in the season so far (R22)
    studies: dict[str, dict[str, int]]
    guesses: list[Guess]
    sheets: dict[str, dict[str, int]]  # assistant -> soul -> clue sheet number (E107)
    seen: list[str]                  # every bottled soul's label in the season so far


#: Every event of the evening's stream: what the fold reads and what the commands build.
#: A new kind is a record above, a member here and an entry in ``KINDS``.
EveningEvent = (
    EveningCreated | PhaseOpened | HandStarted | CardsShown | CardsFixed | Action | Showdown
    | ChipsGiven | ChipsCounted | CommandAmended | SeatChanged | SettingsChanged | SoulStudied
    | SoulGuessed | AuctionOpened | AuctionBid | AuctionClosed | SoulSold | SoulTraded
    | BuyoutDeclined | SoulDestroyed | SoulGiven | ChargesGiven | PowerAccessed | PowerUsed
    | EveningEnded | ClaimDecided | CeremonyClosed | EveningContinued | ClockStopped
    | ClockResumed
)

KINDS: dict[str, type] = {
    "evening_created": EveningCreated, "phase_opened": PhaseOpened,
    "hand_started": HandStarted, "cards_shown": CardsShown, "cards_fixed": CardsFixed,
    "action": Action, "showdown": Showdown, "chips_given": ChipsGiven,
    "chips_counted": ChipsCounted, "command_amended": CommandAmended,
    "seat_changed": SeatChanged, "settings_changed": SettingsChanged,
    "soul_studied": SoulStudied, "soul_guessed": SoulGuessed,
    "auction_opened": AuctionOpened, "auction_bid": AuctionBid,
    "auction_closed": AuctionClosed, "soul_sold": SoulSold, "soul_traded": SoulTraded,
    "buyout_declined": BuyoutDeclined, "soul_destroyed": SoulDestroyed,
    "soul_given": SoulGiven, "charges_given": ChargesGiven,
    "power_accessed": PowerAccessed, "power_used": PowerUsed,
    "evening_ended": EveningEnded, "claim_decided": ClaimDecided,
    "ceremony_closed": CeremonyClosed, "evening_continued": EveningContinued,
    "clock_stopped": ClockStopped, "clock_resumed": ClockResumed,
}


def fields(kind: str) -> tuple[frozenset[str], frozenset[str]]:
    """The required and the allowed fields of an event of ``kind``."""
    record = KINDS[kind]
    required = frozenset(record.__required_keys__)  # type: ignore[attr-defined]
    return required, required | record.__optional_keys__  # type: ignore[attr-defined]


_REQUIRED = {kind: fields(kind)[0] for kind in KINDS}


def read(raw: Mapping[str, JSON]) -> EveningEvent:
    """A stored event as its record: the door where JSON becomes an ``EveningEvent``. Checks
    the kind and the required fields (what the fold reads without asking); a failure is damage
    or a bug, never the GM's mistake.

    >>> read({"kind": "phase_opened", "time": 0.0})["kind"]
    'phase_opened'
    """
    required = _REQUIRED.get(raw.get("kind"))  # type: ignore[arg-type]
    if required is None:
        raise InvariantViolation(f"unknown event kind {raw.get('kind')!r}")
    if not required <= raw.keys():
        raise InvariantViolation(f"a {raw['kind']} event without "
                                 f"{', '.join(sorted(required - raw.keys()))}")
    return cast(EveningEvent, raw)
