"""Domino 10-11-12: a square keeps its name for the whole round, on the screen and in what the
engine tells, however the layout grows (left of ``a`` and above ``1`` included)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from games.domino import BOTS, Domino
from games.domino.engine import Placed, RoundStarted
from games.domino.grid import Opening, column_index, parse_square, square_key, square_name
from layouts.catalog import Catalog, rules_data
from layouts.domino.screen import SCREEN
from layouts.screen import Context, Messages

DATA = rules_data("domino")
CATALOG = Catalog.load("domino", "en")
GLYPHS = CATALOG.section("grid")
DOT_7, DOT_8 = 0x40, 0x80


def column_read(cell: str) -> str:
    """A column's name as the header cell shows it: the letter, a minus for dot 7, and for
    dot 8 (``aa`` and after) the last letter only, marked with ``+``."""
    bits = ord(cell) - 0x2800
    letter = "abcdefghijklmnopqrstuvwxyz"[GLYPHS["letters"].index(chr(0x2800 | bits & 0x3F))]
    return ("-" if bits & DOT_7 else "+" if bits & DOT_8 else "") + letter


def squares_on_screen(game: Domino, seat: int) -> dict[str, str]:
    """Every occupied square as the screen shows it: its name read from the column header and
    the row line's key, and the glyph of its half."""
    context = Context(seat, ("you", "Bo", "Cy", "Di")[:game.players], Messages(),
                      None, CATALOG)
    lines = SCREEN.screen(game.view(seat), context)
    header = next(line for line in lines if line.key == "columns").regions[1:]
    columns = [column_read(region.text) for region in header]
    shown: dict[str, str] = {}
    for line in lines:
        found = re.fullmatch(r"grid(-?[0-9]+)", line.key)
        if found is None:
            continue
        for column, region in zip(columns, line.regions[1:], strict=True):
            if region.text != GLYPHS["empty"]:
                shown[f"{column}{found.group(1)}"] = region.text
    return shown


def names_of(text: str) -> dict[str, int]:
    """The squares of a move as people read it (``6/0@c4>``, or an opening's two cards),
    with the pips laid on each."""
    named: dict[str, int] = {}
    for part in text.split():
        halves, square = part.split("@")
        first, second = (int(pips) for pips in halves.split("/"))
        x, y = parse_square((0, 0), square[:-1]) or (0, 0)
        named[square[:-1]] = first
        named[square_name((0, 0), (x, y + 1) if square[-1] == "v" else (x + 1, y))] = second
    return named


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3]),
       bots=st.sampled_from(["random", "heuristic"]))
def test_no_square_name_ever_changes_in_a_round(seed, players, bots):
    game = Domino.new(players, seed, DATA)
    seated = {seat: BOTS[bots](seed + seat) for seat in range(players)}
    told: dict[str, int] = {}  # what the engine said lies where, this round
    seen: dict[str, str] = {}  # what the screen showed where, this round
    rounds = 0
    while not game.is_over():
        seat = game.actors()[0]
        move = seated[seat].choose(game.view(seat), game.legal_moves(seat))
        assert move is not None
        for event in game.play(seat, move):
            if isinstance(event, Placed):
                for name, pips in names_of(event.notation).items():
                    assert told.setdefault(name, pips) == pips, (name, event.notation)
            if isinstance(event, RoundStarted):
                told, seen, rounds = {}, {}, rounds + 1
        # every card on the table is still named as it was when laid ...
        for place in game.table:
            assert names_of(game.name_move(place)).items() <= told.items()
        # ... and the screen shows each square under the name it first had, with its half
        reader = game.actors()[0] if game.actors() else 0
        shown = {name: glyph for name, glyph in squares_on_screen(game, reader).items()
                 if not name.startswith("+")}  # past column z only the last letter shows
        assert all(GLYPHS["halves"][told[name]] == glyph for name, glyph in shown.items())
        assert seen.items() <= shown.items()  # no square lost or renamed since it showed
        seen = shown
    assert rounds == players - 1


def test_names_sort_as_the_squares_lie():
    squares = [(x, y) for x in range(-40, 40) for y in range(-40, 40)]
    names = {square_name((0, 0), square): square for square in squares}
    assert len(names) == len(squares)  # one name per square
    by_name = sorted(names, key=square_key)
    assert [names[name] for name in by_name] == sorted(squares, key=lambda s: (s[1], s[0]))
    assert [column_index(c) for c in ("-b", "-a", "a", "b", "z", "aa")] == [-2, -1, 0, 1, 25, 26]
    assert all(parse_square((0, 0), name) == square for name, square in names.items())


def test_the_first_card_of_every_opening_lies_on_c3():
    game = Domino.new(2, 3, DATA)
    for option in game.options(game.actors()[0]):
        assert isinstance(option.move, Opening)
        assert game.name_move(option.move).split()[0].endswith(("@c3>", "@c3v"))


def test_a_layout_grown_left_of_a_is_named_with_minus_columns_on_screen_and_in_words():
    game = Domino.new(2, 4, DATA)
    bots = {seat: BOTS["heuristic"](seat) for seat in range(2)}
    told: list[str] = []
    for _ in range(12):
        seat = game.actors()[0]
        move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
        assert move is not None
        told += [event.notation for event in game.play(seat, move) if isinstance(event, Placed)]
    shown = squares_on_screen(game, 0)
    left = sorted((name for name in shown if name.startswith("-")), key=square_key)
    assert left and all(name in shown for text in told for name in names_of(text))
    assert any("@-" in text for text in told)  # the engine told those squares alike
