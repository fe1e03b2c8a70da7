"""A table server killed at any moment (``kill -9``) comes back with every table where it
was: a real server process is killed mid-game, started again on the same store, its clients
reconnect by themselves and the game goes on to the very end an uninterrupted run reaches
(same seed, same players, a bot of the server's own in the third seat whose memory and
random state come back with the table), no move lost or played twice, no change told twice
or missed."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp

from brailledev.network.client import WireBot
from brailledev.network.server.app import DRAIN, GC_THRESHOLDS
from brailledev.network.server.room import Room
from brailledev.network.store_sqlite import SqliteStore
from tests.daemon import answers
from tests.server.helpers import (
    Raw,
    ServeProcess,
    ServerThread,
    new_table,
    played_out,
    reached,
    request,
    seat_bots,
    stored_events,
    told_as_stored,
)

GAME, PLAYERS, PEOPLE, SEED = "domino", 3, 2, 4


async def play(server: ServeProcess, code: str,
               kills: tuple[int, ...]) -> tuple[list[WireBot], list[list[Any]]]:
    """Two bot clients sit down in turn and play to the end with the server's bot; the
    server is killed and started again when the table first reaches each position of
    ``kills``; the bots and the events each was told."""
    bots, told = await seat_bots(server.url, code, GAME, PEOPLE)
    for position in kills:
        await reached(bots, position)
        server.kill()
        await asyncio.sleep(0.3)  # the clients find the server gone and start trying
        server.start()
    await played_out(bots)
    return bots, told


def run(tmp: Path, kills: tuple[int, ...]) -> tuple[dict[str, Any], int, list[WireBot], Path]:
    tmp.mkdir()
    server = ServeProcess(tmp / "tables.db")
    server.start()
    try:
        code = new_table(server.url, game=GAME, players=PLAYERS, people=PEOPLE, seed=SEED,
                         bots="heuristic")
        bots, told = asyncio.run(play(server, code, kills))
    finally:
        server.stop()
    store = SqliteStore(server.db)
    room = Room.load(code, store)  # its last snapshot and the log after it played again
    assert room is not None
    state, seq = room.to_dict(), room.seq
    told_as_stored(store, code, bots, told)
    store.close()
    return state, seq, bots, Path(server.db)


def test_killed_twice_mid_game_the_game_ends_as_an_uninterrupted_one(tmp_path):
    whole, whole_seq, _, _ = run(tmp_path / "whole", ())
    cut, cut_seq, bots, db = run(tmp_path / "cut", (15, 40))
    assert cut["table"]["state"] == whole["table"]["state"]
    assert cut["table"]["moves"] == whole["table"]["moves"]
    assert sum(bot.client.reconnections for bot in bots) >= 2 * PEOPLE
    assert cut["table"]["bot_states"] == whole["table"]["bot_states"]
    # Every seat's change numbers run on without a gap: nothing lost, nothing doubled.
    store = SqliteStore(db)
    code = [row for row, in store.db.execute("SELECT code FROM tables")]
    seqs = [seq for seq, _ in store.changes(code[0], 0, 0)]
    store.close()
    assert seqs == list(range(1, cut_seq + 1))
    # A restart tells nobody anything (nobody saw anyone go): the same changes, in number.
    assert cut_seq == whole_seq


def test_a_started_server_keeps_the_collector_off_what_exists_at_start():
    gc.unfreeze()
    thresholds = gc.get_threshold()
    with ServerThread() as server:
        assert server.tables is not None
        assert gc.get_freeze_count() > 10_000  # the modules and tables, left by full sweeps
        assert gc.get_threshold() == GC_THRESHOLDS  # and full sweeps come rarely
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_a_stopped_server_closes_its_port_then_tells_everyone_to_go_and_records_no_leaving(
        tmp_path):
    # SIGTERM (a rolling restart): a balancer sends whoever comes back to another process at
    # once, and nobody is told a player lost their connection: nobody did.
    server = ServeProcess(tmp_path / "tables.db")
    server.start()
    try:
        code = new_table(server.url, game=GAME, players=PLAYERS, people=PEOPLE, seed=SEED)
        told = asyncio.run(_stopped(server, code))
    finally:
        server.stop()
    assert told == [(1001, False)] * PEOPLE  # each told to go, the port closed already
    store = SqliteStore(server.db)
    assert not [event for seat in range(PEOPLE) for event in stored_events(store, code, seat)
                if event["$"] in ("Gone", "Left")]
    store.close()


async def _stopped(server: ServeProcess, code: str) -> list[tuple[int | None, bool]]:
    """People sit at ``code``, then the server is stopped: how each connection was closed,
    and whether the port still answered then."""
    async with aiohttp.ClientSession() as session:
        people = [Raw(session, server.url) for _ in range(PEOPLE)]
        for number, raw in enumerate(people):
            await raw.__aenter__()
            assert (await raw.hello(code, name=f"P{number}"))["type"] == "welcome"
        stopping = asyncio.create_task(asyncio.to_thread(server.stop))

        async def closed(raw: Raw) -> tuple[int | None, bool]:
            frame = await raw.until("closed", timeout=10)
            return frame["code"], answers(server.port)

        told = await asyncio.gather(*(closed(raw) for raw in people))
        await stopping
        return told


def test_a_stopping_process_on_a_shared_store_fails_its_health_check_while_play_goes_on(
        postgres, tmp_path):
    # Behind a balancer: marked down, its players are sent straight to another process when
    # they come back, instead of to this one's closed port first.
    server = ServeProcess(postgres.database(), folder=tmp_path)
    server.start()
    try:
        code = new_table(server.url, game=GAME, players=PLAYERS, people=PEOPLE, seed=SEED)
        health, heard, closed, seconds = asyncio.run(_drained(server, code))
    finally:
        server.stop()
    assert health == 503 and heard and closed == 1001
    assert DRAIN - 0.5 < seconds < DRAIN + 5  # no balancer here closes the connection


async def _drained(server: ServeProcess, code: str) -> tuple[int, bool, int | None, float]:
    """A player sits, the server is told to stop: its health check's answer then, whether
    the player's talk is still heard, how the connection ends and after how long."""
    async with aiohttp.ClientSession() as session, Raw(session, server.url) as ann:
        assert (await ann.hello(code, name="Ann"))["type"] == "welcome"
        told = time.monotonic()
        os.kill(server.pid, signal.SIGTERM)
        health = 200
        while health == 200 and time.monotonic() < told + DRAIN:
            health = (await asyncio.to_thread(request, f"{server.url}/healthz"))[0]
        await ann.send(type="say", text="still here")
        heard = bool(await ann.heard("still here"))
        closed = await ann.until("closed", timeout=DRAIN + 5)
        return health, heard, closed["code"], time.monotonic() - told
