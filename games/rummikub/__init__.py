"""Rummikub (RUM-1 to RUM-10): the engine, the exact best-move solver and the bots.

    from games.rummikub import GAME, solve
    solve("K1 K2 K3", "K4 R4 B4 Y4").count   # 4
"""

from games.options import Option
from games.rummikub.bots import BOTS
from games.rummikub.clock import CLOCK
from games.rummikub.engine import Rummikub
from games.rummikub.solver import Solution, solve

GAME = Rummikub
SELFPLAY_OPTIONS = {"turn_times": 0}  # bots have no time limit (RUM-7)
# Seconds per turn for every seat, 0 = no limit (RUM-7); default from games/rummikub/rules.toml.
OPTIONS: dict[str, Option] = {"turn_times": Option("int", None, minimum=0, flag="time-limit")}

__all__ = ["BOTS", "CLOCK", "GAME", "OPTIONS", "SELFPLAY_OPTIONS", "Rummikub", "Solution",
           "solve"]
