"""Our exact Rummikub solver against the published ILP solver (PyPI ``rummikub-solver``,
default backend), on the same positions in the same run, kind by kind.

    .venv/bin/python bench/rummikub_solver.py [--games 10] [--positions 200] [--seed 1]

Positions come from two sources. Self-play: every turn of both bots in ``--games`` games of
``solver`` against ``greedy`` (half of them with each bot first), so rack jokers, joker sets
on the table and initial melds come at the rate real games produce them. Synthetic:
``--positions`` mid-game positions (a valid table of 20-60 tiles drawn from the box, a rack
of 5-20 tiles from what is left) without jokers, as many with one or two jokers in the rack,
``--initial`` initial melds of 6-14 tiles on an empty table, and ``--jokers`` tables that may
hold joker sets.

Each position is of one kind: ``initial_meld``, ``table_joker_sets``, ``rack_joker`` or
``no_joker``. Per kind and source the JSON gives the count of positions; the median, p95 and
max milliseconds of ``ours`` (most rack tiles, then most points, and one whole table:
``solve(..., fewest_changes=False)``, the problem rummikub-solver solves), of
``ours_rum_10`` (with the last tie-break of RUM-10, the fewest table sets changed: what the
hint and the solver bot call) and of ``rummikub_solver``; the ratios theirs / ours at the
median and at p95 for both; the states our searches took (see ``Layers.taken``); and
whether the targets hold: median 10x, p95 3x, no position over 100 ms; ``compiled_packing``
says whether the packing ran compiled by mypyc (see ``games/rummikub/packing``). Each time is the
fastest of ``--repeat`` runs, for both solvers alike: the machine is shared, and the
fastest run is the one least disturbed by other processes; each run of ours starts from the
rests the bounds held before the position's first solve (see :class:`FirstCall`), so it
costs what a first call costs. The slowest positions are listed with the peak memory of
one solve (tracemalloc); ``caches`` is what the move caches of
``packing.moves`` and the rests the bounds share (``packing.bound``) hold once the 300
slowest positions are solved (tracemalloc, from empty caches);
``strict`` counts the positions where the search packed freed jokers into new sets (RUM-6,
``pack_strict``), the packing the relaxed search found being refused. ``--corpus`` times
ours alone (the search, and the hint with RUM-10) on a file of positions
(``bench/rummikub_worst.json``, the slowest of seeds 1-7 with their best moves) and says
whether any best move differs.

The two solvers agree on the rules without jokers, so the differential count is taken on
joker-free positions (mid-game ones and initial melds). With jokers the rules differ on
purpose: rummikub-solver never puts a joker in a group of four or at the end of a run longer
than three, and knows nothing of RUM-6 (joker sets never split, exchange only from the
rack); those positions are timed and counted apart. The fewest-changes tie-break is greedy;
``fewest_changes`` counts the small positions (tables of 9-21 tiles) where it keeps fewer
table sets than the most a best move can keep.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from functools import partial
from itertools import combinations
from pathlib import Path
from typing import Any, cast

# This file's name is the package's: put the project root, not bench/, first on the path.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from rummikub_solver import RuleSet, SolverMode  # noqa: E402

from games.play import play_out  # noqa: E402
from games.rummikub import BOTS, packing, solve  # noqa: E402
from games.rummikub import solver as solver_module  # noqa: E402
from games.rummikub.engine import Rummikub, RummikubView, Table  # noqa: E402
from games.rummikub.packing import Packing, bound, moves  # noqa: E402
from games.rummikub.tiles import COLOURS, Arranged, arrange, full_box  # noqa: E402
from layouts.catalog import rules_data  # noqa: E402

KINDS = ("no_joker", "rack_joker", "table_joker_sets", "initial_meld")
MEDIAN_RATIO, P95_RATIO, MOST_MS = 10.0, 3.0, 100.0
Position = tuple[list[tuple[str, ...]], list[str], bool]  # table, rack, initial meld


def position(rng: random.Random, table_jokers: bool, rack_jokers: int,
             table_size: tuple[int, int], rack_size: tuple[int, int]
             ) -> tuple[list[tuple[str, ...]], list[str]]:
    """A valid table drawn from the box (with ``table_jokers``, a set takes a joker one time
    in seven), then a rack from what is left with ``rack_jokers`` jokers among its tiles."""
    pool = Counter(full_box(2, 2))
    pool["J"] -= rack_jokers
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
        if table_jokers and pool["J"] and rng.random() < 0.15:
            tiles[rng.randrange(len(tiles))] = "J"
        need = Counter(tiles)
        if any(pool[t] < k for t, k in need.items()):
            continue
        pool -= need
        arranged = arrange(tiles)
        assert isinstance(arranged, Arranged)
        table.append(arranged.tiles)
        size += len(tiles)
    rest = [t for t in pool.elements() if t != "J" or table_jokers]
    rng.shuffle(rest)
    size = rng.randint(*rack_size)
    return table, rest[:size - rack_jokers] + ["J"] * rack_jokers


def synthetic(rng: random.Random, mid_game: int, initial: int, jokers: int
              ) -> list[Position]:
    found: list[Position] = []
    for _ in range(mid_game):
        table, rack = position(rng, False, 0, (20, 60), (5, 20))
        found.append((table, rack, False))
    for _ in range(mid_game):
        table, rack = position(rng, False, rng.choice((1, 1, 2)), (20, 60), (5, 20))
        found.append((table, rack, False))
    for _ in range(initial):
        _, rack = position(rng, False, 0, (0, 0), (6, 14))
        found.append(([], rack, True))
    for _ in range(jokers):
        table, rack = position(rng, True, 0, (20, 60), (5, 20))
        found.append((table, rack, False))
    return found


class Recorder:
    """A bot that notes each position it is given before choosing its move."""

    def __init__(self, bot: Any, found: list[Position]) -> None:
        self.bot = bot
        self.found = found

    def choose(self, view: RummikubView, legal: Any) -> Any:
        self.found.append(([tuple(s) for s in view.table], list(view.hand),
                           not view.melded[view.seat]))
        return self.bot.choose(view, legal)

    def see(self, events: Any) -> None:
        self.bot.see(events)


def self_played(games: int, seed: int) -> list[Position]:
    """The position each bot faced at every turn of ``games`` games of solver against
    greedy (half of them with the greedy bot first)."""
    found: list[Position] = []
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        names = ("solver", "greedy") if index < games // 2 else ("greedy", "solver")
        game = Rummikub.new(players=2, seed=game_seed, data=rules_data("rummikub"))
        bots: dict[int, Any] = {seat: Recorder(BOTS[name](game_seed * 16 + seat), found)
                                for seat, name in enumerate(names)}
        play_out(game, bots)
    return found


def kind_of(table: list[tuple[str, ...]], rack: list[str], initial: bool) -> str:
    if initial:
        return "initial_meld"
    if any("J" in s for s in table):
        return "table_joker_sets"
    return "rack_joker" if "J" in rack else "no_joker"


class Theirs:
    def __init__(self) -> None:
        self.rules = RuleSet()
        self.index = {f"{c}{n}": self.rules.tiles[i * 13 + n - 1]
                      for i, c in enumerate(COLOURS) for n in range(1, 14)}
        self.index["J"] = self.rules.tiles[-1]

    def count(self, table: list[tuple[str, ...]], rack: list[str], initial: bool) -> int:
        found = self.rules.solve(self._state(table, rack, initial))
        return len(found.tiles) if found else 0

    def meld_value(self, rack: list[str]) -> tuple[int, int]:
        """Tiles and points of their most-tiles solution for the rack alone (whether it
        would have made an initial meld their initial mode missed)."""
        found = self.rules.solve(self._state([], rack, True), SolverMode.TILE_COUNT)
        if not found:
            return 0, 0
        return len(found.tiles), sum(int(getattr(t, "value", 0)) for t in found.tiles)

    def _state(self, table: list[tuple[str, ...]], rack: list[str], initial: bool) -> Any:
        state = self.rules.new_game()
        state.add_table(*(self.index[t] for s in table for t in s))
        state.add_rack(*(self.index[t] for t in rack))
        state.initial = initial
        return state


class StatesTaken:
    """Counts the states the solver's searches take while it is on: those of each packing
    the solver is given (``Packing.states``), counted where it calls ``pack`` and
    ``pack_strict``, as compiled searches call each other's methods directly."""

    def __init__(self) -> None:
        self.count = 0
        self.originals = (solver_module.pack, solver_module.pack_strict)

    def __enter__(self) -> StatesTaken:
        counter = self

        def counted(search: Callable[..., Packing | None]) -> Callable[..., Packing | None]:
            def run(*args: Any, **kwargs: Any) -> Packing | None:
                found = search(*args, **kwargs)
                counter.count += 0 if found is None else found.states
                return found
            return run

        cast(Any, solver_module).pack = counted(self.originals[0])
        cast(Any, solver_module).pack_strict = counted(self.originals[1])
        return self

    def __exit__(self, *_: object) -> None:
        cast(Any, solver_module).pack, cast(Any, solver_module).pack_strict = self.originals


