"""The table of Domino 10-11-12: an unbounded square grid of half-cards, its lines, and every
placement a card may take on it (DOM-2, DOM-3, DOM-7).

Squares are ``(x, y)`` pairs in absolute table coordinates: ``x`` grows to the right, ``y``
downwards; the opening's first half lies wherever the opening puts it. People read squares by
their names (:func:`square_name`, in :mod:`games.domino.notation` with the cards and moves),
fixed for the whole round: the round's first card's first square is ``c3``.

    grid = {(0, 0): 6, (1, 0): 4}
    opts = placements(grid, [(1, 0)], Rules(12, {10: 1, 11: 3, 12: 5}, 6))
    square_name((0, 0), (2, 0))      # 'e3'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.domino.notation import (
    MARGIN,
    Card,
    Grid,
    Move,
    Opening,
    Place,
    Square,
    anchor_of,
    card,
    card_text,
    column_index,
    column_name,
    column_of,
    parse_square,
    row_of,
    square_key,
    square_name,
)
from games.domino.pad import turn_points

__all__ = [
    "MARGIN", "Card", "Grid", "Move", "Opening", "Option", "Place", "Rules", "Slot", "Square",
    "anchor_of", "best_points", "bounds", "card", "card_text", "column_index", "column_name",
    "column_of", "joined_at_number", "lines_through", "opening_options", "parse_square",
    "placements", "row_of", "score_lines", "slots", "square_key", "square_name",
    "super_bonus_of", "touches",
]

_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True, slots=True)
class Rules:
    """The numbers placement and scoring depend on: no line above ``max_line``; a line worth
    a key of ``line_points`` scores its value; ``super_bonus`` for 10+11+12 or three 12s."""

    max_line: int
    line_points: Mapping[int, int]
    super_bonus: int


@dataclass(frozen=True, slots=True)
class Option:
    """A legal move with what it makes: the values of the scoring lines through its cards
    (``lines``, ascending), their points plus any super bonus (``points``), and ``super_bonus``
    (the bonus points included, 0 when none)."""

    move: Move
    lines: tuple[int, ...]
    points: int
    super_bonus: int


def _run(grid: Grid, x: int, y: int, dx: int, dy: int) -> tuple[int, int]:
    """Sum and length of the occupied squares after ``(x, y)`` in direction ``(dx, dy)``."""
    total = length = 0
    x += dx
    y += dy
    while (x, y) in grid:
        total += grid[(x, y)]
        length += 1
        x += dx
        y += dy
    return total, length


def touches(grid: Grid, squares: Iterable[Square]) -> bool:
    """Whether any of ``squares`` shares an edge with an occupied square."""
    return any((x + dx, y + dy) in grid for x, y in squares for dx, dy in _NEIGHBOURS)


def lines_through(grid: Grid, squares: Iterable[Square]) -> list[int]:
    """Values of every line (2+ occupied squares in a row or column, DOM-2) that contains one
    of ``squares`` on ``grid`` (which already holds them), each line once."""
    seen: set[tuple[Square, bool]] = set()
    values: list[int] = []
    for x, y in squares:
        for dx, dy in ((1, 0), (0, 1)):
            back_sum, back_len = _run(grid, x, y, -dx, -dy)
            on_sum, on_len = _run(grid, x, y, dx, dy)
            if back_len + on_len == 0:
                continue
            start = ((x - dx * back_len, y - dy * back_len), dx == 0)
            if start in seen:
                continue
            seen.add(start)
            values.append(back_sum + grid[(x, y)] + on_sum)
    return values


def super_bonus_of(values: Sequence[int], rules: Rules) -> int:
    """DOM-9: the super bonus a turn's scoring lines earn (10, 11 and 12 at once, or three
    12s), else 0. ``super_bonus_of([10, 11, 12], rules) == 6``."""
    return rules.super_bonus if turn_points(values, rules.line_points,
                                            rules.super_bonus)[1] else 0


def score_lines(values: Iterable[int], rules: Rules, opening: bool = False
                ) -> tuple[tuple[int, ...], int, int]:
    """The scoring lines among ``values`` (ascending), their points and the super bonus; the
    round's two-card ``opening`` never earns one (DOM-9: it is one card that earns it)."""
    scoring = tuple(sorted(v for v in values if v in rules.line_points))
    bonus = 0 if opening else super_bonus_of(scoring, rules)
    return scoring, sum(rules.line_points[v] for v in scoring) + bonus, bonus


# A free position for a card: (x, y, vertical) and the sums around it, computed once per table
# and shared by every card: (x, y, vertical, along, across1, has1, across2, has2).
Slot = tuple[int, int, bool, int, int, bool, int, bool]


def slots(grid: Grid) -> list[Slot]:
    """Every position where a card covers two free squares and touches the layout, with the
    sums of the line along it and the lines across each of its squares (empty table: none)."""
    candidates: set[tuple[int, int, bool]] = set()
    for x, y in grid:
        for dx, dy in _NEIGHBOURS:
            nx, ny = x + dx, y + dy
            if (nx, ny) in grid:
                continue
            candidates.update(((nx - 1, ny, False), (nx, ny, False),
                               (nx, ny - 1, True), (nx, ny, True)))
    found: list[Slot] = []
    for x, y, vertical in candidates:
        x2, y2 = (x, y + 1) if vertical else (x + 1, y)
        if (x, y) in grid or (x2, y2) in grid:
            continue
        ax, ay = (0, 1) if vertical else (1, 0)  # along the card
        cx, cy = ay, ax  # across it
        before, _ = _run(grid, x, y, -ax, -ay)
        after, _ = _run(grid, x2, y2, ax, ay)
        a1, l1 = _run(grid, x, y, -cx, -cy)
        b1, m1 = _run(grid, x, y, cx, cy)
        a2, l2 = _run(grid, x2, y2, -cx, -cy)
        b2, m2 = _run(grid, x2, y2, cx, cy)
        found.append((x, y, vertical, before + after, a1 + b1, l1 + m1 > 0,
                      a2 + b2, l2 + m2 > 0))
    found.sort()
    return found


