"""Uno's score pad kept for a game at a real table (``brailledev pad uno``): a row per round,
the player who went out scoring the cards left in the other hands (UNO-9), first to the
match target wins.

    book = blank_book(rules_data("uno"), players=3)
    book, events = play(book, EnterRound(1, ((12,), (), (40,))))   # player 2 went out: 52
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.pads import RoundRule, RoundsBook


def went_out_scores_the_rest(winner: int | None,
                             values: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """UNO-9: the player who went out scores every point entered for the others:
    ``went_out_scores_the_rest(1, ((12,), (), (40,))) == (0, 52, 0)``."""
    return tuple(sum(sum(v) for v in values) if seat == winner else 0
                 for seat in range(len(values)))


def blank_book(rules: Mapping[str, Any], players: int) -> RoundsBook:
    """A fresh round sheet, the match target from the box data (``games/uno/rules.toml``)."""
    return RoundsBook(RoundRule(True, ("hand",), went_out_scores_the_rest,
                                target=int(rules["match_target"])), players)
