"""What the web tests share: a real headless Chromium (Debian's, driven by Playwright; no
browser download) and a player at a web page of a real table server."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from brailledev.network.server.room import Room
from brailledev.network.web.page import page_words
from layouts.screen import Line
from layouts.translations import LANGUAGES
from tests.page_player import PAGE_CONTROLS, Control, Notation, PagePlayer
from tests.server.helpers import ServerThread

CHROMIUM = "/usr/bin/chromium"  # the whole browser, for Orca: it reads a window on a screen
# Debian's headless shell of the same Chromium: no window, no browser interface to draw; a
# whole web game costs it a fifth less processor than the whole browser run headless.
HEADLESS = "/usr/bin/chromium-headless-shell"
# Without these Chromium looks things up on a network the machine has not, and waits.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]
DESKTOP: ViewportSize = {"width": 1100, "height": 900}
PHONE: ViewportSize = {"width": 360, "height": 740}


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium headless shell, with a profile of its own thrown away after."""
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=HEADLESS, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def wait(done: Callable[[], Any], timeout: float = 15, what: str = "",
         explain: Callable[[], str] | None = None) -> Any:
    """Poll ``done`` until it returns something true; fail after ``timeout`` seconds, with
    what ``explain`` says of the state then: ``wait(moved, 15, "the move", seat_state)``."""
    deadline, pause = time.monotonic() + timeout, 0.005
    while True:
        found = done()
        if found:
            return found
        if time.monotonic() >= deadline:
            raise AssertionError(f"never: {what}" + (f" ({explain()})" if explain else ""))
        time.sleep(pause)
        # Asking the page costs Playwright, Node and Chromium a round trip: a long wait asks
        # every 50 ms, not every 10 (a fifth of a whole web game's processor, measured).
        pause = min(0.05, pause * 1.5)


class WebPlayer:
    """A person at a table's web page: ``WebPlayer(browser, url, code).join("Zoe")``."""

    def __init__(self, browser: Browser, url: str, code: str, lang: str = "en",
                 viewport: ViewportSize | None = None) -> None:
        self.context = browser.new_context(viewport=viewport or DESKTOP, locale=lang)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.url, self.code, self.lang = url, code, lang

    def open(self, query: str = "") -> None:
        self.page.goto(f"{self.url}/t/{self.code}{query}")

    def join(self, name: str, query: str = "") -> None:
        self.open(query)
        self.page.fill("#name", name)
        sit = "|".join(re.escape(page_words(lang)["join"]) for lang in LANGUAGES)
        self.page.get_by_role("button", name=re.compile(sit)).click()
        self.page.wait_for_selector("#game:not([hidden])")

    def screen(self) -> int:
        """The number of the screen the page shows."""
        return int(self.page.evaluate("Number(document.body.dataset.screen || 0)"))

    def past(self, number: int) -> bool:
        """Whether the page shows a screen newer than number ``number``."""
        return self.screen() > number

    def log(self) -> list[str]:
        """Every sentence the page's log received, in order (all of them, the folded
        ones too)."""
        return list(self.page.eval_on_selector_all("#history-list p", "items => items.map("
                                                   "i => i.textContent)"))

    def controls(self) -> list[Control]:
        """The controls the page shows, as :mod:`tests.page_player` reads them."""
        found: list[Control] = self.page.evaluate(PAGE_CONTROLS)
        return found

    def click(self, control: Control) -> None:
        """Click ``control`` as a person does (the page's own button, found by its place)."""
        self.page.locator("#game button").nth(control["index"]).click()

    def shown(self) -> list[str]:
        """Every string the page shows of the table (its words, its controls, its
        pictures), the messages and talk apart."""
        return list(self.page.evaluate(VISIBLE))

    def close(self) -> None:
        self.context.close()


# The text of every element shown in the game, one string per element, the log and the talk
# left out (sentences the braille players read too).
VISIBLE = r"""() => {
  const found = [];
  const walker = document.createTreeWalker(document.getElementById('game'), NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent.checkVisibility()) continue;
    if (parent.closest('#log-section, #talk-section, .braille')) continue;
    found.push(node.textContent.trim());
  }
  for (const node of document.querySelectorAll('#game button')) {
    if (node.checkVisibility()) found.push(node.innerText.replace(/\s+/g, ' ').trim());
  }
  return found;
}"""


def play_click(server: ServerThread, code: str, web: WebPlayer, player: PagePlayer,
               notation: Notation, seat: int = 0) -> int:
    """Once the page shows the room's last screen for the seat, click what ``player`` picks
    there (and answer the question it asks, if it asks one); the clicks it took, 0 when the
    game does not wait for the seat. No control clicked shows notation."""
    number = wait(lambda: caught_up(server, code, web, seat), 10, "the page catches up")
    if number < 0:
        return 0
    control = player.pick(web.controls())
    assert control is not None, web.controls()
    assert not notation.reads(control["text"]), control
    web.click(control)
    clicks = 1
    if control["asks"]:
        web.page.wait_for_selector("#question")
        answer = player.pick(web.controls())
        assert answer is not None and answer["area"] == "question", web.controls()
        assert not notation.reads(answer["text"]), answer
        web.click(answer)
        clicks += 1
    with suppress(AssertionError):  # a click the page answers with no new screen
        wait(lambda: web.screen() != number, 5)
    return clicks


def caught_up(server: ServerThread, code: str, web: WebPlayer, seat: int) -> int | None:
    """The number of the screen the page shows once it is the room's last for the seat
    (-1 when the game does not wait for the seat), ``None`` while it is not there yet."""
    def look() -> tuple[bool, int]:
        room = server.room(code)
        game = room.table.game
        waits = not game.is_over() and seat in game.must_act()
        return waits, peer_screen(room, seat)[0]
    waits, number = server.call(look)
    if not waits:
        return -1
    return number if web.screen() == number else None


def peer_screen(room: Room, seat: int) -> tuple[int, tuple[Line, ...], str]:
    """The number, lines and focus of the screen the room last sent the web seat ``seat`` (in
    the server's loop)."""
    screen = room.peers[seat][0].screen
    assert screen is not None, "no screen sent yet"
    return screen
