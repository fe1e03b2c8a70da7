"""Elevens (Elfer raus! Master): the rules engine and its computer opponents.

    from games.elevens import GAME, BOTS
    game = GAME.new(players=2, seed=1)
"""

from games.elevens.bots import BOTS
from games.elevens.engine import Elevens, ElevensView, Step
from games.options import Option

GAME = Elevens
SELFPLAY_OPTIONS: dict[str, object] = {}
OPTIONS: dict[str, Option] = {
    "beginner": Option("bool", False, flag="beginner"),
    "first": Option("seat", 0, flag="first"),
}

__all__ = ["BOTS", "GAME", "OPTIONS", "SELFPLAY_OPTIONS", "Elevens", "ElevensView", "Step"]
