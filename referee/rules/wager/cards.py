"""Weir's Wager cards (R32): the Elixirs, what each rules, the 42 faces.

>>> parse_wcard("~5C").label, parse_wcard("Cups of Five").label, parse_wcard("Five of Cups").label
('~5C', '~5C', '5C')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from referee.errors import BadInput, UnknownCard, UnknownName
from referee.names import match_name, nearest
from referee.rules.cards import MAJOR_NAMES, Card, Suit, parse_card, to_roman

# -- the deck (R32) ------------------------------------------------------------------------------


class Elixir(StrEnum):
    """The seven Elixirs, in the seed's order."""

    RELAX = "Relax"
    CALM = "Calm"
    REST = "Rest"
    HEAL = "Heal"
    RELIEF = "Relief"
    SOOTHE = "Soothe"
    REPOSE = "Repose"


ELIXIRS: tuple[Elixir, ...] = tuple(Elixir)
#: The five majors of the Weir's Wager deck (R32): Fool, High Priestess, Hermit, Hanged Man, Star.
WAGER_MAJORS: tuple[int, ...] = (0, 2, 9, 12, 17)
PRINCE, THOTH = "Prince", "Thoth"
#: The 21 faces that come plain and mirrored (R32): Cups by short notation, majors by numeral.
FACES: tuple[str, ...] = (
    *(Card(Suit.CUPS, r).short for r in range(1, 15)),
    *(to_roman(n) for n in WAGER_MAJORS),
    PRINCE,
    THOTH,
)
_CUPS_RANK = {Card(Suit.CUPS, r).short: r for r in range(1, 15)}
_FACE_NAMES = {
    **{Card(Suit.CUPS, r).short: Card(Suit.CUPS, r).name for r in range(1, 15)},
    **{to_roman(n): MAJOR_NAMES[n] for n in WAGER_MAJORS},
    PRINCE: "The Prince",
    THOTH: "The Book of Thoth",
}


@dataclass(frozen=True)
class Rule:
    """What an Elixir rules (seed, Elixir list; W1)."""

    shape: str  # "ascending" | "descending" | "mirror": which runs or pairs count
    favours: str  # "arcana" (Arcana to Cups) | "cups" (Cups to Arcana) | "all"
    partner: str  # the face that makes a set under this Elixir (R33)

    def describe(self) -> str:
        towards = {"arcana": "Arcana to Cups", "cups": "Cups to Arcana", "all": "All"}
        return f"{self.shape.capitalize()} ({towards[self.favours]})"


RULES: dict[Elixir, Rule] = {
    Elixir.RELAX: Rule("ascending", "arcana", "0"),
    Elixir.CALM: Rule("ascending", "cups", "II"),
    Elixir.REST: Rule("descending", "arcana", "IX"),
    Elixir.HEAL: Rule("descending", "cups", "XII"),
    Elixir.RELIEF: Rule("mirror", "all", "XVII"),
    Elixir.SOOTHE: Rule("mirror", "arcana", PRINCE),
    Elixir.REPOSE: Rule("mirror", "cups", THOTH),
}


@dataclass(frozen=True, order=True)
class WCard:
    """A Weir's Wager card: one of the 21 faces, plain or mirrored, or an Elixir."""

    face: str
    mirror: bool = False

    @property
    def is_elixir(self) -> bool:
        return self.face in _ELIXIR_FACES

    @property
    def is_cups(self) -> bool:
        return self.face in _CUPS_RANK

    @property
    def cups_rank(self) -> int | None:
        return _CUPS_RANK.get(self.face)

    @property
    def label(self) -> str:
        """Short form: ``5C``, ``~5C``, ``XVII``, ``~Prince``, ``Relax``."""
        return ("~" if self.mirror else "") + self.face

    @property
    def name(self) -> str:
        """``Five of Cups (mirrored)``, ``The Hermit``, ``the Relax Elixir``."""
        if self.is_elixir:
            return f"the {self.face} Elixir"
        return _FACE_NAMES[self.face] + (" (mirrored)" if self.mirror else "")

    def __str__(self) -> str:
        return self.label


_ELIXIR_FACES = frozenset(e.value for e in Elixir)
#: The 42 face cards of R32 (each face plain and mirrored); Elixirs come apart.
WAGER_DECK: tuple[WCard, ...] = tuple(WCard(f, m) for f in FACES for m in (False, True))

_ALIASES: dict[str, str] = {
    **{e.value.lower(): e.value for e in Elixir},
    "prince": PRINCE, "the prince": PRINCE,
    "thoth": THOTH, "book of thoth": THOTH, "the book of thoth": THOTH, "book": THOTH,
}
#: Names a unique prefix of which is enough (W9).
_PREFIXED: dict[str, str] = {
    **{e.value.lower(): e.value for e in Elixir},
    "prince": PRINCE, "thoth": THOTH, "book of thoth": THOTH,
    "fool": "0", "high priestess": "II", "hermit": "IX", "hanged man": "XII", "star": "XVII",
}
_HINT = ("Cups like 5C or KnC; 0 II IX XII XVII or their names; Prince; Thoth; an Elixir by "
         "name; ~ before or after a card for its mirror image")


