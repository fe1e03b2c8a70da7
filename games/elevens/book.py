"""Elevens' score pad kept for a game at a real table (``brailledev pad elevens``): a row per
round, each player's bonus cards, number cards' sum and jokers left in hand entered and
scored as ELV-11 says (the points from ``games/elevens/rules.toml``); the game ends by hand.

    book = blank_book(rules_data("elevens"), players=2)
    book, events = play(book, EnterRound(None, ((2, 10, 0), (0, 30, 1))))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.pads import RoundRule, RoundsBook, Scoring


def hands_scored(points: Mapping[str, int]) -> Scoring:
    """ELV-11 with the box's points: a bonus card's points each, a joker's penalty each,
    minus the number cards' sum: ``hands_scored({"bonus": 5, "joker": -20})(None,
    ((2, 10, 0),)) == (0,)``."""
    bonus, joker = points["bonus"], points["joker"]

    def score(winner: int | None, values: Sequence[Sequence[int]]) -> tuple[int, ...]:
        return tuple(bonuses * bonus + jokers * joker - numbers
                     for bonuses, numbers, jokers in values)

    return score


def blank_book(rules: Mapping[str, Any], players: int) -> RoundsBook:
    """A fresh round sheet scored with the box's points."""
    points = {name: int(value) for name, value in rules["points"].items()}
    return RoundsBook(RoundRule(False, ("bonus", "numbers", "jokers"), hands_scored(points)),
                      players)
