"""Weir's Wager: the deck, Elixirs, two-card hands, points and the race (R32-R34).

Pure: the only file this module reads is a points table, through ``load_points(path)``.
House decisions beyond the rulings carry ids ``W1``... and are written up in
``docs/rules.md``.

>>> table = load_points()
>>> rank(parse_wcard("5C"), parse_wcard("~6C"), Elixir.CALM, table).describe()
'mixed ascending run'
>>> rank(parse_wcard("relax"), parse_wcard("the fool"), Elixir.RELAX, table).kind
'set'
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from referee.errors import (
    BadInput,
    IllegalAction,
    InvariantViolation,
    ScenarioError,
    UnknownCard,
    UnknownName,
)
from referee.names import match_name, nearest
from referee.rules.cards import MAJOR_NAMES, Card, Suit, parse_card, to_roman
from referee.streams import Event, StreamSpec

TARGET = 999  # R34: first to 999 wins
ELIXIR_TURNS = 10  # R34 (option): the Elixir changes after this many turns
POINTS_FILE = "wager_points.toml"


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
    trailing one (``0~``), which the shell leaves alone (R32, W9).

    >>> parse_wcard("~kc"), parse_wcard("hermit").label, parse_wcard("rela").label
    (WCard(face='KC', mirror=True), 'IX', 'Relax')
    >>> parse_wcard("0~").label
    '~0'

    Raises:
        UnknownCard: no such card in the Weir's Wager deck, with the nearest spellings.
        BadInput: a mirrored Elixir.
    """
    raw = " ".join(text.split())
    if raw.startswith("/"):
        raise UnknownCard(f"{raw!r} is a path, not a card: the shell expands ~0 ... ~9 before the "
                          "referee sees them; quote the card ('~0') or write the ~ after it (0~)",
                          ruling="R32")
    mirror = raw.startswith("~") or raw.endswith("~")
    body = raw.strip("~").strip() if mirror else raw
    face = _ALIASES.get(body.lower())
    if face is None:
        face = _face_from_tarot(body)
    if face is None:
        face = _face_from_prefix(body)
    if face in _ELIXIR_FACES and mirror:
        raise BadInput(f"{raw!r}: an Elixir has no mirror image; write {face}", ruling="R32")
    return WCard(face, mirror)


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


# -- the points table (R34) ----------------------------------------------------------------------

