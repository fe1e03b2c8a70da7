"""A sensible player of every game who knows only the screen, and fingers that play it on a
display in memory through the key loop, counting key presses.

``choose(session)`` picks the line and region a player routes next (a legal move, or the
routing that leads to one: a card to select, a hint to lay out); ``MemoryFingers`` reads the
news, moves to that line, pans to the region and presses its routing key, as a player would.
On a display of several rows (the game's board) ``reading_key`` and ``board_key`` give the
keys a reader presses: the news's next page, the marker that turns a band to the region's
page, line keys to a line read on the reading band, the routing key over the region on its
row.

    fingers = MemoryFingers(Session.start("uno", players=2, seed=1, lang="en", pace=0))
    presses = fingers.play_turn()          # keys of one turn, news read first
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from brailledev.display.braille import table_for, translator
from brailledev.display.keys import (
    ACT,
    Backward,
    Forward,
    Key,
    LineDown,
    LineUp,
    Named,
    PanLeft,
    PanRight,
    Route,
    RowKey,
)
from brailledev.display.memory import MemoryDisplay
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from games.elements.engine import BID, KEEP, PLACE, Lay, Pass
from games.elevens.engine import DISCARD, UNDO
from games.rummikub.engine import Draw, Table
from layouts.board import READING
from layouts.domino.screen import PLACES_LINE
from layouts.elements.screen import ElementsInput
from layouts.elevens.screen import Chosen
from layouts.rummikub.work import Work
from layouts.screen import (
    CHOICE_LINE,
    COMMAND_LINE,
    HAND_LINE,
    MESSAGE_LINE,
    STATUS_LINE,
    Ask,
    Line,
    PlayMove,
)
from tests.play_helpers import wanted

Choice = tuple[str, int]


def _line(lines: Sequence[Line], key: str) -> Line | None:
    return next((line for line in lines if line.key == key), None)


def _first(line: Line | None, fits: Callable[[Hashable], bool]) -> Choice | None:
    if line is None:
        return None
    for index, region in enumerate(line.regions):
        if fits(region.target):
            return line.key, index
    return None


def _plays(legal: Sequence[Any]) -> Callable[[Hashable], bool]:
    """Whether a target plays one of ``legal`` (cards laid together in any order)."""
    lays = [sorted(map(str, move.cards)) for move in legal if isinstance(move, Lay)]

    def plays(target: Hashable) -> bool:
        if not isinstance(target, PlayMove):
            return False
        move = target.move
        return move in legal or (isinstance(move, Lay) and sorted(map(str, move.cards)) in lays)
    return plays


def choose_uno(session: Session, lines: Sequence[Line]) -> Choice:
    return wanted(tuple(lines), session.table.game.legal_moves(0), session.seat.pending)


def choose_elevens(session: Session, lines: Sequence[Line]) -> Choice:
    legal = session.table.game.legal_moves(session.seat.seat)
    useful = [move for move in legal if move not in (UNDO, DISCARD)]
    choice = _line(lines, CHOICE_LINE)
    found = _first(choice, _plays(useful))
    if found is None:  # a joker's many places are offered row by row first
        found = _first(choice, lambda target: isinstance(target, Ask)
                       and isinstance(target.pending, Chosen) and target.pending.row != "")
    if found is None:
        found = _first(_line(lines, HAND_LINE), _plays(useful))
    if found is None:
        def places(target: Hashable) -> bool:
            if not (isinstance(target, Ask) and isinstance(target.pending, Chosen)):
                return False
            card = target.pending.card
            return any(getattr(move, "card", None) == card and move.kind != "discard"
                       for move in useful)
        found = _first(_line(lines, HAND_LINE), places)
    if found is None:
        found = _first(_line(lines, COMMAND_LINE), _plays(useful))
    if found is None:
        found = _first(_line(lines, COMMAND_LINE), _plays(legal))
    assert found is not None, [line.text for line in lines]
    return found


def choose_elements(session: Session, lines: Sequence[Line]) -> Choice:
    view = session.seat.view()
    legal = session.table.game.legal_moves(session.seat.seat)
    found = _first(_line(lines, CHOICE_LINE), _plays(legal))
    if found is not None:
        return found
    hand = _line(lines, HAND_LINE)
    pending = session.seat.pending
    said = pending if isinstance(pending, ElementsInput) else ElementsInput()
    if view.phase == PLACE:
        found = _first(hand, lambda target: isinstance(target, Ask))
    elif view.phase == BID:
        lays = [move for move in legal if isinstance(move, Lay)]
        if lays and len(lays[0].cards) == 1:
            found = _first(hand, _plays(lays))
        elif lays:
            pair = lays[0].cards

            def wanted_card(target: Hashable) -> bool:
                return (isinstance(target, Ask) and isinstance(target.pending, ElementsInput)
                        and len(target.pending.chosen) > len(said.chosen)
                        and set(target.pending.chosen) <= set(pair))
            found = _first(hand, wanted_card)
        else:
            found = _first(_line(lines, COMMAND_LINE), _plays([Pass()]))
    elif view.phase == KEEP:  # keep what the choice line proposes
        found = _first(_line(lines, CHOICE_LINE), lambda target: isinstance(target, PlayMove))
    assert found is not None, [line.text for line in lines]
    return found


def choose_rummikub(session: Session, lines: Sequence[Line]) -> Choice:
    commands = _line(lines, COMMAND_LINE)
    assert commands is not None
    words = session.seat.catalog.section("screen")
    by_text = {region.text: index for index, region in enumerate(commands.regions)}
    pending = session.seat.pending
    done = commands.regions[by_text[str(words["done"])]].target
    hinted = isinstance(pending, Work) and pending.hinted  # the hint was asked for
    laid = isinstance(pending, Work) and hinted and pending.rack != pending.start_rack
    if laid and isinstance(done, PlayMove) and isinstance(done.move, Table):
        return COMMAND_LINE, by_text[str(words["done"])]
    if not hinted:
        return COMMAND_LINE, by_text[str(words["hint"])]
    found = _first(commands, lambda target: isinstance(target, PlayMove)
                   and isinstance(target.move, Draw))
    assert found is not None
    return found


def choose_domino(session: Session, lines: Sequence[Line]) -> Choice:
    found = _first(_line(lines, PLACES_LINE), lambda target: isinstance(target, PlayMove))
    assert found is not None, [line.text for line in lines]
    return found


CHOOSERS: dict[str, Callable[[Session, Sequence[Line]], Choice]] = {
    "uno": choose_uno, "elevens": choose_elevens, "elements": choose_elements,
    "rummikub": choose_rummikub, "domino": choose_domino,
}


def choose(session: Session) -> Choice:
    """The line and region a sensible player routes next, from the screen."""
    return CHOOSERS[session.table.name](session, session.seat.lines())


def reading_key(front: Front[Any]) -> Key | None:
    """The key that reads on what the board's reading band shows a reader (a refusal, the
    news's next page), ``None`` when it is read."""
    boards = front.boards
    assert boards is not None
    if front.seat.flash is not None:
        return PanRight()
    marker = boards.page.marker_of(READING, 1)
    if front.seat.focus == MESSAGE_LINE or marker is None:
        return None if marker is None else PanRight()
    return Route(*marker)


