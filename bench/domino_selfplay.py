"""Domino 10-11-12: how often the heuristic bot beats the random bot in 2-player games.

    .venv/bin/python bench/domino_selfplay.py [games]

Prints the games, the heuristic bot's win rate (a shared win counts as half), the mean points
of each bot, the seconds per game, and the ratio of the win rate to the anchor of 0.80 (the
target of issue 5). The heuristic bot sits in seat 0 in even games and seat 1 in odd ones, so
opening first is no advantage to either.
"""

from __future__ import annotations

import json
import sys
import time

from games.domino import BOTS
from games.play import play_out
from layouts.registry import kit

ANCHOR = 0.80


def main(games: int) -> dict[str, float]:
    wins = 0.0
    points = [0, 0]
    start = time.perf_counter()
    for index in range(games):
        game = kit("domino").new_game(2, index)
        clever = index % 2
        bots = {clever: BOTS["heuristic"](2 * index), 1 - clever: BOTS["random"](2 * index + 1)}
        play_out(game, bots)
        scores = game.scores()
        points[0] += scores[clever]
        points[1] += scores[1 - clever]
        winners = game.winners()
        if clever in winners:
            wins += 1 / len(winners)
    seconds = time.perf_counter() - start
    rate = wins / games
    return {"games": games, "heuristic_win_rate": round(rate, 4),
            "heuristic_mean_points": round(points[0] / games, 1),
            "random_mean_points": round(points[1] / games, 1),
            "seconds_per_game": round(seconds / games, 4),
            "ratio_to_anchor_0_80": round(rate / ANCHOR, 3)}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)))
