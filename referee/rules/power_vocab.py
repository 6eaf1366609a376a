"""The small vocabulary a power set uses to say when a power is played and what it does.

Each ``[[powers]]`` table names a ``timing`` (one of :data:`TIMINGS`) and an ``effect``, an
inline table ``{ kind = "...", ... }`` whose kind is one of :data:`EFFECTS` with the
parameters that kind takes. ``{ kind = "by_hand" }`` marks a power the console records and
charges but the GM applies by hand (S12, S13). Pure data and checks: no I/O.

>>> check("own_turn", {"kind": "fold"})
[]
>>> check("any_time", {"kind": "opener", "who": "me"})[0]
('effect.who', "'me' is not one of self, lowest")
>>> check("own_turn", {"kind": "reveal"})
[('effect.who', 'missing; reveal needs who')]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject

#: When a power may be played (S12).
TIMINGS: dict[str, str] = {
    "own_turn": "during a betting round, on the user's own turn",
    "before_turn": "during a betting round, just before another stakeholder acts",
    "round_end": "at the end of a betting round, before the next one opens",
    "before_showdown": "during the hand, before the showdown",
    "any_time": "at any time during a hand",
    "answer_bet": "in answer to another stakeholder's bet or raise",
    "answer_power": "in answer to another stakeholder's power",
}

#: What ``counts_as`` a magic card may count as (R8, S6).
COUNTS_AS = ("any", "same_suit", "own_card", "king", "any_minor", "mirror", "same_rank",
             "target_up", "adjacent")

#: Effect kinds and their parameters: name -> allowed values (a tuple) or ``int`` (1-3).
EFFECTS: dict[str, dict[str, tuple[str, ...] | type]] = {
    "fold": {},                       # the target folds at once; their chips stay in
    "toll": {"chips": int},           # every other stakeholder in pays, not a bet, or folds
    "take_back": {},                  # the bet or raise goes back; its maker acts again
    "skip_turn": {},                  # the player to act checks, or is passed over
    "force_action": {},               # the player to act must take the --action named
    "call_or_fold": {},               # the player to act calls or folds (bets 1 if no bet)
    "must_raise": {},                 # the player to act raises if allowed, else calls
    "no_raises": {},                  # with the user's bet or raise: no raise this round
    "no_fold": {},                    # the target may not fold this round
    "no_bets": {},                    # the target may not bet or raise this round
    "all_in": {},                     # the target plays on as if all-in
    "opener": {"who": ("self", "lowest")},
    "swap_up": {},                    # one up card of the user for one of the target's
    "replace_up": {"who": ("self", "target")},
    "hide_up": {},                    # one of the user's up cards turned face down
    "kill_up": {},                    # one up card of the target dead
    "reveal": {"who": ("target", "both", "all")},
    "discard": {},                    # a card from the deck, then one of the user's discarded
    "counts_as": {"as": COUNTS_AS},   # magic: a card counts as another at the showdown
    "cancel": {},                     # the power answered is cancelled, its Charges lost
    "lose_power": {},                 # one unused power of the target lost, drawn at random
    "surcharge": {"charges": int},    # the target's next power costs more
    "bar_assistant": {},              # the target's assistant may not study or guess
    "exile": {},                      # the target rises when the hand ends, sits one out
    "protect": {"cards": int},        # up to N of the user's cards safe from powers
    # someone sees a card privately; ``unseen``: down cards move unseen, the user's own
    # (``own``) or every stakeholder's in the hand (``all``), E251
    "private": {"target": ("another", "none"), "unseen": ("none", "own", "all")},
    "by_hand": {"target": ("another", "none")},   # recorded; the GM applies it
}

#: Effects that make sense only at one moment.
TIMING_OF: dict[str, tuple[str, ...]] = {
    "take_back": ("answer_bet",),
    "cancel": ("answer_power",),
    "skip_turn": ("before_turn",),
    "force_action": ("before_turn",),
    "call_or_fold": ("before_turn",),
    "must_raise": ("before_turn",),
    "no_raises": ("own_turn",),
    "opener": ("round_end",),
    "no_bets": ("round_end", "own_turn"),
}

#: Parameters that may be left out, and their defaults, by effect kind.
DEFAULTS: dict[str, dict[str, int | str]] = {
    "toll": {"chips": 1}, "surcharge": {"charges": 1}, "protect": {"cards": 1},
    "opener": {"who": "self"}, "replace_up": {"who": "self"},
    "private": {"target": "none", "unseen": "none"}, "by_hand": {"target": "none"},
}


def check(timing: Any, effect: Any) -> list[tuple[str, str]]:
    """Problems of one power's ``timing`` and ``effect`` as (key, reason); empty if fine."""
    out: list[tuple[str, str]] = []
    if timing is None:
        out.append(("timing", f"missing; add timing = one of {', '.join(TIMINGS)}"))
    elif timing not in TIMINGS:
        out.append(("timing", f"{timing!r} is no timing; write one of {', '.join(TIMINGS)}"))
    if effect is None:
        out.append(("effect", 'missing; add effect = { kind = "..." } (or { kind = "by_hand" } '
                    "for a power the GM applies by hand)"))
        return out
    if not isinstance(effect, dict):
        out.append(("effect", 'expected an inline table such as { kind = "fold" }'))
        return out
    kind = effect.get("kind")
    if kind not in EFFECTS:
        out.append(("effect.kind", f"{kind!r} is no effect; write one of {', '.join(EFFECTS)}"))
        return out
    params = EFFECTS[kind]
    for key, value in effect.items():
        if key == "kind":
            continue
        if key not in params:
            known = ", ".join(params) or "none"
            out.append((f"effect.{key}", f"unknown for {kind}; its parameters: {known}"))
        elif params[key] is int:
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 3:
                out.append((f"effect.{key}", f"{value!r} is out of range; write 1, 2 or 3"))
        else:
            allowed = params[key]
            assert isinstance(allowed, tuple)
            if value not in allowed:
                out.append((f"effect.{key}", f"{value!r} is not one of {', '.join(allowed)}"))
    missing = [k for k in params if k not in effect and k not in DEFAULTS.get(kind, {})]
    for key in missing:
        out.append((f"effect.{key}", f"missing; {kind} needs {key}"))
    moments = TIMING_OF.get(kind)
    if moments and timing in TIMINGS and timing not in moments:
        out.append(("timing", f"{kind} is played {' or '.join(TIMINGS[m] for m in moments)}; "
                    f"write timing = {' or '.join(repr(m) for m in moments)}"))
    return out


def param(effect: JSONObject, key: str) -> Any:
    """A parameter of an effect, or its default: a whole number or one of the words the
    vocabulary allows, as ``check`` saw to when the power set was loaded."""
    return effect.get(key, DEFAULTS.get(str(effect["kind"]), {}).get(key))
