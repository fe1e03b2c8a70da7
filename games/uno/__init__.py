"""Uno (rulings UNO-1 to UNO-12): the engine, its notation and its computer opponents.

    from games.uno import GAME, BOTS
    game = GAME.new(players=2, seed=1, data=rules_data("uno"), match_target=0)
    bot = BOTS["heuristic"](seed=4)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core import Bot
from games.uno.bots import HeuristicBot, RandomBot
from games.uno.engine import Uno, UnoView
from games.uno.notation import Move

GAME = Uno
BOTS: dict[str, Callable[[int], Bot[Any, Any]]] = {"random": RandomBot, "heuristic": HeuristicBot}
# Self-play compares bots over single rounds, the unit the published win rates use.
SELFPLAY_OPTIONS: dict[str, Any] = {"match_target": 0}

__all__ = ["BOTS", "GAME", "SELFPLAY_OPTIONS", "HeuristicBot", "Move", "RandomBot", "Uno",
           "UnoView"]
