"""Duels (seed: Dueling; F10, F11): pistols in four phases, swords in rounds.

A duel is a short sequence of commands, one per phase or round, so the Host
can narrate between them: ``duel_start`` (``fate duel pistols A B``), then
``duel_phase`` with both duellists' choices at once (``fate duel phase fire
stand``) or ``duel_round`` for swords, ``duel_surrender`` and ``duel_end``.
The deck holds two Jokers (R35); every draw comes from the seed fixed when the
duel starts, so undoing and redoing a phase turns the same cards.
"""

from __future__ import annotations

import copy
from typing import Any

from referee.errors import BadInput, IllegalAction
from referee.names import match_name, match_person, plural, quoted
from referee.rules.fate.actions import apply_damage, result_lines, run_gates, usual_or, weapon
from referee.rules.fate.cards import format_fate_cards
from referee.rules.fate.characters import HEALTH, find_alive, measure
from referee.rules.fate.dealer import (
    NOTHING_TYPED,
    Dealer,
    Outcome,
    Typed,
    deck_kind,
    drawn_event,
)
from referee.rules.fate.fold import State
from referee.rules.fate.pools import Pool, PoolSpec, build_pool
from referee.rules.fate.resolve import STATES, Result, resolve, tally
from referee.rules.fate.sheet import Char, Duel, DuelEntry
from referee.rules.fate.tables import FateData, tables

OPTIONS = ("fire", "aim", "stand", "beg", "mercy")
ENDS = ("first-blood", "surrender", "death")
SIDES = ("a", "b")


def _other(side: str) -> str:
    return "b" if side == "a" else "a"


def current(state: State) -> Duel:
    """The duel under way.

    Raises:
        IllegalAction: there is none.
    """
    duel: Duel | None = state["duel"]
    if duel is None or duel["over"]:
        raise IllegalAction("no duel under way: start one with fate duel pistols A B "
                            "or fate duel swords A B --to first-blood")
    return duel


def allowed(duel: Duel, side: str, data: FateData) -> tuple[str, ...]:
    """The options open to one duellist this phase (seed: Pistols, F10)."""
    if duel["shot"][side]:
        return ("stand", "beg")
    if duel["phase"] >= data.phases:
        return ("fire", "beg", "mercy")
    return OPTIONS


def duel_start(state: State, kind: str, a: str, b: str, *, to: str | None = None,
               a_weapon: str | None = None, b_weapon: str | None = None,
               a_traits: tuple[str, ...] = (), b_traits: tuple[str, ...] = (),
               seed: int | None = None, deck: str | None = None,
               typed: Typed = NOTHING_TYPED) -> Outcome:
    """Start a duel; a Maimed duellist must first pass a Measure test to face it (R37, F6);
    ``typed.gates`` types that test (F20)."""
    data = tables(state)
    if state["duel"] is not None and not state["duel"]["over"]:
        d = state["duel"]
        raise IllegalAction(f"a duel between {d['names']['a']} and {d['names']['b']} is under "
                            "way: finish it first (fate duel show, fate duel end)")
    kind = match_name(kind, ("pistols", "swords"), what="duel")
    ca, cb = find_alive(state, a), find_alive(state, b)
    if ca["name"] == cb["name"]:
        raise BadInput(f"{ca['name']} cannot duel themself")
    usual_note = {"a": "", "b": ""}
    if kind == "pistols":
        if to is not None:
            raise BadInput("--to is for swords; with pistols each receives fire at least once")
        default, label = data.pistol_pool, "pistol"
    else:
        to = match_name(to or "first-blood", ENDS, what="duel terms")
        default, label = data.sword_pool, "sword"
        # A sword duel is a fight that lasts: each fights with their usual weapon and
        # fighting Traits unless the command names others (F24, F27).
        for side, char, named in (("a", ca, a_weapon), ("b", cb, b_weapon)):
            kept = char.get("usual")
            if named is None and kept and kept.get("weapon"):
                usual_note[side] = f" (usual weapon; --{side}-weapon names another, F27)"
        a_weapon, a_traits = usual_or(ca, a_weapon, a_traits)
        b_weapon, b_traits = usual_or(cb, b_weapon, b_traits)
    a_traits = tuple(t for t in a_traits if t.strip())  # --a-trait "" names none
    b_traits = tuple(t for t in b_traits if t.strip())
    wa, la = weapon(ca, a_weapon, default, label)
    wb, lb = weapon(cb, b_weapon, default, label)
    out = Outcome()
    dealer = Dealer(deck_kind(state, deck), typed, seed, jokers=data.duel_jokers,
                    second_joker=data.tarot_second_joker)
    pools = _duel_pools(state, {"a": (ca, wa, la, a_traits), "b": (cb, wb, lb, b_traits)},
                        dealer, out, data)
    if pools is None:
        return out
    duel: Duel = {
        "type": kind, "to": to, "names": {"a": ca["name"], "b": cb["name"]},
        "deck": dealer.kind, "seed": dealer.seed, "pools": pools, "phase": 1,
        "shot": {"a": None, "b": None}, "aim": {"a": 0, "b": 0}, "shaken": {"a": 0, "b": 0},
        "log": [], "over": False, "winner": None, "result": None,
    }
    out.events.append({"kind": "duel_set", "duel": duel})
    _start_told(state, duel, dealer, usual_note, out, data)
    return out


