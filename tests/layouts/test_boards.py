"""Each game's board: the bands designed for 40 x 9 (a Canute 360), 32 x 10 (a Monarch) and
20 x 7 (a Dot Pad), and any size from 2 rows up laid out whole, the reading band first and
the line the player acts on always there."""

from __future__ import annotations

from functools import cache

import pytest

from brailledev.display.braille import table_for, translator
from brailledev.display.page import Page
from brailledev.programs.session import Session
from layouts.board import READING, Size
from layouts.registry import GAMES, kit

DESIGN: dict[str, dict[tuple[int, int], list[tuple[str, int]]]] = {
    "uno": {
        (40, 9): [("messages", 2), ("status", 2), ("hand", 3), ("choice", 1), ("commands", 1)],
        (32, 10): [("messages", 2), ("status", 2), ("hand", 4), ("choice", 1), ("commands", 1)],
        (20, 7): [("messages", 1), ("status", 2), ("hand", 2), ("choice", 1), ("commands", 1)],
    },
    "domino": {
        (40, 9): [("messages", 1), ("status", 1), ("grid", 5), ("hand", 1), ("places", 1)],
        (32, 10): [("messages", 2), ("status", 1), ("grid", 5), ("hand", 1), ("places", 1)],
        (20, 7): [("messages", 1), ("grid", 4), ("hand", 1), ("places", 1)],
    },
    "rummikub": {
        (40, 9): [("messages", 2), ("status", 1), ("sets", 3), ("selection", 1), ("rack", 1),
                  ("commands", 1)],
        (32, 10): [("messages", 2), ("status", 1), ("sets", 3), ("selection", 1), ("rack", 2),
                   ("commands", 1)],
        (20, 7): [("messages", 1), ("status", 1), ("sets", 2), ("selection", 1), ("rack", 1),
                  ("commands", 1)],
    },
    "elevens": {
        (40, 9): [("messages", 1), ("status", 1), ("rows", 4), ("hand", 1), ("choice", 1),
                  ("commands", 1)],
        (32, 10): [("messages", 1), ("status", 1), ("rows", 4), ("hand", 1), ("choice", 1),
                   ("turn", 1), ("commands", 1)],
        (20, 7): [("messages", 1), ("rows", 4), ("hand", 1), ("commands", 1)],
    },
    "elements": {
        (40, 9): [("messages", 2), ("status", 1), ("table", 1), ("bids", 2), ("hand", 1),
                  ("choice", 1), ("commands", 1)],
        (32, 10): [("messages", 2), ("status", 1), ("table", 2), ("bids", 2), ("hand", 1),
                   ("choice", 1), ("commands", 1)],
        (20, 7): [("messages", 1), ("status", 1), ("table", 1), ("bids", 1), ("hand", 1),
                  ("choice", 1), ("commands", 1)],
    },
}
# The band of the line each game's player acts on most.
ACTS_ON = {"uno": "hand", "domino": "hand", "rummikub": "rack", "elevens": "hand",
           "elements": "hand"}


@cache
def session(game: str) -> Session:
    """A game a few moves in, the player to act."""
    started = Session.start(game, players=kit(game).default_players, seed=1, lang="en",
                            pace=0)
    started.table.run_bots()
    return started


def test_every_game_has_a_board() -> None:
    assert set(DESIGN) == set(GAMES)
    assert all(kit(game).board is not None for game in GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_the_board_of_each_game_at_the_three_sizes_it_is_designed_for(game: str) -> None:
    seat = session(game).seat
    for (columns, rows), bands in DESIGN[game].items():
        board = seat.board(Size(columns, rows))
        assert board is not None
        assert [(band.name, band.rows) for band in board.bands] == bands


@pytest.mark.parametrize("game", GAMES)
def test_any_size_from_two_rows_is_laid_out_whole(game: str) -> None:
    seat = session(game).seat
    braille = translator(table_for("en"))
    for columns in (12, 20, 32, 40, 80):
        for rows in (2, 3, 4, 5, 7, 9, 10, 12, 16):
            board = seat.board(Size(columns, rows))
            assert board is not None
            names = [band.name for band in board.bands]
            assert board.rows <= rows and names[0] == READING and ACTS_ON[game] in names
            page = Page(braille, columns, rows)
            page.show(board)
            shown = page.rows()
            assert len(shown) == rows and all(len(row) == columns for row in shown)
