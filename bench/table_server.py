"""The table server under load, against two anchors in the same run: tables of four clients
each playing over real WebSockets on loopback for a fixed window of seconds.

    .venv/bin/python bench/table_server.py [--tables 200] [--think 0.25] [--seconds 20]
                                           [--db postgresql://...]

Three servers, each in a process of its own, driven the same way (four clients a table,
each thinking ``--think`` seconds on average before its move, half to one and a half times
it, as a quick player would; at 0 every table plays as fast as the server answers):

- ``relay``: a bare aiohttp WebSocket relay (no game, no store): a small move in, a frame
  of about 300 bytes out to the table's four sockets, telling whose turn is next;
- ``relay_commit``: the same, with one SQLite WAL commit a move (a 5.6 KB state updated,
  a change inserted, ``synchronous=NORMAL``, as brailledev's store);
- ``brailledev``: ``TableServer`` with its store (SQLite in a temporary folder, or the
  PostgreSQL database of ``--db``), every move committed before it is sent, the clients
  :class:`brailledev.network.client.WireBot` (the heuristic bot), Uno to 500 points (games
  last past the window).

The clients sit down :data:`WAVE` tables at a time (each wave seated before the next); the
seconds that took are printed. For each, over the window (the clients' first seconds of
play left out): real moves a second (moves sent in the window over its length), the latency
of a move from the moment its client sends it to the moment the last of the three other
clients of its table has it (p50, p95, p99, the slowest; all clients share one clock), the
processor time per move of the server and of the clients (who share the same cores: the
machine's load average is printed beside), the server's memory per table, and the ratio of
brailledev's server processor per move to the relay with one commit's (target at most 2).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# ruff: noqa: E402
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import aiohttp

from brailledev.network.client import WireBot
from brailledev.network.server.app import GC_THRESHOLDS

PLAYERS = 4
WARM_UP = 2.0  # seconds of play left out before the window
# Tables whose clients sit down at once: 4,000 connecting together starve a loaded machine's
# two processes until heartbeats fail and seats are taken by hellos whose welcome was lost.
WAVE = 100
SERVER = """
import sys
from aiohttp import web
from brailledev.network.server.app import BACKLOG, TableServer
from brailledev.network.server.guard import Doorkeeping
from brailledev.network.server.limits import Limits
from brailledev.network.stores import open_store
# Every client comes from one address here: the limits per address are lifted.
door = Doorkeeping(limits=Limits(10**5, 10**5, 10**5))
server = TableServer(open_store(sys.argv[1]), door, rate=1e9, burst=10**9)
web.run_app(server.app(), host="127.0.0.1", port=int(sys.argv[2]), print=None,
            access_log=None, backlog=BACKLOG)