_Armed = tuple[Char, int, str, tuple[str, ...]]


def _duel_pools(state: State, armed: dict[str, _Armed], dealer: Dealer, out: Outcome,
                data: FateData) -> dict[str, list[list[Any]]] | None:
    """Each side's pool as the duel stores it (its parts that stake no area); None, and a line
    saying so, when a Maimed duellist fails the Measure test to face it (R37, F6)."""
    pools: dict[str, list[list[Any]]] = {}
    for side, (char, base, blabel, traits) in armed.items():
        spec = PoolSpec(char=char["name"], base=base, base_label=blabel, traits=traits,
                        physical=True, use_next_mod=False)
        pool = build_pool(state, spec, data)
        if not run_gates(state, pool, dealer, None, out):
            out.lines.append(f"{char['name']} cannot face the duel (R37, F6); nothing else "
                             "is recorded: they must withdraw or beg.")
            return None
        pools[side] = [[lbl, n] for lbl, n, area in pool.parts if area is None]
    return pools


def _start_told(state: State, duel: Duel, dealer: Dealer, usual_note: dict[str, str],
                out: Outcome, data: FateData) -> None:
    """A duel's start as the GM reads it: its terms, each side's pool, the first prompt."""
    terms = "pistols" if duel["type"] == "pistols" else f"swords, to {duel['to']}"
    out.lines.append(f"Duel ({terms}): {duel['names']['a']} (a) against {duel['names']['b']} "
                     f"(b); seed {duel['seed']}, {_jokers(dealer)} in the deck (R35).")
    shown = {side: _weapon_pool(state, duel, side, data) for side in SIDES}
    for side in SIDES:
        out.lines.append(f"  {duel['names'][side]} ({side}): {shown[side].describe()}"
                         f"{usual_note[side]}")
    out.lines += _prompt(state, duel, data)
    # F25: each pool's parts as the lines give them (a drink, a wound), not the stored base
    out.data = {"duel": duel, "pools": {side: shown[side].to_json() for side in SIDES}}


def _jokers(dealer: Dealer) -> str:
    """``two Jokers``; a tarot duel deck names them: the Fool and the Magician (F1)."""
    jokers = [card.label for card in dealer.deck if card.is_joker]
    if dealer.kind == "tarot":
        return f"two Jokers (0 and {jokers[-1]})" if len(jokers) == 2 else "one Joker (0)"
    return "two Jokers" if len(jokers) == 2 else "one Joker"


def _prompt(state: State, duel: Duel, data: FateData) -> list[str]:
    if duel["over"]:
        return [f"The duel is over: {duel['result']}"]
    if duel["type"] == "swords":
        return [f"Round {duel['phase']}: fate duel round"
                + ("" if duel["to"] == "death" else "   (or fate duel surrender NAME)")]
    lines = [f"Phase {duel['phase']} of {data.phases}: fate duel phase CHOICE_A CHOICE_B"]
    for side in SIDES:
        opts = ", ".join(allowed(duel, side, data))
        extra = []
        if duel["aim"][side]:
            extra.append(f"+{duel['aim'][side]} aimed")
        if duel["shaken"][side]:
            extra.append(f"-{duel['shaken'][side]} for the other's Stand")
        more = f" ({', '.join(extra)})" if extra else ""
        lines.append(f"  {duel['names'][side]} ({side}): {opts}{more}")
    return lines


