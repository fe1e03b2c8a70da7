"""The message rules, on a display in memory through the key loop, for every game:

- at the start of the player's turn the news since their last step waits on the message line;
  reading past it goes to the line where they act;
- the player's own step is never queued: the display stays on the line they acted on;
- a refusal covers the top row at once; panning reads it, a key clears it, the place is kept;
- the newest-message key and the back key go there and back to the same window;
- routing never moves the window of the line the player is on;
- a count of newer messages never costs a pan.
"""

from __future__ import annotations

from collections.abc import Hashable

import pytest

from brailledev.display.keys import BACK, NEWEST, Chord, Named, PanLeft, PanRight, Route
from brailledev.display.window import lay_out_line
from brailledev.programs.session import Session
from brailledev.table.history import STEP
from layouts.registry import GAMES
from layouts.rummikub.work import Work
from layouts.screen import MESSAGE_LINE, STATUS_LINE, Ask, Line, PlayMove, Refuse
from tests.play_helpers import ONE_ROUND
from tests.screen_player import MemoryFingers, choose, my_turn

OPTIONS = {"uno": ONE_ROUND, "rummikub": {"turn_times": 0}}


def start(game: str, lang: str = "en", seed: int = 2, columns: int = 40) -> MemoryFingers:
    """Fingers at the start of a turn of the player's, after the others have played."""
    session = Session.start(game, players=3, seed=seed, lang=lang, pace=0,
                            options=OPTIONS.get(game))
    session.table.run_bots()
    fingers = MemoryFingers(session, columns=columns)
    if session.table.moves == 0:  # the player opens the game: one turn, then the others'
        fingers.play_turn()
        session.table.run_bots()
        fingers.front.redraw()
    return fingers


def line_of(fingers: MemoryFingers, key: str) -> Line:
    return next(line for line in fingers.session.seat.lines() if line.key == key)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_news_waits_at_the_turns_start_and_reading_past_it_reads_on_to_the_status(
        game, lang):
    fingers = start(game, lang)
    session = fingers.session
    assert my_turn(session)
    assert fingers.line_key == MESSAGE_LINE and session.seat.history.fresh
    newest = session.seat.history.newest
    assert newest is not None and len(newest.parts) > 1  # one summary, not a queue
    while fingers.line_key == MESSAGE_LINE:
        fingers.press(PanRight(), "read")
    assert fingers.line_key == STATUS_LINE and not session.seat.history.fresh  # not skipped
    fingers.press(Named(BACK), "back")  # the back key: straight to where the player acts
    assert fingers.line_key == session.seat.home()


@pytest.mark.parametrize("columns", [40, 20])
@pytest.mark.parametrize("game", GAMES)
def test_panning_past_the_status_read_after_the_news_returns_to_the_players_place(
        game, columns):
    fingers = start(game, columns=columns)
    session = fingers.session
    while fingers.line_key == MESSAGE_LINE:
        fingers.press(PanRight(), "read")
    assert fingers.line_key == STATUS_LINE
    windows = len(fingers.front.viewport.lines[fingers.front.viewport.top].windows)
    for _ in range(windows):  # through every window of the status line, then past it
        fingers.press(PanRight(), "read")
    assert fingers.line_key == session.seat.home()


@pytest.mark.parametrize("game", GAMES)
def test_the_players_own_step_is_never_queued(game):
    fingers = start(game)
    session = fingers.session
    fingers.read_news()
    moves = session.table.moves
    for _ in range(6):  # the routings of one move (a selection first, a hint...)
        key, index = choose(session)
        fingers.route(key, index)
        if session.table.moves > moves:
            break
    assert session.table.moves > moves
    assert fingers.line_key != MESSAGE_LINE and session.seat.flash is None
    newest = session.seat.history.newest
    assert newest is not None
    assert newest.kind == STEP or newest.parts[-1].startswith("You draw")
    assert not session.seat.history.fresh or newest.kind != STEP


def refused_target(fingers: MemoryFingers) -> tuple[str, int] | None:
    """A region of the screen the game refuses when routed, if there is one now."""
    session = fingers.session
    for line in session.seat.lines():
        for index, region in enumerate(line.regions):
            target = region.target
            if isinstance(target, Refuse):
                return line.key, index
            if isinstance(target, PlayMove) and \
                    session.table.game.check(session.seat.seat, target.move) is not None:
                return line.key, index
    return None


