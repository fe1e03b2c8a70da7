"""Elevens (Elfer raus! Master): the rules engine and its computer opponents.

    from games.elevens import GAME, BOTS
    game = GAME.new(players=2, seed=1, data=rules_data("elevens"))
"""

from games.elevens.bots import BOTS
from games.elevens.engine import Elevens, ElevensView, Step

GAME = Elevens
SELFPLAY_OPTIONS: dict[str, object] = {}

__all__ = ["BOTS", "GAME", "SELFPLAY_OPTIONS", "Elevens", "ElevensView", "Step"]
