"""The playtest's six-seat hand in the long and the short forms (benchmarks/typing.py): the same
pots, winners and books either way, in about half the typing (E25-E27)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _forms() -> ModuleType:
    spec = importlib.util.spec_from_file_location("typing_forms", ROOT / "benchmarks" /
                                                  "typing.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_short_form_ends_where_the_long_form_does(tmp_path: Path) -> None:
    forms = _forms()
    long, short = forms.long_form(), forms.short_form()
    a = forms.play(long, tmp_path / "long.json")
    b = forms.play(short, tmp_path / "short.json")
    assert a == b
    pots = a["status"]["chips"]
    assert pots["Ben"]["blue"] == 10 and "pot" not in pots  # Ben's straight flush wins it all
    assert a["money"]["chips"] == a["status"]["chips"]


def test_the_short_form_takes_half_the_typing_in_the_shell() -> None:
    forms = _forms()
    (n_long, c_long), (n_short, c_short) = forms.typed(forms.long_form()), forms.typed(
        forms.short_form())
    assert n_short < n_long
    assert c_short <= 0.5 * c_long, (c_short, c_long)
