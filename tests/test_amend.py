"""The pure side of `amend` (E138): the timeline as it stands, and the ripple between two."""

from __future__ import annotations

from referee.evening.amend import effective
from referee.evening.ripple import ripple


def _timeline(**kw: object) -> dict[str, object]:
    return {"openers": {}, "pots": {}, "points": {}, "promotions": [], **kw}


def test_e138_an_amendment_replaces_what_it_replayed_in_the_timeline() -> None:
    a = [{"kind": "action", "name": "Cy"}]
    b = [{"kind": "action", "name": "Ada"}]
    amended = {"kind": "command_amended", "cmd": 2, "replayed": [
        {"cmd": 2, "text": "bet Ada", "events": b}, {"cmd": 3, "text": "call", "events": a}]}
    commands = [(1, "hand start", []), (2, "bet", a), (3, "call", b), (4, "amend 2", [amended]),
                (5, "fold", a)]
    assert [(c, t) for c, t, _ in effective(commands)] == \
        [(1, "hand start"), (2, "bet Ada"), (3, "call"), (5, "fold")]
    assert effective(commands)[1][2] == b


def test_e138_the_ripple_names_every_outcome_that_changed_and_nothing_else() -> None:
    old = _timeline(openers={"hand 1 round 1": "Cy", "hand 1 round 2": "Ed"},
                    pots={"hand 1": ["main pot 4 to Cy"]}, points={"Ada": 7, "Cy": 5},
                    promotions=["Ada to XVII"])
    new = _timeline(openers={"hand 1 round 1": "Cy", "hand 1 round 2": "Ada"},
                    pots={"hand 1": ["main pot 4 to Cy"], "hand 2": ["main pot 2 to Ed"]},
                    points={"Ada": 5, "Cy": 5}, promotions=[])
    assert ripple(old, new) == [
        {"what": "opener of hand 1 round 2", "before": "Ed", "after": "Ada"},
        {"what": "pots of hand 2", "before": None, "after": ["main pot 2 to Ed"]},
        {"what": "status points of Ada", "before": 7, "after": 5},
        {"what": "promotions that would succeed", "before": ["Ada to XVII"], "after": []},
    ]
    assert ripple(old, old) == []