def placements(grid: Grid, cards: Iterable[Card], rules: Rules,
               table_slots: Sequence[Slot] | None = None) -> list[Option]:
    """Every legal placement (DOM-3) of each distinct card of ``cards`` on a non-empty
    ``grid``, either end first, with the points it scores (DOM-7, DOM-9)."""
    if table_slots is None:
        table_slots = slots(grid)
    limit = rules.max_line
    points = rules.line_points
    found: list[Option] = []
    halves: list[tuple[int, int]] = []
    for c in sorted(set(cards), reverse=True):
        halves.append(c)
        if c[0] != c[1]:
            halves.append((c[1], c[0]))
    for x, y, vertical, along, across1, has1, across2, has2 in table_slots:
        for u, v in halves:
            main = along + u + v
            if main > limit:
                continue
            values = [main]
            if has1:
                one = across1 + u
                if one > limit:
                    continue
                values.append(one)
            if has2:
                two = across2 + v
                if two > limit:
                    continue
                values.append(two)
            scoring = tuple(sorted(value for value in values if value in points))
            bonus = super_bonus_of(scoring, rules) if len(scoring) > 1 else 0
            found.append(Option(Place(u, v, x, y, vertical), scoring,
                                 sum(points[value] for value in scoring) + bonus, bonus))
    return found


def bounds(grid: Grid) -> tuple[int, int, int, int]:
    """The squares worth showing: ``(x0, y0, x1, y1)``, the layout with a margin of
    ``MARGIN`` squares all round (inclusive); around ``(0, 0)`` on an empty table."""
    if not grid:
        return -MARGIN, -MARGIN, MARGIN, MARGIN
    xs, ys = [x for x, _ in grid], [y for _, y in grid]
    return min(xs) - MARGIN, min(ys) - MARGIN, max(xs) + MARGIN, max(ys) + MARGIN


def joined_at_number(grid: Grid, first: Place, second: Place) -> bool:
    """DOM-5: whether the two opening cards share an edge where both halves show pips."""
    return any(grid.get((x + dx, y + dy), 0) > 0 and pips > 0
               for (x, y), pips in second.cells() for dx, dy in _NEIGHBOURS
               if (x + dx, y + dy) in first.squares)


def opening_options(cards: Sequence[Card], rules: Rules) -> list[Option]:
    """Every distinct opening (DOM-5) of two of ``cards`` on an empty table, the first card's
    first half on ``(0, 0)``; layouts equal up to translation are listed once."""
    found: list[Option] = []
    seen: set[frozenset[tuple[int, int, int]]] = set()
    pairs = sorted({(cards[i], cards[j]) if cards[i] >= cards[j] else (cards[j], cards[i])
                    for i in range(len(cards)) for j in range(i + 1, len(cards))}, reverse=True)
    for one, two in pairs:
        if one[0] + one[1] > rules.max_line:
            continue
        for a, b in sorted({one, (one[1], one[0])}, reverse=True):
            for vertical in (False, True):
                first = Place(a, b, 0, 0, vertical)
                base = dict(first.cells())
                # the first card's own line, unless the second card lies along it
                ends = {(0, -1), (0, 2)} if vertical else {(-1, 0), (2, 0)}
                for option in placements(base, [two], rules):
                    second = option.move
                    assert isinstance(second, Place)
                    grid = {**base, **dict(second.cells())}
                    if not joined_at_number(grid, first, second):
                        continue
                    left, top = min(x for x, _ in grid), min(y for _, y in grid)
                    shape = frozenset((x - left, y - top, p) for (x, y), p in grid.items())
                    if shape in seen:
                        continue
                    seen.add(shape)
                    values = list(option.lines)
                    if not ends & set(second.squares) and a + b in rules.line_points:
                        values.append(a + b)
                    scoring, points, bonus = score_lines(values, rules, opening=True)
                    found.append(Option(Opening(first, second), scoring, points, bonus))
    return found


def best_points(grid: Grid, cards: Iterable[Card], rules: Rules) -> dict[Card, int]:
    """The most points each distinct card of ``cards`` could score on ``grid`` now (0 when
    it scores nothing or does not fit), super bonuses left out: what a bot fears of an unseen
    card."""
    limit = rules.max_line
    points = rules.line_points
    best: dict[Card, int] = {}
    halves: list[tuple[Card, int, int]] = []
    for c in set(cards):
        best[c] = 0
        halves.append((c, c[0], c[1]))
        if c[0] != c[1]:
            halves.append((c, c[1], c[0]))
    for _, _, _, along, across1, has1, across2, has2 in slots(grid):
        for c, u, v in halves:
            main = along + u + v
            if main > limit:
                continue
            gained = points.get(main, 0)
            if has1:
                one = across1 + u
                if one > limit:
                    continue
                gained += points.get(one, 0)
            if has2:
                two = across2 + v
                if two > limit:
                    continue
                gained += points.get(two, 0)
            if gained > best[c]:
                best[c] = gained
    return best
