"""A screen laid out on a braille display: windows, panning, line moves, routing keys.

Each region of a line is translated on its own, so every cell knows its region and the
character it comes from; regions are separated by one blank cell, or none on a line with
``gap=0`` (a grid row: one cell per square). A line longer than the
display is cut into *windows* that never split a region: a region starts in the next window
instead. Only a region longer than a whole window is split, as a last resort; a non-atomic
region (a sentence) is continued at a word break.

Continuation markers sit on the edge cells of a window, a blank cell between each marker and
the text, so a finger never reads the marker as part of a word:
  ``⡄`` (dots 3 7, a bar low on the left)  in the first cell: the line goes on to the left;
  ``⢠`` (dots 6 8, a bar low on the right) in the last cell: the line goes on to the right.
Dots 7 and 8 never occur in six-dot text, so the markers cannot be mistaken for text; a
routing key over a marker pans that way. A marked region (``Region.mark``, an invalid set)
has dots 7 and 8 raised in every cell, never on an edge cell holding a marker. A ``spare``
region (a count of newer messages) is shown only where it fits in the line's last window:
it never costs a window of its own.

A display with several rows shows consecutive lines, all panned to the same window number.
Panning past the end of a line goes on to the first window of the next line (and back), as
screen readers do.

    viewport = Viewport(translator("en-ueb-g1.ctb"), columns=20)
    viewport.show(screen)
    display.write(viewport.rows(), text=viewport.texts())
    hit = viewport.handle(Route(7))     # Hit(...) when cell 7 shows a region, else None
    if hit is not None: act(hit.target)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from brailledev.display.braille import BLANK, Braille, Translator
from brailledev.display.keys import Bottom, Key, LineDown, LineUp, PanLeft, PanRight, Route, Top
from layouts.screen import Line, Region, Screen

LEFT_MARKER = "\u2844"  # dots 3 7
RIGHT_MARKER = "\u28a0"  # dots 6 8
DOTS_78 = 0x40 | 0x80  # dot 7 is bit 6 and dot 8 bit 7 of a Unicode braille cell
# The cells a marker takes at a window's edge: the marker and the blank beside it.
MARKER_CELLS = 2
MIN_COLUMNS, MAX_COLUMNS = 12, 80
# 16 rows: more than any multi-line display sold (a Monarch has 10, a Canute 9).
MIN_ROWS, MAX_ROWS = 1, 16


@dataclass(frozen=True)
class Piece:
    """Cells ``start:stop`` of region ``region`` shown from display column ``column``."""

    region: int
    start: int
    stop: int
    column: int


@dataclass(frozen=True)
class Window:
    """One display row's worth of a line: exactly ``columns`` cells."""

    cells: str
    pieces: tuple[Piece, ...]
    more_left: bool
    more_right: bool
    text: str

    def piece_at(self, column: int) -> tuple[Piece, int] | None:
        """The piece under ``column`` and the cell offset inside its region, or ``None``."""
        for piece in self.pieces:
            if piece.column <= column < piece.column + piece.stop - piece.start:
                return piece, piece.start + column - piece.column
        return None


@dataclass(frozen=True)
class LaidLine:
    """A screen line with each region's braille and its windows for one display width."""

    line: Line
    braille: tuple[Braille, ...]
    windows: tuple[Window, ...]

    def window_of(self, region: int, offset: int = 0) -> int:
        """The window showing cell ``offset`` of region ``region``, else the first window
        showing that region (0 when it has no cells)."""
        first = None
        for number, window in enumerate(self.windows):
            for piece in window.pieces:
                if piece.region == region:
                    if piece.start <= offset < piece.stop:
                        return number
                    first = number if first is None else first
        return first or 0


@dataclass(frozen=True)
class Place:
    """Where a reader is on a line: the line, its number, the region at the window's start,
    and the cell of it shown first (to find the same window again after a change)."""

    key: str
    line: int
    region: int
    item: Region | None
    offset: int


@dataclass(frozen=True)
class Hit:
    """What a routing key landed on: a region of a line, and the character under the key."""

    line_key: str
    line: int
    region: int
    offset: int
    item: Region

    @property
    def target(self) -> Hashable:
        return self.item.target


def check_size(columns: int, rows: int) -> None:
    """Refuse display sizes we do not lay out for (12-80 columns, 1-16 rows)."""
    if not MIN_COLUMNS <= columns <= MAX_COLUMNS or not MIN_ROWS <= rows <= MAX_ROWS:
        raise ValueError(f"display size {columns}x{rows} is outside "
                         f"{MIN_COLUMNS}-{MAX_COLUMNS} columns x {MIN_ROWS}-{MAX_ROWS} rows")


