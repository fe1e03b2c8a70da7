"""The table server with no single point of failure: ``brailledev serve`` processes behind
Debian's HAProxy (the repository's ``deploy/haproxy.cfg``) sharing a private PostgreSQL,
both started here as the tests start them (``tests/server/balancer.py``).

    .venv/bin/python bench/table_failover.py [--tables 200] [--think 0.25] [--seconds 20]
                                             [--takeover 50,200] [--rolling 200] [--pace 1]
                                             [--parts relay,one,two,takeover,rolling]

- ``relay``, ``relay_commit`` and ``one``, ``two``: ``bench/table_server.py``'s anchors and
  its clients (four WireBots a table, ``--think`` seconds a move) against one, then two
  serve processes behind HAProxy: moves a second, p50/p95/p99/slowest, the serve
  processes' processor per move, and the share of the two cores the serve processes,
  PostgreSQL, HAProxy and the clients (this process) each take;
- ``takeover``: ``N`` tables playing on one of two processes (``--pace`` seconds a move),
  that process killed (``kill -9``): per table, the seconds from the kill to its clients
  told the table again, and to its next move told to all four (target: under 5 s);
- ``rolling``: ``--rolling`` tables playing on three processes, each process stopped
  (SIGTERM), started again and waited for until HAProxy has it back, one after the other:
  every table's log has each change once (``1..seq``), each seat was told exactly its
  share of the log, the table loads from its snapshot and log at the position its players
  last saw, and the longest a seat waited for a move (its maker's thinking left out;
  target under 5 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# ruff: noqa: E402
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench.table_server import (
    PLAYERS,
    RELAY,
    WARM_UP,
    Window,
    brailledev,
    cpu_seconds,
    new_tables,
    relay,
    start,
)
from brailledev.network.client import WireBot
from brailledev.network.server.room import Room
from brailledev.network.stores import open_store
from tests.server.balancer import Cluster, healthy, holding
from tests.server.postgres import PrivatePostgres

# Every client comes from 127.0.0.1 here: the limits per address are lifted.
LIFTED = ("--connections", "100000", "--tables-per-hour", "100000",
          "--tries-per-minute", "100000")
TARGET_S = 5.0


def postgres_pids(postmaster: int) -> list[int]:
    """PostgreSQL's postmaster and every process it started (a backend per connection)."""
    found = [postmaster]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if int(fields[1]) == postmaster:
            found.append(int(stat.parent.name))
    return found


def used(pids: Sequence[int]) -> float:
    """The processor seconds ``pids`` used so far (those that ended count nothing)."""
    total = 0.0
    for pid in pids:
        try:
            total += cpu_seconds(pid)
        except OSError:
            continue
    return total


class Shares(Window):
    """The window over several processes: the serve processes' processor together (per
    move, as ``bench/table_server.py`` gives one's), PostgreSQL's, HAProxy's and the
    clients' apart, each as a share of the machine's cores."""

    def __init__(self, serves: Sequence[int], postgres: int, haproxy: int,
                 seconds: float) -> None:
        super().__init__(serves[0], seconds)
        self.groups = {"serve": list(serves), "postgresql": postgres_pids(postgres),
                       "haproxy": [haproxy]}
        self.spent: dict[str, float] = {}

    async def run(self) -> None:
        await asyncio.sleep(WARM_UP)
        before = {name: used(pids) for name, pids in self.groups.items()}
        own = time.process_time()
        self.opened = time.perf_counter()
        await asyncio.sleep(self.seconds)
        self.closed = time.perf_counter()
        self.spent = {name: used(pids) - before[name] for name, pids in self.groups.items()}
        self.spent["clients"] = self.own_cpu = time.process_time() - own
        self.server_cpu = self.spent["serve"]

    def cores(self) -> dict[str, float]:
        """How much of the machine's cores each part took over the window (1.0: all)."""
        length = (self.closed - self.opened) * (os.cpu_count() or 1)
        return {name: round(seconds / length, 3) for name, seconds in self.spent.items()}