def _weapon_pool(state: State, duel: Duel, side: str, data: FateData) -> Pool:
    """The duellist's weapon pool now: weapon and Traits, aim and Stand, Health (R37)."""
    char = state["chars"][duel["names"][side]]
    pool = Pool(char["name"], parts=[(label, n, None) for label, n in duel["pools"][side]])
    if duel["aim"][side]:
        pool.parts.append((f"aimed {plural(duel['aim'][side], 'phase')}", duel["aim"][side], None))
    if duel["shaken"][side]:
        pool.parts.append(("the other stood firm", -duel["shaken"][side], None))
    health = char["areas"][HEALTH]
    if health in ("injured", "maimed"):
        # Maimed mid-duel: the Measure test was the one taken to face the duel (F10).
        pool.parts.append((f"Health {health.title()}", data.penalty[health], HEALTH))
    if char["next_mod"]:
        # A drink bears on the duellist's next shot or sword round, then is spent (F12, F25).
        pool.next_mod = char["next_mod"]
        pool.parts.append(("drink", char["next_mod"], None))
    return pool


def _spend_drinks(pools: list[Pool], out: Outcome) -> None:
    """The drink modifiers a shot or a round used are spent (F25)."""
    for pool in pools:
        if pool.next_mod and pool.char is not None:
            out.events.append({"kind": "next_mod_set", "char": pool.char, "value": 0})


def _by_name(names: dict[str, str], first: str, second: str) -> dict[str, str]:
    """``fire aim`` in a-b order, or ``mary=aim ashby=fire`` in any order."""
    if "=" not in first and "=" not in second:
        return {"a": first, "b": second}
    out: dict[str, str] = {}
    for text in (first, second):
        who, sep, choice = text.partition("=")
        if not sep:
            raise BadInput(f"write both choices as NAME=OPTION, or both bare in a-b order "
                           f"(got {text!r})")
        name = match_person(who, names.values(), what="duellist")
        side = "a" if name == names["a"] else "b"
        if side in out:
            raise BadInput(f"{name} is given two choices")
        out[side] = choice
    return out


def _parse_choice(state: State, duel: Duel, side: str, text: str) -> tuple[str, str | None]:
    head, _, rep = text.partition(":")
    choice = match_name(head, OPTIONS, what="duel option")
    open_now = allowed(duel, side, tables(state))
    name = duel["names"][side]
    if choice not in open_now:
        why = ("has already fired or shown mercy" if duel["shot"][side]
               else "must fire, beg or show mercy in the last phase")
        raise IllegalAction(f"{name} {why}: choose {', '.join(open_now)} (seed: Pistols, F10)")
    if choice != "beg":
        if rep:
            raise BadInput(f"only beg takes a Reputation (got {text!r})")
        return choice, None
    char = state["chars"][name]
    usable = [r for r in char["reps"] if char["areas"][r] != "dead"]
    if rep:
        return choice, match_person(rep, usable, what=f"living Reputation of {name}")
    if len(usable) == 1:
        return choice, usable[0]
    if not usable:
        raise IllegalAction(f"{name} has no Reputation left to beg with; add one with "
                            f"fate char edit {quoted(name)} --rep \"NAME=1\"")
    raise BadInput(f"which Reputation does {name} beg with? write beg:NAME, one of: "
                   f"{', '.join(usable)}")


def duel_phase(state: State, choice_a: str, choice_b: str, typed: Typed = NOTHING_TYPED,
               ) -> Outcome:
    """One phase of a pistol duel; both duellists' choices at once (F10)."""
    data = tables(state)
    duel = copy.deepcopy(current(state))
    if duel["type"] != "pistols":
        raise IllegalAction("this is a sword duel: fate duel round")
    names = duel["names"]
    texts = _by_name(names, choice_a, choice_b)
    choices = {s: _parse_choice(state, duel, s, texts[s]) for s in SIDES}
    dealer = Dealer(duel["deck"], typed, duel["seed"], jokers=data.duel_jokers,
                    second_joker=data.tarot_second_joker)
    out = Outcome()
    phase = duel["phase"]
    out.lines.append(f"Phase {phase}: {names['a']} chooses {choices['a'][0]}, "
                     f"{names['b']} chooses {choices['b'][0]}.")
    entry: DuelEntry = {"phase": phase, "chose": {s: choices[s][0] for s in SIDES}}
    begging = [s for s in SIDES if choices[s][0] == "beg"]
    if begging:
        _beg(state, duel, choices, begging, out)
        entry["result"] = duel["result"]
        return _close_phase(state, duel, entry, out, data)
    acts = {s: choices[s][0] for s in SIDES}
    for side in SIDES:
        if acts[side] in ("aim", "stand"):
            acts[side] = _calm(state, duel, side, acts[side], dealer, out, data)
        elif acts[side] == "mercy":
            duel["shot"][side] = "mercy"
            out.lines.append(f"{names[side]} fires into the ground: mercy, or disdain.")
    entry["acted"] = dict(acts)
    shooters = [s for s in SIDES if acts[s] == "fire"]
    if shooters:
        _fire(state, duel, shooters, dealer, out, data, entry)
    _pistols_end(state, duel, out)
    entry["result"] = duel["result"]
    return _close_phase(state, duel, entry, out, data)