def lay_out_line(line: Line, translator: Translator, columns: int) -> LaidLine:
    """Translate each region of ``line`` (a ``label`` as written, uncontracted) and cut the
    line into windows of ``columns`` cells; ``spare`` regions are left out when they would
    need a window more."""
    braille = tuple(translator.translate(region.text, region.label) for region in line.regions)
    laid = _lay_out(line, braille, columns, spare=True)
    if any(region.spare for region in line.regions):
        without = _lay_out(line, braille, columns, spare=False)
        if len(without.windows) < len(laid.windows):
            return without
    return laid


def _lay_out(line: Line, braille: tuple[Braille, ...], columns: int, spare: bool) -> LaidLine:
    shown = [index for index, cells in enumerate(braille)
             if len(cells) and (spare or not line.regions[index].spare)]
    windows: list[Window] = []
    position = (0, 0)  # (index into shown, cell offset inside that region)
    while position[0] < len(shown) or not windows:
        left = 0 if position == (0, 0) else MARKER_CELLS
        pieces, position = fill_row(line, braille, shown, position, columns, left)
        windows.append(draw_row(line, braille, pieces, columns,
                                more_left=bool(windows), more_right=position[0] < len(shown)))
    return LaidLine(line, braille, tuple(windows))


def fill_row(line: Line, braille: tuple[Braille, ...], shown: list[int],
             position: tuple[int, int], columns: int, left: int, mark: bool = True
             ) -> tuple[list[Piece], tuple[int, int]]:
    """The pieces of a row of ``columns`` cells filled from cell ``left`` with the regions
    ``shown`` of ``line`` from ``position`` (index into ``shown``, cell offset), and where the
    next row starts; ``mark``: keep the last cells for a marker when the rest does not fit."""
    if not shown:
        return [], (0, 0)
    first, offset = position
    gap = line.gap

    def length(number: int) -> int:
        return len(braille[shown[number]].cells)

    # Whether the rest fits, counted only as far as the row (a long line has many rows).
    to_end, number = length(first) - offset, first + 1
    while to_end <= columns - left and number < len(shown):
        to_end, number = to_end + gap + length(number), number + 1
    if to_end <= columns - left:
        pieces, column = [], left
        for number in range(first, len(shown)):
            start = offset if number == first else 0
            pieces.append(Piece(shown[number], start, length(number), column))
            column += length(number) - start + gap
        return pieces, (len(shown), 0)
    room = columns - left - (MARKER_CELLS if mark else 0)  # the marker, its blank
    if length(first) - offset > room:
        take, skip = _cut(line, braille, shown[first], offset, room)
        return [Piece(shown[first], offset, offset + take, left)], \
            _normalise((first, offset + take + skip), length(first))
    pieces = [Piece(shown[first], offset, length(first), left)]
    column = left + length(first) - offset
    number = first + 1
    while number < len(shown) and column + gap + length(number) <= left + room:
        pieces.append(Piece(shown[number], 0, length(number), column + gap))
        column += gap + length(number)
        number += 1
    space = left + room - column - gap
    region = shown[number]
    if not line.regions[region].atomic and space > 0:
        take, skip = _cut(line, braille, region, 0, space, hard=False)
        if take:
            pieces.append(Piece(region, 0, take, column + gap))
            return pieces, _normalise((number, take + skip), length(number))
    return pieces, (number, 0)


def _cut(line: Line, braille: tuple[Braille, ...], region: int, offset: int, room: int,
         hard: bool = True) -> tuple[int, int]:
    """How many cells of ``region`` from ``offset`` fit in ``room``, and blanks to skip.

    A region breaks after a word when it can: a non-atomic one (a sentence) wherever it
    meets the row's end, an atomic one (``Bo 7 cards,``) only when it is longer than a whole
    row (``hard``). A single word longer than ``room`` is cut at ``room`` cells, the one
    split left; otherwise nothing is taken.
    """
    cells = braille[region].cells
    if hard or not line.regions[region].atomic:
        for take in range(min(room, len(cells) - offset - 1), 0, -1):
            if cells[offset + take] == BLANK and cells[offset + take - 1] != BLANK:
                return take, 1
    return (room, 0) if hard else (0, 0)


def _normalise(position: tuple[int, int], length: int) -> tuple[int, int]:
    """The next region's start when ``position`` is past the end of its region (of
    ``length`` cells)."""
    number, offset = position
    return (number + 1, 0) if offset >= length else position


