"""`referee requests` and `ok N` / `no N REASON` at the shell's prompt (R46, E212-E215): the
GM's answer to a phone; an accepted request is the command the GM would type, and the log says
who asked."""

from __future__ import annotations

import json
import shlex

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from referee.errors import BadInput, IllegalAction
from referee.serve import asks, players
from tests.cli.conftest import GM

SEATS = ["Ada:XVI:red:Ben:IX", "Cara:III:blue:Dan:V", "Eve:VII:green:Finn:XI"]
GREEN = "the cracked green bottle"


@pytest.fixture
def ev(gm: GM) -> GM:
    gm.played("requests", lambda g: g("new", "--fool", "Fiona",
                                      *[a for s in SEATS for a in ("--seat", s)]))
    return gm


def phone(gm: GM, who: str, kind: str, **fields: object) -> asks.Ask:
    return asks.ask(gm.db, players.load_state(gm.db), who, kind, fields)


def log_texts(gm: GM) -> list[str]:
    return [json.loads(line)["text"] for line in
            gm("log", "--format", "jsonl").stdout.splitlines()]


def test_r46_accepted_study_is_the_gms_command_and_the_log_says_who_asked(ev: GM) -> None:
    phone(ev, "Ben", "study", soul="green")
    listed = ev("requests").stdout
    assert "1: Ben (Ada's side) study the cracked green bottle" in listed
    assert "`soul study Ben 'the cracked green bottle'`" in listed
    out = ev("requests", "accept", "1").stdout
    assert "Ben studies the cracked green bottle (clue 1 of 3)" in out
    assert log_texts(ev)[-1] == ("soul study Ben 'the cracked green bottle'  "
                                 "# asked by Ben from their phone, request 1")
    # The very command: the same events as the GM typing it.
    events = json.loads(ev("log", "--format", "jsonl").stdout.splitlines()[-1])["events"]
    assert [e["kind"] for e in events] == ["soul_studied"]
    assert asks.load_queue(ev.db).find(1)["status"] == "accepted"
    assert ev("requests").stdout.strip() == "No request waits for you."
    # Undo takes it back as any command: the log's note goes with it.
    assert "soul study Ben" in ev("undo").stdout


def test_e213_a_declined_request_records_nothing_and_keeps_the_reason(ev: GM) -> None:
    phone(ev, "Ben", "guess", soul="amber", name="Catherine")
    before = ev.db.read_bytes()
    out = ev("requests", "decline", "1", "not", "during", "a", "hand").stdout
    assert "their phone shows: not during a hand" in out
    assert ev.db.read_bytes() == before
    assert asks.load_queue(ev.db).find(1)["reason"] == "not during a hand"
    assert "declined: not during a hand" in ev("requests", "--all").stdout


def test_e212_mistakes_are_one_line_and_change_nothing(ev: GM) -> None:
    phone(ev, "Ben", "study", soul="green")
    assert "there is no request 5; open: 1" in ev.fails("requests", "accept", "5")
    assert "accept it with `ok 1` alone" in ev.fails("requests", "accept", "1", "yes")
    ev("requests", "accept", "1")
    assert "request 1 was accepted already" in ev.fails("requests", "decline", "1", "late")
    assert "Missing argument" in ev.fails("requests", "decline", "1")


def test_e212_a_request_the_evening_refuses_by_now_is_recorded_as_failed(ev: GM) -> None:
    phone(ev, "Ben", "study", soul="green")
    ev("soul", "give", "Ben", "Dan", "green")  # the soul changed hands since
    before = ev.db.read_bytes()
    result = ev.invoke("requests", "accept", "1")
    assert result.exit_code == 2
    assert ev.db.read_bytes() == before
    failed = asks.load_queue(ev.db).find(1)
    assert failed["status"] == "failed"
    assert "may study only a soul their side holds" in (failed["reason"] or "")


def test_r46_a_question_is_answered_for_the_phone(ev: GM) -> None:
    phone(ev, "Dan", "question", text="May I step out?")
    before = ev.db.read_bytes()
    assert "their phone shows: Yes, for five minutes" in ev(
        "requests", "accept", "1", "Yes, for five minutes").stdout
    assert ev.db.read_bytes() == before
    assert json.loads(ev("requests", "--all", "--json").stdout)[0]["reason"] == \
        "Yes, for five minutes"


def test_e212_ok_and_no_at_the_shells_prompt(ev: GM, runner: CliRunner) -> None:
    phone(ev, "Ben", "study", soul="green")
    phone(ev, "Dan", "question", text="A break soon?")
    phone(ev, "Finn", "guess", soul="green", arcanum="IX")
    lines = "\n".join(["ok 1", "no 3 not now", "ok 2 at ten", "ok", "no 2", "ok 1"]) + "\n"
    result = runner.invoke(app, ["--db", str(ev.db), "shell"], input=lines)
    out = result.output
    assert "Ben studies the cracked green bottle (clue 1 of 3)" in out
    assert "their phone shows: not now" in out
    assert "their phone shows: at ten" in out
    assert "give the request's number" in out
    assert "say why, for the phone: `no 2 REASON`" in out
    assert "request 1 was accepted already" in out
    assert result.exit_code == 2  # the last line that failed
    queue = asks.load_queue(ev.db)
    assert [a["status"] for a in queue.asks] == ["accepted", "accepted", "declined"]
    assert log_texts(ev)[-1].endswith("# asked by Ben from their phone, request 1")