"""
# The anchors: a move in, a frame of about 300 bytes to the table's four sockets; with a
# file named, one SQLite WAL commit a move first (a table's state, a change).
RELAY = """
import json, sqlite3, sys, time
from aiohttp import WSMsgType, web
db = None
if sys.argv[2] != "-":
    db = sqlite3.connect(sys.argv[2], isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE tables (code TEXT PRIMARY KEY, state TEXT, seq INTEGER)")
    db.execute("CREATE TABLE changes (code TEXT, seq INTEGER, events TEXT, "
               "PRIMARY KEY (code, seq)) WITHOUT ROWID")
STATE, PAD = "x" * 5600, "y" * 220
tables = {}
async def socket(request):
    code, seat = request.query["code"], int(request.query["seat"])
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    table = tables.setdefault(code, {"seq": 0, "sockets": {}})
    table["sockets"][seat] = ws
    if db is not None and table["seq"] == 0:
        db.execute("INSERT OR IGNORE INTO tables VALUES (?, ?, 0)", (code, STATE))
    if len(table["sockets"]) == 4:
        frame = json.dumps({"seq": 0, "turn": 0, "pad": PAD})
        for other in table["sockets"].values():
            await other.send_str(frame)
    async for message in ws:
        if message.type != WSMsgType.TEXT:
            break
        move = json.loads(message.data)
        seq = table["seq"] = table["seq"] + 1
        if db is not None:
            db.execute("BEGIN IMMEDIATE")
            db.execute("UPDATE tables SET state = ?, seq = ? WHERE code = ?", (STATE, seq, code))
            db.execute("INSERT INTO changes VALUES (?, ?, ?)", (code, seq, message.data + PAD))
            db.execute("COMMIT")
        frame = json.dumps({"seq": seq, "turn": (move["seat"] + 1) % 4, "pad": PAD})
        for other in list(table["sockets"].values()):
            await other.send_str(frame)
    return ws
app = web.Application()
app.router.add_get("/ws", socket)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None,
            backlog=4096)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def cpu_seconds(pid: int) -> float:
    """User and system time the process used so far, from the kernel."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_mb(pid: int) -> float:
    """The process's resident memory, from the kernel (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start(program: str, *args: str) -> tuple[subprocess.Popen[bytes], int]:
    """A server of the bench in a process of its own (``PORT`` in ``args`` its port), once
    it listens: it and its port."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", program,
                                *(arg.replace("PORT", str(port)) for arg in args)],
                               cwd=str(Path(__file__).resolve().parent.parent))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("a server of the bench did not start")


class Window:
    """The window of the run: when it opens and closes (``perf_counter``), the processor
    times at each end."""

    def __init__(self, pid: int, seconds: float) -> None:
        self.pid, self.seconds = pid, seconds
        self.opened = self.closed = 0.0
        self.server_cpu = self.own_cpu = 0.0
        self.peak_mb = 0.0

    async def run(self) -> None:
        await asyncio.sleep(WARM_UP)
        self.server_cpu, self.own_cpu = cpu_seconds(self.pid), time.process_time()
        self.opened = time.perf_counter()
        end = self.opened + self.seconds
        while time.perf_counter() < end:
            self.peak_mb = max(self.peak_mb, resident_mb(self.pid))
            await asyncio.sleep(min(0.5, max(0.0, end - time.perf_counter())))
        self.closed = time.perf_counter()
        self.server_cpu = cpu_seconds(self.pid) - self.server_cpu
        self.own_cpu = time.process_time() - self.own_cpu

    def figures(self, moves: list[tuple[float, float]], before_mb: float,
                tables: int) -> dict[str, float]:
        """``moves``: (sent, last other client told) of every move of the run."""
        inside = [(sent, told) for sent, told in moves if self.opened <= sent < self.closed]
        delays = sorted((told - sent) * 1000 for sent, told in inside)
        count = max(1, len(inside))
        cuts = statistics.quantiles(delays, n=100) if len(delays) > 1 else [0.0] * 99
        return {"moves_per_s": round(len(inside) / (self.closed - self.opened), 1),
                "p50_ms": round(cuts[49], 2), "p95_ms": round(cuts[94], 2),
                "p99_ms": round(cuts[98], 2), "slowest_ms": round(max(delays, default=0), 1),
                "server_cpu_ms_per_move": round(self.server_cpu / count * 1000, 3),
                "clients_cpu_ms_per_move": round(self.own_cpu / count * 1000, 3),
                "server_mb_per_table": round((self.peak_mb - before_mb) / tables, 3)}


def quiet_collector() -> None:
    """The clients' collector kept from pausing them, as the server's is: what exists once
    every seat is taken stays out of its sweeps, which come rarely (a full collection over
    4,000 clients paused the clients 0.9 s of processor at 1,000 tables, a latency the
    server never caused). What an earlier run of the bench froze is let go first."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def new_tables(url: str, count: int) -> list[str]:
    async with aiohttp.ClientSession() as session:
        codes = []
        for seed in range(count):
            async with session.post(f"{url}/tables", json={
                    "game": "uno", "players": PLAYERS, "people": PLAYERS, "seed": seed,
                    "pace": 0}) as answer:
                codes.append(str((await answer.json())["code"]))
        return codes


async def brailledev(url: str, pid: int, tables: int, think: float, seconds: float,
                     window: Window | None = None) -> dict[str, float]:
    """brailledev's server: WireBots at ``tables`` tables for the window (``window``: one
    measuring other processes than ``pid``'s alone)."""
    before = resident_mb(pid)
    codes = await new_tables(url, tables)
    bots = [[WireBot(url, code, "uno", seed=index * PLAYERS + seat, think=think)
             for seat in range(PLAYERS)] for index, code in enumerate(codes)]
    everyone = [bot for table in bots for bot in table]
    tasks = []
    began = time.perf_counter()
    for first in range(0, len(everyone), WAVE * PLAYERS):
        wave = everyone[first:first + WAVE * PLAYERS]
        tasks += [asyncio.create_task(bot.client.run()) for bot in wave]
        try:  # as long as the relay's seats are given: a seat that never comes stops the run
            await asyncio.wait_for(asyncio.gather(*(bot.client.seated.wait()
                                                    for bot in wave)), 60)
        except TimeoutError:
            ready = sum(bot.client.seated.is_set() for bot in everyone)
            raise RuntimeError(f"{ready} of {len(everyone)} brailledev seats seated, a wave "
                               "waited 60 s: see the serve process's log") from None
    seated_s = time.perf_counter() - began
    quiet_collector()
    window = window or Window(pid, seconds)
    await window.run()
    for bot in everyone:
        await bot.client.stop()
    await asyncio.gather(*tasks)
    moves = []
    for table in bots:
        for mover in table:
            for position in mover.played:
                arrived = [bot.seen[position + 1] for bot in table
                           if bot is not mover and position + 1 in bot.seen]
                if len(arrived) == PLAYERS - 1:
                    moves.append((mover.sent[position], max(arrived)))
    refused = sum(bot.client.refused is not None for bot in everyone)
    return {**window.figures(moves, before, tables), "seated_s": round(seated_s, 1),
            "refused_seats": refused}