async def behind_balancer(cluster: Cluster, postmaster: int, tables: int, think: float,
                          seconds: float) -> dict[str, Any]:
    """``bench/table_server.py``'s clients through the balancer, the window over every
    process of the cluster."""
    assert cluster.balancer is not None
    window = Shares([serve.pid for serve in cluster.serves], postmaster,
                    cluster.balancer.daemon.pid, seconds)
    figures: dict[str, Any] = await brailledev(cluster.url, cluster.serves[0].pid, tables,
                                               think, seconds, window)
    figures.pop("server_mb_per_table")  # one process's memory says nothing of several
    figures["share_of_cores"] = window.cores()
    return figures


class Player:
    """A table's four WireBots, with when each was last told anything (a frame) and the
    events it was told, in order."""

    def __init__(self, url: str, code: str, seed: int, think: float) -> None:
        self.code = code
        self.bots = [WireBot(url, code, "uno", seed=seed * PLAYERS + seat, think=think)
                     for seat in range(PLAYERS)]
        self.frames: list[list[float]] = [[] for _ in self.bots]
        self.told: list[list[Any]] = [[] for _ in self.bots]
        for bot, frames, told in zip(self.bots, self.frames, self.told, strict=True):
            bot.client.on_frame = self._keeping(bot, frames, told)
        self.tasks = [asyncio.create_task(bot.client.run()) for bot in self.bots]

    @staticmethod
    def _keeping(bot: WireBot, frames: list[float],
                 told: list[Any]) -> Callable[[dict[str, Any]], None]:
        take = bot._frame

        def frame(data: dict[str, Any]) -> None:
            frames.append(time.perf_counter())
            if data.get("type") == "news":
                told.extend(data["events"])
            take(data)
        return frame

    async def seated(self) -> None:
        await asyncio.wait_for(asyncio.gather(*(bot.client.seated.wait()
                                                for bot in self.bots)), 300)

    @property
    def position(self) -> int:
        return max(bot.latest for bot in self.bots)

    def back(self, since: float) -> float | None:
        """Seconds from ``since`` until every client of the table was told something."""
        return _last([next((moment for moment in frames if moment > since), None)
                      for frames in self.frames], since)

    def moved(self, since: float, position: int) -> float | None:
        """Seconds from ``since`` until a move from ``position`` on was told to all four."""
        return _last([min((moment for seen, moment in bot.seen.items() if seen > position),
                          default=None) for bot in self.bots], since)

    def waits(self) -> list[float]:
        """For each move played: how long the others waited for it, its maker's thinking
        left out (from the first seat told the position to the maker told it, then from
        the maker sending its move to the last seat told it)."""
        found = []
        for mover in self.bots:
            for position in mover.played:
                first = min(bot.seen[position] for bot in self.bots if position in bot.seen)
                told = _last([bot.seen.get(position + 1) for bot in self.bots],
                             mover.sent[position])
                if told is not None and position in mover.seen:
                    found.append(mover.seen[position] - first + told)
        return found

    async def stop(self) -> None:
        for bot in self.bots:
            await bot.client.stop()
        await asyncio.gather(*self.tasks)


async def seated(url: str, count: int, think: float) -> list[Player]:
    """``count`` new tables through the balancer, their players seated and playing."""
    codes = await new_tables(url, count)
    players = [Player(url, code, seed, think) for seed, code in enumerate(codes)]
    await asyncio.gather(*(player.seated() for player in players))
    return players


def _last(moments: list[float | None], since: float) -> float | None:
    """Seconds from ``since`` to the latest of ``moments``; ``None`` while one is missing."""
    known = [moment for moment in moments if moment is not None]
    return max(known) - since if len(known) == len(moments) else None


def spread(values: Sequence[float]) -> dict[str, float]:
    """The smallest, p50, p95, the largest, in seconds."""
    ordered = sorted(values)
    cuts = (statistics.quantiles(ordered, n=100, method="inclusive") if len(ordered) > 1
            else ordered * 99)
    return {"min_s": round(ordered[0], 2), "p50_s": round(cuts[49], 2),
            "p95_s": round(cuts[94], 2), "max_s": round(ordered[-1], 2)}


