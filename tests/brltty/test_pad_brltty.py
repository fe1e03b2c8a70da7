"""The Domino 10-11-12 pad of a whole 3-player game, entered by routing keys on a real BRLTTY
(Virtual driver): the game is played by the engine's bots (the table), every turn's lines are
entered on the pad as a player's fingers would (the lines' values, then enter; a new round
when one begins), the totals come out equal to the engine's, the Grand Total line says them,
and the embossed pad holds them."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from brailledev.display.braille import ascii_to_cells, translator
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.programs.pad import PadFront, PadSession
from emboss import brf, scorepad
from emboss.page import Geometry, paper
from games.domino.book import DominoBook
from games.domino.engine import Domino, Placed, RoundStarted
from games.domino.grid import Opening
from layouts.padscreen import TOTALS_LINE
from layouts.registry import kit
from layouts.screen import CHOICE_LINE, COMMAND_LINE, MESSAGE_LINE
from tests.brltty.harness import VirtualBrltty, read_words

EN = translator("en-ueb-g1.ctb")
SEED = 1  # a game whose round openings earn no super bonus (see test_pads for DOM-9)


class PadFingers:
    """The player's side: keys to BRLTTY, cells read back from it, the pad's front in its
    own thread."""

    def __init__(self, brltty: VirtualBrltty, session: PadSession) -> None:
        self.brltty = brltty
        self.display = BrlapiDisplay(host=brltty.host)
        self.front = PadFront(session, self.display, EN)
        self.thread = threading.Thread(target=self.front.run, daemon=True)
        self.keys = 0

    def settle(self, timeout: float = 15) -> None:
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
        return read_words(self.brltty.display_rows()[0], EN.back)

    def line(self) -> str | None:
        return self.front.viewport.line_key

    def read_messages(self) -> list[str]:
        """Every message to the end, window by window (panning), then on to the next
        (routing), until the display leaves the message line."""
        read: list[str] = []
        words: list[str] = []
        while self.line() == MESSAGE_LINE:
            words += [text for _, text in self.words()]
            viewport = self.front.viewport
            if viewport.window + 1 < len(viewport.lines[viewport.top].windows):
                self.press("pan_right")
                continue
            read.append(" ".join(words))
            words = []
            self.press("route", self.words()[0][0])
        return read

    def go_to(self, key: str) -> None:
        while self.line() != key:
            keys = [laid.line.key for laid in self.front.viewport.lines]
            here = keys.index(str(self.line()))
            self.press("line_down" if keys.index(key) > here else "line_up")

    def route_word(self, word: str) -> None:
        for _ in range(10):
            for cell, text in self.words():
                if text == word:
                    self.press("route", cell)
                    return
            self.press("pan_right")
        raise AssertionError(f"{word!r} never showed on the {self.line()} line")

    def line_text(self, key: str) -> str:
        """The whole line ``key`` as the fingers read it, window by window."""
        self.go_to(key)
        read = []
        for _ in range(20):
            read += [text for _, text in self.words()]
            windows = len(self.front.viewport.lines[self.front.viewport.top].windows)
            if self.front.viewport.window + 1 >= windows:
                break
            self.press("pan_right")
        return " ".join(read)


def engine_game() -> tuple[list[tuple[str, int, tuple[int, ...], bool]], list[int]]:
    """The turns of a whole 3-player game between bots, as the pad is told them: ("round",
    dealer) when a round begins, ("turn", seat, lines, opening) for every placement."""
    domino = kit("domino")
    game = domino.new_game(3, seed=SEED)
    assert isinstance(game, Domino)
    bots = [domino.make_bot("heuristic", SEED + seat) for seat in range(3)]
    told: list[tuple[str, int, tuple[int, ...], bool]] = []
    events = list(game.start_events)
    while True:
        for event in events:
            if isinstance(event, RoundStarted):
                told.append(("round", event.dealer, (), True))
            elif isinstance(event, Placed):
                told.append(("turn", event.seat, tuple(event.lines),
                             isinstance(event.move, Opening)))
        if game.is_over():
            return told, game.scores()
        seat = game.actors()[0]
        move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
        assert move is not None
        events = game.play(seat, move)


def test_a_whole_three_player_domino_pad_by_routing_keys_on_brltty(tmp_path: Path) -> None:
    told, scores = engine_game()
    session = PadSession.start("domino", players=3, lang="en", save=tmp_path / "pad.json")
    heard: list[str] = []

    def book() -> DominoBook:
        found = session.book
        assert isinstance(found, DominoBook)
        return found

    with VirtualBrltty(columns=40) as brltty:
        fingers = PadFingers(brltty, session)
        fingers.thread.start()
        try:
            fingers.settle()
            heard += fingers.read_messages()
            for kind, seat, lines, opening in told:
                if kind == "round":
                    if book().turns:      # the first round is the pad's first
                        fingers.go_to(COMMAND_LINE)
                        fingers.route_word("new")   # of "new round"
                        heard += fingers.read_messages()
                    if book().current != seat:
                        # the table's dealer is another: the player's name on their sheet
                        fingers.go_to(f"pad{seat + 1}")
                        fingers.route_word(f"p{seat + 1}:")
                        heard += fingers.read_messages()
                    assert book().current == seat and book().opening
                    continue
                fingers.go_to(CHOICE_LINE)
                assert fingers.words()[0][1] == f"p{seat + 1},"     # whose turn is due
                assert book().opening == opening
                for value in lines:
                    fingers.route_word(str(value))
                fingers.route_word("enter")
                said = fingers.read_messages()
                assert said and said[0].startswith(f"p{seat + 1}:"), said
                heard += said
            assert session.book.totals() == tuple(scores)
            grand = fingers.line_text(TOTALS_LINE)
            assert grand == ("Grand Total: " + ", ".join(
                f"p{seat + 1} {total}" for seat, total in enumerate(scores)))
            fingers.go_to(COMMAND_LINE)
            fingers.route_word("finish")
            heard += fingers.read_messages()
        finally:
            fingers.front.stop()
            fingers.thread.join(10)
            fingers.display.close()
    assert any("Super bonus 6!" in text for text in heard)
    winner = max(range(3), key=lambda seat: scores[seat])
    assert heard[-1].startswith("Grand Total:") and f"p{winner + 1} wins" in heard[-1]
    # Saved after every entry: the file resumes to the same pad.
    assert PadSession.resume(tmp_path / "pad.json").book.totals() == tuple(scores)
    # The filled pad on paper, with the blank pad's layout, holds every Grand Total.
    sheets = kit("domino").pad_sheets("en", 3, session.book)
    document = scorepad.pad_document(sheets, Geometry(paper("a4")), EN, "Domino pad", "en")
    label = EN.translate("Grand Total").cells + "\u2800"
    for page, total in zip(document.pages, scores, strict=True):
        rows = [ascii_to_cells(row) for row in brf.page_bytes(page).decode("ascii")
                .split("\r\n")[:-1]]
        [grand] = [row for row in rows if row.startswith(label)]
        box = grand[len(label):grand.index(scorepad.GUIDE)]
        assert EN.back(box.rstrip("\u2800")) == str(total)
