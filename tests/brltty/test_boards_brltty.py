"""Whole games of the five games on the boards of multi-line displays, on a real BRLTTY
(Virtual driver): by routing keys at 40 x 9 (a Canute's size), 32 x 10 (a Monarch's) and
20 x 7 (a Dot Pad's), the languages taking turns; and as on a Canute, which has no routing
keys, by its row keys, Forward and Back, and commands typed as chords, in both languages.

Every write is watched: a move by another player may change only the rows of the lines it
changed (the set it grew, the status, the news), never a row whose lines stayed the same.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from brailledev.display.braille import cell_to_dots, table_for, translator
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.display.chords import Ran, Typist, command_name
from brailledev.display.keys import (
    ACT,
    Backward,
    Chord,
    Forward,
    Key,
    LineDown,
    LineUp,
    Named,
    PanLeft,
    PanRight,
    Route,
    RowKey,
)
from brailledev.display.window import LEFT_MARKER, RIGHT_MARKER
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from layouts.board import Size
from layouts.registry import GAMES
from tests.brltty.harness import Fingers, fingers_on
from tests.brltty.test_whole_games_brltty import GAME_SETUP
from tests.screen_player import board_key, choose, my_turn, reading_key

SIZES = ((40, 9), (32, 10), (20, 7))
# One whole game per game and size, the languages taking turns.
RUNS = [(game, columns, rows, ("en", "fr")[(number + place) % 2])
        for number, game in enumerate(GAMES) for place, (columns, rows) in enumerate(SIZES)]
# The harness's press for each key (a chord is sent as its dots).
ACTIONS = {PanLeft: "pan_left", PanRight: "pan_right", LineUp: "line_up",
           LineDown: "line_down", Forward: "forward", Backward: "backward"}


@dataclass(frozen=True)
class Written:
    """One write of the front: the moves played, whether a bot was due, the cells of every
    row, the lines each row shows, and every line's text."""

    moves: int
    bot_due: bool
    rows: tuple[str, ...]
    row_lines: tuple[frozenset[str], ...]
    texts: dict[str, str]


