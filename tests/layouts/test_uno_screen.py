"""The Uno screen's words: who a challenge or a catch is against, the end of the game."""

from __future__ import annotations

import pytest

from games.core import events_for
from layouts.catalog import Catalog
from layouts.screen import Context, Messages, seat_names
from layouts.uno.screen import SCREEN
from tests.games.test_uno import new, play, rig


def told(events: list, seat: int, lang: str) -> list[str]:
    """What ``seat`` is told of ``events`` in ``lang``."""
    catalog = Catalog.load("uno", lang)
    context = Context(seat, seat_names(3, seat, catalog), Messages(), None, catalog)
    return [text for event in events_for(events, seat)
            if (text := SCREEN.describe(event, context))]


def challenged() -> list:
    """Seat 0 bluffs a Wild Draw Four (it holds a red card on red), seat 1 challenges."""
    game = rig(new(), hands=[["r3", "wi+4", "b1"], ["b7", "g7"], ["b2", "y4"]],
               discard=["r9"], colour="r", current=0)
    play(game, 0, "wi+4:g")
    return play(game, 1, "challenge")


@pytest.mark.parametrize(("lang", "seat", "said"), [
    ("en", 1, "You challenge Bo: bluff! The wi+4 goes back to Bo's hand."),
    ("en", 0, "Bo challenges you: bluff! The wi+4 goes back to your hand."),
    ("en", 2, "Cy challenges Bo: bluff! The wi+4 goes back to Bo's hand."),
    ("fr", 1, "Vous contestez Bo : bluff ! Le jk+4 retourne dans la main de Bo."),
    ("fr", 0, "Bo vous conteste : bluff ! Le jk+4 retourne dans votre main."),
    ("fr", 2, "Cy conteste Bo : bluff ! Le jk+4 retourne dans la main de Bo.")])
def test_uno_6_a_won_challenge_says_the_wild_goes_back(lang, seat, said):
    assert told(challenged(), seat, lang)[0] == said


@pytest.mark.parametrize(("lang", "said"), [("en", "Bo catches you: no UNO!"),
                                            ("fr", "Bo vous prend : pas dit UNO !")])
def test_uno_7_a_catch_of_the_player_is_told_to_them(lang, said):
    game = rig(new(), hands=[["r3", "r5"], ["b7", "r7", "g7"], ["b2", "y4"]],
               discard=["r9"], colour="r", current=0)
    play(game, 0, "r3")
    assert told(play(game, 1, "catch 0"), 0, lang)[0] == said


@pytest.mark.parametrize(("lang", "over"), [("en", "game over"), ("fr", "partie finie")])
def test_after_the_last_round_the_status_line_says_the_game_is_over(lang, over):
    game = rig(new(match_target=0), hands=[["r3"], ["b7", "g7"], ["b2", "y4"]],
               discard=["r9"], colour="r", current=0)
    catalog = Catalog.load("uno", lang)
    context = Context(0, seat_names(3, 0, catalog), Messages(), None, catalog)
    assert over not in SCREEN.status(game.view(0), context).text
    play(game, 0, "r3")
    assert game.is_over()
    status = [region.text for region in SCREEN.status(game.view(0), context).regions]
    assert status[1] == f"{over},"
