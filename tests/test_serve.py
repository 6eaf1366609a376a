"""referee.serve and the report's chart: frames, pages, tokens as data (E50-E52)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.serve import access as serve_access
from referee.serve import frame as serve_frame
from referee.serve import pages
from referee.serve import room as serve_room
from tests.cli.conftest import GM
from tests.cli.serving import demo_db

assert demo_db  # the shared demo evening, a fixture

MARKUP = "<b>[bold]Zoë & \"Kit\"</b>"


@pytest.fixture
def gm(db: Path) -> GM:
    return GM(CliRunner(), db)


def test_e50_chart_of_a_new_evening_is_ten_chips_each(gm: GM, db: Path) -> None:
    from referee.report import chips_by_hand
    from referee.serve import players

    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue")
    chart = chips_by_hand(players.load_state(db))
    assert chart["labels"] == ["start"]
    assert sorted((s["name"], s["colour"], s["chips"]) for s in chart["series"]) == [
        ("Ada", "red", [10]), ("Cy", "blue", [10])]


def test_e50_chart_follows_every_hand_and_then_now(demo_db: Path) -> None:
    from referee.report import chips_by_hand
    from referee.serve import players

    state = players.load_state(demo_db)
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
    frame = serve_frame.build_frame(db)
    names = [s["name"] for s in frame["seats"]]
    page = pages.table_page(frame, '"x"')
    inline = re.search(r'<script id="first" type="application/json">(.*?)</script>', page, re.S)
    assert inline is not None
    assert "<b>" not in inline.group(1) and "</script" not in inline.group(1).lower()
    assert [s["name"] for s in json.loads(inline.group(1))["frame"]["seats"]] == names
    assert MARKUP in names
    assert "innerHTML" not in page  # the page writes names with textContent only


@given(st.text())
def test_inline_json_never_closes_its_script(text: str) -> None:
    out = pages._inline_json({"name": text})
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
    source = serve_frame.FrameSource(path, build=builds)
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
    source = serve_frame.FrameSource(tmp_path / "nothing.json")
    cached = source.current()
    assert cached.data == {"problem": "no evening yet: open one with `referee new`"}


def test_e52_access_compares_every_token(tmp_path: Path) -> None:
    access = serve_access.Access(station="s" * 32, assistants={"Ben": "b" * 32, "Di": "d" * 32})
    assert access.assistant_for("b" * 32) == "Ben"
    assert access.assistant_for("d" * 32) == "Di"
    assert access.assistant_for("s" * 32) is None
    assert access.assistant_for("b" * 31) is None
    assert access.is_station("s" * 32) and not access.is_station("b" * 32)
    assert access.link("Ben", "http://10.0.0.2:8765/") == f"http://10.0.0.2:8765/a/{'b' * 32}"


def test_e52_unreadable_access_file_is_none(tmp_path: Path) -> None:
    evening = tmp_path / "e.json"
    serve_access.access_path(evening).write_text("{not json")
    assert serve_access.load_access(evening) is None


# -- the page is filled in one pass (E84) ----------------------------------------------------------

CURLY = st.text(alphabet=st.sampled_from(list("{}TITLEDAFRMNOW<>&\"' ab")), max_size=24)


@given(CURLY, st.lists(CURLY, min_size=1, max_size=6), CURLY)
def test_e84_no_text_put_in_the_page_is_read_as_a_placeholder(
        title: str, names: list[str], etag: str) -> None:
    import html

    frame = {"title": title, "seats": [{"name": n} for n in names], "problem": None}
    page = pages.table_page(frame, etag, now=12.5)
    block = re.findall(r'<script id="first" type="application/json">(.*?)</script>', page,
                       re.S)
    assert len(block) == 1
    assert json.loads(block[0]) == {"frame": frame, "etag": etag, "now": 12.5}
    shown = re.search(r"<title>(.*?)</title>", page, re.S)
    assert shown is not None and html.unescape(shown.group(1)) == (title or "Fool's Errand")
    # The script is the same whatever went in: a Content-Security-Policy can name its hash.
    plain = pages.table_page({"title": "x", "seats": []}, '"t"', now=1.0)
    script = re.compile(r"<script>(.*?)</script>", re.S)
    assert script.findall(page) == script.findall(plain)
    assert "{{" not in script.findall(page)[0]


def test_e84_the_page_holds_no_inline_style_or_handler_attributes() -> None:
    page = pages.table_page({"title": "x", "seats": []}, '"t"')
    assert not re.search(r"<[^>]+\sstyle\s*=", page)
    assert not re.search(r"<[^>]+\son[a-z]+\s*=", page, re.I)
    assert "eval(" not in page and "new Function" not in page and "innerHTML" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", page)  # nothing from outside


# -- the wall (E82) ------------------------------------------------------------------------------


@given(st.floats(0, 1e6), st.floats(-1e4, 1e4), st.floats(-1e4, 1e4), st.booleans())
def test_e82_an_announcement_or_a_break_is_gone_once_its_time_is_up(
        now: float, announce_in: float, break_in: float, forever: bool) -> None:
    said, ends = now + announce_in, now + break_in
    room = serve_room.Room(announce={"text": "Dinner", "at": 0.0,
                                     "until": None if forever else said},
                           pause={"minutes": 10, "at": 0.0, "until": ends})
    wall = room.wall(now)
    assert (wall["announce"] is not None) == (forever or said > now)
    assert (wall["break"] is not None) == (ends > now)


def test_e82_the_wall_file_keeps_what_a_later_console_wrote_and_survives_junk(
        tmp_path: Path) -> None:
    evening = tmp_path / "e.json"
    evening.write_text("{}")
    serve_room.room_path(evening).write_text(json.dumps(
        {"blank": True, "replay": {"hand": 3}, "odds": "on", "announce": "not a record"}))
    room = serve_room.load_room(evening)
    assert room.blank and room.announce is None and room.more == {"replay": {"hand": 3},
                                                                  "odds": "on"}
    serve_room.change_room(evening, lambda r: serve_room.Room(blank=False, more=r.more))
    data = json.loads(serve_room.room_path(evening).read_text())
    assert data["replay"] == {"hand": 3} and data["odds"] == "on" and data["blank"] is False
    assert evening.read_text() == "{}"  # the evening itself: never touched
    serve_room.room_path(evening).write_text("{not json")
    assert serve_room.load_room(evening) == serve_room.Room()  # unreadable: the plain table
    serve_room.room_path(evening).write_text(json.dumps({"announce": {"text": "x", "until": "soon"},
                                                    "break": {"until": None}}))
    assert serve_room.load_room(evening).wall(0.0) == {"blank": False, "announce": None,
                                                  "break": None}


def test_e82_the_frame_follows_the_wall_without_a_change_of_the_evening(
        gm: GM, db: Path) -> None:
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue")
    source = serve_frame.FrameSource(db)
    first = source.current()
    assert first.data["room"] == {"blank": False, "announce": None, "break": None}
    assert source.current() is first
    before = db.read_bytes()
    gm("room", "blank")
    second = source.current()
    assert second.data["room"]["blank"] is True and second.etag != first.etag
    assert db.read_bytes() == before


# -- chips anyone can read (E83) -------------------------------------------------------------------


COLOURS = st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12),
                   min_size=1, max_size=6, unique=True)


@given(COLOURS)
def test_e83_every_colour_has_its_own_label_and_unknown_ones_their_own_hue(
        colours: list[str]) -> None:
    labels = serve_frame.chip_labels(colours)
    assert len(set(labels.values())) == len(colours)
    assert all(colour.startswith(label) and len(label) <= max(6, len(colour)) for colour, label
               in labels.items())
    palette = serve_frame.palette(colours)
    unknown = [c for c in colours if c not in serve_frame.WALL_COLOURS]
    assert len({palette[c] for c in unknown}) == len(unknown)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", v) for v in palette.values())


# -- between hands and at the end (E80, E81, E87) -------------------------------------------------


def test_e81_between_hands_the_last_hands_result(demo_db: Path) -> None:
    frame = serve_frame.build_frame(demo_db)
    # The demo's hand 3: Ada's three pair takes the only pot, ten chips (its report says so).
    assert frame["last_hand"] == {"no": 3, "contested": True, "pots": [
        {"name": "main pot", "size": 10, "winners": ["Ada"], "hand": "three pair"}]}
    assert frame["standings"] is None and frame["claims"] is None and frame["clock_end"] is None
    assert "charges" not in _keys(frame)  # E87: no side's Charges on the wall


def test_e80_e81_at_the_end_the_standings_the_claims_and_a_stopped_clock(
        tmp_path: Path) -> None:
    from referee.serve import players
    from tests.cli import tables

    db = tmp_path / "end.json"
    tables.play(tables.GM(db), 2, "end")
    frame = serve_frame.build_frame(db, now=4e9)
    assert frame["over"] and frame["winner"] == "Ivy"
    assert [(s["name"], s["chips"], s["dollars"]) for s in frame["standings"]] == [
        ("Ivy", 20, 2_000_000), ("Ada", 0, 0), ("Max", 0, 0)]
    assert frame["standings"][-1]["fool"] is True
    assert frame["claims"] == []
    state = players.load_state(db)
    assert frame["clock_end"] == state.history[-1]["time"] < 4e9  # the last hand's end


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


# -- the season between evenings (R40, R43, E111) ---------------------------------------------


@pytest.fixture(scope="module")
def demo_season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo season's second evening, its ceremony closed, the first beside it."""
    from referee.cli.main import app

    first = tmp_path_factory.mktemp("season") / "season-1.json"
    result = CliRunner().invoke(app, ["demo", "--season", "--db", str(first), "--quiet"])
    assert result.exit_code == 0, result.output
    return first.with_name("season-2.json")