def draw_row(line: Line, braille: tuple[Braille, ...], pieces: list[Piece], columns: int,
             more_left: bool, more_right: bool) -> Window:
    """The cells and print text of ``pieces`` of ``line``, with the markers asked for."""
    cells = [BLANK] * columns
    text = "<" if more_left else ""
    for piece in pieces:
        shown = braille[piece.region].cells[piece.start:piece.stop]
        if line.regions[piece.region].mark:
            shown = "".join(chr(ord(cell) | DOTS_78) for cell in shown)
        cells[piece.column:piece.column + piece.stop - piece.start] = shown
        # Print may need more room than its cells (contractions): shift right, never overlap.
        start = max(piece.column, len(text) + line.gap if text else 0)
        text = text.ljust(start) + _print_of(line.regions[piece.region].text,
                                             braille[piece.region], piece)
    if more_left:
        cells[0] = LEFT_MARKER
    if more_right:
        cells[-1] = RIGHT_MARKER
        text = text.ljust(max(columns - 1, len(text) + 1)) + ">"
    return Window("".join(cells), tuple(pieces), more_left, more_right, text.rstrip())


def _print_of(text: str, braille: Braille, piece: Piece) -> str:
    """The characters of ``text`` behind cells ``piece.start:piece.stop``."""
    first = braille.to_text[piece.start]
    last = (braille.to_text[piece.stop] if piece.stop < len(braille) else len(text))
    return text[first:max(last, first + 1)]


