"""The phones' request queue (R46, E210-E213): what a phone may ask, the bounds on a side, what
the GM's answer leaves, and that asking never touches the evening."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.errors import BadInput, IllegalAction, RefereeError
from referee.serve import asks, players
from tests.cli.conftest import GM

SEATS = ["Ada:XVI:red:Ben:IX", "Cara:III:blue:Dan:V", "Eve:VII:green:Finn:XI"]
GREEN, AMBER = "the cracked green bottle", "the amber bottle"


@pytest.fixture
def evening(tmp_path: Path) -> Path:
    db = tmp_path / "e.json"
    GM(CliRunner(), db).played("asks", lambda gm: gm(
        "new", "--fool", "Fiona", *[a for s in SEATS for a in ("--seat", s)]))
    return db


def ask(evening: Path, who: str, kind: str, now: float = 1000.0, **fields: object) -> asks.Ask:
    return asks.ask(evening, players.load_state(evening), who, kind, fields, now=now)


def test_r46_a_request_is_queued_beside_the_evening_and_the_evening_is_untouched(
        evening: Path) -> None:
    before = evening.read_bytes()
    made = ask(evening, "Ben", "study", soul="green")
    assert made["args"] == ["soul", "study", "Ben", GREEN]
    assert made["side"] == "Ada" and made["status"] == "open"
    assert evening.read_bytes() == before
    kept = json.loads(asks.asks_path(evening).read_text())
    assert [a["no"] for a in kept["asks"]] == [1]
    assert asks.asks_path(evening).stat().st_mode & 0o777 == 0o600


def test_r23_r46_a_phone_is_refused_what_the_command_would_refuse(evening: Path) -> None:
    with pytest.raises(IllegalAction, match="only a soul their side holds"):
        ask(evening, "Ben", "study", soul="amber")  # Finn's side holds it
    with pytest.raises(BadInput, match="fill in Name or Arcanum"):
        ask(evening, "Ben", "guess", soul="amber")  # neither a name nor an Arcanum
    with pytest.raises(IllegalAction, match="no auction is open"):
        ask(evening, "Ben", "bid", chips="red:1")
    with pytest.raises(BadInput, match="write the question"):
        ask(evening, "Ben", "question", text="   ")
    with pytest.raises(BadInput, match="at most 280"):
        ask(evening, "Ben", "question", text="x" * 281)
    with pytest.raises(BadInput, match="no control characters"):
        ask(evening, "Ben", "question", text="a \x1b[2J clear screen")
    with pytest.raises(BadInput, match="ask for one of"):
        ask(evening, "Ben", "undo")
    with pytest.raises(IllegalAction, match="no assistant"):
        ask(evening, "Ada", "question", text="may I?")  # a stakeholder has no phone link
    assert not asks.asks_path(evening).exists()


def test_e211_one_open_request_per_kind_per_side(evening: Path) -> None:
    ask(evening, "Ben", "study", soul="green")
    with pytest.raises(IllegalAction, match="still with the GM; one at a time"):
        ask(evening, "Ben", "study", soul="green", now=1001)
    ask(evening, "Ben", "question", text="May I?", now=1002)  # another kind is fine
    ask(evening, "Dan", "question", text="And I?", now=1003)  # another side too
    asks.decline(evening, 1, "after this hand")
    assert ask(evening, "Ben", "study", soul="green", now=1004)["no"] == 4


def test_e211_at_most_four_a_minute_from_a_side(evening: Path) -> None:
    for n in range(asks.PER_MINUTE):
        ask(evening, "Ben", "question", text=f"q{n}", now=1000 + n)
        asks.decline(evening, n + 1, "no")
    with pytest.raises(asks.TooMany, match=r"ask again in 57 s"):
        ask(evening, "Ben", "question", text="again", now=1004)
    ask(evening, "Dan", "question", text="mine", now=1004)  # the other sides are not held
    assert ask(evening, "Ben", "question", text="later", now=1061)["status"] == "open"


def test_e212_e213_the_gms_answer(evening: Path) -> None:
    ask(evening, "Ben", "guess", soul="amber", name="Catherine the Great", arcanum="3")
    with pytest.raises(BadInput, match="the reason the phone shows"):
        asks.decline(evening, 1, "  ")
    with pytest.raises(BadInput, match="there is no request 7; open: 1"):
        asks.decline(evening, 7, "why")
    claimed = asks.claim(evening, 1)
    assert claimed["status"] == "running"
    with pytest.raises(IllegalAction, match="being accepted already"):
        asks.claim(evening, 1)
    asks.finish(evening, 1, "accepted", None)
    with pytest.raises(IllegalAction, match="was accepted already"):
        asks.decline(evening, 1, "late")
    assert asks.note(asks.load_queue(evening).find(1)) == \
        "asked by Ben from their phone, request 1"


def test_a_queue_that_cannot_be_read_is_empty(evening: Path) -> None:
    asks.asks_path(evening).write_text("{not json")
    assert asks.load_queue(evening).asks == []
    assert ask(evening, "Ben", "question", text="still?")["no"] == 1


KINDS = st.sampled_from(["question", "study"])
STEPS = st.lists(st.tuples(st.sampled_from(["Ben", "Dan", "Finn"]), KINDS,
                           st.integers(0, 200), st.sampled_from(["ask", "decline"])),
                 max_size=40)


@settings(max_examples=40, deadline=None)
@given(steps=STEPS)
def test_e211_invariant_no_side_floods_the_queue(steps: list[tuple[str, str, int, str]]
                                                 ) -> None:
    """Whatever phones ask and the GM declines, in any order: never two open requests of one
    kind for a side, never more than PER_MINUTE from a side in any minute."""
    queue = asks.Queue()
    now = 0.0
    for who, kind, wait, what in steps:
        now += wait / 10
        side = {"Ben": "Ada", "Dan": "Cara", "Finn": "Eve"}[who]
        if what == "decline":
            waiting = [a for a in queue.open() if a["side"] == side]
            if waiting:
                waiting[0]["status"] = "declined"
            continue
        try:
            asks.add(queue, kind=kind, assistant=who, side=side,  # type: ignore[arg-type]
                     asked=asks.Asked("", {}, [], kind), now=now)
        except RefereeError:
            pass
        for s in ("Ada", "Cara", "Eve"):
            for k in ("question", "study"):
                assert sum(1 for a in queue.open() if a["side"] == s and a["kind"] == k) <= 1
            times = sorted(a["at"] for a in queue.asks if a["side"] == s)
            for i, t in enumerate(times):
                assert sum(1 for u in times[i:] if u < t + 60) <= asks.PER_MINUTE
