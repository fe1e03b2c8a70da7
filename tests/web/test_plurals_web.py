"""Counts on the web page in the plural forms of its language (the catalogs' ``Plural-Forms``):
a Domino round clicked in a real headless Chromium until the player's stock is empty and one
card is left in the hand, the status line and the players' list read at every turn: "2
cards", "1 card", and French's "0 carte" where English and German say "0 cards", "0 Karten"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.page_player import Notation, PagePlayer
from tests.server.helpers import ServerThread, new_table
from tests.web.helpers import WebPlayer, caught_up, chromium, play_click, wait

# What the page shows, as the box's language says it: the stock on the status line at 2, 1
# and 0 cards, and the player's own line at 2 cards and 1.
SHOWN = {"en": (("your stock: 2 cards", "your stock: 1 card", "your stock: 0 cards"),
                ("you, 2 cards, to play", "you, 1 card, to play")),
         "fr": (("votre pioche : 2 cartes", "votre pioche : 1 carte", "votre pioche : 0 carte"),
                ("vous, 2 cartes, à jouer", "vous, 1 carte, à jouer")),
         "de": (("Ihr Stapel: 2 Karten", "Ihr Stapel: 1 Karte", "Ihr Stapel: 0 Karten"),
                ("Sie, 2 Karten, am Zug", "Sie, 1 Karte, am Zug"))}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


@pytest.mark.parametrize("lang", sorted(SHOWN))
def test_the_page_counts_cards_in_the_plural_forms_of_its_language(browser, lang):
    statuses, players = SHOWN[lang]
    with ServerThread() as server:
        code = new_table(server.url, game="domino", players=2, people=1, seed=3, pace=0)
        web = WebPlayer(browser, server.url, code, lang=lang)
        try:
            web.join("Zoe", f"?lang={lang}")
            player, notation = PagePlayer("domino", lang), Notation("domino")
            status: set[str] = set()
            mine: set[str] = set()
            for _ in range(60):
                # read on the screen the seat plays on: a screen between two moves may still
                # show the stock before the draw (missed "1 carte" once in a loaded suite)
                wait(lambda: caught_up(server, code, web, 0), 10, "the page shows the turn")
                status.update(part.strip() for part in web.page.inner_text("#status")
                              .split(","))
                mine.add(web.page.locator("#players li").first.inner_text().strip())
                if players[-1] in mine:
                    break
                play_click(server, code, web, player, notation)
            assert set(statuses) <= status, sorted(status)
            assert set(players) <= mine, sorted(mine)
            assert not web.errors
        finally:
            web.close()