async def takeover(cluster: Cluster, count: int, think: float) -> dict[str, Any]:
    """``count`` tables on the first of two processes (the second stopped while they sit
    down, then started again), that process killed."""
    other = cluster.serves[1]
    down, up = watch(cluster, other.port, "DOWN"), watch(cluster, other.port, "UP")
    await asyncio.to_thread(other.stop)
    await asyncio.to_thread(down)
    players = await seated(cluster.url, count, think)
    await asyncio.to_thread(other.start)
    await asyncio.to_thread(up)
    held = holding(cluster.serves[0])  # the tables it made or took up, whoever sat since
    await asyncio.sleep(3 * max(think, 0.5))  # every table under way
    positions = [player.position for player in players]
    killed = time.perf_counter()
    reconnections = [sum(bot.client.reconnections for bot in player.bots)
                     for player in players]
    cluster.serves[0].kill()
    deadline = killed + 60
    backs: list[float | None] = [None] * count
    moves: list[float | None] = [None] * count
    while time.perf_counter() < deadline and (time.perf_counter() < killed + 15 or None in [
            moves[index] for index in _dropped(players, reconnections)]):
        await asyncio.sleep(0.05)
        for index, player in enumerate(players):
            backs[index] = backs[index] or player.back(killed)
            moves[index] = moves[index] or player.moved(killed, positions[index])
    dropped = _dropped(players, reconnections)
    stuck = [_stuck(players[index]) for index in dropped if moves[index] is None]
    for player in players:
        await player.stop()
    played = [seconds for seconds in (moves[index] for index in dropped) if seconds is not None]
    told = [seconds for seconds in (backs[index] for index in dropped) if seconds is not None]
    return {"tables": count, "held_by_killed": held, "dropped": len(dropped),
            "pace_s": think, "not_back": len(dropped) - len(told),
            "not_moved": len(dropped) - len(played), "told_again": spread(told),
            "moved_again": spread(played),
            "under_target": sum(seconds < TARGET_S for seconds in played),
            "target_s": TARGET_S, "stuck": stuck}


def _stuck(player: Player) -> dict[str, Any]:
    """What the clients of a table that did not play again know: why a seat was refused,
    whether it is connected, the position it saw, whose turn its last state said."""
    return {"code": player.code, "seats": [
        {"refused": bot.client.refused, "connected": bot.client.connected.is_set(),
         "seen": bot.latest, "actor": (bot.client.state or {}).get("actor"),
         "move_refused": [reason.get("code") for reason in bot.refusals],
         "reconnections": bot.client.reconnections} for bot in player.bots]}


def _dropped(players: list[Player], reconnections: list[int]) -> list[int]:
    """The tables of the killed process, whose clients came back (a health check missed
    under load may have moved others away from it before the kill)."""
    return [index for index, player in enumerate(players)
            if sum(bot.client.reconnections for bot in player.bots) > reconnections[index]]


async def rolling(cluster: Cluster, count: int, think: float) -> dict[str, Any]:
    """``count`` tables through the balancer, every process restarted in turn."""
    players = await seated(cluster.url, count, think)
    await asyncio.sleep(3 * max(think, 0.5))
    restarts = []
    for serve in cluster.serves:
        began, up = time.perf_counter(), watch(cluster, serve.port, "UP")
        await asyncio.to_thread(serve.stop)
        stopped = time.perf_counter()
        await asyncio.to_thread(serve.start)
        listening = time.perf_counter()
        await asyncio.to_thread(up)
        restarts.append({"stop_s": round(stopped - began, 2),
                         "start_s": round(listening - stopped, 2),
                         "back_s": round(time.perf_counter() - listening, 2)})
        await asyncio.sleep(3 * max(think, 0.5))  # play goes on between two restarts
    for player in players:
        await player.stop()
    checked = await asyncio.to_thread(_check, cluster.address, players)
    waits = [seconds for player in players for seconds in player.waits()]
    return {"tables": count, "pace_s": think, "processes": len(cluster.serves),
            "restart_s": restarts, **checked, "moves": len(waits),
            "wait": spread(waits), "waits_over_target": sum(s > TARGET_S for s in waits),
            "target_s": TARGET_S}