def test_e111_the_frame_carries_the_seasons_public_standings_when_asked(
        demo_season: Path) -> None:
    assert serve_frame.build_frame(demo_season)["season"] is None
    frame = serve_frame.build_frame(demo_season, season=True)
    season = frame["season"]
    assert season["evenings"] == 2
    # Cy +$500,000 over the two evenings, Ed -$700,000 (tests/cli/test_present.py counts it).
    rows = {r["name"]: r for r in season["standings"]}
    assert (rows["Cy"]["money"], rows["Ed"]["money"]) == (500_000, -700_000)
    assert rows["Flo"]["arcanum"] == "III" and rows["Flo"]["promotions"] == 1
    text = json.dumps(season)
    assert "soul" not in text and "points" not in text  # E111: nothing that could tell (E43)
    # The evening is over by the Fool's word and its ceremony closed: the wall says so.
    assert frame["ended"] and not frame["over"] and frame["ceremony"]["stage"] == "closed"
    assert [r["member"] for r in frame["ceremony"]["roster"]] == ["Max", "Flo", "Ed", "Ada"]


def test_r40_no_ceremony_on_the_wall_before_the_end(demo_db: Path) -> None:
    frame = serve_frame.build_frame(demo_db)
    assert frame["ended"] is False and frame["ceremony"] is None and frame["claims"] is None


