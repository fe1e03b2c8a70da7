"""Shared fixtures: a real BRLTTY with the Virtual driver (see tests/brltty/harness.py),
and the hypothesis profile every run uses.

Tests that start a BRLTTY carry the ``brltty`` mark: those in ``tests/brltty/``, those that
use its fixtures, and those marked by hand. ``pytest -m "not brltty"`` runs the rest quickly.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import settings
from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

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


# The longest units, longest first (seconds on 2 quiet cores, four workers, before the
# whole games were cut to fewer languages; Orca took 204 s with six). ``make test`` runs
# ``--dist loadfile``: units go to workers in the order collected, and a long one picked up
# last would run alone at the end, so these files go first.
LONGEST_FIRST = (
    "web/test_orca.py",  # 205: one Orca at a time, the whole file is one unit
    "web/test_access.py",  # 132
    "web/test_german_web.py",  # 102
    "server/test_balancer.py",  # 88-119 at a load of 3.5-6: one game through HAProxy
    "brltty/test_whole_games_brltty.py",  # 99 for Domino in French
    "web/test_table_web.py",  # 92 for Domino with a braille player
    "brltty/test_table_brltty.py",  # 57
    "brltty/test_display_brlapi.py",  # 56
)

# Files whose tests are long and share nothing: under ``--dist loadfile`` each of their tests
# is a unit of its own, so the 15 whole games of one file run side by side, not one after
# the other on one worker (which alone took 8 of the suite's 16 minutes).
SPREAD = (
    "brltty/test_whole_games_brltty.py",
    "web/test_table_web.py",
    "brltty/test_elevens_brltty.py",
    "brltty/test_boards_brltty.py",
    "brltty/test_table_brltty.py",
    "brltty/test_pad_brltty.py",
    "web/test_privacy_web.py",
    "web/test_pictures.py",
    "games/test_rummikub_solver.py",
    "games/test_rummikub_freed_joker.py",
    "games/test_save_mutations.py",
    "server/test_open_internet.py",
    "server/test_replay.py",
    "device/test_damaged_saves.py",
    "device/test_kill_resume.py",
    "device/test_resume_same_game.py",
    "device/test_cli_outputs.py",
    "layouts/test_routing_cells.py",
    "layouts/test_no_notation.py",
)


def _rank(item: pytest.Item) -> int:
    path = item.path.as_posix()
    return next((rank for rank, name in enumerate(LONGEST_FIRST) if path.endswith(name)),
                len(LONGEST_FIRST))


def pytest_itemcollected(item: pytest.Item) -> None:
    info = getattr(item, "_fixtureinfo", None)
    definitions = info.name2fixturedefs.values() if info is not None else ()
    shared = [each.argname for defs in definitions for each in defs if each.scope == "module"]
    if shared and item.path.as_posix().endswith(SPREAD):
        raise pytest.UsageError(f"{item.nodeid} shares {shared} with its module: take its "
                                "file out of SPREAD in tests/conftest.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        under = "brltty" in item.path.parent.parts[-1:]
        if under or BRLTTY_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.brltty)
    items.sort(key=_rank)  # stable: each file's tests keep their order


class _FilesAndSpread(LoadScopeScheduling):
    """``--dist loadfile``, but each test of a file in ``SPREAD`` is a unit of its own."""

    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.split("::", 1)[0]
        return nodeid if path.endswith(SPREAD) else path


@pytest.hookimpl(optionalhook=True)  # a run without xdist (``-p no:xdist``) has no such hook
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    return _FilesAndSpread(config, log) if config.getvalue("dist") == "loadfile" else None


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
