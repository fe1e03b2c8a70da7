"""Panning never splits a word or a card (issues 32.4 and 37.8): every line a player meets in
a whole game of each of the five games (the screen's lines at each turn, every message and
refusal as the message line shows it; at most 150 of them, spread through the game), laid out
at every width from 12 to 80 cells (the even widths with one table of the language, the odd
ones with the other: uncontracted and contracted), is cut only between words; a cut
inside a word is left only to a word longer than a whole window."""

from __future__ import annotations

import functools

import pytest

from brailledev.display.braille import BLANK, Braille, translator
from brailledev.display.window import MARKER_CELLS, MAX_COLUMNS, MIN_COLUMNS, lay_out_line
from brailledev.programs.session import Session
from layouts.registry import GAMES
from layouts.screen import MESSAGE_LINE, Line, words
from tests.brltty.test_whole_games_brltty import GAME_SETUP
from tests.screen_player import choose, my_turn

TABLES = {"en": ("en-ueb-g1.ctb", "en-ueb-g2.ctb"), "fr": ("fr-bfu-comp6.utb", "fr-bfu-g2.ctb")}
# Lines of a game checked at each width (spread over the whole game's lines): a Domino game
# alone has over a thousand, which made this file cost 150 s.
MOST_LINES = 150


def spread(lines: frozenset[Line], most: int = MOST_LINES) -> list[Line]:
    """At most ``most`` of ``lines``, taken at even steps through them in a fixed order."""
    ordered = sorted(lines, key=lambda line: (line.key, line.text))
    step = max(1, -(-len(ordered) // most))
    return ordered[::step]


@functools.cache
def game_lines(game: str, lang: str) -> frozenset[Line]:
    """The lines of a whole game as its person reads them, bots in the other seats."""
    players, seed, options = GAME_SETUP[game]
    session = Session.start(game, players=players, seed=seed, lang=lang, pace=0,
                            options=options)
    seat, seen = session.seat, set[Line]()
    for _ in range(3000):
        if session.table.game.is_over():
            break
        if session.table.bot_move() or not my_turn(session):
            continue
        seen.update(seat.lines())
        key, index = choose(session)
        seat.route(next(line for line in seat.lines() if line.key == key).regions[index]
                   .target)
        if seat.flash is not None:
            seen.add(Line(MESSAGE_LINE, words(seat.flash)))
            seat.clear_flash()
    assert session.table.game.is_over(), game
    seen.update(seat.lines())
    seen.update(Line(MESSAGE_LINE, words(text)) for text in seat.history.texts)
    return frozenset(seen)


def split_word(cells: Braille, at: int, columns: int) -> bool:
    """Whether a cut before cell ``at`` splits a word that a window could hold whole."""
    if at in (0, len(cells)) or BLANK in (cells.cells[at], cells.cells[at - 1]):
        return False
    start = cells.cells.rfind(BLANK, 0, at) + 1
    end = cells.cells.find(BLANK, at)
    end = len(cells) if end < 0 else end
    return end - start <= columns - 2 * MARKER_CELLS


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("lang", "table"), [(lang, table) for lang, tables in TABLES.items()
                                             for table in tables])
def test_no_window_splits_a_word_or_a_card_at_any_width(game: str, lang: str, table: str):
    lines = spread(game_lines(game, lang))
    assert len(lines) > 20
    braille = translator(table)
    splits = []
    # The two tables of a language share the widths: one the even ones, one the odd ones.
    first = MIN_COLUMNS + TABLES[lang].index(table)
    for columns in range(first, MAX_COLUMNS + 1, 2):
        for line in lines:
            laid = lay_out_line(line, braille, columns)
            splits += [(columns, line.regions[piece.region].text, at)
                       for window in laid.windows for piece in window.pieces
                       for at in (piece.start, piece.stop)
                       if split_word(laid.braille[piece.region], at, columns)]
    assert not splits, splits[:5]
