"""Uno (rulings UNO-1 to UNO-12): the engine, its notation and its computer opponents.

    from games.uno import GAME, BOTS
    game = GAME.new(players=2, seed=1, match_target=0)
    bot = BOTS["heuristic"](seed=4)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import BotMaker
from games.options import Option
from games.uno.bots import HeuristicBot, RandomBot
from games.uno.engine import Uno, UnoView
from games.uno.notation import Move

GAME = Uno
BOTS: Mapping[str, BotMaker[Any, Any]] = {"random": RandomBot, "heuristic": HeuristicBot}
# Self-play compares bots over single rounds, the unit the published win rates use.
SELFPLAY_OPTIONS: dict[str, Any] = {"match_target": 0}
# The variants `brailledev play uno --option NAME=VALUE` (or the flags) choose (UNO-11, UNO-12).
OPTIONS: dict[str, Option] = {
    "wild_draw_four": Option("str", "no_other_playable",
                             choices=("no_other_playable", "no_matching_colour"),
                             flag="variant", aliases={"classic": "no_other_playable",
                                                      "mattel": "no_matching_colour"}),
    "teams": Option("int", 0, choices=(0, 2), flag="teams", flag_value=2, players=(4, 6)),
    "match_target": Option("int", None, minimum=0, flag="match-target"),
}

__all__ = ["BOTS", "GAME", "OPTIONS", "SELFPLAY_OPTIONS", "HeuristicBot", "Move", "RandomBot",
           "Uno", "UnoView"]
