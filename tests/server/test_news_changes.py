"""Protocol 2's news, for every game of the registry: a person's seat with two connections,
one speaking protocol 1 (whole views, an answer frame after each move) and one protocol 2
(each view as what changed since the last one that connection was told, the move's answer
in its news), through a whole game in a room, each news told the same state to both; then
through a real server, a client of each protocol at one table."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from brailledev.network import protocol as protocol_module
from brailledev.network.client import WireBot
from brailledev.network.protocol import (
    PROTOCOL,
    PROTOCOLS,
    BadFrame,
    Hello,
    MoveFrame,
    read_frame,
    whole_state,
)
from brailledev.network.server.room import Room, Settings
from brailledev.network.stores import open_store
from layouts.registry import GAMES, kit
from tests.games.cases import case_of
from tests.server.helpers import Raw, ServerThread, new_table
from tests.server.test_replay import MOST_ACTS, Clock, Seen

CODE = "tkrzvmbcdfgh"


def news_states(peer: Seen) -> list[dict[str, Any]]:
    """The states ``peer`` was told in its news, in order, each view laid over the last
    and the seats left out taken from the last, as a protocol 2 client does."""
    states: list[dict[str, Any]] = []
    for text in peer.frames:
        frame = json.loads(text)
        state = frame.get("state") if frame["type"] == "news" else None
        if state is None:
            continue
        if "view_changes" in state:
            assert peer.protocol == 2 and states
        states.append(whole_state(state, states[-1] if states else None))
    return states


@pytest.mark.parametrize("name", GAMES)
def test_both_protocols_are_told_the_same_states_through_a_whole_game(name: str,
                                                                     tmp_path: Path) -> None:
    case = case_of(name)
    settings = Settings(name, players=case.players[0], people=1,
                        bots=",".join(case.bot_names), options=dict(case.trial.options),
                        seed=5, away=60.0, pace=0.0)
    clock = Clock()
    room = Room.create(CODE, settings, open_store(tmp_path / "tables.db"), clock=clock)
    whole, changes = Seen(), Seen(protocol=2)
    _, token = room.sit(Hello(CODE, name="Ann"), whole)
    room.sit(Hello(CODE, token=token, protocol=2), changes)
    # Ann's moves are chosen by a bot of the game's (Rummikub lists no legal moves: its
    # bots search their own).
    bot = kit(name).bots[case.bot_names[0]](5)
    for turn in range(MOST_ACTS):
        if room.over:
            break
        clock.now += 1.0
        if room.can_act(0):
            move = bot.choose(room.table.view(0), room.table.legal(0))
            assert room.play(0, MoveFrame(f"m{turn}", room.codec.encode(move))) is None
            # The connection that sent it (protocol 2) is answered in its news: the last
            # news it was told carries the move's id.
            assert json.loads(changes.frames[-1]).get("answer") == f"m{turn}"
            assert changes.answered == f"m{turn}"
            assert "answer" not in json.loads(whole.frames[-1])
        room.act()
    assert room.over, f"{name}: not over after {MOST_ACTS} turns"
    told_whole, told_changes = news_states(whole), news_states(changes)
    assert len(told_whole) == len(told_changes) > 20
    for number, (one, other) in enumerate(zip(told_whole, told_changes, strict=True)):
        assert one == other, f"{name}: news {number} differs"
    # After its first state, protocol 2 was told views as their changes: fewer bytes (a
    # third of them in Uno; in Domino a tenth fewer, its grid being a dict, told whole).
    sizes = [sum(map(len, peer.frames)) for peer in (whole, changes)]
    assert sizes[1] < sizes[0], sizes
    assert all('"view_changes"' not in text for text in whole.frames)
    # The seats are left out of most news of protocol 2 (they change when someone comes,
    # goes or is stood in for), never out of protocol 1's.
    news = [json.loads(text) for text in changes.frames if '"type":"news"' in text]
    assert sum("seats" not in frame.get("state", {"seats": 1}) for frame in news) > len(news) / 2
    assert all('"seats"' in text for text in whole.frames if '"state"' in text)


def test_a_client_of_each_protocol_plays_at_one_table_through_the_server() -> None:
    with ServerThread() as server:
        code = new_table(server.url, game="uno", players=2, people=2, seed=4)

        async def scenario() -> tuple[list[Any], list[dict[str, Any]]]:
            async with aiohttp.ClientSession() as session:
                old = await Raw(session, server.url, protocol=1).__aenter__()
                new = await Raw(session, server.url, protocol=2).__aenter__()
                assert (await old.hello(code, name="Old"))["type"] == "welcome"
                assert (await new.hello(code, name="New"))["type"] == "welcome"
                states = [await old.state(), await new.state()]
                players, kinds = [old, new], []
                for number in range(12):
                    index = next(i for i, state in enumerate(states) if state["actor"])
                    move_id = f"x{number}"
                    await players[index].send(type="move", id=move_id,
                                              move=states[index]["legal"][0])
                    # The old client is answered by a frame after the news; the new one
                    # by its news.
                    while True:
                        frame = await players[index].until("answer", "news")
                        if frame["type"] == "news":
                            states[index] = frame["state"]
                        if frame["type"] == "answer" or frame.get("answer") == move_id:
                            kinds.append((index, frame["type"], frame.get("reason")))
                            break
                    other = 1 - index
                    states[other] = await players[other].state()
                # The same id sent again on the same connection: answered, not played.
                index = 1
                before = server.call(lambda: server.room(code).table.moves)
                await new.send(type="move", id=next(
                    f"x{n}" for n in range(12) if kinds[n][0] == index), move={})
                again = await new.until("answer")
                kinds.append((index, "again", again["reason"]))
                moved = server.call(lambda: server.room(code).table.moves) - before
                kinds.append((index, "moved", moved))
                truth = server.call(lambda: [server.room(code).codec.encode(
                    server.room(code).table.view(seat)) for seat in range(2)])
                for player in players:
                    await player.__aexit__()
                return kinds, [states[0]["view"], states[1]["view"], *truth]

        kinds, views = asyncio.run(scenario())
    assert {kind for index, kind, _ in kinds[:12] if index == 0} == {"answer"}
    assert {kind for index, kind, _ in kinds[:12] if index == 1} == {"news"}
    assert all(reason is None for _, _, reason in kinds[:12])
    assert kinds[12:] == [(1, "again", None), (1, "moved", 0)]
    assert views[0] == views[2] and views[1] == views[3]  # what each was told is the truth


def test_a_hello_says_protocol_1_or_2_and_nothing_else() -> None:
    assert PROTOCOL == 2 and PROTOCOLS == (1, 2)
    for protocol in PROTOCOLS:
        hello = read_frame(json.dumps({"type": "hello", "protocol": protocol, "code": "ab"}))
        assert isinstance(hello, Hello) and hello.protocol == protocol
    for bad in (0, 3, "2", True, None):
        with pytest.raises(BadFrame):
            read_frame(json.dumps({"type": "hello", "protocol": bad, "code": "ab"}))


def test_a_client_sits_at_a_server_from_before_protocol_2_in_protocol_1(monkeypatch):
    """A server that knows protocol 1 alone refuses a hello of protocol 2 (``frame_invalid``,
    field ``protocol``): the client says its hello again in protocol 1, and plays on with
    whole views and answer frames."""
    monkeypatch.setattr(protocol_module, "PROTOCOLS", (1,))
    with ServerThread() as server:
        code = new_table(server.url, game="uno", players=2, people=1, bots="heuristic",
                         seed=6)

        async def scenario() -> tuple[WireBot, list[str]]:
            texts: list[str] = []
            bot = WireBot(server.url, code, "uno", seed=1, think=0.0, on_text=texts.append)
            task = asyncio.create_task(bot.client.run())
            await asyncio.wait_for(bot.client.seated.wait(), 10)
            for _ in range(400):  # 20 s at most: a refused client plays nothing
                if len(bot.played) >= 3 or bot.over.is_set() or bot.client.refused:
                    break
                await asyncio.sleep(0.05)
            await bot.client.stop()
            await task
            return bot, texts

        bot, texts = asyncio.run(scenario())
    assert bot.client.protocol == 1 and bot.client.refused is None
    assert len(bot.played) >= 3 or bot.over.is_set()
    assert any('"field":"protocol"' in text for text in texts)  # refused once, then seated
    news = [text for text in texts if '"type":"news"' in text]
    assert news and all('"view_changes"' not in text and '"answer":' not in text
                        for text in news)
    assert any('"type":"answer"' in text for text in texts)