_QUALITIES: dict[str, tuple[str, ...]] = {
    "run": ("true", "mixed", "false"),
    "mirror": ("true", "false"),
    "set": ("true", "mixed"),  # the Elixir has no mirror, so a set is never false (W2)
}
@dataclass(frozen=True)
class PointsTable:
    """Points of a hand by kind and quality, the favoured bonus, the cost of poison (R34, W4)."""

    hands: Mapping[str, Mapping[str, int]]
    poison: int  # points lost, > 0
    bonus: int  # extra for a hand the round's direction favours, > 0
    source: str = "default"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "default") -> PointsTable:
        """A validated table from its TOML/JSON form.

        Raises:
            ScenarioError: a missing or unknown entry, a non-integer, a poison that costs
                nothing, or a set that does not beat every run and pair (R34).
        """
        def bad(why: str) -> ScenarioError:
            return ScenarioError(f"points table {source}: {why}", ruling="R34")

        expected = {*_QUALITIES, "poison", "favoured"}
        unknown = sorted(set(data) - expected - {"about"})
        if unknown:
            raise bad(f"unknown section [{unknown[0]}]; expected [run] [mirror] [set] [poison] "
                      "[favoured]")

        def number(section: str, key: str) -> int:
            block = data.get(section)
            if not isinstance(block, Mapping):
                raise bad(f"section [{section}] is missing")
            value = block.get(key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad(f"[{section}] {key} must be a whole number, not {value!r}")
            return value

        hands: dict[str, dict[str, int]] = {}
        for kind, qualities in _QUALITIES.items():
            number(kind, qualities[0])
            extra = sorted(set(data[kind]) - set(qualities))
            if extra:
                raise bad(f"[{kind}] has no quality {extra[0]!r}; expected {', '.join(qualities)}")
            hands[kind] = {q: number(kind, q) for q in qualities}
            if min(hands[kind].values()) < 0:
                raise bad(f"[{kind}] points cannot be negative")
        for section, key in (("poison", "cost"), ("favoured", "bonus")):
            extra = sorted(set(data.get(section) or {}) - {key})
            if extra:
                raise bad(f"[{section}] has no entry {extra[0]!r}; expected {key}")
        poison = number("poison", "cost")
        bonus = number("favoured", "bonus")
        if poison <= 0:
            raise bad(f"[poison] cost must be more than 0 (poisoning costs points), not {poison}")
        if bonus <= 0:
            raise bad(f"[favoured] bonus must be more than 0 (the favoured hands score more), "
                      f"not {bonus}")
        best = max(max(hands["run"].values()), max(hands["mirror"].values())) + bonus
        if min(hands["set"].values()) <= best:
            raise bad(f"every set must beat every run and pair: the lowest set scores "
                      f"{min(hands['set'].values())}, a favoured run or pair up to {best}")
        return cls(hands, poison, bonus, source)

    def to_dict(self) -> dict[str, Any]:
        """The table's TOML/JSON form (``from_dict`` reverses it)."""
        return {
            **{kind: dict(self.hands[kind]) for kind in _QUALITIES},
            "poison": {"cost": self.poison},
            "favoured": {"bonus": self.bonus},
        }


def default_points_path() -> Path:
    """The shipped points table, ``data/wager_points.toml``."""
    from referee.scenario import data_file

    return data_file(POINTS_FILE)


def load_points(path: Path | str | None = None) -> PointsTable:
    """The points table in TOML at ``path`` (default: the shipped one) (R34 option).

    Raises:
        ScenarioError: the file cannot be read, is not TOML, or does not validate.
    """
    target = Path(path) if path is not None else default_points_path()
    try:
        text = target.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read points table {target}: {exc.strerror}; give a TOML "
                            "file like data/wager_points.toml", ruling="R34") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"points table {target} is not valid TOML: {exc}",
                            ruling="R34") from None
    return PointsTable.from_dict(data, "default" if path is None else target.name)


# -- hands (R33) ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    """A ruling on two cards under an Elixir."""

    top: WCard
    bottom: WCard
    elixir: Elixir
    kind: str  # "run" | "mirror" | "set" | "poison" | "none"
    quality: str | None  # "true" | "mixed" | "false" | None
    points: int
    favoured: bool
    reason: str

    def describe(self) -> str:
        """``true ascending run``, ``false mirror``, ``mixed set``, ``poison``, ``no hand``."""
        if self.kind == "none":
            return "no hand"
        if self.kind == "poison":
            return "poison"
        shape = f" {RULES[self.elixir].shape}" if self.kind == "run" else ""
        return f"{self.quality}{shape} {self.kind}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "quality": self.quality, "points": self.points,
            "top": self.top.label, "bottom": self.bottom.label, "elixir": self.elixir.value,
            "favoured": self.favoured, "reason": self.reason,
        }


def _quality_by_mirrors(*cards: WCard) -> str:
    return ("true", "mixed", "false")[sum(c.mirror for c in cards)]


