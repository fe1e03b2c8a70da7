"""How long a braille player's move takes to show on a web page, against a second braille
display: the anchor.

    .venv/bin/python bench/web_latency.py [--moves 200]

A table server runs in a thread of this process; three people sit at an Uno table: Ann on
a braille display in memory driven by ``brailledev join``'s own client and key loop, Bea the
same (the anchor), and Zoe at the web page in Debian's headless Chromium. Ann plays a card
of her hand by pressing the routing key over it; the time runs from the key press to the
moment Bea's display is redrawn with the move, and to the moment the card is drawn on top
of the page's discard pile (a MutationObserver in the page stamps it; both clocks are this
machine's wall clock). Bea's and Zoe's own turns are played for them on the server. Prints
one JSON object: p50 and p95 (ms) of both paths over ``--moves`` of Ann's card plays, and the
ratio of the p95s (the target: at most 1.5).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

# ruff: noqa: E402
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from aiohttp import web
from playwright.sync_api import Page, sync_playwright

from brailledev.display.braille import translator
from brailledev.display.keys import LineDown, LineUp, PanRight, Route
from brailledev.display.memory import MemoryDisplay
from brailledev.network.server.app import TableServer
from brailledev.network.server.room import Room
from brailledev.network.stores import open_store
from brailledev.programs.join import Joined, TableFront, connect
from games.uno.notation import WILDS, Move
from layouts.screen import PlayMove

T = TypeVar("T")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TABLE = "en-ueb-g1.ctb"
# Stamps each new top card of the page's discard pile with this machine's wall clock.
OBSERVER = """() => { window.seen = []; new MutationObserver(() => {
  const top = document.querySelector('#table .card');
  if (top) window.seen.push([top.getAttribute('aria-label'),
                             performance.timeOrigin + performance.now()]);
}).observe(document.getElementById('table'), {childList: true, subtree: true}); }"""


class Server:
    """The table server in a thread of its own, on a free loopback port."""

    def __init__(self, db: Path) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.tables, self.runner = self.run(self._start(db))
        self.url = f"http://127.0.0.1:{self.runner.addresses[0][1]}"

    async def _start(self, db: Path) -> tuple[TableServer, web.AppRunner]:
        # The store is made in the server's own thread: SQLite stays in its thread.
        tables = TableServer(open_store(db), rate=10_000.0, burst=10_000)
        runner = web.AppRunner(tables.app())
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        return tables, runner

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(30)

    def call(self, function: Callable[[], T]) -> T:
        async def inside() -> T:
            return function()
        return self.run(inside())

    def close(self) -> None:
        self.run(self.runner.cleanup())
        self.loop.call_soon_threadsafe(self.loop.stop)


class Braille:
    """A player on a 40-cell display in memory, ``join``'s client and key loop."""

    def __init__(self, url: str, code: str, name: str, folder: Path) -> None:
        self.joined: Joined = connect(url, code, name, "en", None, folder / f"{name}.json",
                                      TABLE)
        self.front = TableFront(self.joined, MemoryDisplay(40), translator(TABLE))
        self.front.redraw()

    def pump(self) -> bool:
        if self.joined.step():
            self.front.redraw()
            return True
        return False

    def route(self, key: str, region: int) -> None:
        """Line keys to line ``key``, pan to region ``region``, press the routing key."""
        front = self.front
        keys = [laid.line.key for laid in front.viewport.lines]
        while front.viewport.line_key != key:
            here = keys.index(str(front.viewport.line_key))
            front.press(LineDown() if keys.index(key) > here else LineUp())
        for _ in range(40):
            viewport = front.viewport
            for piece in viewport.lines[viewport.top].windows[viewport.window].pieces:
                if piece.region == region:
                    front.press(Route(piece.column))
                    return
            front.press(PanRight())
        raise RuntimeError(f"region {region} of {key} never showed")


def new_table(server: Server, seed: int) -> str:
    def make() -> str:
        room = server.tables.create({"game": "uno", "players": 3, "people": 3, "seed": seed,
                                     "pace": 0})
        return room.code
    return server.call(make)


def play_for(room: Room, seat: int) -> None:
    """A person's turn played for them on the server: their first legal move."""
    if room.can_act(seat):
        room.play_move(seat, room.table.legal(seat)[0])


