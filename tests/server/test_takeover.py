"""The tables of a ``serve`` process behind HAProxy (``deploy/haproxy.cfg``) on PostgreSQL:
a process starved of the processor for longer than a health check's interval keeps them,
and every one of a process killed ``-9`` plays again on the other (issue 34)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

from brailledev.network.client import WireBot
from tests.server.balancer import Cluster, holding
from tests.server.helpers import new_table
from tests.server.postgres import PrivatePostgres

TABLES, PLAYERS = 6, 4
STARVED_S = 3.0  # longer than the check's interval and two missed checks: 0.5 s, fall 3
# Every table's next move, from the kill: the takeover's target is 5 s; the margin is load's.
MOVED_AGAIN_S = 20.0


async def moved_on(tables: list[list[WireBot]], since: list[int], seconds: float) -> None:
    """Wait until each table was told a move past its position in ``since``."""
    deadline = time.monotonic() + seconds
    while True:
        behind = [index for index, bots in enumerate(tables)
                  if max(bot.latest for bot in bots) <= since[index]]
        if not behind:
            return
        assert time.monotonic() < deadline, (
            f"tables {behind} of {len(tables)} did not play again in {seconds} s: "
            f"{[[_seat(bot) for bot in tables[i]] for i in behind]}")
        await asyncio.sleep(0.05)


def _seat(bot: WireBot) -> str:
    state = bot.client.state or {}
    return (f"seat {bot.client.seat} at {bot.latest}, actor {state.get('actor')}, over "
            f"{state.get('over')}, connected {bot.client.connected.is_set()}, refused "
            f"{bot.client.refused} {bot.refusals}, reconnections {bot.client.reconnections}")


def positions(tables: list[list[WireBot]]) -> list[int]:
    return [max(bot.latest for bot in bots) for bots in tables]


def test_a_starved_process_keeps_its_tables_and_a_killed_ones_all_play_again(
        postgres: PrivatePostgres, tmp_path: Path) -> None:
    # Every client comes from 127.0.0.1, at serve's 20 connections an address: the 24 back
    # at one process after the kill are let in by their seats' keys.
    with Cluster(postgres.database(), tmp_path, processes=2) as cluster:
        codes = [new_table(cluster.url, game="uno", players=PLAYERS, people=PLAYERS,
                           seed=seed, pace=0) for seed in range(TABLES)]
        assert cluster.balancer is not None
        haproxy = cluster.balancer.daemon

        async def scenario() -> tuple[int, int, int]:
            tables = [[WireBot(cluster.url, code, "uno", seed=seed * PLAYERS + seat,
                               think=0.2) for seat in range(PLAYERS)]
                      for seed, code in enumerate(codes)]
            everyone = [bot for bots in tables for bot in bots]
            tasks = [asyncio.create_task(bot.client.run()) for bot in everyone]
            await asyncio.wait_for(asyncio.gather(*(bot.client.seated.wait()
                                                    for bot in everyone)), 30)
            await moved_on(tables, [1] * TABLES, 20)
            held = [holding(serve) for serve in cluster.serves]
            victim = cluster.serves[held.index(max(held))]
            os.kill(victim.pid, signal.SIGSTOP)
            await asyncio.sleep(STARVED_S)
            os.kill(victim.pid, signal.SIGCONT)
            await moved_on(tables, positions(tables), MOVED_AGAIN_S)
            starved = sum(bot.client.reconnections for bot in everyone)
            before = positions(tables)
            victim.kill()
            await moved_on(tables, before, MOVED_AGAIN_S)
            for bot in everyone:
                await bot.client.stop()
            await asyncio.gather(*tasks)
            return max(held), starved, sum(bot.client.reconnections for bot in everyone)

        victim_held, starved, killed = asyncio.run(scenario())
    assert victim_held > 0
    # Starved: no check failed three times in a row, no session shut, no table moved.
    assert "is DOWN" not in haproxy.output() and starved == 0
    # Killed: its tables' clients came back (and every table played again, above).
    assert killed >= PLAYERS