def board_key(front: Front[Any], line_key: str, region: int,
              routing: bool = True) -> tuple[Key, str]:
    """The next key a reader presses on a board towards routing region ``region`` of line
    ``line_key``, and what it is for (``route``, ``pick``, ``pan``, ``line``); without
    ``routing`` keys (a Canute) it picks with row keys and Forward, and acts with the row
    key (Enter on the first row, which the Virtual driver's row keys cannot reach)."""
    boards = front.boards
    assert boards is not None
    page, seat = boards.page, front.seat
    found = page.find(line_key, region)
    if found is not None:
        spot = page.spot(found)
        if routing:  # the region's last cell: the Virtual driver never routes the first
            return Route(spot.column + spot.stop - spot.start - 1, found[0]), "route"
        return pick_key(front, found)
    band = boards.board.band_of(line_key)
    focus_band = boards.board.band_of(seat.focus)
    focused = READING if focus_band is None else focus_band.name
    place = page.where(line_key, region)
    if place is not None and (band is not None or seat.focus == line_key):
        name, wanted = place
        step = 1 if wanted > page.pages(name)[0] else -1
        marker = page.marker_of(name, step) if routing else None
        if marker is not None:
            return Route(*marker), "pan"
        if focused == name:
            return (PanRight() if step > 0 else PanLeft()), "pan"
    keys = [line.key for line in seat.lines()]
    here = keys.index(seat.focus) if seat.focus in keys else 0
    return (LineDown() if keys.index(line_key) > here else LineUp()), "line"


