"""The page as people meet it, in a real headless Chromium: axe-core at its current release
(vendored, test-only) finds no WCAG 2.2 A/AA violation on the form and on every game's
table, in English and French, on a desktop and a 360 px phone; the browser's own
accessibility tree gives every control a name that starts with the words it shows (WCAG
2.5.3); the news is one live region and the log is not live; the focus lands on the hand
after sitting down; every control can be reached with Tab and a turn of every game played
with the keyboard alone; at 200% zoom and on a phone the page never scrolls sideways and
every control can be reached."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from layouts.registry import GAMES
from layouts.translations import LANGUAGES
from tests.page_player import PagePlayer
from tests.server.helpers import ServerThread, new_table
from tests.web.helpers import DESKTOP, PHONE, WebPlayer, caught_up, chromium, wait

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SETUP: dict[str, dict[str, Any]] = {
    "uno": {"players": 2, "options": {"match_target": 0}}, "domino": {"players": 2},
    "rummikub": {"players": 2, "options": {"turn_times": 0}}, "elevens": {"players": 2},
    "elements": {"players": 3}}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    with ServerThread() as running:
        yield running


def axe_violations(page: Page) -> list[dict[str, Any]]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        # Evaluated by the browser's tools, as a page's Content-Security-Policy lets them.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})",
                           WCAG)
    return [{"id": v["id"], "nodes": [n["html"][:80] for n in v["nodes"]]}
            for v in result["violations"]]


def seated(browser: Browser, server: ServerThread, game: str, lang: str = "en",
           viewport=DESKTOP, seed: int = 4) -> tuple[WebPlayer, str]:
    code = new_table(server.url, game=game, people=1, seed=seed, pace=0, **SETUP[game])
    player = WebPlayer(browser, server.url, code, lang, viewport)
    player.join("Zoé", f"?lang={lang}")
    player.page.wait_for_selector("#hand .card")
    return player, code


def my_turn(server: ServerThread, code: str) -> bool:
    return bool(server.call(lambda: server.room(code).can_act(0)))


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_axe_finds_nothing_on_a_table(browser, server, game, lang, viewport):
    player, code = seated(browser, server, game, lang, viewport)
    try:
        assert axe_violations(player.page) == []
        # and once a turn is under way (a question asked, a card chosen, a hint laid out)
        pick = PagePlayer(game, lang).pick(player.controls())
        if pick is not None and my_turn(server, code):
            number = player.screen()
            player.click(pick)
            if pick["asks"]:
                player.page.wait_for_selector("#question")
            else:
                wait(lambda: player.screen() != number, 5, "the page after a click")
            assert axe_violations(player.page) == []
        assert not player.errors
    finally:
        player.close()


def test_axe_finds_nothing_on_the_form_nor_on_the_invitation(browser, server):
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        assert page.locator("html").get_attribute("lang") == "fr"
        assert axe_violations(page) == []
        page.select_option("#game", "domino")
        page.fill("#players", "3")
        page.fill("#people", "2")
        page.get_by_role("button", name="Créer la table").click()
        link = page.locator("input.link").input_value()
        assert re.fullmatch(re.escape(server.url) + r"/t/[a-z]{12}", link)
        assert axe_violations(page) == []
        page.get_by_role("link", name="S'asseoir à cette table").click()
        assert page.locator("#join-intro").inner_text() == \
            "Vous êtes invité à une partie de Domino 10-11-12."
        assert axe_violations(page) == []
    finally:
        context.close()


# Every button's accessible name as the browser computes it, beside the words it shows (its
# text, without what is hidden from assistive technologies).
NAMES = """async () => [...document.querySelectorAll('#game button')]
  .filter((node) => node.checkVisibility()).map((node) => {
    const parts = [];
    const walk = (parent) => {
      for (const child of parent.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) parts.push(child.textContent);
        else if (child.getAttribute('aria-hidden') !== 'true') walk(child);
      }
    };
    walk(node);
    return { shown: parts.join(' ').replace(/\\s+/g, ' ').trim(), id: node.dataset.probe };
  })"""


def button_names(page: Page) -> list[tuple[str, str]]:
    """(words shown, accessible name) of every button of the game, the name from the
    browser's own accessibility tree."""
    page.evaluate("() => document.querySelectorAll('#game button')"
                  ".forEach((node, index) => node.dataset.probe = String(index))")
    shown = {item["id"]: item["shown"] for item in page.evaluate(NAMES)}
    session = page.context.new_cdp_session(page)
    tree = session.send("Accessibility.getFullAXTree")["nodes"]
    found = []
    for node in tree:
        if node.get("ignored") or node.get("role", {}).get("value") != "button":
            continue
        described = session.send("DOM.describeNode", {"backendNodeId": node["backendDOMNodeId"]})
        attributes = described["node"].get("attributes", [])
        probe = dict(zip(attributes[::2], attributes[1::2], strict=True)).get("data-probe")
        if probe in shown:
            found.append((shown[probe], node.get("name", {}).get("value", "")))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_control_is_named_by_the_words_it_shows_first(browser, server, game):
    player, _ = seated(browser, server, game, "fr" if game in ("domino", "elements") else "en")
    try:
        names = button_names(player.page)
        assert len(names) >= 3
        for shown, name in names:
            assert name.strip(), shown
            assert name.startswith(shown), (shown, name)
        roles = {node["role"]["value"] for node in ax_nodes(player.page)}
        assert {"list", "status", "textbox"} <= roles and "log" not in roles
        news = player.page.locator("#news")
        assert news.get_attribute("aria-live") == "polite"
        assert news.get_attribute("aria-atomic") == "true"
        assert player.page.locator("#log").get_attribute("aria-live") is None
    finally:
        player.close()


