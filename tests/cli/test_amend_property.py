"""An amendment that drops the last commands leaves the table as undoing them would (E140):
a property over random evenings, through the console."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.cli.test_dry_run import _new, _run, _sensible
from tests.profiles import examples


def _table(db: Path) -> Any:
    """What the table shows: chips by colour, hands played, and the hand under way (who is
    in, who acts, what they may do, the cards showing); not the clock, which a replay resets."""
    data = json.loads(_run(db, ["status", "--json"])[1])
    hand = data["hand"]
    keep = ("in", "to_act", "moves", "street", "showing", "betting_over")
    return (data["chips"], data["hands_played"],
            None if hand is None else {k: hand.get(k) for k in keep})


@settings(max_examples=examples(8))
@given(st.integers(2, 10), st.integers(1, 3), st.data())
def test_e140_dropping_the_last_commands_is_undoing_them(steps: int, k: int,
                                                         data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "e.json"
        _new(db)
        typed = 1
        for _ in range(steps):
            typed += _run(db, _sensible(db, data))[0] == 0
        k = min(k, typed - 1)  # the command that opened the evening is not amended (E139)
        if k == 0:
            return
        undone = Path(folder) / "u.json"
        shutil.copy(db, undone)
        for _ in range(k):
            assert _run(undone, ["undo", "--yes"])[0] == 0
        last = typed  # commands are numbered from 1 and nothing was undone before
        drops = [w for n in range(last - k + 1, last + 1) for w in ("--drop", str(n))]
        code, out, err = _run(db, ["amend", *drops, "--yes"])
        assert code == 0, err
        event(f"dropped {k}")
        assert _table(db) == _table(undone)
        assert "sound" in _run(db, ["verify"])[1]
