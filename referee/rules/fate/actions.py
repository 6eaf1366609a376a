"""Card of Fate commands: tests, fights, drinking, healing, checks and growth.

Each command is pure: it reads the ``fate`` state, turns cards (typed in from a
physical draw, or from a seeded deck, R35), and returns an ``Outcome``: the
events to record, a JSON-able report and the lines a GM reads. It raises a
``RefereeError`` before anything is decided when the request is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.errors import BadInput, IllegalAction
from referee.names import match_name, match_person, quoted
from referee.rules.fate.cards import format_fate_cards
from referee.rules.fate.characters import HEALTH, area_name, find_alive, measure, side_name
from referee.rules.fate.dealer import NOTHING_TYPED, Dealer, Outcome, Typed, deck_kind, drawn_event
from referee.rules.fate.fold import State
from referee.rules.fate.pools import Pool, PoolSpec, build_pool
from referee.rules.fate.resolve import Result, Tier, heal_step, resolve, tally, worsen
from referee.rules.fate.sheet import Char
from referee.rules.fate.tables import tables

# -- gates (R37, F6) ------------------------------------------------------------------------------


def run_gates(state: State, pool: Pool, dealer: Dealer, measure_hint: str | None,
               out: Outcome) -> bool:
    """The Measure tests a Maimed area needs before use; False if Health's test failed."""
    if pool.char is None or not pool.gates:
        return True
    data = tables(state)
    char = state["chars"][pool.char]
    side = side_name(measure_hint, data) if measure_hint else data.gate_measure
    ok = True
    for area in list(pool.gates):
        n = measure(char, side, data)
        label = "Health" if area == HEALTH else area
        cof, cards = dealer.gate(n, pool.char, label, side)
        passed = tally(cof, cards).has_success
        out.events.append(drawn_event("gate", dealer, cof=cof.label, cards=[c.label for c in cards],
                                 char=pool.char, area=area, passed=passed))
        verdict = "passed: acts at -3" if passed else "failed"
        out.lines.append(f"{pool.char}'s {label} is Maimed: {side} test {cof} | "
                         f"{format_fate_cards(cards) or '-'}: {verdict} (R37, F6)")
        out.data.setdefault("gates", []).append(
            {"char": pool.char, "area": area, "measure": side, "cof": cof.label,
             "cards": [c.label for c in cards], "passed": passed})
        if not passed:
            if area == HEALTH:
                ok = False
            else:
                pool.drop_area(area)
                out.lines.append(f"{pool.char} cannot use {area!r} this time.")
    return ok


# -- damage (R37) -------------------------------------------------------------------------------


def apply_damage(state: State, who: str, area: str, tier: Tier | None, dealer: Dealer, out: Outcome,
            *, at_least_one: bool = False) -> None:
    char = state["chars"][who]
    before = char["areas"][area]
    if tier is None and not at_least_one:
        return
    after = worsen(before, tier or "ordinary")
    if after == before:
        return
    char_label = "Health" if area == HEALTH else area
    out.events.append({"kind": "area_set", "char": who, "area": area, "state": after})
    out.data.setdefault("changes", []).append(
        {"char": who, "area": area, "from": before, "to": after})
    out.lines.append(f"{who}: {char_label} {before.title()} -> {after.title()} (R37)")
    if area == HEALTH and after == "maimed":
        _complication(state, who, dealer, out)


def _complication(state: State, who: str, dealer: Dealer, out: Outcome) -> None:
    data = tables(state)
    card = dealer.complication(who)
    if card.is_ace:
        kind = "ace"
    else:
        kind = ("red-" if card.is_red else "black-") + ("face" if card.is_face else "number")
    row = data.complications[kind]
    note = f"Maimed complication ({card}): {row.text}"
    if row.choice:
        note += f"; {row.choice.replace('NAME', quoted(who))}"
    out.events.append({"kind": "note_added", "char": who, "note": note})
    if row.trait:
        # A second scar deepens the first, up to the Trait cap.
        trait = state["chars"][who]["traits"].get(row.trait, {"bonus": 0, "cost": 0})
        bonus = min(data.creation["trait_max_bonus"], trait["bonus"] + row.trait_bonus)
        out.events.append({"kind": "trait_set", "char": who, "trait": row.trait, "bonus": bonus,
                           "cost": trait["cost"]})
    if row.infection:
        out.events.append({"kind": "infection_set", "char": who, "value": True})
    out.data.setdefault("complications", []).append({"char": who, "card": card.label,
                                                     "kind": kind, "text": note})
    out.lines.append(f"{who}: {note} (F9)")