class Viewport:
    """Where the reader is on a screen: the top line shown and the window number.

    ``show`` lays out a new screen and keeps the reader's place (same line, same region or
    target when they still exist); ``handle`` moves or resolves a routing key.
    """

    def __init__(self, translator: Translator, columns: int, rows: int = 1) -> None:
        check_size(columns, rows)
        self.translator = translator
        self.columns = columns
        self.display_rows = rows
        self.lines: tuple[LaidLine, ...] = ()
        self.top = 0
        self.window = 0

    def resize(self, columns: int, rows: int = 1) -> None:
        """The display changed size: lay the same screen out again, keeping the place."""
        check_size(columns, rows)
        if (columns, rows) != (self.columns, self.display_rows):
            self.columns, self.display_rows = columns, rows
            if self.lines:
                self.show(Screen(tuple(laid.line for laid in self.lines)))

    def show(self, screen: Screen) -> None:
        """Lay out ``screen``, staying on the same line and region when possible."""
        place = self.place()
        self.lines = tuple(lay_out_line(line, self.translator, self.columns)
                           for line in screen.lines)
        if place is None or not self.lines:
            self.top, self.window = 0, 0
            return
        keys = [laid.line.key for laid in self.lines]
        number = keys.index(place.key) if place.key in keys else \
            min(place.line, len(self.lines) - 1)
        self._settle(number, place)

    def restore(self, place: Place) -> None:
        """Go back to ``place`` (its line, at the window showing the same region), as the
        reader left it; ``KeyError`` when its line is gone."""
        keys = [laid.line.key for laid in self.lines]
        if place.key not in keys:
            raise KeyError(place.key)
        self._settle(keys.index(place.key), place)

    def _settle(self, number: int, place: Place) -> None:
        laid = self.lines[number]
        self.top = min(number, self._last_top())
        same = _same_region(laid.line, place.region, place.item)
        # a long region spans windows: stay on the window that showed the same part of it
        regions = laid.line.regions
        kept = place.offset if same < len(regions) and regions[same] == place.item else 0
        self.window = laid.window_of(same, kept)

    def goto(self, line_key: str, region: int = 0) -> None:
        """Show line ``line_key`` on the top row, at the window of region ``region``.

        ``viewport.goto("choices")`` when a choice is due; ``KeyError`` for an unknown line.
        """
        keys = [laid.line.key for laid in self.lines]
        if line_key not in keys:
            raise KeyError(line_key)
        number = keys.index(line_key)
        self.top = min(number, self._last_top())
        self.window = self.lines[number].window_of(region)

    @property
    def line_key(self) -> str | None:
        """The key of the line on the top row."""
        return self.lines[self.top].line.key if self.lines else None

    def rows(self) -> list[str]:
        """The cells of every display row, each exactly ``columns`` long."""
        return [BLANK * self.columns if window is None else window.cells
                for window in self._shown()]

    def texts(self) -> list[str]:
        """The print text under each display row (for sighted helpers and the terminal)."""
        return ["" if window is None else window.text for window in self._shown()]

    def route(self, cell: int, row: int = 0) -> Hit | None:
        """The region under routing key ``cell`` of display row ``row``, if any."""
        window = self._window_at(row)
        if window is None or not 0 <= cell < self.columns:
            return None
        found = window.piece_at(cell)
        if found is None:
            return None
        piece, offset = found
        number = self.top + row
        laid = self.lines[number]
        braille = laid.braille[piece.region]
        return Hit(laid.line.key, number, piece.region, braille.to_text[offset],
                   laid.line.regions[piece.region])

    def reaches(self, cell: int, row: int = 0) -> tuple[str | None, Hashable]:
        """What routing key ``cell`` of display ``row`` reaches: the key of the line there
        (``None``: no line) and ``"<"`` or ``">"`` for a marker, else the target of the
        region under it (``None``: a blank cell): ``viewport.reaches(7) == ("hand", ...)``."""
        window = self._window_at(row)
        if window is None:
            return None, None
        line = self.lines[self.top + row].line.key
        if window.more_left and cell == 0:
            return line, "<"
        if window.more_right and cell == self.columns - 1:
            return line, ">"
        hit = self.route(cell, row)
        return line, None if hit is None else hit.target

    def handle(self, key: Key) -> Hit | None:
        """Move for panning and line keys (and routing over a marker); resolve other routes.

        Returns the ``Hit`` of a routing key over a region, else ``None`` (after moving).
        """
        if isinstance(key, Route):
            window = self._window_at(key.row)
            if window is not None and window.more_left and key.cell == 0:
                self.pan_left()
            elif window is not None and window.more_right and key.cell == self.columns - 1:
                self.pan_right()
            else:
                return self.route(key.cell, key.row)
        elif isinstance(key, PanLeft):
            self.pan_left()
        elif isinstance(key, PanRight):
            self.pan_right()
        elif isinstance(key, LineUp):
            self.line_up()
        elif isinstance(key, LineDown):
            self.line_down()
        elif isinstance(key, Top):
            self.top, self.window = 0, 0
        elif isinstance(key, Bottom):
            self.top, self.window = self._last_top(), 0
        return None

    def pan_right(self) -> bool:
        """Next window; past the last one, the next line. ``False`` at the very end."""
        if self.window + 1 < self._windows_shown():
            self.window += 1
            return True
        if self.top < self._last_top():
            # Pages of rows start at multiples of the row count, the last one at the bottom.
            page = (self.top // self.display_rows + 1) * self.display_rows
            self.top, self.window = min(page, self._last_top()), 0
            return True
        return False

    def pan_left(self) -> bool:
        """Previous window; before the first one, the last window of the previous line."""
        if self.window > 0:
            self.window -= 1
            return True
        if self.top > 0:
            self.top = (self.top - 1) // self.display_rows * self.display_rows
            self.window = self._windows_shown() - 1
            return True
        return False

    def line_down(self) -> bool:
        if self.top < self._last_top():
            self.top, self.window = self.top + 1, 0
            return True
        return False

    def line_up(self) -> bool:
        if self.top > 0:
            self.top, self.window = self.top - 1, 0
            return True
        return False

    def _last_top(self) -> int:
        return max(0, len(self.lines) - self.display_rows)

    def _shown(self) -> list[Window | None]:
        return [self._window_at(row) for row in range(self.display_rows)]

    def _window_at(self, row: int) -> Window | None:
        number = self.top + row
        if not 0 <= row < self.display_rows or number >= len(self.lines):
            return None
        windows = self.lines[number].windows
        return windows[self.window] if self.window < len(windows) else None

    def _windows_shown(self) -> int:
        shown = self.lines[self.top:self.top + self.display_rows]
        return max((len(laid.windows) for laid in shown), default=1)

    def place(self) -> Place | None:
        """Where the reader is now (``None`` on an empty screen)."""
        if not self.lines:
            return None
        laid = self.lines[self.top]
        window = laid.windows[min(self.window, len(laid.windows) - 1)]
        region = window.pieces[0].region if window.pieces else 0
        offset = window.pieces[0].start if window.pieces else 0
        item = laid.line.regions[region] if laid.line.regions else None
        return Place(laid.line.key, self.top, region, item, offset)


def _same_region(line: Line, old_index: int, old: Region | None) -> int:
    """The region of ``line`` that best continues ``old``: same target, same text, same place."""
    if not line.regions:
        return 0
    by_distance = sorted(range(len(line.regions)), key=lambda index: abs(index - old_index))
    if old is not None:
        if old.target is not None:
            for index in by_distance:
                if line.regions[index].target == old.target:
                    return index
        for index in by_distance:
            if line.regions[index].text == old.text:
                return index
    return min(old_index, len(line.regions) - 1)
