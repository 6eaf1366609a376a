"""The ceremony through the core (``referee.evening.ceremony``; R28, R40, E100-E105).

A refused request raises and leaves the state as it was; an accepted one folds. The
property: over random evenings and random claims, every claim won met R28 against the roster
as it then stood, each Arcanum changed hands at most once and each person won at most once
(E103), no one holds two Arcana, and the roster closed is the one the decisions left.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import IllegalAction
from referee.evening import ceremony, commands, roster, souls
from referee.rules.cards import parse_arcanum, to_roman
from tests.profiles import examples
from tests.test_carry import closed_evening, evenings, play, try_
from tests.test_souls import do, fold, refused


@settings(max_examples=examples(30))
@given(st.data())
def test_r40_every_claim_won_met_r28_against_the_roster_then(data: st.DataObject) -> None:
    state = play(data.draw, data.draw(evenings()), data.draw(st.integers(0, 12)))
    if not state.over:
        state = fold(state, ceremony.end(state, now=2.0))
    start = roster.standing(state)
    won: list[tuple[str, int]] = []
    for _ in range(data.draw(st.integers(1, 5))):
        listed = ceremony.claims(state)
        if listed and data.draw(st.integers(0, 3)):
            claim = data.draw(st.sampled_from(listed))
            who, arcanum, how = claim["person"], claim["arcanum"], claim["how"]
        else:
            who = data.draw(st.sampled_from(state.people))
            arcanum = to_roman(data.draw(st.integers(0, 21)))
            how = data.draw(st.sampled_from(["promote", "switch"]))
        standing = roster.standing(state)
        after = try_(state, getattr(ceremony, how), who, arcanum)
        if after is state:
            continue
        number = parse_arcanum(arcanum)
        d = after.ceremony["decisions"][-1] if after.ceremony else None
        assert d is not None and (d["person"], d["arcanum"]) == (who, number)
        if d["occupant"] is None:
            assert number not in standing and d["points"] >= 7  # R28: vacant, 7 or more
        else:
            assert standing[number] == d["occupant"] and d["points"] > d["occupant_points"]
        won.append((who, number))
        state = after
    holders = list(roster.standing(state).values())
    assert len(holders) == len(set(holders))  # nobody holds two Arcana
    assert len({a for _, a in won}) == len(won) and len({w for w, _ in won}) == len(won)
    for who, number in won:
        assert roster.standing(state)[number] == who
    left = [n for n in start.values() if n not in holders]
    closed = fold(state, ceremony.close(state, now=3.0))
    assert closed.ceremony is not None and closed.ceremony["left"] == left
    assert roster.numbers(closed.ceremony["roster"]) == roster.standing(state)


def test_e101_the_books_close_at_the_end_and_nothing_follows_the_close() -> None:
    state = closed_evening()
    for request in (lambda s: commands.sit(s, "Ada"), lambda s: souls.study(s, "Di", "cobalt"),
                    lambda s: commands.open_phase(s, now=5.0)):
        with pytest.raises(IllegalAction) as info:  # refused when asked, or when folded
            fold(state, request(state))
        assert info.value.ruling == "E101" and "books are closed" in str(info.value)
    closed = fold(state, ceremony.close(state, now=3.0))
    refused(closed, ceremony.close, now=4.0, match="closed")
    decline = {"kind": "claim_decided", "person": "Flo", "arcanum": 3, "how": "decline",
               "points": 0, "occupant": "Cy", "occupant_points": 2}
    with pytest.raises(IllegalAction, match="the evening is closed"):
        fold(closed, [decline])


def test_e100_the_end_is_once_and_between_hands() -> None:
    state = closed_evening()
    refused(state, ceremony.end, now=5.0, match="ended already")


def test_e104_decline_names_the_claim_when_there_are_several() -> None:
    # Ben takes Cy's soul (III, 2) and consumes his green bottle for 1 in III: 3 against Cy's
    # 5 - 3 = 2; he takes Ed's soul (VII, 2) and consumes the cobalt phial for 1 in VII: 3
    # against Ed's 2. Two claims: Ben must say which he declines.
    state = closed_evening((souls.give_soul, "Cy", "Ben", "Cy's soul"),
                           (souls.consume, "Ben", "the cracked green bottle", "III"),
                           (souls.give_soul, "Ed", "Ben", "Ed's soul"),
                           (souls.give_soul, "Di", "Ben", "the cobalt phial"),
                           (souls.consume, "Ben", "the cobalt phial", "VII"))
    assert sorted((c["arcanum"], c["points"], c["occupant_points"]) for c in
                  ceremony.claims(state) if c["person"] == "Ben") == [("III", 3, 2),
                                                                      ("VII", 3, 2)]
    refused(state, ceremony.decline, "Ben", match="say which they decline")
    state = do(state, ceremony.decline, "Ben", "VII")
    assert [c["arcanum"] for c in ceremony.claims(state) if c["person"] == "Ben"] == ["III"]
    state = do(state, ceremony.promote, "Ben", "III")
    assert roster.standing(state)[3] == "Ben"


def test_e105_a_member_sitting_out_is_not_at_the_ceremony() -> None:
    from referee.evening import carry
    from referee.evening.state import State
    from tests.test_carry import DEFAULT, PREVIOUS, close

    nxt = fold(State(), carry.next_evening(close(closed_evening()), previous=PREVIOUS,
                                           scenario=DEFAULT, now=9.0, absent=["Ed"]))
    nxt = fold(nxt, ceremony.end(nxt, now=10.0))
    refused(nxt, ceremony.switch, "Ed", "III", match="not at this evening", exc=IllegalAction)
    assert roster.unseated(nxt) == [("Ed", 7)]
