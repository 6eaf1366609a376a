"""Powers of the Major Arcana at the table (R26, S11-S30): GM requests -> events.

Pure functions of the state and the GM's words. ``use_power`` checks the power's timing
against what the betting says now (S11, ``TableNow``, read by the caller), asks for exactly
what its effect needs, and returns one ``power_used`` event carrying everything the fold needs
(``referee.evening.powers.effects``), with the bets the power makes as data. Below the betting
machine: the whole act, its bets and the Fool's moves after it, is
``referee.evening.power_moves``.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from referee.errors import IllegalAction, UnknownCard, UnknownName
from referee.evening.events import EveningEvent, PowerAccessed, PowerSpec, PowerUsed
from referee.evening.folds import replay
from referee.evening.known import face_down, known
from referee.evening.powers import constraints, effects
from referee.evening.powers.building import TableNow, Use
from referee.evening.powers.building import label as _label
from referee.evening.powers.kinds import KINDS
from referee.evening.powers.timing import check_timing
from referee.evening.state import HandState, State, require_evening
from referee.names import match_name, plural
from referee.rules.cards import parse_card, to_roman
from referee.said import Suggest, said

LIST = Suggest(("power", "list"))  #: the move that lists the powers held

# -- the power set of the evening ---------------------------------------------------------------


def powers(state: State) -> list[PowerSpec]:
    return list(state.scenario.get("powers", []))


def power_spec(state: State, card: int, orientation: str) -> PowerSpec:
    for p in powers(state):
        if p["card"] == card and p["orientation"] == orientation:
            return p
    raise IllegalAction(f"the evening's power set has no {orientation} power for "
                        f"{to_roman(card)}")


def depleted(state: State, card: int) -> bool:
    return all(f"{to_roman(card)}-{o}" in state.powers for o in ("upright", "reversed"))


def _words(text: str) -> list[str]:
    """A name as words to match (E55): no case, apostrophes dropped (``Reaper's`` is
    ``reapers``), other punctuation a space."""
    import re

    return re.sub(r"[^\w]+", " ", re.sub(r"['\u2019]", "", text.casefold())).split()


def _by_words(query: list[str], name: str) -> bool:
    """Whether the query's words begin consecutive words of ``name``, from any word (E55):
    ``toll``, ``reaper``, ``reapers toll`` all name The Reaper's Toll."""
    words = _words(name)
    return any(all(i + k < len(words) and words[i + k].startswith(q)
                   for k, q in enumerate(query)) for i in range(len(words)))


def find_power(state: State, text: str, holder: str | None = None) -> PowerSpec:
    """The power ``text`` names (E55): its key (``XX-reversed``, ``XX reversed``), its name
    (any case), a prefix of any of its words (``toll``, ``reaper``), or its card (``XIII``,
    ``death``): the power ``holder`` holds from that card. Several candidates are narrowed to
    the one ``holder`` holds, else listed.

    Raises:
        UnknownName: nothing matches, or several do; says which.
    """

    pool = powers(state)
    key = "-".join(text.split()).lower()
    for p in pool:
        if p["key"].lower() == key or _words(p["name"]) == _words(text):
            return p
    query = _words(text)
    if not query:
        raise UnknownName(f"empty power; name it by its name, a word of it or its card "
                          f"(e.g. {pool[0]['name'] if pool else 'XIII'}) (E55)", ruling="E55")
    found = [p for p in pool if _by_words(query, p["name"])]
    card = None
    if not found:
        try:
            card = parse_card(text)
        except UnknownCard:
            card = None
        if card is not None and card.is_major:
            found = [p for p in pool if p["card"] == card.rank]
    if len(found) > 1 and holder is not None:
        mine = [p for p in found
                if (held := state.powers.get(p["key"])) is not None and held["holder"] == holder]
        if len(mine) == 1:
            return mine[0]
        if card is not None and not mine:
            raise UnknownName(f"{holder} holds no power of {to_roman(card.rank)}: "
                              + ", ".join(f"{_label(p)} {_held_by(state, p)}" for p in found)
                              + " (E55)", ruling="E55")
    if len(found) == 1:
        return found[0]
    if found:
        which = " or ".join(_label(p) for p in found)
        raise UnknownName(f"power {text!r} names more than one: {which}; name the one meant "
                          "(E55)", ruling="E55")
    from referee.names import nearest

    near = nearest(text, [p["name"] for p in pool])
    hint = said(f"did you mean {', '.join(near)}?") if near else said(LIST, " lists them")
    raise UnknownName(said(f"unknown power {text!r}; ", hint, " (a power is named by its name, "
                           "a word of it, or its card, E55)"), ruling="E55")


def _held_by(state: State, spec: PowerSpec) -> str:
    held = state.powers.get(spec["key"])
    return f"held by {held['holder']}" if held else "not given out"


