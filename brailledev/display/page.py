"""A board laid out on a multi-line display: bands of rows in cells, pages, routing keys on
every row.

Each band of a :class:`layouts.board.Board` keeps its rows; what does not fit in them is cut
into pages of the band's height, as a line longer than a one-row display is cut into
windows, with the same markers: ``⡄`` in the first cell of a page's first row when pages come
before it, ``⢠`` in the last cell of its last row when more follow (a routing key over a
marker turns that band's page). A ``PACK`` band keeps each line on the row it had while it
fits there, so a line that changes rewrites its own row and no other; a ``GRID`` band shows
its lines one a row under its head, all panned together. The reading band shows the line
it is given (the message line, a refusal, a line with no band of its own).

    page = Page(translator("en-ueb-g1.ctb"), columns=40, rows=9)
    page.show(board, reading=message_line, reading_id="newest")
    display.write(page.rows(), text=page.texts())
    hit = page.route(cell=5, row=3)          # Hit(...) over a region, else None
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from brailledev.display.braille import BLANK, Braille, Translator
from brailledev.display.window import (
    DOTS_78,
    LEFT_MARKER,
    MARKER_CELLS,
    RIGHT_MARKER,
    Hit,
    Piece,
    check_size,
    draw_row,
    fill_row,
    lay_out_line,
)
from layouts.board import FLOW, GRID, PACK, READING, Band, Board
from layouts.screen import Line

# Blank cells between two lines sharing a row of a PACK band.
PACK_GAP = 2
# The most band layouts kept for the next redraws.
REMEMBERED = 64


@dataclass(frozen=True)
class Spot:
    """Cells ``start:stop`` of region ``region`` of line ``line`` shown from ``column``."""

    line: Line
    braille: Braille
    region: int
    start: int
    stop: int
    column: int

    def hit(self, column: int) -> Hit:
        """What a routing key over ``column`` (a cell of this spot) lands on; a page keeps
        no line numbers: the hit's is 0, its line key says which line it is."""
        offset = self.start + column - self.column
        return Hit(self.line.key, 0, self.region, self.braille.to_text[offset],
                   self.line.regions[self.region])


@dataclass(frozen=True)
class Row:
    """One display row of a band: its cells, print text, the regions on it, and whether its
    first and last cells are markers (earlier pages, more pages)."""

    cells: str
    text: str
    spots: tuple[Spot, ...] = ()
    more_left: bool = False
    more_right: bool = False

    @property
    def lines(self) -> frozenset[str]:
        """The keys of the lines this row shows (a part of)."""
        return frozenset(spot.line.key for spot in self.spots)

    def spot_at(self, column: int) -> Spot | None:
        for spot in self.spots:
            if spot.column <= column < spot.column + spot.stop - spot.start:
                return spot
        return None


@dataclass
class _Laid:
    """A band laid out: its pages of rows (and the windows of a GRID band's lines), and the
    page (counted as :meth:`Page.pages` does) where each region of its lines shows."""

    band: Band
    pages: list[list[Row]]
    windows: int = 1
    places: dict[tuple[str, int], int] = field(default_factory=dict)
    # The key of the line each page of a GRID band starts with.
    tops: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.places:
            return
        for number, page in enumerate(self.pages):
            for row in page:
                for spot in row.spots:
                    self.places.setdefault((spot.line.key, spot.region), number)


def _blank_row(columns: int) -> Row:
    return Row(BLANK * columns, "")


def _merge(columns: int, parts: Sequence[tuple[Line, tuple[Braille, ...], list[Piece]]],
           more_left: bool, more_right: bool) -> Row:
    """One row from the pieces of one or several lines (each at its own columns)."""
    cells = [BLANK] * columns
    text = ""
    spots: list[Spot] = []
    for line, braille, pieces in parts:
        drawn = draw_row(line, braille, pieces, columns, more_left=False, more_right=False)
        for piece in pieces:
            width = piece.stop - piece.start
            cells[piece.column:piece.column + width] = \
                drawn.cells[piece.column:piece.column + width]
            spots.append(Spot(line, braille[piece.region], piece.region, piece.start,
                              piece.stop, piece.column))
        if pieces:
            start = max(pieces[0].column, len(text) + PACK_GAP if text else 0)
            text = text.ljust(start) + drawn.text.lstrip()
    if more_left:
        cells[0] = LEFT_MARKER
        text = "<" + text[1:] if text else "<"
    if more_right:
        cells[-1] = RIGHT_MARKER
        text = text.ljust(max(columns - 1, len(text) + 1)) + ">"
    return Row("".join(cells), text.rstrip(), tuple(spots), more_left, more_right)


