"""The key loop on a display of several rows (a display in memory, the real key loop and
liblouis): the game's board, routing on every row, a refusal over the reading band, a line
with no band read there, a Canute's row keys, Forward and Enter."""

from __future__ import annotations

from brailledev.display.braille import BLANK, translator
from brailledev.display.keys import (
    ACT,
    BACK,
    Backward,
    Forward,
    LineDown,
    Named,
    PanRight,
    Route,
    RowKey,
)
from brailledev.display.memory import MemoryDisplay
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from games.uno import Uno
from games.uno.notation import Move as UnoMove
from layouts.board import READING
from layouts.screen import HAND_LINE, HELP_LINE, PlayMove
from tests.device.test_session_front import run_until_handled
from tests.play_helpers import ONE_ROUND

EN = translator("en-ueb-g1.ctb")


def board_front(seed: int, columns: int = 40, rows: int = 9) -> Front[Session]:
    session = Session.start("uno", players=2, seed=seed, lang="en", options=ONE_ROUND,
                            pace=0)
    session.table.run_bots()
    shown = Front(session, MemoryDisplay(columns, rows), EN)
    shown.redraw()
    return shown


def card(shown: Front[Session], legal: bool) -> tuple[int, int]:
    """(row, spot) of a card of the hand the rules allow (``legal``) or refuse now."""
    assert shown.boards is not None
    page, game = shown.boards.page, shown.session.table.game
    for item in page.items():
        spot = page.spot(item)
        target = spot.line.regions[spot.region].target
        if spot.line.key == HAND_LINE and isinstance(target, PlayMove) \
                and (game.check(0, target.move) is None) == legal:
            return item
    raise LookupError("no such card")


def front_with(legal: bool) -> tuple[Front[Session], tuple[int, int]]:
    for seed in range(30):
        shown = board_front(seed)
        try:
            return shown, card(shown, legal)
        except LookupError:
            continue
    raise AssertionError("no deal with such a card")


def press(shown: Front[Session], *keys: object) -> None:
    for key in keys:
        shown.press(key)  # type: ignore[arg-type]
        shown.redraw()


def test_a_routing_key_over_a_card_on_its_row_plays_it_and_news_shown_whole_is_read() -> None:
    shown, (row, index) = front_with(legal=True)
    session = shown.session
    assert shown.boards is not None
    spot = shown.boards.page.spot((row, index))
    count = session.seat.view().hand_sizes[0]
    press(shown, Route(spot.column, row))
    assert session.seat.view().hand_sizes[0] == count - 1
    session.table.run_bots()
    shown.redraw()
    assert session.seat.history.newest is not None and session.seat.history.newest.kind == "news"
    whole = shown.boards.page.pages(READING)[1] == 1
    assert session.seat.history.fresh != whole  # on the display whole: read, else still news


def test_a_refusal_covers_the_reading_band_and_any_key_clears_it() -> None:
    shown, (row, index) = front_with(legal=False)
    assert shown.boards is not None
    before = shown.written
    spot = shown.boards.page.spot((row, index))
    press(shown, Route(spot.column, row))
    texts = shown.display.writes[-1].text  # type: ignore[attr-defined]
    assert texts is not None and texts[0].startswith("Refused:")
    assert shown.written[2:] == before[2:] and shown.written[:2] != before[:2]
    press(shown, LineDown())  # clears it, and does nothing else
    assert shown.seat.flash is None and shown.written[2:] == before[2:]
    texts = shown.display.writes[-1].text  # type: ignore[attr-defined]
    assert texts is not None and texts[0].startswith("Refused:")  # the newest message now


def test_help_is_read_on_the_reading_band_and_back_returns() -> None:
    shown = board_front(seed=3)
    assert shown.boards is not None
    page = shown.boards.page
    commands = [item for item in page.items() if page.spot(item).line.key == "commands"]
    helps = [item for item in commands if page.spot(item).line.regions[
        page.spot(item).region].text == "help"]
    spot = page.spot(helps[0])
    press(shown, Route(spot.column, helps[0][0]))
    assert shown.seat.focus == HELP_LINE and page.row_lines()[0] == {HELP_LINE}
    pages = page.pages(READING)[1]
    assert pages > 1
    read = []
    for number in range(1, pages):
        press(shown, PanRight())
        assert page.pages(READING)[0] == number
        read += page.texts()[:2]  # the reading band's two rows
    assert "Canute" in " ".join(read)  # how the keys go on several rows
    press(shown, Named(BACK))
    assert shown.seat.focus != HELP_LINE and page.row_lines()[0] == {"messages"}


