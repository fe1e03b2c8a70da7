"""A seat never learns what it may not know: recorder clients keep every byte their seat
receives during whole games of all five games, played through a real server over real
WebSockets, and nothing in them belongs to another seat: every view is the seat's own,
every event is one its seat may see as it is (filtering it again changes nothing), legal
moves come only with the seat's own turn."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brailledev.network.client import TableClient, WireBot
from brailledev.network.protocol import whole_state
from brailledev.network.wire import codec_for
from layouts.registry import GAMES
from tests.server.helpers import ServerThread, new_table

PLAYERS = {"uno": 3, "domino": 3, "rummikub": 3, "elevens": 3, "elements": 3}


@pytest.fixture(scope="module")
def server():
    with ServerThread() as running:
        yield running


async def play_recorded(url: str, code: str, game: str, seed: int) -> list[list[str]]:
    players = PLAYERS[game]
    records: list[list[str]] = [[] for _ in range(players)]
    bots = [WireBot(url, code, game, bot="random", seed=seed * 10 + index,
                    on_text=records[index].append) for index in range(players)]
    tasks = [asyncio.create_task(bot.client.run()) for bot in bots]
    await asyncio.wait_for(asyncio.gather(*(bot.over.wait() for bot in bots)), 120)
    for bot in bots:
        await bot.client.stop()
    await asyncio.gather(*tasks)
    assert all(not bot.refusals for bot in bots), [bot.refusals for bot in bots]
    by_seat: list[list[str]] = [[] for _ in range(players)]
    for bot, record in zip(bots, records, strict=True):
        by_seat[int(bot.client.seat or 0)] = record
    return by_seat


def check_private(game: str, seat: int, record: list[str]) -> int:
    """Every frame ``seat`` received holds only what ``seat`` may know; returns how many
    events it held."""
    codec = codec_for(game)
    events = 0
    for state in told_states(record, seat):
        for event in codec.decode(state.pop("$events")):
            assert event.seen_by(seat) == event, f"seat {seat} was sent {event}"
            events += 1
        if "view" in state:
            assert codec.decode(state["view"]).seat == seat
            if not state["actor"]:
                assert state["legal"] == []
    return events


def told_states(record: list[str], seat: int) -> list[dict[str, Any]]:
    """The news frames' states ``seat`` was sent (the events under ``"$events"``), each
    view told as its changes (protocol 2) laid over the one before, and checked to change
    nothing but fields of the seat's own view."""
    states: list[dict[str, Any]] = []
    last: dict[str, Any] | None = None
    for text in record:
        frame = json.loads(text)
        assert frame["type"] in ("welcome", "news", "answer"), frame
        if frame["type"] == "welcome":
            assert frame["seat"] == seat
            continue
        if frame["type"] != "news":
            continue
        state = frame.get("state") or {}
        if "view_changes" in state:
            changes = state["view_changes"]
            assert last is not None and "$" not in changes and set(changes) <= set(last["view"])
        if state:
            state = last = whole_state(state, last)
        states.append({**state, "$events": frame["events"]})
    return states


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=2)
@given(seed=st.integers(0, 10**6))
def test_no_frame_holds_anything_of_another_seat(server, game, seed):
    code = new_table(server.url, game=game, players=PLAYERS[game], people=PLAYERS[game],
                     seed=seed)
    records = asyncio.run(play_recorded(server.url, code, game, seed))
    assert server.call(lambda: server.room(code).over)
    for seat, record in enumerate(records):
        assert check_private(game, seat, record) > 0
    final = server.call(lambda: [server.room(code).table.view(seat)
                                 for seat in range(PLAYERS[game])])
    codec = codec_for(game)
    for seat, record in enumerate(records):
        last = [state for state in told_states(record, seat) if "view" in state][-1]
        assert codec.decode(last["view"]) == final[seat]


def test_hidden_cards_of_others_are_blanked_in_the_bytes():
    """The deal of a Uno table, as bytes: each seat's hold its own seven cards, and the other
    seats' deals with no cards at all."""
    with ServerThread() as running:
        code = new_table(running.url, game="uno", players=3, people=3, seed=11)
        records = asyncio.run(_deal_frames(running.url, code))
        hands = running.call(lambda: [running.room(code).table.game.view(seat).hand
                                      for seat in range(3)])
    for seat, deal in records.items():
        own = [event for event in deal if event["seat"] == seat]
        others = [event for event in deal if event["seat"] != seat]
        assert len(own) == 1 and sorted(own[0]["cards"]) == sorted(hands[seat])
        assert len(others) == 2 and all(event["cards"] is None for event in others)
        for other in set(range(3)) - {seat}:
            assert not set(hands[other]) - set(hands[seat]) & set(_cards_in(deal))


def _cards_in(events: list[dict]) -> list[str]:
    return [card for event in events for card in (event.get("cards") or ())]


async def _deal_frames(url: str, code: str) -> dict[int, list[dict]]:
    """The events of change number 1 (the deal) as each seat's client received them."""
    clients: list[tuple[TableClient, list[str]]] = [
        (TableClient(url, code, name=f"P{index}"), []) for index in range(3)]
    for client, record in clients:
        client.on_text = record.append
    tasks = [asyncio.create_task(client.run()) for client, _ in clients]
    for client, _ in clients:
        await asyncio.wait_for(client.seated.wait(), 10)
    while not all(client.state is not None for client, _ in clients):
        await asyncio.sleep(0.01)
    deals: dict[int, list[dict]] = {}
    for client, record in clients:
        await client.stop()
        frames = [json.loads(text) for text in record]
        deals[int(client.seat or 0)] = [
            event for frame in frames if frame["type"] == "news" and frame["seq"] == 1
            for event in frame["events"] if event.get("why") == "deal"]
    await asyncio.gather(*tasks)
    return deals
