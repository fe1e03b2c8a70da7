"""Our exact Rummikub solver against the published ILP solver (PyPI ``rummikub-solver``,
default backend), on the same random positions in the same run.

    .venv/bin/python bench/rummikub_solver.py [--positions 500] [--seed 1]

Mid-game positions: a valid table of 20-60 tiles (random runs and groups drawn from the box),
a rack of 5-20 tiles from what is left. Prints one JSON object: median and p95 seconds per
solve of each, the ratio (theirs / ours at the median, the anchor being rummikub-solver), and
the positions where the maxima differ.

The two solvers agree on the rules without jokers, so the differential count is taken on
joker-free positions (mid-game ones, and initial melds from 6-14 tiles on an empty table).
With jokers the rules differ on purpose: rummikub-solver never puts a joker in a group of
four or at the end of a run longer than three, and knows nothing of RUM-6 (joker sets never
split, exchange only from the rack); those positions are timed and counted apart.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

# This file's name is the package's: put the project root, not bench/, first on the path.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from rummikub_solver import RuleSet  # noqa: E402

from games.rummikub import solve  # noqa: E402
from games.rummikub.tiles import COLOURS, Arranged, arrange, full_box  # noqa: E402


def position(rng: random.Random, jokers: bool, table_size: tuple[int, int],
             rack_size: tuple[int, int]) -> tuple[list[tuple[str, ...]], list[str]]:
    pool = Counter(full_box(2, 2 if jokers else 0))
    target = rng.randint(*table_size)
    table: list[tuple[str, ...]] = []
    size = 0
    while size < target:
        if rng.random() < 0.5:
            colour = rng.choice(COLOURS)
            length = rng.randint(3, 5)
            low = rng.randint(1, 14 - length)
            tiles = [f"{colour}{n}" for n in range(low, low + length)]
        else:
            number = rng.randint(1, 13)
            tiles = [f"{c}{number}" for c in rng.sample(COLOURS, rng.randint(3, 4))]
        if pool["J"] and rng.random() < 0.15:
            tiles[rng.randrange(len(tiles))] = "J"
        need = Counter(tiles)
        if any(pool[t] < k for t, k in need.items()):
            continue
        pool -= need
        arranged = arrange(tiles)
        assert isinstance(arranged, Arranged)
        table.append(arranged.tiles)
        size += len(tiles)
    rest = list(pool.elements())
    rng.shuffle(rest)
    return table, rest[:rng.randint(*rack_size)]


class Theirs:
    def __init__(self) -> None:
        self.rules = RuleSet()
        self.index = {f"{c}{n}": self.rules.tiles[i * 13 + n - 1]
                      for i, c in enumerate(COLOURS) for n in range(1, 14)}
        self.index["J"] = self.rules.tiles[-1]

    def count(self, table: list[tuple[str, ...]], rack: list[str], initial: bool) -> int:
        state = self.rules.new_game()
        state.add_table(*(self.index[t] for s in table for t in s))
        state.add_rack(*(self.index[t] for t in rack))
        state.initial = initial
        found = self.rules.solve(state)
        return len(found.tiles) if found else 0


def timed(run):
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"median_ms": round(statistics.median(ordered) * 1e3, 3),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1e3, 3),
            "max_ms": round(ordered[-1] * 1e3, 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--initial", type=int, default=200)
    parser.add_argument("--jokers", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    theirs = Theirs()
    ours_t: list[float] = []
    theirs_t: list[float] = []
    differ = []
    for _ in range(args.positions):
        table, rack = position(rng, False, (20, 60), (5, 20))
        mine, t_mine = timed(lambda t=table, r=rack: solve(t, r).count)
        other, t_other = timed(lambda t=table, r=rack: theirs.count(t, r, False))
        ours_t.append(t_mine)
        theirs_t.append(t_other)
        if mine != other:
            differ.append({"table": table, "rack": rack, "ours": mine, "theirs": other})
    initial_differ = 0
    for _ in range(args.initial):
        _, rack = position(rng, False, (0, 0), (6, 14))
        if solve([], rack, initial=True).count != theirs.count([], rack, True):
            initial_differ += 1
    joker_t: list[float] = []
    more = fewer = 0
    for _ in range(args.jokers):
        table, rack = position(rng, True, (20, 60), (5, 20))
        mine, t_mine = timed(lambda t=table, r=rack: solve(t, r).count)
        joker_t.append(t_mine)
        other = theirs.count(table, rack, False)
        more += mine > other
        fewer += mine < other
    ours_s, theirs_s = summary(ours_t), summary(theirs_t)
    print(json.dumps({
        "positions": args.positions,
        "ours": ours_s,
        "rummikub_solver": theirs_s,
        "ratio_at_median": round(theirs_s["median_ms"] / ours_s["median_ms"], 3),
        "ratio_at_p95": round(theirs_s["p95_ms"] / ours_s["p95_ms"], 3),
        "maxima_differ": len(differ),
        "initial_melds": args.initial,
        "initial_maxima_differ": initial_differ,
        "with_jokers": {"positions": args.jokers, "ours": summary(joker_t) if joker_t else None,
                        "ours_more": more, "ours_fewer": fewer},
        "first_differences": differ[:3],
    }, indent=1))
    return 1 if differ or initial_differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
