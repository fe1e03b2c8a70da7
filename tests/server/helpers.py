"""What the server tests share: a real table server on a free loopback port, in a thread of
its own (so tests and clients talk to it over real sockets), tables made through its HTTP
door, and clients run in their own event loop."""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from brailledev.network.server.app import TableServer
from brailledev.network.server.room import Room
from brailledev.network.store import Store

T = TypeVar("T")


class ServerThread:
    """``with ServerThread() as server: new_table(server.url, game="uno")``; ``db`` is the
    store's file (``:memory:`` by default); ``rate`` bounds each connection's frames a
    second (bots at a table with no pace outrun a person's bound)."""

    def __init__(self, db: Path | str = ":memory:", rate: float = 10_000.0) -> None:
        self.db = db
        self.rate = rate
        self.site: web.TCPSite | None = None
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.runner: web.AppRunner | None = None
        self.server: TableServer | None = None
        self.port = 0

    def __enter__(self) -> ServerThread:
        self.thread.start()
        self.run(self._start())
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def _start(self) -> None:
        self.server = TableServer(Store(self.db), rate=self.rate, burst=int(self.rate))
        self.runner = web.AppRunner(self.server.app())
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", self.port)
        await site.start()
        self.port = self.runner.addresses[0][1]

    def restart(self) -> None:
        """Stop serving (every connection drops), then serve the same store on the same
        port again, as a server started anew would."""
        assert self.runner is not None
        self.run(self.runner.cleanup())
        self.run(self._start())

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def tables(self) -> TableServer:
        assert self.server is not None, "the server is not started"
        return self.server

    def room(self, code: str) -> Room:
        """The room of table ``code`` (touch it only inside :meth:`call`)."""
        return self.tables.rooms[code]

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def call(self, function: Callable[[], T]) -> T:
        """``function()`` run in the server's loop (rooms are only touched there)."""
        async def inside() -> T:
            return function()
        return self.run(inside())

    def close(self) -> None:
        if self.runner is not None:
            self.run(self.runner.cleanup())
            self.runner = None
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def post(url: str, data: Any) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(f"{url}/tables", data=json.dumps(data).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def new_table(url: str, **settings: Any) -> str:
    """A new table's code: ``new_table(url, game="uno", players=3, people=2, pace=0)``."""
    settings.setdefault("pace", 0)
    status, answer = post(url, settings)
    assert status == 201, answer
    return str(answer["code"])
