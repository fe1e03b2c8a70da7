"""A web page whose server goes away: a real ``brailledev serve`` process is killed
(``kill -9``) under a seated page in a real Chromium; the page shows and says that the
connection is lost, tries again by itself, and once the server is started again on the same
store it takes its seat back with the key it kept, says so, and draws the table again; a
page opened anew in the same browser sits at the same seat without asking a name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from brailledev.network.web.page import page_words
from tests.server.helpers import ServeProcess, new_table
from tests.web.helpers import WebPlayer, chromium, wait


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_comes_back_by_itself_after_the_server_restarts(browser, tmp_path, lang):
    words = page_words(lang)
    server = ServeProcess(tmp_path / "tables.db")
    server.start()
    player = None
    try:
        code = new_table(server.url, game="uno", players=2, people=1, seed=5,
                         options={"match_target": 0})
        player = WebPlayer(browser, server.url, code, lang)
        page = player.page
        player.join("Zoe", f"?lang={lang}")
        page.wait_for_selector("#hand .card")
        key = page.evaluate(f"localStorage.getItem('brailledev:{code}')")
        read = len(player.log())
        page.evaluate("document.body.dataset.screen = '0'")  # to see the page drawn again
        server.kill()
        page.wait_for_selector("#connection:not([hidden])")
        assert page.locator("#connection").inner_text() == words["connection_lost"]
        wait(lambda: words["connection_lost"] in player.log()[read:], 5, "lost said")
        server.start()
        page.wait_for_selector("#connection", state="hidden", timeout=15_000)
        wait(lambda: words["connection_back"] in player.log()[read:], 10, "back said")
        wait(lambda: player.screen() > 0, 10, "the table drawn again")
        assert page.locator("#hand .card").count() == 7
        assert page.locator("#players li").first.inner_text().startswith(
            "you" if lang == "en" else "vous")
        assert page.evaluate(f"localStorage.getItem('brailledev:{code}')") == key
        assert not player.errors
        again = player.context.new_page()
        again.goto(f"{server.url}/t/{code}?lang={lang}")
        again.wait_for_selector("#hand .card")
        assert again.locator("#join").is_hidden()
        told = again.eval_on_selector_all("#history-list p",
                                          "items => items.map(i => i.textContent)")
        assert told[:read] == player.log()[:read]
    finally:
        if player is not None:
            player.close()
        server.stop()
