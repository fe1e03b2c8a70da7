"""Talk and the turn clock on a real BRLTTY (Virtual driver) at a server's Rummikub table
(issues 32.6, 37.6, 37.9): a line typed with braille chords stays in view when the clock's
15-second mark comes (the mark goes to the message line), sending it leaves the reader on
the line she opened talk from, the others read it as a sentence of its own, and "Time is up:
you draw 3" is shown at once, like the marks, in the reader's language."""

from __future__ import annotations

import time

from brailledev.display.braille import cell_to_dots
from brailledev.programs.join import DOT_8
from brailledev.table.presence import TALK_LINE
from layouts.screen import COMMAND_LINE
from tests.brltty.test_table_brltty import SeatFingers, seated

LIMIT = 17  # seconds: the 15-second mark comes 2 seconds into the turn


def _until(done, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_talk_stays_in_view_under_the_clock_and_time_up_is_shown_at_once(tmp_path):
    with seated(tmp_path, game="rummikub", players=2, people=2, seed=27,
                options={"turn_times": LIMIT}) as (players, table):
        position, waiting, _ = table.now()
        fingers: SeatFingers = next(each for each in players
                                    if each.joined.seat.seat == waiting)
        other = next(each for each in players if each is not fingers)
        seat, words = fingers.joined.seat, fingers.joined.seat.catalog
        fingers.caught_up(position)
        fingers.route_on(COMMAND_LINE, words.text("talk"))
        for letter in "gg":
            fingers.chord(cell_to_dots(fingers.table.translate(letter).cells))
        mark = words.count("time_left", 15, count=15)
        _until(lambda: mark in seat.history.texts[-1], "the 15-second mark never came")
        fingers.settle()
        assert fingers.front.viewport.line_key == TALK_LINE and seat.flash is None
        assert "gg" in fingers.text()
        fingers.chord(0x40)  # dot 7 erases the last letter
        assert seat.talking == "g"
        fingers.chord(DOT_8)
        assert fingers.front.viewport.line_key == COMMAND_LINE
        said = other.joined.seat.catalog.text("said", name=fingers.joined.client.name,
                                              text="g.")
        _until(lambda: said in other.joined.seat.history.sentences, said)
        up = words.text("drew_penalty_you", tiles="|").split("|")[0]
        _until(lambda: (seat.flash or "").startswith(up), f"{up!r} never shown at once")
        _until(lambda: fingers.text().startswith(up.split()[0]), "the display never showed it")