def access(state: State, who: str, card_text: str,
           orientation: str) -> list[PowerAccessed]:
    """R26, E22: a stakeholder in the hand slides a face-down major to the Fool for a power."""
    require_evening(state)
    if state.hand is None:
        raise IllegalAction("powers are accessed during a hand, with a card dealt face down "
                            "(R26)", ruling="R26")
    hand = state.hand
    name = match_name(who, [*state.stakeholders, state.fool], "player")
    if name == state.fool:
        raise IllegalAction("the Fool (R15) cannot access or use powers (R26)", ruling="R26")
    if name not in hand.live and not _folded_by_answerable(hand, name):
        raise IllegalAction(f"{name} is not in hand {hand.no}; only a stakeholder dealt in (and "
                            "still in) may access a power (R26)", ruling="R26")
    card = parse_card(card_text)
    if not card.is_major:
        raise IllegalAction(f"{card.name} is a minor card; only the Major Arcana hold powers "
                            "(R26)", ruling="R26")
    turned = card.short in hand.turned_up.get(name, [])  # E273: dealt down, a power turned it
    if card.short in hand.showing.get(name, []) and not turned:
        raise IllegalAction(f"{card.name} is one of {name}'s up cards; powers come from cards "
                            "dealt face down (R26)", ruling="R26")
    if card.short in hand.hooded.get(name, []) and not turned:  # E264: dealt up, hooded
        raise IllegalAction(f"{card.name} was dealt face up to {name} and turned face down by a "
                            "power (hooded); powers come from cards dealt face down (R26, E264)",
                            ruling="E264")
    for other, shown in hand.showing.items():
        if card.short in shown and other != name:
            raise IllegalAction(f"{card.name} is showing for {other}; a deck holds each card "
                                f"once, so {name} cannot hold it face down (R8, R26)",
                                ruling="R26")
    for other, gone in hand.out.items():  # S21: a card discarded by a power left the hand
        if card.short in gone:
            raise IllegalAction(f"{card.name} was discarded by a power ({other}'s); it is out of "
                                "this hand, and only a card held is slid (R26, S21)", ruling="S21")
    for other, gone in hand.forfeited.items():
        if card.short in gone:
            raise IllegalAction(said(f"{card.name} was already given up by {other} this hand; ",
                                     LIST, " shows who holds which power"))
    # Two down, two up, two up, one down: two face-down cards until the last round, then three.
    down = 3 if hand.round.street >= 3 else 2
    if len(hand.forfeited.get(name, [])) >= down:
        raise IllegalAction(f"{name} has given up all {down} of their face-down cards this hand; "
                            "powers come from cards dealt face down (R26)", ruling="R26")
    _face_down_free(hand, name, card.short, face_down(hand, name, down))
    orientation = match_name(orientation, ["upright", "reversed"], "orientation")
    spec = power_spec(state, card.rank, orientation)
    granted = spec["key"] not in state.powers
    event: PowerAccessed = {"kind": "power_accessed", "name": name, "card": card.short,
                    "rank": card.rank, "orientation": orientation, "power": spec["key"],
                    "granted": granted, "depleted": False}
    sim = replay(state, [event])
    # Whether the card is depleted now; it became so with this access when a power was granted.
    event["depleted"] = depleted(sim, card.rank)
    return [event]


def _face_down_free(hand: HandState, name: str, card: str, held: int) -> None:
    """R44, E56: the card slid may be one of ``name``'s face-down cards: no other player's
    known card, and, when every one of the ``held`` cards ``name`` holds face down is known
    (hooded, or named as theirs by a power), one of those."""
    seen = known(hand)
    owner, how = seen.owners.get(card, (name, ""))
    if owner != name:
        raise IllegalAction(f"{card} is {owner}'s ({how}); {name} cannot slide it (R8, E56)",
                            ruling="E56")
    mine = seen.of(name).down
    if card not in mine and len(mine) >= held:
        raise IllegalAction(f"{name}'s face-down cards are all known ({seen.described(name)}): "
                            f"{card} is not one of them (R44)", ruling="R44")


def _folded_by_answerable(hand: HandState, name: str) -> bool:
    """R38: folded by the very power that may be answered now, so still able to answer it
    (Mistrial cancels the fold with the rest)."""
    answer = hand.answerable
    if answer is None or answer["kind"] != "power":
        return False
    before = answer["before"]["hand"]
    return name in before["order"] and name not in before["folded"]


# -- using a power ------------------------------------------------------------------------------

def user(state: State, who: str) -> str:
    """The stakeholder using a power (S7, R26): never the Fool, never one out of the game."""
    require_evening(state)
    name = match_name(who, [*state.stakeholders, state.fool], "player")
    if name == state.fool:
        raise IllegalAction("the Fool never uses powers (R15, S7)", ruling="S7")
    seat = state.seat(name)
    if seat.dead or seat.resigned:
        raise IllegalAction(f"{name} is out of the game ({'dead' if seat.dead else 'resigned'}); "
                            "only a stakeholder still in the game uses a power (R26)", ruling="R26")
    return name


