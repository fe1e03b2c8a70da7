"""Whole games at the web page in a real headless Chromium, played by clicking only: a player
who knows only the page (:mod:`tests.page_player`) picks from the controls it shows, by their
words and marks, and clicks them; no control clicked shows the game's notation, and nothing
is ever typed. Uno, Elevens and Elements against bots, each in English or French; Domino and
Rummikub with a braille player on a real BRLTTY (Virtual driver, ``brailledev join``'s own
client and key loop) pressing routing keys; each reads the other's moves in their own
language, and the page's log receives every sentence the server told the web seat, in order.
No line of the page's log nor of its news names a card by its braille label or in notation
("Cy plays blue 6.", never "b6"); the braille player at the same table reads the labels."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser

from brailledev.display.braille import translator
from brailledev.programs.join import connect
from layouts.registry import kit
from tests.brltty.harness import VirtualBrltty
from tests.brltty.test_table_brltty import SeatFingers, Table, _stop, moved
from tests.page_player import Notation, PagePlayer
from tests.server.helpers import ServerThread, new_table
from tests.web.helpers import WebPlayer, chromium, play_click, wait

pytestmark = pytest.mark.brltty


@pytest.fixture  # a test's own: the file's 8 whole games are spread over the workers
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


def check_told(server: ServerThread, code: str, web: WebPlayer) -> list[str]:
    """The page's log holds exactly the web seat's history, in order."""
    history = server.call(lambda: list(server.room(code).web_seats[0].history.sentences))
    wait(lambda: web.log() == history, 10, "the page's log catches up")
    return history


def web_game(server: ServerThread, code: str, web: WebPlayer, game: str,
             other: Callable[[], None] | None = None, most: int = 1000,
             lang: str = "en", news: list[str] | None = None) -> int:
    """The web seat plays, by clicking, until the game is over (``other``: a braille
    player's turn when the game waits for seat 1; ``lang``: the page's language; ``news``
    gathers what the page said at once and showed as a problem); the clicks it took."""
    table, player, notation = Table(server, code), PagePlayer(game, lang), Notation(game)
    clicks = 0
    while True:
        if news is not None:
            news.extend(text for text in web.page.eval_on_selector_all(
                "#news p, #problem", "items => items.map(i => i.textContent)") if text)
        _, waiting, over = table.now()
        if over:
            return clicks
        if waiting == 0:
            assert not [text for text in web.shown() if notation.reads(text)]
            clicks += play_click(server, code, web, player, notation)
        elif waiting == 1 and other is not None:
            other()
        else:
            time.sleep(0.01)
        assert clicks < most, "the game did not end"


def in_print(texts: list[str], game: str, lang: str) -> list[tuple[str, list[str]]]:
    """The sentences of ``texts`` that name a card by its braille label or in notation,
    with what was found in each."""
    notation = Notation(game, lang)
    return [(text, found) for text in texts if (found := notation.in_sentence(text))]


SETUP: dict[str, dict[str, Any]] = {
    "uno": {"players": 3, "seed": 4, "options": {"match_target": 0}},
    "elevens": {"players": 2, "seed": 2},
    "elements": {"players": 3, "seed": 3},
}


# Each game whole in one language here, in the other at the braille player's table below or
# in German in test_german_web: the words of both are read in every game's pictures
# (test_pictures, test_print_words); a whole game in a browser costs 15-25 s of processor.
@pytest.mark.parametrize(("game", "lang"), [("elements", "fr"), ("elevens", "en"), ("uno", "fr")])
def test_a_web_player_plays_a_whole_game_against_bots_by_clicking_only(browser, game, lang):
    news: list[str] = []
    with ServerThread() as server:
        code = new_table(server.url, game=game, people=1, pace=0, **SETUP[game])
        web = WebPlayer(browser, server.url, code, lang)
        try:
            web.join("Zoe")
            assert web_game(server, code, web, game, lang=lang, news=news) > 10
            told = check_told(server, code, web)
            assert not web.errors
        finally:
            web.close()
    you = kit(game).catalog(lang).text("you")
    assert any(text.startswith(("Zoe", you.capitalize())) for text in told)
    assert news and in_print(told + news, game, lang) == []


@contextmanager
def table_of_two(browser: Browser, tmp_path, lang: str = "en", **settings: Any):
    """Zoe at a web page (seat 0, in ``lang``), Bea on a French braille display (seat 1), a
    bot."""
    with ExitStack() as stack:
        server = stack.enter_context(ServerThread())
        code = new_table(server.url, players=3, people=2, **settings)
        web = WebPlayer(browser, server.url, code, lang)
        stack.callback(web.close)
        web.join("Zoe")
        brltty = stack.enter_context(VirtualBrltty(columns=40))
        joined = connect(server.url, code, "Bea", "fr", None, tmp_path / "Bea.json",
                         "fr-bfu-comp6.utb")
        stack.callback(joined.close)
        fingers = SeatFingers(brltty, joined, translator("fr-bfu-comp6.utb"))
        fingers.thread.start()
        stack.callback(_stop, fingers)
        wait(lambda: fingers.link.started, what="the table starts")
        fingers.settle()
        yield server, code, web, fingers


def braille_turn(server: ServerThread, code: str, fingers: SeatFingers,
                 keys: Callable[[SeatFingers], None]) -> None:
    """The braille player's turn: its keys, once its display shows the table as it is."""
    table = Table(server, code)
    position = table.now()[0]
    fingers.caught_up(position)
    keys(fingers)
    braille_moved(table, fingers, position)


