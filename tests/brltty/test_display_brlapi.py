"""Our BrlAPI display against a real BRLTTY 6.5 with its Virtual driver."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from brailledev.display import RESIZED, brltty_starting, open_display
from brailledev.display.braille import translator
from brailledev.display.brlapi import BrlapiDisplay, probe
from brailledev.display.keys import (
    ACT,
    BACK,
    NEWEST,
    Backward,
    Bottom,
    Chord,
    Forward,
    LineDown,
    LineUp,
    Named,
    PanLeft,
    PanRight,
    Route,
    RowKey,
    Top,
)
from brailledev.display.terminal import TerminalDisplay
from brailledev.display.window import Viewport
from brailledev.errors import DisplayGone
from layouts.errors import UserError
from layouts.screen import Line, Region, Screen
from tests.brltty.harness import HarnessError, VirtualBrltty, parse_braille_line

BLANK = "\u2800"


def test_parse_braille_line() -> None:
    assert parse_braille_line('Braille "1|12| |78|12345678"') == "⠁⠃⠀⣀⣿"
    assert parse_braille_line('Visual "hello"') is None
    assert parse_braille_line("cells 40") is None


def test_cells_written_arrive_on_the_display_exactly(brltty: VirtualBrltty) -> None:
    display = BrlapiDisplay(brltty.host)
    assert (display.columns, display.rows, display.driver) == (40, 1, "Virtual")
    every_dot = "".join(chr(0x2800 + dots) for dots in (1, 0x3F, 0x40, 0x80, 0xC0, 0xFF))
    display.write([every_dot])
    rows = brltty.wait_for(lambda rows: rows[0].startswith(every_dot))
    assert rows == [every_dot + BLANK * 34]
    display.write(["⠗⠼⠑"])  # short rows are padded with blank cells
    assert brltty.wait_for(lambda rows: rows[0].startswith("⠗"))[0] == "⠗⠼⠑" + BLANK * 37
    display.close()


def test_a_laid_out_screen_reads_back_through_liblouis(brltty: VirtualBrltty) -> None:
    display = BrlapiDisplay(brltty.host)
    viewport = Viewport(translator("fr-bfu-comp6.utb"), display.columns)
    viewport.show(Screen((Line("hand", tuple(Region(label, target=label)
                                              for label in ("r5", "r+2", "jk+4"))),)))
    display.write(viewport.rows())
    rows = brltty.wait_for(lambda rows: rows == viewport.rows())
    assert translator("fr-bfu-comp6.utb").back(rows[0].rstrip(BLANK)) == "r5 r+2 jk+4"
    display.close()


def test_keys_arrive_as_key_events(brltty: VirtualBrltty) -> None:
    display = BrlapiDisplay(brltty.host)
    display.write(["⠁"])
    brltty.wait_for(lambda rows: rows[0].startswith("⠁"))
    presses: list[tuple[Callable[[], None], object]] = [
        (lambda: brltty.route(1), Route(1)),
        (lambda: brltty.route(39), Route(39)),
        (brltty.pan_right, PanRight()),
        (brltty.pan_left, PanLeft()),
        (brltty.line_up, LineUp()),
        (brltty.line_down, LineDown()),
        (brltty.top, Top()),
        (brltty.bottom, Bottom()),
        (lambda: brltty.send("passdots 0x13"), Chord(0b10011)),
        (lambda: brltty.send("help"), Named("help")),
        (lambda: brltty.send("home"), Named(NEWEST)),
        (lambda: brltty.send("back"), Named(BACK)),
    ]
    for press, expected in presses:
        press()
        assert display.read_key(3.0) == expected
    display.close()


def test_keys_we_do_not_use_stay_with_brltty(brltty: VirtualBrltty) -> None:
    display = BrlapiDisplay(brltty.host)
    display.write(["⠁"])
    brltty.wait_for(lambda rows: rows[0].startswith("⠁"))
    for command in ("info", "chrrt"):
        brltty.send(command)
        time.sleep(0.2)  # one line per arrival (see VirtualBrltty.send)
    brltty.route(7)
    assert display.read_key(3.0) == Route(7)
    assert display.read_key(0) is None
    display.close()


def test_routing_on_a_multi_row_display(virtual_brltty: Callable[..., VirtualBrltty]) -> None:
    brltty = virtual_brltty(20, 3)
    display = BrlapiDisplay(brltty.host)
    assert (display.columns, display.rows) == (20, 3)
    display.write(["⠁", "⠃", "⠉"])
    rows = brltty.wait_for(lambda rows: rows[2].startswith("⠉"))
    assert rows == ["⠁" + BLANK * 19, "⠃" + BLANK * 19, "⠉" + BLANK * 19]
    for cell, row in ((5, 0), (0, 1), (19, 2)):
        brltty.route(cell, row)
        assert display.read_key(3.0) == Route(cell, row)
    display.close()


def test_a_write_rewrites_only_the_rows_that_changed_one_write_a_row(
        virtual_brltty: Callable[..., VirtualBrltty]) -> None:
    brltty = virtual_brltty(40, 9)
    display = BrlapiDisplay(brltty.host)
    rows = [chr(0x2801 + row) * 40 for row in range(9)]
    display.write(rows)
    assert brltty.wait_for(lambda shown: shown == rows) and display.writes == 9
    rows[4] = "⠿" * 40
    display.write(rows)
    assert brltty.wait_for(lambda shown: shown == rows)  # row 4 at cells 161-200
    assert display.writes == 10
    display.write(rows)  # nothing changed: nothing written
    assert display.writes == 10
    display.close()


def test_the_keys_of_multi_line_displays_arrive_as_key_events(
        virtual_brltty: Callable[..., VirtualBrltty]) -> None:
    brltty = virtual_brltty(40, 9)
    display = BrlapiDisplay(brltty.host)
    # A Canute's line keys, Back and Forward; a Dot Pad's F2 and F3; Enter on a keyboard.
    for press, key in (("route_line 3", RowKey(3)), ("route_line 8", RowKey(8)),
                       ("winup", Backward()), ("windn", Forward()),
                       ("prdifln", Backward()), ("nxdifln", Forward()),
                       ("key_enter", Named(ACT)), ("route 125", Route(5, 3))):
        brltty.send(press)
        assert display.read_key(3.0) == key, press
    display.close()


def test_read_key_times_out_without_a_key(brltty: VirtualBrltty) -> None:
    display = BrlapiDisplay(brltty.host)
    start = time.monotonic()
    assert display.read_key(0.3) is None
    assert 0.25 <= time.monotonic() - start < 2.0
    display.close()


def test_brltty_restart_reconnects_and_redraws(brltty: VirtualBrltty) -> None:
    display = BrlapiDisplay(brltty.host)
    display.write(["⠗⠼⠑⠀⠃⠼⠛"])
    brltty.wait_for(lambda rows: rows[0].startswith("⠗⠼⠑⠀⠃⠼⠛"))
    brltty.restart()
    assert display.read_key(0.5) is None  # notices BRLTTY went away, reconnects
    deadline = time.monotonic() + 10
    while not display.connected and time.monotonic() < deadline:
        display.read_key(0.2)
    assert display.connected and display.reconnections >= 1
    brltty.wait_for(lambda rows: rows[0].startswith("⠗⠼⠑⠀⠃⠼⠛"))
    brltty.route(4)
    assert display.read_key(3.0) == Route(4)
    display.close()


def test_content_written_while_brltty_is_away_shows_when_it_returns(
        brltty: VirtualBrltty) -> None:
    display = BrlapiDisplay(brltty.host)
    display.write(["⠁"])
    brltty.wait_for(lambda rows: rows[0].startswith("⠁"))
    brltty.stop()
    assert display.read_key(0.3) is None
    display.write(["⠃⠃⠃"])  # the game went on meanwhile
    assert not display.connected
    brltty.start()
    deadline = time.monotonic() + 10
    while not display.connected and time.monotonic() < deadline:
        display.read_key(0.2)
    assert brltty.wait_for(lambda rows: rows[0].startswith("⠃⠃⠃"))
    display.close()


def test_another_display_size_is_reported_and_redrawn(brltty: VirtualBrltty) -> None:
    display = BrlapiDisplay(brltty.host)
    display.write(["⠁" * 40])
    brltty.wait_for(lambda rows: rows[0] == "⠁" * 40)
    brltty.resize(20)
    assert display.read_key(5.0) == Named(RESIZED)
    assert (display.columns, display.rows) == (20, 1)
    brltty.wait_for(lambda rows: rows[0] == "⠁" * 20)
    display.write(["⠃" * 20])
    brltty.wait_for(lambda rows: rows[0] == "⠃" * 20)
    display.close()


def test_display_unplugged_then_plugged_back(brltty: VirtualBrltty) -> None:
    display = BrlapiDisplay(brltty.host)
    display.write(["⠉⠉"])
    brltty.wait_for(lambda rows: rows[0].startswith("⠉⠉"))
    brltty.unplug()
    assert display.read_key(1.0) is None
    brltty.plug(columns=32)
    key = None
    deadline = time.monotonic() + 10
    while key is None and time.monotonic() < deadline:
        key = display.read_key(0.3)
    assert key == Named(RESIZED) and display.columns == 32
    brltty.wait_for(lambda rows: rows[0] == "⠉⠉" + BLANK * 30)
    display.close()


def test_give_up_after_the_given_time(brltty: VirtualBrltty) -> None:
    display = BrlapiDisplay(brltty.host, give_up=0.5)
    brltty.stop()
    with pytest.raises(DisplayGone):
        for _ in range(40):
            display.read_key(0.1)
    display.close()


def test_no_brltty_means_display_gone_and_auto_falls_back_to_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    nowhere = "127.0.0.1:29999"
    assert probe(nowhere) is None
    with pytest.raises(DisplayGone):
        BrlapiDisplay(nowhere)
    with pytest.raises(UserError, match="No braille display answers"):
        open_display("brlapi", host=nowhere)
    master, slave = os.openpty()
    with open(slave, encoding="utf-8", closefd=False) as stdin, \
            open(slave, "w", encoding="utf-8", closefd=False) as stdout:
        monkeypatch.setattr(sys, "stdin", stdin)
        monkeypatch.setattr(sys, "stdout", stdout)
        display = open_display("auto", host=nowhere, columns=20)
        assert isinstance(display, TerminalDisplay) and display.columns == 20
        display.close()
    os.close(master)
    os.close(slave)


def test_auto_takes_brltty_when_it_answers(brltty: VirtualBrltty) -> None:
    info = probe(brltty.host)
    assert info is not None and (info.driver, info.columns, info.rows) == ("Virtual", 40, 1)
    display = open_display("auto", host=brltty.host)
    assert isinstance(display, BrlapiDisplay)
    display.close()


def test_auto_waits_for_a_brltty_that_is_starting() -> None:
    brltty = VirtualBrltty(columns=40)
    found: list[object] = []

    def ask() -> None:
        deadline = time.monotonic() + 10
        while brltty.process is None:  # the display is asked for as soon as BRLTTY runs
            if time.monotonic() > deadline:
                return
            time.sleep(0.001)
        try:
            found.append(open_display("auto", host=brltty.host))
        except Exception as error:  # the terminal, wanting a real stdin, is a failure too
            found.append(error)

    asker = threading.Thread(target=ask)
    asker.start()
    try:
        brltty.start()  # from this thread: BRLTTY dies with the thread that started it
        asker.join(20)
        assert len(found) == 1 and isinstance(found[0], BrlapiDisplay), found
        assert found[0].columns == 40
        found[0].close()
    finally:
        asker.join(20)
        brltty.close()


def test_a_brltty_is_starting_when_its_process_runs_or_its_socket_is_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from brailledev import display as displays

    processes = tmp_path / "proc"
    (processes / "12").mkdir(parents=True)
    (processes / "12" / "comm").write_text("bash\n")
    monkeypatch.setattr(displays, "SOCKETS", tmp_path / "BrlAPI")
    assert not brltty_starting(":0", processes)
    (tmp_path / "BrlAPI").mkdir()
    (tmp_path / "BrlAPI" / "0").write_text("")
    assert brltty_starting(":0", processes) and not brltty_starting(":1", processes)
    (processes / "13").mkdir()
    (processes / "13" / "comm").write_text("brltty\n")
    assert brltty_starting("127.0.0.1:5", processes)


def test_without_a_brltty_starting_the_display_is_asked_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from brailledev import display as displays
    from brailledev.display import brlapi

    asked: list[str | None] = []
    monkeypatch.setattr(brlapi, "probe", lambda host, auth=None: asked.append(host))
    monkeypatch.setattr(displays, "brltty_starting", lambda host: False)
    with pytest.raises(UserError, match="No braille display answers"):
        open_display("brlapi", host="127.0.0.1:29999")
    assert asked == ["127.0.0.1:29999"]
    monkeypatch.setattr(displays, "brltty_starting", lambda host: True)
    monkeypatch.setattr(displays, "RETRY_EVERY", 0.01)
    with pytest.raises(UserError, match="No braille display answers"):
        open_display("brlapi", host="127.0.0.1:29999", wait=0.2)
    assert len(asked) > 2  # asked again and again while it may still come


def test_unknown_display_kind_is_one_sentence() -> None:
    with pytest.raises(UserError, match="'braille'"):
        open_display("braille")


def test_harness_refuses_the_first_routing_key(brltty: VirtualBrltty) -> None:
    with pytest.raises(HarnessError, match="cannot press"):
        brltty.route(0)