# -- tests --------------------------------------------------------------------------------------


def _need_pools(pa: Pool, pb: Pool, typed: Typed) -> None:
    if typed.any:
        return
    if not pa.known:
        raise BadInput("give a pool for side a: --pool N, or --char NAME --measure M; or type "
                       "the draw with --cof/--a/--b")
    if not pb.known:
        raise BadInput("give the opposition: --vs N, --static LEVEL, or --vs-char NAME "
                       "--vs-measure M; or type the draw with --cof/--a/--b")


def run_test(state: State, a: PoolSpec, b: PoolSpec, *, typed: Typed = NOTHING_TYPED,
             seed: int | None = None, deck: str | None = None,
             names: tuple[str, str] = ("side a", "side b")) -> Outcome:
    """A test (R36): side a against side b, pools worked out from numbers or characters.

    Recorded only when a character takes part: staked Reputations on the losing
    side move down the R37 ladder (F4); a drink modifier and Experience cards are used up.
    """
    data = tables(state)
    dealer = Dealer(deck_kind(state, deck), typed, seed)
    for spec, flags in ((a, "--measure M (or --pool N)"), (b, "--vs-measure M (or --vs N)")):
        if spec.char is not None and spec.measure is None and spec.base is None:
            raise BadInput(f"which Measure does {spec.char} test? give {flags}")
    pa, pb = build_pool(state, a, data), build_pool(state, b, data)
    if pa.char is not None and pa.char == pb.char:
        raise BadInput(f"{pa.char} cannot test against themself")
    _need_pools(pa, pb, typed)
    out = Outcome()
    for pool, spec in ((pa, a), (pb, b)):
        if not run_gates(state, pool, dealer, spec.measure, out):
            out.lines.append(f"{pool.char} cannot even attempt it: the test is not made (F6).")
            out.data.update({"attempted": False, "seed": dealer.shown_seed})
            return out
    cof, ca, cb = dealer.contest(pa.size if pa.known else None, pb.size if pb.known else None,
                                 why=(pa.describe(), pb.describe()))
    result = resolve(cof, ca, cb)
    out.data = {**result.to_json(), "seed": dealer.shown_seed,
                "pools": {"a": pa.to_json(), "b": pb.to_json()}, **out.data}
    out.lines[:0] = result_lines(result, pa, pb, names)
    _after_test(state, result, pa, pb, dealer, out)
    if pa.char or pb.char:
        out.events.insert(0, drawn_event("test", dealer, result, chars=[pa.char, pb.char]))
    return out


def result_lines(result: Result, pa: Pool, pb: Pool,
                 names: tuple[str, str] = ("side a", "side b")) -> list[str]:
    lines = [f"Card of Fate: {result.cof}"]
    for who, pool, tally_ in (("a", pa, result.a), ("b", pb, result.b)):
        name = pool.char or names[0 if who == "a" else 1]
        if not name.endswith(f" {who}"):
            name += f" ({who})"
        lines.append(
            f"{name}: {format_fate_cards(tally_.cards) or '-'}  -> "
            f"{tally_.perfect} perfect, {tally_.critical} critical, {tally_.ordinary} ordinary")
        if pool.known:
            lines.append(f"    pool {pool.describe()}")
    if result.winner == "tie":
        lines.append(f"Tie: {result.why}")
    else:
        win = result.a if result.winner == "a" else result.b
        pool = pa if result.winner == "a" else pb
        name = pool.char or names[0 if result.winner == "a" else 1]
        if not name.endswith(f" {result.winner}"):
            name += f" ({result.winner})"
        lines.append(f"Winner: {name}, best result "
                     f"{win.highest or 'no success'}: {result.why}")
    return lines


def _after_test(state: State, result: Result, pa: Pool, pb: Pool, dealer: Dealer,
                out: Outcome) -> None:
    """What any recorded test changes: staked Reputations, drink modifier, Experience cards."""
    if result.winner != "tie":
        loser = pb if result.winner == "a" else pa
        winner = result.side(result.winner)
        if loser.char is not None:
            for rep in loser.staked:
                apply_damage(state, loser.char, rep, winner.highest, dealer, out, at_least_one=True)
    for pool in (pa, pb):
        if pool.char is None:
            continue
        if pool.next_mod:
            out.events.append({"kind": "next_mod_set", "char": pool.char, "value": 0})
        for exp in pool.exps:
            out.events.append({"kind": "exp_spent", "char": pool.char, "exp": exp})


