"""A blind player's own screen reader at the page, for every game: Debian's Orca reads the page
in Chromium (under Xvfb, a private D-Bus and accessibility bus) to a braille display on a real
BRLTTY (:mod:`tests.web.orca`). After sitting down the news since the last turn reaches the
display as one message, then the focus is on the hand; panning from the top of the page
reaches every card of the hand and every player (one desk and one sitting down for both).

A turn of Uno is played by the display's keys alone: panning from the hand (Orca moves the
focus to each card it shows) to a card that can be played, then its routing key.

One Orca at a time (it owns the accessibility bus of its session): the file runs on one
worker, its tests one after another, each on a desk of its own.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from layouts.registry import GAMES
from tests.server.helpers import ServerThread, new_table
from tests.web.helpers import wait
from tests.web.orca import OrcaDesk

pytestmark = [pytest.mark.brltty, pytest.mark.xdist_group("orca")]
SETUP: dict[str, dict[str, Any]] = {
    "uno": {"players": 2, "seed": 4, "options": {"match_target": 0}},
    "domino": {"players": 2, "seed": 3},
    "rummikub": {"players": 2, "seed": 5, "options": {"turn_times": 0}},
    "elevens": {"players": 2, "seed": 2},
    "elements": {"players": 3, "seed": 3}}
MOST_PANS = 300
PLAYABLE = " can be played push button"  # a card of Uno's hand, as Orca shows it
ROUTE_TRIES = 3
# A desk for each page: after a first page was closed, Orca sometimes missed the next page's
# first live-region message (Domino's news, three runs in four).
@pytest.fixture
def desk() -> Iterator[OrcaDesk]:
    with OrcaDesk() as running:
        yield running


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    with ServerThread() as running:
        yield running


def squashed(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def to_the_top(desk: OrcaDesk, page: Page) -> None:
    """The reader at the top of the page: the focus on its first link (another language),
    where a reader's first Tab puts it. (Panning left from the hand back to the top took
    minutes on Elevens' rows, and did not always get there.)"""
    link = page.locator("header a").first
    name = squashed(link.inner_text()).lower()
    link.focus()
    desk.wait_for_text(lambda text: text.lower().startswith(name), 30)


def missed(shown: list[str], wanted: list[str]) -> list[str]:
    """What of ``wanted`` no window of ``shown`` held (a text may run across two windows)."""
    joined, glued = " ".join(shown).lower(), "".join(shown).lower()
    return [text for text in wanted if text not in joined and text not in glued]


def pan_through(desk: OrcaDesk, wanted: list[str], last: str) -> list[str]:
    """Pan right until every text of ``wanted`` has shown, or the display shows ``last`` (the
    end of the page); every window shown, in order (two windows alike, as empty squares of a
    grid, are told apart by time)."""
    shown = [desk.text()]
    for _ in range(MOST_PANS):
        # Patience 2 s: at 1 s, under a load of 6, Orca answered one pan late, the next pan
        # went too, and a card's window was never read (Elevens' red 3).
        shown.append(desk.press("fwinrt", settle=0.12, patience=2))
        if last.lower() in shown[-1].lower() or not missed(shown, wanted):
            return shown
    raise AssertionError(f"panning never reached {last!r}: {shown[-12:]}")


def seated(desk: OrcaDesk, server: ServerThread, game: str) -> tuple[Page, int]:
    """Zoe sits down at a new table of ``game``; her page and where the
    display's texts since she clicked "sit down" begin in ``desk.seen``."""
    code = new_table(server.url, game=game, people=1, pace=0, **SETUP[game])
    page = desk.browser.new_page()
    page.goto(f"{server.url}/t/{code}")
    # Orca's first reading of a new page: 15 s were not enough once, at a load average of 9.
    desk.wait_for_text(lambda text: "h1" in text, 45)
    time.sleep(1)  # Orca reads the new page before the name is typed, as for a person
    page.fill("#name", "Zoe")
    time.sleep(1)
    shown = len(desk.seen)
    page.locator("#join-form button").click()
    page.wait_for_selector("#hand .card")
    return page, shown


@pytest.mark.parametrize("game", GAMES)
def test_orca_shows_the_news_then_the_hand_and_panning_from_the_top_reaches_everything(
        desk, server, game):
    page, shown = seated(desk, server, game)
    try:
        # The news since the last turn, one message: the display starts with its first words.
        news = page.evaluate("document.getElementById('news').textContent")
        told = page.evaluate("[...document.querySelectorAll('#history-list p')]"
                             ".map((p) => p.textContent)")
        assert len(page.locator("#news p").all()) == 1
        assert all(sentence in news for sentence in told), (news, told)
        wait(lambda: any(len(text) > 10 and squashed(news).lower().startswith(text.lower())
                         for text in desk.seen[shown:]), 30, "the news on the display")
        # and the focus on the hand: its first card, as Orca says it
        assert page.evaluate("document.activeElement.closest('#hand') !== null")
        first = squashed(page.locator("#hand .card .name").first.inner_text()).lower()
        wait(lambda: any(text.lower().startswith(first) for text in desk.seen[shown:]), 30,
             "the hand's first card on the display")
        # Then from the top of the page, panning reaches every card and every player.
        cards = [squashed(name).lower()
                 for name in page.locator("#hand .card .name").all_inner_texts()]
        players = [squashed(line).lower()
                   for line in page.locator("#players li").all_inner_texts()]
        to_the_top(desk, page)
        seen = pan_through(desk, cards + players, page.locator("#help summary").inner_text())
        assert not missed(seen, cards + players), (missed(seen, cards + players), seen)
    finally:
        page.close()


def test_orca_a_turn_is_played_by_the_display_keys_alone(desk, server):
    page, _ = seated(desk, server, "uno")
    try:
        first = squashed(page.locator("#hand .card .name").first.inner_text()).lower()
        wait(lambda: desk.text().lower().startswith(first), 30, "the focus on the hand")
        number = page.evaluate("document.body.dataset.screen")
        # Panning on from the hand: Orca moves the focus to each card it shows.
        shown = desk.text()
        for _ in range(MOST_PANS):
            if PLAYABLE in shown and not shown.startswith("wild"):
                break
            shown = desk.press("fwinrt", settle=0.12, patience=1)
        else:
            raise AssertionError("panning never showed a card that can be played")
        card = shown.split(PLAYABLE)[0].strip()
        assert squashed(page.evaluate("document.activeElement.textContent")).lower() \
            .startswith(card)
        # A routing key on it presses it (Orca's routing does the button's action; Orca 43
        # binds no other braille key that acts). Pressed again if Orca let it go: trying
        # here, a key on the window's first cell once did nothing, one on its fourth pressed.
        for _ in range(ROUTE_TRIES):
            desk.press("route 3", settle=0.3, patience=2)
            if page.evaluate("document.body.dataset.screen") != number:
                break
        told = wait(lambda: [text for text in page.evaluate(
            "[...document.querySelectorAll('#history-list p')].map((p) => p.textContent)")
            if text.startswith("You play")], 15, "the card played")
        assert len(told) == 1, told
        assert desk.text() != shown
    finally:
        page.close()
