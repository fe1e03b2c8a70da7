"""The table server: one asyncio process holding any number of tables (aiohttp).

    POST /tables            {"game": "uno", "players": 4, "people": 2, ...} -> {"code": ...}
    GET  /tables/CODE       who sits at the table, whether it started, whether it is over
    GET  /ws                the WebSocket of :mod:`brailledev.network.protocol`

Each table is a :class:`brailledev.network.server.room.Room` with a task of its own that lets its
bots play at their pace, keeps the turn clock and stands bots in for players away too long;
the rooms are loaded from the store at start, so a server killed at any moment goes on
where it was. A connection that breaks the protocol (not JSON, an unknown type, a frame too
big, a wrong key, someone else's seat, too many frames) is told why, logged once per kind
of mistake, and changes nothing.

    server = TableServer(Store(Path("tables.db")))
    web.run_app(server.app(), host="127.0.0.1", port=8765)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Mapping
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from brailledev.network.protocol import (
    BadFrame,
    Hello,
    Leave,
    MoveFrame,
    RouteFrame,
    Say,
    read_frame,
    write_frame,
)
from brailledev.network.server.room import AWAY, PACE, Refusal, Room, Settings
from brailledev.network.store import Store
from brailledev.network.web.page import WebPages, error_text
from brailledev.table.options import read_value
from games.core import Reason, Seat
from layouts.errors import Problem
from layouts.registry import GAMES, kit
from layouts.screen import Line

log = logging.getLogger("brailledev.network.server")

CODE_LETTERS = "bcdfghjkmnpqrstvwxz"  # no vowels: a code never spells a word
CODE_LENGTH = 6
# aiohttp closes a connection whose frame is longer than this (bytes); below it, a frame
# too long for the protocol is refused with a message and the connection stays.
HARD_FRAME_LIMIT = 1 << 20
HEARTBEAT = 20.0  # seconds between pings: a vanished client is noticed within two
# Frames a second a connection may send, and in one burst: far above a person's pace, far
# below a flood.
RATE, BURST = 50.0, 100
DROPS_BEFORE_CLOSE = 200  # frames dropped for flooding before the connection is closed
QUEUE_MOST = 5_000  # frames waiting for a slow client before it is dropped
UNLOAD_AFTER = 300.0  # seconds a finished table with nobody at it stays in memory
MOST_TABLES = 10_000  # tables in memory at once
MOST_AWAY, MOST_PACE = 86_400.0, 60.0
MOST_CARDS = 500  # cards of a deck given as an option
# Refused moves that no honest client sends (an illegal move is a player's mistake).
HOSTILE = ("move_malformed", "not_your_seat")


class Connection:
    """One WebSocket: a :class:`brailledev.network.server.room.Peer` of its room once seated;
    ``rate`` frames a second it may send, ``burst`` at once."""

    def __init__(self, ws: web.WebSocketResponse, remote: str | None, rate: float = RATE,
                 burst: int = BURST) -> None:
        self.ws = ws
        self.remote = remote or "?"
        self.seat: Seat = -1
        self.web = False
        self.lang = "en"
        self.room: Room | None = None
        self.screen: tuple[int, tuple[Line, ...]] | None = None
        self.told = 0
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.writer: asyncio.Task[None] | None = None
        self.logged: set[str] = set()
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.filled = time.monotonic()
        self.dropped = 0

    def start(self) -> None:
        """Start the task that writes the frames queued for this client, in order."""
        self.writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            while True:
                await self.ws.send_str(await self.queue.get())

    def send(self, text: str) -> None:
        """Queue a frame; a client too slow to take its frames is dropped (it comes back
        and is told what it missed)."""
        if self.queue.qsize() >= QUEUE_MOST:
            self.offence("too_slow")
            asyncio.get_running_loop().create_task(self.ws.close())
            return
        self.queue.put_nowait(text)

    def refuse(self, code: str, **params: Any) -> None:
        """Tell the client what it did wrong, in a code its own client words."""
        self.offence(code)
        words = {k: str(v) for k, v in params.items()}
        # A web page has no words of its own: it is told the sentence a braille client says.
        text = {"text": error_text(code, words, self.lang)} if self.web else {}
        self.send(write_frame("error", code=code, params=words, **text))

    def offence(self, code: str) -> None:
        """One log line per connection and kind of mistake, however many it makes."""
        if code not in self.logged:
            self.logged.add(code)
            where = f"table {self.room.code} seat {self.seat}" if self.room else "not seated"
            log.warning("client %s (%s): %s", self.remote, where, code)

    def allowed(self) -> bool:
        """Whether one more frame fits the rate (a token bucket of ``BURST`` frames,
        refilled at ``RATE`` a second)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.filled) * self.rate)
        self.filled = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.dropped += 1
        if self.dropped == 1 or self.dropped % self.burst == 0:
            self.refuse("too_fast")
        return False

    async def close(self) -> None:
        """Let the frames already queued go out (a last error), then stop writing."""
        if self.writer is not None:
            # Frames already queued (a last error) still go out before the writer stops.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._drain(), 1.0)
            self.writer.cancel()

    async def _drain(self) -> None:
        while not self.queue.empty() and not self.ws.closed:
            await asyncio.sleep(0.01)


