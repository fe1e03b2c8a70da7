"""Key presses of a typical turn, per game, on 40 and 20 cells.

    .venv/bin/python bench/key_presses.py              (6 games of each, seeds 0-5)
    .venv/bin/python bench/key_presses.py --games 2

A sensible player who knows only the screen (``tests/screen_player.py``) plays whole games
against the default bots on a display in memory, through the real key loop: each turn it
reads the news the display puts before it, moves to the line of what it routes, pans to its
window and presses its routing key. Counted per turn of the player: the mean, the median, the
worst turn, and where the keys of a mean turn go (reading, line keys, panning, routing). The
anchor is Uno on 40 cells, the game with the fewest lines: each row gives its mean as a ratio
of that one. Prints a Markdown table (the README's).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brailledev.programs.session import Session
from layouts.registry import GAMES
from tests.screen_player import MemoryFingers

# Players and variants of a typical game: the default count (Elements 3), one Uno round, a
# Rummikub without a clock (the turns' length is the player's), the box's Elevens.
SETUP: dict[str, tuple[int, dict[str, object]]] = {
    "uno": (2, {"match_target": 0}),
    "domino": (2, {}),
    "rummikub": (2, {"turn_times": 0}),
    "elevens": (2, {}),
    "elements": (3, {}),
}
KINDS = ("read", "line", "pan", "route")


def turns_of(game: str, columns: int, seed: int) -> tuple[list[int], Counter[str]]:
    """The keys of each of the player's turns in one whole game, and all keys by kind."""
    players, options = SETUP[game]
    session = Session.start(game, players=players, seed=seed, lang="en", pace=0,
                            options=options)
    fingers = MemoryFingers(session, columns=columns)
    turns: list[int] = []
    while not session.table.game.is_over() and len(turns) < 400:
        session.table.run_bots()
        fingers.front.redraw()
        if session.table.game.is_over():
            break
        turns.append(fingers.play_turn())
    return turns, fingers.counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    rows = []
    for game in GAMES:
        for columns in (40, 20):
            turns: list[int] = []
            counts: Counter[str] = Counter()
            for seed in range(args.games):
                found, kinds = turns_of(game, columns, seed)
                turns += found
                counts += kinds
            rows.append((game, columns, turns, counts))
    anchor = statistics.mean(next(turns for game, columns, turns, _ in rows
                                  if game == "uno" and columns == 40))
    print(f"Key presses per turn, {args.games} whole games each (anchor: Uno on 40 cells, "
          f"{anchor:.1f} keys a turn)\n")
    print("| game | cells | turns | mean | median | worst | read | line | pan | route "
          "| vs anchor |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game, columns, turns, counts in rows:
        mean = statistics.mean(turns)
        share = " | ".join(f"{counts[kind] / len(turns):.1f}" for kind in KINDS)
        print(f"| {game} | {columns} | {len(turns)} | {mean:.1f} | "
              f"{statistics.median(turns):g} | {max(turns)} | {share} | "
              f"{mean / anchor:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
