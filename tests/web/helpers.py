"""What the web tests share: a real headless Chromium (Debian's, driven by Playwright; no
browser download) and a player at a web page of a real table server."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from brailledev.network.server.room import Room
from brailledev.network.web.page import page_words
from layouts.screen import Line, PlayMove
from layouts.translations import LANGUAGES
from tests.play_helpers import wanted
from tests.server.helpers import ServerThread

CHROMIUM = "/usr/bin/chromium"
# Without these Chromium looks things up on a network the machine has not, and waits.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]
DESKTOP: ViewportSize = {"width": 1100, "height": 900}
PHONE: ViewportSize = {"width": 360, "height": 740}


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless, with a profile of its own that is thrown away after."""
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def wait(done: Callable[[], Any], timeout: float = 15, what: str = "") -> Any:
    """Poll ``done`` until it returns something true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        found = done()
        if found:
            return found
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.01)


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
        """Every sentence the page's live region received, in order."""
        return list(self.page.eval_on_selector_all("#log p", "items => items.map(i => "
                                                   "i.textContent)"))

    def close(self) -> None:
        self.context.close()


def peer_screen(room: Room, seat: int) -> tuple[int, tuple[Line, ...], str]:
    """The number and lines of the screen the room last sent the web seat ``seat`` (in the
    server's loop)."""
    screen = room.peers[seat][0].screen
    assert screen is not None, "no screen sent yet"
    return screen


def wanted_target(server: ServerThread, code: str, seat: int) -> str | None:
    """The target id ("line.region") on the web seat's current screen that a careful player
    routes now (:func:`tests.play_helpers.wanted`), None when it may not act."""
    def find() -> str | None:
        room = server.room(code)
        if not room.can_act(seat):
            return None
        reader = room.web_seats[seat]
        lines = peer_screen(room, seat)[1]
        key, index = wanted(lines, room.table.legal(seat), reader.pending)
        row = next(row for row, line in enumerate(lines) if line.key == key)
        return f"{row}.{index}"
    return server.call(find)


def any_playable(server: ServerThread, code: str, seat: int) -> str:
    """A region of the web seat's current screen that plays a legal move."""
    def find() -> str:
        room = server.room(code)
        legal = room.table.legal(seat)
        for row, line in enumerate(peer_screen(room, seat)[1]):
            for column, region in enumerate(line.regions):
                if isinstance(region.target, PlayMove) and region.target.move in legal:
                    return f"{row}.{column}"
        raise AssertionError("nothing to play")
    return server.call(find)