def ax_nodes(page: Page) -> list[dict[str, Any]]:
    """The page's accessibility tree as the browser exposes it, the nodes not ignored."""
    session = page.context.new_cdp_session(page)
    return [node for node in session.send("Accessibility.getFullAXTree")["nodes"]
            if not node.get("ignored")]


@pytest.mark.parametrize("game", GAMES)
def test_the_focus_lands_on_the_hand_and_a_turn_is_played_by_keyboard_alone(browser, server,
                                                                            game):
    player, code = seated(browser, server, game, seed=9)
    page = player.page
    try:
        assert page.evaluate("document.activeElement.closest('#hand') !== null")
        chooser = PagePlayer(game)
        for _ in range(3):
            wait(lambda: my_turn(server, code), 10, "my turn")
            wait(lambda: caught_up(server, code, player, 0), 10, "the page shows my turn")
            assert page.evaluate(HOLDS_FOCUS), page.evaluate(FOCUSED)
            control = chooser.pick(player.controls())
            assert control is not None
            number = player.screen()
            tab_to(page, control["index"])
            page.keyboard.press("Enter")
            if control["asks"]:
                page.wait_for_selector("#question")
                answer = chooser.pick(player.controls())
                assert answer is not None
                assert page.evaluate("document.activeElement.closest('#question') !== null")
                tab_to(page, answer["index"])
                page.keyboard.press("Enter")
            wait(functools.partial(player.past, number), 5, "the screen after the move")
            # placed as the screen is drawn: a control, or while the others play (the bots'
            # pace, seconds under load) the card of the hand the player was at
            assert page.evaluate(HOLDS_FOCUS), page.evaluate(FOCUSED)
            if server.call(lambda: server.room(code).over):
                break
        assert not player.errors
    finally:
        player.close()


# Whether the focus is where a keyboard player is at: a control, or a card of the hand (one
# that cannot be played now is focused, not tabbed to); never lost to the page's body.
HOLDS_FOCUS = ("document.activeElement.matches('#game button') || "
               "document.activeElement.closest('#hand .card') !== null")
FOCUSED = "document.activeElement.outerHTML.trim().slice(0, 200)"


def tab_to(page: Page, index: int) -> None:
    """Tab from where the focus is until the game's button ``index`` has it."""
    for _ in range(400):
        if page.evaluate("i => document.activeElement === "
                         "document.querySelectorAll('#game button')[i]", index):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached button {index}")


def scrolls_sideways(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth > "
                              "document.documentElement.clientWidth"))


def unreachable(page: Page) -> list[str]:
    """Controls that cannot be brought fully into view."""
    return list(page.evaluate("""() => [...document.querySelectorAll(
        'button, a, input, select, summary')].filter(e => e.offsetParent !== null).filter(e => {
          e.scrollIntoView({block: 'center', inline: 'center'});
          const r = e.getBoundingClientRect();
          return r.left < 0 || r.right > document.documentElement.clientWidth + 0.5;
        }).map(e => e.outerHTML.slice(0, 60))"""))


@pytest.mark.parametrize("game", GAMES)
def test_a_phone_and_200_percent_zoom_never_scroll_sideways(browser, server, game):
    player, _ = seated(browser, server, game, viewport=PHONE)
    try:
        assert not scrolls_sideways(player.page)
        assert unreachable(player.page) == []
        player.page.set_viewport_size(DESKTOP)
        player.page.evaluate("document.documentElement.style.zoom = '2'")
        assert not scrolls_sideways(player.page)
        assert unreachable(player.page) == []
    finally:
        player.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_phone_shows_the_whole_score_pad_and_whole_card_names(browser, server, lang):
    for game in ("domino", "elevens"):
        player, _ = seated(browser, server, game, lang, viewport=PHONE)
        try:
            # the pad's total column in view without scrolling its box sideways
            assert player.page.evaluate("[...document.querySelectorAll('.sheetbox')]"
                                        ".every((box) => box.scrollWidth <= box.clientWidth)")
            # no card's name cut by its card's edge (German's "Verbindungskarte")
            cut = player.page.evaluate("""() => [...document.querySelectorAll('.card .name')]
                .filter((name) => name.scrollWidth > name.clientWidth + 0.5)
                .map((name) => name.textContent)""")
            assert cut == [], (game, cut)
        finally:
            player.close()