def kept_exactly(rng: random.Random, positions: int) -> dict[str, object]:
    """The fewest-changes tie-break is greedy (a maximal collection of untouched table
    sets): on small positions, how often it keeps fewer sets than the most any best move
    keeps (every collection of kept sets tried, largest first)."""
    below: list[int] = []
    tried = 0
    while tried < positions:
        table, rack = position(rng, False, 0, (9, 21), (2, 8))
        found = solve(table, rack)
        if not found.count:
            continue
        best = solve(table, rack, fewest_changes=False)
        most = _most_kept(table, rack, (best.count, best.value))
        tried += 1
        if len(table) - found.changed < most:
            below.append(most - (len(table) - found.changed))
    return {"positions": tried, "greedy_below_exact": len(below), "by": below}


def _most_kept(table: list[tuple[str, ...]], rack: list[str], best: tuple[int, int]) -> int:
    for size in range(len(table), -1, -1):
        for kept in combinations(range(len(table)), size):
            rest = [s for i, s in enumerate(table) if i not in kept]
            found = solve(rest, rack, fewest_changes=False)
            if (found.count, found.value) == best:
                return size
    return 0


def meld_is_legal(rack: list[str], table: tuple[tuple[str, ...], ...]) -> bool:
    """Whether our engine accepts ``table`` as an initial meld from ``rack`` (RUM-4)."""
    game = Rummikub.new(players=2, seed=0, data=rules_data("rummikub"), turn_times=0)
    game.table, game.racks, game.melded, game.turn = [], [list(rack), ["K1"]], [False, True], 0
    return game.check(0, Table(table)) is None