def _pistols_end(state: State, duel: Duel, out: Outcome) -> None:
    """A pistol duel ends when a duellist is dead, or both have received fire (F10)."""
    names = duel["names"]
    dead = [s for s in SIDES if _health(state, out, names[s]) == "dead"]
    if dead:
        duel["over"] = True
        alive = [s for s in SIDES if s not in dead]
        duel["winner"] = names[alive[0]] if alive else None
        duel["result"] = (f"{' and '.join(names[s] for s in dead)} "
                          f"{'is' if len(dead) == 1 else 'are'} dead")
    elif all(duel["shot"][s] for s in SIDES):
        duel["over"] = True
        duel["result"] = "both have received fire: honour is satisfied"


def _close_phase(state: State, duel: Duel, entry: DuelEntry, out: Outcome,
                 data: FateData) -> Outcome:
    duel["log"].append(entry)
    duel["phase"] += 1
    out.events.append({"kind": "duel_set", "duel": duel})
    out.lines += _prompt(state, duel, data)
    out.data = {"duel": duel, "phase": entry, **out.data}
    return out


def _health(state: State, out: Outcome, name: str) -> str:
    current_state: str = state["chars"][name]["areas"][HEALTH]
    for change in out.data.get("changes", []):
        if change["char"] == name and change["area"] == HEALTH:
            current_state = change["to"]
    return current_state


def _beg(state: State, duel: Duel, choices: dict[str, tuple[str, str | None]],
         begging: list[str], out: Outcome) -> None:
    """Begging is heard first: no shot is fired that phase and the duel ends (F10)."""
    names = duel["names"]
    for side in begging:
        name, rep = names[side], choices[side][1]
        assert rep is not None
        before = state["chars"][name]["areas"][rep]
        after = "dead" if before == "maimed" else "maimed"
        out.events.append({"kind": "area_set", "char": name, "area": rep, "state": after})
        out.data.setdefault("changes", []).append(
            {"char": name, "area": rep, "from": before, "to": after})
        out.lines.append(f"{name} begs: {rep} {before.title()} -> {after.title()} (seed: Beg).")
    duel["over"] = True
    if len(begging) == 2:
        duel["result"] = "both begged"
    else:
        duel["winner"] = names[_other(begging[0])]
        duel["result"] = f"{names[begging[0]]} begged; {duel['winner']} wins"


def _calm(state: State, duel: Duel, side: str, act: str, dealer: Dealer, out: Outcome,
          data: FateData) -> str:
    """An Aim or Stand: a Calm test against a single Card of Fate (F7); failing fires."""
    name = duel["names"][side]
    char = state["chars"][name]
    n = measure(char, data.calm_measure, data)
    cof, cards = dealer.calm(n, f"p{duel['phase']}/{side}/calm", name, data.calm_measure)
    passed = tally(cof, cards).has_success
    out.events.append(drawn_event("calm", dealer, cof=cof.label, cards=[c.label for c in cards],
                                  char=name, act=act, passed=passed))
    shown = f"{data.calm_measure} {n}: {cof} | {format_fate_cards(cards) or '-'}"
    if passed and act == "aim":
        duel["aim"][side] += 1
        out.lines.append(f"{name} aims ({shown}): holds, +{duel['aim'][side]} when firing.")
        return act
    if passed:
        duel["shaken"][_other(side)] += 1
        out.lines.append(f"{name} stands ({shown}): steady, {duel['names'][_other(side)]} fires "
                         f"at -{duel['shaken'][_other(side)]}.")
        return act
    if duel["shot"][side]:
        out.lines.append(f"{name} stands ({shown}): shaken, but has no shot left.")
        return act
    out.lines.append(f"{name} tries to {act} ({shown}): loses their nerve and fires!")
    return "fire"


