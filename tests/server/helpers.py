"""What the server tests share: a real table server on a free loopback port, in a thread of
its own (so tests and clients talk to it over real sockets) or as a ``brailledev serve``
process of its own; tables made through its HTTP door; a client speaking the protocol by
hand, frame by frame."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
from aiohttp import web

from brailledev.network.client import WireBot, socket_url
from brailledev.network.protocol import whole_state
from brailledev.network.server.app import TableServer
from brailledev.network.server.guard import Doorkeeping
from brailledev.network.server.limits import Limits
from brailledev.network.server.room import Room
from brailledev.network.store import TableStore
from brailledev.network.stores import open_store
from tests.daemon import Daemon, answers, free_port

# Every test client comes from 127.0.0.1: the tests of other things lift its limits.
LIFTED = Doorkeeping(limits=Limits(10**5, 10**5, 10**5))

T = TypeVar("T")


class ServerThread:
    """``with ServerThread() as server: new_table(server.url, game="uno")``; ``db`` is the
    store's file (``:memory:`` by default); ``door`` who comes in and how often (limits
    lifted by default); ``rate`` bounds each connection's frames a second (bots at a table
    with no pace outrun a person's bound)."""

    def __init__(self, db: Path | str = ":memory:", rate: float = 10_000.0,
                 door: Doorkeeping = LIFTED) -> None:
        self.db = db
        self.door = door
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
        self.server = TableServer(open_store(self.db), self.door, rate=self.rate,
                                  burst=int(self.rate))
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


BRAILLEDEV = Path(sys.executable).with_name("brailledev")


class ServeProcess:
    """``brailledev serve`` as a process of its own, on a fixed port and store (a file, or
    a PostgreSQL address with the ``folder`` of its logs), with more of its options in
    ``args``: ``with ServeProcess(db, "--trust-proxy") as serve: ...``. Everything it
    printed and logged, every start, is in :meth:`output`."""

    def __init__(self, db: Path | str, *args: str, port: int | None = None, lang: str = "C",
                 folder: Path | None = None) -> None:
        self.db, self.args, self.lang = db, args, lang
        self.folder = folder or Path(db).parent
        self.port = port or free_port()
        self.daemon: Daemon | None = None
        self.starts = 0

    def __enter__(self) -> ServeProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The running server; ``None`` once stopped or killed."""
        return None if self.daemon is None else self.daemon.process

    @property
    def pid(self) -> int:
        assert self.daemon is not None
        return self.daemon.pid

    def log(self, start: int) -> Path:
        return self.folder / f"serve-{self.port}-{start}.log"

    def start(self) -> None:
        """Start it and wait until it listens."""
        self.launch()
        self.wait_listening()

    def launch(self) -> None:
        """Start it (several start side by side, then each is waited for)."""
        self.daemon = Daemon(f"brailledev serve on port {self.port}", [
            str(BRAILLEDEV), "serve", "--port", str(self.port), "--db", str(self.db),
            *self.args], self.log(self.starts), env={**os.environ, "LANG": self.lang},
            start_new_session=True)
        self.daemon.start()
        self.starts += 1

    def wait_listening(self) -> None:
        """Wait until it listens (30 s at most)."""
        assert self.daemon is not None
        self.daemon.wait_until(lambda: answers(self.port), 30)

    def kill(self) -> None:
        """``kill -9``: no cleanup, no last write."""
        assert self.daemon is not None
        self.daemon.kill()

    def stop(self) -> None:
        if self.daemon is not None:
            self.daemon.stop()

    def output(self) -> str:
        return "".join(self.log(start).read_text(errors="replace")
                       for start in range(self.starts))


# A second program writing to the store: it holds SQLite's write lock until told to let go.
LOCK_HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
"""


@contextmanager
def store_locked(db: Path) -> Iterator[None]:
    """Another process holds the store's write lock for as long as this lasts."""
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, str(db)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        yield
    finally:
        holder.communicate(b"\n", timeout=10)