def timed(run: Callable[[], Any], repeat: int = 1,
          before: Callable[[], None] | None = None) -> tuple[Any, float]:
    """The result of ``run`` and the fastest of ``repeat`` runs, in seconds; ``before`` is
    called ahead of each run, untimed."""
    fastest = float("inf")
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        result = run()
        fastest = min(fastest, time.perf_counter() - start)
    return result, fastest


class FirstCall:
    """Puts back, ahead of each timed run of ours, the rests the bounds share
    (``packing.bound``) as they were before the position's first solve: each run then costs
    what the first call costs in a game, where a position is solved once (the hint, or the
    bot's turn) with what the positions before it left in the caches. Without it the runs
    after the first would find the position's own rests and time a second call. The move
    caches (``packing.moves``, keyed by one colour's few tiles at a number) are left as they
    are: they fill within a few positions whatever is played."""

    def __init__(self) -> None:
        self.held = bound.held()

    def __call__(self) -> None:
        bound.restore(self.held)


class Strict:
    """Counts the strict searches (RUM-6, freed jokers in new sets) and their time."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.original = solver_module.pack_strict

    def __enter__(self) -> Strict:
        original, times = self.original, self.times

        def counted(*args: Any) -> Any:
            found, seconds = timed(partial(original, *args))
            times.append(seconds)
            return found

        cast(Any, solver_module).pack_strict = counted
        return self

    def __exit__(self, *_: object) -> None:
        cast(Any, solver_module).pack_strict = self.original


def _forget_caches() -> None:
    moves.forget_memos()
    bound.forget()


def caches_mb(positions: list[Position]) -> dict[str, object]:
    """What the move caches hold once ``positions`` are solved, from empty caches: the
    megabytes and the entries of each against its most."""
    _forget_caches()
    tracemalloc.start()
    try:
        for table, rack, initial in positions:
            solve(table, rack, initial=initial)
        held = tracemalloc.get_traced_memory()[0]
        entries = {name: f"{size}/{most}" for name, (size, most) in moves.memos().items()}
        entries["bound_rests"] = f"{len(bound._RESTS)}/{bound._HELD}"
        _forget_caches()
        return {"positions": len(positions),
                "mb": round((held - tracemalloc.get_traced_memory()[0]) / 1e6, 1),
                "entries": entries}
    finally:
        tracemalloc.stop()


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"median_ms": round(statistics.median(ordered) * 1e3, 3),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1e3, 3),
            "max_ms": round(ordered[-1] * 1e3, 3)}


def peak_mb(table: list[tuple[str, ...]], rack: list[str], initial: bool) -> float:
    """The peak memory of one RUM-10 solve, its caches already warm."""
    tracemalloc.start()
    try:
        solve(table, rack, initial=initial)
        return round(tracemalloc.get_traced_memory()[1] / 1e6, 1)
    finally:
        tracemalloc.stop()


class Kind:
    """The timings of one kind of position."""

    def __init__(self) -> None:
        self.ours: list[float] = []
        self.full: list[float] = []
        self.theirs: list[float] = []
        self.states: list[float] = []
        self.sources: Counter[str] = Counter()

    def report(self) -> dict[str, object]:
        if not self.ours:
            return {"positions": 0}
        ours, full, theirs = summary(self.ours), summary(self.full), summary(self.theirs)
        ratios = {name: {"at_median": round(theirs["median_ms"] / mine["median_ms"], 2),
                         "at_p95": round(theirs["p95_ms"] / mine["p95_ms"], 2)}
                  for name, mine in (("ours", ours), ("ours_rum_10", full))}
        return {
            "positions": len(self.ours), "sources": dict(self.sources),
            "ours": ours, "ours_rum_10": full, "rummikub_solver": theirs,
            "ratios": ratios,
            "states_taken": {"median": statistics.median(self.states),
                             "max": max(self.states)},
            "targets_met": {name: {"median_10x": ratio["at_median"] >= MEDIAN_RATIO,
                                   "p95_3x": ratio["at_p95"] >= P95_RATIO,
                                   "none_over_100_ms": mine["max_ms"] <= MOST_MS}
                            for (name, ratio), mine in zip(ratios.items(), (ours, full),
                                                           strict=True)},
        }


def replay(path: Path, repeat: int) -> int:
    """Time ``solve(..., fewest_changes=False)`` and the hint's ``solve`` (RUM-10, fewest
    sets changed) on each position of a corpus (see ``--corpus``): per kind the median and
    max milliseconds of both and the states the first took, how many positions are over
    100 ms, and the slowest five; 1 if a best move differs from the corpus's."""
    corpus = json.loads(path.read_text(encoding="utf-8"))
    found: dict[str, list[tuple[float, int, int, float]]] = {}
    wrong = 0
    for number, entry in enumerate(corpus):
        first = FirstCall()
        with StatesTaken() as states:
            move, _ = timed(partial(solve, entry["table"], entry["rack"],
                                    fewest_changes=False))
        _, seconds = timed(partial(solve, entry["table"], entry["rack"],
                                   fewest_changes=False), repeat, first)
        hint, hint_seconds = timed(partial(solve, entry["table"], entry["rack"]), repeat,
                                   first)
        wrong += (move.count, move.value) != (entry["count"], entry["value"])
        wrong += (hint.count, hint.value) != (entry["count"], entry["value"])
        found.setdefault(entry["kind"], []).append((seconds * 1e3, states.count, number,
                                                    hint_seconds * 1e3))
    every = sorted((item for items in found.values() for item in items), reverse=True)
    print(json.dumps({
        "compiled_packing": packing.COMPILED,
        "positions": len(corpus), "best_moves_differ": wrong,
        "over_100_ms": sum(1 for ms, _, _, _ in every if ms > MOST_MS),
        "rum_10_over_100_ms": sum(1 for _, _, _, ms in every if ms > MOST_MS),
        "kinds": {kind: {"positions": len(items),
                         "median_ms": round(statistics.median(i[0] for i in items), 1),
                         "max_ms": round(max(i[0] for i in items), 1),
                         "rum_10_median_ms": round(statistics.median(i[3] for i in items), 1),
                         "rum_10_max_ms": round(max(i[3] for i in items), 1),
                         "states_median": statistics.median(i[1] for i in items),
                         "states_max": max(i[1] for i in items)}
                  for kind, items in found.items()},
        "slowest": [{"ms": round(ms, 1), "rum_10_ms": round(hint_ms, 1), "states": n,
                     "position": number} for ms, n, number, hint_ms in every[:5]],
    }, indent=1))
    return 1 if wrong else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="self-play games")
    parser.add_argument("--positions", type=int, default=200,
                        help="synthetic mid-game positions without jokers, and as many with "
                             "rack jokers")
    parser.add_argument("--initial", type=int, default=100)
    parser.add_argument("--jokers", type=int, default=100,
                        help="synthetic tables that may hold joker sets")
    parser.add_argument("--kept", type=int, default=60,
                        help="small positions on which the greedy kept sets are checked")
    parser.add_argument("--slowest", type=int, default=5,
                        help="slowest positions listed, with the peak memory of a solve")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=2,
                        help="runs of each solve, the fastest timed (both solvers)")
    parser.add_argument("--corpus", type=Path,
                        help="time ours alone on these positions (bench/rummikub_worst.json: "
                             "the slowest of seeds 1-7) and stop")
    args = parser.parse_args()
    if args.corpus:
        return replay(args.corpus, args.repeat)
    rng = random.Random(args.seed)
    sources = [("self_play", self_played(args.games, args.seed)),
               ("synthetic", synthetic(rng, args.positions, args.initial, args.jokers))]
    theirs = Theirs()
    kinds = {kind: Kind() for kind in KINDS}
    differ: list[dict[str, object]] = []
    anchor_missed: list[dict[str, object]] = []
    compared = 0
    more: Counter[str] = Counter()
    fewer: Counter[str] = Counter()
    slow: list[tuple[float, str, Position]] = []
    strict = Strict()
    for source, found in sources:
        for table, rack, initial in found:
            kind = kind_of(table, rack, initial)
            first = FirstCall()
            with StatesTaken() as states:
                mine, t_mine = timed(partial(solve, table, rack, initial=initial,
                                             fewest_changes=False))
            states_taken = states.count
            with strict:
                mine, t_mine = timed(partial(solve, table, rack, initial=initial,
                                             fewest_changes=False), args.repeat, first)
                full, t_full = timed(partial(solve, table, rack, initial=initial),
                                     args.repeat, first)
            # an initial meld is made of the rack alone, the table untouched (RUM-4), which
            # rummikub-solver's initial mode does not enforce: it is given the rack alone
            other, t_other = timed(partial(theirs.count, [] if initial else table, rack,
                                           initial), args.repeat)
            record = kinds[kind]
            record.ours.append(t_mine)
            record.full.append(t_full)
            record.theirs.append(t_other)
            record.states.append(states_taken)
            record.sources[source] += 1
            slow.append((max(t_mine, t_full), kind, (table, rack, initial)))
            if kind in ("rack_joker", "table_joker_sets") or "J" in rack:
                more[kind] += mine.count > other
                fewer[kind] += mine.count < other
                continue
            compared += 1
            if mine.count == full.count == other:
                continue
            # their initial mode sometimes finds nothing where their own most-tiles solution
            # is a meld of 30 or more: count those apart, with our meld checked by the engine
            if initial and other == 0 and mine.count == full.count:
                tiles, points = theirs.meld_value(rack)
                if tiles == mine.count and points >= 30 and meld_is_legal(rack, mine.table):
                    anchor_missed.append({"rack": rack, "ours": mine.count, "meld": mine.table,
                                          "their_tile_count_points": points})
                    continue
            differ.append({"table": table, "rack": rack, "initial": initial,
                           "ours": mine.count, "ours_rum_10": full.count, "theirs": other})
    slow.sort(key=lambda item: -item[0])
    slowest = [{"ms": round(seconds * 1e3, 1), "kind": kind, "table": table, "rack": rack,
                "initial": initial, "peak_mb": peak_mb(table, rack, initial)}
               for seconds, kind, (table, rack, initial) in slow[:args.slowest]]
    print(json.dumps({
        "compiled_packing": packing.COMPILED,
        "seed": args.seed,
        "games": args.games,
        "kinds": {kind: record.report() for kind, record in kinds.items()},
        "joker_free_compared": compared,
        "maxima_differ": len(differ),
        "initial_missed_by_rummikub_solver": len(anchor_missed),
        "with_jokers": {"ours_more": dict(more), "ours_fewer": dict(fewer)},
        "fewest_changes": kept_exactly(rng, args.kept),
        "strict": {"searches": len(strict.times),
                   "max_ms": round(max(strict.times, default=0) * 1e3, 1)},
        "caches": caches_mb([position for _, _, position in slow[:300]]),
        "slowest": slowest,
        "first_differences": differ[:3],
    }, indent=1))
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