def _fire(state: State, duel: Duel, shooters: list[str], dealer: Dealer, out: Outcome,
          data: FateData, entry: DuelEntry) -> None:
    """Both fire: a fight, each deals their best result; one fires: a static challenge (F10)."""
    names = duel["names"]
    phase = duel["phase"]
    if len(shooters) == 2:
        pa, pb = _weapon_pool(state, duel, "a", data), _weapon_pool(state, duel, "b", data)
        cof, ca, cb = dealer.contest(pa.size, pb.size, f"p{phase}/fire",
                                     why=(pa.describe(), pb.describe()))
        result = resolve(cof, ca, cb)
        out.lines += result_lines(result, pa, pb, (names["a"], names["b"]))
        out.data["pools"] = {"a": pa.to_json(), "b": pb.to_json()}  # F25, as the lines
        if result.winner != "tie":  # both shots land as they fall (F8, F29)
            apply_damage(state, names["a"], HEALTH, result.b.highest, dealer, out)
            apply_damage(state, names["b"], HEALTH, result.a.highest, dealer, out)
        _spend_drinks([pa, pb], out)
    else:
        # A lone shot: the shooter against a static challenge. Sides stay the duellists'
        # own: the shooter's cards are theirs (--a for a, --b for b), the static side's
        # are the other duellist's (F20).
        side = shooters[0]
        target = _other(side)
        ps = _weapon_pool(state, duel, side, data)
        static = Pool(None, parts=[(f"static {data.lone_shot}", data.static[data.lone_shot],
                                    None)])
        pools = {side: ps, target: static}
        cof, ca, cb = dealer.contest(pools["a"].size, pools["b"].size, f"p{phase}/fire",
                                     why=(pools["a"].describe(), pools["b"].describe()))
        result = resolve(cof, ca, cb)
        labels = {side: names[side], target: "static challenge"}
        out.lines += result_lines(result, pools["a"], pools["b"], (labels["a"], labels["b"]))
        out.data["pools"] = {s: pools[s].to_json() for s in SIDES}  # F25, as the lines
        hit = result.side(side).highest
        if result.winner == side and hit is not None:
            apply_damage(state, names[target], HEALTH, hit, dealer, out)
        elif result.winner == side:
            out.lines.append(f"{names[side]} grazes nothing: winning on high cards alone deals "
                             "no wound (F4).")
        else:
            out.lines.append(f"{names[side]} misses.")
        _spend_drinks([ps], out)
    out.events.append(drawn_event("duel-fire", dealer, result, chars=[names[s] for s in shooters]))
    entry["fire"] = {**result.to_json(), "shooters": list(shooters)}
    for side in shooters:
        duel["shot"][side] = "fire"
        duel["aim"][side] = 0
        duel["shaken"][side] = 0


def duel_round(state: State, typed: Typed = NOTHING_TYPED) -> Outcome:
    """One round of a sword duel: a fight, each deals their best result (F11)."""
    data = tables(state)
    duel = copy.deepcopy(current(state))
    if duel["type"] != "swords":
        raise IllegalAction("this is a pistol duel: fate duel phase CHOICE_A CHOICE_B")
    names = duel["names"]
    dealer = Dealer(duel["deck"], typed, duel["seed"], jokers=data.duel_jokers,
                    second_joker=data.tarot_second_joker)
    out = Outcome()
    pa, pb = _weapon_pool(state, duel, "a", data), _weapon_pool(state, duel, "b", data)
    cof, ca, cb = dealer.contest(pa.size, pb.size, f"r{duel['phase']}",
                                 why=(pa.describe(), pb.describe()))
    result = resolve(cof, ca, cb)
    out.lines.append(f"Round {duel['phase']}:")
    out.lines += result_lines(result, pa, pb, (names["a"], names["b"]))
    out.data["pools"] = {"a": pa.to_json(), "b": pb.to_json()}  # F25, as the lines
    if result.winner != "tie":  # each delivers their highest result (F8, F29)
        apply_damage(state, names["a"], HEALTH, result.b.highest, dealer, out)
        apply_damage(state, names["b"], HEALTH, result.a.highest, dealer, out)
    _spend_drinks([pa, pb], out)
    out.events.append(drawn_event("duel-round", dealer, result, chars=[names["a"], names["b"]]))
    entry: DuelEntry = {"round": duel["phase"], "fight": result.to_json()}
    _swords_end(state, duel, result, out)
    entry["result"] = duel["result"]
    return _close_phase(state, duel, entry, out, data)


