"""German at the web page, in a real headless Chromium whose browser asks for German
(Accept-Language de, no ``?lang`` in the address): a whole game of each of the five games
clicked on the page against bots; and a German page at one Uno table with an English and a
French player on real BRLTTYs (Virtual driver), each reading the others' moves in their own
language."""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from playwright.sync_api import Browser

from brailledev.network.web.page import page_words
from layouts.registry import GAMES
from tests.brltty.test_table_brltty import (
    READERS,
    SeatFingers,
    Table,
    at_display,
    uno_turn,
)
from tests.brltty.test_whole_games_brltty import GAME_SETUP
from tests.page_player import Notation, PagePlayer
from tests.server.helpers import ServerThread, new_table
from tests.web.helpers import WebPlayer, chromium, peer_screen, play_click, wait
from tests.web.test_table_web import braille_moved, check_told, web_game

pytestmark = pytest.mark.brltty
WEB = 0


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


def screen_number(server: ServerThread, code: str) -> int:
    """The number of the last screen the room sent the web seat."""
    return server.call(lambda: peer_screen(server.room(code), WEB)[0])


def english_on(text: str) -> list[str]:
    """The page's English words (those German says otherwise) found in ``text``."""
    german = page_words("de")
    return [english for key, english in page_words("en").items()
            if len(english) > 7 and english != german.get(key) and english in text]


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_in_german_at_the_web_page(browser: Browser, game: str) -> None:
    players, seed, options = GAME_SETUP[game]
    with ServerThread() as server:
        code = new_table(server.url, game=game, players=players, people=1, seed=seed,
                         options=options)
        web = WebPlayer(browser, server.url, code, lang="de")
        try:
            web.join("Zoe")
            assert web.page.get_attribute("html", "lang") == "de"
            clicks = web_game(server, code, web, game, lang="de")
            assert Table(server, code).now()[2], "the game did not end"
            told = check_told(server, code, web)
            assert server.call(lambda: server.room(code).web_seats[WEB].lang) == "de"
            assert clicks > 1 and len(told) > 3 and not web.errors
            assert english_on(web.page.inner_text("body")) == []
        finally:
            web.close()


def test_a_german_page_an_english_and_a_french_display_at_one_table(browser: Browser,
                                                                     tmp_path) -> None:
    with ExitStack() as stack:
        server = stack.enter_context(ServerThread())
        code = new_table(server.url, game="uno", players=3, people=3, seed=7,
                         options={"match_target": 0})
        web = WebPlayer(browser, server.url, code, lang="de")
        stack.callback(web.close)
        web.join("Zoe")
        by_seat: dict[int, SeatFingers] = {}
        for reader in READERS:
            fingers = at_display(stack, server.url, code, reader, tmp_path)
            by_seat[fingers.joined.seat.seat] = fingers
        for fingers in by_seat.values():  # the table starts once the three are seated
            wait(functools.partial(getattr, fingers.link, "started"), what="the table starts")
            fingers.settle()
        table = Table(server, code)
        player, notation = PagePlayer("uno", "de"), Notation("uno")
        for _ in range(400):
            position, waiting, over = table.now()
            if over:
                break
            if waiting == WEB:
                play_click(server, code, web, player, notation)
                continue
            if waiting not in by_seat:
                time.sleep(0.01)
                continue
            fingers = by_seat[waiting]
            fingers.caught_up(position)
            uno_turn(fingers)
            braille_moved(table, fingers, position)
        assert table.now()[2], "the game did not end"
        told = check_told(server, code, web)
        heard = {}
        for fingers in by_seat.values():
            fingers.caught_up(table.now()[0])
            heard[fingers.joined.seat.lang] = fingers.joined.seat.history.texts
        assert not web.errors and screen_number(server, code) > 3
    # each reads the others' moves, and the end, in their own language
    assert any(text.startswith(("Ann spielt", "Ann zieht", "Bea spielt", "Bea zieht"))
               for text in told)
    assert any(text.startswith(("Zoe plays", "Zoe draws", "Bea plays", "Bea draws"))
               for text in heard["en"])
    assert any(text.startswith(("Zoe joue", "Zoe pioche", "Ann joue", "Ann pioche"))
               for text in heard["fr"])
    assert any("win" in text for text in heard["en"][-3:])
    assert any("gagn" in text for text in heard["fr"][-3:])
    assert any("gewinn" in text for text in told[-3:]), told[-3:]
