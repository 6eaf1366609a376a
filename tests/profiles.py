"""Hypothesis profiles: ``ci`` (the default, for the README's test command) and ``nightly``
(many more examples), chosen by ``REFEREE_TEST_PROFILE``.

``ci`` is derandomized: every run tries the same examples, so the test command passes or fails
the same way on every machine and a failure is a change in the code, not a new draw. Finding
new cases is ``nightly``'s work: fresh examples each run, twenty times as many. Both print the
blob that reproduces a failure (``@reproduce_failure``); each case found becomes a named test.

A test with its own example count writes ``max_examples=examples(40)``: 40 in ``ci``, twenty
times that in ``nightly``.
"""

from __future__ import annotations

import os

from hypothesis import settings

#: How many times more examples the nightly profile runs than ``ci``.
NIGHTLY_FACTOR = 20

PROFILE = os.environ.get("REFEREE_TEST_PROFILE", "ci")


def examples(n: int) -> int:
    """``n`` examples in ``ci``; ``NIGHTLY_FACTOR`` times ``n`` in ``nightly``."""
    return n * NIGHTLY_FACTOR if PROFILE == "nightly" else n


def load() -> None:
    """Register both profiles and load the one asked for (machines here are shared and noisy:
    a property is about correctness, never about time, so no deadline in either)."""
    settings.register_profile("ci", deadline=None, derandomize=True, database=None,
                              print_blob=True)
    settings.register_profile("nightly", deadline=None, max_examples=100 * NIGHTLY_FACTOR,
                              print_blob=True)
    if PROFILE not in ("ci", "nightly"):
        raise SystemExit(f"REFEREE_TEST_PROFILE is {PROFILE!r}; give ci or nightly")
    settings.load_profile(PROFILE)
