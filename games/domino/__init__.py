"""Domino 10-11-12 (Zatre, the card game): engine, notation and computer opponents.

    from games.domino import GAME, BOTS
    game = GAME.new(players=2, seed=1, data=rules_data("domino"))
"""

from games.domino.bots import BOTS
from games.domino.game import Domino

GAME = Domino
SELFPLAY_OPTIONS: dict[str, object] = {}

__all__ = ["BOTS", "GAME", "SELFPLAY_OPTIONS", "Domino"]
