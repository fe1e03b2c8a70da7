"""Elevens played through a real BRLTTY (Virtual driver) by its display side: the test reads
the ``Braille`` lines BRLTTY sends, back-translates them with liblouis, and presses routing
and line keys as a player's fingers would."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from brailledev.display.braille import translator
from brailledev.programs.session import Session
from games.elevens.engine import JOKER, Elevens
from layouts.screen import PlayMove
from tests.brltty.harness import Fingers, fingers_on
from tests.elevens_helpers import table

EN = translator("en-ueb-g1.ctb")
FR = translator("fr-bfu-comp6.utb")


class Player(Fingers):
    """The fingers on the Virtual display, with the Elevens game they play."""

    @property
    def game(self) -> Elevens:
        assert isinstance(self.session.table.game, Elevens)
        return self.session.table.game


@contextmanager
def playing(tmp_path: Path, game: Elevens | None = None, lang: str = "en",
            **options: Any) -> Iterator[Player]:
    session = Session.start("elevens", players=2, seed=3, lang=lang,
                            save=tmp_path / "elevens.json", pace=0, options=options)
    if game is not None:
        session.table.game = game
    with fingers_on(session, EN if lang == "en" else FR, Player) as player:
        yield player


def test_elv_6_link_placement_by_routing_keys(tmp_path):
    game = table([["y5", "b20", "b21"], ["b3", "b4"]], rows={"r": range(5, 11),
                                                            "g": range(5, 11)})
    with playing(tmp_path, game) as player:
        player.read_all_messages()
        player.go_to("hand")
        assert player.text() == "hand y5 b20 b21"
        player.route_word("y5")
        assert player.front.viewport.line_key == "choice"
        assert player.text() == "y5 to by link from r5"  # each place whole in a window
        player.route_word("g5")
        assert player.game.rows["y"][5] == "y5"
        assert player.game.table_links == [("g", 5, "y")]
        # the rows the card went to are the confirmation: nothing waits on the message line
        assert player.read_all_messages() == []
        assert player.front.viewport.line_key == "hand"
        assert player.session.seat.history.texts[-1] == "You link from g5 and play y5."
        player.go_to("row_y")
        assert player.text() == "y 5 lig5 11"  # the laid link card, felt on both its rows
        before = player.game.to_dict()
        player.route_word("lig5")  # read only: routing it changes nothing, and says so
        assert player.game.to_dict() == before
        assert player.read_all_messages() == ["Nothing to do there."]
        player.go_to("row_g")
        assert player.text() == "g 5-11 liy5"


def test_elv_8_joker_exchange_by_routing_keys(tmp_path):
    game = table([["r12", "y12", "b20"], ["b3", "b4"]], jokers=[("y", 12)], links=[0, 0])
    with playing(tmp_path, game) as player:
        player.read_all_messages()
        player.go_to("hand")
        player.route_word("r12")
        assert player.read_all_messages() == [] and player.text() == "hand y12 b20"
        player.go_to("row_y")
        assert player.text() == "y 11-12 *12"
        player.route_word("*12")
        assert player.game.rows["y"][12] == "y12" and JOKER in player.game.hands[0]
        assert player.read_all_messages() == [] and player.text() == "y 11-12"
        player.go_to("commands")
        player.route_word("end")
        told = player.read_all_messages()  # the turn went to Bo, who drew and gave it back
        assert told == ["Bo draws a card."] and player.game.actors() == [0]


def test_elv_12_whole_beginner_game_by_routing_keys(tmp_path):
    with playing(tmp_path, beginner=True) as player:
        session = player.session
        turns = 0
        while not player.game.is_over():
            player.read_all_messages()
            if player.game.is_over():
                break
            lines = {line.key: line for line in session.seat.lines()}
            legal = player.game.legal_moves(0)
            cards = [region.text for region in lines["hand"].regions
                     if isinstance(region.target, PlayMove) and region.target.move in legal]
            if cards and player.game.view(0).played < 4:
                player.go_to("hand")
                player.route_word(cards[0])
            else:
                player.go_to("commands")
                player.route_word(lines["commands"].regions[0].text.split()[0])
                turns += 1
            assert turns < 200, "the game did not end"
        final = player.read_all_messages()
    assert "Game over." in final[-1]
    assert player.game.is_over() and len(player.game.winners()) == 1


@pytest.mark.parametrize(("lang", "row", "cancel"), (("en", "row", "cancel"),
                                                     ("fr", "rangée", "retour")))
def test_elv_7_a_joker_routes_from_each_of_its_cells_in_both_languages(tmp_path, lang, row,
                                                                         cancel):
    """Issue 37, item 2: a French player's joker is one cell (``⠔``), an English one's two
    (``⠐⠔``); a routing key over any of them offers its places, and a place routed lays it."""
    game = table([["b5", "b9", "b16", JOKER, JOKER], ["b3", "b4"]], rows={"r": range(5, 10)})
    with playing(tmp_path, game, lang=lang) as player:
        player.read_all_messages()
        width = len(player.table.translate(JOKER, label=True).cells)
        assert width == (2 if lang == "en" else 1)
        routed = 0
        for joker in (0, 1):
            player.go_to("hand")
            ends = [cell for cell, word in player.words() if word == JOKER]
            assert len(ends) == 2, player.text()
            for cell in range(ends[joker] - width + 1, ends[joker] + 1):
                player.go_to("hand")
                player.press("route", cell)
                assert player.front.viewport.line_key == "choice", player.text()
                assert player.text().startswith(JOKER) and f" {row} r" in player.text()
                routed += 1
                player.route_word(cancel)
        assert routed == 2 * width
        player.go_to("hand")
        player.route_word(JOKER)
        player.route_word(row)
        player.route_word("r10")
        assert player.game.rows["r"][10] == JOKER
        assert player.game.hands[0].count(JOKER) == 1
