"""The showdown (R7, R11, R14, R15, R44, E11, E26): every hand still in, from the cards the console
knows as each player's (``referee.evening.known``) and the down cards nobody has seen, ranked as
the powers in force count them; each pot to its best hand.

GM requests -> events, like ``play``: a pure function of the State and the GM's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.errors import BadInput, IllegalAction
from referee.evening import betting
from referee.evening.events import BestHand, EveningEvent, Showdown, ShowdownPot
from referee.evening.folds import replay
from referee.evening.known import GIVEN, Known, still_to_give
from referee.evening.known import known as known_cards
from referee.evening.play import by_names, need_hand
from referee.evening.pots import pots as hand_pots
from referee.evening.powers.constraints import counted_hand  # S21, S22: powers in force
from referee.evening.state import HandState, State
from referee.names import match_name, plural
from referee.rules.cards import Card, format_cards, parse_arcanum, parse_cards, to_roman
from referee.rules.hands import check_distinct, explain
from referee.rules.pots import pot_name, split_pot
from referee.said import said

if TYPE_CHECKING:
    from referee.rules.hands import Hand


def _hand_cards(state: State, hand: HandState, name: str, given: list[Card] | None,
                known: Known, *, magic: bool) -> list[Card]:
    """A player's whole hand at the showdown (E26, R44): the cards the console knows as theirs
    (up, hooded, named by a power: ``known``) and the down cards nobody has seen, given; or a
    whole hand given that holds every known card."""
    mine = known.of(name)
    up, down = list(mine.up), list(mine.down)
    want = 7 - len(hand.forfeited.get(name, []))
    if given is None:
        if len(mine.cards) == want:  # E26, R44: the Fool's, or a hand with nothing unseen
            return parse_cards(" ".join(mine.cards))
        if len(mine.cards) > want:  # an evening recorded before R44 held the named cards
            raise BadInput(f"the console knows {len(mine.cards)} cards as {name}'s "
                           f"({known.described(name)}), and {name} holds {want}: give "
                           f"{name}'s whole hand as \"{name}: CARDS\" with --magic (R44)",
                           ruling="R44")
        raise BadInput("the showdown needs every hand still in: "
                       + _still_to_give(state, hand, known, name))
    shorts = [c.short for c in given]
    inside = [u for u in up if u in shorts]
    if inside and len(inside) < len(up) and not magic:
        lacking = [u for u in up if u not in shorts]
        word = "card" if len(inside) == 1 else "cards"
        raise BadInput(f"{name}'s cards hold the up {word} {' '.join(inside)} but not "
                       f"{' '.join(lacking)}; give only the down cards, or all {want} cards "
                       f"(showing: {' '.join(up)})")
    whole = bool(up) and len(inside) == len(up)
    if whole:
        lacking = [c for c in down if c not in shorts]
        if lacking and not magic:  # R44: a whole hand holds every known card
            raise BadInput(f"{name}'s hand holds {' '.join(lacking)} ({known.described(name)}), "
                           f"and the cards given do not; give only the down cards nobody has "
                           f"seen, or all {want} cards (R44)", ruling="R44")
        cards = given
    else:  # R44: the known cards, and the unseen ones given (a known down card given again
        # is the same card)
        cards = parse_cards(" ".join([*up, *down])) + [c for c in given if c.short not in down]
    if not magic and len(cards) != want:
        rest = want - len(up) - len(down)
        lost = " (one went for a power)" if want < 7 else ""
        if not down or whole:
            raise BadInput(f"{name} holds {want} cards{lost}, not {len(cards)}: {len(up)} are "
                           f"showing, so give the other {want - len(up)}, or all {want}")
        extra = [c.short for c in given if c.short not in down]
        other = f"the other {rest}" if rest else "none"
        raise BadInput(f"{name} holds {want} cards{lost}: {len(up) + len(down)} are known "
                       f"({known.described(name)}), so give {other}, not {len(extra)} "
                       f"({' '.join(extra) or 'none'}) (R44)", ruling="R44")
    if not 1 <= len(cards) <= 7:
        raise BadInput(f"{name} has {plural(len(cards), 'card')}; a hand is one to seven cards")
    if not magic:
        _agrees_with_known(name, shorts, known)
    return cards


def _agrees_with_known(name: str, shorts: list[str], known: Known) -> None:
    """R8, R26, R44: a card given for ``name`` is no other player's known card and is in the
    hand at all."""
    for card in shorts:
        owner, how = known.owners.get(card, (name, ""))
        if owner != name:
            said = "showing" if how == "up" else "turned face down by a power" \
                if how == "hooded" else f"named as {owner}'s by {how}"
            raise BadInput(f"{card} is {owner}'s ({said}); it cannot be in {name}'s hand (R44; "
                           "--magic if a power changed the cards)", ruling="R44")
        why = known.out.get(card)
        if why is not None and why[1] == GIVEN:
            raise BadInput(f"{card} was given to the Fool by {why[0]} for a power; it is "
                           f"out of this hand and not in {name}'s (R26)", ruling="R26")


def _still_to_give(state: State, hand: HandState, known: Known, name: str) -> str:
    """Why ``name``'s hand cannot be taken as known, and what to give (R44)."""
    n = still_to_give(hand, known)[name]
    if name == state.fool:  # R15: all his cards are up
        return (f"the Fool's cards are all up, and {plural(n, 'card')} of his seven "
                f"{'is' if n == 1 else 'are'} not shown (showing: {' '.join(known.of(name).up)}"
                f"); give {'it' if n == 1 else 'them'} as \"{name}: CARDS\"")
    mine = known.of(name)
    what = f"showing: {' '.join(mine.up) or 'none'}" if not mine.down else \
        f"known: {known.described(name)}"
    unseen = "down card" if not mine.down else "down card nobody has seen"
    return (f"{name}'s cards are missing ({what}; give the {n} "
            f"{unseen if n == 1 else unseen.replace('card', 'cards')} as \"{name}: CARDS\")")


