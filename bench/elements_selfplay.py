"""Elements: how often the heuristic bot wins 3-player games against two random bots.

    .venv/bin/python bench/elements_selfplay.py [--games 300]

Anchors: the issue's target (the heuristic wins >= 50% of the games) and a fair share (1/3).
A shared win counts as a win. Prints one line of figures and the ratios to both anchors.
"""

from __future__ import annotations

import argparse
import sys

from brailledev.programs.selfplay import selfplay

TARGET = 0.50
FAIR_SHARE = 1 / 3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = selfplay("elements", args.games, args.seed, 3, ["heuristic", "random", "random"])
    rate = result["wins"][0] / args.games
    print(f"elements 3 players, heuristic vs random vs random: {args.games} games, "
          f"heuristic wins {result['wins'][0]} ({rate:.1%}), random seats {result['wins'][1:]}, "
          f"{result['games_per_second']} games/s; ratio to the 50% target {rate / TARGET:.2f}, "
          f"to a fair share {rate / FAIR_SHARE:.2f}")
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
