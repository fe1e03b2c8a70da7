"""A half-made input survives a crash (issue 13.2): for every game, an input routed on the
memory display (a Wild waiting for its colour, tiles selected, a card whose places are
offered) is saved at once; the game resumed from its file after the process is gone shows
the same lines, and the display shows the same choice again."""

from __future__ import annotations

from pathlib import Path

import pytest

from brailledev.display.braille import translator
from brailledev.display.keys import LineDown, Top
from brailledev.display.memory import MemoryDisplay
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from games.core import BadState
from layouts.registry import GAMES, kit
from layouts.screen import HELP_LINE, MESSAGE_LINE, Ask
from tests.route_keys import keys_to

EN = translator("en-ueb-g1.ctb")
PLAYERS = {"elements": 3}
OPTIONS = {"uno": {"match_target": 0}}


def screen_of(session: Session) -> dict[str, str]:
    """What the lines say, the messages aside (a resumed game says so there)."""
    return {line.key: line.text for line in session.seat.lines()
            if line.key not in (MESSAGE_LINE, HELP_LINE)}


def an_ask(session: Session) -> tuple[str, int] | None:
    """The first region that starts an input the screen shows (not on the message or
    command line)."""
    plain = screen_of(session)
    for line in session.seat.lines():
        if line.key in (MESSAGE_LINE, HELP_LINE, "commands"):
            continue
        for index, region in enumerate(line.regions):
            if isinstance(region.target, Ask) and region.target.pending is not None:
                session.seat.pending = region.target.pending
                shows = screen_of(session) != plain
                session.seat.pending = None
                if shows:
                    return line.key, index
    return None


def started(game: str, path: Path) -> tuple[Front, MemoryDisplay, tuple[str, int]]:
    """A game on the memory display where the person can start an input now."""
    for seed in range(60):
        session = Session.start(game, players=PLAYERS.get(game, 2), seed=seed, lang="en",
                                options=OPTIONS.get(game), save=path, pace=0)
        session.table.run_bots()
        found = an_ask(session)
        if found is not None and session.table.game.must_act() == [0]:
            display = MemoryDisplay(40)
            front = Front(session, display, EN)
            front.redraw()
            return front, display, found
    raise AssertionError(f"no {game} deal lets the person start an input")


def press(front: Front, keys) -> None:
    """Keys as the key loop handles them: each pressed, then what is due, then a redraw."""
    for key in keys:
        front.press(key)
        front.session.step()
        front.redraw()


@pytest.mark.parametrize("game", GAMES)
def test_a_half_made_input_is_back_after_a_crash(game, tmp_path):
    path = tmp_path / f"{game}.json"
    front, _, (line_key, region) = started(game, path)
    session = front.session
    plain = screen_of(session)
    press(front, keys_to(session.seat.lines(), line_key, region, EN))
    assert session.seat.pending is not None
    shown = screen_of(session)
    assert shown != plain, "the input shows on the screen"
    # The process dies here: nothing more is saved.
    again = Session.resume(path, pace=0)
    assert again.seat.pending == session.seat.pending
    assert screen_of(again) == shown
    changed = next(key for key in shown if shown[key] != plain.get(key))
    display = MemoryDisplay(40)
    resumed = Front(again, display, EN)
    resumed.redraw()
    press(resumed, [Top()])
    for _ in range(len(shown) + 1):
        if resumed.viewport.line_key == changed:
            break
        press(resumed, [LineDown()])
    words = next(line for line in again.seat.lines() if line.key == changed).text.split()
    assert display.writes[-1].text is not None
    shown_words = display.writes[-1].text[0].split()
    assert shown_words[:2] == words[:2], "the display shows the line with the input"


@pytest.mark.parametrize("game", GAMES)
def test_an_input_that_does_not_fit_the_game_is_refused(game, tmp_path):
    """A saved input naming a card the seat does not hold is damage, not a crash."""
    path = tmp_path / f"{game}.json"
    front, _, (line_key, region) = started(game, path)
    session = front.session
    press(front, keys_to(session.seat.lines(), line_key, region, EN))
    saved = session.seat.screen.save_input(session.seat.pending)
    view = session.seat.view()
    assert session.seat.screen.load_input(saved, view) == session.seat.pending
    damaged_inputs: list[object] = [5, "x", [], {"zz": 1}, _other_cards(saved)]
    for damaged in damaged_inputs:
        with pytest.raises(BadState):
            session.seat.screen.load_input(damaged, view)
    assert kit(game).screen is session.seat.screen


def _other_cards(saved):
    """``saved`` with every card text replaced by one no hand holds."""
    if isinstance(saved, dict):
        return {key: _other_cards(value) for key, value in saved.items()}
    if isinstance(saved, list):
        return [_other_cards(value) for value in saved]
    if isinstance(saved, str) and saved:
        return "q99"
    if isinstance(saved, int) and not isinstance(saved, bool):
        return 9_999
    return saved
