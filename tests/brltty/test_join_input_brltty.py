"""A half-built turn comes back on a real display (issue 37, item 1, which asks a real BRLTTY
for it): at a server's Rummikub table, a reader on a BRLTTY (Virtual driver) selects tiles
of the rack by routing keys; the seat's program goes without a last save (its connection
dropped, its key loop stopped, as under kill -9; ``tests/server/test_join_killed.py`` kills
the real program), and ``join`` started again with the same seat file shows the same
selection on a new display, in English and French; a selection the seat file holds that no
longer fits the table is dropped, and the new display says so."""

from __future__ import annotations

import json
import time
from collections.abc import Hashable
from pathlib import Path

import pytest

from brailledev.display.braille import translator
from brailledev.programs.join import connect, saved_seat
from layouts.screen import MESSAGE_LINE
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


def _select_and_die(server: ServerThread, code: str, name: str, lang: str, table: str,
                    save: Path) -> tuple[Hashable, str]:
    """The reader selects two tiles of the rack by routing keys on a real BRLTTY, then
    ``join`` goes without a last save; the selection and the selection line as shown."""
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
    return pending, shown


def _rummikub_table(server: ServerThread) -> str:
    return new_table(server.url, game="rummikub", players=2, people=1, seed=4,
                     options={"turn_times": 0})


@pytest.mark.parametrize(("name", "lang", "table"), READERS)
def test_a_selection_routed_on_brltty_is_back_on_the_display_after_join_died(
        tmp_path, name, lang, table):
    save = tmp_path / f"{name}.json"
    with ServerThread() as server:
        code = _rummikub_table(server)
        pending, shown = _select_and_die(server, code, name, lang, table, save)
        with VirtualBrltty(columns=40) as brltty:
            again = _sit(server, code, brltty, name, lang, table, save, resume=True)
            try:
                assert again.joined.seat.pending == pending
                again.go_to("selection")
                assert again.text() == shown
            finally:
                _stop(again)
                again.joined.close()


UNFIT = {"en": "The turn you were building does not fit the table as it is: it is dropped.",
         "fr": "Le coup que vous prépariez ne correspond plus à la table : il est abandonné."}


@pytest.mark.parametrize(("name", "lang", "table"), READERS)
def test_a_saved_selection_that_no_longer_fits_is_dropped_and_said_on_the_display(
        tmp_path, name, lang, table):
    """``input_unfit`` through the screen: the seat file's selection is changed by hand (its
    rack loses a tile; the table is still where the selection was built), and ``join``
    started again drops it and says so on the new display's message line, in the reader's
    words; nothing is selected, and the seat file holds no selection any more."""
    save = tmp_path / f"{name}.json"
    with ServerThread() as server:
        code = _rummikub_table(server)
        _select_and_die(server, code, name, lang, table, save)
        data = json.loads(save.read_text())
        kept = data["reader"]["pending"]
        kept["start_rack"] = kept["start_rack"][1:]
        save.write_text(json.dumps(data))
        with VirtualBrltty(columns=40) as brltty:
            again = _sit(server, code, brltty, name, lang, table, save, resume=True)
            try:
                assert again.front.viewport.line_key == MESSAGE_LINE
                read = again.read_all_messages()
                assert any(UNFIT[lang] in message for message in read), read
                assert again.joined.seat.pending is None
                assert json.loads(save.read_text())["reader"]["pending"] is None
            finally:
                _stop(again)
                again.joined.close()