def braille_moved(table: Table, fingers: SeatFingers, position: int) -> None:
    """Wait until the braille seat's keys moved the table on from ``position`` (or left a
    question pending); on a loaded machine the move may take seconds to come round."""
    def state() -> str:
        seat = fingers.joined.seat
        return (f"table at {table.now()}, display {fingers.text()!r} on "
                f"{fingers.front.viewport.line_key}, keys {fingers.front.handled}/"
                f"{fingers.keys}, flash {seat.flash!r}, news {seat.history.texts[-3:]}")
    wait(functools.partial(moved, table, fingers, position), 15, "the braille move", state)


def domino_keys(fingers: SeatFingers) -> None:
    fingers.go_to("hand")
    fingers.press("route", fingers.words()[0][0])  # select the highest card
    fingers.press("route", fingers.words()[0][0])  # its best placement


def rummikub_keys(fingers: SeatFingers) -> None:
    """The hint, played if it lays tiles, else a draw (the hint line says there is no move)."""
    words, seat = fingers.words_of("screen"), fingers.joined.seat
    fingers.route_on("commands", words["hint"])
    hint = next(line for line in seat.lines() if line.key == "hint")
    none = hint.text.startswith(seat.catalog.text("hint_none"))
    fingers.route_on("commands", words["draw"] if none else words["done"])


# The win said last, in the page's language.
WON = {"en": "win", "fr": "gagn"}


@pytest.mark.parametrize(("game", "seed", "keys", "lang"),
                         [("domino", 3, domino_keys, "fr"), ("rummikub", 5, rummikub_keys, "en")])
def test_a_web_player_and_a_braille_player_play_a_whole_game(browser, tmp_path, game, seed,
                                                               keys, lang):
    options = {"turn_times": 0} if game == "rummikub" else {}
    news: list[str] = []
    with table_of_two(browser, tmp_path, lang, game=game, seed=seed, options=options) as (
            server, code, web, fingers):
        other = functools.partial(braille_turn, server, code, fingers, keys)
        assert web_game(server, code, web, game, other, lang=lang, news=news) >= 10
        told = check_told(server, code, web)
        fingers.caught_up(Table(server, code).now()[0])
        heard = fingers.joined.seat.history.texts
        assert not web.errors
    assert any(text.startswith("Bea ") for text in told)
    assert any("Zoe " in text for text in heard)
    assert any(WON[lang] in text.lower() for text in told[-3:]), told[-3:]
    assert news and in_print(told + news, game, lang) == []
    # the braille player reads the cards by their labels, as on the display
    assert len(in_print(heard, game, "fr")) > 5, heard[:10]
