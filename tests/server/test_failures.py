"""What fails inside a table leaves it as its store last had it: a commit the store refuses
(another process holding the database), a bot that breaks. The player is told, nothing
half-done is ever sent, and the table plays on once the store takes commits again."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from brailledev.network.client import TableClient
from brailledev.network.store_sql import REST
from brailledev.network.wire import codec_for
from games.uno.notation import Move
from tests.server.helpers import ServerThread, new_table, store_locked


@pytest.fixture
def server(tmp_path):
    with ServerThread(tmp_path / "tables.db") as running:
        yield running


async def seated(url: str, code: str, frames: list[dict[str, Any]]) -> TableClient:
    client = TableClient(url, code, name="Ann", on_frame=frames.append)
    asyncio.get_running_loop().create_task(client.run())
    await asyncio.wait_for(client.seated.wait(), 10)
    while client.state is None or not client.state["started"]:
        await asyncio.sleep(0.01)
    return client


def test_a_commit_the_store_refuses_changes_nothing_and_is_told(server, tmp_path):
    code = new_table(server.url, game="uno", players=2, people=1, seed=4, pace=0,
                     options={"match_target": 0})
    codec = codec_for("uno")

    async def scenario() -> tuple[Any, Any, int, int]:
        frames: list[dict[str, Any]] = []
        client = await seated(server.url, code, frames)
        while not client.state or not client.state["actor"]:
            await asyncio.sleep(0.01)
        before = server.call(lambda: server.room(code).table.to_dict())
        seq = client.seq
        with store_locked(tmp_path / "tables.db"):
            refused = await client.play(codec.encode(Move("draw")))
            refused_at = time.monotonic()
        after_failure = server.call(lambda: server.room(code).table.to_dict())
        assert after_failure == before and client.seq == seq
        await asyncio.sleep(max(0.0, refused_at + REST - time.monotonic()))
        played = await client.play(codec.encode(Move("draw")))
        await asyncio.sleep(0.1)
        await client.stop()
        return refused, played, seq, client.seq

    refused, played, seq, later = asyncio.run(scenario())
    assert refused == {"code": "store_failed", "args": {}}
    assert played is None and later > seq


def test_a_bot_that_breaks_rests_its_table_and_the_others_play_on(server, caplog):
    broken = new_table(server.url, game="uno", players=2, people=1, seed=4, pace=0)
    fine = new_table(server.url, game="uno", players=2, people=1, seed=4, pace=0)

    def break_bot() -> None:
        bot = server.room(broken).table.bots[1]

        def choose(view: Any, legal: Any) -> Any:
            raise RuntimeError("a bug in a bot")
        bot.choose = choose

    async def play_first(client: TableClient) -> None:
        if client.state and client.state["actor"]:
            codec = codec_for("uno")
            await client.play(codec.encode(codec.decode(client.state["legal"])[0]))

    async def scenario() -> tuple[int, int]:
        ann = await seated(server.url, broken, [])
        server.call(break_bot)
        while not server.call(lambda: server.room(broken).resting_until > 0):
            await play_first(ann)
            await asyncio.sleep(0.01)
        rested_at = server.call(lambda: server.room(broken).table.moves)
        bea = await seated(server.url, fine, [])
        while not bea.state or bea.state["position"] < rested_at + 3:
            await play_first(bea)
            await asyncio.sleep(0.01)
        assert server.call(lambda: server.room(broken).table.moves) == rested_at
        for client in (ann, bea):
            await client.stop()
        return rested_at, server.call(lambda: server.room(fine).table.moves)

    rested_at, fine_moves = asyncio.run(scenario())
    assert fine_moves >= rested_at + 3
    assert any("a change failed" in record.getMessage() for record in caplog.records)
