"""The play loop on a display in memory: keys in, cells out, the game on the real window."""

from __future__ import annotations

import ast
import inspect
import threading
import time

from brailledev.display.braille import translator
from brailledev.display.keys import LineDown, LineUp, Named, PanLeft, PanRight, Route
from brailledev.display.memory import MemoryDisplay
from brailledev.programs import join, pad
from brailledev.programs.session import Session
from brailledev.table import boardkeys, keyloop
from brailledev.table.keyloop import Front
from games.uno import HeuristicBot, Uno
from games.uno.notation import Move as UnoMove
from layouts.screen import MESSAGE_LINE, STATUS_LINE, PlayMove
from tests.play_helpers import ONE_ROUND

EN = translator("en-ueb-g1.ctb")


def front(columns: int = 40, seed: int = 3, pace: float = 0) -> tuple[Front, MemoryDisplay]:
    session = Session.start("uno", players=2, seed=seed, lang="en", options=ONE_ROUND,
                            pace=pace)
    display = MemoryDisplay(columns=columns)
    shown = Front(session, display, EN)
    shown.redraw()
    return shown, display


def shown_text(display: MemoryDisplay) -> str:
    return EN.back(display.shown[0].replace("\u2800", " ").strip().replace(" ", "\u2800"))


def test_first_message_is_on_the_display_and_stays_until_read_past():
    shown, display = front()
    newest = shown.session.seat.history.newest
    assert newest is not None and shown.session.seat.history.fresh
    assert shown.viewport.line_key == MESSAGE_LINE
    assert shown_text(display).startswith(newest.text.split()[0])
    for _ in range(3):
        shown.redraw()
        assert shown.viewport.line_key == MESSAGE_LINE
    messages = len(shown.session.seat.history.texts)
    for _ in range(messages * 4):  # panning right reads every message, then the next line
        if shown.viewport.line_key != MESSAGE_LINE:
            break
        shown.press(PanRight())
        shown.redraw()
    assert not shown.session.seat.history.fresh
    assert shown.viewport.line_key == shown.seat.focus == "status"  # the status, not skipped
    shown.press(PanRight())
    shown.redraw()
    assert shown.viewport.line_key == "hand"


def read_news(shown: Front) -> None:
    """Pan right until the message line and the status line after it are read."""
    while shown.viewport.line_key in (MESSAGE_LINE, STATUS_LINE):
        shown.press(PanRight())
        shown.redraw()


def test_pan_left_reads_back_through_the_history():
    shown, _ = front()
    session = shown.session
    read_news(shown)
    target = number_card_to_play(session)
    assert target is not None
    session.seat.route(target)
    session.table.run_bots()
    shown.redraw()
    assert shown.viewport.line_key == MESSAGE_LINE  # the others' moves, at the turn's start
    newest = len(session.seat.history.messages) - 1
    shown.press(PanLeft())
    shown.redraw()
    assert session.seat.history.index == newest - 1
    assert session.seat.history.messages[newest - 1].text.startswith("You play")
    while shown.viewport.line_key == MESSAGE_LINE:
        shown.press(PanRight())
        shown.redraw()
    assert session.seat.history.cursor is None and shown.viewport.line_key == STATUS_LINE


def test_line_keys_move_between_lines_and_routing_plays_a_card():
    shown, display = front(seed=3)
    session = shown.session
    read_news(shown)
    assert shown.viewport.line_key == "hand"
    shown.press(LineUp())
    shown.redraw()
    assert shown.viewport.line_key == "status"
    shown.press(LineDown())
    shown.redraw()
    assert shown.viewport.line_key == "hand"
    legal = session.table.game.legal_moves(0)
    hand = shown.viewport.lines[shown.viewport.top]
    window = hand.windows[shown.viewport.window]
    piece = next(piece for piece in window.pieces
                 if getattr(hand.line.regions[piece.region].target, "move", None) in legal)
    card = hand.line.regions[piece.region].text
    before = session.table.game.view(0).hand_sizes[0]
    shown.press(Route(piece.column))
    shown.redraw()
    assert session.table.game.view(0).hand_sizes[0] == before - 1
    # the hand that lost the card is the confirmation: no echo is queued on the display
    assert shown.viewport.line_key == "hand"
    assert card not in shown_text(display).split() or session.seat.view().hand.count(card)
    assert session.seat.history.texts[-1] == f"You play {card}."