def compel(state: State, name: str, side: str, *, typed: Typed = NOTHING_TYPED,
           seed: int | None = None, deck: str | None = None) -> Outcome:
    """A compelled test (F14): a Measure at 8-9 against its other side; winning compels."""
    data = tables(state)
    char = find_alive(state, name)
    chosen = side_name(side, data)
    value = measure(char, chosen, data)
    if value < data.compelled_from:
        raise IllegalAction(f"{char['name']} has {chosen} {value}: only {data.compelled_from}-"
                            f"{data.creation['measure_max']} compel a test (seed: Changing)")
    first, second = data.pair_of(chosen)
    other = second if chosen == first else first
    dealer = Dealer(deck_kind(state, deck), typed, seed)
    cof, ca, cb = dealer.contest(value, measure(char, other, data),
                                 why=(f"{value} = {chosen} {value}",
                                      f"{10 - value} = {other} {10 - value}"))
    result = resolve(cof, ca, cb)
    pa = Pool(char["name"], parts=[(chosen, value, None)])
    pb = Pool(None, parts=[(other, 10 - value, None)])
    lines = result_lines(result, pa, pb, (char["name"], other))
    compelled = result.winner == "a"
    lines.append(f"{char['name']} is compelled to act {chosen}." if compelled else
                 f"{char['name']} may choose freely this time.")
    data_out = {**result.to_json(), "seed": dealer.shown_seed, "compelled": compelled}
    return Outcome([], data_out, lines)


def static_pool(state: State, level: str, extras: tuple[tuple[str, int], ...] = (),
                ) -> PoolSpec:
    """Static opposition by level (``routine`` ... ``heroic``, unique prefix) or by its number
    of cards (``9`` is heroic; another number is a static pool of that size) (seed, F28).

    Raises:
        UnknownName: no such level.
        BadInput: a number below 0.
    """
    data = tables(state)
    raw = level.strip()
    if raw.isascii() and raw.lstrip("+-").isdigit():
        n = int(raw)
        if n < 0:
            raise BadInput(f"--static {n}: static opposition cannot be below 0 cards; the "
                           f"levels are {_levels(data)} (F28)", ruling="F28")
        named = [name for name, size in data.static.items() if size == n]
        return PoolSpec(base=n, base_label=f"static {named[0]}" if named else "static",
                        extras=extras)
    name = match_name(raw.replace("_", "-").replace(" ", "-"), data.static,
                      what="static level")
    return PoolSpec(base=data.static[name], base_label=f"static {name}", extras=extras)


def _levels(data: Any) -> str:
    return ", ".join(f"{name} {size}" for name, size in data.static.items())


# -- fights -------------------------------------------------------------------------------------


def weapon(char: Char, text: str | None, default: int, default_label: str,
           ) -> tuple[int, str]:
    """A weapon's pool: a number, one of the character's items, or the default."""
    if text is None:
        return default, default_label
    raw = text.strip()
    if raw.isascii() and raw.lstrip("+-").isdigit():
        n = int(raw)
        if n < 0:
            raise BadInput(f"a weapon pool cannot be below 0 (got {n})")
        return n, "weapon"
    item = match_person(raw, char["items"], what=f"item of {char['name']}")
    return char["items"][item], item