def classify(top: WCard, bottom: WCard, elixir: Elixir) -> tuple[str, str | None, str]:
    """Kind, quality and reason of the hand ``top`` over ``bottom`` under ``elixir`` (R33, W1-W3).

    Raises:
        BadInput: one card twice, or an Elixir other than the one on the table.
    """
    if top == bottom:
        raise BadInput(f"{top.label} cannot be both top and bottom; its mirror image is "
                       f"written ~{top.face}", ruling="R32")
    for card in (top, bottom):
        if card.is_elixir and card.face != elixir.value:
            raise BadInput(f"the Elixir on the table is {elixir.value}; {card.face} is not in "
                           "play (one Elixir at a time)", ruling="R32")
    rule = RULES[elixir]
    partner = WCard(rule.partner)
    if top.is_elixir:
        if bottom.face == rule.partner:
            return ("set", _quality_by_mirrors(bottom),
                    f"{elixir.value} over {partner.name} (or its mirror) makes a set")
        return ("poison", None,
                f"{elixir.value} on top over anything but {partner.name} poisons")
    if bottom.is_elixir:
        return ("none", None, "the Elixir must be on top to make a set (W3)")
    if rule.shape == "mirror":
        if top.face == bottom.face:
            quality = "false" if top.mirror else "true"
            return ("mirror", quality, "a card over its own mirror image"
                    + (" (mirror on top: false)" if top.mirror else ""))
        return ("none", None, f"a Mirror round scores only a card with its own mirror image, "
                              f"or {elixir.value} over {partner.name}")
    if top.face == bottom.face:
        return ("none", None, "mirror pairs count only in Mirror rounds (Relief, Soothe, Repose)")
    low, high = top.cups_rank, bottom.cups_rank
    if low is not None and high is not None and abs(low - high) == 1:
        ascending = low < high
        if ascending == (rule.shape == "ascending"):
            return ("run", _quality_by_mirrors(top, bottom),
                    f"two Cups in a row, {'lower' if ascending else 'higher'} on top")
        wrong = "an ascending" if ascending else "a descending"
        return ("none", None, f"{wrong} run does not count under {elixir.value}, "
                              f"{rule.describe()}")
    return ("none", None, f"no {rule.shape} run (two Cups of consecutive rank, no wrap) "
                          f"and no set ({elixir.value} over {partner.name})")


def is_favoured(top: WCard, bottom: WCard, elixir: Elixir) -> bool:
    """Whether the round's direction favours this hand (R34): Arcana to Cups favours a hand
    holding a non-Cups card, Cups to Arcana an all-Cups hand."""
    all_cups = top.is_cups and bottom.is_cups
    favours = RULES[elixir].favours
    return (favours == "arcana" and not all_cups) or (favours == "cups" and all_cups)


def rank(top: WCard, bottom: WCard, elixir: Elixir, table: PointsTable) -> Hand:
    """The hand two cards make under ``elixir`` and its points (R33, R34, W4)."""
    kind, quality, reason = classify(top, bottom, elixir)
    favoured = False
    if kind == "none":
        points = 0
    elif kind == "poison":
        points = -table.poison  # a flat cost: no favour bonus (W4)
    else:
        assert quality is not None
        favoured = is_favoured(top, bottom, elixir)
        points = table.hands[kind][quality] + (table.bonus if favoured else 0)
    return Hand(top, bottom, elixir, kind, quality, points, favoured, reason)


# -- the race to 999 -----------------------------------------------------------------------------


@dataclass
class Scored:
    """One turn recorded with its two cards."""

    player: str
    top: str
    bottom: str
    elixir: Elixir
    hand: str
    quality: str | None
    points: int


@dataclass
class Game:
    """A game of the Fool against the Mistress (R34)."""

    fool: str
    mistress: str
    elixir: Elixir
    elixir_turns: int
    seed: int
    table: PointsTable
    scores: dict[str, int]
    turns: int = 0  # turns played on the current Elixir
    draws: int = 0  # Elixirs drawn by the console since the start (seeds the next draw)
    rounds: int = 0  # hands made (run, pair, set, poison): each ends a round (W7)
    history: list[Scored] = field(default_factory=list)
    winner: str | None = None

    @property
    def players(self) -> list[str]:
        return [self.fool, self.mistress]

    def role_of(self, name: str) -> str:
        return "Fool" if name == self.fool else "Mistress"


