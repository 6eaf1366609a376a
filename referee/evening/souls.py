"""Souls, clue sheets, guesses and Charges (R16, R19-R25): GM requests -> events.

Powers are in ``referee.evening.powers``.

Like ``commands``: pure functions of the state and the GM's words, returning the
events of one command or raising a RefereeError; each is replayed on a copy
before it is returned.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, TypedDict

from referee.errors import BadInput, IllegalAction, LawViolation
from referee.evening.events import (
    EveningEvent,
    SoulGuessed,
    SoulRecord,
    SoulSold,
    SoulStudied,
    SoulTraded,
)
from referee.evening.folds import replay
from referee.evening.lookup import (
    SeatSpec,
    at_table,
    colour_holders,
    controller_of,
    own_soul,
    parse_chips,
    party,
    pending_buyout,
    person,
    stakeholder,
)
from referee.evening.state import CHIPS_PER_COLOUR, Auction, Soul, State, require_evening
from referee.names import match_name, name_key, plural
from referee.rules.cards import parse_arcanum, to_roman
from referee.rules.pots import check_named_chips
from referee.said import Part, Said, Suggest, joined, said

if TYPE_CHECKING:
    from referee.evening.events import ScenarioContent
    from referee.rules.scenario import Scenario

GUESSES_PER_SOUL = 3  # R24
NEAR_MISS = 80        # rapidfuzz ratio for a near miss (R24, E16)


# -- setup --------------------------------------------------------------------------------------


class Setup(TypedDict):
    """What ``evening_created`` copies in from the scenario (E14)."""

    scenario: ScenarioContent
    souls: list[SoulRecord]


def setup_from_scenario(scenario: Scenario, seats: list[SeatSpec]) -> Setup:
    """The scenario's content for ``evening_created`` (E14): bottled souls given out one to each
    side in seat order (held by the assistant where there is one), plus every stakeholder's
    own soul (R19). The content is copied into the evening, so the file stands alone. The
    caller loads the scenario (``referee.content.scenario.load_scenario``); the core never
    reads a file."""
    if len(scenario.souls) < len(seats):
        raise BadInput(f"the scenario {scenario.source} has {len(scenario.souls)} souls for "
                       f"{len(seats)} seats; it needs one bottled soul per stakeholder (R19)")
    ordered = sorted(seats, key=lambda s: s.arcanum)
    souls: list[SoulRecord] = []
    for seat, spec in zip(ordered, scenario.souls, strict=False):
        souls.append({"key": spec.label, "kind": "bottled", "holder": seat.assistant or seat.name,
                      "arcanum": spec.arcanum, "identity": spec.name,
                      "aliases": list(spec.aliases)})
    for seat in ordered:
        souls.append({"key": f"{seat.name}'s soul", "kind": "own", "holder": seat.name,
                      "arcanum": seat.arcanum, "identity": seat.name, "owner": seat.name})
    content: ScenarioContent = {
        "name": scenario.name,
        "source": scenario.source,
        "clues": {spec.label: {str(k): list(v) for k, v in spec.clues.items()}
                  for spec in scenario.souls[: len(seats)]},
        "powers": [
            {"key": p.key, "card": p.card, "orientation": p.orientation, "name": p.name,
             "charges": p.charges, "when": p.when, "text": p.text, "magic": p.magic,
             "timing": p.timing, "effect": dict(p.effect)}
            for p in scenario.powers.powers
        ],
    }
    return Setup(scenario=content, souls=souls)


# -- lookups ------------------------------------------------------------------------------------


def soul_key(state: State, text: str) -> str:
    """A soul by its label or its owner's name: ``the amber bottle``, ``amber``, ``green``,
    ``Ada``. Exact first, then a unique prefix, then a unique word of the label."""
    def bare(label: str) -> str:
        return re.sub(r"^the\s+", "", " ".join(label.lower().split()))

    query = bare(text)
    if not query:
        raise BadInput("name a soul: its label (e.g. 'amber') or its owner's name")
    for soul in state.souls:
        if bare(soul.key) == query or (soul.owner and soul.owner.lower() == query):
            return soul.key
    for test in (lambda label: label.startswith(query),
                 lambda label: f" {query}" in f" {label}"):
        found = [s.key for s in state.souls if test(bare(s.key))]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise BadInput(f"soul {text!r} is ambiguous: {', '.join(found)}")
    return match_name(text, [s.key for s in state.souls], "soul")


def live_soul(state: State, text: str) -> Soul:
    soul = state.soul(soul_key(state, text))
    if soul.destroyed:
        raise IllegalAction(f"{soul.key} was {soul.destroyed}; it is gone (R19)", ruling="R19")
    return soul


def side(state: State, name: str) -> str:
    found = state.side_of(name)
    if found is None:
        raise IllegalAction(f"{name} is on no stakeholder's side (the Fool has no assistant "
                            "and no Charges, R15)", ruling="R25")
    return found


def seat_number(state: State, stakeholder_name: str) -> int:
    return [s.name for s in state.seats].index(stakeholder_name) + 1


def assistant(state: State, text: str) -> str:
    return match_name(text, state.assistants, "assistant")


# -- souls --------------------------------------------------------------------------------------


def study(state: State, who: str, soul_text: str) -> list[SoulStudied]:
    """R23: the assistant studies a soul their side holds and learns the next clue."""
    require_evening(state)
    name = assistant(state, who)
    _not_barred(state, name, "study souls")
    soul = live_soul(state, soul_text)
    mine = side(state, name)
    if soul.kind != "bottled":
        raise IllegalAction(f"{soul.key} is a stakeholder's own soul; only bottled souls are "
                            "studied (R23)", ruling="R23")
    if soul.holder is None or state.side_of(soul.holder) != mine:
        raise IllegalAction(f"{name} may study only a soul their side holds; {soul.key} is held "
                            f"by {soul.holder} (R23)", ruling="R23")
    sheet = clue_sheet(state, name, soul.key)
    done = state.studies.get(name, {}).get(soul.key, 0)
    if done >= len(sheet):  # E15: nothing recorded past the last clue
        raise IllegalAction(f"{name}'s clue sheet for {soul.key} is exhausted: all {len(sheet)} "
                            "clues learned (R23)", ruling="R23")
    return [{"kind": "soul_studied", "assistant": name, "soul": soul.key, "clue": sheet[done],
             "n": done + 1, "of": len(sheet)}]


def _not_barred(state: State, name: str, what: str) -> None:
    """S26: an assistant barred by Neglect may not study souls or guess."""
    from referee.evening.powers.constraints import barred

    why = barred(state, name)
    if why:
        raise IllegalAction(f"{name} may not {what}: barred by {why} until the end of the "
                            "next hand (S26)", ruling="S26")


def clue_sheet(state: State, assistant_name: str, soul_key_: str) -> list[str]:
    """The clues this assistant's seat learns about this soul (sheets differ per seat). A soul
    carried from an earlier evening keeps the sheet the assistant read then (E107)."""
    carried = state.season.get("sheets", {}).get(assistant_name, {}).get(soul_key_)
    seat = carried or seat_number(state, side(state, assistant_name))
    sheets = state.scenario.get("clues", {}).get(soul_key_, {})
    return list(sheets.get(str(seat), []))


def _norm(text: str) -> str:
    """A name as R24 compares it: no case, accents, punctuation or spacing.

    >>> _norm("H.D. Thoreau") == _norm("h. d. thoreau") == _norm("HD Thoreau")
    True
    """
    return name_key(text).replace(" ", "")


def guess(state: State, who: str, soul_text: str, name: str | None,
          arcanum: str | None) -> list[SoulGuessed]:
    """R24: three guesses per assistant per soul; first correct Arcanum 1 Charge, name 2."""
    require_evening(state)
    guesser = assistant(state, who)
    _not_barred(state, guesser, "guess")
    soul = state.soul(soul_key(state, soul_text))
    if soul.kind != "bottled":
        raise IllegalAction(f"{soul.key} is a stakeholder's own soul; its identity is no secret")
    name = name.strip() if name else None
    if not name and arcanum is None:
        raise BadInput("a guess names the soul (--name TEXT), its Arcanum (--arcanum ARC), or "
                       "both (R24)")
    made = [g for g in state.guesses if g["assistant"] == guesser and g["soul"] == soul.key]
    if len(made) >= GUESSES_PER_SOUL:
        raise IllegalAction(f"{guesser} has made all three guesses for {soul.key} (R24)",
                            ruling="R24")
    earlier = [g for g in state.guesses if g["soul"] == soul.key]
    result: dict[str, str | None] = {"name": None, "arcanum": None}
    earned = 0
    if name:
        wanted = [soul.identity, *soul.aliases]
        if _norm(name) in {_norm(w) for w in wanted}:
            result["name"] = "correct"
            if not any(g["result"]["name"] == "correct" for g in earlier):
                earned += 2
        else:
            from rapidfuzz import fuzz

            best = max(fuzz.WRatio(name_key(name), name_key(w)) for w in wanted)
            result["name"] = "near" if best >= NEAR_MISS else "wrong"
    if arcanum is not None:
        number = parse_arcanum(arcanum)
        result["arcanum"] = "correct" if number == soul.arcanum else "wrong"
        if number == soul.arcanum and not any(g["result"]["arcanum"] == "correct"
                                              for g in earlier):
            earned += 1
        arcanum = to_roman(number)
    event = SoulGuessed(kind="soul_guessed", assistant=guesser, side=side(state, guesser),
                        soul=soul.key, name=name, arcanum=arcanum, result=result,
                        charges=earned, left=GUESSES_PER_SOUL - len(made) - 1)
    return [event]


def _seller_holds(state: State, seller: str, soul: Soul) -> str:
    """Who hands the soul over: the seller, or the assistant holding it for them (R21: "one in
    their possession"; the assistant holds souls "for the Player")."""
    if soul.holder == seller:
        return seller
    helper = state.seat(seller).assistant if seller in state.stakeholders else None
    if helper is not None and soul.holder == helper:
        return helper
    raise IllegalAction(said(f"{seller} does not hold {soul.key}; {soul.holder} does (R20); ",
                             Suggest(("soul", "list")), " shows who holds which"), ruling="R20")


def auction(state: State, seller_text: str, soul_text: str | None, *,
            withdraw: bool = False) -> list[EveningEvent]:
    """R20, R21, E28: the seller announces an auction of a soul they (or their assistant) hold;
    ``withdraw`` ends the open one unsold."""
    require_evening(state)
    seller = person(state, seller_text)
    open_ = state.auction
    if withdraw:
        if open_ is None or open_["seller"] != seller:
            raise IllegalAction(f"{seller} has no auction open to withdraw"
                                + (f"; {open_['seller']} is auctioning {open_['soul']}"
                                   if open_ else ""), ruling="R20")
        return [{"kind": "auction_closed", "seller": seller, "soul": open_["soul"],
                 "how": "withdrawn"}]
    if soul_text is None:
        raise BadInput(said(f"name the soul {seller} auctions: ",
                            Suggest(("soul", "auction"), (seller, "SOUL"), mention=True)))
    if open_ is not None:
        raise IllegalAction(said(f"{open_['seller']} is auctioning {open_['soul']} already; "
                                 "close it first (", _closings(state, open_), ") (R20)"),
                            ruling="R20")
    soul = live_soul(state, soul_text)
    holder = _seller_holds(state, seller, soul)
    return [{"kind": "auction_opened", "seller": seller, "soul": soul.key, "holder": holder}]


def _closings(state: State, open_: Auction) -> Said:
    """How the open auction can end, as moves (E28, E58, E240): a sale, a forced trade (of
    one's own soul only), a withdrawal."""
    seller = open_["seller"]
    ways: list[Part | Said] = [Suggest(("soul", "sell"), (seller, open_["soul"], "BUYER"))]
    if state.soul(open_["soul"]).owner == seller:
        ways.append(Suggest(("soul", "force-trade"), (seller,)))
    ways.append(Suggest(("soul", "auction"), (seller, "--withdraw")))
    return joined(ways)


def bid(state: State, buyer_text: str, chips_text: str | None,
        promise: str | None) -> list[EveningEvent]:
    """R20: a bid at the open auction: chips the bidder holds, a free-text promise, or both."""
    require_evening(state)
    open_ = state.auction
    if open_ is None:
        raise IllegalAction(said("no auction is open; the seller announces one with ",
                                 Suggest(("soul", "auction"), ("SELLER", "SOUL")), " (R20)"),
                            ruling="R20")
    buyer = person(state, buyer_text)
    if party(state, buyer) == party(state, open_["seller"]):
        raise BadInput(f"{buyer} is on the seller's side; bids come from the other players")
    chips = parse_chips(state, chips_text) if chips_text else {}
    if chips:
        check_named_chips(state.holding(buyer), chips, buyer)
    promise = (promise or "").strip()
    if not chips and not promise:
        raise BadInput("a bid is chips (COLOUR:N[,...]) and/or --promise TEXT (R20)")
    return [{"kind": "auction_bid", "soul": open_["soul"], "buyer": buyer, "chips": chips,
             "promise": promise}]


def sell(state: State, seller_text: str, soul_text: str, buyer_text: str,
         chips_text: str | None, promise: str | None) -> list[EveningEvent]:
    """R20: an auction's result: the soul and the chips move together, or nothing does. With
    an auction open and no bid named, the buyer's last bid is the one accepted. The Fool may
    sell or buy like any player: a sale is no gift (R16a)."""
    require_evening(state)
    seller, buyer = person(state, seller_text), person(state, buyer_text)
    soul = live_soul(state, soul_text)
    holder = _seller_holds(state, seller, soul)
    if buyer in (seller, holder):
        raise BadInput(f"{seller} cannot sell to themselves")
    open_ = state.auction
    in_auction = open_ is not None and open_["soul"] == soul.key
    if not chips_text and not promise and in_auction:
        assert open_ is not None
        bids = [b for b in open_["bids"] if b["buyer"] == buyer]
        if not bids:
            raise BadInput(said(f"{buyer} has made no bid for {soul.key}; name the winning bid "
                                "with --chips COLOUR:N[,...] and/or --promise TEXT, or let them "
                                "bid: ", Suggest(("soul", "bid"), (buyer, "COLOUR:N")), " (R20)"))
        chips, promise = dict(bids[-1]["chips"]), bids[-1]["promise"]
    else:
        chips = parse_chips(state, chips_text) if chips_text else {}
    if chips:
        check_named_chips(state.holding(buyer), chips, buyer)
    if not chips and not promise:
        raise BadInput("name the winning bid: --chips COLOUR:N[,...] and/or --promise TEXT (R20)")
    event: SoulSold = {"kind": "soul_sold", "seller": seller, "buyer": buyer, "soul": soul.key,
                    "chips": chips, "promise": promise or "", "holder": holder}
    replay(state, [event])
    return [event]


def force_trade(state: State, seller_text: str, with_text: str | None) -> list[EveningEvent]:
    """R21, E17: trade one's own soul to whoever holds most of one's colour, for exactly those."""
    require_evening(state)
    seller = stakeholder(state, seller_text)
    soul = own_soul(state, seller)
    if soul.destroyed or soul.holder != seller:
        raise IllegalAction(f"{seller} no longer holds their own soul (held by {soul.holder})",
                            ruling="R21")
    open_ = state.auction
    if open_ is None or open_["soul"] != soul.key:
        raise IllegalAction(said("a forced trade ends an auction of one's own soul whose bids "
                                 "were not to the seller's liking: announce it first with ",
                                 Suggest(("soul", "auction"), (seller, seller), mention=True),
                                 " (R21)"), ruling="R21")
    colour = state.seat(seller).colour
    holders = {p: n for p, n in colour_holders(state, colour).items() if p != seller}
    if not holders:
        raise IllegalAction(f"nobody else holds any {colour} chips; there is no one to force a "
                            "trade with (R21)", ruling="R21")
    top = max(holders.values())
    tied = [p for p, n in holders.items() if n == top]
    if with_text:
        chosen = match_name(with_text, list(holders), "holder of " + colour)
        if chosen not in tied:
            raise IllegalAction(f"{chosen} holds {holders[chosen]} {colour}; the trade is with "
                                f"the largest holder: {', '.join(tied)} ({top}) (R21)",
                                ruling="R21")
    elif len(tied) > 1:
        raise IllegalAction(f"{', '.join(tied)} tie with {top} {colour} chips each; {seller} "
                            "picks: add --with NAME (R21)", ruling="R21")
    else:
        chosen = tied[0]
    payers = _colour_payers(state, chosen, colour)
    event: SoulTraded = {"kind": "soul_traded", "seller": seller, "buyer": chosen, "soul": soul.key,
                    "payers": payers, "colour": colour, "count": top, "how": "force-trade"}
    replay(state, [event])
    return [event]


def _colour_payers(state: State, who: str, colour: str) -> dict[str, int]:
    """Who on ``who``'s side holds how many chips of ``colour``."""
    names = [who]
    if who in state.stakeholders:
        helper = state.seat(who).assistant
        if helper:
            names.append(helper)
    return {n: state.holding(n).get(colour, 0) for n in names if state.holding(n).get(colour)}


def buyout(state: State, buyer_text: str, owner_text: str) -> list[EveningEvent]:
    """R21: whoever controls all ten of a stakeholder's colour may buy that soul with them."""
    require_evening(state)
    owner = stakeholder(state, owner_text)
    named = person(state, buyer_text)
    buyer = party(state, named)
    seat = state.seat(owner)
    if seat.resigned or seat.dead:
        raise IllegalAction(f"{owner} is no longer a stakeholder (R21)", ruling="R21")
    if buyer == owner:
        raise IllegalAction(f"{named} is on {owner}'s own side; a buyout is by someone else "
                            f"controlling all ten {seat.colour} chips (R21)", ruling="R21")
    if controller_of(state, owner) != buyer:
        held = colour_holders(state, seat.colour).get(buyer, 0)
        raise IllegalAction(f"{buyer}'s side controls {held} of {owner}'s ten {seat.colour} "
                            "chips; a buyout needs all ten (R21)", ruling="R21")
    soul = own_soul(state, owner)
    if soul.destroyed or soul.holder != owner:
        raise IllegalAction(f"{owner} no longer holds their own soul", ruling="R21")
    # The soul goes to the person the GM named (an assistant may hold it for the side); the
    # ten chips come from wherever on the buyer's side they are.
    event: SoulTraded = {"kind": "soul_traded", "seller": owner, "buyer": named, "soul": soul.key,
                    "payers": _colour_payers(state, buyer, seat.colour), "colour": seat.colour,
                    "count": CHIPS_PER_COLOUR, "how": "buyout"}
    replay(state, [event])
    return [event]


def decline(state: State, buyer_text: str, owner_text: str) -> list[EveningEvent]:
    """R17: the holder of all ten chips declines to buy the soul; the owner may resign."""
    require_evening(state)
    owner = stakeholder(state, owner_text)
    buyer = party(state, person(state, buyer_text))
    if pending_buyout(state, owner) != buyer:
        raise IllegalAction(f"{buyer} has no buyout of {owner}'s soul to decline (R17)",
                            ruling="R17")
    return [{"kind": "buyout_declined", "buyer": buyer, "owner": owner}]


def smash(state: State, holder_text: str, soul_text: str) -> list[EveningEvent]:
    """R22, E19: the holder of B's soul, attacked by B away from the table, smashes it."""
    require_evening(state)
    holder = person(state, holder_text)
    soul = live_soul(state, soul_text)
    if soul.holder != holder:
        raise IllegalAction(f"{holder} does not hold {soul.key}; {soul.holder} does (R22)",
                            ruling="R22")
    if soul.kind != "own" or soul.owner == holder:
        raise IllegalAction("only the soul of a living attacker can be smashed: the holder of "
                            "B's soul smashes it when B attacks (R22)", ruling="R22")
    assert soul.owner is not None
    if soul.owner not in state.stakeholders:  # a soul carried from an earlier evening (E19)
        raise IllegalAction(f"{soul.owner} holds no seat at this evening: only the own soul of "
                            "a stakeholder, who dies by it, is smashed (E19)", ruling="E19")
    for who in (holder, soul.owner):
        if at_table(state, who):
            raise LawViolation(f"{who} is at the table, where players are inviolate; a soul is "
                               "smashed only after an attack away from the table (R22, the "
                               "Law R16)", ruling="R22")
    return [{"kind": "soul_destroyed", "soul": soul.key, "how": "smashed", "holder": holder,
             "victim": soul.owner}]


def consume(state: State, holder_text: str, soul_text: str, arcanum: str) -> list[EveningEvent]:
    """R27: swallowing a soul: 1 status point in an Arcanum of one's choice; the soul is gone."""
    require_evening(state)
    holder = person(state, holder_text)
    soul = live_soul(state, soul_text)
    if soul.holder != holder:
        raise IllegalAction(f"{holder} does not hold {soul.key}; {soul.holder} does",
                            ruling="R27")
    if soul.kind == "own" and soul.owner == holder:
        raise IllegalAction(f"{holder} cannot consume their own soul", ruling="R27")
    number = parse_arcanum(arcanum)
    return [{"kind": "soul_destroyed", "soul": soul.key, "how": "consumed", "holder": holder,
             "arcanum": number, "victim": soul.owner}]


def give_soul(state: State, source: str, target: str, soul_text: str) -> list[EveningEvent]:
    """R16: a soul changes hands away from the table only."""
    require_evening(state)
    src, dst = person(state, source), person(state, target)
    soul = live_soul(state, soul_text)
    if soul.holder != src:
        raise IllegalAction(f"{src} does not hold {soul.key}; {soul.holder} does")
    if src == dst:
        raise BadInput(f"{src} already holds {soul.key}")
    for who in (src, dst):
        if at_table(state, who):
            raise LawViolation(f"{who} is at the table: souls change hands only away from the "
                               "table (the Law, R16)", ruling="R16")
    return [{"kind": "soul_given", "from": src, "to": dst, "soul": soul.key}]


# -- Charges ------------------------------------------------------------------------------------


def give_charges(state: State, source: str, target: str, n: int) -> list[EveningEvent]:
    """R25, R16: Charges go from side to side, away from the table, never taken."""
    require_evening(state)
    src, dst = person(state, source), person(state, target)
    a, b = side(state, src), side(state, dst)
    if a == b:
        raise BadInput(f"{src} and {dst} are the same side; Charges belong to the side (R25)")
    if n < 1:
        raise BadInput(f"give at least one Charge, not {n}")
    for who in (src, dst):
        if at_table(state, who):
            raise LawViolation(f"{who} is seated at the table: Charges change hands only away "
                               "from the table (the Law, R16); their assistant may give them",
                               ruling="R16")
    have = state.charges.get(a, 0)
    if have < n:
        raise IllegalAction(f"{a}'s side has {plural(have, 'Charge')}, not {n} (R25)", ruling="R25")
    return [{"kind": "charges_given", "from": a, "to": b, "n": n}]
