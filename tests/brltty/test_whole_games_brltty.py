"""A whole game of each of the five games in two of English, French and German (each language in
three or four of the games), on 20 cells, played by keys on a real BRLTTY (Virtual driver): the
news read at the start of each turn, the line found with line keys, panning to the window of the
region, its routing key pressed. Each game also has a refusal shown where the player is (a move
the rules refuse; Elements and Domino offer only allowed moves, so a letter that types no
command), and the newest message read by BRLTTY's HOME key, then BACK to the same place."""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path

import pytest

from brailledev.display.braille import numbers_to_dots, table_for, translator
from brailledev.programs.session import Session
from layouts.catalog import LANGUAGES
from layouts.registry import GAMES
from layouts.screen import MESSAGE_LINE, PlayMove, Refuse
from tests.brltty.harness import Fingers, fingers_on
from tests.play_helpers import ONE_ROUND
from tests.screen_player import choose, my_turn

# Deals that end in a few turns of the player's (players, seed, options).
GAME_SETUP: dict[str, tuple[int, int, dict[str, object]]] = {
    "uno": (2, 7, dict(ONE_ROUND)),
    "rummikub": (4, 5, {"turn_times": 0}),
    "elevens": (4, 9, {}),
    "elements": (3, 0, {}),
    "domino": (2, 11, {}),
}
COLUMNS = 20
NO_COMMAND = {"en": "No command starts with z", "fr": "Aucune commande ne commence par z",
              "de": "Kein Befehl beginnt hier mit z"}
REFUSED = {"en": "Refused:", "fr": "Refusé :", "de": "Abgelehnt:"}


def refused_here(session: Session) -> tuple[str, int] | None:
    """A region the rules refuse when routed, on the screen now."""
    for line in session.seat.lines():
        for index, region in enumerate(line.regions):
            target: Hashable = region.target
            if isinstance(target, Refuse) or (isinstance(target, PlayMove) and session.table.game
                                              .check(session.seat.seat, target.move)):
                return line.key, index
    return None


# Two languages a game: a key costs BRLTTY about 80 ms both ways, and all 15 pairs took 6
# minutes of the suite's time; every pair is played whole on the screen in memory, every cell
# routed (tests/layouts/test_routing_cells.py) and every line read (test_no_notation.py).
PAIRS = [("uno", "en"), ("uno", "fr"), ("rummikub", "fr"), ("rummikub", "de"),
         ("elevens", "en"), ("elevens", "de"), ("elements", "en"), ("elements", "fr"),
         ("domino", "fr"), ("domino", "de")]


def test_every_game_and_every_language_is_played_whole() -> None:
    assert {game for game, _ in PAIRS} == set(GAMES)
    assert {lang for _, lang in PAIRS} == set(LANGUAGES)


@pytest.mark.parametrize(("game", "lang"), PAIRS)
def test_a_whole_game_by_keys_on_a_real_brltty(tmp_path: Path, game: str, lang: str) -> None:
    players, seed, options = GAME_SETUP[game]
    session = Session.start(game, players=players, seed=seed, lang=lang, pace=0,
                            options=options, save=tmp_path / f"{game}.json")
    braille = translator(table_for(lang))
    refused = newest = False
    with fingers_on(session, braille, Fingers, columns=COLUMNS) as player:
        for _ in range(600):
            player.read_all_messages()
            if session.table.game.is_over():
                break
            if not my_turn(session):
                continue
            if not newest and len(session.seat.history.messages) > 1:
                place = player.front.viewport.place()
                player.newest()
                assert player.front.viewport.line_key == MESSAGE_LINE
                assert player.text() and session.seat.history.cursor is None
                player.back()
                assert player.front.viewport.place() == place
                newest = True
            if not refused:
                found = refused_here(session)
                if found is not None:
                    player.route_region(*found)
                    # German Basisschrift marks no capitals: the cells read back in lower case
                    assert player.text().casefold().startswith(REFUSED[lang].split()[0].casefold())
                    refused = True
                elif game in ("elements", "domino"):
                    player.press("send", f"passdots {numbers_to_dots('1356')}")  # z
                    flash = session.seat.flash
                    assert flash is not None and flash.startswith(NO_COMMAND[lang])
                    refused = True
                player.read_all_messages()  # panning reads the refusal, then clears it
            player.route_region(*choose(session), wander=player.pans == 0)
        final = player.read_all_messages()
    assert session.table.game.is_over(), game
    assert refused and newest and player.pans > 0
    assert final or not session.seat.history.fresh  # the end read, or read already
