"""Key presses of a typical turn, per game, on one row of 40 and 20 cells and on the boards of
multi-line displays (40 x 9, a Canute 360; 32 x 10, a Monarch; 20 x 7, a Dot Pad); and the
rows a move by another player rewrites on those boards.

    .venv/bin/python bench/key_presses.py              (6 games of each, seeds 0-5)
    .venv/bin/python bench/key_presses.py --games 2

A sensible player who knows only the screen (``tests/screen_player.py``) plays whole games
against the default bots on a display in memory, through the real key loop: each turn it
reads the news the display puts before it, moves to the line of what it routes, pans to its
window and presses its routing key (on a board: it reads the news's pages, turns a band to
the region's page, and presses the routing key over the region on its row). Counted per turn
of the player: the mean, the median, the worst turn, where the keys of a mean turn go
(reading, line keys, panning, routing), and the mean against the same game on one row of 40
cells (the target on 40 x 9: at most half). Between the player's turns the bots move one at a
time, each followed by a redraw: the rows whose cells changed are what a slow display
refreshes (a Canute 360 about 1.2 s a row). Once the game is over the player quits: the
keys to reach ``quit`` and route it, and the one that answers its question (quit asks first).
Prints three Markdown tables (the README's).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brailledev.display.keys import Route
from brailledev.programs.session import Session
from layouts.registry import GAMES
from layouts.screen import COMMAND_LINE, Ui
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
QUIT = Ui("quit")
# (columns, rows): one row of 40 and 20 cells, then the three boards.
SIZES = ((40, 1), (20, 1), (40, 9), (32, 10), (20, 7))
# Seconds a Canute 360 takes to refresh one row (its BRLTTY driver's constant).
CANUTE_ROW = 1.2


def turns_of(game: str, columns: int, rows: int,
             seed: int) -> tuple[list[int], Counter[str], list[int], int]:
    """The keys of each of the player's turns in one whole game, all keys by kind, the
    rows each bot move rewrote, and the keys of quitting once it is over."""
    players, options = SETUP[game]
    session = Session.start(game, players=players, seed=seed, lang="en", pace=0,
                            options=options)
    fingers = MemoryFingers(session, columns=columns, rows=rows)
    turns: list[int] = []
    rewritten: list[int] = []
    while not session.table.game.is_over() and len(turns) < 400:
        while session.table.bot_due() is not None:
            before = fingers.front.written
            session.table.bot_move()
            fingers.front.redraw()
            rewritten.append(sum(1 for old, new in zip(before, fingers.front.written,
                                                       strict=True) if old != new))
        if session.table.game.is_over():
            break
        turns.append(fingers.play_turn())
    counts = Counter(fingers.counts)
    return turns, counts, rewritten, quit_keys(fingers)


def quit_keys(fingers: MemoryFingers) -> int:
    """Keys to quit from where the player is: reach ``quit``, route it, answer the question
    by routing again."""
    before = fingers.keys
    fingers.read_news()
    commands = next(line for line in fingers.session.seat.lines() if line.key == COMMAND_LINE)
    fingers.route(COMMAND_LINE, [region.target for region in commands.regions].index(QUIT))
    assert fingers.session.seat.quit_asked, "quit did not ask"
    fingers.keys += 1  # the answer: routing again, the key loop's last key
    assert not fingers.front.press(Route(0))
    return fingers.keys - before


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    results = {}
    for game in GAMES:
        for columns, rows in SIZES:
            turns: list[int] = []
            counts: Counter[str] = Counter()
            rewritten: list[int] = []
            quits: list[int] = []
            for seed in range(args.games):
                found, kinds, rows_changed, quitting = turns_of(game, columns, rows, seed)
                turns += found
                counts += kinds
                rewritten += rows_changed
                quits.append(quitting)
            results[game, columns, rows] = (turns, counts, rewritten, quits)
    print(f"Key presses per turn, {args.games} whole games each\n")
    print("| game | display | turns | mean | median | worst | read | line | pan | route "
          "| vs 40 x 1 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (game, columns, rows), (turns, counts, _, _) in results.items():
        mean = statistics.mean(turns)
        one_row = statistics.mean(results[game, 40, 1][0])
        share = " | ".join(f"{counts[kind] / len(turns):.1f}" for kind in KINDS)
        print(f"| {game} | {columns} x {rows} | {len(turns)} | {mean:.1f} | "
              f"{statistics.median(turns):g} | {max(turns)} | {share} | "
              f"{mean / one_row:.2f} |")
    print(f"\nRows rewritten per move by another player (a Canute: {CANUTE_ROW} s a row)\n")
    print("| game | display | moves | mean | worst | Canute mean | Canute worst |")
    print("|---|---|---|---|---|---|---|")
    for (game, columns, rows), (_, _, rewritten, _) in results.items():
        if rows == 1:
            continue
        mean = statistics.mean(rewritten)
        print(f"| {game} | {columns} x {rows} | {len(rewritten)} | {mean:.1f} | "
              f"{max(rewritten)} | {mean * CANUTE_ROW:.1f} s | "
              f"{max(rewritten) * CANUTE_ROW:.1f} s |")
    print("\nKeys to quit once a game is over: reading the last news, reaching quit and "
          "routing it, then the one key that answers its question\n")
    print("| game | display | mean | worst | of which the question |")
    print("|---|---|---|---|---|")
    for (game, columns, rows), (_, _, _, quits) in results.items():
        print(f"| {game} | {columns} x {rows} | {statistics.mean(quits):.1f} | {max(quits)} "
              "| 1 |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