def test_e215_the_shell_tells_of_a_request_as_it_arrives(ev: GM) -> None:
    from referee.cli.shell.shell import Shell, full_command

    sh = Shell(full_command(), ev.db, False)
    assert sh.news() == [] and sh.waiting() == ""
    phone(ev, "Ben", "study", soul="green")
    told = sh.news()
    assert told == [f"request 1: Ben (Ada's side) study {GREEN} (`soul study Ben "
                    f"'{GREEN}'`): `ok 1` or `no 1 REASON`"]
    assert sh.news() == []  # told once
    later = Shell(full_command(), ev.db, False)  # a shell started after it: told it waits
    assert later.waiting() == ("1 phone request waits for you: `requests` lists them, "
                               "`ok N` / `no N REASON` answers.")


def test_e214_a_note_in_the_log_is_read_past_when_the_evening_is_amended(ev: GM) -> None:
    ev("soul", "give", "Dan", "Finn", "cobalt")
    phone(ev, "Ben", "study", soul="green")
    ev("requests", "accept", "1")
    first = next(i for i, t in enumerate(log_texts(ev), 1) if t.startswith("soul give"))
    ev("amend", str(first), "--yes", "--", "soul", "give", "Dan", "Ben", "cobalt")
    study = [t for t in log_texts(ev) if t.startswith("soul study")]
    assert study and study[-1].endswith("request 1")
    assert ev.json("handout", "Ben")["souls"][0]["clues"]  # the study stands, replayed


def test_e210_a_new_evening_starts_with_no_request(ev: GM) -> None:
    phone(ev, "Ben", "study", soul="green")
    ev("new", "--force", "--fool", "Fiona", *[a for s in SEATS for a in ("--seat", s)])
    assert ev("requests").stdout.strip() == "No request waits for you."
    assert "there is no request 1; none is open" in ev.fails("requests", "accept", "1")


def test_r46_a_bid_at_the_open_auction_is_the_assistants_own(ev: GM) -> None:
    with pytest.raises(IllegalAction, match="no auction is open"):
        phone(ev, "Dan", "bid", promise="a favour")
    ev("soul", "auction", "Ada", "green")
    with pytest.raises(BadInput, match="on the seller's side"):
        phone(ev, "Ben", "bid", promise="mine")
    made = phone(ev, "Dan", "bid", promise="a favour at the next break")
    assert made["args"] == ["soul", "bid", "Dan", "--promise", "a favour at the next break"]
    ev("requests", "accept", str(made["no"]))
    last = json.loads(ev("log", "--format", "jsonl").stdout.splitlines()[-1])
    assert [e["kind"] for e in last["events"]] == ["auction_bid"]
    assert last["text"].endswith(f"# asked by Dan from their phone, request {made['no']}")


def test_e133_a_dry_run_answers_nothing(ev: GM) -> None:
    phone(ev, "Ben", "study", soul="green")
    phone(ev, "Dan", "question", text="Break?")
    kept = asks.asks_path(ev.db).read_bytes()
    before = ev.db.read_bytes()
    assert "would be declined" in ev("--dry-run", "requests", "decline", "1", "no").stdout
    assert "would record 1 event" in ev("--dry-run", "requests", "accept", "1").stdout
    assert "would be answered" in ev("--dry-run", "requests", "accept", "2", "yes").stdout
    assert asks.asks_path(ev.db).read_bytes() == kept and ev.db.read_bytes() == before


def test_e41_a_request_recorded_stays_accepted_when_its_answer_cannot_be_shown(
        ev: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move is in the evening before its answer is printed: a failure printing it leaves
    the request accepted (never open, to be accepted and recorded a second time)."""
    from referee.cli.powers import souls as soul_commands

    def broken(*args: object) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setitem(soul_commands.ANSWERS, "soul study", broken)
    phone(ev, "Ben", "study", soul="green")
    result = ev.invoke("requests", "accept", "1")
    assert "could not be shown" in result.output, result.output
    assert [t for t in log_texts(ev) if t.startswith("soul study")]
    assert [a["status"] for a in asks.load_queue(ev.db).asks] == ["accepted"]


@pytest.mark.parametrize("kind, fields", [
    ("study", {"soul": "green"}),
    ("guess", {"soul": "green", "name": "Thoreau"}),
    ("guess", {"soul": "green", "arcanum": "IX"}),
])
def test_r46_an_asks_move_is_the_one_its_words_make(ev: GM, kind: str,
                                                   fields: dict[str, str]) -> None:
    """The move and arguments an ask carries are exactly those its logged words make when
    the command line reads them, and they log the same words."""
    from referee.cli.requests import parse

    made = phone(ev, "Ben", kind, **fields)
    parsed = parse(list(made["args"]), evening=ev.db)
    assert parsed is not None and (made["move"], made["fields"]) == (parsed.move, parsed.args)
    line = parsed.line if isinstance(parsed.line, str) else parsed.line({})
    assert line == shlex.join(made["args"])


def test_r46_a_bid_asked_carries_its_move(ev: GM) -> None:
    from referee.cli.requests import parse

    ev("rise", "Cara")
    ev("chips", "give", "Cara", "Dan", "blue:2")
    ev("soul", "auction", "Ada", "green")
    made = phone(ev, "Dan", "bid", chips="blue:1", promise="a favour")
    assert made["fields"]["chips_text"] == "blue:1"
    parsed = parse(list(made["args"]), evening=ev.db)
    assert parsed is not None and (made["move"], made["fields"]) == (parsed.move, parsed.args)


def test_r46_a_request_queued_before_asks_carried_their_move_is_still_accepted(ev: GM) -> None:
    made = phone(ev, "Ben", "study", soul="green")
    path = asks.asks_path(ev.db)
    data = json.loads(path.read_text(encoding="utf-8"))
    for a in data["asks"]:
        a.pop("move"), a.pop("fields")
    path.write_text(json.dumps(data), encoding="utf-8")
    ev("requests", "accept", str(made["no"]))
    assert log_texts(ev)[-1].startswith(f"soul study Ben {shlex.quote(made['args'][3])}")
