"""Rummikub's score pad kept for a game at a real table (``brailledev pad rummikub``): a row
per round, the others scoring minus their rack, the one who went out plus their sum (RUM-8);
the game ends by hand.

    book = blank_book(rules_data("rummikub"), players=2)
    book, events = play(book, EnterRound(1, ((4,), ())))     # totals (-4, 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.pads import RoundRule, RoundsBook


def racks_left(winner: int | None, values: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """RUM-8: each other player loses the points left on their rack, the one who went out
    wins their sum: ``racks_left(1, ((4,), ())) == (-4, 4)``."""
    return tuple(sum(sum(v) for v in values) if seat == winner else -sum(entered)
                 for seat, entered in enumerate(values))


def blank_book(rules: Mapping[str, Any], players: int) -> RoundsBook:
    """A fresh round sheet (the box data holds nothing the sheet needs)."""
    return RoundsBook(RoundRule(True, ("rack",), racks_left), players)