class Used(NamedTuple):
    """A power's use as the powers decide it: its events (the ``power_used`` record, and what
    its effect makes at once, a Standstill check) and the bets made with it (Iron Rule), as
    the betting machine is to make them: ``(player, move, amount)``, first (E163)."""

    events: list[EveningEvent]
    bets: list[tuple[str, str, int | None]]


def use_power(state: State, who: str, power_text: str, now: TableNow | None, *,
              target: str | None = None, cards: list[str] | tuple[str, ...] = (),
              new: str | None = None, as_card: str | None = None, action: str | None = None,
              folds: list[str] | tuple[str, ...] = (), seed: int | None = None) -> Used:
    """R26, S11: a power used once by its holder, at its moment, paying its Charges. ``now``
    is what the betting says (``betting.now``; None between hands): the powers read it and
    never call the betting. The whole act, with its bets and the Fool's moves that follow, is
    ``referee.evening.power_moves``."""
    name = user(state, who)
    spec = find_power(state, power_text, name)
    base = effects.as_answered(state, spec)  # E274: Mistrial, before what it cancels
    held = base.powers.get(spec["key"])
    if held is None:  # R38: the way to it is its card, slid in the same act
        raise IllegalAction(said(
            f"{name} does not hold {spec['name']} ({spec['key']}), and nobody does yet: slide "
            "its card for it in the same act, ",
            Suggest(("power", "use"), (name, spec["name"], "--access", spec["key"].split("-")[0])),
            " (R26, R38)"), ruling="R26")
    if held["holder"] != name:
        raise IllegalAction(f"{name} does not hold {spec['name']} ({spec['key']}); held by "
                            f"{held['holder']}. Powers cannot be given or traded (R26)",
                            ruling="R26")
    if held.get("used"):
        raise IllegalAction(said(f"{spec['name']} was already {effects.spent(held)}; a power "
                                 "is used once (R26, E57); ", LIST, " shows what is left"),
                            ruling="R26")
    extra = constraints.surcharge(base, name)
    cost = spec["charges"] + extra
    have = base.charges.get(name, 0)
    if have < cost:
        star = f", one more for {base.surcharges[name][0]['power']} (S25)" if extra else ""
        raise IllegalAction(f"{spec['name']} needs {plural(cost, 'Charge')}{star}; "
                            f"{name}'s side has {have} (R26)", ruling="R26")
    hand = state.hand
    if hand is None or now is None:
        raise IllegalAction(said(f"{spec['name']} is used during a hand (S29); deal one with ",
                                 Suggest(("hand", "start"))), ruling="S29")
    folded_by_it = spec.get("timing") == "answer_power" and _folded_by_answerable(hand, name)
    if name not in hand.live and not folded_by_it:
        raise IllegalAction(f"{name} is not in hand {hand.no}; a power is used by a stakeholder "
                            "still in the hand (S29)", ruling="S29")
    use = Use(state, hand, name, spec, {"target": target, "cards": tuple(cards), "new": new,
                                        "as": as_card, "action": action, "folds": tuple(folds)},
              now)
    timing = str(spec.get("timing", "any_time"))
    check_timing(use, timing)
    kind = use.kind
    event: PowerUsed = {"kind": "power_used", "name": name, "power": spec["key"],
                    "title": spec["name"], "charges": cost, "hand": hand.no, "timing": timing,
                    "effect": kind}
    if extra:
        event["surcharge"] = extra
    if timing in ("own_turn", "before_turn") and hand.round.actions == 0:
        event["opener"] = now.to_act  # the turn has begun (S11, E3)
    if kind == "lose_power":
        event["seed"] = random.SystemRandom().randrange(10**6) if seed is None else seed
    event["summary"] = KINDS[kind].build(use, event)
    use.leftovers()
    return Used([event, *use.after], use.moves)


def access_for(state: State, name: str, spec: PowerSpec,
               card_text: str) -> list[EveningEvent]:
    """``power use NAME POWER --access CARD`` (R38): the card slid for this power, which must
    be that power's card and still free to be given."""
    card = parse_card(card_text)
    label = _label(spec)
    if card.rank != spec["card"] or not card.is_major:
        raise IllegalAction(f"{spec['name']} is the {spec['orientation']} power of "
                            f"{to_roman(spec['card'])}; --access names that card, not "
                            f"{card.short} (R26)", ruling="R26")
    held = state.powers.get(spec["key"])
    if held is not None:
        raise IllegalAction(f"{label} is already out ({_held_by(state, spec)}); sliding "
                            f"{card.short} would grant nothing, so nothing was recorded (R26)",
                            ruling="R26")
    return [*access(state, name, card.short, spec["orientation"])]
