"""The events of the Fool's Errand evening: one TypedDict per kind, the only things ever stored.

The store keeps events as plain JSON objects (``referee.streams.Event``); these records say
what each kind holds, so that a reader finds every field of, say, a showdown in one place.
``KINDS`` maps each ``kind`` to its record; ``tests/test_events.py`` checks that every event
the commands produce has exactly the fields its record names. Chips are counts by colour,
cards are short names (R2), times are seconds since the epoch. (No ``from __future__ import
annotations`` here: TypedDict reads ``NotRequired`` from the evaluated annotations.)
"""


from typing import Any, NotRequired, Required, TypedDict

Chips = dict[str, int]


class EveningCreated(TypedDict):
    kind: str
    fool: str
    time: float
    seats: list[dict[str, Any]]      # name, arcanum, colour, assistant, assistant_arcanum
    settings: dict[str, Any]
    scenario: dict[str, Any]         # the scenario's content, copied in (E14)
    souls: list[dict[str, Any]]


class PhaseOpened(TypedDict):
    kind: str
    time: float


class HandStarted(TypedDict):
    kind: str
    no: int
    order: list[str]                 # seat order from the Fool's left, the Fool last
    antes: dict[str, Chips]          # R13: dead money (R15)
    phase: str
    time: float


class CardsShown(TypedDict):
    kind: str
    name: str
    cards: list[str]                 # every up card so far (E25)


class CardsFixed(TypedDict):
    kind: str
    name: str
    old: str
    new: str
    cards: list[str]
    openers: list[dict[str, Any]]    # rounds whose opener the correction would change (E25)


class Action(TypedDict):
    kind: str
    name: str
    action: str                      # bet, raise, call, check, fold
    chips: Chips
    all_in: bool
    auto: bool                       # the Fool's forced move, played by the console (R15)
    why: NotRequired[str]
    power: NotRequired[str]          # made by a power (Iron Rule, Standstill ...)


class Showdown(TypedDict):
    kind: str
    hands: dict[str, list[str]]
    best: dict[str, dict[str, Any]]
    leaders: NotRequired[list[str]]
    returned: dict[str, Chips]       # uncalled bets (R15), never an ante
    pots: list[dict[str, Any]]       # name, chips, eligible, winners, shares, why
    magic: bool
    time: NotRequired[float]
    keep: NotRequired[dict[str, int]]
    sides: NotRequired[dict[str, int]]


class ChipsGiven(TypedDict):
    kind: str
    to: str
    chips: Chips
    ruling: NotRequired[str]         # `chips settle --why` (E24)


class ChipsCounted(TypedDict):
    kind: str
    counted: dict[str, Any]          # holder -> {colour: n}, or a total (E130)
    books: dict[str, Chips]          # what the books said at that moment, by colour
    differences: list[dict[str, Any]]  # holder, colour (None: a total), counted, books, moves


class CommandAmended(TypedDict):
    kind: str
    cmd: int                         # the command replaced (E138)
    old: str                         # its text as it was
    new: str                         # the text it is now
    replayed: list[dict[str, Any]]   # each later command: cmd (as it was), text, events
    ripple: list[dict[str, Any]]     # what, before, after: every outcome that changed
    state: dict[str, Any]            # the evening as the replay left it
    changed: NotRequired[list[dict[str, Any]]]  # every command replaced: cmd, old, new (E140)
    dropped: NotRequired[list[dict[str, Any]]]  # every command dropped: cmd, text (E140)


class SeatChanged(TypedDict):
    kind: str
    name: str
    seated: NotRequired[bool]
    resigned: NotRequired[bool]


class SettingsChanged(TypedDict):
    kind: str
    settings: dict[str, Any]


class SoulStudied(TypedDict):
    kind: str
    assistant: str
    soul: str
    clue: str
    n: int
    of: int


class SoulGuessed(TypedDict):
    kind: str
    assistant: str
    side: str
    soul: str
    name: str | None
    arcanum: str | None
    result: dict[str, str | None]
    charges: int
    left: int


class AuctionOpened(TypedDict):
    kind: str
    seller: str
    soul: str
    holder: str