def request(url: str, data: Any = None, headers: dict[str, str] | None = None,
            method: str | None = None) -> tuple[int, dict[str, str], str]:
    """One HTTP request (``data`` a dict sent as JSON, or bytes as they are): the status,
    the headers and the body."""
    body = json.dumps(data).encode() if isinstance(data, dict) else data
    sent = urllib.request.Request(url, data=body, method=method, headers={
        **({"Content-Type": "application/json"} if isinstance(data, dict) else {}),
        **(headers or {})})
    try:
        with urllib.request.urlopen(sent, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def post(url: str, data: Any, headers: dict[str, str] | None = None
         ) -> tuple[int, dict[str, Any]]:
    status, _, body = request(f"{url}/tables", data, headers)
    return status, json.loads(body)


def new_table(url: str, **settings: Any) -> str:
    """A new table's code: ``new_table(url, game="uno", players=3, people=2, pace=0)``."""
    settings.setdefault("pace", 0)
    status, answer = post(url, settings)
    assert status == 201, answer
    return str(answer["code"])


class Raw:
    """A client speaking the protocol by hand, frame by frame (``headers`` sent with the
    WebSocket's opening: an ``Origin``, an ``X-Forwarded-For``); its hello says
    ``protocol`` (1, whole views and answer frames, unless told 2: then the views that
    come as changes are laid over the last, and seats left out are the last told, as
    :class:`TableClient` does, and a news frame's answer is its move's)."""

    def __init__(self, session: aiohttp.ClientSession, url: str,
                 headers: dict[str, str] | None = None, protocol: int = 1) -> None:
        self.session = session
        self.url = url
        self.headers = headers or {}
        self.protocol = protocol
        self.last: dict[str, Any] | None = None  # the last state told, whole
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    async def __aenter__(self) -> Raw:
        self.ws = await self.session.ws_connect(socket_url(self.url), max_msg_size=0,
                                                headers=self.headers)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.ws is not None
        await self.ws.close()

    async def send(self, **frame: Any) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps(frame))

    async def hello(self, code: str, **fields: Any) -> dict[str, Any]:
        await self.send(type="hello", protocol=self.protocol, code=code, **fields)
        return await self.until("welcome", "error")

    async def until(self, *kinds: str, timeout: float = 5) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            message = await asyncio.wait_for(self.ws.receive(), timeout)
            if message.type == aiohttp.WSMsgType.CLOSE:
                # The code the server sent: answering its close may still fail (1006).
                return {"type": "closed", "code": message.data}
            if message.type != aiohttp.WSMsgType.TEXT:
                return {"type": "closed", "code": self.ws.close_code}
            frame = json.loads(message.data)
            state = frame.get("state") if frame["type"] == "news" else None
            if state is not None:
                if "view_changes" in state:
                    assert self.protocol == 2 and self.last is not None, frame
                frame["state"] = self.last = whole_state(state, self.last)
            if frame["type"] in kinds:
                return frame

    async def move(self, move_id: str, move: Any) -> tuple[Any, dict[str, Any] | None]:
        """Send a move; its answer's reason and the seat's state the news of the move
        brought before it (``None`` when it was not played)."""
        await self.send(type="move", id=move_id, move=move)
        state = None
        while True:
            frame = await self.until("answer", "news")
            if frame["type"] == "answer":
                return frame["reason"], state
            state = frame.get("state", state)
            if frame.get("answer") == move_id:
                return None, state

    async def heard(self, text: str) -> dict[str, Any]:
        """The first news telling the line of talk ``text``."""
        while True:
            frame = await self.until("news")
            assert frame["type"] == "news", f"closed before hearing {text!r}: {frame}"
            if any(event.get("text") == text for event in frame["events"]):
                return frame

    async def state(self) -> dict[str, Any]:
        """The seat's state in the next news carrying one, once the game has begun."""
        while True:
            frame = await self.until("news")
            if "state" in frame and frame["state"]["started"]:
                return frame["state"]


def launch_all(serves: list[ServeProcess]) -> None:
    """Start ``serve`` processes side by side, then wait until each listens."""
    for serve in serves:
        serve.launch()
    for serve in serves:
        serve.wait_listening()


async def seat_bots(url: str, code: str, game: str,
                    people: int) -> tuple[list[WireBot], list[list[Any]]]:
    """``people`` bot clients (heuristic, seeds 0, 1..., names P0, P1...) sit down at table
    ``code`` in turn, each playing on in a task of its own; the bots, and the events of
    the news each is told, kept as they come: ``await seat_bots(url, code, "uno", 2)``."""
    bots, told = [], []
    for index in range(people):
        bot = WireBot(url, code, game, bot="heuristic", seed=index, name=f"P{index}")
        events: list[Any] = []
        bot.client.on_frame = _keeping(bot, events)
        bots.append(bot)
        told.append(events)
        asyncio.get_running_loop().create_task(bot.client.run())
        await asyncio.wait_for(bot.client.seated.wait(), 10)
    return bots, told


def _keeping(bot: WireBot, events: list[Any]) -> Callable[[dict[str, Any]], None]:
    take = bot._frame

    def frame(data: dict[str, Any]) -> None:
        if data.get("type") == "news":
            events.extend(data["events"])
        take(data)
    return frame


async def reached(bots: list[WireBot], position: int) -> None:
    """Wait until one of ``bots`` is told the table reached ``position``."""
    while max(max(bot.seen, default=0) for bot in bots) < position:
        await asyncio.sleep(0.001)


async def played_out(bots: list[WireBot]) -> None:
    """Wait until every one of ``bots`` is told the game is over (60 s at most), then stop
    their clients."""
    await asyncio.wait_for(asyncio.gather(*(bot.over.wait() for bot in bots)), 60)
    for bot in bots:
        await bot.client.stop()


def stored_events(store: TableStore, code: str, seat: int) -> list[Any]:
    """Every event of table ``code`` the store says ``seat`` was told, in order."""
    return [event for _, events in store.changes(code, seat, 0) for event in events]


def told_as_stored(store: TableStore, code: str, bots: list[WireBot],
                   told: list[list[Any]]) -> None:
    """Each bot was told exactly the story the store keeps for its seat."""
    for bot, events in zip(bots, told, strict=True):
        seat = int(bot.client.seat or 0)
        assert events == stored_events(store, code, seat), f"seat {seat} was told another story"
