"""A turn time limit for the display's seat: when its turn started, the seconds left, the
announcements due, and when the time is up. Bots have no limit; the clock is injectable so
tests need not wait minutes.

A game opts in with its kit's ``clock``, a rule of the game (:class:`games.core.TurnClock`):
``time_limit(view)`` (seconds for the seat's turn now, ``None`` or 0: no limit) and
``timeout_move(view)`` (the move played when the time is up); its screen gives the words
(:class:`layouts.screen.TimedScreen`: ``time_left(seconds, context)``).

    timer = TurnTimer(clock=time.monotonic)
    timer.follow(limit=120, turn=5)        # the seat's turn number 5 has 120 seconds
    timer.left()                           # 120 then less; None when no limit runs
    timer.due()                            # [60] once 60 seconds are left, then [15]
    timer.expired()                        # True once the time is up
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Any

from games.core import bad_state
from games.saved import each, field, integer, need_dict

# Seconds left at which the time is told (Rummikub RUM-7: one minute, then 15 seconds).
ANNOUNCE_AT = (60, 15)
# The status line shows the time left in steps of this many seconds (a line that changed
# every second would move under the reader's fingers).
STATUS_STEP = 15
# The longest turn a saved clock may hold (a day): far above any limit a game offers.
MOST_SECONDS = 86_400


def shown_left(left: int) -> int:
    """The time left as the status line shows it: rounded up to a step of ``STATUS_STEP``
    seconds, so the line a finger rests on changes rarely: ``shown_left(61) == 75``."""
    return math.ceil(left / STATUS_STEP) * STATUS_STEP


def announcements(before: float, now: float) -> list[int]:
    """The thresholds of :data:`ANNOUNCE_AT` crossed between two readings of the seconds
    left: ``announcements(61.0, 59.5) == [60]``."""
    return [mark for mark in ANNOUNCE_AT if before > mark >= now]


class TurnTimer:
    """See the module docstring."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.limit: float | None = None
        self.turn: Hashable = None
        self.started = 0.0
        # The seconds left when the announcements were last looked at.
        self._heard = 0.0

    def follow(self, limit: float | None, turn: Hashable) -> None:
        """Keep the timer on the seat's turn ``turn`` with ``limit`` seconds (``None`` or 0:
        no timer); a new ``turn`` starts the clock again."""
        if not limit:
            self.limit, self.turn = None, None
            return
        if self.limit is None or turn != self.turn:
            self.started = self.clock()
            self._heard = float(limit)
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
        marks = announcements(min(self._heard, self.limit), left)
        self._heard = min(self._heard, left)
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
                "heard": self._heard}

    def restore(self, data: Any) -> None:
        """Go on with a turn saved by :meth:`to_dict` (``None``: no limit running); anything
        else is :class:`games.core.BadState`, the timer left as it was."""
        if data is None:
            self.limit, self.turn = None, None
            return
        saved = need_dict(data, "")
        limit, used, heard = (seconds(field(saved, name), name)
                              for name in ("limit", "used", "heard"))
        turn = field(saved, "turn")
        if isinstance(turn, list):
            turn = tuple(each(turn, "turn", 2, lambda value, at: integer(value, at, 0, 10**9),
                              least=2))
        elif turn is not None:
            raise bad_state("turn", "wrong_type", need="list")
        if not limit > 0:
            raise bad_state("limit", "out_of_range", low=1, high=MOST_SECONDS)
        if not heard <= limit:
            raise bad_state("heard", "out_of_range", low=0, high=limit)
        self.limit, self.turn = limit, turn
        self.started = self.clock() - used
        self._heard = heard


def seconds(value: object, at: str) -> float:
    """A number of seconds read from a save: 0 to :data:`MOST_SECONDS`, finite."""
    if type(value) not in (int, float):
        raise bad_state(at, "wrong_type", need="number")
    number = float(value)  # type: ignore[arg-type]
    if not (math.isfinite(number) and 0 <= number <= MOST_SECONDS):
        raise bad_state(at, "out_of_range", low=0, high=MOST_SECONDS)
    return number
