"""Routing key to new cells through a real BRLTTY: our whole play stack against a bare client.

    .venv/bin/python bench/display_latency.py            (500 presses each)
    .venv/bin/python bench/display_latency.py --presses 100

A private BRLTTY with its Virtual driver (tests/brltty/harness.py) plays the display: it
presses a routing key and times until BRLTTY sends the display's new cells. Two clients
answer, one after the other, on the same BRLTTY:

- *bare*: a BrlAPI client that only writes one of two fixed lines on each routing key;
- *ours*: the play session of a Uno game on :class:`brailledev.display.brlapi.BrlapiDisplay`
  through :class:`brailledev.table.keyloop.Front`: the routing key plays a card the rules refuse
  (the refusal is laid out, translated by liblouis and written over the hand, and kept in
  the history) and the next one clears it, back to the hand.

Prints p50 and p95 of both in milliseconds and the ratio of the p95s (target <= 1.2), and
the same presses on a display in memory: our own share, BRLTTY's cadence aside.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import brlapi

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brailledev.display.braille import translator
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.display.keys import Route
from brailledev.display.memory import MemoryDisplay
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from games.uno.notation import PLAY
from games.uno.notation import Move as UnoMove
from layouts.screen import HAND_LINE, MESSAGE_LINE, PlayMove
from tests.brltty.harness import VirtualBrltty

COLUMNS = 40


def press_and_wait(brltty: VirtualBrltty, cell: int, timeout: float = 5.0) -> float:
    """Seconds from pressing routing key ``cell`` to the next cells BRLTTY sends."""
    before = brltty.updates
    start = time.perf_counter()
    brltty.route(cell)
    brltty.wait_for(lambda rows: True, timeout=timeout, after=before)
    return time.perf_counter() - start


def percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=20, method="inclusive")
    return statistics.median(samples) * 1000, cuts[18] * 1000


def bare(brltty: VirtualBrltty, presses: int) -> list[float]:
    """A BrlAPI client that answers each routing key with one of two fixed lines."""
    lines = ("\u2801" * COLUMNS, "\u2803" * COLUMNS)
    stop = threading.Event()

    def echo() -> None:
        connection = brlapi.Connection(brltty.host.encode(), None)
        connection.enterTtyModeWithPath([])
        connection.ignoreAllKeys()
        connection.acceptKeys(brlapi.rangeType_command,
                              [brlapi.KEY_TYPE_CMD | brlapi.KEY_CMD_ROUTE])
        connection.write(text=lines[0], regionBegin=1, regionSize=COLUMNS)
        shown = 0
        while not stop.is_set():
            if connection.readKeyWithTimeout(100) is not None:
                shown = 1 - shown
                connection.write(text=lines[shown], regionBegin=1, regionSize=COLUMNS)
        connection.leaveTtyMode()
        connection.closeConnection()

    thread = threading.Thread(target=echo, daemon=True)
    thread.start()
    brltty.wait_for(lambda rows: rows[0] == lines[0])
    try:
        return [press_and_wait(brltty, 1 + number % (COLUMNS - 1)) for number in range(presses)]
    finally:
        stop.set()
        thread.join(5)


def unplayable_deal() -> Session:
    """A fresh two-player game where the display's seat must act and holds a refused card."""
    for seed in range(100):
        session = Session.start("uno", players=2, seed=seed, lang="en",
                                options={"match_target": 0}, pace=0)
        session.table.run_bots()
        if session.table.game.must_act() == [0] and any(
                session.table.game.check(0, UnoMove(PLAY, card)) is not None
                for card in session.seat.view().hand):
            return session
    raise RuntimeError("no deal with a refused card among the first 100 seeds")


def ours(brltty: VirtualBrltty, presses: int) -> list[float]:
    """Our stack: refused card, then a key that clears the refusal, and again."""
    session = unplayable_deal()
    session.saving.path = Path(tempfile.mkdtemp()) / "uno.json"
    while session.seat.history.read_on():
        pass
    session.seat.jump(session.seat.home())
    display = BrlapiDisplay(host=brltty.host)
    front = Front(session, display, translator("en-ueb-g1.ctb"))
    runner = threading.Thread(target=front.run, daemon=True)
    runner.start()
    refused = next(card for card in session.seat.view().hand
                   if session.table.game.check(0, UnoMove(PLAY, card)) is not None)
    samples = []
    try:
        brltty.wait_for(lambda rows: front.viewport.line_key == HAND_LINE)
        for _ in range(presses):
            cell = cell_of(front, refused) if front.viewport.line_key == HAND_LINE else 1
            samples.append(press_and_wait(brltty, cell))
            wait_until(lambda: front.idle.is_set() and front.viewport.line_key in
                       (HAND_LINE, MESSAGE_LINE))
    finally:
        front.stop()
        runner.join(5)
        display.close()
    return samples


def in_process(presses: int) -> list[float]:
    """The same presses on a display in memory: our own share of the time, BRLTTY aside."""
    session = unplayable_deal()
    while session.seat.history.read_on():
        pass
    session.seat.jump(session.seat.home())
    display = MemoryDisplay(columns=COLUMNS)
    front = Front(session, display, translator("en-ueb-g1.ctb"))
    front.redraw()
    refused = next(card for card in session.seat.view().hand
                   if session.table.game.check(0, UnoMove(PLAY, card)) is not None)
    samples = []
    for _ in range(presses):
        cell = cell_of(front, refused) if front.viewport.line_key == HAND_LINE else 1
        start = time.perf_counter()
        front.press(Route(cell))
        front.redraw()
        samples.append(time.perf_counter() - start)
    return samples


def cell_of(front: Front, card: str) -> int:
    """The last cell of the card's region on the hand line (cell 0 cannot be pressed)."""
    laid = front.viewport.lines[front.viewport.top]
    window = laid.windows[front.viewport.window]
    for piece in window.pieces:
        target = laid.line.regions[piece.region].target
        if isinstance(target, PlayMove) and isinstance(target.move, UnoMove) \
                and target.move.card == card:
            return piece.column + piece.stop - piece.start - 1
    raise RuntimeError(f"{card} is not in the hand's first window")


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError("the play loop did not settle")
        time.sleep(0.001)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=500)
    args = parser.parse_args()
    with VirtualBrltty(columns=COLUMNS) as brltty:
        bare_samples = bare(brltty, args.presses)
        our_samples = ours(brltty, args.presses)
    bare_p50, bare_p95 = percentiles(bare_samples)
    our_p50, our_p95 = percentiles(our_samples)
    own_p50, own_p95 = percentiles(in_process(args.presses))
    print(f"routing key -> new cells through BRLTTY {COLUMNS}-cell Virtual display, "
          f"{args.presses} presses each")
    print(f"bare BrlAPI echo client: p50 {bare_p50:.1f} ms  p95 {bare_p95:.1f} ms")
    print(f"our play stack (Uno):    p50 {our_p50:.1f} ms  p95 {our_p95:.1f} ms")
    print(f"ratio of p95 (ours / bare): {our_p95 / bare_p95:.2f}  (target <= 1.2)")
    print(f"our share alone (display in memory): p50 {own_p50:.2f} ms  p95 {own_p95:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
