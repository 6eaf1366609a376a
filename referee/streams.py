"""Event streams: how each game folds its events into a state.

An evening file holds several independent streams of events (the Fool's
Errand evening, the Tarot Scum and Weir's Wager side tables, the Card of Fate
characters). Each stream is described by a ``StreamSpec``: pure functions,
no I/O, so the rules modules can define their own without importing the store.

An event is a plain JSON-able ``dict`` with a ``"kind"`` key; the store adds
sequence numbers, times and the hash chain around it.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

#: An event as the store holds it: a JSON object with a ``"kind"``. A stream with records of
#: its own (the evening's, ``referee.evening.events``) reads each through ``StreamSpec.read``.
Event = dict[str, Any]

S = TypeVar("S")
E = TypeVar("E")


def _as_stored(raw: Event) -> Event:
    return raw


@dataclass(frozen=True)
class StreamSpec(Generic[S, E]):
    """One stream's fold over its state ``S`` and its events ``E``. ``apply`` may mutate and
    return the state it is given; ``read`` turns a stored event into an ``E`` (the stream's
    records), checking what the fold will read."""

    name: str
    empty: Callable[[], S]
    apply: Callable[[S, E], S]
    dump: Callable[[S], Any]
    load: Callable[[Any], S]
    read: Callable[[Event], E] = _as_stored  # type: ignore[assignment]
    #: A deep copy of a state cheaper than ``load(dump(state))``, where the stream has one
    #: (the evening's is made field by field, ``referee.evening.state.copy``).
    copy: Callable[[S], S] | None = None


#: Where each stream's spec lives, imported only when that stream is read.
STREAMS: dict[str, str] = {
    "evening": "referee.evening.folds:STREAM",
    "scum": "referee.rules.scum:STREAM",
    "wager": "referee.rules.wager:STREAM",
    "fate": "referee.rules.fate:STREAM",
}

_loaded: dict[str, StreamSpec[Any, Any]] = {}


def spec(name: str) -> StreamSpec[Any, Any]:
    """The registered spec of stream ``name``."""
    found = _loaded.get(name)
    if found is None:
        module, _, attr = STREAMS[name].partition(":")
        found = getattr(importlib.import_module(module), attr)
        assert isinstance(found, StreamSpec) and found.name == name
        _loaded[name] = found
    return found


def copy(name: str, state: Any) -> Any:
    """A deep copy of ``state``, a state of stream ``name``, for a fold to change while
    ``state`` stays as it was: the stream's own copy (``StreamSpec.copy``), else
    ``load(dump(state))``."""
    sp = spec(name)
    return sp.copy(state) if sp.copy is not None else sp.load(sp.dump(state))


def plain(value: Any) -> Any:
    """A copy of ``value`` made of dicts, lists and leaves: dataclasses become dicts of their
    fields, containers are copied, strings, numbers, booleans and None are shared (immutable).

    The evening's states and events are this kind of data; copying them this way costs about a
    third of ``copy.deepcopy`` (no memo) and a sixth of ``dataclasses.asdict``.

    >>> plain({"a": [1, {"b": (2, 3)}]})
    {'a': [1, {'b': (2, 3)}]}
    """
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is dict:
        return {key: item if type(item) in _LEAVES else plain(item)
                for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _LEAVES else plain(item) for item in value]
    if kind is tuple:
        return tuple(plain(item) for item in value)
    names = _FIELDS.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(kind):
            return value
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return {name: plain(getattr(value, name)) for name in names}


_LEAVES = frozenset({str, int, float, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...]] = {}