# Elements and Domino offer only what the rules allow: nothing of theirs is ever refused.
@pytest.mark.parametrize("game", ["uno", "rummikub", "elevens"])
def test_a_refusal_covers_the_top_row_a_key_clears_it_and_the_place_is_kept(game):
    fingers = start(game, columns=20)
    session = fingers.session
    found = None
    for _ in range(40):  # play on until the screen offers something refused
        fingers.read_news()
        if my_turn(session):
            found = refused_target(fingers)
            if found is not None:
                break
            fingers.route(*choose(session))
        else:
            session.table.run_bots()
            fingers.front.redraw()
    assert found is not None, game
    key, index = found
    fingers.route(key, index)
    flash = session.seat.flash
    assert flash is not None and flash.split()[0] in ("Refused:",)
    shown = fingers.display.writes[-1].text
    assert shown is not None and " ".join(shown[0].strip("<> ").split()) in flash
    place = fingers.front.viewport.place()
    windows = len(fingers.front._flashed().windows)  # type: ignore[union-attr]
    for _ in range(windows - 1):
        fingers.press(PanRight())
        assert session.seat.flash == flash  # read along
    fingers.press(PanLeft())
    fingers.press(Route(5))  # any other key: cleared, and nothing routed
    assert session.seat.flash is None
    assert fingers.front.viewport.place() == place
    assert session.seat.history.texts[-1] == flash  # kept for reading back


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("keys", [(Named(NEWEST), Named(BACK)),
                                  (Chord(0b001101, space=True), Chord(0b010101, space=True))])
def test_the_newest_message_key_and_back_to_the_same_window(game, keys):
    newest, back = keys
    fingers = start(game, columns=20)
    session = fingers.session
    fingers.read_news()
    home = fingers.line_key
    while len(fingers.front.viewport.lines[fingers.front.viewport.top].windows) < 2:
        fingers.press(PanRight())  # a line long enough to be deep into
    if fingers.front.viewport.window == 0:
        fingers.press(PanRight())
    where = (fingers.line_key, fingers.front.viewport.window)
    fingers.press(newest)
    assert fingers.line_key == MESSAGE_LINE and fingers.front.viewport.window == 0
    assert session.seat.history.cursor is None
    fingers.press(back)
    assert (fingers.line_key, fingers.front.viewport.window) == where
    assert home is not None


def routable_deep(fingers: MemoryFingers) -> tuple[int, Hashable] | None:
    """On the line shown, a region past its first window whose routing keeps the line (a
    legal card played, a tile selected), with its window."""
    viewport = fingers.front.viewport
    laid = viewport.lines[viewport.top]
    legal = fingers.session.table.game.legal_moves(fingers.session.seat.seat)
    for number, window in enumerate(laid.windows[1:], start=1):
        for piece in window.pieces:
            target = laid.line.regions[piece.region].target
            stays = isinstance(target, Ask) and target.then is None
            plays = isinstance(target, PlayMove) and target.move in legal
            if stays or plays:
                return number, piece.region
    return None


@pytest.mark.parametrize(("game", "line"), [("uno", "hand"), ("rummikub", "rack"),
                                            ("elevens", "hand"), ("elements", "hand")])
def test_routing_in_a_later_window_keeps_that_window(game, line):
    for seed in range(12):
        fingers = start(game, seed=seed, columns=20)
        fingers.read_news()
        fingers.go_to(line)
        found = routable_deep(fingers)
        if found is not None:
            break
    assert found is not None, game
    number, region = found
    viewport = fingers.front.viewport
    key = fingers.line_key
    while viewport.window != number:
        fingers.press(PanRight() if viewport.window < number else PanLeft())
    piece = next(piece for piece in viewport.lines[viewport.top].windows[number].pieces
                 if piece.region == region)
    fingers.press(Route(piece.column))
    assert fingers.line_key == key
    assert viewport.window == min(number, len(viewport.lines[viewport.top].windows) - 1)


def test_rummikub_selecting_in_the_racks_second_window_stays_there():
    fingers = start("rummikub", seed=4, columns=20)
    fingers.read_news()
    viewport = fingers.front.viewport
    assert fingers.line_key == "rack" and len(viewport.lines[viewport.top].windows) > 2
    fingers.press(PanRight())
    for _ in range(3):  # select three tiles there, one after another
        shown = viewport.lines[viewport.top].windows[viewport.window]
        piece = next(piece for piece in shown.pieces
                     if isinstance(viewport.lines[viewport.top].line.regions[piece.region]
                                   .target, Ask))
        fingers.press(Route(piece.column))
        assert fingers.line_key == "rack" and viewport.window == 1
    pending = fingers.session.seat.pending
    assert isinstance(pending, Work) and len(pending.selection) == 3


@pytest.mark.parametrize("game", GAMES)
def test_a_count_of_newer_messages_never_costs_a_pan(game):
    fingers = start(game, columns=20)
    session = fingers.session
    for _ in range(3):
        fingers.read_news()
        while my_turn(session):
            fingers.route(*choose(session))
        session.table.run_bots()
        fingers.front.redraw()
        if session.table.game.is_over():
            break
    fingers.press(Named(NEWEST))
    while session.seat.history.cursor is None:  # back past the newest: the newer ones counted
        fingers.press(PanLeft())
    counted = line_of(fingers, MESSAGE_LINE)
    assert counted.regions[-1].spare
    without = Line(MESSAGE_LINE, counted.regions[:-1])
    braille = fingers.braille
    for columns in (12, 20, 40):
        assert len(lay_out_line(counted, braille, columns).windows) == \
            len(lay_out_line(without, braille, columns).windows)