def fight(state: State, a: str, b: str, *, a_weapon: str | None = None,
          b_weapon: str | None = None, a_traits: Sequence[str] = (),
          b_traits: Sequence[str] = (), a_reps: Sequence[str] = (),
          b_reps: Sequence[str] = (), unaware: str | None = None, static: str | None = None,
          typed: Typed = NOTHING_TYPED, seed: int | None = None,
          deck: str | None = None) -> Outcome:
    """One full combat in one draw (seed: Fighting, F8): each side deals its best result."""
    data = tables(state)
    ca, cb = find_alive(state, a), find_alive(state, b)
    if ca["name"] == cb["name"]:
        raise BadInput(f"{ca['name']} cannot fight themself")
    # A character's usual weapon and Traits unless the command names others (F24).
    a_weapon, a_traits = usual_or(ca, a_weapon, a_traits)
    if static is None:
        b_weapon, b_traits = usual_or(cb, b_weapon, b_traits)
    unaware_side = None
    if unaware is not None:
        unaware_side = match_person(unaware, [ca["name"], cb["name"]], what="fighter")
    extras: dict[str, tuple[tuple[str, int], ...]] = {ca["name"]: (), cb["name"]: ()}
    if unaware_side is not None:
        attacker = cb["name"] if unaware_side == ca["name"] else ca["name"]
        extras[attacker] = ((f"{unaware_side} unaware", data.unaware_bonus),)
    wa, la = weapon(ca, a_weapon, data.unarmed_pool, "unarmed")
    spec_a = PoolSpec(char=ca["name"], base=wa, base_label=la, traits=tuple(a_traits),
                      reps=tuple(a_reps), extras=extras[ca["name"]], physical=True)
    if static is not None:
        if b_weapon or b_traits or b_reps:
            raise BadInput("with --static the target cannot return fire: no --b-weapon, "
                           "--b-trait or --b-rep")
        spec_b = static_pool(state, static, extras[cb["name"]])
    else:
        wb, lb = weapon(cb, b_weapon, data.unarmed_pool, "unarmed")
        spec_b = PoolSpec(char=cb["name"], base=wb, base_label=lb, traits=tuple(b_traits),
                          reps=tuple(b_reps), extras=extras[cb["name"]], physical=True)
    dealer = Dealer(deck_kind(state, deck), typed, seed)
    pa, pb = build_pool(state, spec_a, data), build_pool(state, spec_b, data)
    out = Outcome()
    for pool in (pa, pb):
        if not run_gates(state, pool, dealer, None, out):
            pool.unable = True
            out.lines.append(f"{pool.char} cannot fight back: draws no cards (F6).")
    cof, cards_a, cards_b = dealer.contest(pa.size, pb.size, why=(pa.describe(), pb.describe()))
    result = resolve(cof, cards_a, cards_b)
    out.data = {**result.to_json(), "seed": dealer.shown_seed,
                "pools": {"a": pa.to_json(), "b": pb.to_json()}, **out.data}
    out.lines[:0] = result_lines(result, pa, pb, (ca["name"], cb["name"]))
    events_before = len(out.events)
    _wounds(state, (ca["name"], cb["name"]), result, static is not None, dealer, out)
    _after_test(state, result, pa, pb, dealer, out)
    if len(out.events) == events_before and result.winner != "tie":
        out.lines.append("No wound: the best result was no success.")
    out.lines.append(_fight_end(state, out, ca["name"], cb["name"], result))
    out.events.insert(0, drawn_event("fight", dealer, result, chars=[ca["name"], cb["name"]]))
    out.data["seed"] = dealer.shown_seed
    return out


def _wounds(state: State, names: tuple[str, str], result: Result, is_static: bool,
            dealer: Dealer, out: Outcome) -> None:
    """What a fight's draw deals: no wound on a tie; a static target only takes one."""
    if result.winner == "tie":
        return
    a, b = names
    if not is_static:
        # The loser strikes too: each delivers their highest result (F8, F29); a's wound
        # first, so that typed complications come a's before b's (F20).
        apply_damage(state, a, HEALTH, result.b.highest, dealer, out)
        apply_damage(state, b, HEALTH, result.a.highest, dealer, out)
    elif result.winner == "a":
        apply_damage(state, b, HEALTH, result.a.highest, dealer, out)


def usual_or(char: Char, weapon_text: str | None, traits: Sequence[str],
             ) -> tuple[str | None, tuple[str, ...]]:
    """The weapon and fighting Traits a command names, else the character's usual ones (F24);
    ``--a-trait ""`` names none."""
    kept = char.get("usual")
    if [t.strip() for t in traits] == [""]:
        named: tuple[str, ...] = ()
    else:
        named = tuple(traits) if traits else tuple(kept.get("traits", ()) if kept else ())
    return (weapon_text if weapon_text is not None else kept.get("weapon") if kept else None,
            named)


def _fight_end(state: State, out: Outcome, a: str, b: str, result: Result) -> str:
    dead = [c["char"] for c in out.data.get("changes", [])
            if c["area"] == HEALTH and c["to"] == "dead"]
    if dead:
        return f"{' and '.join(dead)} {'is' if len(dead) == 1 else 'are'} dead."
    if result.winner == "tie":
        return "A tie: nothing changes (R36)."
    loser = b if result.winner == "a" else a
    return f"Neither died: {loser} surrendered in some way (seed: Fighting)."


# -- drinking, healing, changing ----------------------------------------------------------------


