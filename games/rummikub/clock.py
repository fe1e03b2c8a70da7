"""Rummikub's turn clock (RUM-7): every seat has its seconds per turn (``turn_times``, 0 for
no limit); when they run out, the table goes back as it was and the seat draws the penalty.

    CLOCK.time_limit(game.view(seat))     # 120.0 on the seat's turn, else None
    game.play(seat, CLOCK.timeout_move(game.view(seat)))
"""

from __future__ import annotations

from games.rummikub.engine import RummikubView
from games.rummikub.notation import Move, Timeout


class RummikubClock:
    """The :class:`games.core.TurnClock` of Rummikub."""

    def time_limit(self, view: RummikubView) -> float | None:
        """The seat's seconds per turn while it is its turn; ``None``: no limit."""
        if view.turn != view.seat:
            return None
        return view.turn_times[view.seat] or None

    def timeout_move(self, view: RummikubView) -> Move:
        """Time is up: the table goes back as it was and the seat draws the penalty."""
        return Timeout()


CLOCK = RummikubClock()
