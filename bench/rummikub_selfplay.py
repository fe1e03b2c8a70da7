"""Rummikub bots against each other: the exact solver against greedy, two players.

    .venv/bin/python bench/rummikub_selfplay.py [--games 100] [--seed 1]

Half the games with ``solver`` in seat 0, half in seat 1 (who starts is drawn, RUM-2).
Prints one JSON object: games, wins of each bot (a shared win counts for both), the solver's
win rate against the target of 70 %, seconds per game and per move.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)

from brailledev.programs.selfplay import selfplay  # noqa: E402

TARGET = 0.70


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    half = args.games // 2
    first = selfplay("rummikub", half, args.seed, 2, ["solver", "greedy"])
    second = selfplay("rummikub", args.games - half, args.seed + 1, 2, ["greedy", "solver"])
    solver = first["wins"][0] + second["wins"][1]
    greedy = first["wins"][1] + second["wins"][0]
    seconds = first["seconds"] + second["seconds"]
    moves = first["moves"] + second["moves"]
    rate = solver / args.games
    print(json.dumps({
        "games": args.games, "solver_wins": solver, "greedy_wins": greedy,
        "solver_win_rate": round(rate, 3), "target": TARGET, "met": rate >= TARGET,
        "seconds_per_game": round(seconds / args.games, 3),
        "ms_per_move": round(1000 * seconds / moves, 2),
    }))
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
