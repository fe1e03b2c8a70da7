"""Uno played through a real BRLTTY (Virtual driver) by its display side: the test reads the
``Braille`` lines BRLTTY sends, back-translates them with liblouis, and presses routing,
panning and line keys, as a player's fingers would."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from brailledev.display.braille import translator
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.display.window import RIGHT_MARKER
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from games.uno.notation import PLAY
from games.uno.notation import Move as UnoMove
from layouts.screen import MESSAGE_LINE
from layouts.uno.words import label
from tests.brltty.harness import VirtualBrltty, read_words
from tests.play_helpers import ONE_ROUND, short_deal, wanted

EN = translator("en-ueb-g1.ctb")
WORDS_OF_THE_END: dict[tuple[int, ...], str] = {(0,): "You win the game!",
                                                 (1,): "Bo wins the game."}


class Player:
    """The fingers on the Virtual display, and the game's front running in its own thread."""

    def __init__(self, brltty: VirtualBrltty, save: Path, seed: int) -> None:
        self.brltty = brltty
        self.session = Session.start("uno", players=2, seed=seed, lang="en",
                                     options=ONE_ROUND, save=save, pace=0)
        self.display = BrlapiDisplay(host=brltty.host)
        self.front = Front(self.session, self.display, EN)
        self.thread = threading.Thread(target=self.front.run, daemon=True)
        self.keys = 0
        self.pans = 0

    def start(self) -> None:
        self.thread.start()
        self.settle()

    def stop(self) -> None:
        self.front.stop()
        self.thread.join(10)
        self.display.close()

    def settle(self, timeout: float = 10) -> list[str]:
        """Wait until the front handled every key, has nothing to do, and BRLTTY's display
        shows exactly what the front wrote; return the rows BRLTTY sent."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.front.handled >= self.keys and self.front.idle.is_set():
                expected = self.front.written
                if self.brltty.display_rows() == expected:
                    return expected
            time.sleep(0.005)
        raise AssertionError(f"display shows {self.brltty.display_rows()}, front wrote "
                             f"{self.front.written}, handled {self.front.handled}"
                             f"/{self.keys}")

    def press(self, action: str, *args: int) -> list[str]:
        getattr(self.brltty, action)(*args)
        self.keys += 1
        return self.settle()

    def words(self) -> list[tuple[int, str]]:
        """The cell groups of the first row, back-translated, each with its last cell (BRLTTY
        6.5's Virtual driver drops ``route 0``, so the first cell of a row is never used)."""
        return read_words(self.brltty.display_rows()[0], EN.back)

    def text(self) -> str:
        return " ".join(word for _, word in self.words())

    def read_all_messages(self, panning: bool = False) -> list[str]:
        """Read every message until the display leaves the message line: routing over
        each, or ``panning`` right window by window (past a message's end: the next one)."""
        read: list[str] = []
        window = ""
        while self.front.viewport.line_key == MESSAGE_LINE:
            more = self.brltty.display_rows()[0].endswith(RIGHT_MARKER)
            window = f"{window} {self.text()}".strip()
            if panning:
                self.press("pan_right")
                self.pans += 1
            else:
                self.press("route", self.words()[0][0])
            if not (panning and more):
                read.append(window)
                window = ""
        return read

    def go_to(self, key: str) -> None:
        present = [line.line.key for line in self.front.viewport.lines]
        while self.front.viewport.line_key != key:
            here = present.index(str(self.front.viewport.line_key))
            self.press("line_down" if present.index(key) > here else "line_up")

    def route_word(self, word: str) -> None:
        """Pan along the current line from its start until ``word`` shows, then route."""
        while self.front.viewport.window > 0:
            self.press("pan_left")
        for _ in range(20):
            for cell, text in self.words():
                if text == word:
                    self.press("route", cell)
                    return
            self.press("pan_right")
            self.pans += 1
        raise AssertionError(f"{word!r} never showed on the {self.front.viewport.line_key} line")

    def turn(self, panning: bool = False) -> None:
        """Read the news, then route what a sensible player would."""
        self.read_all_messages(panning)
        if self.session.table.game.is_over():
            return
        lines = self.session.seat.lines()
        session = self.session
        key, index = wanted(lines, session.table.game.legal_moves(0), session.seat.pending)
        region = next(line for line in lines if line.key == key).regions[index]
        self.go_to(key)
        self.route_word(region.text.split()[0])


@contextmanager
def playing(tmp_path: Path, columns: int, seed: int) -> Iterator[Player]:
    with VirtualBrltty(columns=columns) as brltty:
        player = Player(brltty, tmp_path / "uno.json", seed)
        player.start()
        try:
            yield player
        finally:
            player.stop()


def play_to_the_end(player: Player, limit: int = 300, panning: bool = False) -> int:
    turns = 0
    while not player.session.table.game.is_over():
        player.turn(panning)
        turns += 1
        assert turns < limit, "the game did not end"
    return turns


def test_whole_game_through_brltty_on_40_cells(tmp_path):
    with playing(tmp_path, columns=40, seed=short_deal(4)) as player:
        turns = play_to_the_end(player)
        final = player.read_all_messages(panning=True)
    assert turns > 3
    assert final[-1].endswith(WORDS_OF_THE_END[tuple(player.session.table.game.winners())])


def test_whole_game_through_brltty_on_20_cells_with_panning(tmp_path):
    with playing(tmp_path, columns=20, seed=short_deal(5)) as player:
        play_to_the_end(player, panning=True)
        final = player.read_all_messages(panning=True)
    assert player.session.table.game.is_over()
    assert player.pans > 0
    assert final[-1].endswith(WORDS_OF_THE_END[tuple(player.session.table.game.winners())])


def test_brltty_restart_mid_game_goes_on_where_it_was(tmp_path):
    with playing(tmp_path, columns=40, seed=short_deal(4)) as player:
        for _ in range(2):
            player.turn()
        before = player.session.table.game.to_dict()
        player.read_all_messages()
        shown = player.front.viewport.rows()
        player.brltty.restart()
        player.settle(timeout=20)  # redrawn by the display as it was
        assert player.brltty.display_rows() == shown
        assert player.session.table.game.to_dict() == before
        assert player.display.reconnections >= 1
        play_to_the_end(player)
    assert player.session.table.game.is_over()


def test_illegal_card_routed_is_refused_and_nothing_changes(tmp_path):
    with playing(tmp_path, columns=40, seed=4) as player:
        session = player.session
        for _ in range(40):
            player.read_all_messages()
            wrong = [card for card in session.seat.view().hand
                     if session.table.game.check(0, UnoMove(PLAY, card)) is not None]
            game = session.table.game
            if wrong and game.must_act() == [0] and game.view(0).phase == "play":
                break
            player.turn()
        else:
            raise AssertionError("never held an unplayable card")
        before = session.table.game.to_dict()
        saved = (tmp_path / "uno.json").read_text()
        player.go_to("hand")
        player.route_word(label(wrong[0], session.seat.catalog))
        assert session.table.game.to_dict() == before
        assert (tmp_path / "uno.json").read_text() == saved
        # shown at once over the hand the card was routed on; a key clears it
        assert player.front.viewport.line_key == "hand"
        assert player.text().startswith("Refused:")
        player.press("route", 5)
        assert session.seat.flash is None and not player.text().startswith("Refused:")
        assert player.front.viewport.line_key == "hand"
