"""The score pad of Domino 10-11-12, filled exactly as the paper one (DOM-8, DOM-9, DOM-10).

One sheet per player for the whole game: a column per scoring line value (``10``, ``11``,
``12``), a ``bonus`` column and a ``total`` column, ``rows`` rows. A turn's points for lines of
one value go, summed, into the next free box of that value's column, top to bottom; a row
whose value boxes are all filled earns the bonus printed for it; a super bonus is written in
the ``total`` column from the bottom up. A full column takes nothing more.

    pad = ScorePad.blank(values=(10, 11, 12), row_bonus=(1,) * 20, super_value=6)
    pad, entry = pad.record({12: 10}, super_bonus=False)   # two 12s: 10 in box 1 of column 12
    pad, entry = pad.score((11, 12), {10: 1, 11: 3, 12: 5}, super_bonus=False)  # 3 and 5
    pad.total()                                             # 18, the Grand Total (DOM-10)
    turn_points([10, 11, 12], {10: 1, 11: 3, 12: 5}, 6)     # ({10: 1, 11: 3, 12: 5}, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


def turn_points(lines: Sequence[int], line_points: Mapping[int, int], super_bonus: int,
                opening: bool = False) -> tuple[dict[int, int], bool]:
    """What one turn's scoring lines write on the pad: the points by line value (several
    lines of one value summed, DOM-7, DOM-8) and whether the turn earns the super bonus
    (DOM-9: 10, 11 and 12 at once, or three 12s, never on a round's two-card opening):
    ``turn_points([12, 12], {10: 1, 11: 3, 12: 5}, 6) == ({12: 10}, False)``."""
    points: dict[int, int] = {}
    for value in lines:
        if value in line_points:
            points[value] = points.get(value, 0) + line_points[value]
    top = max(line_points)
    earned = super_bonus > 0 and not opening and (
        set(line_points) <= set(lines) or list(lines).count(top) >= 3)
    return points, earned


@dataclass(frozen=True)
class PadEntry:
    """What one turn wrote: ``boxes`` as ``(value, row, points)``, row bonuses earned as
    ``(row, bonus)``, and the row of the total column that took a super bonus (or ``None``).
    Rows count from 0 at the top. ``lost`` lists values whose full column took nothing."""

    boxes: tuple[tuple[int, int, int], ...]
    row_bonuses: tuple[tuple[int, int], ...]
    super_row: int | None
    lost: tuple[int, ...] = ()
    super_value: int = 0

    @property
    def points(self) -> int:
        """Points this turn added to the sheet."""
        return sum(p for _, _, p in self.boxes) + sum(b for _, b in self.row_bonuses) + (
            0 if self.super_row is None else self.super_value)


@dataclass(frozen=True)
class ScorePad:
    """One player's sheet. ``columns[i]`` holds the filled boxes of the column for
    ``values[i]``, top down; ``supers`` the super bonuses written bottom-up."""

    values: tuple[int, ...]
    row_bonus: tuple[int, ...]
    super_value: int
    columns: tuple[tuple[int, ...], ...]
    supers: tuple[int, ...] = ()

    @classmethod
    def blank(cls, values: tuple[int, ...], row_bonus: tuple[int, ...],
              super_value: int) -> ScorePad:
        return cls(values, row_bonus, super_value, tuple(() for _ in values))

    @property
    def rows(self) -> int:
        return len(self.row_bonus)

    def column(self, value: int) -> tuple[int, ...]:
        """The filled boxes of the column of line ``value``, top down."""
        return self.columns[self.values.index(value)]

    def complete_rows(self) -> int:
        """How many rows from the top have every value box filled (they earned their bonus)."""
        return min(len(boxes) for boxes in self.columns) if self.columns else 0

    def bonuses(self) -> tuple[int, ...]:
        """The row bonuses earned, top down (the ``bonus`` column)."""
        return self.row_bonus[: self.complete_rows()]

    def super_rows(self) -> tuple[int, ...]:
        """Rows of the ``total`` column holding a super bonus, in the order written."""
        return tuple(self.rows - 1 - i for i in range(len(self.supers)))

    def total(self) -> int:
        """DOM-10: all boxes, row bonuses and super bonuses."""
        return (sum(sum(boxes) for boxes in self.columns) + sum(self.bonuses())
                + sum(self.supers))

    def record(self, points: Mapping[int, int], super_bonus: bool) -> tuple[ScorePad, PadEntry]:
        """Write one turn: ``points`` maps a line value to the points of that turn's lines of
        that value (already summed); ``super_bonus`` whether the turn earned one."""
        columns = list(self.columns)
        boxes: list[tuple[int, int, int]] = []
        lost: list[int] = []
        for index, value in enumerate(self.values):
            gained = points.get(value, 0)
            if gained <= 0:
                continue
            row = len(columns[index])
            if row >= self.rows:
                lost.append(value)
                continue
            columns[index] = (*columns[index], gained)
            boxes.append((value, row, gained))
        before = self.complete_rows()
        supers = self.supers
        super_row = None
        if super_bonus and len(supers) < self.rows:
            super_row = self.rows - 1 - len(supers)
            supers = (*supers, self.super_value)
        pad = ScorePad(self.values, self.row_bonus, self.super_value, tuple(columns), supers)
        earned = tuple((row, self.row_bonus[row]) for row in range(before, pad.complete_rows()))
        return pad, PadEntry(tuple(boxes), earned, super_row, tuple(lost), self.super_value)

    def score(self, lines: Iterable[int], line_points: Mapping[int, int],
              super_bonus: bool) -> tuple[ScorePad, PadEntry]:
        """Write one turn from the values of its scoring lines (DOM-7): the lines of one value
        summed into one box of its column. What the engine writes, and what a move is worth
        to this sheet (``entry.points``) when players and bots rank moves:
        ``pad.score((12, 12), {10: 1, 11: 3, 12: 5}, False)`` writes 10 in column 12."""
        return self.record(turn_points(tuple(lines), line_points, 0)[0], super_bonus)

    def to_dict(self) -> dict[str, Any]:
        return {"columns": [list(boxes) for boxes in self.columns], "supers": list(self.supers)}

    def restored(self, saved: Mapping[str, Any]) -> ScorePad:
        """This blank sheet filled as ``saved`` (from :meth:`to_dict`)."""
        return ScorePad(self.values, self.row_bonus, self.super_value,
                        tuple(tuple(int(p) for p in boxes) for boxes in saved["columns"]),
                        tuple(int(p) for p in saved["supers"]))
