"""Domino 10-11-12 (Zatre, the card game): engine, notation and computer opponents.

    from games.domino import GAME, BOTS
    game = GAME.new(players=2, seed=1)
"""

from games.domino.bots import BOTS
from games.domino.engine import Domino
from games.options import Option

GAME = Domino
SELFPLAY_OPTIONS: dict[str, object] = {}
# A toy library's deck may differ from the box's: `--deck FILE.toml` holding `cards = [...]`.
OPTIONS: dict[str, Option] = {"deck": Option("cards", None, flag="deck")}

__all__ = ["BOTS", "GAME", "OPTIONS", "SELFPLAY_OPTIONS", "Domino"]
