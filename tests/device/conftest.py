"""Fixtures of the device tests: ``brailledev play`` on a memory display."""

from __future__ import annotations

import pytest

import brailledev.display
from brailledev.display.keys import Named
from brailledev.display.memory import MemoryDisplay


@pytest.fixture
def quitting(monkeypatch: pytest.MonkeyPatch) -> list[MemoryDisplay]:
    """``brailledev play`` on a memory display whose reader quits at once: the displays
    opened, in order."""
    opened: list[MemoryDisplay] = []

    def open_display(*args: object, **kwargs: object) -> MemoryDisplay:
        display = MemoryDisplay(40)
        display.press(Named("quit"), Named("quit"))  # quit, and yes
        opened.append(display)
        return display

    monkeypatch.setattr(brailledev.display, "open_display", open_display)
    return opened
