"""Quit asks first (issue 32.1), on a real BRLTTY (Virtual driver): routing ``quit`` shows
the question where the player is, panning reads it, any other key keeps the game going, a
routing key then leaves; at a server's table the others read that the player left, in their
own language, and never that the connection was lost. Alone (``play``) on one row and on
the board of a display of several rows alike."""

from __future__ import annotations

import time
from pathlib import Path

from brailledev.display.braille import translator
from brailledev.programs.session import Session
from tests.brltty.harness import Fingers, fingers_on, read_words
from tests.brltty.test_table_brltty import SeatFingers, seated, short_uno_deal

EN, FR = translator("en-ueb-g1.ctb"), translator("fr-bfu-comp6.utb")


def _ended(fingers: Fingers | SeatFingers) -> bool:
    fingers.thread.join(10)
    return not fingers.thread.is_alive()


def test_quit_at_a_table_asks_first_and_the_others_read_that_the_player_left(tmp_path):
    with seated(tmp_path, game="uno", players=3, people=2, seed=short_uno_deal(),
                options={"match_target": 0}) as (players, _):
        ann, bea = players
        ann.route_on("commands", "quit")
        assert "Quit?" in ann.text() and ann.thread.is_alive()
        ann.press("line_up")  # any other key: the question goes, the game stays
        assert "Quit?" not in ann.text() and not ann.joined.seat.quit_asked
        ann.route_on("commands", "quit")
        assert "Quit?" in ann.text()
        ann.brltty.route(2)  # routed again: Ann leaves
        assert _ended(ann)
        ann.joined.close()  # what join's launcher does once the key loop ended
        deadline = time.monotonic() + 10
        while "Ann a quitté la table." not in bea.joined.seat.history.sentences:
            assert time.monotonic() < deadline, bea.joined.seat.history.sentences[-3:]
            time.sleep(0.01)
        assert not any("connexion" in text for text in bea.joined.seat.history.sentences)
        bea.route_on("commands", "quitter")
        assert "Quitter" in bea.text() and "routez" in bea.text()
        bea.press("pan_right")  # panning reads the question on: it still stands
        assert bea.joined.seat.quit_asked and bea.thread.is_alive()
        bea.brltty.route(3)
        assert _ended(bea)


def _quit_cell(fingers: Fingers, word: str) -> tuple[int, int]:
    """The cell and row of ``word`` on a board's rows."""
    for row, cells in enumerate(fingers.brltty.display_rows()):
        for cell, text in read_words(cells, fingers.table.back):
            if text == word:
                return cell, row
    raise AssertionError(f"{word!r} is on no row: {fingers.brltty.display_rows()}")


def test_quit_alone_asks_first_on_one_row_and_on_a_board(tmp_path: Path):
    session = Session.start("uno", players=2, seed=3, lang="en", save=tmp_path / "uno.json",
                            pace=0)
    with fingers_on(session, EN, Fingers) as fingers:
        fingers.route_on("commands", "quit")
        assert "Quit?" in fingers.text()
        fingers.brltty.route(5)
        assert _ended(fingers)
    board = Session.start("elevens", players=2, seed=3, lang="fr",
                          save=tmp_path / "elevens.json", pace=0)
    with fingers_on(board, FR, Fingers, columns=20, rows=7) as fingers:
        cell, row = _quit_cell(fingers, "quitter")
        fingers.press("route", cell, row)
        shown = " ".join(" ".join(word for _, word in read_words(cells, FR.back))
                         for cells in fingers.brltty.display_rows())
        assert "Quitter" in shown and fingers.thread.is_alive()
        fingers.press("line_down")  # another key: the question goes
        assert not board.seat.quit_asked and fingers.thread.is_alive()
        cell, row = _quit_cell(fingers, "quitter")
        fingers.press("route", cell, row)
        fingers.brltty.route(cell, row)
        assert _ended(fingers)