@dataclass
class WagerState:
    """The Weir's Wager table of an evening: the current game (older ones live in the log)."""

    game: Game | None = None
    games: int = 0


def draw_elixir(seed: int, draw: int, leaving: Elixir | None) -> Elixir:
    """The ``draw``-th Elixir of a game seeded ``seed``, never the one leaving (W6)."""
    pool = [e for e in ELIXIRS if e != leaving]
    return random.Random(f"{seed}:elixir:{draw}").choice(pool)


def new_game(state: WagerState, fool: str, mistress: str, *, seed: int,
             table: PointsTable, elixir: Elixir | None = None,
             elixir_turns: int = ELIXIR_TURNS, abandon: bool = False) -> list[Event]:
    """Start a race to 999 between the Fool and the Mistress (R34).

    Raises:
        BadInput: blank or equal names, fewer than one turn per Elixir.
        IllegalAction: a game is unfinished and ``abandon`` is not set (W10).
    """
    names = [" ".join(fool.split()), " ".join(mistress.split())]
    if not all(names):
        raise BadInput("give two names: the Fool's player, then the Mistress's")
    if names[0].lower() == names[1].lower():
        raise BadInput(f"{names[0]!r} cannot play both the Fool and the Mistress")
    if elixir_turns < 1:
        raise BadInput(f"--elixir-turns must be 1 or more, not {elixir_turns}", ruling="R34")
    current = state.game
    if current is not None and current.winner is None and not abandon:
        raise IllegalAction(
            f"a game of {current.fool} against {current.mistress} is going "
            f"({score_line(current)}); finish it, or start over with --abandon (W10)")
    first = elixir if elixir is not None else draw_elixir(seed, 0, None)
    return [{
        "kind": "wager_game_started",
        "fool": names[0],
        "mistress": names[1],
        "elixir": first.value,
        "elixir_turns": elixir_turns,
        "seed": seed,
        "points": table.to_dict(),
        "points_source": table.source,
    }]


def score_line(game: Game) -> str:
    """``Ann 300, Bea 150``."""
    return f"{game.fool} {game.scores[game.fool]}, {game.mistress} {game.scores[game.mistress]}"


def require_game(state: WagerState, *, playing: bool = True) -> Game:
    """The current game; with ``playing``, one not yet won.

    Raises:
        IllegalAction: no game, or the game is over.
    """
    game = state.game
    if game is None:
        raise IllegalAction("no Weir's Wager game yet; start one with "
                            "`referee wager new FOOL MISTRESS`")
    if playing and game.winner is not None:
        raise IllegalAction(f"the game is over: {game.winner} won ({score_line(game)}); "
                            "start a new one with `referee wager new`", ruling="R34")
    return game


def resolve_player(game: Game, query: str) -> str:
    """A player by name or unique prefix, or by role or its prefix (``fool``, ``mis``) (W11).

    Raises:
        UnknownName: neither a player nor a role; names both with their roles.
    """
    try:
        return match_name(query, game.players, what="player")
    except UnknownName as exc:
        role = " ".join(query.lower().split()).removeprefix("the ")
        if len(role) >= 2 and "fool".startswith(role):
            return game.fool
        if len(role) >= 2 and "mistress".startswith(role):
            return game.mistress
        if "ambiguous" in str(exc):
            raise
        near = nearest(query, game.players)
        hint = f"did you mean {', '.join(near)}? " if near else ""
        raise UnknownName(f"unknown player {query!r}; {hint}players: {game.fool} (the Fool), "
                          f"{game.mistress} (the Mistress); 'fool' and 'mistress' work too"
                          ) from None


def _change(game_elixir: Elixir, seed: int, draws: int, reason: str) -> Event:
    return {"kind": "wager_elixir_changed",
            "elixir": draw_elixir(seed, draws + 1, game_elixir).value, "reason": reason}


