"""Rummikub played through a real BRLTTY (Virtual driver) by its display side: the test reads
the ``Braille`` lines BRLTTY sends, back-translates them with liblouis, and presses routing
and line keys as a player's fingers would: an initial meld, a run split, a joker exchange."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from brailledev.braille import BLANK, translator
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.play import Front
from brailledev.session import Session
from brailledev.window import DOTS_78, LEFT_MARKER, RIGHT_MARKER
from games.rummikub.engine import Rummikub
from layouts.common.screen import MESSAGE_LINE
from tests.brltty_harness import VirtualBrltty, read_words
from tests.test_rummikub_engine import rigged

EN = translator("en-ueb-g1.ctb")


class Fingers:
    """The player's hands on the Virtual display; the front runs in its own thread."""

    def __init__(self, brltty: VirtualBrltty, save: Path, game: Rummikub) -> None:
        self.brltty = brltty
        self.session = Session.start("rummikub", players=2, seed=3, lang="en", save=save,
                                     pace=0, bots="greedy",
                                     clock=lambda: 0.0)  # the turn clock stands still here
        self.session.game = game
        self.game = game
        self.display = BrlapiDisplay(host=brltty.host)
        self.front = Front(self.session, self.display, EN)
        self.thread = threading.Thread(target=self.front.run, daemon=True)
        self.keys = 0

    def settle(self, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (self.front.handled >= self.keys and self.front.idle.is_set()
                    and self.brltty.display_rows() == self.front.viewport.rows()):
                return
            time.sleep(0.005)
        raise AssertionError(f"display shows {self.brltty.display_rows()}")

    def press(self, action: str, *args: int) -> None:
        getattr(self.brltty, action)(*args)
        self.keys += 1
        self.settle()

    def words(self) -> list[tuple[int, str]]:
        """The cell groups of the display, back-translated, each with its last cell."""
        return read_words(self.brltty.display_rows()[0], EN.back)

    def text(self) -> str:
        return " ".join(word for _, word in self.words())

    def read_all_messages(self) -> list[str]:
        read = []
        while self.front.viewport.line_key == MESSAGE_LINE:
            read.append(self.text())
            self.press("route", self.words()[0][0])
        return read

    def go_to(self, key: str) -> None:
        present = [line.line.key for line in self.front.viewport.lines]
        while self.front.viewport.line_key != key:
            here = present.index(str(self.front.viewport.line_key))
            self.press("line_down" if present.index(key) > here else "line_up")
            present = [line.line.key for line in self.front.viewport.lines]

    def route_word(self, word: str) -> None:
        """Pan along the current line until ``word`` shows, then route over it."""
        for _ in range(30):
            for cell, text in self.words():
                if text == word:
                    self.press("route", cell)
                    return
            self.press("pan_right")
        raise AssertionError(f"{word!r} never showed on the {self.front.viewport.line_key} line")

    def route_on(self, key: str, word: str) -> None:
        self.go_to(key)
        self.route_word(word)


@contextmanager
def playing(tmp_path: Path, game: Rummikub) -> Iterator[Fingers]:
    with VirtualBrltty(columns=40) as brltty:
        fingers = Fingers(brltty, tmp_path / "rummikub.json", game)
        fingers.thread.start()
        fingers.settle()
        try:
            yield fingers
        finally:
            fingers.front.stop()
            fingers.thread.join(10)
            fingers.display.close()


def test_rum_4_initial_meld_by_routing_keys(tmp_path):
    game = rigged("", ["K10 K11 K12 R1", "B2 B3"], melded=(False, True))
    with playing(tmp_path, game) as fingers:
        fingers.read_all_messages()
        fingers.go_to("rack")
        assert fingers.text() == "rack k10 k11 k12 r1"
        for label in ("k10", "k11", "k12"):
            fingers.route_on("rack", label)
        fingers.route_on("selection", "new")       # "new set"
        fingers.route_on("commands", "done")
        assert game.table[0] == ("K10", "K11", "K12") and game.melded[0]


def test_rum_5_run_split_by_routing_keys(tmp_path):
    game = rigged("R4 R5 R6 R7 R8", ["R6 K1", "Y1"])
    with playing(tmp_path, game) as fingers:
        fingers.read_all_messages()
        fingers.route_on("set_1", "r8")
        fingers.route_on("set_1", "r7")
        fingers.route_on("rack", "r6")
        fingers.route_on("selection", "new")
        fingers.route_on("commands", "done")
        assert sorted(game.table)[:2] == [("R4", "R5", "R6"), ("R6", "R7", "R8")]


def test_rum_6_joker_exchange_by_routing_keys(tmp_path):
    game = rigged("K4 J K6", ["K5 R9 B9", "Y2"])
    with playing(tmp_path, game) as fingers:
        fingers.read_all_messages()
        fingers.route_on("set_1", "jk")
        fingers.route_on("rack", "r9")
        fingers.route_on("rack", "b9")
        fingers.route_on("selection", "new")
        fingers.route_on("rack", "k5")
        # K4 K6 is not a set: its number and tiles arrive with dots 7 and 8 raised
        fingers.go_to("set_1")
        row = fingers.brltty.display_rows()[0]
        shown = [cell for cell in row if cell not in (BLANK, LEFT_MARKER, RIGHT_MARKER)]
        assert shown and all(ord(cell) & DOTS_78 == DOTS_78 for cell in shown)
        assert fingers.text() == "1 k4 k6"
        fingers.route_on("set_1", "1")
        fingers.route_on("commands", "done")
        assert ("K4", "K5", "K6") in game.table and game.is_over()