def pick_key(front: Front[Any], item: tuple[int, int]) -> tuple[Key, str]:
    """The next key that picks ``item`` (row, spot) and acts on it, without routing keys."""
    boards = front.boards
    assert boards is not None
    page = boards.page
    row = item[0]
    picked = None
    if boards.picked is not None:
        picked = page.find(boards.picked[0], boards.picked[1])
    if picked == item:
        return (RowKey(row) if row > 0 else Named(ACT)), "route"
    if row > 0 and (picked is None or picked[0] != row):
        return RowKey(row), "pick"
    items = page.items()
    ahead = picked is None or items.index(item) > items.index(picked)
    return (Forward() if ahead else Backward()), "pick"


def my_turn(session: Session) -> bool:
    game = session.table.game
    return not game.is_over() and session.seat.seat in game.must_act()


class MemoryFingers:
    """A player's fingers on a display in memory: every key goes through the key loop and
    is counted."""

    def __init__(self, session: Session, columns: int = 40, table: str | None = None,
                 rows: int = 1) -> None:
        self.session = session
        self.display = MemoryDisplay(columns, rows)
        self.braille = translator(table or table_for(session.seat.lang))
        self.front = Front(session, self.display, self.braille)
        self.front.redraw()
        self.keys = 0
        # keys by what they were for: reading the news, changing line, panning, routing
        self.counts: Counter[str] = Counter()

    @property
    def line_key(self) -> str | None:
        return self.front.viewport.line_key

    def press(self, key: Key, kind: str = "other") -> None:
        self.keys += 1
        self.counts[kind] += 1
        self.front.press(key)
        self.front.redraw()

    def text(self) -> str:
        """The print text of the top row as the display shows it."""
        return self.display.writes[-1].text[0] if self.display.writes[-1].text else ""

    def read_news(self) -> None:
        """Read what the display puts before the player: a refusal, the news, and the status
        line panning reads on to after them (on a board: the refusal and the news's pages)."""
        for _ in range(200):
            if self.front.boards is not None:
                key = reading_key(self.front)
                if key is None:
                    return
                self.press(key, "read")
                continue
            if self.session.seat.flash is None and self.line_key not in (MESSAGE_LINE,
                                                                         STATUS_LINE):
                return
            self.press(PanRight(), "read")
        raise AssertionError("the news never ended")

    def go_to(self, key: str) -> None:
        for _ in range(200):
            if self.line_key == key:
                return
            keys = [laid.line.key for laid in self.front.viewport.lines]
            here = keys.index(str(self.line_key))
            self.press(LineDown() if keys.index(key) > here else LineUp(), "line")
        raise AssertionError(f"never reached the {key} line")

    def route(self, key: str, index: int, cell: int = 0) -> None:
        """Go to line ``key``, pan to region ``index`` and press the routing key over it: over
        its ``cell``-th cell in the window (counted round: any number is one of its cells)."""
        if self.front.boards is not None:
            for _ in range(200):
                pressed, kind = board_key(self.front, key, index)
                self.press(pressed, kind)
                if kind == "route":
                    return
            raise AssertionError(f"region {index} of {key} never showed on the board")
        self.go_to(key)
        viewport = self.front.viewport
        laid = viewport.lines[viewport.top]
        wanted = laid.window_of(index)
        while viewport.window != wanted:
            self.press(PanRight() if viewport.window < wanted else PanLeft(), "pan")
        window = laid.windows[viewport.window]
        piece = next(piece for piece in window.pieces if piece.region == index)
        self.press(Route(piece.column + cell % (piece.stop - piece.start)), "route")

    def play_turn(self, limit: int = 60) -> int:
        """Play the seat's turn to its end (or the game's), news read first; the keys it took."""
        before = self.keys
        session = self.session
        for _ in range(limit):
            self.read_news()
            if not my_turn(session):
                return self.keys - before
            key, index = choose(session)
            self.route(key, index)
        raise AssertionError(f"the turn did not end in {limit} routings")