def number_card_to_play(session: Session) -> PlayMove | None:
    """A legal number card of the hand: after it, the bot must answer."""
    legal = session.table.game.legal_moves(0)
    for region in next(line for line in session.seat.lines() if line.key == "hand").regions:
        target = region.target
        if not isinstance(target, PlayMove):
            continue
        move = target.move
        if isinstance(move, UnoMove) and move in legal and move.card[1:].isdigit():
            return target
    return None


def test_run_loop_paces_bots_and_never_freezes_the_keys():
    for seed in range(20):
        shown, display = front(seed=seed, pace=1.0)
        session = shown.session
        session.table.run_bots()
        target = number_card_to_play(session)
        if target is not None:
            break
    assert target is not None
    while session.seat.history.read_on():
        pass
    session.seat.jump(session.seat.home())
    moves = session.table.moves
    session.seat.route(target)
    runner = threading.Thread(target=shown.run)
    runner.start()
    try:
        display.press(LineDown())  # a key while the bot waits its turn is handled at once
        # a pace long enough that a busy machine still handles the key well before it ends
        deadline = time.monotonic() + 0.8
        while shown.handled == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert shown.handled == 1
        assert session.table.moves == moves + 1  # the bot has not moved yet: it waits its pace
        assert shown.idle.wait(30)
        assert session.table.moves > moves + 1 or session.table.game.is_over()
    finally:
        display.press(Named("quit"), Named("quit"))  # quit, and yes
        runner.join(5)
    assert not runner.is_alive()


def read_to(shown: Front, key: str) -> None:
    """Read every message by panning, then move down to line ``key``."""
    for _ in range(200):
        if shown.viewport.line_key == key:
            return
        shown.press(PanRight() if shown.viewport.line_key == MESSAGE_LINE else LineDown())
        shown.redraw()
    raise AssertionError(f"never reached the {key} line")


def route_region(shown: Front, text: str) -> None:
    """Pan along the focused line until the region ``text`` shows, then route over it."""
    laid = shown.viewport.lines[shown.viewport.top]
    for _ in range(len(laid.windows)):
        window = laid.windows[shown.viewport.window]
        for piece in window.pieces:
            if laid.line.regions[piece.region].text == text:
                shown.press(Route(piece.column))
                shown.redraw()
                return
        shown.press(PanRight())
        shown.redraw()
    raise AssertionError(f"{text!r} is not on the {laid.line.key} line")


def test_uno_7_a_bot_that_forgets_uno_is_caught_by_routing_catch():
    # Bo holds two cards; a seed whose generator forgets UNO this time (FORGET_UNO)
    line = "uno players=2 current=1 hands=r1,r2,b3,g4,y5;r5,g1 discard=r9"
    game = Uno.from_position(line)
    seed = next(seed for seed in range(200) if HeuristicBot(seed).choose(
        game.view(1), game.legal_moves(1)) == UnoMove("play", "r5"))
    shown, display = front()
    session = shown.session
    session.table.game = Uno.from_position(line)
    session.table.bots[1] = HeuristicBot(seed)
    session.table.run_bots()
    newest = session.seat.history.newest
    assert newest is not None and newest.parts[-1] == "Bo plays r5."  # no "Bo: UNO!"
    shown.redraw()
    read_to(shown, "commands")
    route_region(shown, "catch Bo")
    assert session.table.game.view(0).hand_sizes[1] == 3  # caught: Bo draws two
    # The player's own step is confirmed by the line that changed, not queued: the catch
    # has left the command line, and the step is kept in the history.
    assert shown.viewport.line_key == "commands" and "catch" not in shown_text(display)
    assert any(text.startswith("You catch Bo: no UNO!") for text in session.seat.history.texts)


