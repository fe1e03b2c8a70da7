"""A room's own task (bots' pace, the turn clock, a quiet table's snapshot, a table leaving
memory) is woken by a frame only when it would not wake in time by itself: a person's move
at a table of people leaves it asleep until its deadline; one that makes a bot due wakes
it, and the bot plays at its pace."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp

from tests.server.helpers import Raw, ServerThread, new_table


async def seated(server: ServerThread, code: str, count: int,
                 session: aiohttp.ClientSession) -> list[Raw]:
    players = []
    for number in range(count):
        player = await Raw(session, server.url, protocol=2).__aenter__()
        assert (await player.hello(code, name=f"P{number}"))["type"] == "welcome"
        players.append(player)
    return players


def test_a_move_at_a_table_of_people_leaves_the_rooms_task_asleep():
    with ServerThread() as server:
        code = new_table(server.url, game="uno", players=2, people=2, seed=3)

        async def scenario() -> list[Any]:
            async with aiohttp.ClientSession() as session:
                players = await seated(server, code, 2, session)
                states = [await player.state() for player in players]
                asleep = []
                for number in range(6):
                    index = next(i for i, state in enumerate(states) if state["actor"])
                    before = server.call(lambda: server.tables.sleeping.get(code))
                    reason, played = await players[index].move(
                        f"m{number}", states[index]["legal"][0])
                    assert reason is None and played is not None
                    states[index] = played
                    states[1 - index] = await players[1 - index].state()
                    after = server.call(lambda: server.tables.sleeping.get(code))
                    asleep.append((before, after))
                for player in players:
                    await player.__aexit__()
                return asleep

        asleep = asyncio.run(scenario())
    # After the first move the table has a quiet deadline; from then on the task sleeps
    # through every move, its deadline unchanged (it was never woken).
    assert all(before is not None and after == before for before, after in asleep[1:]), asleep


def test_a_move_that_makes_a_bot_due_wakes_the_rooms_task():
    with ServerThread() as server:
        code = new_table(server.url, game="uno", players=2, people=1, bots="heuristic",
                         seed=3, pace=0.3)

        async def scenario() -> list[float]:
            async with aiohttp.ClientSession() as session:
                ann, = await seated(server, code, 1, session)
                state = await ann.state()
                waits = []
                for number in range(8):
                    began = asyncio.get_running_loop().time()
                    # The bot's turn: it plays at its pace (0.3 s), not at the table's quiet
                    # deadline (30 s), when the task would wake by itself.
                    while not state["actor"]:
                        state = await asyncio.wait_for(ann.state(), 5)
                    waits.append(asyncio.get_running_loop().time() - began)
                    reason, played = await ann.move(f"m{number}", state["legal"][0])
                    assert reason is None and played is not None
                    state = played
                await ann.__aexit__()
                return waits

        waits = asyncio.run(scenario())
    assert len([wait for wait in waits if wait >= 0.25]) >= 3, waits  # the bot's turns
