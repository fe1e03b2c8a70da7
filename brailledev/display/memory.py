"""A display in memory, for tests: it records every write and hands out queued keys.

    display = MemoryDisplay(columns=20)
    display.press(Route(3))
    display.read_key(0)            # Route(cell=3, row=0)
    display.write(["⠁" * 20])
    display.shown                  # ['⠁⠁⠁...']
"""

from __future__ import annotations

import queue
from collections.abc import Sequence
from dataclasses import dataclass

from brailledev.display.base import fit
from brailledev.display.keys import Key


@dataclass(frozen=True)
class Write:
    """One call of ``write``: the cells (fitted to the display), cursor and print text."""

    rows: tuple[str, ...]
    cursor: int | None
    text: tuple[str, ...] | None


class MemoryDisplay:
    """``columns`` x ``rows`` cells kept in memory; keys come from ``press``."""

    def __init__(self, columns: int = 40, rows: int = 1) -> None:
        self._columns = columns
        self._rows = rows
        self.writes: list[Write] = []
        self.closed = False
        self._keys: queue.Queue[Key] = queue.Queue()

    @property
    def columns(self) -> int:
        return self._columns

    @property
    def rows(self) -> int:
        return self._rows

    @property
    def shown(self) -> list[str]:
        """The rows of the last write (blank before any)."""
        return list(self.writes[-1].rows) if self.writes else fit([], self._columns, self._rows)

    def write(self, rows: Sequence[str], cursor: int | None = None,
              text: Sequence[str] | None = None) -> None:
        self.writes.append(Write(tuple(fit(rows, self._columns, self._rows)), cursor,
                                 None if text is None else tuple(text)))

    def press(self, *keys: Key) -> None:
        """Queue keys, as if the reader pressed them (any thread may press)."""
        for key in keys:
            self._keys.put(key)

    def read_key(self, timeout: float | None = None) -> Key | None:
        try:
            return self._keys.get(timeout=timeout) if timeout != 0 else self._keys.get_nowait()
        except queue.Empty:
            return None

    def close(self) -> None:
        self.closed = True
