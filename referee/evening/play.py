"""The hand at the table: deal, up cards, betting actions, corrections, the showdown.

GM requests -> events, like ``commands``: pure functions of the State and the GM's words that
return the events of one command or raise a RefereeError saying what is wrong and what is
allowed now. Every list returned has been replayed on a copy, so it always folds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.errors import BadInput, IllegalAction, UnknownCard
from referee.evening import betting, clock
from referee.evening.events import Action, CardsFixed, EveningEvent
from referee.evening.folds import fold_on, replay
from referee.evening.known import DISCARDED, Known
from referee.evening.known import known as known_cards
from referee.evening.lookup import parse_chips, player
from referee.evening.state import HandState, State, copy, require_evening
from referee.rules.cards import Card, parse_cards
from referee.rules.pots import pick_chips
from referee.said import Suggest
from referee.said import said as says

STATUS = Suggest(("status",))  #: the move that shows the hand


def _show(*args: str) -> Suggest:
    """``hand show`` named in passing, with its arguments (E240)."""
    return Suggest(("hand", "show"), args, mention=True)


def _fix(name: str) -> Suggest:
    """``hand fix NAME OLD NEW`` named in passing (E25, E240)."""
    return Suggest(("hand", "fix"), (name, "OLD", "NEW"), mention=True)

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject

def need_hand(state: State) -> HandState:
    require_evening(state)
    if state.hand is None:
        raise IllegalAction(says("no hand in progress; deal one with ",
                                 Suggest(("hand", "start"))))
    return state.hand


def require_not_over(state: State) -> None:
    if state.over:
        raise IllegalAction(f"the game is over: {state.winner or 'nobody'} and the Fool are "
                            "the only ones holding chips (R18)", ruling="R18")


def start_hand(state: State, *, now: float, open_phase: bool = False) -> list[EveningEvent]:
    """Deal in every seated stakeholder holding chips, and the Fool (R14, R15); antes (R13).

    Antes and bets come from the stakeholder's own stack, never the assistant's (E10).
    """
    require_evening(state)
    require_not_over(state)
    if state.hand is not None:
        raise IllegalAction(says(f"hand {state.hand.no} is still in progress; finish it first: ",
                                 betting.act_hint(state, state.hand)))
    # E200: dealing ends a pause or a break: play has begun again (R47)
    events: list[EveningEvent] = clock.resumed_by_deal(state, now)
    # E12: an open phase declared between hands (or mid-hand) starts with this hand (R13)
    phase = "open" if (state.phase == "open" or state.open_pending or open_phase) else "limit"
    if open_phase and state.phase != "open":
        events.append({"kind": "phase_opened", "time": now})
    dealt = [s.name for s in state.seats
             if s.seated and not s.resigned and not s.dead and state.stack(s.name) > 0]
    if not dealt:
        raise IllegalAction("no seated stakeholder holds chips; nobody can be dealt in (R14)")
    antes: dict[str, dict[str, int]] = {}
    if phase == "open":
        for name in dealt:
            antes[name] = pick_chips(state.holding(name), 1, own=state.colour_of(name),
                                     own_first=state.own_colour_first)
    events.append({"kind": "hand_started", "no": state.hands_played + 1,
                   "order": [*dealt, state.fool], "antes": antes, "phase": phase, "time": now})
    replay(state, events)
    return events


# -- up cards (R9) ------------------------------------------------------------------------------


def forfeited(hand: HandState) -> dict[str, str]:
    """Cards given to the Fool for a power this hand, and by whom: out of the hand (R26)."""
    return {card: who for who, cards in hand.forfeited.items() for card in cards}


def _check_card_free(seen: Known, name: str, card: Card, taken: dict[str, str]) -> None:
    """A card may show for one player only, never after it went to the Fool or a power threw
    it away, and never when it is known as another player's face-down card (R8, R26, R44):
    ``seen``, the hand's known cards, read once for the whole command."""
    why = seen.out.get(card.short)
    if why is not None and why[1] == DISCARDED:  # S21
        raise BadInput(f"{card.short} ({card.name}) was discarded by a power "
                       f"({why[0]}); it is out of this hand (S21)", ruling="S21")
    if why is not None:
        raise BadInput(f"{card.short} ({card.name}) was given to the Fool by {why[0]} "
                       "for a power; it is out of this hand (R26; --magic if a power changed "
                       "the cards)", ruling="R26")
    owner, how = seen.owners.get(card.short, (name, "up"))
    if owner != name and how == "hooded":  # R44: a down card the console knows
        raise BadInput(f"{card.short} ({card.name}) is {owner}'s: turned face down by a power "
                       f"(hooded); a deck holds each card once (R8, R44; --magic if a power "
                       "changed the cards)", ruling="R44")
    if owner != name and how != "up":  # E56
        raise BadInput(f"{card.short} ({card.name}) is {owner}'s: {how} named it as one of "
                       f"{owner}'s cards; a deck holds each card once (R8, E56; --magic if a "
                       "power changed the cards)", ruling="E56")
    other = taken.get(card.short)
    if other is not None and other != name:
        raise BadInput(f"{card.short} ({card.name}) is already showing for {other}; a deck "
                       "holds each card once (R8; --magic if a power changed the cards)",
                       ruling="R8")