async def relay(port: int, pid: int, tables: int, think: float,
                seconds: float) -> dict[str, float]:
    """An anchor: four clients a table, each sending a small move when told its turn."""
    before = resident_mb(pid)
    sent: dict[tuple[int, int], float] = {}
    told: dict[tuple[int, int], list[float]] = {}
    stop = asyncio.Event()
    ready: set[tuple[int, int]] = set()  # the seats told the first turn

    async def seat(session: aiohttp.ClientSession, table: int, me: int) -> None:
        pauses = random.Random(table * PLAYERS + me)
        async with session.ws_connect(f"http://127.0.0.1:{port}/ws?code=t{table}&seat={me}"
                                      ) as ws:
            async for message in ws:
                frame = json.loads(message.data)
                now = time.perf_counter()
                told.setdefault((table, frame["seq"]), []).append(now)
                ready.add((table, me))
                if stop.is_set():
                    break
                if frame["turn"] == me:
                    if think:
                        await asyncio.sleep(think * pauses.uniform(0.5, 1.5))
                    sent[(table, frame["seq"] + 1)] = time.perf_counter()
                    await ws.send_str(json.dumps({"seat": me, "move": "r7"}))

    # No bound on the connections at once (aiohttp's is 100: 25 tables would play).
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        tasks: list[asyncio.Task[None]] = []
        began = time.perf_counter()
        for first in range(0, tables, WAVE):  # every table seated, as brailledev's
            wave = range(first, min(tables, first + WAVE))
            tasks += [asyncio.create_task(seat(session, table, me))
                      for table in wave for me in range(PLAYERS)]
            deadline = time.monotonic() + 60
            while len(ready) < wave.stop * PLAYERS:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{len(ready)} of {wave.stop * PLAYERS} relay seats "
                                       "seated")
                await asyncio.sleep(0.05)
        seated_s = time.perf_counter() - began
        quiet_collector()
        window = Window(pid, seconds)
        await window.run()
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    # Each move is told to its four sockets: the last of the mover's three others is the
    # latest but one of the four (the mover's own copy arrives among them).
    moves = [(sent[key], sorted(times)[-1]) for key, times in told.items()
             if key in sent and len(times) == PLAYERS]
    return {**window.figures(moves, before, tables), "seated_s": round(seated_s, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--think", type=float, default=0.25)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--db", default="", help="a PostgreSQL address (default: SQLite)")
    args = parser.parse_args()
    result: dict[str, Any] = {"tables": args.tables, "players": PLAYERS,
                              "think_s": args.think, "window_s": args.seconds,
                              "store": "postgresql" if args.db else "sqlite",
                              "load_average_before": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory(prefix="table-bench-") as folder:
        for name, program, store in (("relay", RELAY, "-"),
                                     ("relay_commit", RELAY, f"{folder}/relay.db"),
                                     ("brailledev", SERVER, args.db or f"{folder}/tables.db")):
            arguments = ("PORT", store) if program is RELAY else (store, "PORT")
            process, port = start(program, *arguments)
            try:
                if program is RELAY:
                    run = relay(port, process.pid, args.tables, args.think, args.seconds)
                else:
                    run = brailledev(f"http://127.0.0.1:{port}", process.pid, args.tables,
                                     args.think, args.seconds)
                result[name] = asyncio.run(run)
            finally:
                process.terminate()
                process.wait(30)
    result["server_cpu_ratio_to_relay_commit"] = round(
        result["brailledev"]["server_cpu_ms_per_move"]
        / max(result["relay_commit"]["server_cpu_ms_per_move"], 1e-9), 2)
    result["load_average_after"] = round(os.getloadavg()[0], 2)
    result["targets"] = {"server_cpu_ratio_to_relay_commit": 2, "p99_ms": 50,
                         "slowest_ms": 200, "server_mb_per_table": 0.2}
    result["cpus"] = os.cpu_count()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