def _number(data: Mapping[str, Any], name: str, default: float, low: float,
            high: float) -> float:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not low <= value <= high:
        raise Problem("table_setting_range", name=name, low=f"{low:g}", high=f"{high:g}")
    return float(value)


def read_settings(data: Any) -> Settings:
    """A table asked for by ``POST /tables``, checked as ``brailledev play`` checks its
    command line: a mistake is a :class:`layouts.errors.Problem` with its sentence's code."""
    if not isinstance(data, dict):
        raise Problem("table_request")
    game = data.get("game")
    if game not in GAMES:
        raise Problem("game_unknown", game=str(game)[:20], choices=", ".join(GAMES))
    game_kit = kit(str(game))
    players = int(_number(data, "players", 2, 1, 64))
    people = int(_number(data, "people", min(2, players), 1, players))
    bots = data.get("bots", "heuristic")
    if not isinstance(bots, str) or len(bots) > 200:
        raise Problem("table_setting", name="bots")
    for name in (each.strip() for each in bots.split(",") if each.strip()):
        if name not in game_kit.bots:
            raise Problem("bot_unknown", game=game, bot=name[:20],
                          choices=", ".join(game_kit.bots))
    options = read_options(str(game), players, data.get("options", {}))
    seed = data.get("seed")
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    elif type(seed) is not int or not 0 <= seed < 2**63:
        raise Problem("table_setting_range", name="seed", low=0, high=2**63 - 1)
    return Settings(str(game), players, people, bots, options, seed,
                    _number(data, "away", AWAY, 0, MOST_AWAY),
                    _number(data, "pace", PACE, 0, MOST_PACE))


def read_options(game: str, players: int, given: Any) -> dict[str, Any]:
    """A game's options sent as JSON, each checked as its declaration says (a deck comes
    as its list of cards, never as a file of the server's)."""
    if not isinstance(given, dict):
        raise Problem("table_setting", name="options")
    declared = kit(game).options
    options: dict[str, Any] = {}
    for name, value in given.items():
        option = declared.get(name)
        if option is None:
            raise Problem("option_unknown", game=game, name=str(name)[:20],
                          choices=", ".join(declared) or "-")
        if option.kind == "cards":
            if not (isinstance(value, list) and 0 < len(value) <= MOST_CARDS
                    and all(isinstance(card, str) and len(card) <= 10 for card in value)):
                raise Problem("table_setting", name=name)
            options[name] = value
        else:
            options[name] = read_value(game, name, option, str(value)[:40], players)
    return options


