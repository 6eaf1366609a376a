"""`count` as a pure function (E130-E132): a count moves nothing, and finds exactly the
holders and colours where it and the books differ."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import BadInput
from referee.evening.count import count_chips, parse_count
from referee.evening.folds import STREAM
from referee.evening.state import State, dump
from tests.profiles import examples

SEATS = [{"name": "Cy", "arcanum": 3, "colour": "blue", "assistant": "Di",
          "assistant_arcanum": 2},
         {"name": "Ada", "arcanum": 16, "colour": "red", "assistant": None,
          "assistant_arcanum": None}]


def _evening() -> State:
    state = STREAM.empty()
    state = STREAM.apply(state, {"kind": "evening_created", "fool": "Max", "time": 0.0,
                                 "seats": SEATS, "settings": {}, "scenario": {}, "souls": []})
    given: State = STREAM.apply(state, {"kind": "chips_given", "from": "Ada", "to": "Cy",
                                        "chips": {"red": 3}})
    return given


HOLDERS = ["Cy", "Ada", "Di", "Max", "pot"]
counts = st.dictionaries(st.sampled_from(HOLDERS), st.one_of(
    st.integers(0, 20), st.dictionaries(st.sampled_from(["red", "blue"]), st.integers(0, 12))),
    min_size=1)


@settings(max_examples=examples(60))
@given(counts)
def test_e132_a_count_moves_nothing_and_names_exactly_the_differences(
        counted: dict[str, object]) -> None:
    state = _evening()
    before = dump(state)
    [event] = count_chips(state, counted)
    after = STREAM.apply(state, event)
    assert dump(after) == before  # E132: nothing corrected, nothing moved
    books = {"Cy": {"blue": 10, "red": 3}, "Ada": {"red": 7}, "Di": {}, "Max": {}, "pot": {}}
    expected = set()
    for holder, count in counted.items():
        held = books[holder]
        if isinstance(count, int):
            if count != sum(held.values()):
                expected.add((holder, None))
        else:
            expected |= {(holder, c) for c in {*count, *held}
                         if count.get(c, 0) != held.get(c, 0)}
    assert {(d["holder"], d["colour"]) for d in event["differences"]} == expected


def test_e130_the_words_a_gm_types() -> None:
    state = _evening()
    assert parse_count(state, ["cy", "BLUE:10", "red:3", "ada", "red:7", "pot:0"]) == \
        {"Cy": {"blue": 10, "red": 3}, "Ada": {"red": 7}, "pot": 0}
    with pytest.raises(BadInput, match="counts chips of no one"):  # a total ends its holder
        parse_count(state, ["pot:0", "red:1"])


def test_e142_a_name_with_nothing_after_it_or_a_colour_alone_is_a_slip() -> None:
    state = _evening()
    with pytest.raises(BadInput, match="Cy is named with nothing counted.*`Cy:0`"):
        parse_count(state, ["Cy"])
    with pytest.raises(BadInput, match="Cy is named with nothing counted"):
        parse_count(state, ["Cy", "Ada", "red:7"])
    with pytest.raises(BadInput, match="'blue' alone counts nothing.*`blue:10`"):
        parse_count(state, ["Cy", "blue", "10"])
    with pytest.raises(BadInput, match="'10' alone counts nothing"):
        parse_count(state, ["Cy", "10"])
    assert parse_count(state, ["Cy:0", "Ada", "red:7"]) == {"Cy": 0, "Ada": {"red": 7}}


def test_e142_a_colour_and_its_count_apart_are_named_as_the_one_word() -> None:
    state = _evening()
    for words, one in ((["Ada", "red", "1"], "`red:1`"), (["Cy", "Blue 3"], "`Blue:3`"),
                       (["Ada", "red:2", "blue", "4", "Cy:1"], "`blue:4`")):
        with pytest.raises(BadInput, match="alone counts nothing") as info:
            parse_count(state, words)
        assert one in str(info.value) and "`blue:10`" not in str(info.value), words
