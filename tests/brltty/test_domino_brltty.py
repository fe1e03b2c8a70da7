"""A whole 2-player game of Domino 10-11-12 against the heuristic bot, played by routing keys
on a real BRLTTY (Virtual driver): the test reads the cells BRLTTY sends, back-translates them
with liblouis, and presses routing and line keys as a player's fingers would. Each turn it
selects a card on the hand line, then routes the best placement on the places line; once it
explores a grid row and routes an empty square."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from brailledev.display.braille import BLANK, translator
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.display.window import LEFT_MARKER, RIGHT_MARKER
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from games.domino.engine import Domino
from layouts.domino.screen import DominoInput
from layouts.screen import MESSAGE_LINE
from tests.brltty.harness import VirtualBrltty
from tests.play_helpers import told

EN = translator("en-ueb-g1.ctb")


class Fingers:
    """The player's side: keys to BRLTTY, cells read back from it."""

    def __init__(self, brltty: VirtualBrltty, front: Front) -> None:
        self.brltty = brltty
        self.front = front
        self.keys = 0

    def settle(self, timeout: float = 15) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.front.handled >= self.keys and self.front.idle.is_set():
                expected = self.front.viewport.rows()
                if self.brltty.display_rows() == expected:
                    return expected
            time.sleep(0.005)
        raise AssertionError(f"display shows {self.brltty.display_rows()}, front wrote "
                             f"{self.front.viewport.rows()}")

    def press(self, action: str, *args: int) -> None:
        getattr(self.brltty, action)(*args)
        self.keys += 1
        self.settle()

    def groups(self) -> list[tuple[int, str]]:
        """Cell groups of the row (each with its last cell, since the Virtual driver drops a
        route on cell 0) back-translated to print."""
        row = self.brltty.display_rows()[0]
        found: list[tuple[int, str]] = []
        start = None
        for index, cell in enumerate([*row, BLANK]):
            inked = cell not in (BLANK, LEFT_MARKER, RIGHT_MARKER)
            if inked and start is None:
                start = index
            elif not inked and start is not None:
                found.append((index - 1, EN.back(row[start:index])))
                start = None
        return found

    def line(self) -> str | None:
        return self.front.viewport.line_key

    def read_messages(self) -> list[str]:
        read = []
        while self.line() == MESSAGE_LINE:
            read.append(" ".join(text for _, text in self.groups()))
            self.press("route", self.groups()[0][0])
        return read

    def go_to(self, key: str) -> None:
        keys = [laid.line.key for laid in self.front.viewport.lines]
        while self.line() != key:
            here = keys.index(self.line() or "")
            self.press("line_down" if keys.index(key) > here else "line_up")

    def route_group(self, index: int = 0) -> str:
        cell, text = self.groups()[index]
        self.press("route", cell)
        return text


def test_whole_domino_game_by_routing_keys_on_brltty(tmp_path: Path) -> None:
    with VirtualBrltty(columns=40) as brltty:
        session = Session.start("domino", players=2, seed=11, lang="en", bots="heuristic",
                                save=tmp_path / "domino.json", pace=0)
        game = session.table.game
        assert isinstance(game, Domino)
        display = BrlapiDisplay(host=brltty.host)
        front = Front(session, display, EN)
        thread = threading.Thread(target=front.run, daemon=True)
        thread.start()
        fingers = Fingers(brltty, front)
        heard: list[str] = []
        explored = False
        try:
            fingers.settle()
            turns = 0
            while not game.is_over():
                heard += fingers.read_messages()
                if game.is_over():
                    break
                placed_before = len(game.table)
                round_before = game.round
                assert fingers.line() == "places"
                if not explored and not game.view(0).opening:
                    # a grid row: the row number, then one cell per square; route an empty one
                    fingers.go_to("grid3")
                    row = fingers.groups()
                    assert row[0][1] == "3"
                    fingers.press("route", row[1][0])
                    pending = session.seat.pending
                    assert isinstance(pending, DominoInput) and pending.square is not None
                    fingers.go_to("places")
                    explored = True
                fingers.go_to("hand")
                fingers.route_group(0)  # select the highest card
                assert fingers.line() == "places"
                text = fingers.route_group(0)  # its best placement: square, way and half
                assert "@" in text or text[-1].isdigit()
                laid = len(game.table) > placed_before or game.round \
                    != round_before or game.is_over()
                assert laid, f"routing {text!r} laid no card"
                turns += 1
                assert turns < 100
            heard += fingers.read_messages()
        finally:
            front.stop()
            thread.join(10)
            display.close()
    assert game.is_over() and heard  # the news read at the start of each turn
    assert any(text.startswith("Bo lays") for text in told(session))
    assert told(session)[-1] in ("You win the game!", "Bo wins the game.")
