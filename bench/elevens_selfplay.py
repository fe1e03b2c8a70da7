"""Elevens: how often the heuristic bot beats the random one in 2-player games.

    .venv/bin/python bench/elevens_selfplay.py [games per seating, default 200]

Plays each seating (heuristic first, then random first) and prints the heuristic's win rate
(a shared win counts as a win) with its ratio to the target anchor of 70 %, and the speed of
those games with its ratio to random-against-random games (the anchor for speed).
"""

from __future__ import annotations

import sys

from brailledev.programs.selfplay import selfplay

TARGET = 0.70


def main(games: int) -> None:
    first = selfplay("elevens", games, seed=11, players=2, bots=["heuristic", "random"])
    second = selfplay("elevens", games, seed=12, players=2, bots=["random", "heuristic"])
    wins = first["wins"][0] + second["wins"][1]
    rate = wins / (2 * games)
    anchor = selfplay("elevens", games, seed=13, players=2, bots=["random", "random"])
    speed = 2 * games / (first["seconds"] + second["seconds"])
    anchor_speed = games / anchor["seconds"]
    print(f"elevens heuristic vs random, 2 players: {wins}/{2 * games} won = {rate:.1%} "
          f"(target {TARGET:.0%}: ratio {rate / TARGET:.2f})")
    print(f"elevens games per second: {speed:.1f} heuristic vs random, {anchor_speed:.1f} "
          f"random vs random (ratio {speed / anchor_speed:.2f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