class TableServer:
    """Tables, their tasks and their connections; see the module docstring. ``rate`` and
    ``burst`` bound the frames of each connection (a benchmark of bots raises them)."""

    def __init__(self, store: Store, rate: float = RATE, burst: int = BURST) -> None:
        self.store = store
        self.rate, self.burst = rate, burst
        self.rooms: dict[str, Room] = {}
        self.wakes: dict[str, asyncio.Event] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.connections: set[Connection] = set()
        self.stopping = False

    def app(self) -> web.Application:
        """The aiohttp application: ``web.run_app(server.app(), port=8765)``."""
        app = web.Application(client_max_size=64 * 1024)
        app.router.add_post("/tables", self.new_table)
        app.router.add_get("/tables/{code}", self.table_info)
        app.router.add_get("/ws", self.websocket)
        WebPages(self).add_routes(app)
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._close_connections)
        app.on_cleanup.append(self._stop)
        return app

    async def _start(self, app: web.Application) -> None:
        for code in self.store.unfinished():
            try:
                room = Room.load(code, self.store)
            except Exception:
                log.exception("table %s cannot be loaded; it stays in the store", code)
                continue
            if room is not None:
                self._keep(room)

    async def _close_connections(self, app: web.Application) -> None:
        """Going away: every client is told so (1001) and will come back by itself; the
        tables tell nobody that anyone left (nobody did)."""
        self.stopping = True
        for connection in list(self.connections):
            await connection.ws.close(code=WSCloseCode.GOING_AWAY)

    async def _stop(self, app: web.Application) -> None:
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)
        self.store.close()

    # ---- tables --------------------------------------------------------------------------

    def _keep(self, room: Room) -> None:
        self.rooms[room.code] = room
        self.wakes[room.code] = asyncio.Event()
        self.tasks[room.code] = asyncio.get_running_loop().create_task(self._run(room))

    async def _run(self, room: Room) -> None:
        """The room's own pace: wait until something is due or someone acted, then act."""
        wake = self.wakes[room.code]
        while True:
            due = room.due()
            idle = room.over and not room.connected()
            if idle:
                due = UNLOAD_AFTER
            if due is None or due > 0:
                wake.clear()
                try:
                    await asyncio.wait_for(wake.wait(), due)
                except TimeoutError:
                    if idle and room.over and not room.connected():
                        break
            else:
                await asyncio.sleep(0)  # other tables' turn between two bot moves
            room.act()
        del self.rooms[room.code], self.wakes[room.code], self.tasks[room.code]

    def _wake(self, room: Room | None) -> None:
        if room is not None and room.code in self.wakes:
            self.wakes[room.code].set()

    def _room(self, code: str) -> Room | None:
        room = self.rooms.get(code)
        if room is None and len(self.rooms) < MOST_TABLES:
            room = Room.load(code, self.store)
            if room is not None:
                self._keep(room)
        return room

    def table_room(self, code: str) -> Room | None:
        """The room of table ``code``, loaded from the store if need be; ``None``: no such
        table (or no room for one more)."""
        return self._room(code)

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.rooms and not self.store.exists(code):
                return code

    async def new_table(self, request: web.Request) -> web.Response:
        """``POST /tables``: a new table; its code, or why not (a sentence's code)."""
        try:
            data = await request.json()
        except (ValueError, UnicodeDecodeError):
            return _problem(Problem("table_request"))
        try:
            room = self.create(data)
        except Problem as problem:
            return _problem(problem)
        return web.json_response({"code": room.code}, status=201)

    def create(self, data: Any) -> Room:
        """A new table from its settings as ``POST /tables`` takes them, held from now on;
        a mistake is a :class:`layouts.errors.Problem`."""
        settings = read_settings(data)
        if len(self.rooms) >= MOST_TABLES:
            raise Problem("server_busy")
        room = Room.create(self._new_code(), settings, self.store)
        self._keep(room)
        log.info("table %s: %s for %d, %d people", room.code, settings.game,
                 settings.players, settings.people)
        return room

    async def table_info(self, request: web.Request) -> web.Response:
        """``GET /tables/CODE``: the table as anyone invited may see it."""
        room = self._room(request.match_info["code"].lower())
        if room is None:
            return web.json_response({"error": "table_unknown", "params": {}}, status=404)
        return web.json_response({
            "code": room.code, "game": room.settings.game, "players": room.table.players,
            "started": room.started, "over": room.over,
            "seats": [{"name": state.name, "kind": state.kind, "connected": state.connected,
                       "stand_in": state.stand_in} for state in room.seat_states()]})

    # ---- connections ---------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        """``GET /ws``: one client's connection, frame by frame, until it goes."""
        ws = web.WebSocketResponse(max_msg_size=HARD_FRAME_LIMIT, heartbeat=HEARTBEAT)
        await ws.prepare(request)
        connection = Connection(ws, request.remote, self.rate, self.burst)
        connection.start()
        self.connections.add(connection)
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    self.receive(connection, message.data)
                elif message.type == WSMsgType.BINARY:
                    connection.refuse("frame_not_text")
                elif message.type == WSMsgType.ERROR:
                    # Beyond aiohttp's limit it closed the connection itself, with the code
                    # that says why (1009, message too big) when the client can still read.
                    connection.offence("frame_too_big")
        finally:
            room = connection.room
            if room is not None:
                with contextlib.suppress(Refusal):
                    room.leave(connection, quietly=self.stopping)
                self._wake(room)
            await connection.close()
            self.connections.discard(connection)
        return ws

    def receive(self, connection: Connection, text: str) -> None:
        """One frame from a client: checked, then done; never an exception."""
        if not connection.allowed():
            if connection.dropped > DROPS_BEFORE_CLOSE:
                asyncio.get_running_loop().create_task(connection.ws.close())
                return
            with contextlib.suppress(BadFrame):
                frame = read_frame(text)
                if isinstance(frame, MoveFrame):  # its sender waits for an answer
                    connection.send(write_frame("answer", id=frame.id, reason={
                        "code": "too_fast", "args": {}}))
            return
        try:
            frame = read_frame(text)
            self._handle(connection, frame)
        except BadFrame as error:
            connection.refuse(error.code, **error.params)
        except Refusal as refusal:
            connection.refuse(refusal.code, **refusal.params)
        except Exception:
            log.exception("client %s: a frame failed", connection.remote)
            connection.refuse("server_error")
        finally:
            self._wake(connection.room)

    def _handle(self, connection: Connection, frame: object) -> None:
        if isinstance(frame, Hello):
            if connection.room is not None:
                raise Refusal("already_seated")
            connection.web, connection.lang = frame.web, frame.lang
            room = self._room(frame.code)
            if room is None:
                raise Refusal("table_unknown", invitation=frame.code)
            room.sit(frame, connection)
            connection.room = room
            return
        room = connection.room
        if room is None:
            raise Refusal("not_seated")
        if isinstance(frame, MoveFrame):
            try:
                reason = room.play(connection.seat, frame)
            except Refusal as refusal:
                reason = Reason.of(refusal.code, **refusal.params)
            if reason is not None and reason.code in HOSTILE:
                connection.offence(reason.code)
            connection.send(write_frame("answer", id=frame.id, reason=None if reason is None
                                        else room.codec.encode_reason(reason)))
        elif isinstance(frame, Say):
            reason = room.say(connection.seat, frame.text)
            if reason is not None:
                raise Refusal(reason.code, **reason.params)
        elif isinstance(frame, Leave):
            room.leave(connection, on_purpose=True)
        elif isinstance(frame, RouteFrame):
            if not connection.web:
                raise Refusal("frame_unknown_type", kind="route")
            room.route(connection, frame)


def _problem(problem: Problem) -> web.Response:
    return web.json_response({"error": problem.code,
                              "params": {k: str(v) for k, v in problem.params.items()}},
                             status=400)

