"""What the assistants ask from their phones (R46): a queue kept in ``PATH.asks`` beside the
evening, never in its log, until the GM accepts or declines each request (E210).

A request is no move of the game: it is kept beside the evening as the wall and the links
are (``PATH.room``, ``PATH.access``), written atomically under the evening's lock, and the
evening file is neither read for writing nor written by asking, listing or declining.
Accepting makes the move the request carries (``Ask.move``, ``Ask.fields``) through the
table's API, under the words the GM would type (``Ask.args``) and its own transaction; the
queue only records what became of it.

One open request per kind per side, and at most ``PER_MINUTE`` requests per side in any
minute (E211): a phone cannot flood the GM's console.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal, NamedTuple, NotRequired, TypedDict, cast

from referee.errors import BadInput, IllegalAction, StoreError
from referee.jsontypes import JSONObject
from referee.storage.files import atomic_write
from referee.storage.lock import beside_the_evening

if TYPE_CHECKING:
    from referee.evening.state import State

#: The queue's file beside the evening: ``PATH.asks`` (E210).
ASKS_SUFFIX: Final = ".asks"
Kind = Literal["study", "guess", "bid", "question"]
KINDS: Final[tuple[Kind, ...]] = ("study", "guess", "bid", "question")
#: Requests one side may make in any 60 seconds, whatever became of them (E211).
PER_MINUTE: Final = 4
#: The longest free text a phone sends: a question, a name guessed, a promise (E211).
MAX_TEXT: Final = 280
#: The minute of study the seed asks (R23), counted on the phone.
STUDY_SECONDS: Final = 60
#: Finished requests kept (the newest); open ones are always kept.
KEEP: Final = 200
#: What a request can become: open (waiting), running (the GM accepted, the command runs),
#: accepted, declined (with the GM's reason), failed (accepted, and the command refused).
Status = Literal["open", "running", "accepted", "declined", "failed"]


class TooMany(IllegalAction):
    """A side asked ``PER_MINUTE`` times in the last minute (E211)."""


class Ask(TypedDict):
    """One request as kept: who asked (an assistant, on their side's behalf), what, the
    command that accepting it runs (none for a question), and what became of it."""

    no: int
    kind: Kind
    assistant: str
    side: str
    args: list[str]      # the words the log keeps of it (the command as the GM would type it)
    move: NotRequired[str]                        # the table's move it asks for (a question:
    fields: NotRequired[dict[str, str | None]]   # none), and its arguments by name
    what: str
    at: float
    status: Status
    reason: str | None   # the GM's reason for declining, a command's refusal, an answer
    done_at: float | None


@dataclass
class Queue:
    """The requests of one evening, oldest first, and the next request's number."""

    next_no: int = 1
    asks: list[Ask] = field(default_factory=list)

    def find(self, no: int) -> Ask:
        """Request ``no``.

        Raises:
            BadInput: there is no such request.
        """
        for ask in self.asks:
            if ask["no"] == no:
                return ask
        numbers = ", ".join(str(a["no"]) for a in self.asks if a["status"] == "open")
        raise BadInput(f"there is no request {no}; "
                       + (f"open: {numbers}" if numbers else "none is open")
                       + " (`referee requests` lists them) (E212)", ruling="E212")

    def open(self) -> list[Ask]:
        return [a for a in self.asks if a["status"] in ("open", "running")]

    def of(self, assistant: str) -> list[Ask]:
        return [a for a in self.asks if a["assistant"] == assistant]


def asks_path(evening: Path) -> Path:
    return evening.with_name(evening.name + ASKS_SUFFIX)


def load_queue(evening: Path) -> Queue:
    """The queue beside ``evening``; empty when there is none (or it cannot be read: what
    cannot be read was never accepted, and nothing of the evening depends on it)."""
    try:
        data = json.loads(asks_path(evening).read_text(encoding="utf-8"))
        asks = [cast(Ask, a) for a in data["asks"] if isinstance(a, dict)
                and isinstance(a.get("no"), int) and a.get("kind") in KINDS
                and isinstance(a.get("args"), list)]
        return Queue(next_no=int(data["next_no"]), asks=asks)
    except (OSError, ValueError, KeyError, TypeError):
        return Queue()


def change_queue(evening: Path, change: Callable[[Queue], Queue], *, dry: bool = False
                 ) -> Queue:
    """Apply ``change`` to the queue beside ``evening`` and write it atomically (mode 0600:
    a question or a guess is the side's own), under the evening's lock, so two terminals
    or a phone and a terminal never lose each other's change (E210).

    Raises:
        StoreError: no evening file there, the evening is busy, or the queue cannot be
            written.
    """
    with beside_the_evening(evening, "requests belong to an evening"):
        queue = change(load_queue(evening))
        if dry:  # E133: nothing written
            return queue
        done = [a for a in queue.asks if a["status"] not in ("open", "running")]
        drop = {a["no"] for a in done[:-KEEP]} if len(done) > KEEP else set()
        queue.asks = [a for a in queue.asks if a["no"] not in drop]
        target = asks_path(evening)
        try:
            atomic_write(target, json.dumps({"next_no": queue.next_no, "asks": queue.asks},
                                            ensure_ascii=False, indent=1))
            os.chmod(target, 0o600)
        except OSError as exc:
            raise StoreError(f"cannot write the requests file {target}: {exc.strerror}; "
                             "give an evening in a writable folder") from None
        return queue


def forget(evening: Path, *, dry: bool = False) -> None:
    """A new evening at ``evening`` starts with no request (E210): none asked of the old one
    can be accepted into it. The caller holds the evening's lock (``new`` and ``next`` do,
    inside their transaction, as they replace the links, E66).

    Raises:
        StoreError: the old queue cannot be removed.
    """
    if dry:  # E133
        return
    try:
        asks_path(evening).unlink(missing_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot remove the last evening's requests {asks_path(evening)}: "
                         f"{exc.strerror}") from None


# -- asking ---------------------------------------------------------------------------------------


def _text(value: object, what: str, *, required: bool = False) -> str | None:
    """A phone's free text, bounded (E211): stripped, one line; None when empty."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise BadInput(f"{what}: send text (E211)", ruling="E211")
    text = " ".join(value.split())
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in text):
        raise BadInput(f"{what}: no control characters, only words (E211)", ruling="E211")
    if len(text) > MAX_TEXT:
        raise BadInput(f"{what} is at most {MAX_TEXT} characters; this is {len(text)} (E211)",
                       ruling="E211")
    if required and not text:
        raise BadInput(f"write {what} first (E211)", ruling="E211")
    return text or None


class Asked(NamedTuple):
    """What a request asks of the table: the move (``referee.table.api.MOVES``) and its
    arguments by name, as accepting it makes it; the words the log keeps of it; and the
    request in the phone's words. A question asks for no move (``move`` is empty)."""

    move: str
    fields: dict[str, str | None]
    args: list[str]
    what: str


def command_for(state: State, assistant: str, kind: str, fields: JSONObject) -> Asked:
    """The move accepting this request will make, with its words and the request in words,
    checked now against the evening as the move itself checks it (R46): a study of a soul
    the side does not hold, a fourth guess, a bid with no auction open are refused at the
    phone, never queued. Nothing is written. A question makes no move.

    Raises:
        RefereeError: the request is malformed, or the evening would refuse it now.
    """
    from referee.evening import souls  # the checks of the commands themselves

    if kind == "question":
        text = _text(fields.get("text"), "the question", required=True)
        return Asked("", {}, [], f"asks: {text}")
    if kind == "study":
        soul = _text(fields.get("soul"), "the soul", required=True) or ""
        made = souls.study(state, assistant, soul)
        key = made[0]["soul"]
        return Asked("soul study", {"who": assistant, "soul_text": key},
                     ["soul", "study", assistant, key], f"study {key}")
    if kind == "guess":
        return _guess(state, assistant, fields)
    if kind == "bid":
        return _bid(state, assistant, fields)
    raise BadInput(f"ask for one of {', '.join(KINDS)}; not {str(kind)[:20]!r} (E210)",
                   ruling="E210")


def _guess(state: State, assistant: str, fields: JSONObject) -> Asked:
    """A guess asked for: the soul, and its name, its Arcanum or both (R24)."""
    from referee.evening import souls  # the checks of the command itself

    soul = _text(fields.get("soul"), "the soul", required=True) or ""
    name = _text(fields.get("name"), "the name")
    arcanum = _text(fields.get("arcanum"), "the Arcanum")
    if not name and not arcanum:  # said in the phone's words, not the command line's
        raise BadInput("a guess names the soul, its Arcanum or both: fill in Name or "
                       "Arcanum (R24)", ruling="R24")
    guessed = souls.guess(state, assistant, soul, name, arcanum)[0]
    args = ["soul", "guess", assistant, guessed["soul"]]
    said = []
    if name:
        args += ["--name", name]
        said.append(f"name {name!r}")
    if guessed["arcanum"]:
        args += ["--arcanum", str(guessed["arcanum"])]
        said.append(f"Arcanum {guessed['arcanum']}")
    arcanum_said = str(guessed["arcanum"]) if guessed["arcanum"] else None
    return Asked("soul guess", {"who": assistant, "soul_text": guessed["soul"],
                                "name": name or None, "arcanum": arcanum_said},
                 args, f"guess {guessed['soul']}: {', '.join(said)}")


def _bid(state: State, assistant: str, fields: JSONObject) -> Asked:
    """A bid at the open auction asked for: chips, a promise or both (R20)."""
    from referee.evening import souls  # the checks of the command itself

    chips = _text(fields.get("chips"), "the chips")
    promise = _text(fields.get("promise"), "the promise")
    if not chips and not promise and state.auction is not None:
        raise BadInput("a bid is chips (e.g. red:2), a promise, or both: fill in one "
                       "(R20)", ruling="R20")
    made_bid = souls.bid(state, assistant, chips, promise)[0]
    assert made_bid["kind"] == "auction_bid"
    args = ["soul", "bid", assistant]
    said = []
    if made_bid["chips"]:
        shown = ",".join(f"{c}:{n}" for c, n in made_bid["chips"].items())
        args.append(shown)
        said.append(shown)
    if made_bid["promise"]:
        args += ["--promise", made_bid["promise"]]
        said.append(f"promise {made_bid['promise']!r}")
    chips_said = args[3] if len(args) > 3 and args[3] != "--promise" else None
    return Asked("soul bid", {"buyer_text": assistant, "chips_text": chips_said,
                              "promise": made_bid["promise"] or None},
                 args, f"bid for {made_bid['soul']}: {' and '.join(said)}")


def add(queue: Queue, *, kind: Kind, assistant: str, side: str, asked: Asked,
        now: float) -> Ask:
    """Put a request in ``queue`` (pure: the caller writes it).

    Raises:
        IllegalAction: the side has a request of this kind open, or made ``PER_MINUTE``
            in the last minute (E211).
    """
    waiting = [a for a in queue.open() if a["side"] == side and a["kind"] == kind]
    if waiting:
        raise IllegalAction(f"your side's {kind} request {waiting[0]['no']} ({waiting[0]['what']})"
                            " is still with the GM; one at a time (E211)", ruling="E211")
    recent = [a for a in queue.asks if a["side"] == side and now - 60 < a["at"] <= now]
    if len(recent) >= PER_MINUTE:
        wait = int(min(a["at"] for a in recent) + 60 - now) + 1
        raise TooMany(f"your side made {PER_MINUTE} requests in the last minute; ask "
                            f"again in {wait} s (E211)", ruling="E211")
    ask: Ask = {"no": queue.next_no, "kind": kind, "assistant": assistant, "side": side,
                "args": asked.args, "what": asked.what, "at": now, "status": "open",
                "reason": None, "done_at": None}
    if asked.move:
        ask["move"], ask["fields"] = asked.move, asked.fields
    queue.next_no += 1
    queue.asks.append(ask)
    return ask


def ask(evening: Path, state: State, assistant: str, kind: str, fields: JSONObject,
        now: float | None = None) -> Ask:
    """An assistant's request from their phone, checked and queued (R46, E210, E211): only
    for the assistant the link belongs to, and so only for their own side.

    Raises:
        RefereeError: the request is refused (malformed, refused by the evening, too many).
    """
    if kind not in KINDS:
        raise BadInput(f"ask for one of {', '.join(KINDS)} (E210)", ruling="E210")
    side = state.side_of(assistant)
    if side is None or assistant not in state.assistants:
        raise IllegalAction(f"{assistant} is no assistant at this evening (R46)", ruling="R46")
    asked = command_for(state, assistant, kind, fields)
    when = time.time() if now is None else now
    made: list[Ask] = []

    def put(queue: Queue) -> Queue:
        made.append(add(queue, kind=kind, assistant=assistant, side=side, asked=asked,
                        now=when))
        return queue

    change_queue(evening, put)
    return made[0]


# -- the GM's answer ------------------------------------------------------------------------------


def must_be_open(ask: Ask) -> None:
    """Refuse a request the GM may no longer answer (E212).

    Raises:
        IllegalAction: it is being accepted, or was answered already.
    """
    if ask["status"] == "running":
        raise IllegalAction(f"request {ask['no']} is being accepted already (another "
                            "terminal); `referee requests` shows what became of it (E212)",
                            ruling="E212")
    if ask["status"] != "open":
        raise IllegalAction(f"request {ask['no']} was {ask['status']} already; "
                            "`referee requests` shows the open ones (E212)", ruling="E212")


def claim(evening: Path, no: int) -> Ask:
    """Mark request ``no`` as running, so that no other terminal accepts it too (E212).

    Raises:
        RefereeError: no such request, or it is not open.
    """
    found: list[Ask] = []

    def take(queue: Queue) -> Queue:
        ask = queue.find(no)
        must_be_open(ask)
        ask["status"] = "running"
        found.append(cast(Ask, dict(ask)))
        return queue

    change_queue(evening, take)
    return found[0]


def finish(evening: Path, no: int, status: Status, reason: str | None,
           now: float | None = None, *, dry: bool = False) -> Ask:
    """Record what became of request ``no``: accepted, failed (the command's refusal in
    ``reason``), declined (the GM's reason), or open again.

    Raises:
        RefereeError: no such request, or it is finished already.
    """
    found: list[Ask] = []

    def done(queue: Queue) -> Queue:
        ask = queue.find(no)
        if ask["status"] not in ("open", "running"):
            must_be_open(ask)
        ask["status"] = status
        ask["reason"] = reason
        ask["done_at"] = time.time() if now is None else now
        found.append(cast(Ask, dict(ask)))
        return queue

    change_queue(evening, done, dry=dry)
    return found[0]


def decline(evening: Path, no: int, reason: str, *, dry: bool = False) -> Ask:
    """The GM declines request ``no`` with ``reason``, which the phone shows (R46, E213).

    Raises:
        RefereeError: no reason, no such request, or it is not open.
    """
    why = _text(reason, "the reason the phone shows", required=True)
    ask = load_queue(evening).find(no)
    must_be_open(ask)
    return finish(evening, no, "declined", why, dry=dry)


def note(ask: Ask) -> str:
    """What the log says of an accepted request (R46): who asked, and its number.

    >>> note({"assistant": "Di", "no": 3})  # type: ignore[arg-type]
    'asked by Di from their phone, request 3'
    """
    who = " ".join(ask["assistant"].split())
    return f"asked by {who} from their phone, request {ask['no']}"


def line(ask: Ask) -> str:
    """A request in one line, for the GM's terminal."""
    command = f" (`{shlex.join(ask['args'])}`)" if ask["args"] else ""
    return f"{ask['no']}: {ask['assistant']} ({ask['side']}'s side) {ask['what']}{command}"
