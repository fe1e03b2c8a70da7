"""A table server killed at any moment (``kill -9``) comes back with every table where it
was: a real server process is killed mid-game, started again on the same store, its clients
reconnect by themselves and the game goes on to the very end an uninterrupted run reaches
(same seed, same players, a bot of the server's own in the third seat whose memory and
random state come back with the table), no move lost or played twice, no change told twice
or missed."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import Any

from brailledev.network.client import WireBot
from brailledev.network.store_sqlite import SqliteStore
from tests.server.helpers import ServeProcess, ServerThread, new_table

GAME, PLAYERS, PEOPLE, SEED = "domino", 3, 2, 4


async def play(server: ServeProcess, code: str, kills: tuple[int, ...]) -> list[WireBot]:
    """Two bot clients sit down in turn and play to the end with the server's bot; the
    server is killed and started again when the table first reaches each position of
    ``kills``."""
    told: list[list[Any]] = [[] for _ in range(PEOPLE)]
    bots = []
    for index in range(PEOPLE):
        bot = WireBot(server.url, code, GAME, bot="heuristic", seed=index, name=f"P{index}")
        events = told[index]
        bot.client.on_frame = _keeping(bot, events)
        bots.append(bot)
        asyncio.get_running_loop().create_task(bot.client.run())
        await asyncio.wait_for(bot.client.seated.wait(), 10)
    for position in kills:
        while max(max(bot.seen, default=0) for bot in bots) < position:
            await asyncio.sleep(0.001)
        server.kill()
        await asyncio.sleep(0.3)  # the clients find the server gone and start trying
        server.start()
    await asyncio.wait_for(asyncio.gather(*(bot.over.wait() for bot in bots)), 60)
    for bot in bots:
        await bot.client.stop()
    for bot, events in zip(bots, told, strict=True):
        bot.told = events  # type: ignore[attr-defined]
    return bots


def _keeping(bot: WireBot, events: list[Any]) -> Any:
    take = bot._frame

    def frame(data: dict[str, Any]) -> None:
        if data.get("type") == "news":
            events.extend(data["events"])
        take(data)
    return frame


def run(tmp: Path, kills: tuple[int, ...]) -> tuple[dict[str, Any], int, list[WireBot], Path]:
    tmp.mkdir()
    server = ServeProcess(tmp / "tables.db")
    server.start()
    try:
        code = new_table(server.url, game=GAME, players=PLAYERS, people=PEOPLE, seed=SEED,
                         bots="heuristic")
        bots = asyncio.run(play(server, code, kills))
    finally:
        server.stop()
    store = SqliteStore(server.db)
    found = store.load(code)
    assert found is not None
    state, seq = found
    for bot in bots:
        seat = int(bot.client.seat or 0)
        stored = [event for _, events in store.changes(code, seat, 0) for event in events]
        assert bot.told == stored, f"seat {seat} was told another story"  # type: ignore
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
    with ServerThread() as server:
        assert server.tables is not None
        assert gc.get_freeze_count() > 10_000  # the modules and tables, left by full sweeps
    gc.unfreeze()
