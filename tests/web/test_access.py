"""The page as people meet it, in a real headless Chromium: axe-core (vendored, test-only)
finds no WCAG 2.2 A/AA violation on the form and on the Uno and Domino tables, in English
and French, on a desktop and a 360 px phone; the browser's own accessibility tree gives
every control a name and a role, the hand is a list, the messages a log; a player plays
by keyboard alone and keeps the focus after a move; at 200% zoom and on a phone the page
never scrolls sideways and every control can be reached."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from layouts.registry import kit
from tests.server.helpers import ServerThread, new_table
from tests.web.helpers import DESKTOP, PHONE, WebPlayer, chromium, wait, wanted_target

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    with ServerThread() as running:
        yield running


def axe_violations(page: Page) -> list[dict[str, Any]]:
    # Evaluated by the browser's tools, as a page's Content-Security-Policy lets them.
    page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})",
                           WCAG)
    return [{"id": v["id"], "nodes": [n["html"][:80] for n in v["nodes"]]}
            for v in result["violations"]]


def seated(browser: Browser, server: ServerThread, game: str, lang: str = "en",
           viewport=DESKTOP, seed: int = 4) -> tuple[WebPlayer, str]:
    code = new_table(server.url, game=game, players=3 if game == "elements" else 2, people=1,
                     seed=seed,
                     options={"match_target": 0} if game == "uno" else {})
    player = WebPlayer(browser, server.url, code, lang, viewport)
    player.join("Zoé", f"?lang={lang}")
    player.page.wait_for_selector("#hand li")
    return player, code


@pytest.mark.parametrize(("game", "lang", "viewport"), [
    ("uno", "en", DESKTOP), ("uno", "fr", PHONE), ("domino", "fr", DESKTOP),
    ("domino", "en", PHONE), ("rummikub", "en", DESKTOP), ("elevens", "fr", PHONE),
    ("elements", "en", DESKTOP)])
def test_axe_finds_nothing_on_a_table(browser, server, game, lang, viewport):
    player, _ = seated(browser, server, game, lang, viewport)
    try:
        assert axe_violations(player.page) == []
        assert not player.errors
        # the hand (Rummikub's rack) and what the game's picture draws are not actions too
        actions = player.page.eval_on_selector_all("#actions [data-line]",
                                                   "nodes => nodes.map(n => n.dataset.line)")
        assert actions and kit(game).picture.hand not in actions
        assert not any(key == "columns" or key.startswith("grid") for key in actions), actions
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
    finally:
        context.close()


def ax_nodes(page: Page) -> list[dict[str, Any]]:
    session = page.context.new_cdp_session(page)
    return list(session.send("Accessibility.getFullAXTree")["nodes"])


def test_every_control_has_a_name_and_a_role_and_the_log_is_live(browser, server):
    player, _ = seated(browser, server, "uno")
    try:
        nodes = [node for node in ax_nodes(player.page) if not node.get("ignored")]
        roles = [node["role"]["value"] for node in nodes]
        buttons = [node for node in nodes if node["role"]["value"] == "button"]
        assert len(buttons) > 7
        for node in buttons:
            assert node.get("name", {}).get("value", "").strip(), node
        cards = [node["name"]["value"] for node in buttons
                 if re.search(r"\(([rygb]|wi)", node["name"]["value"])]
        assert cards and all(re.fullmatch(r"(red|yellow|green|blue|wild).*\(.+\)", name)
                             for name in cards), cards
        assert "list" in roles and "log" in roles and "textbox" in roles
        log = player.page.locator("#log")
        assert log.get_attribute("aria-live") == "polite"
        assert log.get_attribute("role") == "log"
        assert player.page.locator("#hand > li").count() == 7
    finally:
        player.close()


def test_a_player_plays_by_keyboard_alone_and_keeps_the_focus(browser, server):
    player, code = seated(browser, server, "uno", seed=9)
    page = player.page
    try:
        for _ in range(4):
            wait(lambda: server.call(lambda: server.room(code).can_act(0)), 10, "my turn")
            target = wanted_target(server, code, 0)
            number = player.screen()
            page.locator("body").focus()
            for _ in range(80):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.dataset.target") == target:
                    break
            else:
                raise AssertionError(f"Tab never reached {target}")
            page.keyboard.press("Enter")
            wait(functools.partial(player.past, number), 5, "the screen after the move")
            focused = page.evaluate("[document.activeElement.tagName, "
                                    "document.activeElement.closest('section')?.id || "
                                    "document.activeElement.closest('[aria-labelledby]')?.id]")
            assert focused[0] == "BUTTON", focused
            if server.call(lambda: server.room(code).over):
                break
        assert any(text.startswith("You play") or text.startswith("You draw")
                   for text in player.log())
    finally:
        player.close()


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


@pytest.mark.parametrize("game", ["uno", "domino", "rummikub", "elevens", "elements"])
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
