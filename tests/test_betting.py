"""Turn order, the opener, legal moves and the Fool's forced moves (referee.evening.betting;
R9, R12-R15, E2-E5, E27), on states built directly: no disk, no console."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import BadInput, IllegalAction
from referee.evening import betting
from referee.evening.powers import constraints
from referee.evening.state import Effect, HandState, Round, Seat, State
from tests.profiles import examples

ORDER = ["Ada", "Cy", "Ed", "Max"]


def _state(stacks: dict[str, int], showing: dict[str, str], *, street: int = 1,
           phase: str = "limit", **round_: object) -> tuple[State, HandState]:
    """Three stakeholders and the Fool Max, holding ``stacks`` chips (one colour each)."""
    seats = [Seat(name, arcanum, colour) for name, arcanum, colour in
             (("Ada", 1, "red"), ("Cy", 3, "blue"), ("Ed", 5, "green"))]
    state = State(started=True, fool="Max", seats=seats)
    for seat in seats:
        state.chips[seat.name] = {seat.colour: stacks.get(seat.name, 0)}
    state.chips["Max"] = {"red": stacks.get("Max", 0)} if stacks.get("Max") else {}
    hand = HandState(no=1, phase=phase, order=list(ORDER),
                     showing={n: c.split() for n, c in showing.items()},
                     round=Round(street=street, **round_))  # type: ignore[arg-type]
    state.hand = hand
    return state, hand


ALL_UP = {"Ada": "2C 3W", "Cy": "KC KW", "Ed": "9S 4P", "Max": "0 I II III"}


def test_r9_no_turn_until_the_rounds_up_cards_are_given() -> None:
    state, hand = _state({"Ada": 5, "Cy": 5, "Ed": 5}, {"Cy": "KC KW"})
    assert betting.missing_up_cards(state, hand) == ["Ada", "Ed", "Max"]
    assert betting.to_act(state, hand) is None
    assert "Ada has 0 of 2, Ed 0 of 2, Max 0 of 4" == betting.up_cards_line(state, hand)
    with pytest.raises(IllegalAction, match="R9"):
        betting.verify_action(state, hand, "Cy", "bet", None)


def test_r9_the_best_showing_hand_among_those_who_can_bet_opens() -> None:
    state, hand = _state({"Ada": 5, "Cy": 5, "Ed": 5}, ALL_UP)
    assert betting.opener(state, hand) == "Cy"
    # R15: the Fool shows the high hand but holds no chips: the best stakeholder opens.
    state, hand = _state({"Ada": 5, "Cy": 5, "Ed": 5}, {**ALL_UP, "Max": "KS KP QS QP"})
    assert betting.opener(state, hand) == "Cy"
    state, hand = _state({"Ada": 5, "Cy": 5, "Ed": 5, "Max": 2}, {**ALL_UP, "Max": "KS KP QS QP"})
    assert betting.opener(state, hand) == "Max"


def test_h5_a_tie_goes_to_the_seat_nearest_the_fools_left() -> None:
    state, hand = _state({"Ada": 5, "Cy": 5, "Ed": 5}, {"Ada": "9C 2W", "Cy": "9W 2S",
                                                         "Ed": "3C 4W", "Max": "5C 6W 7S 8P"})
    assert betting.first_in(state, hand, ["Cy", "Ada"]) == "Ada"


def test_r15_the_fools_forced_moves() -> None:
    state, hand = _state({"Ada": 5, "Cy": 5, "Ed": 5, "Max": 2},
                         {**ALL_UP, "Max": "KS KP QS QP"})
    move = betting.forced_move(state, hand)
    assert move is not None and (move["action"], move["chips"], move["auto"]) == (
        "bet", {"red": 1}, True)
    state, hand = _state({"Ada": 5, "Cy": 5, "Ed": 5, "Max": 2}, ALL_UP, bet=3, actions=2,
                         last="Ed", acted=["Ed"], committed={"Ed": 3})
    move = betting.forced_move(state, hand)
    assert move is not None and move["action"] == "call" and move["all_in"]  # 2 of 3
    state, hand = _state({"Ada": 5, "Cy": 5, "Ed": 5}, ALL_UP)
    assert betting.forced_move(state, hand) is None  # Cy's turn


def test_e27_and_r12_what_a_bet_may_be() -> None:
    state, hand = _state({"Ada": 5, "Cy": 4, "Ed": 5}, ALL_UP, phase="open")
    assert betting.verify_action(state, hand, "Cy", "bet", 4) == 4
    assert betting.verify_action(state, hand, "Cy", "bet", betting.ALL) == 4
    with pytest.raises(IllegalAction, match="Cy holds 4 chip"):
        betting.verify_action(state, hand, "Cy", "bet", 5)
    state, hand = _state({"Ada": 5, "Cy": 4, "Ed": 5}, ALL_UP)
    with pytest.raises(IllegalAction, match="exactly 1 chip"):
        betting.verify_action(state, hand, "Cy", "bet", 2)
    with pytest.raises(IllegalAction, match="not Ada's turn: Cy is to act"):
        betting.verify_action(state, hand, "Ada", "bet", None)


def test_e2_turns_run_from_the_opener_around_the_table() -> None:
    state, hand = _state({"Ada": 5, "Cy": 5, "Ed": 5}, ALL_UP, bet=1, actions=1, last="Cy",
                         acted=["Cy"], committed={"Cy": 1}, opener="Cy")
    assert betting.to_act(state, hand) == "Ed"
    options = betting.options(state, hand)
    assert options is not None and options.moves == ("call", "raise", "fold")
    state, hand = _state({"Ada": 5, "Cy": 5, "Ed": 5}, ALL_UP, bet=1, actions=3, last="Ada",
                         acted=["Cy", "Ed", "Ada"], committed={"Cy": 1, "Ed": 1, "Ada": 1})
    assert betting.to_act(state, hand) is None  # the Fool holds nothing: the round is done


def test_up_cards_dealt_by_round_and_all_once_betting_is_over() -> None:
    state, hand = _state({"Ada": 5}, ALL_UP, street=2)
    assert (betting.up_cards_dealt(state, hand, "Ada"), betting.up_cards_dealt(
        state, hand, "Max")) == (4, 6)
    hand.betting_over = True
    assert (betting.up_cards_dealt(state, hand, "Ada"), betting.up_cards_dealt(
        state, hand, "Max")) == (4, 7)
    assert betting.missing_up_cards(state, hand) == []


# -- the machine as one: constraints read once, one verifier per move ------------------------

NARROWS = ["only", "call_or_fold", "must_raise", "no_raises", "no_fold", "no_bets", "all_in"]


@st.composite
def _rounds(draw: st.DrawFn) -> tuple[State, HandState]:
    """A round under way: any stacks, a bet and what each put in, and powers in force."""
    stacks = {n: draw(st.integers(0, 6)) for n in ("Ada", "Cy", "Ed")}
    bet = draw(st.integers(0, 3))
    committed = {n: draw(st.integers(0, bet)) for n in ("Ada", "Cy", "Ed")}
    acted = draw(st.lists(st.sampled_from(["Ada", "Cy", "Ed"]), unique=True))
    state, hand = _state({**stacks, "Max": draw(st.integers(0, 3))}, ALL_UP,
                         phase=draw(st.sampled_from(["limit", "open"])), bet=bet,
                         committed=committed, acted=acted, actions=len(acted) + (bet > 0),
                         raises=draw(st.integers(0, 3)), last=acted[-1] if acted else None,
                         opener="Ada" if acted or bet else None)
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(NARROWS))
        scope = draw(st.sampled_from(["turn", "round", "hand"]))
        target = None if scope == "round" and draw(st.booleans()) else draw(
            st.sampled_from(["Ada", "Cy", "Ed"]))
        effect: Effect = {"kind": kind, "scope": scope, "target": target, "power": "Spell",
                          "by": "Ada", "street": draw(st.integers(1, 2))}
        if kind == "only":
            effect["moves"] = draw(st.lists(st.sampled_from(["call", "fold", "check"]),
                                            min_size=1, unique=True))
        hand.effects.append(effect)
    return state, hand


@settings(max_examples=examples(150))
@given(_rounds())
def test_s17_the_powers_in_force_are_read_once_as_each_player_would_be_asked(
        table_state: tuple[State, HandState]) -> None:
    state, hand = table_state
    limits = constraints.constraints(state, hand)
    for name in hand.order:
        asked = [f for f in constraints.binding(hand, name) if f["kind"] in NARROWS[:-1]]
        assert limits.narrowing.get(name, []) == asked
        assert (name in limits.suspended) == constraints.suspended(hand, name)


@settings(max_examples=examples(150))
@given(_rounds())
def test_s17_the_moves_the_powers_leave_are_narrowed_once_from_the_rules_moves(
        table_state: tuple[State, HandState]) -> None:
    """The table reads what the powers leave each player once, from the moves the rules give
    them: the moves offered are those, and narrowing them again (as the verifier once did,
    from the moves offered) changes nothing."""
    state, hand = table_state
    table = betting.Table(state, hand)
    for name, left in table.limits.left.items():
        rules = table.by_the_rules(name)
        assert set(left.moves) <= {*rules.moves, "fold"}
        assert constraints.narrow(list(left.moves), rules.owes > 0,
                                  table.limits.narrowing[name]) == list(left.moves)
    if table.options is not None:
        left = table.limits.left.get(table.options.name)
        assert left is None or table.options.moves == left.moves


@settings(max_examples=examples(150))
@given(_rounds())
def test_r12_every_move_offered_passes_its_verifier_and_can_agrees_with_verify(
        table_state: tuple[State, HandState]) -> None:
    state, hand = table_state
    what = betting.options(state, hand)
    name = betting.to_act(state, hand)
    assert (what is None) == (name is None)
    for move in ("bet", "raise", "call", "check", "fold"):
        try:
            betting.VERIFY[move](state, hand, name or "Ada", None)
            allowed = True
        except IllegalAction as refusal:
            allowed = False
            if what is not None and name != state.fool and refusal.ruling == "S17":
                assert move not in what.moves  # a power forbade it: never offered
        assert betting.can_act_so(state, hand, name or "Ada", move) == allowed
        if what is not None and name != state.fool and move in what.moves:
            assert allowed, (move, what)


def test_r12_each_move_verified_and_made_as_its_event() -> None:
    state, hand = _state({"Ada": 5, "Cy": 4, "Ed": 5}, ALL_UP, phase="open")
    made = betting.bet(state, hand, "Cy", 2)
    assert made == {"kind": "action", "name": "Cy", "action": "bet", "chips": {"blue": 2},
                    "all_in": False, "auto": False}
    assert betting.bet(state, hand, "Cy", betting.ALL)["all_in"] is True
    with pytest.raises(BadInput, match="add up to 3, but this bet puts in 2") as named:
        betting.bet(state, hand, "Cy", 2, chips={"blue": 3})
    assert named.value.ruling == "R11"
    with pytest.raises(IllegalAction, match="nothing to call for Cy"):
        betting.call(state, hand, "Cy")
    with pytest.raises(IllegalAction, match="not Ada's turn"):
        betting.fold(state, hand, "Ada")
    assert betting.check(state, hand, "Cy")["chips"] == {}
    assert not betting.can_raise(state, hand, "Cy") and betting.can_bet(state, hand, "Cy")
