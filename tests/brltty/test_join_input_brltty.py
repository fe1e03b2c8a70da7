"""A half-built turn comes back on a real display (issue 37, item 1, which asks a real BRLTTY
for it): at a server's Rummikub table, a reader on a BRLTTY (Virtual driver) selects tiles
of the rack by routing keys; the seat's program goes without a last save (its connection
dropped, its key loop stopped, as under kill -9; ``tests/server/test_join_killed.py`` kills
the real program), and ``join`` started again with the same seat file shows the same
selection on a new display, in English and French."""

from __future__ import annotations

import json
import time

import pytest

from brailledev.display.braille import translator
from brailledev.programs.join import connect, saved_seat
from tests.brltty.harness import VirtualBrltty
from tests.brltty.test_table_brltty import READERS, SeatFingers, Table, _stop
from tests.server.helpers import ServerThread, new_table
from tests.server.test_seat_input import gone


def _sit(server: ServerThread, code: str, brltty: VirtualBrltty, name: str, lang: str,
         table: str, save, resume: bool) -> SeatFingers:
    saved = saved_seat(save, server.url, code) if resume else None
    joined = connect(server.url, code, name, lang, saved, save, table)
    fingers = SeatFingers(brltty, joined, translator(table))
    fingers.thread.start()
    deadline = time.monotonic() + 10
    while not fingers.link.started:
        assert time.monotonic() < deadline, "the table never started"
        time.sleep(0.01)
    fingers.settle()
    return fingers


@pytest.mark.parametrize(("name", "lang", "table"), READERS)
def test_a_selection_routed_on_brltty_is_back_on_the_display_after_join_died(
        tmp_path, name, lang, table):
    save = tmp_path / f"{name}.json"
    with ServerThread() as server:
        code = new_table(server.url, game="rummikub", players=2, people=1, seed=4,
                         options={"turn_times": 0})
        with VirtualBrltty(columns=40) as brltty:
            fingers = _sit(server, code, brltty, name, lang, table, save, resume=False)
            deadline = time.monotonic() + 20
            while not fingers.link.waiting_for_me():
                assert time.monotonic() < deadline, "the bot never gave the turn"
                time.sleep(0.01)
            fingers.caught_up(Table(server, code).now()[0])
            for _ in range(2):  # two tiles of the rack, by their routing keys
                rack = next(line for line in fingers.joined.seat.lines() if line.key == "rack")
                fingers.route_on("rack", rack.regions[1].text.split()[0])
            pending = fingers.joined.seat.pending
            assert pending is not None
            fingers.go_to("selection")
            shown = fingers.text()
            assert len(shown.split()) >= 2
            # in the seat file already, before any last save
            assert json.loads(save.read_text())["reader"]["pending"] is not None
            gone(fingers.joined)
            _stop(fingers)
        with VirtualBrltty(columns=40) as brltty:
            again = _sit(server, code, brltty, name, lang, table, save, resume=True)
            try:
                assert again.joined.seat.pending == pending
                again.go_to("selection")
                assert again.text() == shown
            finally:
                _stop(again)
                again.joined.close()
