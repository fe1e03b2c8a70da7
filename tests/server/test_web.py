"""A web seat: the server words the seat's screen and messages in the seat's language (the
same lines and sentences a braille player reads), a page routes a region by its target id,
and the page never receives views or events, only words."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from brailledev.network.client import socket_url
from brailledev.network.protocol import PROTOCOL
from layouts.screen import HELP_LINE, PlayMove, Show
from tests.server.helpers import ServerThread, new_table


@pytest.fixture
def server():
    with ServerThread() as running:
        yield running


async def next_screen(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    while True:
        frame = json.loads((await asyncio.wait_for(ws.receive(), 10)).data)
        assert frame["type"] in ("welcome", "screen", "error"), frame
        if frame["type"] != "welcome":
            return frame


def playable(server: ServerThread, code: str) -> tuple[int, int]:
    """Where the web seat's screen shows a legal move: (line, region)."""
    def find() -> tuple[int, int]:
        room = server.room(code)
        reader = room.web_seats[0]
        legal = room.table.legal(0)
        for row, line in enumerate(reader.lines()):
            for column, region in enumerate(line.regions):
                if isinstance(region.target, PlayMove) and region.target.move in legal:
                    return row, column
        raise AssertionError("nothing to play")
    return server.call(find)


def test_a_web_seat_reads_french_words_and_plays_by_target(server):
    code = new_table(server.url, game="uno", players=2, people=1, seed=2,
                     options={"match_target": 0})

    async def scenario() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        frames = []
        async with aiohttp.ClientSession() as session, \
                session.ws_connect(socket_url(server.url)) as ws:
            await ws.send_str(json.dumps({"type": "hello", "protocol": PROTOCOL, "code": code,
                                          "name": "Zoé", "lang": "fr", "web": True}))
            while True:
                frame = await next_screen(ws)
                frames.append(frame)
                if any("Toutes les places" in text for text in frame["messages"]):
                    break
            while not server.call(lambda: server.room(code).can_act(0)):
                frames.append(await next_screen(ws))
            row, column = playable(server, code)
            moves = server.call(lambda: server.room(code).table.moves)
            number = frames[-1]["number"]
            await ws.send_str(json.dumps({"type": "route", "target": f"{row}.{column}",
                                          "screen": number - 1}))
            stale = await next_screen(ws)
            frames.append(stale)
            assert stale == {"type": "error", "code": "screen_stale", "params": {},
                             "text": "La table répond : l'écran a changé entre-temps ; "
                                     "refaites le routage."}
            await ws.send_str(json.dumps({"type": "route", "target": f"{row}.{column}",
                                          "screen": number}))
            while server.call(lambda: server.room(code).table.moves) == moves:
                frames.append(await next_screen(ws))
            after = await next_screen(ws)
            return frames, after

    frames, after = asyncio.run(scenario())
    told = [text for frame in [*frames, after] for text in frame.get("messages", [])]
    assert any(text.startswith("Vous recevez") for text in told)
    assert any(text.startswith("Vous jouez") or text.startswith("Vous piochez")
               for text in told)
    keys = [line["key"] for line in after["lines"]]
    assert keys[:3] == ["messages", "status", "players"]
    commands = next(line for line in after["lines"] if line["key"] == "commands")
    assert [region["text"] for region in commands["regions"]][-3:] == ["parler", "aide",
                                                                      "quitter"]
    for frame in frames:
        assert "view" not in json.dumps(frame) and "events" not in frame


