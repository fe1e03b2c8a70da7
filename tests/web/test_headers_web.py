"""The pages under their own headers in a real Chromium (issue 31, finding 8): the form and
the table page run with their Content-Security-Policy (no inline script or style) and the
browser reports no violation while a player sits down and plays; another site's page that
frames them is shown nothing of them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.page_player import Notation, PagePlayer
from tests.server.helpers import ServerThread, new_table
from tests.web.helpers import WebPlayer, chromium, play_click, wait


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


@pytest.fixture
def server() -> Iterator[ServerThread]:
    with ServerThread() as running:
        yield running


def test_a_player_sits_and_plays_with_no_policy_violation(browser, server):
    code = new_table(server.url, game="uno", players=2, people=1, seed=5,
                     options={"match_target": 0})
    player = WebPlayer(browser, server.url, code)
    console: list[str] = []
    player.page.on("console", lambda message: console.append(message.text))
    try:
        player.page.goto(server.url + "/")
        player.join("Zoe")
        player.page.wait_for_selector("#hand .card")
        wait(lambda: server.call(lambda: server.room(code).can_act(0)), 15, "Zoe's turn")
        moves = server.call(lambda: server.room(code).table.moves)
        assert play_click(server, code, player, PagePlayer("uno"), Notation("uno")) > 0
        wait(lambda: server.call(lambda: server.room(code).table.moves) > moves, 15,
             "the card played")
        assert not player.errors
        assert not [text for text in console if "Content Security Policy" in text], console
    finally:
        player.close()


def test_another_site_cannot_frame_the_pages(browser, server):
    code = new_table(server.url, game="uno", players=2, people=1, seed=5)
    context = browser.new_context()
    page = context.new_page()
    try:
        page.set_content(f'<iframe id="form" src="{server.url}/"></iframe>'
                         f'<iframe id="table" src="{server.url}/t/{code}"></iframe>')
        page.wait_for_timeout(1000)
        assert len(page.frames) == 3
        for frame in page.frames[1:]:  # the browser's own "blocked" page instead
            shown = frame.content()
            assert 'name="form_token"' not in shown and 'id="join-form"' not in shown
    finally:
        context.close()
