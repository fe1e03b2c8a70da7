"""Clicks per turn of a web player, per game, against the braille player's key presses.

    .venv/bin/python bench/web_clicks.py               (6 games of each, seeds 0-5)
    .venv/bin/python bench/web_clicks.py --games 2

A player who knows only the page (``tests/page_player.py``: the controls the picture shows,
their words and marks, never the state nor notation) plays whole games against the default
bots at a room held in this process, sent the very frames a browser is sent; every click
counts, the answer to a question the page asks ("which way?") too. Beside each game: the
key presses of the braille player on 40 cells over the same seeds
(``bench/key_presses.py``), the target (clicks a turn at most that). Prints a Markdown
table (the README's).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.key_presses import SETUP, turns_of
from layouts.registry import GAMES
from tests.page_player import PagePlayer, RoomPage


def clicks_of(game: str, seed: int) -> list[int]:
    """The clicks of each of the web player's turns in one whole game."""
    players, options = SETUP[game]
    page, player = RoomPage(game, players, seed, options), PagePlayer(game)
    turns: list[int] = []
    while len(turns) < 400:
        page.run_bots()
        if page.game.is_over():
            break
        turns.append(page.play_turn(player))
    return turns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    print(f"Clicks per turn of a web player, {args.games} whole games each, against the key "
          "presses of a braille player on 40 cells (the target)\n")
    print("| game | turns | clicks: mean | median | worst | keys on 40 cells: mean | "
          "clicks / keys |")
    print("|---|---|---|---|---|---|---|")
    missed = 0
    for game in GAMES:
        clicks = [count for seed in range(args.games) for count in clicks_of(game, seed)]
        keys = [count for seed in range(args.games) for count in turns_of(game, 40, 1, seed)[0]]
        ratio = statistics.mean(clicks) / statistics.mean(keys)
        missed += ratio > 1
        print(f"| {game} | {len(clicks)} | {statistics.mean(clicks):.1f} | "
              f"{statistics.median(clicks):g} | {max(clicks)} | {statistics.mean(keys):.1f} | "
              f"{ratio:.2f} |")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