def _showing_owners(hand: HandState) -> dict[str, str]:
    return {c: who for who, shown in hand.showing.items() for c in shown}


def _new_up_cards(state: State, hand: HandState, name: str, text: str, *, magic: bool,
                  taken: dict[str, str], seen: Known) -> list[str]:
    """``name``'s up cards after ``hand show NAME TEXT``: the ones already showing stay (R9,
    E25). Cards none of which are showing yet (or ``+CARDS``) are added to them; all of them
    again with new ones is the whole list; more than the deal has turned up is refused."""
    old = list(hand.showing.get(name, []))
    cards = parse_cards(text.replace("+", " "))
    if not cards:
        raise BadInput(says(f"no cards given for {name}; write ", _show(name, "CARDS"),
                            " (all up cards so far) or ", _show(name, "+CARDS"), " (the new ones)"))
    shorts = [c.short for c in cards]
    adding = text.lstrip().startswith("+") or not any(s in old for s in shorts)
    if adding:
        again = [s for s in shorts if s in old]
        if again and not magic:
            raise BadInput(says(f"{name} already shows {', '.join(again)}; a + adds new up "
                                f"cards only (showing now: {' '.join(old)}); ", STATUS,
                                " shows the hand"))
        new = old + shorts
    else:
        dropped = [c for c in old if c not in shorts]
        if dropped:
            raise IllegalAction(
                says(f"{name} already shows {' '.join(old)}; up cards never change silently: "
                     f"this would drop {' '.join(dropped)}. Add new ones with ",
                     _show(name, "+CARDS"), ", or correct one with ", _fix(name), " (R9, E25)"),
                ruling="E25")
        new = old + [s for s in shorts if s not in old]
        if magic:  # a card shown twice by magic stays twice
            extra = list(shorts)
            for kept in old:
                extra.remove(kept)
            new = old + extra
    allowed = betting.up_cards_dealt(state, hand, name)
    current = None if hand.betting_over else betting.to_act(state, hand)
    later = 0 if hand.betting_over or hand.round.street >= 3 else (
        betting.UP_CARDS[hand.round.street + 1][1 if name == state.fool else 0]
        - hand.shift.get(name, 0))
    if allowed < len(new) <= later and current is not None:
        # R9: the next deal comes once this round's betting is over; say so, with the turn.
        owes = betting.owed(state, hand, current)
        what = f"owes {owes}" if owes else " or ".join(
            (betting.options(state, hand) or betting.Options(current, 0, ("check",))).moves)
        raise IllegalAction(says(f"round {hand.round.street} is still being bet: {current} to "
                                 f"act ({what}); give {name}'s next up cards once it is over; "
                                 "now ", betting.move_commands(state, hand), " (R9)"),
                            ruling="R9")
    if len(new) > allowed:
        when = ("all the deal" if hand.betting_over
                else f"round {hand.round.street}")
        next_ = ""
        if not hand.betting_over and hand.round.street < 3:
            later = betting.UP_CARDS[hand.round.street + 1][1 if name == state.fool else 0]
            next_ = f"; after the next deal {later}"
        who = "the Fool" if name == state.fool else name
        shown = (says(f"; {name} already shows {' '.join(old)}, and these would be added: to "
                      "change one, ", _fix(name), " (E25)") if old and adding else says())
        raise BadInput(f"{len(new)} up cards for {who}, but {allowed} are dealt face up by "
                       f"{when} (two down, two up, two up, one down; the Fool's all up){next_}"
                       f"{shown} (R9)", ruling="R9")
    if not magic:
        for c in cards:
            if shorts.count(c.short) > 1:
                raise BadInput(f"{c.short} ({c.name}) given twice; a deck holds each card once "
                               "(R8; --magic if a power changed the cards)", ruling="R8")
            _check_card_free(seen, name, c, taken)
    return new


