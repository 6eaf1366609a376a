"""The table's API under random requests (``referee.table.api.perform``): whatever is asked,
right or wrong, a refused request leaves every byte of the evening as it was, an accepted
one is logged as exactly one command holding exactly the events it answered with, under its
words, and the books hold: ten chips of each colour, none negative, no Charges below zero."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.evening import betting, commands
from referee.evening.state import State
from referee.storage.store import open_evening
from referee.table import api
from tests.profiles import examples
from tests.test_evening_stateful import CARDS, UP, chip_texts, chips_ok

SEATS = ["Ada:I:red:Ann:II", "Bob:III:blue:Bea:IV", "Cy:V:green"]
NAMES = st.sampled_from(["Ada", "Ann", "Bob", "Bea", "Cy", "Fool", "Zed", "A"])
WHO = st.one_of(st.none(), NAMES)

#: One request a caller may make, right or wrong: its move and its arguments by name.
bets = st.builds(lambda action, who, amount, chips: (action, {
    "who": who, "action": action, "amount": amount, "chips_text": chips}),
    st.sampled_from(["bet", "raise", "call", "check", "fold"]), WHO,
    st.one_of(st.none(), st.integers(-1, 4)), st.one_of(st.none(), chip_texts))
shows = st.builds(lambda items: ("hand show", {"items": items, "words": [], "magic": False}),
                  st.lists(st.tuples(NAMES, st.lists(st.sampled_from(CARDS), min_size=1,
                                                      max_size=4).map(" ".join)),
                           min_size=1, max_size=4))
others = st.one_of(
    st.just(("hand start", {"now": 0.0, "open_phase": False})),
    st.just(("open-phase", {"now": 0.0})),
    st.builds(lambda who: ("rise", {"who": who}), NAMES),
    st.builds(lambda who: ("sit", {"who": who}), NAMES),
    st.builds(lambda a, b, c: ("chips give", {"source": a, "target": b, "chips_text": c}),
              NAMES, NAMES, chip_texts),
    st.builds(lambda a, b, n: ("charge give", {"source": a, "target": b, "n": n}),
              NAMES, NAMES, st.integers(-1, 3)),
    st.builds(lambda who, soul: ("soul study", {"who": who, "soul_text": soul}),
              NAMES, st.sampled_from(["amber", "green", "cobalt", "nothing"])),
)
anything = st.one_of(bets, bets, shows, others)


def _legal(state: State, data: st.DataObject) -> tuple[str, dict[str, Any]] | None:
    """A request that moves the hand on, as the table stands: deal, the up cards still to
    give (cards nobody shows), or one of the moves the betting offers the player to act."""
    hand = state.hand
    if hand is None:
        return "hand start", {"now": 0.0, "open_phase": data.draw(st.booleans())}
    missing = betting.missing_up_cards(state, hand)
    if missing and betting.to_act(state, hand) is None:  # R9: the up cards first
        name = data.draw(st.sampled_from(missing))
        shown = {c for cards in hand.showing.values() for c in cards}
        want = UP[hand.round.street][1 if name == state.fool else 0]
        new = [c for c in data.draw(st.permutations(CARDS)) if c not in shown]
        given = new[:want - len(hand.showing.get(name, []))]
        return "hand show", {"items": [(name, "+" + " ".join(given))], "words": [],
                             "magic": False}
    options = betting.options(state, hand)
    if options is None or options.name == state.fool:
        return None  # the showdown, or the Fool's forced move (played when the next acts)
    move = data.draw(st.sampled_from(options.moves))
    return move, {"who": options.name, "action": move, "amount": None, "chips_text": None}


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.suffix != ".lock"}


def _open(path: Path) -> None:
    with open_evening(path) as ev:
        state = ev.state("evening")
        seats = [commands.parse_seat(s) for s in SEATS]
        ev.commit("evening", commands.new_evening(state, "Fool", seats, now=time.time(),
                                                  force=False), "new")


def _books_hold(state: State) -> None:
    chips_ok(state)
    assert all(n >= 0 for n in state.charges.values()), state.charges


@settings(max_examples=examples(40))
@given(st.data(), st.integers(1, 30))
def test_every_request_is_all_or_nothing_and_the_books_hold(data: st.DataObject,
                                                            steps: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="referee-api-"))
    path = folder / "e.json"
    try:
        _open(path)
        for _ in range(steps):
            with open_evening(path, write=False) as ev:
                now = ev.state("evening")
            asked = _legal(now, data) if data.draw(st.booleans()) else None
            move, args = asked if asked is not None else data.draw(anything)
            before = _files(folder)
            with open_evening(path, write=False) as ev:
                count = len(list(ev.iter_commands("evening")))
            words = f"{move} {sorted(args.items())!r}"
            try:
                outcome = api.perform(api.Request(move, args, evening=path, line=words))
            except RefereeError:
                assert _files(folder) == before, f"{move} {args} was refused and wrote"
                event(f"refused: {move}")
                continue
            event(f"made: {move}")
            with open_evening(path, write=False) as ev:
                logged = list(ev.iter_commands("evening"))
                state = ev.state("evening")
            if outcome.events:  # one command, its very events, under its words
                assert len(logged) == count + 1
                assert logged[-1].text == words
                assert [dict(e) for e in logged[-1].events] == [dict(e) for e in outcome.events]
            else:
                assert _files(folder) == before
            _books_hold(state)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