def score(state: WagerState, player: str, top: WCard, bottom: WCard) -> list[Event]:
    """One turn ending with ``top`` over ``bottom`` in ``player``'s hand (R33, R34, W6-W8).

    Raises:
        IllegalAction: no game or the game is over.
        UnknownName: no such player.
        BadInput: see ``classify``.
    """
    game = require_game(state)
    name = resolve_player(game, player)
    hand = rank(top, bottom, game.elixir, game.table)
    events: list[Event] = [{
        "kind": "wager_hand_scored", "player": name, "top": top.label, "bottom": bottom.label,
        "elixir": game.elixir.value, "hand": hand.kind, "quality": hand.quality,
        "points": hand.points,
    }]
    if game.scores[name] + hand.points >= TARGET:
        return events  # the game is won: no new Elixir (W8)
    if hand.kind == "set":
        events.append(_change(game.elixir, game.seed, game.draws, "set"))
    elif game.turns + 1 >= game.elixir_turns:
        events.append(_change(game.elixir, game.seed, game.draws, "turns"))
    return events


def turn(state: WagerState, count: int = 1) -> list[Event]:
    """``count`` turns played without a hand; the Elixir changes when its turns run out (W6).

    Raises:
        IllegalAction: no game or the game is over.
        BadInput: a count below 1 or above 100.
    """
    game = require_game(state)
    if not 1 <= count <= 100:
        raise BadInput(f"count turns 1 to 100 at a time, not {count}")
    events: list[Event] = []
    turns, draws, elixir = game.turns, game.draws, game.elixir
    left = count
    while left:
        step = min(left, game.elixir_turns - turns)
        events.append({"kind": "wager_turns_played", "count": step})
        turns += step
        left -= step
        if turns >= game.elixir_turns:
            change = _change(elixir, game.seed, draws, "turns")
            events.append(change)
            turns, draws, elixir = 0, draws + 1, Elixir(change["elixir"])
    return events


def set_elixir(state: WagerState, elixir: Elixir) -> list[Event]:
    """The Elixir actually on the table, when it differs from the console's (W6).

    Raises:
        IllegalAction: no game, the game is over, or that Elixir is already out.
    """
    game = require_game(state)
    if elixir == game.elixir:
        raise IllegalAction(f"{elixir.value} is already the Elixir")
    return [{"kind": "wager_elixir_changed", "elixir": elixir.value, "reason": "table"}]


# -- the fold ------------------------------------------------------------------------------------


def _bug(message: str) -> InvariantViolation:
    return InvariantViolation(f"wager: {message}")


def _playing(state: WagerState) -> Game:
    game = state.game
    if game is None or game.winner is not None:
        raise _bug("an event with no game going")
    return game