def test_a_web_page_coming_back_is_told_only_what_it_has_not_read(server):
    code = new_table(server.url, game="uno", players=2, people=1, seed=2)

    async def visit(since: int) -> dict[str, Any]:
        async with aiohttp.ClientSession() as session, \
                session.ws_connect(socket_url(server.url)) as ws:
            hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "code": code,
                                     "lang": "en", "web": True}
            if since:
                hello.update(token=token[0], since=since)
            else:
                hello["name"] = "Zoe"
            await ws.send_str(json.dumps(hello))
            welcome = json.loads((await ws.receive()).data)
            if welcome.get("token"):
                token.append(welcome["token"])
            screen = await next_screen(ws)
            while not screen["messages"]:  # the deal is told once everyone is seated
                screen = await next_screen(ws)
            return screen

    token: list[str] = []
    first = asyncio.run(visit(0))
    read = len(first["messages"])
    again = asyncio.run(visit(read))
    history = server.call(lambda: list(server.room(code).web_seats[0].history.sentences))
    assert first["first"] == 0 and first["messages"] == history[:read]
    told = again["messages"]
    assert again["first"] == read and told == history[read:read + len(told)]
    # Back at the table is committed before the page is seated again: its first screen.
    assert told[-2:] == ["You lost the connection.", "You are back at the table."]


async def sent_before_marker(ws: aiohttp.ClientWebSocketResponse) -> list[dict[str, Any]]:
    """Every frame the server sent the page so far: a routing of a screen never sent (0) is
    refused after them, as the server answers a connection's frames in order."""
    await ws.send_str(json.dumps({"type": "route", "target": "0.0", "screen": 0}))
    frames: list[dict[str, Any]] = []
    while True:
        frame = json.loads((await asyncio.wait_for(ws.receive(), 10)).data)
        if frame.get("code") == "screen_stale":
            return frames
        frames.append(frame)


def region_of(server: ServerThread, code: str, seat: int, wanted: Any) -> str:
    """The target id of the first region of the screen the page of ``seat`` was last sent
    whose target ``wanted`` accepts."""
    def find() -> str:
        screen = server.room(code).peers[seat][0].screen
        assert screen is not None
        for row, line in enumerate(screen[1]):
            for column, region in enumerate(line.regions):
                if wanted(region.target):
                    return f"{row}.{column}"
        raise AssertionError("no such region")
    return server.call(find)


def test_a_click_sends_every_page_its_screen_once(server):
    code = new_table(server.url, game="uno", players=2, people=2, seed=2,
                     options={"match_target": 0})
    Frames = list[dict[str, Any]]

    async def scenario() -> tuple[list[tuple[Frames, Frames]], str]:
        clicked: list[tuple[Frames, Frames]] = []
        async with aiohttp.ClientSession() as session, \
                session.ws_connect(socket_url(server.url)) as ann, \
                session.ws_connect(socket_url(server.url)) as bea:
            for ws, name in ((ann, "Ann"), (bea, "Bea")):
                await ws.send_str(json.dumps({"type": "hello", "protocol": PROTOCOL,
                                              "code": code, "name": name, "lang": "en",
                                              "web": True}))
                await sent_before_marker(ws)
            await sent_before_marker(ann)  # what Bea sitting down sent Ann
            actor = server.call(lambda: next(seat for seat in (0, 1)
                                             if server.room(code).can_act(seat)))
            page, other = (ann, bea) if actor == 0 else (bea, ann)
            legal = server.call(lambda: server.room(code).table.legal(actor))
            for wanted in (lambda target: target == Show(HELP_LINE),
                           lambda target: isinstance(target, PlayMove) and target.move in legal):
                number = server.call(lambda: server.room(code).peers[actor][0].screen[0])
                await page.send_str(json.dumps({
                    "type": "route", "target": region_of(server, code, actor, wanted),
                    "screen": number}))
                clicked.append((await sent_before_marker(page),
                                await sent_before_marker(other)))
            return clicked, server.call(lambda: server.room(code).web_seats[actor].focus)

    clicked, focus = asyncio.run(scenario())
    (help_page, help_other), (move_page, move_other) = clicked
    assert [frame["type"] for frame in help_page] == ["screen"] and help_other == []
    assert help_page[0]["focus"] == HELP_LINE
    assert [frame["type"] for frame in move_page] == ["screen"]
    assert move_page[0]["focus"] == focus  # where the seat went once the move was played
    assert [frame["type"] for frame in move_other] == ["screen"]
    assert move_page[0]["seq"] == move_other[0]["seq"] == help_page[0]["seq"] + 1
