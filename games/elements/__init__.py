"""Elements (Casasola Merkle, Adlung 1997): the engine, its notation and its bots.

    from games.elements import GAME, BOTS
    game = GAME.new(players=3, seed=1)
"""

from collections.abc import Mapping
from typing import Any

from games.core import BotMaker
from games.elements.bots import HeuristicBot, RandomBot
from games.elements.engine import Elements
from games.options import Option

GAME = Elements
BOTS: Mapping[str, BotMaker[Any, Any]] = {"heuristic": HeuristicBot, "random": RandomBot}
# the box's defaults already make a fair match: every seat is first player once (ELE-8)
SELFPLAY_OPTIONS: dict[str, Any] = {}
OPTIONS: dict[str, Option] = {
    "first": Option("seat", 0, flag="first", keyword="first_player"),
}

__all__ = ["BOTS", "GAME", "OPTIONS", "SELFPLAY_OPTIONS"]
