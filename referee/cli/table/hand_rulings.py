"""`referee hand rank|compare|first|categories|odds`: rulings that need no evening, added to
the `hand` group by ``register``.

Commands parse, call ``referee.rules.hands`` and render. The hand evaluator is imported at
the top (every `hand` command ranks hands); the odds' counter, ``fractions`` and rich only in
the commands and answers that use them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, TypedDict, TypeVar

import typer

from referee.cli.context import console
from referee.cli.errors import read_lines
from referee.cli.options import Json
from referee.cli.printing import emit_json, lit
from referee.errors import BadInput, RefereeError
from referee.jsontypes import JSON, JSONObject
from referee.rules.cards import parse_cards
from referee.rules.hands import (
    CATEGORIES,
    CATEGORY_EXAMPLES,
    CATEGORY_TITLES,
    best_hand,
    check_distinct,
    explain,
    first_to_bet,
    rank_hands,
    verify_showing,
)
from referee.said import said

if TYPE_CHECKING:
    from referee.rules.cards import Card
    from referee.rules.hands import Hand, HandJSON

Magic = Annotated[
    bool,
    typer.Option("--magic", help="Cards were changed by magic: duplicates allowed (R8)."),
]
FromFile = Annotated[
    str | None,
    typer.Option(
        "--from-file",
        metavar="FILE",
        help="One ruling per line (hands separated by ' | '), '-' for stdin; "
        "prints one JSON object per line. A bad line fails the whole run (H8).",
    ),
]


# ---------------------------------------------------------------- parsing


def _hand_args(args: Sequence[str]) -> list[tuple[str, str]]:
    """``name: cards`` arguments (or bare cards, named 1, 2, ...) as (name, text) pairs.

    Single words after a named hand typed without quotes join it, so
    ``alice: KC QC bob:2C 3C`` still reads as two hands.
    """
    if not any(":" in arg for arg in args):
        return [(str(number), arg.strip()) for number, arg in enumerate(args, start=1)]
    pairs: list[tuple[str, str]] = []
    open_hand = False
    for arg in args:
        one_word = len(arg.split()) <= 1
        if ":" in arg:
            name, _, text = arg.partition(":")
            pairs.append((name.strip(), text.strip()))
            open_hand = len(text.split()) <= 1 and len(name.split()) <= 1
        elif open_hand and one_word:
            name, text = pairs[-1]
            pairs[-1] = (name, f"{text} {arg}".strip())
        else:
            raise BadInput(
                f"hand {arg!r} has no name; when hands are named, name each one and quote it "
                "as one argument: 'alice: KC KW 2S'"
            )
    return pairs


def _line_hands(text: str) -> list[tuple[str, str]]:
    """One ``--from-file`` line: hands separated by ``|``, each ``name: cards`` or cards."""
    pairs = []
    for number, part in enumerate(text.split("|"), start=1):
        name, colon, cards = part.partition(":")
        pairs.append((name.strip(), cards.strip()) if colon else (str(number), part.strip()))
    return pairs


def _parse_hands(pairs: Sequence[tuple[str, str]]) -> list[tuple[str, list[Card]]]:
    seen: dict[str, str] = {}
    hands: list[tuple[str, list[Card]]] = []
    for name, text in pairs:
        if not name:
            raise BadInput(f"a hand has an empty name before ':' ({text!r}); write 'name: cards'")
        if name.casefold() in seen:
            raise BadInput(f"two hands are named {name!r}; give each hand its own name")
        seen[name.casefold()] = name
        try:
            cards = parse_cards(text)
        except RefereeError as exc:
            hint = "; to name a hand write 'name: cards'" if name.isdigit() else ""
            raise type(exc)(said(f"hand {name}: ", exc.said, hint), ruling=exc.ruling) from None
        if not cards:
            raise BadInput(f"hand {name} is empty: give 1 to 7 cards (R7)")
        hands.append((name, cards))
    return hands


def _evaluate(
    hands: Sequence[tuple[str, Sequence[Card]]], magic: bool
) -> dict[str, Hand]:
    out: dict[str, Hand] = {}
    for name, cards in hands:
        try:
            out[name] = best_hand(cards, magic=magic)
        except RefereeError as exc:
            raise type(exc)(said(f"hand {name}: ", exc.said), ruling=exc.ruling) from None
    check_distinct([cards for _, cards in hands], magic=magic, names=[n for n, _ in hands])
    return out


def _runs(
    positional: Sequence[str] | None, from_file: str | None, what: str
) -> list[tuple[int, str]] | None:
    """The ``--from-file`` lines as (line number, text), or None for a positional ruling."""
    if from_file is None:
        if not positional:
            raise BadInput(f"give {what}, or --from-file FILE ('-' for stdin)")
        return None
    if positional:
        raise BadInput(f"give {what} or --from-file, not both")

    lines = read_lines(from_file)
    if not lines:
        raise BadInput(f"{from_file!r} holds no rulings (one per line, '#' starts a comment)")
    return list(enumerate(lines, start=1))


class Compared(TypedDict):
    """``hand compare --json``: the places, best first, and each hand."""

    ranking: list[list[str]]
    hands: dict[str, HandJSON]


class Opener(TypedDict):
    """``hand first --json``: who opens the betting, and each hand showing."""

    first: str
    hands: dict[str, HandJSON]


#: What one ruling of a ``--from-file`` run answers.
Ruled = TypeVar("Ruled")


def _each_line(
    lines: list[tuple[int, str]], source: str, rule: Callable[[str], Ruled]
) -> None:
    """All lines or nothing (H8): rule every line first, then print one JSON line each."""

    results: list[Ruled] = []
    for number, text in lines:
        try:
            results.append(rule(text))
        except RefereeError as exc:
            label = "stdin" if source == "-" else source
            raise type(exc)(said(f"{label} line {number}: ", exc.said), ruling=exc.ruling) from None
    for result in results:
        emit_json(result)


# ---------------------------------------------------------------- rendering


def _cards_long(cards: Sequence[Card]) -> str:
    return ", ".join(card.long for card in cards)


def _hands_json(hands: dict[str, Hand]) -> dict[str, HandJSON]:
    return {name: hand.as_dict() for name, hand in hands.items()}


def _why_lines(groups: list[list[str]], hands: dict[str, Hand]) -> list[str]:
    lines = []
    top = groups[0]
    if len(top) > 1:
        lines.append(
            f"{_and(top)} split the pot: {explain(hands[top[0]], hands[top[1]])}"
        )
    for better, worse in zip(groups, groups[1:], strict=False):
        verb = "beats" if len(better) == 1 else "beat"
        lines.append(
            f"{_and(better)} {verb} {_and(worse)}: "
            f"{explain(hands[better[0]], hands[worse[0]])}"
        )
    return lines


def _and(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


# ---------------------------------------------------------------- commands


def rank(
    cards: Annotated[
        list[str] | None,
        typer.Argument(
            help="1-7 cards, e.g. KnC KnW 3S 3P 0 XXI 9C.", metavar="CARDS...", show_default=False
        ),
    ] = None,
    magic: Magic = False,
    json_out: Json = False,
    from_file: FromFile = None,
) -> None:
    """Name the best hand in 1-7 cards, e.g. `referee hand rank KnC KnW 3S 3P 0 XXI 9C`."""
    def rule(text: str) -> HandJSON:
        if "|" in text:
            raise BadInput("rank takes one hand per line; use compare for hands against each other")
        return best_hand(parse_cards(text), magic=magic).as_dict()

    lines = _runs(cards, from_file, "1-7 cards")
    if lines is not None:
        _each_line(lines, str(from_file), rule)
        return
    assert cards is not None
    given = parse_cards(cards)
    hand = best_hand(given, magic=magic)
    if json_out:

        emit_json(hand.as_dict())
        return
    _render_rank(hand, given)


def _render_rank(hand: Hand, given: Sequence[Card]) -> None:
    from rich.table import Table  # the human table only: --json does without rich

    unused = list(given)
    for card in hand.cards:
        unused.remove(card)
    place = CATEGORIES.index(hand.category) + 1
    out = console()
    out.print(f"[bold]{hand.title}[/bold]  ({hand.category}, {place} of 16)")
    table = Table()
    table.add_column("Cards that count")
    table.add_column("Short")
    for card in hand.cards:
        table.add_row(card.long, card.short)
    for card in unused:
        table.add_row(f"[dim]{card.long} (not used)[/dim]", f"[dim]{card.short}[/dim]")
    out.print(table)


def compare(
    hands: Annotated[
        list[str] | None,
        typer.Argument(
            help="Hands as 'name: cards' (quoted), or just cards (named 1, 2, ...).",
            metavar="HAND...",
            show_default=False,
        ),
    ] = None,
    magic: Magic = False,
    json_out: Json = False,
    from_file: FromFile = None,
) -> None:
    """Who wins: rank two or more hands, e.g. `referee hand compare "ann: KC KW 2S" "bo: 0 I 9C"`.

    Equal hands split the pot (R7); suits never break ties (R3).
    """
    def rule_pairs(pairs: list[tuple[str, str]]) -> tuple[list[list[str]], dict[str, Hand]]:
        if len(pairs) < 2:
            raise BadInput("compare needs two or more hands; use 'hand rank' for one")
        ranked = _evaluate(_parse_hands(pairs), magic)
        return rank_hands(ranked), ranked

    def rule(text: str) -> Compared:
        ranking, ranked = rule_pairs(_line_hands(text))
        return {"ranking": [[*group] for group in ranking], "hands": _hands_json(ranked)}

    lines = _runs(hands, from_file, "two or more hands")
    if lines is not None:
        _each_line(lines, str(from_file), rule)
        return
    assert hands is not None
    ranking, ranked = rule_pairs(_hand_args(hands))
    if json_out:

        emit_json({"ranking": ranking, "hands": _hands_json(ranked)})
        return
    from rich.table import Table  # the human table only: --json does without rich


    table = Table()
    table.add_column("Place", justify="right")
    table.add_column("Hand")
    table.add_column("Best hand")
    table.add_column("Cards that count")
    for place, group in enumerate(ranking, start=1):
        mark = f"={place}" if len(group) > 1 else str(place)
        for name in group:
            table.add_row(mark, lit(name), ranked[name].title, _cards_long(ranked[name].cards))
    out = console()
    out.print(table)
    for line in _why_lines(ranking, ranked):
        out.print(line, markup=False)


def first(
    hands: Annotated[
        list[str] | None,
        typer.Argument(
            help="Up cards as 'name: cards', in seat order from the Fool's left; "
            "the hand named 'fool' is the Fool's (4-7 cards).",
            metavar="HAND...",
            show_default=False,
        ),
    ] = None,
    fool_broke: Annotated[
        bool,
        typer.Option(
            "--fool-broke",
            help="The Fool holds no chips: if he shows the high hand, "
            "the best-showing stakeholder opens (R15).",
        ),
    ] = False,
    magic: Magic = False,
    json_out: Json = False,
    from_file: FromFile = None,
) -> None:
    """Who bets first: the best hand showing (R9).

    Example: `referee hand first "ann: KC 2S" "bo: 9W 9P" "fool: 0 I 9C 3S"`.
    Face-up cards only. Ties go to the seat nearest the Fool's left (the earliest
    argument); the Fool counts as the last seat (H5). The Fool must bet if he shows
    the high hand and holds chips (R15).
    """

    def rule_pairs(pairs: list[tuple[str, str]]) -> tuple[str, str | None, dict[str, Hand]]:
        if len(pairs) < 2:
            raise BadInput("first needs the showing hands of two or more seats")
        showing = _parse_hands(pairs)
        fool = next((name for name, _ in showing if name.casefold() == "fool"), None)
        for name, cards in showing:
            verify_showing(name, cards, is_fool=name == fool)
        ranked = _evaluate(showing, magic)
        opener = first_to_bet(
            showing, fool=fool, fool_has_chips=not fool_broke, magic=magic
        )
        return opener, fool, ranked

    def rule(text: str) -> Opener:
        opener, _, ranked = rule_pairs(_line_hands(text))
        return {"first": opener, "hands": _hands_json(ranked)}

    lines = _runs(hands, from_file, "the showing hands")
    if lines is not None:
        _each_line(lines, str(from_file), rule)
        return
    assert hands is not None
    opener, fool, ranked = rule_pairs(_hand_args(hands))
    if json_out:

        emit_json({"first": opener, "hands": _hands_json(ranked)})
        return
    _render_first(opener, fool, ranked, fool_broke)


def _render_first(opener: str, fool: str | None, ranked: dict[str, Hand], broke: bool) -> None:
    from rich.table import Table  # the human table only: --json does without rich

    table = Table()
    table.add_column("Seat", justify="right")
    table.add_column("Hand")
    table.add_column("Showing")
    table.add_column("Up cards")
    seat = 0
    for name, hand in ranked.items():
        if name == fool:
            label = "Fool"
        else:
            seat += 1
            label = str(seat)
        who = f"[bold]{lit(name)}[/bold]" if name == opener else lit(name)
        table.add_row(label, who, hand.title, _cards_long(hand.cards))
    out = console()
    out.print(table)
    best = ranked[opener]
    top_fool = fool is not None and fool != opener and ranked[fool] > best
    if top_fool:
        out.print(
            f"The Fool shows the high hand but holds no chips, so {opener}, the "
            f"highest-showing stakeholder, opens (R15).", markup=False
        )
    rivals = [n for n in ranked if n != opener and not (top_fool and n == fool)]
    if not rivals:
        out.print(f"{opener} bets first.", markup=False)
        return
    runner = max(rivals, key=lambda n: ranked[n])
    if ranked[runner] == best:
        reason = (
            f"tied with {runner}, {explain(best, ranked[runner])}; "
            + (
                "the Fool counts as the last seat (H5)"
                if runner == fool
                else f"{opener} sits nearer the Fool's left (R9)"
            )
        )
    else:
        reason = f"over {runner}: {explain(best, ranked[runner])}"
    must = " and must bet: he holds chips (R15)" if opener == fool and not broke else ""
    out.print(f"{opener} bets first{must}; {reason}.", markup=False)


def categories(json_out: Json = False) -> None:
    """The sixteen hands, high to low, each with an example (R4)."""
    if json_out:

        emit_json(
            [
                {"category": c, "title": CATEGORY_TITLES[c], "example": CATEGORY_EXAMPLES[c]}
                for c in CATEGORIES
            ]
        )
        return
    from rich.table import Table  # the human table only: --json does without rich


    table = Table(title="Fool's Errand hands, high to low (R4)", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Hand")
    table.add_column("JSON name")
    table.add_column("Example")
    for place, cat in enumerate(CATEGORIES, start=1):
        note = " (magic)" if place <= 3 else ""
        table.add_row(str(place), CATEGORY_TITLES[cat] + note, cat, CATEGORY_EXAMPLES[cat])
    console().print(table)
    console().print(
        "Ace low, King high; straights wrap (10 P Kn Q K highest, P Kn Q K A lowest, R5); "
        "any two majors make a Duet, which loses to a regular pair (R4, R6)."
    )


def odds(
    cards: Annotated[
        list[str] | None,
        typer.Argument(
            help="3-6 known cards of one hand (H20); none: a whole hand from the full deck.",
            metavar="[CARDS...]",
            show_default=False,
        ),
    ] = None,
    json_out: Json = False,
) -> None:
    """The exact chance of each hand of seven cards: counted, never sampled (H20).

    With no cards, over all seven-card hands of the full 78-card deck; with 3-6 known
    cards (`referee hand odds KC KW 0`), over every way the unseen deck can finish them.
    """
    from referee.rules import odds as counting  # `hand odds` only (~2 ms)

    known = parse_cards(cards or [])
    counts = counting.known_counts(known) if known else counting.deck_counts()
    total = counting.total_hands(len(known))
    if json_out:

        emit_json(_odds_json(known, counts, total))
        return
    _render_odds(known, counts, total)


def _odds_json(known: Sequence[Card], counts: dict[str, int], total: int) -> JSONObject:
    from fractions import Fraction  # `hand odds --json` only (~2 ms)

    rows: list[JSON] = []
    for category, count in counts.items():
        exact = Fraction(count, total)
        rows.append({
            "category": category, "count": count,
            "probability": str(exact),  # exact: "19/81030", "0"
            "percent": round(100 * count / total, 6),
        })
    return {"known": [card.short for card in known], "draw": 7 - len(known),
            "hands": total, "categories": rows}


def _render_odds(known: Sequence[Card], counts: dict[str, int], total: int) -> None:
    from rich.table import Table  # the human table only: --json does without rich

    if known:
        shown = " ".join(card.short for card in known)
        title = (f"{shown} and {7 - len(known)} of the {78 - len(known)} unseen cards: "
                 f"{total:,} ways (H20)")
    else:
        title = f"Seven cards from the full deck, no magic: {total:,} hands (R4)"
    table = Table(title=title, title_justify="left")
    table.add_column("Hand")
    table.add_column("Hands", justify="right")
    table.add_column("Chance", justify="right")
    table.add_column("One in", justify="right")
    for category, count in counts.items():
        if not count:
            continue
        table.add_row(CATEGORY_TITLES[category], f"{count:,}", _percent(count, total),
                      f"{total / count:,.1f}")
    console().print(table)
    never = [CATEGORY_TITLES[c] for c, n in counts.items() if not n]
    if never:
        console().print("Impossible here: " + ", ".join(never) + ".", markup=False)


def _percent(count: int, total: int) -> str:
    share = 100 * count / total
    return f"{share:.4f}%" if share >= 0.01 else f"{share:.6f}%"


def register(app: typer.Typer) -> None:
    """Add the rulings to the `hand` group."""
    app.command("rank")(rank)
    app.command("compare")(compare)
    app.command("first")(first)
    app.command("categories")(categories)
    app.command("odds")(odds)