def _swords_end(state: State, duel: Duel, result: Result, out: Outcome) -> None:
    """A sword duel ends at a death, or at first blood when fought to it: the one wound, the
    worse wound, or the exchange won when both bleed alike (F11)."""
    names = duel["names"]
    health = {s: _health(state, out, names[s]) for s in SIDES}
    dead = [s for s in SIDES if health[s] == "dead"]
    wounded = [s for s in SIDES if any(c["char"] == names[s] and c["area"] == HEALTH
                                       for c in out.data.get("changes", []))]
    if dead:
        alive = [s for s in SIDES if s not in dead]
        _finish(duel, names[alive[0]] if alive else None,
                f"{' and '.join(names[s] for s in dead)} {'is' if len(dead) == 1 else 'are'} dead")
    elif duel["to"] == "first-blood" and wounded:
        if len(wounded) == 1:
            winner = _other(wounded[0])
            why = f"first blood to {names[winner]}"
        elif STATES.index(health["a"]) != STATES.index(health["b"]):
            winner = "a" if STATES.index(health["a"]) < STATES.index(health["b"]) else "b"
            why = f"both bleed; {names[_other(winner)]} has the worse wound"
        else:
            winner = result.winner
            why = f"both bleed alike; {names[winner]} won the exchange"
        _finish(duel, names[winner], why)


def _finish(duel: Duel, winner: str | None, why: str) -> None:
    duel["over"] = True
    duel["winner"] = winner
    duel["result"] = why + (f"; {winner} wins" if winner and winner not in why else "")


def duel_surrender(state: State, name: str) -> Outcome:
    """A sword duellist yields at the end of a round and loses (seed: Swords, F11)."""
    duel = copy.deepcopy(current(state))
    if duel["type"] != "swords":
        raise IllegalAction("a pistol duellist cannot surrender: they beg (fate duel phase beg "
                            "...)")
    if duel["to"] == "death":
        raise IllegalAction("this duel is to the death: nobody may surrender (F11)")
    names = duel["names"]
    who = match_person(name, names.values(), what="duellist")
    if not any("round" in entry for entry in duel["log"]):
        # "At the end of the test one side can surrender": not before a round (F11).
        raise IllegalAction(f"{who} cannot surrender yet: a duellist yields at the end of a "
                            "round, and none has been fought; play it with fate duel round "
                            "(or stop the duel with fate duel end) (seed: Swords, F11)",
                            ruling="F11")
    winner = names["b"] if who == names["a"] else names["a"]
    _finish(duel, winner, f"{who} surrenders; {winner} wins")
    duel["log"].append({"surrender": who})
    return Outcome([{"kind": "duel_set", "duel": duel}], {"duel": duel},
                   [f"{who} surrenders. {winner} wins the duel."])


def duel_end(state: State, why: str = "stopped by the Host") -> Outcome:
    """Stop the duel under way without a winner (seconds intervene, the police arrive)."""
    duel = copy.deepcopy(current(state))
    _finish(duel, None, why)
    duel["log"].append({"ended": why})
    return Outcome([{"kind": "duel_set", "duel": duel}], {"duel": duel},
                   [f"The duel between {duel['names']['a']} and {duel['names']['b']} ends: "
                    f"{why}."])


def duel_view(state: State) -> Outcome:
    """The duel under way (or the last one), with the options open now."""
    duel = state["duel"]
    if duel is None:
        return Outcome([], {"duel": None}, ["No duel yet."])
    data = tables(state)
    lines = [f"Duel ({duel['type']}{', to ' + duel['to'] if duel['to'] else ''}): "
             f"{duel['names']['a']} (a) against {duel['names']['b']} (b); seed {duel['seed']}."]
    for entry in duel["log"]:
        if "chose" in entry:
            lines.append(f"  phase {entry['phase']}: a {entry['chose']['a']}, "
                         f"b {entry['chose']['b']}" + (f" -> {entry['result']}"
                                                       if entry.get("result") else ""))
        elif "round" in entry:
            lines.append(f"  round {entry['round']}: {entry['fight']['winner']} wins the "
                         "exchange" + (f" -> {entry['result']}" if entry.get("result") else ""))
    lines += _prompt(state, duel, data)
    return Outcome([], {"duel": duel}, lines)