def test_routing_where_there_is_nothing_to_do_says_so_once():
    shown, display = front()
    session = shown.session
    read_to(shown, "status")
    told = list(session.seat.history.texts)
    shown.press(Route(2))  # over the top card's words: the status line has no targets
    shown.redraw()
    assert shown_text(display) == "Nothing to do there."  # at once, where the player is
    shown.press(LineDown())  # any key clears it, and the reader is still on the status
    shown.redraw()
    assert shown.viewport.line_key == STATUS_LINE and session.seat.flash is None
    read_to(shown, "hand")
    shown.press(Route(display.columns - 2))  # a blank cell after the last card
    shown.redraw()
    assert shown_text(display) == "Nothing to do there."
    assert session.seat.history.texts == told  # said, never queued


def test_status_says_one_card_not_one_cards():
    shown, _ = front()
    session = shown.session
    session.table.game = Uno.from_position("uno players=2 hands=r1,r2,b3;g1 discard=r9")
    status = next(line for line in session.seat.lines() if line.key == "status").text
    assert status.endswith("Bo 1 card")
    session.seat.set_lang("fr")
    status = next(line for line in session.seat.lines() if line.key == "status").text
    assert status.endswith("Bo 1 carte")



def test_the_key_loops_ask_the_seat_and_set_none_of_its_fields():
    written = []
    for module in (keyloop, boardkeys, pad, join):
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else []
            written += [ast.unparse(target) for target in targets
                        if isinstance(target, ast.Attribute)
                        and ast.unparse(target.value).endswith("seat")]
    assert written == []


def run_until_handled(shown: Front, keys: int = 1) -> None:
    """Run the key loop in its own thread (news first, as it comes) until it has handled
    ``keys`` keys queued on its display, then stop it: ``run_until_handled(shown)``."""
    running = threading.Thread(target=shown.run, daemon=True)
    running.start()
    deadline = time.monotonic() + 10
    while shown.handled < keys:
        assert time.monotonic() < deadline, "the key was never handled"
        time.sleep(0.01)
    shown.stop()
    running.join(10)


def card_cell(shown: Front, wanted: PlayMove | None = None) -> int:
    """The cell of the top row routing ``wanted`` (any card of the hand when ``None``)."""
    for cell in range(shown.viewport.columns):
        hit = shown.viewport.route(cell)
        if hit is not None and isinstance(hit.target, PlayMove) \
                and (wanted is None or hit.target == wanted):
            return cell
    raise AssertionError(f"no card to route on {shown.viewport.line_key}")


def test_a_card_routed_as_the_bot_s_move_moves_the_display_is_refused_in_words():
    """Issue 32: a routing key on a card of the hand that reaches the loop just after the
    bot's move brought the turn back (its news took the display to the message line) was
    aimed at the hand: nothing is done and the display says so at once, where the key
    used to read on from the message line, back to the hand, without a word."""
    shown, display = front()
    session = shown.session
    read_news(shown)
    assert shown.viewport.line_key == "hand"
    shown.press(Route(card_cell(shown, number_card_to_play(session))))
    shown.redraw()
    moves = session.table.moves
    display.press(Route(card_cell(shown)))  # the bot's move has not been drawn yet
    shown.reaction = 60.0  # the machine's load must not decide
    run_until_handled(shown)
    said = session.seat.catalog.text("route_changed")
    assert session.table.moves > moves and session.table.game.must_act() == [0]
    assert session.seat.flash == said and shown.viewport.line_key == MESSAGE_LINE
    assert shown_text(display).startswith(" ".join(said.split()[:3]))
    assert session.seat.pending is None
