"""A seat's board on a display of several rows, and what its keys do there.

The key loop (:mod:`brailledev.table.keyloop`) hands the drawing and the keys to this when the
display has more than one row and the seat's screen has a board (the game's kit has one):

- a routing key over a region acts on it, on any row, as on one row; over a marker it turns
  that band's page;
- the panning keys turn the pages of the band the reader is on (the line in focus); on the
  reading band, past the message's last page they read on (the next message, else back to
  where the reader was), before its first they read the one before;
- line keys move the focus from line to line in the screen's order: a line with no band of
  its own (help, a Rummikub table's problems) is read on the reading band;
- a display without routing keys (a Canute) picks with its row keys: the first press on a
  row picks its first item, ``Forward`` and ``Backward`` pick the next and previous ones,
  the row key of the row holding the pick (or ``Named(ACT)``, Enter) acts on it. The picked
  item has its dots 7 and 8 the other way round, and speech says it;
- a refusal shown at once covers the reading band: panning reads it, any other key clears it.

The news is shown on the reading band as it comes: once its last page is on the display it
counts as read (the reader is not sent to it at the start of the turn).

    boards = BoardKeys(seat, display, translator("en-ueb-g1.ctb"), route=front.route)
    rows, texts = boards.draw()
    boards.press(Route(5, row=4))       # True; None for a chord or named command
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from brailledev.display.base import Display
from brailledev.display.braille import Translator
from brailledev.display.keys import (
    ACT,
    Backward,
    Bottom,
    Chord,
    Forward,
    Key,
    LineDown,
    LineUp,
    Named,
    PanLeft,
    PanRight,
    Route,
    RowKey,
    Top,
)
from brailledev.display.page import Page, Row
from brailledev.table.seat import SeatClient
from layouts.board import READING, Board, Size
from layouts.screen import HELP_LINE, MESSAGE_LINE, Line, words

# What the reading band shows, told apart so that another thing starts at its first page.
FLASH, OFF_BOARD, NEWS = "flash", "line", "news"
# What a board showed a routing key: each row with its band's name, and what the reading band
# showed (one of the three above).
Seen = tuple[tuple[tuple[str | None, Row], ...], str]


def aim(seen: Seen, key: Route) -> Hashable:
    """What routing key ``key`` does on a board as it was ``seen``: a band's page turned, the
    reading band's news or refusal, the line and target of the region hit, or nothing:
    ``aim(boards.seen(), Route(5, row=2)) == ("hand", PlayMove(...))``."""
    rows, reading = seen
    if not 0 <= key.row < len(rows):
        return None
    band, row = rows[key.row]
    if band is not None and ((row.more_left and key.cell == 0)
                             or (row.more_right and key.cell == len(row.cells) - 1)):
        return "turn", band, key.cell == 0
    if band == READING and reading != OFF_BOARD:
        return READING, reading
    spot = row.spot_at(key.cell)
    if spot is None:
        return None
    hit = spot.hit(key.cell)
    return hit.line_key, hit.target


class BoardKeys:
    """A seat's board on ``display``: see the module docstring. ``route`` acts on a target
    as the key loop does (False when the player quits)."""

    def __init__(self, seat: SeatClient, display: Display, braille: Translator,
                 route: Callable[[Hashable], bool]) -> None:
        self.seat = seat
        self.size = Size(display.columns, display.rows)
        self.page = Page(braille, display.columns, display.rows)
        self.board = Board(())
        self._route = route
        self._jumps = seat.jumps
        # The item picked by a row key or Forward: its line, region and target.
        self.picked: tuple[str, int, Hashable] | None = None

    # ---- drawing -----------------------------------------------------------------------

    def draw(self) -> tuple[list[str], list[str]]:
        """Lay the seat's board out; the cells and print text of every row."""
        seat = self.seat
        board = seat.board(self.size)
        if board is None:
            raise ValueError(f"the {seat.game} screen has no board")
        self.board = board
        reading, shown = self._reading()
        self.page.show(board, reading, shown)
        if seat.jumps != self._jumps:
            self._jumps = seat.jumps
            self._show_line(seat.focus)
        if shown[0] == NEWS:
            page, pages = self.page.pages(READING)
            if seat.history.cursor is None and page == pages - 1:
                seat.history.read_all()
        picked = self._find_pick()
        return self.page.rows(picked), self.page.texts()

    def seen(self) -> Seen:
        """What the display shows now, for a routing key aimed at it (see :func:`aim`)."""
        return self.page.shown_rows(), str(self._reading()[1][0])

    def _reading(self) -> tuple[Line | None, tuple[Hashable, ...]]:
        """What the reading band shows instead of the message line (``None``: the message
        line), and what it is."""
        seat = self.seat
        if seat.flash is not None:
            return Line(MESSAGE_LINE, words(seat.flash)), (FLASH, seat.flashes)
        if seat.focus != MESSAGE_LINE and self.board.band_of(seat.focus) is None:
            for line in seat.lines():
                if line.key == seat.focus:
                    if line.key == HELP_LINE:  # and how the keys go on several rows
                        line = Line(HELP_LINE, line.regions + words(
                            seat.catalog.text("board_keys")))
                    return line, (OFF_BOARD, line.key, line.text)
        return None, (NEWS, seat.history.index)

    def _show_line(self, key: str) -> None:
        """Turn the band of line ``key`` to the page where it starts (not the reading band:
        it shows what it is given from its first page)."""
        band = self.board.band_of(key)
        if band is not None and band.name != READING:
            self.page.show_line(key)

    def _find_pick(self) -> tuple[int, int] | None:
        """Where the picked item shows now; forgotten when it is gone."""
        if self.picked is None:
            return None
        key, region, target = self.picked
        found = self.page.find(key, region)
        if found is None or self.page.spot(found).line.regions[region].target != target:
            self.picked = None
            return None
        return found

    # ---- keys --------------------------------------------------------------------------

    def press(self, key: Key) -> bool | None:
        """Act on one key; ``None`` for a chord or a named command the key loop handles as
        on one row, else False when the player quits."""
        seat = self.seat
        if seat.flash is not None and not self._past_flash(key):
            return True
        if isinstance(key, Chord) or (isinstance(key, Named) and key.name != ACT):
            return None
        if isinstance(key, Named):
            return self._act()
        if isinstance(key, Route):
            return self._routed(key)
        if isinstance(key, RowKey):
            return self._row_key(key.row)
        if isinstance(key, (Forward, Backward)):
            self._step(1 if isinstance(key, Forward) else -1)
        elif isinstance(key, (PanLeft, PanRight)):
            self._pan(1 if isinstance(key, PanRight) else -1)
        elif isinstance(key, (LineUp, LineDown, Top, Bottom)):
            self._line(key)
        return True

    def _past_flash(self, key: Key) -> bool:
        """A key while a refusal covers the reading band: panning reads it (past its end
        clears it), other keys clear it; True when the key then acts as usual."""
        seat = self.seat
        if isinstance(key, (PanLeft, PanRight)):
            step = 1 if isinstance(key, PanRight) else -1
            if not self.page.turn(READING, step) and step > 0:
                seat.clear_flash()
            return False
        if isinstance(key, Route) and self.page.marker(key.cell, key.row) == READING:
            return False
        seat.clear_flash()
        return isinstance(key, Chord | Named)

    def _routed(self, key: Route) -> bool:
        seat = self.seat
        turned = self.page.marker(key.cell, key.row)
        if turned is not None:
            self._focus_band(turned)
            return True
        band = self.page.band_at(key.row)
        hit = self.page.route(key.cell, key.row)
        if band is not None and band.name == READING and \
                self._reading()[1][0] == NEWS:
            seat.read_on()  # anywhere on the news reads on
            return True
        if hit is None:
            seat.nothing_to_route()
            return True
        seat.reader_on(hit.line_key)
        self.picked = None
        return self._route(hit.target)

    def _row_key(self, row: int) -> bool:
        """Pick the first item of ``row``; on the row of the pick, act on it."""
        picked = self._find_pick()
        if picked is not None and picked[0] == row:
            return self._act()
        items = [item for item in self.page.items() if item[0] == row]
        if not items:
            self.picked = None
            self.seat.nothing_to_route()
            return True
        self._pick(items[0])
        return True

    def _step(self, step: int) -> None:
        """Pick the next (``step`` 1) or previous item of the display, round the end."""
        items = self.page.items()
        if not items:
            self.seat.nothing_to_route()
            return
        picked = self._find_pick()
        if picked in items:
            self._pick(items[(items.index(picked) + step) % len(items)])
            return
        band = self.board.band_of(self.seat.focus)
        first = self.page.first_row(band.name) if band is not None else None
        after = [item for item in items if first is not None and item[0] >= first]
        self._pick((after or items)[0] if step > 0 else items[-1])

    def _pick(self, item: tuple[int, int]) -> None:
        spot = self.page.spot(item)
        region = spot.line.regions[spot.region]
        self.picked = (spot.line.key, spot.region, region.target)
        self.seat.reader_on(spot.line.key)
        self.seat.speech.say(region.text)

    def _act(self) -> bool:
        """Act on the picked item (nothing picked: say so)."""
        picked = self._find_pick()
        if picked is None:
            self.seat.nothing_to_route()
            return True
        spot = self.page.spot(picked)
        self.picked = None
        if spot.line.key == MESSAGE_LINE:
            self.seat.read_on()
            return True
        return self._route(spot.line.regions[spot.region].target)

    def _pan(self, step: int) -> None:
        """Turn the pages of the band in focus; on the news, past them, read on or back."""
        seat = self.seat
        band = self.board.band_of(seat.focus)
        name = READING if band is None else band.name
        if self.page.turn(name, step) or name != READING:
            return
        if self._reading()[1][0] == OFF_BOARD:
            if step > 0:
                seat.back()
        elif step > 0:
            seat.read_on()
        else:
            seat.read_back()

    def _line(self, key: Key) -> None:
        """Line keys: the focus to the next or previous line of the screen, or the first or
        last."""
        seat = self.seat
        keys = [line.key for line in seat.lines()]
        here = keys.index(seat.focus) if seat.focus in keys else 0
        if isinstance(key, Top):
            there = 0
        elif isinstance(key, Bottom):
            there = len(keys) - 1
        else:
            there = here + (1 if isinstance(key, LineDown) else -1)
        line = keys[max(0, min(there, len(keys) - 1))]
        seat.reader_on(line)
        self._show_line(line)

    def _focus_band(self, name: str) -> None:
        """The reader turned band ``name``'s page: the focus goes to its first line shown."""
        key = self.page.first_key(name)
        if key is not None:
            self.seat.reader_on(key)
