"""The table server under load: tables of four bot clients each playing whole Uno games over
real WebSockets on loopback, first one table alone (the anchor), then many at once.

    .venv/bin/python bench/table_server.py [--tables 200] [--think 0.25]

The server runs in a process of its own (``TableServer`` with its SQLite store in a temporary
folder, every move committed before it is sent; each connection's frame rate unbounded, as
bots outrun a person's bound), the bot clients (:class:`brailledev.network.client.WireBot`, the
heuristic bot) all in this process. Each bot thinks ``--think`` seconds on average before
its move (half to one and a half times it), as a quick player would (at 0 every table plays
as fast as the server answers, and the latency is the queue's). A move's latency runs from
the moment its client sends it to the moment the last of the three other clients of its
table has the news (all clients share one clock).

Prints one JSON object: moves a second over the many tables, p50 and p95 latency (ms) of one
table alone and of the many, the ratio of the p95s (the anchor: one table alone), the
server's memory per table (its resident size with every table seated, less before any, over
the tables), the processor time a move took the server and the clients, the machine's load
average (other work on the machine lengthens every latency), and the targets (p95 under
50 ms, under 1 MB a table).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
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

PLAYERS = 4
SERVER = """
import sys
from aiohttp import web
from brailledev.network.server.app import TableServer
from brailledev.network.server.guard import Doorkeeping
from brailledev.network.server.limits import Limits
from brailledev.network.stores import open_store
# Every client comes from one address here: the limits per address are lifted.
door = Doorkeeping(limits=Limits(10**5, 10**5, 10**5))
server = TableServer(open_store(sys.argv[1]), door, rate=1e9, burst=10**9)
web.run_app(server.app(), host="127.0.0.1", port=int(sys.argv[2]), print=None,
            access_log=None)
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


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(folder / "tables.db"),
                                str(port)], cwd=str(Path(__file__).resolve().parent.parent))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return process, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the server did not start")


async def new_tables(url: str, count: int) -> list[str]:
    async with aiohttp.ClientSession() as session:
        codes = []
        for seed in range(count):
            async with session.post(f"{url}/tables", json={
                    "game": "uno", "players": PLAYERS, "people": PLAYERS, "seed": seed,
                    "pace": 0, "options": {"match_target": 0}}) as answer:
                codes.append(str((await answer.json())["code"]))
        return codes


def latencies(bots: list[WireBot]) -> list[float]:
    """Milliseconds from each move sent to the last other client having its news."""
    found = []
    for mover in bots:
        for position in mover.played:
            arrived = [bot.seen.get(position + 1) for bot in bots if bot is not mover]
            if all(each is not None for each in arrived):
                found.append((max(arrived) - mover.sent[position]) * 1000)  # type: ignore
    return found


async def play(url: str, tables: int, think: float,
               on_seated: Any = None) -> tuple[list[float], int, float]:
    """Whole games at ``tables`` tables at once: latencies, moves, seconds."""
    codes = await new_tables(url, tables)
    bots = [[WireBot(url, code, "uno", seed=index * PLAYERS + seat, think=think)
             for seat in range(PLAYERS)] for index, code in enumerate(codes)]
    everyone = [bot for table in bots for bot in table]
    tasks = [asyncio.create_task(bot.client.run()) for bot in everyone]
    await asyncio.gather(*(bot.client.seated.wait() for bot in everyone))
    started = time.perf_counter()
    if on_seated is not None:
        on_seated()
    await asyncio.gather(*(bot.over.wait() for bot in everyone))
    seconds = time.perf_counter() - started
    for bot in everyone:
        await bot.client.stop()
    await asyncio.gather(*tasks)
    moves = sum(len(bot.played) for bot in everyone)
    return [each for table in bots for each in latencies(table)], moves, seconds


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=100)[int(share * 100) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--think", type=float, default=0.25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="table-bench-") as folder:
        process, url = start_server(Path(folder))
        try:
            before = resident_mb(process.pid)
            alone, _, _ = asyncio.run(play(url, 1, args.think))
            peak = [resident_mb(process.pid)]

            def sample() -> None:
                peak.append(resident_mb(process.pid))

            async def many() -> tuple[list[float], int, float]:
                async def watch() -> None:
                    while True:
                        sample()
                        await asyncio.sleep(0.5)
                watcher = asyncio.create_task(watch())
                try:
                    return await play(url, args.tables, args.think, sample)
                finally:
                    watcher.cancel()

            server_cpu, own_cpu = cpu_seconds(process.pid), time.process_time()
            crowd, moves, seconds = asyncio.run(many())
            server_cpu = cpu_seconds(process.pid) - server_cpu
            own_cpu = time.process_time() - own_cpu
        finally:
            process.terminate()
            process.wait(30)
    per_table = (max(peak) - before) / args.tables
    result = {
        "tables": args.tables, "players": PLAYERS, "think_s": args.think,
        "moves": moves, "moves_per_s": round(moves / seconds, 1),
        "alone_p50_ms": round(percentile(alone, 0.50), 2),
        "alone_p95_ms": round(percentile(alone, 0.95), 2),
        "many_p50_ms": round(percentile(crowd, 0.50), 2),
        "many_p95_ms": round(percentile(crowd, 0.95), 2),
        "p95_ratio_to_alone": round(percentile(crowd, 0.95) / percentile(alone, 0.95), 2),
        "server_mb_before": round(before, 1), "server_mb_peak": round(max(peak), 1),
        "server_mb_per_table": round(per_table, 3),
        "server_cpu_ms_per_move": round(server_cpu / moves * 1000, 3),
        "clients_cpu_ms_per_move": round(own_cpu / moves * 1000, 3),
        "load_average": round(os.getloadavg()[0], 2),
        "target_p95_ms": 50, "target_mb_per_table": 1.0,
        "cpus": os.cpu_count(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
