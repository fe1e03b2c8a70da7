"""Device layer alone: routing key to new cells through BRLTTY, window.py + BrlAPI vs bare BrlAPI.

    .venv/bin/python bench/device_latency.py [presses]

The display side (tests/brltty/harness.py) presses a routing key after a random pause of
50-90 ms and times until BRLTTY sends the new cells back. Two clients answer in turn, in
blocks, in the same run:

- ``bare``: a BrlAPI client that reads the key and writes one of two fixed lines;
- ``ours``: ``BrlapiDisplay`` + ``Viewport``: the key is resolved to a card of a laid-out Uno
  hand, playing it changes the screen (the card leaves, a new one is drawn, the status
  counts), the screen is laid out again (liblouis, windows) and written.

Prints one JSON object: p50 and p95 in milliseconds of both, and the ratio of our p95 to the
bare client's (the anchor; target at most 1.2).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# ruff: noqa: E402
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import brlapi

from brailledev.display.braille import translator
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.display.window import Viewport
from layouts.screen import HAND_LINE, STATUS_LINE, Line, Region, Screen
from tests.brltty.harness import VirtualBrltty

COLUMNS = 40
BLOCK = 50
PAUSES = random.Random(1)
CARDS = ["r5", "r+2", "b7", "g9", "wi+4", "y0", "ysk", "rrv", "g+2", "b1", "y+2", "bsk"]
# Cards drawn in turn: never the card just played (the reader stays on the window of the
# place played from, as in a game, rather than following a card that came back).
DRAWN = ["g3", "y7", "rsk", "b+2", "wi", "r9", "g0", "bsk", "y4", "grv", "r1", "b6"]


def bare_client(host: str, stop: threading.Event, ready: threading.Event) -> None:
    """Echo one of two fixed lines for every routing key, nothing else."""
    connection = brlapi.Connection(host.encode(), None)
    connection.enterTtyModeWithPath([])
    connection.ignoreAllKeys()
    connection.acceptKeys(brlapi.rangeType_command,
                          [brlapi.KEY_TYPE_CMD | brlapi.KEY_CMD_ROUTE])
    lines = ["\u2801" * COLUMNS, "\u2803" * COLUMNS]
    connection.write(text=lines[0], regionBegin=1, regionSize=COLUMNS, cursor=0)
    ready.set()
    turn = 0
    while not stop.is_set():
        if connection.readKeyWithTimeout(100) is None:
            continue
        turn = 1 - turn
        connection.write(text=lines[turn], regionBegin=1, regionSize=COLUMNS, cursor=0)
    connection.closeConnection()


def our_client(host: str, stop: threading.Event, ready: threading.Event) -> None:
    """A hand of cards on the display; a routing key plays the card under it."""
    display = BrlapiDisplay(host)
    viewport = Viewport(translator("en-ueb-g1.ctb"), display.columns)
    hand = list(CARDS)
    deck = DRAWN + CARDS
    played = 0

    def screen() -> Screen:
        return Screen((
            Line(HAND_LINE, tuple(Region(card, target=card) for card in hand)),
            Line(STATUS_LINE, (Region(f"played {played}"),)),
        ))

    viewport.show(screen())
    display.write(viewport.rows(), text=viewport.texts())
    ready.set()
    while not stop.is_set():
        key = display.read_key(0.1)
        if key is None:
            continue
        hit = viewport.handle(key)
        if hit is not None:
            gone = str(hit.target)
            hand.remove(gone)
            # a card drawn: the hand keeps its size
            hand.append(next(card for card in deck if card not in hand and card != gone))
            deck.append(deck.pop(0))
            played += 1
        viewport.show(screen())
        display.write(viewport.rows(), text=viewport.texts())
    display.close()


def run_block(brltty: VirtualBrltty, client: Callable[..., None], presses: int) -> list[float]:
    stop, ready = threading.Event(), threading.Event()
    thread = threading.Thread(target=client, args=(brltty.host, stop, ready), daemon=True)
    thread.start()
    if not ready.wait(10):
        raise RuntimeError(f"{client.__name__} did not start")
    time.sleep(0.2)  # let its first cells reach the display
    times = []
    for _ in range(presses):
        # A reader's pause between keys; random, so that both clients meet BRLTTY's 40 ms
        # input poll at every phase (back-to-back keys would lock onto it).
        time.sleep(PAUSES.uniform(0.05, 0.09))
        times.append(brltty.round_trip("route 1", timeout=5))
    stop.set()
    thread.join(5)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(presses: int) -> dict[str, Any]:
    results: dict[str, list[float]] = {"bare": [], "ours": []}
    with VirtualBrltty(COLUMNS, pump=False) as brltty:
        # Blocks in turn, so both see the same machine load.
        for _ in range(max(1, presses // BLOCK)):
            results["bare"] += run_block(brltty, bare_client, BLOCK)
            results["ours"] += run_block(brltty, our_client, BLOCK)
    figures: dict[str, Any] = {"presses": presses, "columns": COLUMNS}
    for name, times in results.items():
        figures[name] = {
            "p50_ms": round(statistics.median(times) * 1000, 2),
            "p95_ms": round(percentile(times, 0.95) * 1000, 2),
            "max_ms": round(max(times) * 1000, 2),
        }
    ratio = figures["ours"]["p95_ms"] / figures["bare"]["p95_ms"]
    figures["p95_ratio_ours_to_bare"] = round(ratio, 3)
    figures["target_p95_ratio"] = 1.2
    figures["target_met"] = ratio <= 1.2
    return figures


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    print(json.dumps(measure(count), indent=2))
