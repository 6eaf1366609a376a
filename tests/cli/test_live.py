"""`referee watch`: the players' screen shows the table and keeps the secrets."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from referee.serve import players
from referee.storage.store import open_evening
from tests.cli.conftest import GM

SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II", "--seat", "Ed:VII:green"]
# Hand 1 goes to a showdown: these down cards are recorded there and must never be shown.
DOWN = {"Cy": ["3C", "9C", "PC"], "Ed": ["5S", "7S", "AC"]}
UP1 = {"Cy": "2P 5W 6S 7P", "Ed": "3S 9P 10C 4W", "Ada": "4C 8W AS 6C"}
#: A first round's up cards in which Cy opens (R9).
ROUND1 = ("Cy: KC KW", "Ed: 2S 3P", "Ada: 4P 5C", "Fool: 2C 3C 4S 6P")


def _referee(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The console in another process, as a second terminal would run it."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "referee", "--db", str(db), *args],
                          capture_output=True, text=True, env=env, timeout=30, check=True)


def evening(gm: GM) -> None:
    """Souls studied and guessed, a hand to a showdown, a power spent, a hand in progress."""
    gm("new", "--fool", "Fool", *SEATS)
    for who, soul in (("Di", "cobalt"), ("Di", "cobalt"), ("Ben", "green")):
        gm("soul", "study", who, soul)
    gm("soul", "guess", "Di", "cobalt", "--name", "Houdini")  # Cy's side earns Charges
    gm("hand", "start")
    for name, up in UP1.items():
        gm("hand", "show", name, up[:5])
    gm("hand", "show", "Fool", "KC KW KS QP")  # the Fool's cards are all dealt face up
    gm("power", "access", "Ada", "XIX", "upright")  # a down card for a power, then out
    check_around(gm, fold="Ada")
    for name in DOWN:
        gm("hand", "show", name, UP1[name])
    gm("hand", "show", "Fool", "KC KW KS QP QW 10S")
    check_around(gm)
    gm("hand", "show", "Fool", "KC KW KS QP QW 10S 2S")
    check_around(gm)
    gm("hand", "showdown", *(f"{n}: {UP1[n]} {' '.join(DOWN[n])}" for n in DOWN),
       "Fool: KC KW KS QP QW 10S 2S")
    gm("hand", "start")
    gm("hand", "show", "Cy", "KnC KnW")
    gm("hand", "show", "Ed", "2S 3P")
    gm("power", "access", "Ed", "XIX", "reversed")  # both powers out: XIX is depleted
    gm("hand", "show", "Ada: 4P 5C", "Fool: 2W 6W 8S 7P")  # R9: all in before any bet
    gm("bet", "Cy")


def check_around(gm: GM, fold: str | None = None) -> None:
    """Everyone checks (``fold`` folds) until the round ends, whoever the up cards make first."""
    hand = gm.status()["hand"]
    street = hand["street"]
    while not hand["betting_over"] and hand["street"] == street:
        gm("fold" if hand["to_act"] == fold else "check", hand["to_act"])
        hand = gm.status()["hand"]


def secrets(db: Path) -> list[str]:
    """Every soul identity and alias, and every clue of every sheet of the evening."""
    with open_evening(db, write=False) as ev:
        state = ev.state("evening")
    found: list[str] = []
    for soul in state.souls:
        if soul.kind == "bottled":
            found += [soul.identity, *soul.aliases]
    for sheets in state.scenario["clues"].values():
        for clues in sheets.values():
            found += clues
    assert len(found) > 20, "the scenario should give souls and clue sheets"
    return found


def test_watch_once_shows_the_table(gm: GM) -> None:
    evening(gm)
    out = gm("watch", "--once").output
    for name in ("Cy", "Ed", "Ada", "Di (assistant)", "Ben (assistant)", "Fool (the Fool)"):
        assert name in out
    status = gm.status()
    hand = status["hand"]
    assert hand["to_act"] == "Ed" and hand["owes"] == 1
    assert re.search(r"▶\s+Ed VII\b.*owes 1", out), out
    assert f"Pot {hand['pot']} chip" in out
    assert "Ed to act" in out
    for seat in status["seats"]:  # every stack's count is on its row
        line = next(ln for ln in out.splitlines() if re.search(rf"\b{seat['name']} [IVX]+\b", ln))
        assert str(seat["chips"]) in line.split()
    assert "Depleted Arcana: XIX The Sun" in out
    assert "KnC KnW" in out  # up cards are public


def test_watch_once_keeps_every_secret(gm: GM, db: Path) -> None:
    evening(gm)
    out = gm("watch", "--once").output
    view = gm("watch", "--json").output
    for text in (out, view):
        for secret in secrets(db):
            assert secret.lower() not in text.lower(), secret
        for cards in DOWN.values():
            for card in cards:
                assert not re.search(rf"(?<![\w]){card}(?![\w])", text), card
    data = json.loads(view)
    assert not {"souls", "identity", "aliases", "clues", "powers"} & set(_keys(data))


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


def test_watch_without_an_evening_file_says_so_in_one_line(gm: GM, db: Path) -> None:
    line = gm.fails("watch", "--once")
    assert line.startswith("error: no evening file at") and str(db) in line


def test_watch_shows_side_pots_once_someone_is_all_in(gm: GM) -> None:
    gm("new", "--fool", "Fool", *SEATS)
    gm("rise", "Cy")
    gm("chips", "give", "Cy", "Di", "blue:7")  # away from the table (R16): Cy keeps 3
    gm("sit", "Cy")
    gm("open-phase")
    gm("hand", "start")  # antes: 3 chips
    gm("hand", "show", "Cy", "KC KW")
    gm("hand", "show", "Ed", "QC QW")
    gm("hand", "show", "Ada", "8C 8W")
    gm("hand", "show", "Fool", "0 I II III")
    gm("bet", "Cy", "1")
    before = gm("watch", "--once").output
    assert "Pot 4 chips" in before and "side pot" not in before  # a bet is not a side pot
    gm("raise", "Ed", "5")  # Cy (2 left) cannot cover it
    gm("call", "Ada")
    out = gm("watch", "--once").output
    assert re.search(r"▶\s+Cy III.*owes 5.*", out), out
    gm("call", "Cy")  # all-in for 2 (R14)
    hand = gm.status()["hand"]
    out = gm("watch", "--once").output
    sizes = [p["size"] for p in hand["pots"]]
    assert len(sizes) == 2, hand
    assert f"main pot: {sizes[0]} (Cy, Ed, Ada, Fool)" in out, out
    assert f"side pot 1: {sizes[1]} (Ed, Ada, Fool)" in out, out
    assert re.search(r"Cy III.*all-in", out), out


@pytest.mark.system
def test_frames_follow_a_change_from_another_process_within_a_second(gm: GM, db: Path) -> None:
    gm("new", "--fool", "Fool", *SEATS)
    gm("hand", "start")
    gm("hand", "show", *ROUND1)
    gm("bet", "Cy")
    done: list[float] = []

    def other_terminal() -> None:
        time.sleep(0.3)
        _referee(db, "call", "Ed")
        done.append(time.monotonic())

    stream = players.frames(db, interval=0.05, tick=0.2)
    first = next(stream)
    assert first["hand"]["to_act"] == "Ed"
    thread = threading.Thread(target=other_terminal)
    thread.start()
    deadline = time.monotonic() + 20
    for view in stream:
        if view["hand"]["to_act"] == "Ada":
            seen = time.monotonic()
            break
        assert time.monotonic() < deadline, "the change never showed"
    thread.join()
    assert done and seen - done[0] < 1.0
    assert view["hand"]["pot"] == 2


def test_follow_redraws_the_clock_without_rereading(tmp_path: Path) -> None:
    path = tmp_path / "e.json"
    path.write_text("{}")
    now = [0.0]

    def sleep(s: float) -> None:
        now[0] += s

    polls = players.follow(path, interval=0.25, tick=1.0, sleep=sleep, clock=lambda: now[0])
    assert [next(polls) for _ in range(3)] == [True, False, False]
    os.replace(_write(tmp_path / "new.json", '{"x": 1}'), path)
    assert next(polls) is True


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.system
def test_watch_in_tmux_follows_another_terminal(gm: GM, db: Path, tmp_path: Path) -> None:
    gm("new", "--fool", "Fool", *SEATS)
    gm("hand", "start")
    gm("hand", "show", *ROUND1)
    gm("bet", "Cy")
    session = f"referee-watch-{uuid.uuid4().hex[:8]}"
    rc = tmp_path / "rc"
    command = (f"{sys.executable} -m referee --db {db} watch; echo $? > {rc}; sleep 30")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "TMUX")}
    socket = ["-L", session]  # a private tmux server: nothing shared with the user's
    subprocess.run(["tmux", *socket, "new-session", "-d", "-s", session, "-x", "120", "-y", "40",
                    command], check=True, env=env)

    def screen() -> str:
        return subprocess.run(["tmux", *socket, "capture-pane", "-p", "-t", session],
                              capture_output=True, text=True, check=True).stdout

    def wait_for(pattern: str, seconds: float) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            text = screen()
            if re.search(pattern, text):
                return text
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} not on screen:\n{screen()}")

    try:
        wait_for(r"▶\s+Ed VII", 15)
        _referee(db, "call", "Ed")
        changed = time.monotonic()
        wait_for(r"▶\s+Ada XVI", 1.0)
        # tmux may capture the pane mid-redraw: the pot line can land a moment after the seats.
        wait_for(r"Pot 2 chips", max(0.1, 1.0 - (time.monotonic() - changed)))
        subprocess.run(["tmux", *socket, "send-keys", "-t", session, "C-c"], check=True)
        deadline = time.monotonic() + 5
        while not rc.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert rc.read_text().strip() == "0"  # Ctrl-C leaves cleanly
    finally:
        subprocess.run(["tmux", *socket, "kill-server"], check=False)


# -- what the players' screen says of a hand (E76-E78, E87, E88, S19) ------------------------------


def test_e76_watch_marks_changed_cards_and_never_names_a_hooded_one(gm: GM) -> None:
    from tests.cli import tables

    tables.marked_hand(gm)
    out = gm("watch", "--once").output
    flat = " ".join(out.split())
    assert "4C(as KC) 8W(dead)" in flat
    assert "2C 5W(held) (1 down)" in flat
    assert "3S (1 down, 1 hooded)" in flat  # E77: how many are hooded
    assert not re.search(r"(?<!\w)9P(?!\w)", out)  # and never which
    cy = next(ln for ln in out.splitlines() if re.search(r"\bCy III\b", ln))
    assert "suspended" in cy and "all-in" not in cy  # S19, said so
    view = json.loads(gm("watch", "--json").output)
    seats = {s["name"]: s for s in view["seats"]}
    assert seats["Ada"]["cards"][1] == {"card": "8W", "dead": True, "counts_as": None,
                                        "held": False}
    assert (seats["Ed"]["down"], seats["Ed"]["hooded"]) == (1, 1)
    assert seats["Cy"]["in_hand"] == "suspended"
    assert "9P" not in json.dumps(view)


def test_e88_watch_says_why_the_high_hand_does_not_open(gm: GM) -> None:
    from tests.cli import tables

    tables.marked_hand(gm, powers=False)
    out = gm("watch", "--once").output
    assert "Fool shows the high hand but has no chips: Ed opens (R15)" in " ".join(out.split())
    assert json.loads(gm("watch", "--json").output)["hand"]["opener_note"] == \
        "Fool shows the high hand but has no chips: Ed opens (R15)"


def test_e87_the_players_screen_shows_no_charges(gm: GM) -> None:
    evening(gm)  # Cy's side won Charges by a right guess
    assert gm.status()["charges"]["Cy"] > 0
    out = gm("watch", "--once").output
    assert "Charges" not in out
    assert "charges" not in _keys(json.loads(gm("watch", "--json").output))


def test_watch_shows_each_seats_bet_this_round(gm: GM) -> None:
    evening(gm)  # hand 2: Cy has bet one chip, Ed is to act
    view = json.loads(gm("watch", "--json").output)
    bets = {s["name"]: s["round_bet"] for s in view["seats"]}
    assert bets == {"Cy": 1, "Ed": 0, "Ada": 0}
    stack = next(s["stack"] for s in view["seats"] if s["name"] == "Cy")
    row = next(ln for ln in gm("watch", "--once").output.splitlines()
               if re.search(r"\bCy III\b", ln))
    assert re.search(rf"\s{stack}\s+1\s", row), row  # Chips, then Bet


def test_e80_after_the_end_and_the_ceremony_status_and_watch_stop_the_clock(
        gm: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue")
    gm("hand", "start")  # the clock starts with the first hand (R13)
    gm("hand", "show", "Cy: 2C 3C", "Ada: 4C 5C", "Max: 6C 7C 8C 9C")
    gm("fold", "Ada")
    gm("check", "Cy")
    gm("hand", "show", "Cy: +4W 5W", "Max: +10C KC")
    gm("hand", "show", "Max: +QC")
    gm("hand", "showdown", "Cy: 2C 3C 4W 5W 2W 3W 6W", "Max: 6C 7C 8C 9C 10C KC QC")
    gm("end")
    gm("ceremony", "close")
    clock = gm.status()["clock"]
    later = time.time() + 7200.0
    monkeypatch.setattr(time, "time", lambda: later)  # two hours on: the clock stood still
    assert gm.status()["clock"] == clock
    view = gm.json("watch")
    assert view["ended"] and view["clock"] == clock
    out = gm("watch", "--once").output
    assert "Between hands." not in out
    assert "The evening has ended (R40)" in out and "ceremony is closed" in out
