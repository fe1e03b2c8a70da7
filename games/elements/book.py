"""Elements' score pad kept for a game at a real table (``brailledev pad elements``): a hand
per player (ELE-8), each player's point cards won entered and summed (ELE-7); the game is
over once every player has been first player.

    book = blank_book(rules_data("elements"), players=3)
    book, events = play(book, EnterRound(None, ((5,), (14,), (0,))))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.pads import RoundRule, RoundsBook


def cards_won(winner: int | None, values: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """ELE-7: each player scores the point cards they won: ``cards_won(None, ((5,), (14,)))
    == (5, 14)``."""
    return tuple(sum(entered) for entered in values)


def blank_book(rules: Mapping[str, Any], players: int) -> RoundsBook:
    """A fresh sheet of a hand per player (the box data holds nothing the sheet needs)."""
    return RoundsBook(RoundRule(False, ("won",), cards_won, rounds_are_players=True), players)
