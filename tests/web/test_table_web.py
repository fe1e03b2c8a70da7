"""A sighted player at a web page in a real headless Chromium and a braille player on a
real BRLTTY (Virtual driver, ``brailledev join``'s own client and key loop) play whole
games together against a bot at a real table server: the page is clicked as a person
clicks it (the control the test picks is found in the page by its target), the braille
player presses routing keys; each reads the other's moves in their own language, and the
page's live region receives every sentence the server told the web seat, in order."""

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
from tests.brltty.harness import VirtualBrltty
from tests.brltty.test_table_brltty import SeatFingers, Table, _stop, short_uno_deal
from tests.play_helpers import wanted
from tests.server.helpers import ServerThread, new_table
from tests.web.helpers import (
    WebPlayer,
    any_playable,
    chromium,
    peer_screen,
    wait,
    wanted_target,
)

pytestmark = pytest.mark.brltty


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


@contextmanager
def table_of_two(browser: Browser, tmp_path, **settings: Any):
    """Zoe at a web page (seat 0, English), Bea on a French braille display (seat 1), a bot.
    """
    with ExitStack() as stack:
        server = stack.enter_context(ServerThread())
        code = new_table(server.url, players=3, people=2, **settings)
        web = WebPlayer(browser, server.url, code)
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


def web_turn(server: ServerThread, code: str, web: WebPlayer,
             pick: Callable[[], tuple[int, str] | None]) -> bool:
    """Click what ``pick`` chose on the screen the page shows; False if the screen moved on
    meanwhile (nothing was clicked, or the click was refused as stale)."""
    picked = pick()
    if picked is None:
        return False
    number, target = picked
    try:
        wait(lambda: web.screen() >= number, 5)
    except AssertionError:
        return False
    if web.screen() != number:
        return False
    web.page.click(f'[data-target="{target}"]')
    deadline = time.monotonic() + 5
    while web.screen() == number and time.monotonic() < deadline:
        time.sleep(0.005)
    return web.screen() != number


def play_out(server: ServerThread, code: str, web: WebPlayer, fingers: SeatFingers,
             web_pick: Callable[[], tuple[int, str] | None],
             braille_turn: Callable[[SeatFingers], None], most: int = 400) -> int:
    """Whoever the game waits for acts, until it is over; returns the turns taken."""
    table = Table(server, code)
    turns = 0
    while True:
        position, waiting, over = table.now()
        if over:
            return turns
        if waiting == 0:
            turns += web_turn(server, code, web, web_pick)
        elif waiting == 1:
            fingers.caught_up(position)
            braille_turn(fingers)
            turns += 1
            moved = functools.partial(_moved, table, fingers, position)
            wait(moved, 5, "the braille move is played")
        else:
            time.sleep(0.01)
        assert turns < most, "the game did not end"


def _moved(table: Table, fingers: SeatFingers, position: int) -> bool:
    return table.now()[0] != position or fingers.joined.seat.pending is not None


def screen_number(server: ServerThread, code: str) -> int:
    return server.call(lambda: peer_screen(server.room(code), 0)[0])


def check_told(server: ServerThread, code: str, web: WebPlayer) -> list[str]:
    """The page's live region holds exactly the web seat's history, in order."""
    history = server.call(lambda: list(server.room(code).web_seats[0].history.sentences))
    wait(lambda: web.log() == history, 10, "the page's log catches up")
    return history


def test_a_web_player_and_a_braille_player_play_a_whole_uno_game(browser, tmp_path):
    with table_of_two(browser, tmp_path, game="uno", seed=short_uno_deal(),
                      options={"match_target": 0}) as (server, code, web, fingers):
        def pick() -> tuple[int, str] | None:
            number = screen_number(server, code)
            target = wanted_target(server, code, 0)
            return None if target is None else (number, target)

        def braille_turn(fingers: SeatFingers) -> None:
            lines = fingers.joined.seat.lines()
            key, index = wanted(lines, fingers.link.legal(), fingers.joined.seat.pending)
            region = next(line for line in lines if line.key == key).regions[index]
            fingers.route_on(key, region.text.split()[0])

        assert play_out(server, code, web, fingers, pick, braille_turn) > 2
        told = check_told(server, code, web)
        fingers.caught_up(Table(server, code).now()[0])
        heard = fingers.joined.seat.history.texts
        assert not web.errors
    assert any(text.startswith(("Bea plays", "Bea draws")) for text in told)
    assert any(text.startswith(("Zoe joue", "Zoe pioche")) for text in heard)
    assert any("win" in text for text in told[-3:])
    assert any("gagn" in text for text in heard[-3:])


def test_a_web_player_and_a_braille_player_play_a_whole_domino_game(browser, tmp_path):
    with table_of_two(browser, tmp_path, game="domino", seed=3) as (server, code, web,
                                                                     fingers):
        def pick() -> tuple[int, str] | None:
            number = screen_number(server, code)
            if not server.call(lambda: server.room(code).can_act(0)):
                return None
            return number, any_playable(server, code, 0)

        def braille_turn(fingers: SeatFingers) -> None:
            fingers.go_to("hand")
            fingers.press("route", fingers.words()[0][0])  # select the highest card
            fingers.press("route", fingers.words()[0][0])  # its best placement

        assert play_out(server, code, web, fingers, pick, braille_turn) >= 20
        told = check_told(server, code, web)
        fingers.caught_up(Table(server, code).now()[0])
        heard = fingers.joined.seat.history.texts
        grid = web.page.eval_on_selector_all("table.grid span.square:not(.empty)",
                                             "squares => squares.length")
        assert not web.errors
    assert grid > 10
    assert any(text.startswith("Bea ") for text in told)
    assert any("Zoe " in text for text in heard)
    assert any("win" in text for text in told[-3:]), told[-3:]