class Page:
    """A board on a display of ``columns`` x ``rows`` cells; see the module docstring."""

    def __init__(self, translator: Translator, columns: int, rows: int) -> None:
        check_size(columns, rows)
        self.translator = translator
        self.columns = columns
        self.display_rows = rows
        self._laid: list[_Laid] = []
        # Per band name: the page shown, the window of a GRID band, the rows of PACK lines.
        self._page: dict[str, int] = {}
        self._window: dict[str, int] = {}
        self._packed: dict[str, dict[str, int]] = {}
        self._top: dict[str, str] = {}
        # Bands laid out lately, by band and state: a redraw lays out only what changed.
        self._laid_before: dict[tuple[Band, Hashable], _Laid] = {}
        self._reading_id: Hashable = None

    # ---- laying out --------------------------------------------------------------------

    def show(self, board: Board, reading: Line | None = None,
             reading_id: Hashable = None) -> None:
        """Lay ``board`` out; the reading band shows ``reading`` instead of the board's
        message line when given. ``reading_id`` names what it shows: another one starts at
        its first page (a new refusal, another line), the same one stays on its page."""
        if reading_id != self._reading_id:
            self._reading_id = reading_id
            self._page[READING] = 0
        self._laid = []
        for band in board.bands:
            shown = band
            if band.name == READING and reading is not None:
                shown = Band(READING, (reading,), band.rows)
            self._laid.append(self._lay_out(shown))

    def _translate(self, line: Line) -> tuple[Braille, ...]:
        return tuple(self.translator.translate(region.text, region.label)
                     for region in line.regions)

    def _lay_out(self, band: Band) -> _Laid:
        # What a band's layout depends on besides the band: a GRID's window and first
        # line, a PACK's rows of its lines.
        state: Hashable = (self._window.get(band.name), self._top.get(band.name)) \
            if band.kind == GRID else frozenset(self._packed.get(band.name, {}).items())
        laid = self._laid_before.get((band, state))
        if laid is None:
            laid = self._fresh(band)
            if len(self._laid_before) >= REMEMBERED:
                self._laid_before.clear()
            self._laid_before[(band, state)] = laid
        elif band.kind == GRID:
            self._page[band.name] = laid.tops.index(self._top[band.name]) \
                if self._top.get(band.name) in laid.tops else 0
        self._page[band.name] = min(self._page.get(band.name, 0), len(laid.pages) - 1)
        return laid

    def _fresh(self, band: Band) -> _Laid:
        if band.kind == GRID:
            return self._grid(band)
        pages = (self._pack(band) if band.kind == PACK else self._flow(band, False))
        if band.kind == FLOW and len(pages) > 1:
            pages = self._flow(band, True)
        return _Laid(band, pages)

    def _left(self, row: int, rows: int) -> int:
        """The cells a marker of earlier pages takes on band row ``row``."""
        return MARKER_CELLS if row % rows == 0 and row > 0 else 0

    def _width(self, row: int, rows: int) -> int:
        """The cells band row ``row`` fills when the band has pages (a page's last row keeps
        the cells of the marker of more pages)."""
        return self.columns - (MARKER_CELLS if row % rows == rows - 1 else 0)

    def _flow_line(self, line: Line, braille: tuple[Braille, ...], first: int, rows: int,
                   marked: bool) -> list[list[Piece]]:
        """The pieces of ``line`` on band rows from ``first`` on, a row each."""
        shown = [index for index, cells in enumerate(braille)
                 if len(cells) and not line.regions[index].spare]
        laid: list[list[Piece]] = []
        position = (0, 0)
        while True:
            row = first + len(laid)
            left = self._left(row, rows) if marked else 0
            width = self._width(row, rows) if marked else self.columns
            pieces, position = fill_row(line, braille, shown, position, width, left,
                                        mark=False)
            laid.append(pieces)
            if not shown or position[0] >= len(shown):
                break
        spare = [index for index, region in enumerate(line.regions)
                 if region.spare and len(braille[index])]
        last = laid[-1]
        end = last[-1].column + last[-1].stop - last[-1].start if last else 0
        row = first + len(laid) - 1
        for index in spare:  # a count of newer messages, only where it fits
            if end + line.gap + len(braille[index]) <= \
                    (self._width(row, rows) if marked else self.columns):
                last.append(Piece(index, 0, len(braille[index]), end + line.gap))
                end += line.gap + len(braille[index])
        return laid

    def _flow(self, band: Band, marked: bool) -> list[list[Row]]:
        """Each line from a new row, flowed on; pages of the band's rows (``marked``: the
        cells of the page markers kept free)."""
        flat: list[tuple[Line, tuple[Braille, ...], list[Piece]]] = []
        for line in band.lines:
            braille = self._translate(line)
            for pieces in self._flow_line(line, braille, len(flat), band.rows, marked):
                flat.append((line, braille, pieces))
        return self._paged([[part] for part in flat], band.rows)

    def _paged(self, flat: list[list[tuple[Line, tuple[Braille, ...], list[Piece]]]],
               rows: int) -> list[list[Row]]:
        """Rows of parts cut into pages of ``rows``, with their markers, blank rows after."""
        count = max(1, -(-len(flat) // rows))
        pages: list[list[Row]] = []
        for number in range(count):
            page = []
            for offset in range(rows):
                index = number * rows + offset
                if index >= len(flat):
                    page.append(_blank_row(self.columns))
                    continue
                page.append(_merge(self.columns, flat[index],
                                   more_left=number > 0 and offset == 0,
                                   more_right=number < count - 1 and offset == rows - 1))
            pages.append(page)
        return pages

    def _pack(self, band: Band) -> list[list[Row]]:
        """Lines several to a row, each kept on its row while it fits (see the module
        docstring); a line wider than a row takes rows of its own."""
        rows = band.rows
        kept = self._packed.get(band.name, {})
        order = {line.key: index for index, line in enumerate(band.lines)}
        braille = {line.key: self._translate(line) for line in band.lines}
        width = {line.key: sum(len(cells) for cells in braille[line.key])
                 + line.gap * max(0, sum(1 for cells in braille[line.key] if len(cells)) - 1)
                 for line in band.lines}
        slots: list[list[Line]] = []  # a row's lines, or a long line's rows (its first)
        long_rows: dict[int, int] = {}  # first slot of a long line -> its row count

        def room(slot: int) -> int:
            return self._width(slot, rows) - self._left(slot, rows)

        def used(slot: int) -> int:
            lines = slots[slot]
            return sum(width[line.key] for line in lines) + PACK_GAP * max(0, len(lines) - 1)

        def free(slot: int, line: Line) -> bool:
            if slot in long_rows or any(slot in range(first, first + count)
                                        for first, count in long_rows.items()):
                return False
            while len(slots) <= slot:
                slots.append([])
            gap = PACK_GAP if slots[slot] else 0
            return used(slot) + gap + width[line.key] <= room(slot)

        placed: dict[str, int] = {}
        waiting = []
        for line in band.lines:
            slot = kept.get(line.key)
            if slot is not None and width[line.key] <= room(slot) and free(slot, line):
                slots[slot].append(line)
                placed[line.key] = slot
            else:
                waiting.append(line)
        narrowest = min(room(slot) for slot in range(rows + 1))
        for line in waiting:
            if width[line.key] > narrowest:
                flowed = self._flow_line(line, braille[line.key], len(slots), rows, True)
                long_rows[len(slots)] = len(flowed)
                placed[line.key] = len(slots)
                slots.extend([line] for _ in flowed)
                continue
            slot = next(slot for slot in range(len(slots) + 1) if free(slot, line))
            slots[slot].append(line)
            placed[line.key] = slot
        self._packed[band.name] = placed
        flat: list[list[tuple[Line, tuple[Braille, ...], list[Piece]]]] = []
        index = 0
        while index < len(slots):
            if index in long_rows:
                line = slots[index][0]
                flowed = self._flow_line(line, braille[line.key], index, rows, True)
                flat += [[(line, braille[line.key], pieces)] for pieces in flowed]
                index += len(flowed)
                continue
            parts = []
            column = self._left(index, rows)
            for line in sorted(slots[index], key=lambda each: order[each.key]):
                shown = [number for number, cells in enumerate(braille[line.key]) if len(cells)]
                pieces, _ = fill_row(line, braille[line.key], shown, (0, 0), self.columns,
                                     column, mark=False)
                parts.append((line, braille[line.key], pieces))
                column += width[line.key] + PACK_GAP
            flat.append(parts)
            index += 1
        while flat and not flat[-1]:
            flat.pop()
        return self._paged(flat, rows)

    def _grid(self, band: Band) -> _Laid:
        """The head and the lines, one a row, each cut into windows at the same cells. The
        page shown starts at the line it started at before (a line added above it moves
        nothing), the others a page's rows apart from it."""
        with_head = band.head is not None and band.rows > 1
        lines = ((band.head,) if band.head is not None and with_head else ()) + band.lines
        grid = []
        for line in lines:
            laid = lay_out_line(line, self.translator, self.columns)
            grid.append((line, laid.braille, tuple(window.pieces for window in laid.windows)))
        windows = max((len(pieces) for _, _, pieces in grid), default=1)
        self._window[band.name] = min(self._window.get(band.name, 0), windows - 1)
        window = self._window[band.name]
        head = grid[:1] if with_head else []
        body = grid[len(head):]
        per_page = band.rows - len(head)
        keys = [line.key for line, _, _ in body]
        top = self._top.get(band.name)
        first = keys.index(top) if top in keys else 0
        if keys:
            self._top[band.name] = keys[first]
        before = range(first - per_page, -per_page, -per_page)  # pages above, a page apart
        starts = [max(start, 0) for start in reversed(before)]
        starts += range(first, max(len(body), 1), per_page)
        self._page[band.name] = starts.index(first)
        places = {(line.key, piece.region): page * windows + shown
                  for number, (line, _, windowed) in enumerate(body)
                  for page in [max(index for index, start in enumerate(starts) if start <= number)]
                  for shown, pieces in enumerate(windowed) for piece in pieces}
        pages = []
        for start in starts:
            page = [self._grid_row(each, window, windows) for each in head]
            page += [self._grid_row(each, window, windows) for each in body[start:start + per_page]]
            page += [_blank_row(self.columns)] * (band.rows - len(page))
            pages.append(page)
        return _Laid(band, pages, windows, places, [keys[start] if keys else ""
                                                    for start in starts])

    def _grid_row(self, laid: tuple[Line, tuple[Braille, ...], tuple[Sequence[Piece], ...]],
                  window: int, windows: int) -> Row:
        line, braille, pieces = laid
        shown = list(pieces[window]) if window < len(pieces) else []
        return _merge(self.columns, [(line, braille, shown)], more_left=window > 0,
                      more_right=window < windows - 1)

    # ---- what the display shows --------------------------------------------------------

    def _shown(self) -> list[tuple[int, Row]]:
        """Every display row with the index of its band (-1 below the last band)."""
        shown: list[tuple[int, Row]] = []
        for index, laid in enumerate(self._laid):
            page = laid.pages[self._page.get(laid.band.name, 0)]
            shown += [(index, row) for row in page]
        shown += [(-1, _blank_row(self.columns))] * (self.display_rows - len(shown))
        return shown[:self.display_rows]

    def rows(self, picked: tuple[int, int] | None = None) -> list[str]:
        """The cells of every display row; ``picked`` (row, spot) has its dots 7 and 8 the
        other way round, so a finger finds the item a row key or Forward picked."""
        rows = [row.cells for _, row in self._shown()]
        if picked is not None:
            number, index = picked
            spot = self._shown()[number][1].spots[index]
            cells = list(rows[number])
            for column in range(spot.column, spot.column + spot.stop - spot.start):
                cells[column] = chr(ord(cells[column]) ^ DOTS_78)
            rows[number] = "".join(cells)
        return rows

    def shown_rows(self) -> tuple[tuple[str | None, Row], ...]:
        """Every display row with the name of its band (``None`` below the last band): what
        a routing key meets there, kept whole however the page changes after."""
        return tuple((self._laid[index].band.name if index >= 0 else None, row)
                     for index, row in self._shown())

    def texts(self) -> list[str]:
        """The print text under each display row."""
        return [row.text for _, row in self._shown()]

    def row_lines(self) -> list[frozenset[str]]:
        """The keys of the lines each display row shows."""
        return [row.lines for _, row in self._shown()]

    def band_at(self, row: int) -> Band | None:
        """The band display row ``row`` belongs to."""
        index = self._shown()[row][0] if 0 <= row < self.display_rows else -1
        return self._laid[index].band if index >= 0 else None

    def first_row(self, name: str) -> int | None:
        """The display row where band ``name`` starts (``None``: no such band)."""
        row = 0
        for laid in self._laid:
            if laid.band.name == name:
                return row
            row += laid.band.rows
        return None

    def pages(self, name: str) -> tuple[int, int]:
        """The page band ``name`` shows and how many it has (windows across pages for a
        GRID band count as pages of their own)."""
        for laid in self._laid:
            if laid.band.name == name:
                return (self._page.get(name, 0) * laid.windows + self._window.get(name, 0),
                        len(laid.pages) * laid.windows)
        return 0, 1

    def first_key(self, name: str) -> str | None:
        """The key of the first line band ``name`` shows on its page now."""
        for index, row in self._shown():
            if index >= 0 and self._laid[index].band.name == name and row.spots:
                return row.spots[0].line.key
        return None

    def where(self, line_key: str, region: int) -> tuple[str, int] | None:
        """The band and page (as :meth:`pages` counts) where region ``region`` of line
        ``line_key`` shows, else ``None``."""
        for laid in self._laid:
            if (line_key, region) in laid.places:
                return laid.band.name, laid.places[(line_key, region)]
        return None

    def items(self) -> list[tuple[int, int]]:
        """Every (row, spot) whose region can be routed, in reading order."""
        return [(number, index) for number, (_, row) in enumerate(self._shown())
                for index, spot in enumerate(row.spots)
                if spot.line.regions[spot.region].target is not None]

    def spot(self, picked: tuple[int, int]) -> Spot:
        number, index = picked
        return self._shown()[number][1].spots[index]

    def find(self, line_key: str, region: int) -> tuple[int, int] | None:
        """Where region ``region`` of line ``line_key`` shows: (row, spot index), else None."""
        for number, (_, row) in enumerate(self._shown()):
            for index, spot in enumerate(row.spots):
                if spot.line.key == line_key and spot.region == region:
                    return number, index
        return None

    # ---- keys --------------------------------------------------------------------------

    def route(self, cell: int, row: int) -> Hit | None:
        """The region under routing key ``cell`` of display row ``row``, if any."""
        if not 0 <= row < self.display_rows or not 0 <= cell < self.columns:
            return None
        spot = self._shown()[row][1].spot_at(cell)
        return None if spot is None else spot.hit(cell)

    def marker(self, cell: int, row: int) -> str | None:
        """The band whose page a routing key over a marker turns (and turned), else None."""
        if not 0 <= row < self.display_rows:
            return None
        index, shown = self._shown()[row]
        if index < 0:
            return None
        name = self._laid[index].band.name
        if shown.more_left and cell == 0:
            self.turn(name, -1)
            return name
        if shown.more_right and cell == self.columns - 1:
            self.turn(name, 1)
            return name
        return None

    def marker_of(self, name: str, step: int) -> tuple[int, int] | None:
        """The (cell, row) of a marker that turns band ``name`` on (``step`` 1) or back
        (-1), else ``None``."""
        for number, (index, row) in enumerate(self._shown()):
            if index < 0 or self._laid[index].band.name != name:
                continue
            if step > 0 and row.more_right:
                return self.columns - 1, number
            if step < 0 and row.more_left:
                return 0, number
        return None

    def turn(self, name: str, step: int) -> bool:
        """Show the next (``step`` 1) or previous (-1) page of band ``name``; a GRID band
        pans its windows first. ``False`` when there is no such page."""
        for laid in self._laid:
            if laid.band.name != name:
                continue
            page = self._page.get(name, 0)
            window = self._window.get(name, 0)
            if laid.band.kind == GRID and 0 <= window + step < laid.windows:
                self._window[name] = window + step
                self._laid[self._laid.index(laid)] = self._lay_out(laid.band)
                return True
            if not 0 <= page + step < len(laid.pages):
                return False
            self._page[name] = page + step
            if laid.band.kind == GRID:
                self._top[name] = laid.tops[page + step]
                self._window[name] = 0 if step > 0 else laid.windows - 1
                self._laid[self._laid.index(laid)] = self._lay_out(laid.band)
            return True
        return False

    def show_line(self, key: str) -> None:
        """Turn the band of line ``key`` to the page where the line starts:
        ``page.show_line("choice")``."""
        for index, laid in enumerate(self._laid):
            shown = [page for (line, _), page in laid.places.items() if line == key]
            if not shown:
                continue
            page, window = divmod(min(shown), laid.windows)
            name = laid.band.name
            self._page[name], self._window[name] = page, window
            if laid.band.kind == GRID:
                self._top[name] = laid.tops[page]
                self._laid[index] = self._lay_out(laid.band)
            return


__all__ = ["Page", "Row", "Spot"]
