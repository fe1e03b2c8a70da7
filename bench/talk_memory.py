"""Talk at the limit with two web seats at the table (issue 31, finding 3): the server's
memory and what it sends the pages, minute by minute.

    .venv/bin/python bench/talk_memory.py [--minutes 10] [--rate 44]

A real ``brailledev serve`` (its own process, SQLite store in a temporary folder) holds one
Uno table of three people: two web seats (WebSocket clients saying ``"web": true``, reading
every frame as a page would) and a third player who sends ``--rate`` lines of talk a second
(the connection's bound is 50 frames a second), each line 110 characters, for ``--minutes``.
Before the fix the server grew from 49 to 766 MB in 60 s and sent a page 166 MB in frames
up to 425 KB (each update sent the whole growing message line again).

Prints one JSON object: the server's resident memory (MB) at the start of the talk and at
the end of each minute, the largest frame a page received and the bytes each page received
a minute, the lines of talk each page was told (in order; a line the server dropped for
coming too fast, when it was kept waiting itself, is told to the talker instead), and the
target (flat, under 100 MB).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

# ruff: noqa: E402
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import aiohttp

from bench.table_server import free_port, resident_mb

BRAILLEDEV = Path(sys.executable).with_name("brailledev")
PEOPLE = ("Wil", "Wen", "Tom")  # two web seats, then the one who talks
TARGET_MB = 100.0


def new_table(url: str) -> str:
    body = json.dumps({"game": "uno", "players": 3, "people": 3, "seed": 5}).encode()
    sent = urllib.request.Request(f"{url}/tables", data=body,
                                  headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(sent, timeout=30) as answer:
        return str(json.loads(answer.read())["code"])


class Page:
    """A seat reading every frame it is sent (a web page's, or the talker's)."""

    def __init__(self) -> None:
        self.bytes = 0
        self.largest = 0
        self.lines: list[str] = []
        self.refused: list[str] = []

    async def read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for message in ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                return
            size = len(message.data.encode())
            self.bytes += size
            self.largest = max(self.largest, size)
            frame = json.loads(message.data)
            self.lines += [text for text in frame.get("messages", [])
                           if text.startswith("Tom says: ")]
            if frame["type"] == "error":
                self.refused.append(frame["code"])


async def talk(url: str, code: str, pid: int, minutes: float, rate: float) -> dict[str, Any]:
    socket_url = url.replace("http", "ws") + "/ws"
    pages = [Page(), Page()]
    async with aiohttp.ClientSession() as session:
        sockets = [await session.ws_connect(socket_url, max_msg_size=0) for _ in PEOPLE]
        for ws, name in zip(sockets, PEOPLE, strict=True):
            await ws.send_str(json.dumps({"type": "hello", "protocol": 1, "code": code,
                                          "name": name, "web": name != "Tom"}))
        readers = [asyncio.get_running_loop().create_task(page.read(ws))
                   for page, ws in zip(pages, sockets[:2], strict=True)]
        talker = Page()
        drain = asyncio.get_running_loop().create_task(talker.read(sockets[2]))
        await asyncio.sleep(2)
        memory = [round(resident_mb(pid), 1)]
        sent: list[list[int]] = []
        start = due = time.monotonic()
        number = late = 0
        for minute in range(int(minutes)):
            before = [page.bytes for page in pages]
            while time.monotonic() < start + 60 * (minute + 1):
                await sockets[2].send_str(json.dumps(
                    {"type": "say", "text": f"line {number} " + "x" * 100}))
                number += 1
                due += 1 / rate
                behind = time.monotonic() - due
                if behind > 1:  # this process was kept waiting: no burst to catch up
                    due += behind
                    late += 1
                await asyncio.sleep(max(0.0, due - time.monotonic()))
            memory.append(round(resident_mb(pid), 1))
            sent.append([page.bytes - was for page, was in zip(pages, before, strict=True)])
        await asyncio.sleep(3)
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*readers, drain)
    order = {f"Tom says: line {each} " + "x" * 100 + ".": each for each in range(number)}
    told = [[order[line] for line in page.lines] for page in pages]
    return {"lines_sent": number, "times_late": late, "talker_refused": talker.refused,
            "memory_mb": memory,
            "page_bytes_a_minute": sent, "largest_frame": [page.largest for page in pages],
            # Lines the server dropped for coming too fast (told to the talker) are missing.
            "lines_told": [len(numbers) for numbers in told],
            "told_in_order": [numbers == sorted(set(numbers)) for numbers in told],
            "target_mb": TARGET_MB, "load_average": [round(x, 2) for x in os.getloadavg()]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--rate", type=float, default=44)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        log = Path(folder) / "serve.log"
        with log.open("wb") as out:
            server = subprocess.Popen([str(BRAILLEDEV), "serve", "--port", str(port), "--db",
                                       f"{folder}/tables.db"], stdout=out,
                                      stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            result = asyncio.run(talk(url, new_table(url), server.pid, args.minutes,
                                      args.rate))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(10)
            # What the server said of its clients and its store (a client closed for
            # flooding or being too slow says why here).
            warnings = [line for line in log.read_text().splitlines()
                        if ": client " in line or "network.store" in line]
            print("\n".join(warnings), file=sys.stderr)
    print(json.dumps({**result, "server_warnings": len(warnings)}))


if __name__ == "__main__":
    main()