def ann_card(ann: Braille) -> tuple[int, str] | None:
    """A card of Ann's hand she may play (no Wild: it asks a colour first)."""
    legal = ann.joined.link.legal()
    for line in ann.joined.seat.lines():
        if line.key == "hand":
            for index, region in enumerate(line.regions):
                target = region.target
                if isinstance(target, PlayMove) and isinstance(target.move, Move) \
                        and target.move in legal and target.move.card not in WILDS:
                    return index, target.move.card
    return None


def ann_other(ann: Braille) -> None:
    """Any other legal move of Ann's, routed on her display (not measured)."""
    legal = ann.joined.link.legal()
    for line in ann.joined.seat.lines():
        for index, region in enumerate(line.regions):
            if isinstance(region.target, PlayMove) and region.target.move in legal:
                ann.route(line.key, index)
                return
    raise RuntimeError("Ann has nothing to play")


def wait(done: Callable[[], Any], timeout: float = 10) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = done()
        if found:
            return found
        if time.monotonic() > deadline:
            raise RuntimeError("timed out")
        time.sleep(0.0002)


def caught_up(player: Braille, position: int) -> bool:
    player.pump()
    return bool(player.joined.link.position == position)


def shows_after(player: Braille, position: int) -> bool:
    return player.pump() and player.joined.link.position > position


def moved(server: Server, room: Room, position: int) -> bool:
    return server.call(lambda: room.table.moves) != position


def stamped(page: Page, label: str, start: float) -> float | None:
    """When the page first drew ``label`` on its pile after ``start`` (epoch ms)."""
    return next((when for name, when in page.evaluate("window.seen")
                 if name.endswith(label) and when / 1000 >= start), None)


def play_table(server: Server, page: Page, code: str, folder: Path, moves: int,
               braille_ms: list[float], web_ms: list[float]) -> None:
    """Ann's card plays at one table, measured, until the game ends or ``moves`` are."""
    ann = Braille(server.url, code, "Ann", folder)
    bea = Braille(server.url, code, "Bea", folder)
    page.goto(f"{server.url}/t/{code}?lang=en")
    page.fill("#name", "Zoe")
    page.get_by_role("button", name="Sit down").click()
    page.wait_for_selector("#hand li")
    page.evaluate(OBSERVER)
    room = server.call(lambda: server.tables.rooms[code])
    try:
        while len(braille_ms) < moves:
            position, waiting, over = server.call(lambda: (
                room.table.moves, room.table.game.must_act(), room.over))
            if over:
                return
            ann.pump()
            bea.pump()
            if 0 not in waiting:
                for seat in (1, 2):
                    server.call(functools.partial(play_for, room, seat))
                continue
            wait(functools.partial(caught_up, ann, position))
            card = ann_card(ann)
            if card is None:
                ann_other(ann)
                wait(functools.partial(moved, server, room, position))
                continue
            bea.pump()
            start = time.time()
            ann.route("hand", card[0])
            wait(functools.partial(shows_after, bea, position))
            braille_ms.append((time.time() - start) * 1000)
            stamp = wait(functools.partial(stamped, page, f"({card[1]})", start))
            web_ms.append(stamp - start * 1000)
    finally:
        ann.joined.close()
        bea.joined.close()


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def measure(moves: int) -> dict[str, Any]:
    braille_ms: list[float] = []
    web_ms: list[float] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as driver:
        server = Server(Path(folder) / "tables.db")
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        tables = 0
        try:
            while len(braille_ms) < moves:
                tables += 1
                page = browser.new_page()
                play_table(server, page, new_table(server, tables), Path(folder), moves,
                           braille_ms, web_ms)
                page.close()
        finally:
            browser.close()
            server.close()
    return {"moves": len(braille_ms), "tables": tables,
            "braille_p50_ms": round(statistics.median(braille_ms), 2),
            "braille_p95_ms": round(p95(braille_ms), 2),
            "web_p50_ms": round(statistics.median(web_ms), 2),
            "web_p95_ms": round(p95(web_ms), 2),
            "ratio_p95": round(p95(web_ms) / p95(braille_ms), 2), "target_ratio": 1.5}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    print(json.dumps(measure(args.moves)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
