"""Computer opponents for Domino 10-11-12; each sees only its seat's view.

    bot = HeuristicBot(seed=3)
    move = bot.choose(game.view(seat), game.legal_moves(seat))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from games.core import Bot
from games.domino.game import DominoView
from games.domino.grid import (
    Grid,
    Move,
    Option,
    Place,
    Rules,
    Square,
    opening_options,
    placements,
)
from games.domino.pad import ScorePad


class RandomBot:
    """Any legal placement, uniformly."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: DominoView, legal: Sequence[Move]) -> Move | None:
        return self.rng.choice(legal) if legal else None


def pad_gain(pad: ScorePad, option: Option, rules: Rules) -> int:
    """What ``option`` adds to ``pad`` as the paper sheet is filled (full columns take nothing,
    a row completed earns its bonus)."""
    per_value: dict[int, int] = {}
    for value in option.lines:
        per_value[value] = per_value.get(value, 0) + rules.line_points[value]
    after, _ = pad.record(per_value, option.super_bonus > 0)
    return after.total() - pad.total()


def _run(grid: Grid, x: int, y: int, dx: int, dy: int) -> tuple[int, int]:
    total = length = 0
    x, y = x + dx, y + dy
    while (x, y) in grid:
        total += grid[(x, y)]
        length += 1
        x, y = x + dx, y + dy
    return total, length


def opening_left(grid: Grid, squares: Sequence[Square], rules: Rules) -> int:
    """The most points a single half laid next to ``squares`` could score the next player:
    for each free square beside them or at the end of their lines, the best half 1-6."""
    free: set[Square] = set()
    for x, y in squares:
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            _, length = _run(grid, x, y, dx, dy)
            end = (x + dx * (length + 1), y + dy * (length + 1))
            free.add(end)
    worst = 0
    points = rules.line_points
    for x, y in free:
        left, l_len = _run(grid, x, y, -1, 0)
        right, r_len = _run(grid, x, y, 1, 0)
        up, u_len = _run(grid, x, y, 0, -1)
        down, d_len = _run(grid, x, y, 0, 1)
        row = left + right if l_len + r_len else None
        col = up + down if u_len + d_len else None
        for half in range(1, 7):
            got = 0
            if row is not None:
                got += points.get(row + half, 0)
            if col is not None:
                got += points.get(col + half, 0)
            worst = max(worst, got)
    return worst


class HeuristicBot:
    """Points the sheet takes now (row bonuses, super bonuses, full columns included), minus
    what the placement leaves open to the next player, among the best few by points."""

    def __init__(self, seed: int, caution: float = 0.6, shortlist: int = 12) -> None:
        self.rng = random.Random(seed)
        self.caution = caution
        self.shortlist = shortlist

    def choose(self, view: DominoView, legal: Sequence[Move]) -> Move | None:
        if not legal:
            return None
        options = self._options(view, legal)
        pad = view.pads[view.seat]
        ranked = sorted(((pad_gain(pad, o, view.rules) + self.rng.random() * 0.01, o)
                         for o in options), key=lambda pair: -pair[0])
        best: tuple[float, Move] | None = None
        for gain, option in ranked[: self.shortlist]:
            move = option.move
            places = (move.first, move.second) if not isinstance(move, Place) else (move,)
            grid = dict(view.grid)
            for place in places:
                grid.update(place.cells())
            squares = [s for place in places for s in place.squares]
            value = gain - self.caution * opening_left(grid, squares, view.rules)
            if best is None or value > best[0]:
                best = (value, move)
        return None if best is None else best[1]

    @staticmethod
    def _options(view: DominoView, legal: Sequence[Move]) -> list[Option]:
        if view.opening or not view.grid:
            return opening_options(view.hand, view.rules)
        return placements(view.grid, view.hand, view.rules)


BOTS: dict[str, Callable[[int], Bot[DominoView, Move]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}