def apply(state: WagerState, event: Event) -> WagerState:
    """Fold one event in; a broken invariant is a bug and raises InvariantViolation."""
    kind = event.get("kind")
    if kind == "wager_game_started":
        fool, mistress = event["fool"], event["mistress"]
        if not fool or not mistress or fool.lower() == mistress.lower():
            raise _bug(f"a game needs two different players, got {fool!r} and {mistress!r}")
        if int(event["elixir_turns"]) < 1:
            raise _bug("an Elixir must last at least one turn")
        table = PointsTable.from_dict(event["points"], event.get("points_source", "default"))
        state.game = Game(fool=fool, mistress=mistress, elixir=Elixir(event["elixir"]),
                          elixir_turns=int(event["elixir_turns"]), seed=int(event["seed"]),
                          table=table, scores={fool: 0, mistress: 0})
        state.games += 1
    elif kind == "wager_hand_scored":
        game = _playing(state)
        if event["player"] not in game.scores:
            raise _bug(f"{event['player']!r} is not in the game")
        if Elixir(event["elixir"]) != game.elixir or game.turns >= game.elixir_turns:
            raise _bug("a hand scored under an Elixir that should have changed")
        hand = rank(parse_wcard(event["top"]), parse_wcard(event["bottom"]), game.elixir,
                    game.table)
        if (hand.kind, hand.quality, hand.points) != (
                event["hand"], event["quality"], event["points"]):
            raise _bug(f"hand {event['top']} over {event['bottom']} does not score as recorded")
        game.scores[event["player"]] += hand.points
        game.turns += 1
        if hand.kind != "none":
            game.rounds += 1
        game.history.append(Scored(event["player"], event["top"], event["bottom"], game.elixir,
                                   hand.kind, hand.quality, hand.points))
        if game.scores[event["player"]] >= TARGET:
            game.winner = event["player"]
    elif kind == "wager_turns_played":
        game = _playing(state)
        count = int(event["count"])
        if count < 1 or game.turns + count > game.elixir_turns:
            raise _bug(f"{count} turns overrun the Elixir's {game.elixir_turns}")
        game.turns += count
    elif kind == "wager_elixir_changed":
        game = _playing(state)
        new, reason = Elixir(event["elixir"]), event["reason"]
        if new == game.elixir:
            raise _bug(f"the Elixir {new.value} changed to itself")
        if reason == "turns" and game.turns != game.elixir_turns:
            raise _bug(f"the Elixir changed after {game.turns} of {game.elixir_turns} turns")
        if reason == "set" and not (game.history and game.history[-1].hand == "set"):
            raise _bug("the Elixir changed for a set that was not made")
        if reason in ("set", "turns"):
            game.draws += 1
        elif reason != "table":
            raise _bug(f"unknown reason {reason!r} for a new Elixir")
        game.elixir = new
        game.turns = 0
    else:
        raise _bug(f"unknown event kind {kind!r}")
    return state


def dump(state: WagerState) -> dict[str, Any]:
    """JSON form of the state (``load`` reverses it)."""
    game = state.game
    if game is None:
        return {"game": None, "games": state.games}
    return {
        "game": {
            "fool": game.fool, "mistress": game.mistress, "elixir": game.elixir.value,
            "elixir_turns": game.elixir_turns, "seed": game.seed,
            "points": game.table.to_dict(), "points_source": game.table.source,
            "scores": dict(game.scores), "turns": game.turns, "draws": game.draws,
            "rounds": game.rounds, "winner": game.winner,
            "history": [
                {"player": s.player, "top": s.top, "bottom": s.bottom, "elixir": s.elixir.value,
                 "hand": s.hand, "quality": s.quality, "points": s.points}
                for s in game.history
            ],
        },
        "games": state.games,
    }


def load(data: dict[str, Any]) -> WagerState:
    """The state from its JSON form."""
    raw = data.get("game")
    if raw is None:
        return WagerState(None, int(data.get("games", 0)))
    game = Game(
        fool=raw["fool"], mistress=raw["mistress"], elixir=Elixir(raw["elixir"]),
        elixir_turns=int(raw["elixir_turns"]), seed=int(raw["seed"]),
        table=PointsTable.from_dict(raw["points"], raw["points_source"]),
        scores={k: int(v) for k, v in raw["scores"].items()}, turns=int(raw["turns"]),
        draws=int(raw["draws"]), rounds=int(raw["rounds"]), winner=raw["winner"],
        history=[Scored(s["player"], s["top"], s["bottom"], Elixir(s["elixir"]), s["hand"],
                        s["quality"], int(s["points"])) for s in raw["history"]],
    )
    return WagerState(game, int(data["games"]))


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


def all_hands(elixir: Elixir) -> Sequence[tuple[WCard, WCard]]:
    """Every ordered pair of distinct cards that can be in play under ``elixir``."""
    pool = [*WAGER_DECK, WCard(elixir.value)]
    return [(a, b) for a in pool for b in pool if a != b]


STREAM = StreamSpec(name="wager", empty=WagerState, apply=apply, dump=dump, load=load)
