"""Shared fixtures: a real BRLTTY with the Virtual driver (see tests/brltty/harness.py),
and the hypothesis profile every run uses.

Tests that start a BRLTTY carry the ``brltty`` mark: those in ``tests/brltty/``, those that
use its fixtures, and those marked by hand. ``pytest -m "not brltty"`` runs the rest quickly.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest
from hypothesis import settings

from tests.brltty.harness import VirtualBrltty

# CI must pass every time: the same examples on every run, no timing verdicts on a busy
# machine. HYPOTHESIS_PROFILE=explore draws fresh examples (with a longer search) to hunt bugs.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True, max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


BRLTTY_FIXTURES = {"brltty", "virtual_brltty"}


@pytest.fixture(autouse=True)
def private_state(tmp_path_factory: pytest.TempPathFactory,
                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test (and the programs it starts) saves games in a folder of its own: a game
    left in the machine's real state folder (``make play``) changed what ``play`` said."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        under = "brltty" in item.path.parent.parts[-1:]
        if under or BRLTTY_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.brltty)


@pytest.fixture
def virtual_brltty() -> Iterator[Callable[..., VirtualBrltty]]:
    """Start private BRLTTYs: ``brltty = virtual_brltty(columns=20, rows=1)`` (``auth=
    "keyfile:/path"`` for one that asks clients for a key); all are stopped and cleaned up
    after the test, whatever happened."""
    started: list[VirtualBrltty] = []

    def start(columns: int = 40, rows: int = 1, auth: str = "none") -> VirtualBrltty:
        brltty = VirtualBrltty(columns, rows, auth=auth)
        started.append(brltty)
        brltty.start()
        return brltty

    yield start
    for brltty in started:
        brltty.close()


@pytest.fixture
def brltty(virtual_brltty: Callable[..., VirtualBrltty]) -> VirtualBrltty:
    """A private BRLTTY with a 40-cell Virtual display, already running."""
    return virtual_brltty(40, 1)