def drink(state: State, name: str, strength: int, *, traits: Sequence[str] = (),
          typed: Typed = NOTHING_TYPED, seed: int | None = None,
          deck: str | None = None) -> Outcome:
    """Bohemian against the strength of the drink (F12): the result bears on the next test.
    A poisoning at Weir's Wager is no drink: it never comes here (F31)."""
    data = tables(state)
    char = find_alive(state, name)
    if strength < 0:
        raise BadInput(f"a drink's strength cannot be below 0 (got {strength})")
    spec_a = PoolSpec(char=char["name"], measure=data.drink_measure, traits=tuple(traits),
                      use_next_mod=False)
    spec_b = PoolSpec(base=strength, base_label="strength of the drink")
    out = run_test(state, spec_a, spec_b, typed=typed, seed=seed, deck=deck,
                   names=(char["name"], "the drink"))
    win, got = out.data["winner"], out.data["a"]
    key = "tie" if win == "tie" else "lose" if win == "b" else next(
        (tier for tier in ("perfect", "critical", "ordinary") if got[tier]), "none")
    mod = data.drink[key]
    after = char["next_mod"] + mod
    if mod:
        out.events.append({"kind": "next_mod_set", "char": char["name"], "value": after})
    out.data["drink"] = {"outcome": key, "modifier": mod, "next_test": after}
    text = {1: "dutch courage", 0: "no penalty", -1: "a penalty"}.get(mod, "a modifier")
    out.lines.append(f"{char['name']}: {text} ({mod:+d} card{'s' if abs(mod) != 1 else ''} on "
                     f"the next test; now {after:+d}) (F12)")
    return out


def heal(state: State, name: str, area: str, side: str, *, traits: Sequence[str] = (),
         typed: Typed = NOTHING_TYPED, seed: int | None = None, deck: str | None = None) -> Outcome:
    """A convalescence (F13): the time the state needs and a test against a single Card of Fate.

    Success heals one step; failure still spends the time and adds a card to the next try.
    """
    data = tables(state)
    char = find_alive(state, name)
    who = char["name"]
    chosen = area_name(char, area)
    before = char["areas"][chosen]
    label = "Health" if chosen == HEALTH else chosen
    if before == "healthy":
        raise IllegalAction(f"{who}'s {label} is Healthy: nothing to heal")
    if before == "dead":
        raise IllegalAction(f"{who}'s {label} is Dead: that cannot heal", ruling="R37")
    m = side_name(side, data)
    bonus = char["heal_bonus"].get(chosen, 0)
    # The wound being healed costs no card and needs no Measure test first: the rule text's
    # price is the time and the test; convalescence is no bodily action and stakes no
    # Reputation, so no other wound bears on it either (F30).
    spec = PoolSpec(char=who, measure=m, traits=tuple(traits), use_next_mod=False,
                    extras=(("earlier failed convalescence", bonus),) if bonus else ())
    pool = build_pool(state, spec, data)
    dealer = Dealer(deck_kind(state, deck), typed, seed)
    cof, cards = dealer.single_typed(pool.size, f"heal/{who}/{label}", why=pool.describe())
    passed = tally(cof, cards).has_success
    time = data.heal_time[before]
    infected = chosen == HEALTH and before == "maimed" and char["infection"]
    if infected:  # the extra month is charged once, on this convalescence (F9, F23)
        time += f" and {data.infection_time}"
    out = Outcome()
    out.events.append(drawn_event("heal", dealer, cof=cof.label, cards=[c.label for c in cards],
                             char=who, area=chosen, passed=passed))
    out.lines.append(f"{who} convalesces ({label} {before.title()}): {time}.")
    out.lines.append(f"{m} test: Card of Fate {cof} | {format_fate_cards(cards) or '-'}: "
                     f"{'passed' if passed else 'failed'} (F7)")
    out.lines.append(f"    pool {pool.describe()}")
    after = _healed(out, who, (chosen, label), before, passed, bonus)
    if infected:
        out.events.append({"kind": "infection_set", "char": who, "value": False})
        out.lines.append("The infection's extra month is served with this convalescence"
                         + (" and the wound is healed" if passed else ", healed or not")
                         + ": later tries take the usual time (F23).")
    out.data = {"char": who, "area": chosen, "from": before, "to": after, "time": time,
                "measure": m, "cof": cof.label, "cards": [c.label for c in cards],
                "passed": passed, "next_bonus": 0 if passed else bonus + 1,
                "seed": dealer.shown_seed}
    return out


