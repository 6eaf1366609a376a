"""referee.serve and the report's chart: frames, pages, tokens as data (issue 14; E50-E52)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee import serve
from tests.cli.conftest import GM
from tests.cli.serving import demo_db

assert demo_db  # the shared demo evening, a fixture

MARKUP = "<b>[bold]Zoë & \"Kit\"</b>"


@pytest.fixture
def gm(db: Path) -> GM:
    return GM(CliRunner(), db)


def test_e50_chart_of_a_new_evening_is_ten_chips_each(gm: GM, db: Path) -> None:
    from referee import live
    from referee.report import chips_by_hand

    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue")
    chart = chips_by_hand(live.load_state(db))
    assert chart["labels"] == ["start"]
    assert sorted((s["name"], s["colour"], s["chips"]) for s in chart["series"]) == [
        ("Ada", "red", [10]), ("Cy", "blue", [10])]


def test_e50_chart_follows_every_hand_and_then_now(demo_db: Path) -> None:
    from referee import live
    from referee.report import chips_by_hand

    state = live.load_state(demo_db)
    chart = chips_by_hand(state)
    # Three hands, then Cy sold his own soul to Flo for three chips away from the table.
    assert chart["labels"] == ["start", "1", "2", "3", "now"]
    for line in chart["series"]:
        assert line["chips"][0] == 10 and len(line["chips"]) == 5
        assert line["chips"][3] == state.history[-1]["sides"][line["name"]]
        assert line["chips"][4] == state.side_chips(line["name"])
    cy = next(s for s in chart["series"] if s["name"] == "Cy")["chips"]
    assert cy[4] == cy[3] + 3


def test_e50_chart_svg_escapes_names_and_draws_a_line_each() -> None:
    from referee.report import chart_svg

    chart = {"labels": ["start", "1", "2"], "series": [
        {"name": MARKUP, "colour": "red", "chips": [10, 12, 15]},
        {"name": "Cy", "colour": "nonsense", "chips": [10, 8, 5]}]}
    svg = chart_svg(chart)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "<b>" not in svg and "&lt;b&gt;" in svg
    assert svg.count("<polyline") == 4  # each line over its dark outline
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")


@given(st.lists(st.lists(st.integers(0, 60), min_size=1, max_size=40), min_size=1, max_size=6))
def test_e50_chart_points_stay_inside_the_picture(values: list[list[int]]) -> None:
    from referee.report import chart_svg

    n = min(len(v) for v in values)
    chart = {"labels": ["start", *map(str, range(1, n))],
             "series": [{"name": f"P{i}", "colour": "blue", "chips": v[:n]}
                        for i, v in enumerate(values)]}
    svg = chart_svg(chart, width=640, height=250)
    for points in re.findall(r'points="([^"]*)"', svg):
        for pair in points.split():
            x, y = map(float, pair.split(","))
            assert 0 <= x <= 640 and 0 <= y <= 250


def test_e51_highlights_count_main_and_side_pots_together() -> None:
    from referee.evening.state import State
    from referee.report import _highlights

    state = State()
    state.history = [
        {"no": 1, "pots": [{"size": 8, "winners": ["Cy"]}], "best": {}},
        {"no": 2, "pots": [{"size": 6, "winners": ["Ed"]}, {"size": 5, "winners": ["Gus"]}],
         "best": {}},
    ]
    hl = _highlights(state)["biggest_hands"]
    assert [(h["hand"], h["size"], h["winners"]) for h in hl] == [
        (2, 11, ["Ed", "Gus"]), (1, 8, ["Cy"])]  # 6 + 5 beats the single pot of 8


def test_names_are_data_on_the_table_page(gm: GM, db: Path) -> None:
    gm("new", "--fool", "Max", "--seat", f"{MARKUP}:XVI:red:Ben:IX", "--seat", "Cy:III:blue")
    frame = serve.build_frame(db)
    names = [s["name"] for s in frame["seats"]]
    page = serve.table_page(frame, '"x"')
    inline = re.search(r'<script id="first" type="application/json">(.*?)</script>', page, re.S)
    assert inline is not None
    assert "<b>" not in inline.group(1) and "</script" not in inline.group(1).lower()
    assert [s["name"] for s in json.loads(inline.group(1))["seats"]] == names
    assert MARKUP in names
    assert "innerHTML" not in page  # the page writes names with textContent only


@given(st.text())
def test_inline_json_never_closes_its_script(text: str) -> None:
    out = serve._inline_json({"name": text})
    assert "<" not in out and ">" not in out
    assert json.loads(out) == {"name": text}


class _Builds:
    def __init__(self) -> None:
        self.calls = 0
        self.fail = False

    def __call__(self, path: Path) -> dict[str, Any]:
        from referee.errors import StoreError

        self.calls += 1
        if self.fail:
            raise StoreError("the evening file is corrupt")
        return {"seats": [], "n": path.read_text()}


def test_frame_source_builds_once_per_change_and_keeps_the_last_good_frame(
        tmp_path: Path) -> None:
    path = tmp_path / "evening.json"
    path.write_text("1")
    builds = _Builds()
    source = serve.FrameSource(path, build=builds)
    first = source.current()
    assert source.current() is first and builds.calls == 1
    path.write_text("22")
    second = source.current()
    assert builds.calls == 2 and second.etag != first.etag and second.data["n"] == "22"
    builds.fail = True
    path.write_text("333")
    broken = source.current()
    assert broken.data["n"] == "22" and "corrupt" in broken.data["problem"]
    assert broken.etag != second.etag


def test_frame_of_a_missing_evening_says_so(tmp_path: Path) -> None:
    source = serve.FrameSource(tmp_path / "nothing.json")
    cached = source.current()
    assert cached.data == {"problem": "no evening yet: open one with `referee new`"}


def test_e52_access_compares_every_token(tmp_path: Path) -> None:
    access = serve.Access(station="s" * 32, assistants={"Ben": "b" * 32, "Di": "d" * 32})
    assert access.assistant_for("b" * 32) == "Ben"
    assert access.assistant_for("d" * 32) == "Di"
    assert access.assistant_for("s" * 32) is None
    assert access.assistant_for("b" * 31) is None
    assert access.is_station("s" * 32) and not access.is_station("b" * 32)
    assert access.link("Ben", "http://10.0.0.2:8765/") == f"http://10.0.0.2:8765/a/{'b' * 32}"


def test_e52_unreadable_access_file_is_none(tmp_path: Path) -> None:
    evening = tmp_path / "e.json"
    serve.access_path(evening).write_text("{not json")
    assert serve.load_access(evening) is None
