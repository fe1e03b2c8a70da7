"""A table loaded by two ``serve`` processes sharing PostgreSQL, a seat at each (what a
balancer's connect timeout did: it sent a seat to another process than its table's): a
move made at one is told to the other at once, which lets its copy go; the seat there
comes back to the process that moved the table on and plays on there, and the table's
log holds each change once (issue 34)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import aiohttp
import psycopg

from tests.server.helpers import Raw, ServeProcess, launch_all, new_table
from tests.server.postgres import PrivatePostgres

# Ann (seat 0) acts first; nobody stands in for a seat away while the test runs.
UNO = {"game": "uno", "players": 2, "people": 2, "seed": 5, "pace": 0, "away": 600}
TOLD_S = 1.0  # from the move sent to the other process's seat told to go
SERVICE_RESTART = 1012  # the close that tells a client to come back at once


async def split_then_joined(first: ServeProcess, second: ServeProcess,
                            code: str) -> tuple[float, Any, list[tuple[int, str]]]:
    """Ann at ``first``, Bea at ``second``, both holding the table; Ann moves: how long
    Bea's connection to ``second`` stayed open after the move was sent, how it was closed,
    and the moves played (seat, id), Bea's back at ``first`` among them."""
    async with aiohttp.ClientSession() as session:
        ann, bea = Raw(session, first.url), Raw(session, first.url)
        await ann.__aenter__()
        await bea.__aenter__()
        await ann.hello(code, name="Ann")
        bea_token = (await bea.hello(code, name="Bea"))["token"]
        states = [await ann.state(), await bea.state()]
        assert states[0]["actor"], "seed 5 no longer gives Ann the first move"
        # Bea's connection is sent to the other process: it loads the table and seats her
        # again without changing it.
        await bea.__aexit__()
        elsewhere = Raw(session, second.url)
        await elsewhere.__aenter__()
        assert (await elsewhere.hello(code, token=bea_token, since=3))["type"] == "welcome"
        await elsewhere.state()
        played = [(0, "ann-1")]
        moved = time.monotonic()
        reason, state = await ann.move("ann-1", states[0]["legal"][0])
        assert reason is None and state is not None
        try:
            closed = await elsewhere.until("closed", timeout=3 * TOLD_S)
        except TimeoutError:
            raise AssertionError(f"Bea, at the other process, was not told to go within "
                                 f"{3 * TOLD_S} s of Ann's move") from None
        waited = time.monotonic() - moved
        # Back through the balancer, which sends her to the process holding the table.
        bea = Raw(session, first.url)
        await bea.__aenter__()
        assert (await bea.hello(code, token=bea_token, since=0))["type"] == "welcome"
        players = [ann, bea]
        states = [await ann.state(), await bea.state()]
        while not any(seat == 1 for seat, _ in played):
            seat = next(seat for seat, each in enumerate(states) if each["actor"])
            move_id = f"p{seat}-{len(played)}"
            reason, state = await players[seat].move(move_id, states[seat]["legal"][0])
            assert reason is None and state is not None, reason
            states[seat] = state
            played.append((seat, move_id))
            states[1 - seat] = await players[1 - seat].state()
        for raw in (ann, bea):
            await raw.__aexit__()
        return waited, closed["code"], played


def test_a_move_at_one_process_sends_the_seats_of_the_others_copy_to_it(
        postgres: PrivatePostgres, tmp_path: Path) -> None:
    address = postgres.database()
    first, second = (ServeProcess(address, "--open", folder=tmp_path) for _ in range(2))
    try:
        launch_all([first, second])
        code = new_table(first.url, **UNO)
        waited, close_code, played = asyncio.run(split_then_joined(first, second, code))
    finally:
        first.stop()
        second.stop()
    assert close_code == SERVICE_RESTART
    assert waited < TOLD_S, f"told to go {waited:.2f} s after the move"
    with psycopg.connect(address) as db:
        log = db.execute("SELECT seq, seat, move FROM changes WHERE code = %s ORDER BY seq",
                         (code,)).fetchall()
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
    # Each move once, in the order played: none lost at the copy let go, none doubled.
    assert [(seat, move) for _, seat, move in log if move is not None] == played
