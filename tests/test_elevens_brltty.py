"""Elevens played through a real BRLTTY (Virtual driver) by its display side: the test reads
the ``Braille`` lines BRLTTY sends, back-translates them with liblouis, and presses routing
and line keys as a player's fingers would."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from brailledev.braille import translator
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.play import Front
from brailledev.session import Session
from games.elevens.engine import JOKER, Elevens
from layouts.common.screen import MESSAGE_LINE, Move
from tests.brltty_harness import VirtualBrltty, read_words
from tests.elevens_helpers import table

EN = translator("en-ueb-g1.ctb")


class Player:
    """The fingers on the Virtual display, and the game's front running in its own thread."""

    def __init__(self, brltty: VirtualBrltty, save: Path, game: Elevens | None,
                 options: dict[str, Any]) -> None:
        self.brltty = brltty
        self.session = Session.start("elevens", players=2, seed=3, lang="en", save=save,
                                     pace=0, options=options)
        if game is not None:
            self.session.game = game
        self.display = BrlapiDisplay(host=brltty.host)
        self.front = Front(self.session, self.display, EN)
        self.thread = threading.Thread(target=self.front.run, daemon=True)
        self.keys = 0

    @property
    def game(self) -> Elevens:
        assert isinstance(self.session.game, Elevens)
        return self.session.game

    def settle(self, timeout: float = 10) -> None:
        """Wait until the front handled every key and BRLTTY shows what the front wrote."""
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
        """Route over each message until the display leaves the message line."""
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

    def route_word(self, word: str) -> None:
        """Pan along the current line until ``word`` shows, then route over it."""
        for _ in range(30):
            for cell, text in self.words():
                if text == word:
                    self.press("route", cell)
                    return
            self.press("pan_right")
        raise AssertionError(f"{word!r} never showed on the {self.front.viewport.line_key} line")


@contextmanager
def playing(tmp_path: Path, game: Elevens | None = None, **options: Any) -> Iterator[Player]:
    with VirtualBrltty(columns=40) as brltty:
        player = Player(brltty, tmp_path / "elevens.json", game, options)
        player.thread.start()
        player.settle()
        try:
            yield player
        finally:
            player.front.stop()
            player.thread.join(10)
            player.display.close()


def test_elv_6_link_placement_by_routing_keys(tmp_path):
    game = table([["y5", "b20", "b21"], ["b3", "b4"]], rows={"r": range(5, 11),
                                                            "g": range(5, 11)})
    with playing(tmp_path, game) as player:
        player.read_all_messages()
        player.go_to("hand")
        assert player.text() == "hand y5 b20 b21"
        player.route_word("y5")
        assert player.front.viewport.line_key == "choice"
        assert player.text() == "y5 to L r5>y L g5>y cancel"
        player.route_word("g5>y")
        assert player.game.rows["y"][5] == "y5"
        assert player.game.table_links == [("g", 5, "y")]
        assert player.read_all_messages() == ["You link from g5 and play y5."]
        player.go_to("row_y")
        assert player.text() == "y 5 Lg5 11"  # the laid link card, felt on both its rows
        before = player.game.to_dict()
        player.route_word("Lg5")  # read only: routing it changes nothing
        assert player.game.to_dict() == before and player.text() == "y 5 Lg5 11"
        player.go_to("row_g")
        assert player.text() == "g 5-11 Ly5"


def test_elv_8_joker_exchange_by_routing_keys(tmp_path):
    game = table([["r12", "y12", "b20"], ["b3", "b4"]], jokers=[("y", 12)], links=[0, 0])
    with playing(tmp_path, game) as player:
        player.read_all_messages()
        player.go_to("hand")
        player.route_word("r12")
        assert player.read_all_messages() == ["You play r12."]
        player.go_to("row_y")
        assert player.text() == "y 11-12 *12"
        player.route_word("*12")
        assert player.game.rows["y"][12] == "y12" and JOKER in player.game.hands[0]
        assert player.read_all_messages() == ["You exchange the joker at y12."]
        player.go_to("commands")
        player.route_word("end")
        told = player.read_all_messages()  # the turn went to Bo, who drew and gave it back
        assert told[0] == "Bo draws a card." and player.game.actors() == [0]


def test_elv_12_whole_beginner_game_by_routing_keys(tmp_path):
    with playing(tmp_path, beginner=True) as player:
        session = player.session
        turns = 0
        while not player.game.is_over():
            player.read_all_messages()
            if player.game.is_over():
                break
            lines = {line.key: line for line in session.lines()}
            legal = player.game.legal_moves(0)
            cards = [region.text for region in lines["hand"].regions
                     if isinstance(region.target, Move) and region.target.move in legal]
            if cards and player.game.view(0).played < 4:
                player.go_to("hand")
                player.route_word(cards[0])
            else:
                player.go_to("commands")
                player.route_word(lines["commands"].regions[0].text.split()[0])
                turns += 1
            assert turns < 200, "the game did not end"
        final = player.read_all_messages()
    assert final[-1].startswith("Game over.")
    assert player.game.is_over() and len(player.game.winners()) == 1