def _contrast(fg: str, bg: str) -> float:
    """WCAG 2's contrast ratio of two #rrggbb colours."""
    def luminance(colour: str) -> float:
        rgb = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_e193_every_text_on_the_phone_sheet_reads_at_4_5_to_1() -> None:
    """Each colour the sheet's style gives text, on the ground it stands on (its rule's own,
    else the page's), at least 4.5:1 (WCAG AA); the sheet's grey was 3.8:1."""
    import re

    from referee import report

    css = re.sub(r"/\*.*?\*/", "", report._CSS, flags=re.S)
    body = re.search(r"\bbody\s*{([^}]*)}", css)
    assert body
    ground = re.search(r"background:\s*(#[0-9a-f]{6})", body.group(1))
    assert ground
    checked = 0
    for selector, rule in re.findall(r"([^{}]+){([^{}]*)}", css):
        colour = re.search(r"(?<![-\w])color:\s*(#[0-9a-f]{6})", rule)
        if colour is None:
            continue
        own = re.search(r"background:\s*(#[0-9a-f]{6})", rule)
        ratio = _contrast(colour.group(1), own.group(1) if own else ground.group(1))
        assert ratio >= 4.5, (selector.strip(), round(ratio, 2))
        checked += 1
    assert checked >= 4  # body, h2, .meta, .muted