def by_names(state: State, words: list[str]) -> list[tuple[str, str]]:
    """``Ada KC KW Cy 2S 3P`` -> [("Ada", "KC KW"), ("Cy", "2S 3P")] (E27): the first word
    names a player (any unique prefix); after it, a word that is a player's whole name, and no
    card, starts the next player's cards."""
    from referee.rules.cards import parse_card

    if not words:
        raise BadInput("name a player and their cards: `NAME CARDS [NAME CARDS ...]`")
    names = {n.lower(): n for n in [*state.stakeholders, state.fool]}
    out: list[tuple[str, str]] = [(words[0], "")]
    for word in words[1:]:
        is_card = True
        try:
            parse_card(word.lstrip("+"))
        except UnknownCard:
            is_card = False
        if word.lower() in names and not is_card:
            out.append((names[word.lower()], ""))
        else:
            out[-1] = (out[-1][0], f"{out[-1][1]} {word}".strip())
    return out


def show(state: State, items: list[tuple[str, str]], *, magic: bool = False) -> list[EveningEvent]:
    """Players' face-up cards so far (R9): all of ``items`` or nothing. Cards already showing
    stay; ``+CARDS`` adds the new ones. The Fool's forced move follows once the round's up
    cards are all given (E4)."""
    hand = need_hand(state)
    if not items:
        raise BadInput(says("name the cards: ", _show("NAME", "CARDS"), " or ",
                            _show("NAME: CARDS", "...")))
    taken = _showing_owners(hand)
    known = known_cards(hand)  # R44: read once for every player's cards
    events: list[EveningEvent] = []
    seen: set[str] = set()
    for who, text in items:
        name = player(state, who)
        if name not in hand.order:
            raise IllegalAction(f"{name} is not dealt into hand {hand.no}")
        if name in hand.folded:
            raise IllegalAction(f"{name} has folded this hand; their cards no longer count")
        if name in seen:
            raise BadInput(says(f"{name}'s cards are given twice in one ", _show()))
        seen.add(name)
        new = _new_up_cards(state, hand, name, text, magic=magic, taken=taken, seen=known)
        if new == hand.showing.get(name, []):
            continue
        for c in new:
            taken.setdefault(c, name)
        events.append({"kind": "cards_shown", "name": name, "cards": new})
    if not events:
        shown = "; ".join(f"{n} {' '.join(hand.showing.get(n, []))}" for n in seen)
        raise BadInput(says(f"nothing new: already showing {shown}; ", STATUS, " shows the hand"))
    sim = replay(state, events)
    forced, _ = fool_moves(sim)
    return events + forced


def show_cards(state: State, who: str, cards_text: str, *,
               magic: bool = False) -> list[EveningEvent]:
    """``show`` for one player: ``hand show NAME CARDS``."""
    return show(state, [(who, cards_text)], magic=magic)


def show_said(state: State, items: list[tuple[str, str]], words: list[str], *,
              magic: bool = False) -> list[EveningEvent]:
    """``hand show`` as the GM says it (E27): ``items`` as ``NAME: CARDS`` pairs, or else
    ``words`` grouped against the evening's players (``by_names``)."""
    return show(state, items or by_names(state, words), magic=magic)