def watch(cluster: Cluster, port: int, state: str) -> Callable[[], None]:
    """What waits until HAProxy says once more than now that the process on ``port`` is
    ``state`` (UP, DOWN), and, UP, until it answers its health check."""
    assert cluster.balancer is not None
    name = f"serve{[serve.port for serve in cluster.serves].index(port) + 1}"
    daemon, said = cluster.balancer.daemon, f"serve/{name} is {state}"
    before = daemon.output().count(said)
    return lambda: daemon.wait_until(lambda: daemon.output().count(said) > before and (
        state != "UP" or healthy(f"http://127.0.0.1:{port}")), 30)


def _check(address: str, players: list[Player]) -> dict[str, int]:
    """Every table against its log: counts of tables whose log skips or repeats a change,
    of seats told another story than the start of their share of the log, of tables that
    load at a position behind what their players saw, or not at all."""
    store = open_store(address)
    counts = {"checked": 0, "log_gaps": 0, "told_otherwise": 0, "position_behind": 0,
              "lost": 0}
    try:
        for player in players:
            counts["checked"] += 1
            room = Room.load(player.code, store)
            if room is None:
                counts["lost"] += 1
                continue
            numbers = [number for number, _ in store.changes(player.code, 0, 0)]
            counts["log_gaps"] += numbers != list(range(1, room.seq + 1))
            # The clients stop one after the other while their table plays on: the store
            # may hold changes told to nobody, never fewer than a client was told.
            counts["position_behind"] += room.table.moves < player.position
            for bot, told in zip(player.bots, player.told, strict=True):
                stored = [event for _, events in
                          store.changes(player.code, int(bot.client.seat or 0), 0)
                          for event in events]
                counts["told_otherwise"] += told != stored[:len(told)]
    finally:
        store.close()
    return counts


def fresh(postgres: PrivatePostgres, folder: str, processes: int) -> Cluster:
    """A cluster of ``processes`` on a new database, its logs in a new folder."""
    return Cluster(postgres.database(), Path(tempfile.mkdtemp(dir=folder)), processes, LIFTED)


def keep(result: dict[str, Any], name: str, figures: Any) -> None:
    """A part's figures into the result, and on the error stream at once (a long run
    stopped half-way keeps what it measured)."""
    result[name] = figures
    print(json.dumps({name: figures}), file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="relay,one,two,takeover,rolling")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--takeover", default="50,200", help="tables on the killed process")
    parser.add_argument("--think", type=float, default=0.25)
    parser.add_argument("--rolling", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pace", type=float, default=1.0,
                        help="seconds a move at the takeover's and rolling restart's tables")
    args = parser.parse_args()
    parts = args.parts.split(",")
    result: dict[str, Any] = {"tables": args.tables, "players": PLAYERS,
                              "think_s": args.think, "window_s": args.seconds,
                              "cpus": os.cpu_count(),
                              "load_average_before": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory(prefix="table-failover-") as folder, \
            PrivatePostgres() as postgres:
        assert postgres.daemon is not None
        postmaster = postgres.daemon.pid
        if "relay" in parts:
            for name, store in (("relay", "-"), ("relay_commit", f"{folder}/relay.db")):
                process, port = start(RELAY, "PORT", store)
                try:
                    keep(result, name, asyncio.run(relay(port, process.pid, args.tables,
                                                         args.think, args.seconds)))
                finally:
                    process.terminate()
                    process.wait(30)
        for name, processes in (("one", 1), ("two", 2)):
            if name in parts:
                with fresh(postgres, folder, processes) as cluster:
                    keep(result, name, asyncio.run(behind_balancer(
                        cluster, postmaster, args.tables, args.think, args.seconds)))
        if "takeover" in parts:
            for count in (int(number) for number in args.takeover.split(",")):
                with fresh(postgres, folder, 2) as cluster:
                    keep(result, f"takeover_{count}",
                         asyncio.run(takeover(cluster, count, args.pace)))
        if "rolling" in parts:
            with fresh(postgres, folder, 3) as cluster:
                keep(result, "rolling", asyncio.run(rolling(cluster, args.rolling, args.pace)))
    result["load_average_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