def test_a_row_key_picks_forward_moves_and_the_row_key_or_enter_acts() -> None:
    shown, (row, index) = front_with(legal=True)
    assert shown.boards is not None
    page = shown.boards.page
    plain = list(shown.written)
    press(shown, RowKey(row))
    first = page.items()[[item[0] for item in page.items()].index(row)]
    spot = page.spot(first)
    cells = range(spot.column, spot.column + spot.stop - spot.start)
    assert all(ord(shown.written[row][cell]) ^ ord(plain[row][cell]) == 0xC0 for cell in cells)
    steps = page.items().index((row, index)) - page.items().index(first)
    press(shown, *[Forward()] * (steps + 1), Backward())
    assert shown.boards.picked is not None and shown.boards.picked[:2] == \
        (page.spot((row, index)).line.key, page.spot((row, index)).region)
    count = shown.session.seat.view().hand_sizes[0]
    press(shown, RowKey(row))  # the row of the pick: act on it
    assert shown.session.seat.view().hand_sizes[0] == count - 1
    assert shown.boards.picked is None
    press(shown, Named(ACT))  # nothing picked: said at once, nothing done
    assert shown.seat.flash == "Nothing to do there."


def test_a_row_key_over_a_row_with_nothing_to_act_on_says_so() -> None:
    shown = board_front(seed=3)
    assert shown.boards is not None
    status = shown.boards.page.first_row("status")
    assert status is not None
    press(shown, RowKey(status))
    assert shown.seat.flash == "Nothing to do there." and shown.boards.picked is None
    assert all(row.strip(BLANK) for row in shown.written[:1])


def hand_cell(shown: Front[Session], label: str) -> Route:
    """The routing key over the card ``label`` of the hand on the board."""
    assert shown.boards is not None
    page = shown.boards.page
    for item in page.items():
        spot = page.spot(item)
        target = spot.line.regions[spot.region].target
        if spot.line.key == HAND_LINE and isinstance(target, PlayMove) \
                and target.move == UnoMove("play", label):
            return Route(spot.column, row=item[0])
    raise LookupError(label)


def test_a_card_routed_as_news_moved_it_along_the_board_is_refused_in_words() -> None:
    """Issue 32 on several rows: a card drawn into the hand by itself (news) moves the cards
    after it along the hand's row; a routing key that follows at once was aimed at the card
    that was there, so nothing is done and the reading band says so at once."""
    shown = board_front(0)
    session = shown.session
    session.table.game = Uno.from_position("uno players=2 hands=r1,r2,b3;g1,g2 discard=r9")
    shown.redraw()
    key = hand_cell(shown, "r2")
    before = shown._shown()
    session.table.game = Uno.from_position("uno players=2 hands=r0,r1,r2,b3;g1,g2 discard=r9")
    shown.redraw()
    shown._changed_by_itself(before)
    shown.reaction = 60.0  # the machine's load must not decide
    moves = session.table.moves
    press(shown, key)
    said = session.seat.catalog.text("route_changed")
    assert session.table.moves == moves and session.seat.flash == said
    texts = shown.display.writes[-1].text  # type: ignore[attr-defined]
    assert texts is not None and " ".join(texts[0].split()).startswith(" ".join(said.split()[:3]))
    press(shown, key, key)  # the first clears the words; the next plays the card there now
    assert session.table.moves == moves + 1 and session.table.game.discard[-1] == "r1"


def test_a_card_routed_as_a_bot_moves_plays_it_when_the_board_keeps_it_under_the_key() -> None:
    """The same race where the bot's move leaves the hand's row as it was: the key acts."""
    shown = board_front(0)
    session = shown.session
    session.table.game = Uno.from_position(
        "uno players=2 current=1 hands=r1,r2,b3;g1,r5 discard=r9")
    shown.redraw()
    key = hand_cell(shown, "r2")
    shown.reaction = 60.0
    shown.display.press(key)  # type: ignore[attr-defined]  # reaches the loop after the bot's move is drawn
    run_until_handled(shown)
    game = session.table.game
    assert game.discard[-1] == "r2" and session.seat.flash is None
