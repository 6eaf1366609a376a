"""The events of the Card of Fate stream: one TypedDict per kind, as the commands write them.

The store keeps events as plain JSON objects (``referee.streams.Event``); ``fold.read`` is the
one door where a stored event becomes a ``FateEvent``, and the commands (``characters``,
``actions``, ``duel``, ``dealer``, ``tables``) and the fold build and read these records.
``KINDS`` maps each ``kind`` to its record. Every event but ``tables_set``, ``deck_set``,
``char_created``, ``duel_set``, ``drawn`` and ``said`` names its character by ``char``. (No
``from __future__ import annotations`` here: TypedDict reads ``NotRequired`` from the
evaluated annotations.)
"""

from typing import Literal, TypedDict

from referee.jsontypes import JSON as JSON  # the records' hints name it (typing.get_type_hints)
from referee.rules.fate.cards import DeckKind
from referee.rules.fate.resolve import TallyJSON, Winner
from referee.rules.fate.sheet import Char, Duel, Usual


class TablesSet(TypedDict):
    kind: Literal["tables_set"]
    tables: dict[str, JSON]          # F19: the log carries its own tables


class DeckSet(TypedDict):
    kind: Literal["deck_set"]
    deck: DeckKind                   # R35 option


class CharCreated(TypedDict):
    kind: Literal["char_created"]
    char: Char                       # the whole sheet (F15)


class MeasureSet(TypedDict):
    kind: Literal["measure_set"]
    char: str
    measure: str                     # the first side of its pair
    value: int


class CreditSet(TypedDict):
    kind: Literal["credit_set"]
    char: str
    value: int


class TraitSet(TypedDict):
    kind: Literal["trait_set"]
    char: str
    trait: str
    bonus: int
    cost: int


class RepSet(TypedDict):
    kind: Literal["rep_set"]
    char: str
    rep: str
    value: int


class ItemSet(TypedDict):
    kind: Literal["item_set"]
    char: str
    item: str
    value: int


class ExpAdded(TypedDict):
    kind: Literal["exp_added"]
    char: str
    exp: str
    measure: str                     # the side it adds to


class EntryDropped(TypedDict):
    kind: Literal["entry_dropped"]
    char: str
    section: str                     # traits, reps, items or exps
    name: str


class PlayerSet(TypedDict):
    kind: Literal["player_set"]
    char: str
    player: str | None


class UsualSet(Usual):
    """The usual weapon and fighting Traits (F24): ``weapon`` and ``traits``, as ``Usual``."""

    kind: Literal["usual_set"]
    char: str


class AreaSet(TypedDict):
    kind: Literal["area_set"]
    char: str
    area: str                        # Health or a Reputation
    state: str                       # its R37 state


class NextModSet(TypedDict):
    kind: Literal["next_mod_set"]
    char: str
    value: int


class HealBonusSet(TypedDict):
    kind: Literal["heal_bonus_set"]
    char: str
    area: str
    value: int                       # 0 drops the bonus


class ExpSpent(TypedDict):
    kind: Literal["exp_spent"]
    char: str
    exp: str


class ChecksSet(TypedDict):
    kind: Literal["checks_set"]
    char: str
    measure: str
    value: int                       # 0 drops the checks


class InfectionSet(TypedDict):
    kind: Literal["infection_set"]
    char: str
    value: bool


class NoteAdded(TypedDict):
    kind: Literal["note_added"]
    char: str
    note: str


class DuelSet(TypedDict):
    kind: Literal["duel_set"]
    duel: Duel                       # the duel as it now stands (F6-F11)


class DrawnDetail(TypedDict, total=False):
    """What a draw records beyond its deck and seed: a test between two (``test``, ``fight``,
    ``duel-fire``, ``duel-round``) has a resolved test (``resolve.ResultJSON``: ``cof``, ``a``,
    ``b``, ``winner``, ``why``) and ``chars``; a character's Measure test (``gate``, ``heal``,
    ``grow``, ``calm``) has ``cof``, ``cards``, ``char``, what it tested and ``passed``."""

    cof: str
    a: TallyJSON
    b: TallyJSON
    winner: Winner
    why: str
    chars: list[str | None]          # the two sides' characters, None for a bare pool
    cards: list[str]
    char: str
    area: str                        # gate, heal: the area tested
    measure: str                     # grow: the Measure tested
    act: str                         # calm: the act the test was for
    passed: bool


class Drawn(DrawnDetail):
    """A test's cards, kept in the log for the record (``dealer.drawn_event``)."""

    kind: Literal["drawn"]
    what: str                        # test, fight, gate, heal, grow, calm, duel-fire ...
    deck: DeckKind
    seed: int | None                 # the seed shown, None for cards typed in (F20)


class Said(TypedDict):
    kind: Literal["said"]
    lines: list[str]                 # what the Host read for the command (F21)


#: Every event of the Card of Fate stream. A new kind is a record above, a member here, an
#: entry in ``KINDS`` and a handler in ``fold``.
FateEvent = (
    TablesSet | DeckSet | CharCreated | MeasureSet | CreditSet | TraitSet | RepSet | ItemSet
    | ExpAdded | EntryDropped | PlayerSet | UsualSet | AreaSet | NextModSet | HealBonusSet
    | ExpSpent | ChecksSet | InfectionSet | NoteAdded | DuelSet | Drawn | Said
)

#: The events that name a character by ``char`` (``fold._char`` finds it).
CharEvent = (
    MeasureSet | CreditSet | TraitSet | RepSet | ItemSet | ExpAdded | EntryDropped | PlayerSet
    | UsualSet | AreaSet | NextModSet | HealBonusSet | ExpSpent | ChecksSet | InfectionSet
    | NoteAdded
)

KINDS: dict[str, type] = {
    "tables_set": TablesSet, "deck_set": DeckSet, "char_created": CharCreated,
    "measure_set": MeasureSet, "credit_set": CreditSet, "trait_set": TraitSet,
    "rep_set": RepSet, "item_set": ItemSet, "exp_added": ExpAdded,
    "entry_dropped": EntryDropped, "player_set": PlayerSet, "usual_set": UsualSet,
    "area_set": AreaSet, "next_mod_set": NextModSet, "heal_bonus_set": HealBonusSet,
    "exp_spent": ExpSpent, "checks_set": ChecksSet, "infection_set": InfectionSet,
    "note_added": NoteAdded, "duel_set": DuelSet, "drawn": Drawn, "said": Said,
}