def parse_wcard(text: str) -> WCard:
    """One Weir's Wager card: Cups and majors in the shared notation, ``Prince``, ``Thoth``,
    an Elixir by name; a leading ``~`` is the mirror image (``~5C``, ``~Prince``), and so is a
    trailing one (``0~``), which the shell leaves alone (R32, W9); and so is a name with
    its words reversed, as the seed writes mirror images (``Cups of Five``, ``Prince the``;
    W12). More than one ``~`` is refused.

    >>> parse_wcard("~kc"), parse_wcard("hermit").label, parse_wcard("rela").label
    (WCard(face='KC', mirror=True), 'IX', 'Relax')
    >>> parse_wcard("0~").label
    '~0'

    Raises:
        UnknownCard: no such card in the Weir's Wager deck, with the nearest spellings.
        BadInput: a mirrored Elixir, or a mirror name with a ``~`` as well.
    """
    raw = " ".join(text.split())
    if raw.startswith("/"):
        raise UnknownCard(f"{raw!r} is a path, not a card: the shell expands ~0 ... ~9 before the "
                          "referee sees them; quote the card ('~0') or write the ~ after it (0~)",
                          ruling="R32")
    tildes = raw.count("~")
    mirror = tildes == 1 and (raw.startswith("~") or raw.endswith("~"))
    if tildes and not mirror:
        bare = raw.replace("~", "").strip()
        raise UnknownCard(f"{raw!r}: one ~ marks a mirror image, before or after the card "
                          f"(~{bare} or {bare}~), and a card has one mirror image (W12)",
                          ruling="W12")
    body = raw.strip("~").strip() if mirror else raw
    face = _ALIASES.get(body.lower())
    if face is None:
        face = _face_from_tarot(body)
    if face is None:
        reversed_face = _face_by_mirror_name(body)
        if reversed_face is not None:
            if mirror:
                raise BadInput(f"{raw!r} is mirrored twice: {body!r} already names the mirror "
                               f"image of {reversed_face}; write ~{reversed_face} or {body!r} "
                               "(W12)", ruling="W12")
            return WCard(reversed_face, True)
        face = _face_from_prefix(body)
    if face in _ELIXIR_FACES and mirror:
        raise BadInput(f"{raw!r}: an Elixir has no mirror image; write {face}", ruling="R32")
    return WCard(face, mirror)


def _face_by_mirror_name(body: str) -> str | None:
    """The face whose name, words reversed, is ``body``: the seed's mirror names (W12).

    >>> _face_by_mirror_name("Cups of Five"), _face_by_mirror_name("Prince the")
    ('5C', 'Prince')
    """
    words = body.split()
    if len(words) < 2:
        return None
    name = " ".join(reversed(words))
    face = _ALIASES.get(name.lower())
    if face is None:
        try:
            face = _face_from_tarot(name)
        except UnknownCard:
            return None
    return None if face is None or face in _ELIXIR_FACES else face


def _face_from_tarot(body: str) -> str | None:
    try:
        card = parse_card(body)
    except UnknownCard:
        return None
    if card.suit is Suit.CUPS or (card.is_major and card.rank in WAGER_MAJORS):
        return card.short
    raise UnknownCard(
        f"{card.short} ({card.name}) is not in the Weir's Wager deck: it holds the 14 Cups, "
        f"0 The Fool, II The High Priestess, IX The Hermit, XII The Hanged Man, XVII The Star, "
        "the Prince and the Book of Thoth, each also mirrored, and the Elixirs", ruling="R32")


def _face_from_prefix(body: str) -> str:
    key = body.lower()
    hits = sorted({face for name, face in _PREFIXED.items() if len(key) >= 2
                   and name.startswith(key)})
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise UnknownCard(f"{body!r} is ambiguous: {', '.join(hits)}", ruling="R32")
    pool = [*FACES, *(e.value for e in Elixir), *(MAJOR_NAMES[n] for n in WAGER_MAJORS)]
    near = nearest(body, pool)
    hint = f"did you mean {', '.join(near)}? " if near else ""
    raise UnknownCard(f"unknown Weir's Wager card {body!r}; {hint}({_HINT})", ruling="R32")


def parse_elixir(text: str) -> Elixir:
    """An Elixir by name or unique prefix, any case.

    >>> parse_elixir("sooth")
    <Elixir.SOOTHE: 'Soothe'>

    Raises:
        UnknownName: no Elixir or more than one matches; lists the seven.
    """
    try:
        return Elixir(match_name(text, [e.value for e in Elixir], what="Elixir"))
    except UnknownName as exc:
        raise UnknownName(f"{exc} (Elixirs: {', '.join(ELIXIRS)})", ruling="R32") from None



def elixir_summary(elixir: Elixir) -> str:
    """What an Elixir rules, in one line.

    >>> elixir_summary(Elixir.RELAX)
    'Relax: Ascending (Arcana to Cups); set: Relax over 0 The Fool'
    >>> elixir_summary(Elixir.SOOTHE)
    'Soothe: Mirror (Arcana to Cups); set: Soothe over the Prince'
    """
    rule = RULES[elixir]
    partner = WCard(rule.partner)
    what = (partner.name.replace("The ", "the ", 1) if rule.partner in (PRINCE, THOTH)
            else f"{partner.label} {partner.name}")
    return f"{elixir.value}: {rule.describe()}; set: {elixir.value} over {what}"
