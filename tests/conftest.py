"""Shared fixtures: a real BRLTTY with the Virtual driver (see tests/brltty_harness.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.brltty_harness import VirtualBrltty


@pytest.fixture
def virtual_brltty() -> Iterator[Callable[..., VirtualBrltty]]:
    """Start private BRLTTYs: ``brltty = virtual_brltty(columns=20, rows=1)``; all are
    stopped and cleaned up after the test, whatever happened."""
    started: list[VirtualBrltty] = []

    def start(columns: int = 40, rows: int = 1) -> VirtualBrltty:
        brltty = VirtualBrltty(columns, rows)
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
