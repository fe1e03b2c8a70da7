"""Two braille players at one table of a real server, each on a real BRLTTY (Virtual
driver) of their own, with bots in the other seats, play whole games by routing keys: the
test reads the cells each BRLTTY sends, back-translates them with the player's table, and
presses routing, panning and line keys as each player's fingers would. One player reads
English, the other French; each joined with ``brailledev join``'s own client and key loop."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from brailledev.display.braille import Translator, cell_to_dots, translator
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.display.keys import Key
from brailledev.programs.join import DOT_8, Joined, TableFront, connect
from brailledev.table.core import Table as CoreTable
from brailledev.table.seat import LocalLink, SeatClient
from layouts.rummikub.work import Work
from layouts.screen import MESSAGE_LINE
from tests.brltty.harness import Fingers, VirtualBrltty
from tests.play_helpers import wanted
from tests.server.helpers import ServerThread, new_table
from tests.server.test_join_reconnect import BACK, LOST, Relay

READERS = (("Ann", "en", "en-ueb-g1.ctb"), ("Bea", "fr", "fr-bfu-comp6.utb"))


class SeatFingers(Fingers):
    """A player's fingers on their display, ``join``'s key loop running in its thread."""

    def __init__(self, brltty: VirtualBrltty, joined: Joined, table: Translator) -> None:
        self.brltty = brltty
        self.joined = joined
        self.table = table
        self.display = self.display_kind(host=brltty.host)
        self.front = TableFront(joined, self.display, table)
        self.thread = threading.Thread(target=self.front.run, daemon=True)
        self.keys = 0

    def settle(self, timeout: float = 10) -> None:
        """Wait until the front handled every key, applied every news and BRLTTY shows
        what it wrote (a joined seat's loop is never idle: news may come at any time), the
        front between two keys or news (news half drawn once let a key be pressed on the
        line it was leaving)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.at_rest(lambda: self.front.handled >= self.keys
                            and self.joined.inbox.empty()
                            and self.brltty.display_rows() == self.front.written, deadline):
                return
            time.sleep(0.005)
        raise AssertionError(f"display shows {self.brltty.display_rows()}")

    def at_rest(self, check: Callable[[], bool], deadline: float) -> bool:
        """``check`` read while the front is between two keys or news (False when it is
        still busy at ``deadline``)."""
        if not self.front.busy.acquire(timeout=max(0.0, deadline - time.monotonic())):
            return False
        try:
            return check()
        finally:
            self.front.busy.release()

    def chord(self, dots: int) -> None:
        """Press keys of the braille keyboard together (BRLTTY's ``passdots``)."""
        self.brltty.send(f"passdots 0x{dots:x}")
        self.keys += 1
        self.settle()

    @property
    def link(self) -> Any:
        return self.joined.link

    def words_of(self, key: str) -> dict[str, str]:
        return {name: str(text) for name, text in
                self.joined.seat.catalog.section("screen").items() if isinstance(text, str)}

    def caught_up(self, position: int) -> None:
        """Wait until this display shows the table at ``position`` (what the server has):
        the news applied, the screen laid out from it, BRLTTY showing it."""
        deadline = time.monotonic() + 10
        while (self.link.position != position or not self.joined.inbox.empty()
               or [laid.line for laid in self.front.viewport.lines]
               != list(self.joined.seat.lines())):
            assert time.monotonic() < deadline, "the table's news never came"
            time.sleep(0.005)
        self.settle()


class Table:
    """The table as the server holds it (read in the server's own loop)."""

    def __init__(self, server: ServerThread, code: str) -> None:
        self.server, self.code = server, code

    def now(self) -> tuple[int, int | None, bool]:
        """Position, the seat the game waits for, whether it is over."""
        def look() -> tuple[int, int | None, bool]:
            table = self.server.room(self.code).table
            waiting = table.game.must_act()
            return table.moves, waiting[0] if waiting else None, table.game.is_over()
        return self.server.call(look)


@contextmanager
def seated(tmp_path: Path, kind: type[SeatFingers] = SeatFingers, **settings: Any
           ) -> Iterator[tuple[list[SeatFingers], Table]]:
    """A server, a table, and both players sat down at it on their displays (fingers of
    ``kind``)."""
    with ExitStack() as stack:
        server = stack.enter_context(ServerThread())
        code = new_table(server.url, **settings)
        players = [at_display(stack, server.url, code, reader, tmp_path, kind)
                   for reader in READERS]
        for fingers in players:
            deadline = time.monotonic() + 10
            while not fingers.link.started:
                assert time.monotonic() < deadline
                time.sleep(0.01)
            fingers.settle()
        yield players, Table(server, code)


def at_display(stack: ExitStack, url: str, code: str, reader: tuple[str, str, str],
               folder: Path, kind: type[SeatFingers] = SeatFingers) -> SeatFingers:
    """``reader`` (name, language, braille table) joins table ``code`` on a 40-cell display
    of its own, its seat file in ``folder``; all of it stopped when ``stack`` closes."""
    name, lang, braille = reader
    brltty = stack.enter_context(VirtualBrltty(columns=40))
    joined = connect(url, code, name, lang, None, folder / f"{name}.json", braille)
    stack.callback(joined.close)
    fingers = kind(brltty, joined, translator(braille))
    fingers.thread.start()
    stack.callback(_stop, fingers)
    return fingers


def _stop(fingers: SeatFingers) -> None:
    fingers.front.stop()
    fingers.thread.join(10)
    fingers.display.close()


def moved(table: Table, fingers: SeatFingers, position: int) -> bool:
    """Whether the seat's keys moved the table on from ``position`` or left an input."""
    return table.now()[0] != position or fingers.joined.seat.pending is not None


def play_out(players: list[SeatFingers], table: Table, turn: Callable[[SeatFingers], None],
             most: int = 300, until: Callable[[int | None], bool] | None = None) -> int:
    """The player the game waits for acts until the game is over (or ``until`` the seat it
    waits for), deciding on what their display shows once it shows what the server holds
    (the news stays unread: a player who has not read it all is never taken to the message
    line by the next). Returns the turns taken (a Wild routed, then its colour, is two)."""
    by_seat = {fingers.joined.seat.seat: fingers for fingers in players}
    turns = 0
    while True:
        position, waiting, over = table.now()
        if over or (until is not None and until(waiting)):
            break
        fingers = by_seat.get(waiting) if waiting is not None else None
        if fingers is None:  # a bot's turn: it is playing
            time.sleep(0.01)
            continue
        fingers.caught_up(position)
        turn(fingers)
        turns += 1
        assert turns < most, "the game did not end"
        # seconds on a loaded machine; a wait that fails says what the seat had then
        deadline = time.monotonic() + 15
        while not moved(table, fingers, position):
            assert time.monotonic() < deadline, (
                f"table {table.now()}, display {fingers.text()!r} on "
                f"{fingers.front.viewport.line_key}, keys {fingers.front.handled}/"
                f"{fingers.keys}, flash {fingers.joined.seat.flash!r}, "
                f"news {fingers.joined.seat.history.texts[-3:]}")
            time.sleep(0.005)
    if until is None:
        for fingers in players:
            fingers.caught_up(table.now()[0])
    return turns


@cache
def short_uno_deal() -> int:
    """The seed, among the first 40, of the shortest three-seat round in which each player
    of :func:`wanted` has two turns at least: whole games stay quick whatever the deal."""
    found = []
    for seed in range(40):
        table = CoreTable.new("uno", 3, seed, people=(0, 1), options={"match_target": 0})
        seats = [SeatClient(LocalLink(table, seat), "uno", "en") for seat in (0, 1)]
        turns = [0, 0]
        while not table.game.is_over() and sum(turns) < 100:
            if table.bot_move():
                continue
            seat = table.game.must_act()[0]
            lines = seats[seat].lines()
            key, index = wanted(lines, table.legal(seat), seats[seat].pending)
            seats[seat].route(next(line for line in lines if line.key == key).regions[index]
                              .target)
            turns[seat] += 1
        if min(turns) >= 2:
            found.append((sum(turns), seed))
    return min(found)[1]


def uno_turn(fingers: SeatFingers) -> None:
    """The Uno player routes what :func:`wanted` picks from their screen."""
    lines = fingers.joined.seat.lines()
    key, index = wanted(lines, fingers.link.legal(), fingers.joined.seat.pending)
    region = next(line for line in lines if line.key == key).regions[index]
    fingers.route_on(key, region.text.split()[0])


def test_two_braille_players_and_a_bot_play_a_whole_uno_game(tmp_path):
    with seated(tmp_path, game="uno", players=3, people=2, seed=short_uno_deal(),
                options={"match_target": 0}) as (players, table):
        assert play_out(players, table, uno_turn) > 2
        ann, bea = players
        for letter in "thi":  # "talk" by its letter, then "hi", on the braille keyboard
            ann.chord(cell_to_dots(ann.table.translate(letter).cells))
        ann.chord(DOT_8)
        deadline = time.monotonic() + 10
        while "Ann dit : hi." not in bea.joined.seat.history.sentences:
            assert time.monotonic() < deadline, bea.joined.seat.history.sentences[-3:]
            time.sleep(0.01)
        heard = [fingers.joined.seat.history.sentences for fingers in players]
    assert any(text.startswith("Bea ") for text in heard[0])
    assert any(text.startswith("Ann ") for text in heard[1])
    assert any("win" in text for text in heard[0][-3:])
    assert any("gagn" in text for text in heard[1][-3:])


def test_two_braille_players_and_a_bot_play_a_whole_rummikub_game(tmp_path):
    with seated(tmp_path, game="rummikub", players=3, people=2, seed=27, bots="solver",
                options={"turn_times": 0}) as (players, table):
        def turn(fingers: SeatFingers) -> None:
            words = fingers.words_of("screen")
            commands = next(line for line in fingers.joined.seat.lines()
                            if line.key == "commands")
            shown = [region.text for region in commands.regions]
            assert words["hint"] in shown  # with a move or without
            fingers.route_on("commands", words["hint"])
            pending = fingers.joined.seat.pending
            assert isinstance(pending, Work)
            if pending.rack != pending.start_rack:
                fingers.route_on("commands", words["done"])
            else:  # no move: the hint's line says so, and offers to draw
                fingers.route_on("hint", words["draw"])

        assert play_out(players, table, turn) > 4
        views = [fingers.link.view() for fingers in players]
    assert all(view.melded[view.seat] for view in views)
    assert views[0].over and any(count == 0 for count in views[0].hand_sizes)


def test_two_braille_players_play_a_whole_domino_game(tmp_path):
    with seated(tmp_path, game="domino", players=2, people=2, seed=3) as (players, table):
        def turn(fingers: SeatFingers) -> None:
            fingers.go_to("hand")
            fingers.press("route", fingers.words()[0][0])  # select the highest card
            assert fingers.front.viewport.line_key == "places"
            fingers.press("route", fingers.words()[0][0])  # its best placement

        assert play_out(players, table, turn) >= 40
        ends = [fingers.joined.seat.history.texts[-1] for fingers in players]
    assert "win" in ends[0] and "gagn" in ends[1], ends


class HeldKeys(BrlapiDisplay):
    """A real display whose keys the test holds back: while ``holding`` is set they wait in
    BrlAPI, as they do while a program is busy, and ``held`` says the front reads none."""

    def __init__(self, host: str | None = None) -> None:
        super().__init__(host=host)
        self.holding = threading.Event()
        self.held = threading.Event()

    def read_key(self, timeout: float | None = None) -> Key | None:
        if not self.holding.is_set():
            return super().read_key(timeout)
        self.held.set()
        time.sleep(max(timeout or 0.0, 0.01))
        return None


class HeldFingers(SeatFingers):
    display_kind = HeldKeys


@pytest.mark.parametrize("reader", [0, 1], ids=[lang for _, lang, _ in READERS])
def test_a_card_routed_as_the_news_moves_the_display_is_refused_in_words(tmp_path, reader):
    """Issue 32's key that did nothing, forced: the reader routes a card of the hand just as
    the news that their turn has come moves the display to the message line (the key waits
    in BrlAPI until the news is drawn, as while a program is busy). The key is not taken
    for one on the message line (it read on, back to the hand, without a word): the display
    says at once, in the reader's words, that the line changed and nothing was done, and
    the table still waits for them."""
    with seated(tmp_path, kind=HeldFingers, game="uno", players=3, people=2,
                seed=short_uno_deal(), options={"match_target": 0}) as (players, table):
        fingers = players[reader]
        seat = fingers.joined.seat
        play_out(players, table, uno_turn, until=lambda waiting: waiting != seat.seat)
        fingers.caught_up(table.now()[0])
        fingers.go_to("hand")
        hand = next(line for line in seat.lines() if line.key == "hand")
        cards = {region.text.split()[0] for region in hand.regions if region.target}
        cell = next(cell for cell, word in fingers.words() if word in cards)
        display = fingers.display
        assert isinstance(display, HeldKeys)
        display.holding.set()
        display.held.clear()
        assert display.held.wait(10)
        fingers.brltty.route(cell)
        fingers.keys += 1
        # a loaded machine may take seconds to bring the turn round: the reader is slower
        fingers.front.reaction = 60.0
        play_out(players, table, uno_turn, until=lambda waiting: waiting == seat.seat)
        position = table.now()[0]
        deadline = time.monotonic() + 15
        while not fingers.at_rest(lambda: fingers.link.position == position
                                  and fingers.joined.inbox.empty()
                                  and fingers.front.viewport.line_key == MESSAGE_LINE,
                                  deadline):
            assert time.monotonic() < deadline, "the news never moved the display"
            time.sleep(0.005)
        display.holding.clear()
        fingers.settle()
        said = seat.catalog.text("route_changed")
        assert seat.flash == said, (seat.flash, fingers.text())
        shown = fingers.table.back(fingers.brltty.display_rows()[0]).split()
        assert said.startswith(" ".join(shown[:4])), shown
        assert table.now()[:2] == (position, seat.seat) and seat.pending is None


@pytest.mark.parametrize(("name", "lang", "braille"), READERS)
def test_a_braille_seat_shows_the_connection_lost_and_back(tmp_path, name, lang, braille):
    """Issue 32.7 on a real BRLTTY: the seat's connection to a real server is cut (a relay
    in between closes every socket and refuses new ones) and mended; the display shows at
    once that it is lost, then that it is back, in the reader's words (the news missed:
    tests/server/test_join_reconnect.py)."""
    with ExitStack() as stack:
        server = stack.enter_context(ServerThread())
        relay = Relay(int(server.url.rsplit(":", 1)[1]))
        stack.callback(relay.close)
        code = new_table(server.url, game="uno", players=3, people=2, seed=short_uno_deal(),
                         options={"match_target": 0})
        brltty = stack.enter_context(VirtualBrltty(columns=40))
        joined = connect(relay.url, code, name, lang, None, tmp_path / f"{name}.json", braille)
        stack.callback(joined.close)
        fingers = SeatFingers(brltty, joined, translator(braille))
        fingers.thread.start()
        stack.callback(_stop, fingers)
        other = connect(server.url, code, "Cyd", "en", None, tmp_path / "Cyd.json",
                        "en-ueb-g1.ctb")
        stack.callback(other.close)
        deadline = time.monotonic() + 10
        while not fingers.link.started:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        fingers.settle()

        def shows(sentence: str) -> Callable[[list[str]], bool]:
            start = " ".join(sentence.split()[:3])
            return lambda rows: fingers.table.back(rows[0]).strip().startswith(start)

        updates = brltty.updates
        relay.cut()
        brltty.wait_for(shows(LOST[lang]), after=updates)
        updates = brltty.updates
        relay.mend()
        rows = brltty.wait_for(shows(BACK[lang]), timeout=20, after=updates)
        assert fingers.table.back(rows[0]).strip() == BACK[lang]
        assert BACK[lang] in joined.seat.history.sentences