def showdown_said(state: State, items: list[tuple[str, str]], words: list[str], *,
                  magic: bool, now: float, keep: list[str] | None = None
                  ) -> list[EveningEvent]:
    """``hand showdown`` as the GM says it (E27, R44): ``items`` as ``NAME: CARDS`` pairs, or
    else ``words`` grouped against the evening's players (``play.by_names``); none given, the
    console's known cards alone."""
    given = items or (by_names(state, words) if words else [])
    return showdown(state, list(given), magic=magic, now=now, keep=keep)


def showdown(state: State, hands_text: list[tuple[str | None, str]], *, magic: bool,
             now: float, keep: list[str] | None = None) -> list[EveningEvent]:
    """Rank every live hand, return uncalled chips, award each pot (R7, R11, R14, R15, E11)."""
    hand = need_hand(state)
    if not hand.betting_over:
        raise IllegalAction(said("betting is not over, and the showdown comes after the last "
                                 "betting round: ", betting.act_hint(state, hand)))
    typed: dict[str, list[Card]] = {}
    for raw_name, cards_text in hands_text:
        if raw_name is None:
            raise BadInput(f"name the hand: \"NAME: CARDS\" (got {cards_text!r})")
        name = match_name(raw_name, hand.order, "player in this hand")
        if name in hand.folded:
            raise IllegalAction(f"{name} folded this hand and has no hand to show")
        if name in typed:
            raise BadInput(f"{name}'s hand is given twice")
        typed[name] = parse_cards(cards_text)
    known = known_cards(hand)  # R44: read once for every hand
    given = {name: _hand_cards(state, hand, name, typed.get(name), known, magic=magic)
             for name in hand.live}
    check_distinct(list(given.values()), magic=magic, names=list(given))
    best = {name: counted_hand(hand, name, cards, magic) for name, cards in given.items()}
    event = _award(state, given, best, magic=magic)
    event["time"] = now
    if keep:
        event["keep"] = _keeps(state, keep, best)
    replay(state, [event])
    return [event]


def _keeps(state: State, keep: list[str], best: dict[str, Hand]) -> dict[str, int]:
    """``--keep NAME:ARCANUM``: which Duet Arcanum a player keeps; the assistant gets the
    other (R27)."""
    out: dict[str, int] = {}
    for item in keep:
        who, sep, arc = item.partition(":")
        if not sep:
            raise BadInput(f"bad --keep {item!r}; write NAME:ARCANUM, e.g. Ada:XX")
        name = match_name(who, list(best), "player at this showdown")
        hand = best[name]
        if hand.category not in ("two_pair_duet", "three_pair") or not hand.duet:
            raise IllegalAction(f"{name} plays {hand.title.lower()}: no Duet points to share "
                                "(R27)", ruling="R27")
        number = parse_arcanum(arc)
        duet = [c.rank for c in hand.duet]
        if number not in duet:
            raise BadInput(f"{name}'s Duet is {' + '.join(to_roman(n) for n in duet)}; keep one "
                           "of those (R27)")
        out[name] = number
    return out


def _award(state: State, given: dict[str, list[Card]], best: dict[str, Hand], *,
           magic: bool) -> Showdown:
    """The showdown's event: every pot to the best hand among those who may win it (R7, R14,
    R15, E11). The pot no one contests is the betting's (``pots.uncontested``, R15, E7)."""
    hand = state.hand
    assert hand is not None
    layering = hand_pots(state, hand)  # R14, R15
    colours = {s.name: s.colour for s in state.seats}
    pots: list[ShowdownPot] = []
    for i, pot in enumerate(layering.pots):
        contenders = [p for p in pot.eligible if p in best]
        top = max(best[p] for p in contenders)
        winners = [p for p in contenders if best[p] == top]
        losers = [p for p in contenders if p not in winners]
        shares = split_pot(pot.chips, winners, colours)
        if losers:
            runner = max(losers, key=lambda p: best[p])
            why = explain(best[winners[0]], best[runner])
        else:
            why = "uncontested" if len(winners) == 1 else "tied"
        pots.append({
            "name": pot_name(i),
            "chips": pot.chips,
            "eligible": list(pot.eligible),
            "winners": winners,
            "shares": shares,
            "why": why,
        })
    top_all = max(best.values())
    return Showdown(
        kind="showdown",
        hands={p: format_cards(c).split() for p, c in given.items()},
        best={p: BestHand(category=h.category, cards=[c.short for c in h.cards],
                          duet=[c.rank for c in h.duet] if h.duet else None)
              for p, h in best.items()},
        leaders=[p for p in hand.live if p in best and best[p] == top_all],
        returned=layering.returned,
        pots=pots,
        magic=magic,
    )