class WatchedDisplay(BrlapiDisplay):
    """BRLTTY's display, each write kept with what the table and the board were then."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.front: Front[Any] | None = None
        self.kept: list[Written] = []

    def write(self, rows: Sequence[str], cursor: int | None = None,
              text: Sequence[str] | None = None) -> None:
        super().write(rows, cursor, text)
        front = self.front
        if front is None or front.boards is None:
            return
        session = front.session
        self.kept.append(Written(
            session.table.moves, session.table.bot_due() is not None, tuple(rows),
            tuple(front.boards.page.row_lines()),
            {line.key: line.text for line in session.seat.lines()}))


class Player(Fingers):
    display_kind = WatchedDisplay

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        assert isinstance(self.display, WatchedDisplay)
        self.watched = self.display
        self.watched.front = self.front

    def key(self, key: Key) -> None:
        """Press ``key`` on the Virtual display."""
        if isinstance(key, Route):
            self.press("route", key.cell, key.row)
        elif isinstance(key, RowKey):
            self.press("row_key", key.row)
        elif isinstance(key, Chord):
            self.press("send", f"passdots {key.dots}")
        elif key == Named(ACT):
            self.press("enter")
        else:
            self.press(ACTIONS[type(key)])


def typed(front: Front[Any], line_key: str, region: int) -> str:
    """The fewest letters that type the command of region ``region`` of ``line_key`` (empty
    when it is no command)."""
    lines = front.seat.lines()
    wanted = next(line for line in lines if line.key == line_key).regions[region]
    name = command_name(wanted)
    for count in range(1, len(name or "") + 1):
        typist, result = Typist(), None
        for letter in str(name)[:count]:
            result = typist.type(letter, lines)
        if isinstance(result, Ran) and result.region.target == wanted.target:
            return str(name)[:count]
    return ""


def canute_key(front: Front[Any], line_key: str, region: int) -> tuple[Key, str]:
    """The next key of a reader with no routing keys: a command typed letter by letter,
    anything else picked and acted on (see :func:`tests.screen_player.board_key`)."""
    letters = typed(front, line_key, region)
    if letters and letters.startswith(front.typist.typed):
        letter = letters[len(front.typist.typed)]
        dots = cell_to_dots(front.braille.translate(letter).cells[0])
        done = len(front.typist.typed) + 1 == len(letters)
        return Chord(dots), "route" if done else "type"
    return board_key(front, line_key, region, routing=False)


def routing_key(player: Player, line_key: str, region: int) -> tuple[Key, str]:
    """The next key of a reader with routing keys; over cells the Virtual driver cannot
    press (past its 255th), the keys of a reader without (see ``VirtualBrltty.route``)."""
    key, kind = board_key(player.front, line_key, region)
    if isinstance(key, Route) and not player.brltty.reaches(key.cell, key.row):
        return board_key(player.front, line_key, region, routing=False)
    return key, kind


def play_whole_game(player: Player, session: Session, canute: bool) -> int:
    """Play to the end as a reader who reads the news's pages before the first move (the
    moves after go at once: the run stays short) and every refusal; the keys pressed."""
    moved = False
    for _ in range(3000):
        player.settle()
        key = reading_key(player.front)
        if key is not None and (not moved or player.front.seat.flash is not None):
            if isinstance(key, Route) and (canute or not player.brltty.reaches(key.cell,
                                                                               key.row)):
                key = PanRight()  # the news is in focus: no marker to route
            player.key(key)
            continue
        if session.table.game.is_over():
            return player.keys
        assert my_turn(session)
        line, index = choose(session)
        for _ in range(200):
            pressed, kind = canute_key(player.front, line, index) if canute \
                else routing_key(player, line, index)
            player.key(pressed)
            if kind == "route":
                moved = True
                break
        else:
            raise AssertionError(f"region {index} of {line} was never routed")
    raise AssertionError("the game did not end")


def check_still_rows(kept: list[Written]) -> int:
    """Fail where a move by another player changed a row none of whose lines changed;
    the most rows one such move changed."""
    most = 0
    for before, after in itertools.pairwise(kept):
        if after.moves != before.moves + 1 or not before.bot_due:
            continue
        changed = [row for row, cells in enumerate(after.rows) if cells != before.rows[row]]
        moved = {key for key in before.texts.keys() | after.texts.keys()
                 if before.texts.get(key) != after.texts.get(key)}
        for row in changed:
            if _markers_only(before.rows[row], after.rows[row]):
                continue  # the band gained or lost a page: its marker says so
            assert (before.row_lines[row] | after.row_lines[row]) & moved, \
                (f"row {row} changed, its lines {sorted(after.row_lines[row])} did not "
                 f"(the move changed {sorted(moved)})")
        most = max(most, len(changed))
    return most


def _markers_only(before: str, after: str) -> bool:
    """Whether two rows differ only by a page marker in their first or last cell."""
    differ = [cell for cell, (one, other) in enumerate(zip(before, after, strict=True))
              if one != other]
    ends = {0: LEFT_MARKER, len(before) - 1: RIGHT_MARKER}
    return all(cell in ends and ends[cell] in (before[cell], after[cell]) for cell in differ)


def start(tmp_path: Path, game: str, lang: str) -> Session:
    players, seed, options = GAME_SETUP[game]
    return Session.start(game, players=players, seed=seed, lang=lang, pace=0,
                         options=options, save=tmp_path / f"{game}.json")


@pytest.mark.parametrize(("game", "columns", "rows", "lang"), RUNS)
def test_a_whole_game_on_a_board_by_routing_keys(tmp_path: Path, game: str, columns: int,
                                                 rows: int, lang: str) -> None:
    session = start(tmp_path, game, lang)
    with fingers_on(session, translator(table_for(lang)), Player, columns, rows) as player:
        play_whole_game(player, session, canute=False)
        kept = player.watched.kept
    assert session.table.game.is_over()
    assert len(kept) > 10 and check_still_rows(kept) < rows


@pytest.mark.parametrize(("game", "lang"), [("uno", "fr"), ("elevens", "en")])
def test_a_whole_game_as_on_a_canute_by_row_keys_and_chords(tmp_path: Path, game: str,
                                                            lang: str) -> None:
    session = start(tmp_path, game, lang)
    with fingers_on(session, translator(table_for(lang)), Player, 40, 9) as player:
        play_whole_game(player, session, canute=True)
        kept = player.watched.kept
    assert session.table.game.is_over()
    check_still_rows(kept)


def test_the_board_is_laid_out_again_when_the_display_changes_size(tmp_path: Path) -> None:
    session = start(tmp_path, "uno", "en")
    with fingers_on(session, translator(table_for("en")), Player, 40, 9) as player:
        front = player.front
        for columns, rows in ((20, 7), (40, 1), (32, 10)):
            player.brltty.resize(columns, rows)  # a Dot Pad switching text and graphics
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not (
                    len(front.written) == rows and len(front.written[0]) == columns
                    and player.brltty.display_rows() == front.written):
                time.sleep(0.01)
            assert player.brltty.display_rows() == front.written
            assert (front.boards is None) == (rows == 1)
            if front.boards is not None:
                board = session.seat.board(Size(columns, rows))
                assert front.boards.size == Size(columns, rows) and board is not None
                assert front.boards.board.bands == board.bands