def fix(state: State, who: str, old_text: str, new_text: str, *, magic: bool = False,
        ) -> list[EveningEvent]:
    """The explicit correction of one up card (E25): says what changed and whether it would
    have changed who opened a round already played; the betting stands."""
    hand = need_hand(state)
    name = player(state, who)
    if name not in hand.order:
        raise IllegalAction(f"{name} is not dealt into hand {hand.no}")
    shown = list(hand.showing.get(name, []))
    from referee.rules.cards import parse_card

    old, new = parse_card(old_text), parse_card(new_text)
    if old.short not in shown:
        raise BadInput(says(f"{old.short} is not among {name}'s up cards "
                            f"({' '.join(shown) or 'none yet'}); ", _fix(name),
                            " corrects a card already showing"))
    if old.short == new.short:
        raise BadInput(f"{old.short} for {old.short} changes nothing")
    if not magic:
        if new.short in shown:
            raise BadInput(f"{name} already shows {new.short}; a deck holds each card once "
                           "(R8; --magic if a power changed the cards)", ruling="R8")
        _check_card_free(known_cards(hand), name, new, _showing_owners(hand))
    cards = [new.short if c == old.short else c for c in shown]
    event: CardsFixed = {"kind": "cards_fixed", "name": name, "old": old.short, "new": new.short,
                    "cards": cards, "openers": _opener_changes(state, hand, name, cards)}
    sim = replay(state, [event])
    forced, _ = fool_moves(sim)
    return [event, *forced]


def _opener_changes(state: State, hand: HandState, name: str,
                    cards: list[str]) -> list[JSONObject]:
    """Rounds already opened whose opener the corrected cards would have changed (E25)."""
    showing = {**hand.showing, name: cards}
    out: list[JSONObject] = []
    for opening in hand.openings:
        street = opening["street"]
        at = {p: c[:betting.UP_CARDS[street][1 if p == state.fool else 0]]
              for p, c in showing.items()}
        able = [p for p in opening["able"] if at.get(p)]
        if not able:
            continue
        would = betting.first_in(state, hand, able, at)
        if would != opening["opener"]:
            out.append({"street": street, "opened": opening["opener"], "would": would})
    return out


# -- betting ------------------------------------------------------------------------------------


def follows(state: State) -> list[EveningEvent]:
    """What follows a move by itself: ``act`` with no move of the GM's, the betting's steps
    (``betting.step``) folded on one copy of ``state``: the Fool's forced moves while it is his
    turn (R15), then, when every stakeholder has folded, the Fool's uncontested pot (R15, E7).
    Every command that moves the hand ends here or in ``act``; ``state`` itself is left as it
    was."""
    return act(state, None) if state.hand is not None else []


def fool_moves(state: State) -> tuple[list[Action], State]:
    """Play the Fool's forced moves while it is his turn (R15, ``betting.forced_move``):
    the events and the state after them, folded on one copy of ``state``: each forced move is
    computed from the state the one before left, and folded into it (``fold_on``)."""
    sim = replay(state, [])
    events: list[Action] = []
    while sim.hand is not None:
        event = betting.forced_move(sim, sim.hand)
        if event is None:
            break
        events.append(event)
        sim = fold_on(sim, [event])
    return events, sim


def act_said(state: State, who: str | None, action: str, amount: int | None = None,
             chips_text: str | None = None) -> list[EveningEvent]:
    """One betting action as the GM says it: ``who`` read as a player (unnamed: the player to
    act), the colours of ``chips_text`` read as the evening's (R11), then ``act``.
    ``amount`` may be ``betting.ALL``."""
    need_hand(state)
    return act(state, said(state, who, action, amount, chips_text))


def said(state: State, who: str | None, action: str, amount: int | None = None,
         chips_text: str | None = None) -> betting.Request:
    """The GM's betting move in the evening's own names: the player read at once, the colours
    named only when the move comes to be verified, so that what is wrong with the turn is
    said first."""
    name = None if who is None else player(state, who)
    text = chips_text or ""
    return betting.Request(name, action, amount,
                           (lambda: parse_chips(state, text)) if text else None)


def act(state: State, request: betting.Request | None) -> list[EveningEvent]:
    """One betting action in turn (R11-R15), by ``request.name`` or, unnamed, by the player to
    act, and what follows it by itself; with no request, what follows alone (``follows``).

    The betting machine runs on one copy of the state: each step (``betting.step``) computes
    the next event from the state the one before left, and it is folded into that same copy:
    the Fool's forced moves before the move (an evening recorded before E4 waited for up
    cards), the move, the forced moves after it, then the uncontested pot (R15, E7)."""
    need_hand(state)
    state = copy(state)  # the machine's own copy: ``state`` from here on
    move = request
    events: list[EveningEvent] = []
    forced: list[Action] = []
    while state.hand is not None:
        made = betting.step(state, state.hand, move, forced)
        if made is None:
            break
        if made["kind"] == "action" and made["auto"] and move is not None:
            forced.append(made)
        else:
            move = None
        events.append(made)
        state = fold_on(state, [made])
    return events