def _healed(out: Outcome, who: str, area: tuple[str, str], before: str, passed: bool,
            bonus: int) -> str:
    """A convalescence's test told (``area``: its key and its label): one step healed and the
    extra cards spent, or the state kept and one more card for the next try (F13)."""
    chosen, label = area
    if not passed:
        out.events.append({"kind": "heal_bonus_set", "char": who, "area": chosen,
                           "value": bonus + 1})
        out.lines.append(f"{who}: {label} stays {before.title()}. The time is spent all the "
                         f"same; +{bonus + 1} card{'s' if bonus else ''} on the next try of "
                         f"this area (seed: To Heal, F13).")
        return before
    after = heal_step(before)
    out.events.append({"kind": "area_set", "char": who, "area": chosen, "state": after})
    if bonus:
        out.events.append({"kind": "heal_bonus_set", "char": who, "area": chosen, "value": 0})
    out.lines.append(f"{who}: {label} {before.title()} -> {after.title()}"
                     + (f"; the {bonus} extra card{'s' if bonus != 1 else ''} of earlier "
                        "tries are spent." if bonus else "."))
    return after


def check(state: State, name: str, side: str) -> Outcome:
    """Record a check: the character acted by a Measure when it mattered (seed: Changing)."""
    data = tables(state)
    char = find_alive(state, name)
    chosen = side_name(side, data)
    n = char["checks"].get(chosen, 0) + 1
    lines = [f"{char['name']}: {n} check{'s' if n != 1 else ''} in {chosen}."]
    if n >= data.checks_to_grow:
        lines.append(f"Enough to soul-search: fate grow {quoted(char['name'])} {chosen.lower()}")
    value = measure(char, chosen, data)
    compelled = value >= data.compelled_from
    if compelled:
        lines.append(f"{chosen} {value}: {char['name']} is compelled to test it whenever the "
                     f"situation arises: fate compel {quoted(char['name'])} {chosen.lower()} (F14)")
    return Outcome([{"kind": "checks_set", "char": char["name"], "measure": chosen, "value": n}],
                   {"char": char["name"], "measure": chosen, "checks": n,
                    "can_grow": n >= data.checks_to_grow, "compelled": compelled}, lines)


def grow(state: State, name: str, side: str, *, typed: Typed = NOTHING_TYPED,
         seed: int | None = None, deck: str | None = None) -> Outcome:
    """A week of soul-searching (F14): test the Measure; if it fails, it grows by one."""
    data = tables(state)
    char = find_alive(state, name)
    who = char["name"]
    chosen = side_name(side, data)
    have = char["checks"].get(chosen, 0)
    if have < data.checks_to_grow:
        raise IllegalAction(f"{who} has {have} check{'s' if have != 1 else ''} in {chosen}; "
                            f"{data.checks_to_grow} are needed to test it (seed: Changing)")
    value = measure(char, chosen, data)
    top = data.creation["measure_max"]
    if value >= top:
        raise IllegalAction(f"{who}'s {chosen} is already {value}, the most a Measure can be")
    dealer = Dealer(deck_kind(state, deck), typed, seed)
    cof, cards = dealer.single_typed(value, f"grow/{who}/{chosen}",
                                     why=f"{value} = {chosen} {value}")
    passed = tally(cof, cards).has_success
    first, second = data.pair_of(chosen)
    out = Outcome()
    out.events.append(drawn_event("grow", dealer, cof=cof.label, cards=[c.label for c in cards],
                             char=who, measure=chosen, passed=passed))
    out.events.append({"kind": "checks_set", "char": who, "measure": chosen, "value": 0})
    out.lines.append(f"{who} soul-searches for a week. {chosen} test: Card of Fate {cof} | "
                     f"{format_fate_cards(cards) or '-'}: {'passed' if passed else 'failed'}.")
    new = value
    if not passed:
        new = value + 1
        stored = new if chosen == first else 10 - new
        out.events.append({"kind": "measure_set", "char": who, "measure": first, "value": stored})
        out.lines.append(f"{who}'s {chosen} grows to {new} ({first} {stored} / {second} "
                         f"{10 - stored}).")
    else:
        out.lines.append(f"{who}'s {chosen} stays {value}; the checks are spent (F14).")
    out.data = {"char": who, "measure": chosen, "from": value, "to": new, "cof": cof.label,
                "cards": [c.label for c in cards], "passed": passed, "seed": dealer.shown_seed}
    return out
