"""A turn time limit for the display's seat: when its turn started, the seconds left, the
announcements due, and when the time is up. Bots have no limit; the clock is injectable so
tests need not wait minutes.

A game screen opts in with two methods (see :class:`TimedScreen`): ``time_limit(view)``
(seconds for the seat's turn now, ``None`` or 0: no limit) and ``timeout_move(view)`` (the
move played when the time is up), and words with ``time_left(seconds, table)``.

    timer = TurnTimer(clock=time.monotonic)
    timer.follow(limit=120, turn=5)        # the seat's turn number 5 has 120 seconds
    timer.left()                           # 120 then less; None when no limit runs
    timer.due()                            # [60] once 60 seconds are left, then [15]
    timer.expired()                        # True once the time is up
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Any, Protocol, runtime_checkable

from layouts.common.screen import Table

# Seconds left at which the time is told (Rummikub RUM-7: one minute, then 15 seconds).
ANNOUNCE_AT = (60, 15)
# The status line shows the time left in steps of this many seconds (a line that changed
# every second would move under the reader's fingers).
STATUS_STEP = 15


def shown_left(left: int) -> int:
    """The time left as the status line shows it: rounded up to a step of ``STATUS_STEP``
    seconds, so the line a finger rests on changes rarely: ``shown_left(61) == 75``."""
    return math.ceil(left / STATUS_STEP) * STATUS_STEP


@runtime_checkable
class TimedScreen(Protocol):
    """What a game screen offers when its seats may have a turn time limit."""

    def time_limit(self, view: Any) -> float | None:
        """Seconds the view's seat has for its turn now, or ``None`` (not its turn, or no
        limit)."""

    def timeout_move(self, view: Any) -> Hashable:
        """The move the session plays for the seat when its time is up."""

    def time_left(self, seconds: int, table: Table) -> str:
        """The time left in words (``"60 seconds left."``), shown and spoken."""


class TurnTimer:
    """See the module docstring."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.limit: float | None = None
        self.turn: Hashable = None
        self.started = 0.0
        self._told: set[int] = set()

    def follow(self, limit: float | None, turn: Hashable) -> None:
        """Keep the timer on the seat's turn ``turn`` with ``limit`` seconds (``None`` or 0:
        no timer); a new ``turn`` starts the clock again."""
        if not limit:
            self.limit, self.turn = None, None
            return
        if self.limit is None or turn != self.turn:
            self.started = self.clock()
            self._told = set()
        self.limit, self.turn = float(limit), turn

    def left(self) -> int | None:
        """Whole seconds left (rounded up, never below 0), ``None`` when no limit runs."""
        if self.limit is None:
            return None
        return max(0, math.ceil(self.limit - (self.clock() - self.started)))


    def due(self) -> list[int]:
        """The announcements reached and not yet made (only those below the limit itself:
        a 30 s limit tells 15 s, never 60 s)."""
        left = self.left()
        if left is None or self.limit is None:
            return []
        marks = [mark for mark in ANNOUNCE_AT
                 if left <= mark < self.limit and mark not in self._told]
        self._told.update(marks)
        return marks[-1:]  # several at once (a late tick): only the lowest is still true

    def expired(self) -> bool:
        left = self.left()
        return left is not None and left <= 0

    def to_dict(self) -> dict[str, Any] | None:
        """The running turn as plain data (the seconds used, not a clock reading), so a
        resumed game goes on with the time that was left: ``None`` when no limit runs."""
        if self.limit is None:
            return None
        turn = list(self.turn) if isinstance(self.turn, tuple) else self.turn
        return {"limit": self.limit, "turn": turn, "used": self.clock() - self.started,
                "told": sorted(self._told)}

    def restore(self, data: Any) -> None:
        """Go on with a turn saved by :meth:`to_dict` (``None``: no limit running)."""
        if data is None:
            self.limit, self.turn = None, None
            return
        turn = data["turn"]
        self.limit = float(data["limit"])
        self.turn = tuple(turn) if isinstance(turn, list) else turn
        used = float(data["used"])
        if not (0 <= used < 1e9 and 0 < self.limit < 1e9):
            raise ValueError(f"a turn clock of {used} s used of {self.limit} s")
        self.started = self.clock() - used
        self._told = {int(mark) for mark in data.get("told", [])}