class AuctionBid(TypedDict):
    kind: str
    soul: str
    buyer: str
    chips: Chips
    promise: str


class AuctionClosed(TypedDict):
    kind: str
    seller: str
    soul: str
    how: str


class SoulSold(TypedDict):
    kind: str
    seller: str
    buyer: str
    soul: str
    chips: Chips
    promise: str
    holder: NotRequired[str]         # the assistant holding it for the seller (R21)


class SoulTraded(TypedDict):
    kind: str
    seller: str
    buyer: str
    soul: str
    payers: dict[str, int]
    colour: str
    count: int
    how: str                         # force-trade or buyout (R21)


class BuyoutDeclined(TypedDict):
    kind: str
    buyer: str
    owner: str


class SoulDestroyed(TypedDict):
    kind: str
    soul: str
    how: str                         # smashed or consumed
    holder: str
    victim: str | None
    arcanum: NotRequired[int]


class SoulGiven(TypedDict):
    kind: str
    to: str
    soul: str


class ChargesGiven(TypedDict):
    kind: str
    to: str
    n: int


class PowerAccessed(TypedDict):
    kind: str
    name: str
    card: str
    rank: int
    orientation: str
    power: str
    granted: bool
    depleted: bool


class PowerUsed(TypedDict, total=False):
    """The fields every use has; the effect's own (target, cards, seed ...) ride along."""

    kind: Required[str]
    name: Required[str]
    power: Required[str]
    charges: Required[int]
    title: str
    hand: int | None
    timing: str
    effect: str
    summary: str


# -- the ceremony and the next evening (R40-R43): ``referee.evening.ceremony`` and ``carry`` ----


class EveningEnded(TypedDict):
    kind: str
    time: float                      # the Fool declares the end (R40, E100)


class ClaimDecided(TypedDict):
    kind: str
    person: str
    arcanum: int
    how: str                         # promote, switch or decline (R40)
    points: int                      # the claimant's points in the Arcanum at the end (R28)
    occupant: str | None             # who held it as the roster then stood
    occupant_points: int | None
    left: NotRequired[int]           # switch: the Arcanum the member leaves vacant


class CeremonyClosed(TypedDict):
    kind: str
    time: float
    roster: dict[str, str]           # Arcanum numeral -> member: the evening's last record
    left: list[str]                  # members who left the Major Arcana in this ceremony
    unheard: list[dict[str, Any]]    # claims that would have succeeded and were not made


class EveningContinued(TypedDict):
    """The first event of an evening started from the last one (R41, R42): an
    ``evening_created`` with what carries, and the last evening's final digest (R43)."""

    kind: str
    fool: str
    time: float
    seats: list[dict[str, Any]]
    settings: dict[str, Any]
    scenario: dict[str, Any]         # the new scenario, plus the clue sheets of carried souls
    souls: list[dict[str, Any]]      # every soul not destroyed, where it ended, and the new ones
    previous: dict[str, Any]         # file, digest (its head hash), created, events, evening
    evening: int                     # its number in the chain, the first being 1
    roster: dict[str, str]           # Arcanum numeral -> member, as the last ceremony left it
    absent: list[str]                # members and assistants of the last evening not here
    dead: list[str]                  # everyone dead in the season so far (R22)
    studies: dict[str, dict[str, int]]
    guesses: list[dict[str, Any]]
    sheets: dict[str, dict[str, int]]  # assistant -> soul -> clue sheet number (E107)
    seen: list[str]                  # every bottled soul's label in the season so far


#: ``"from"`` is a keyword in Python: the records that move something name it here.
FROM = ("chips_given", "soul_given", "charges_given")

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
}


def fields(kind: str) -> tuple[frozenset[str], frozenset[str]]:
    """The required and the allowed fields of an event of ``kind``."""
    record = KINDS[kind]
    required = set(record.__required_keys__)  # type: ignore[attr-defined]
    allowed = required | set(record.__optional_keys__)  # type: ignore[attr-defined]
    if kind in FROM:
        required.add("from")
        allowed.add("from")
    return frozenset(required), frozenset(allowed)
