"""The sentences of a web page's log and news name cards as the box prints them ("Cy plays
blue 6.", "red 4", "yellow element"), never by their braille labels nor in notation, in
every game, in English and French; a braille reader of the same seat reads the labels, as
on the display: whole games at a room held in this process (no browser)."""

from __future__ import annotations

import pytest

from brailledev.network.server.room import RoomLink
from brailledev.table.presence import TableSeat
from layouts.registry import GAMES
from tests.page_player import Notation, PagePlayer, RoomPage

SETUP = {"uno": (3, {"match_target": 0}), "domino": (2, {}),
         "rummikub": (3, {"turn_times": 0}), "elevens": (2, {}), "elements": (3, {})}


def labelled(texts: list[str], notation: Notation) -> list[tuple[str, list[str]]]:
    """Each sentence with the braille labels or notation found in it."""
    return [(text, found) for text in texts if (found := notation.in_sentence(text))]


def braille_reader(page: RoomPage) -> TableSeat:
    """A braille reader of the page's seat, told every change the seat was told."""
    room, seat = page.room, page.page.seat
    reader = TableSeat(RoomLink(room, seat), room.settings.game, room.seats[seat].lang)
    for _, events in room.store.changes(room.code, seat, 0):
        reader.hear(room.codec.decode(events))
    return reader


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_a_web_page_is_told_print_words_and_a_braille_reader_labels(game, lang):
    players, options = SETUP[game]
    page = RoomPage(game, players, seed=3, options=options, lang=lang)
    player, notation = PagePlayer(game, lang), Notation(game, lang)
    turns = 0
    while not page.game.is_over():
        page.run_bots()
        if not page.game.is_over():
            page.play_turn(player)
            turns += 1
        assert turns < 400, "the game did not end"
    sentences = [text for text in page.page.read if text]
    assert len(set(sentences)) > 20
    assert labelled(sentences, notation) == []
    braille = braille_reader(page).history.sentences
    assert len(labelled(braille, notation)) > 5, braille[:10]


def test_labels_and_notation_are_caught_in_a_sentence():
    assert Notation("uno").in_sentence("Cy plays b6.") == ["b6"]
    assert Notation("uno", "fr").in_sentence("Bo pose j7, puis jk+4.") == ["j7", "jk+4"]
    assert Notation("domino").in_sentence("Bo lays 5/3 (5 on c3, 3 on d3).") == ["5/3"]
    assert Notation("elements").in_sentence("You put g10 face down before er.") == ["g10",
                                                                                    "er"]
    assert Notation("elevens").in_sentence("You play yellow 11, then draw.") == []
    assert Notation("rummikub", "fr").in_sentence("Vous tirez jaune 6 pour commencer.") == []
