"""The table server: one asyncio process holding any number of tables (aiohttp).

    POST /tables            {"game": "uno", "players": 4, "people": 2, ...} -> {"code": ...}
    GET  /tables/CODE       who sits at the table, whether it started, whether it is over
                            (a retired table: its record, players and scores)
    GET  /ws                the WebSocket of :mod:`brailledev.network.protocol`

Each table is a :class:`brailledev.network.server.room.Room` with a task of its own that lets
its bots play at their pace, keeps the turn clock and stands bots in for players away too
long; the tables in play are loaded from the store at start, so a server killed at any
moment goes on where it was, and a table nobody is at leaves memory after a while. Every
request goes through the server's guard first (:mod:`brailledev.network.server.guard`:
headers, origin, the owner's key, limits per address, storage failures answered 503). A
connection that breaks the protocol (not JSON, an unknown type, a frame too big, a wrong
key, someone else's seat, too many frames) is told why and changes nothing; its address is
logged once a minute. A sweep now and then expires and retires tables
(:class:`brailledev.network.store.Lifetimes`).

    server = TableServer(open_store(Path("tables.db")), Doorkeeping())
    web.run_app(server.app(), host="127.0.0.1", port=8765)
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import math
import random
import secrets
import time
from collections import deque
from collections.abc import Coroutine, Mapping
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
from brailledev.network.server.guard import (
    ADDRESS,
    HELD,
    PROBATION,
    Busy,
    Doorkeeping,
    Guard,
    Held,
    secure_headers,
)
from brailledev.network.server.limits import retry_after
from brailledev.network.server.room import AWAY, PACE, Refusal, Room, Settings
from brailledev.network.store import (
    Record,
    StoreFailed,
    TableDamaged,
    TableStore,
    Watched,
)
from brailledev.network.web.page import WebPages, error_text
from brailledev.table.options import read_value
from games.core import Json, Reason, Seat
from layouts.errors import Problem
from layouts.registry import GAMES, kit
from layouts.screen import Line

log = logging.getLogger("brailledev.network.server")

CODE_LETTERS = "bcdfghjkmnpqrstvwxz"  # no vowels: a code never spells a word
# 19**12 = 2.2e15 codes: guessing one of 100,000 tables at 10 tries a minute takes one
# address 4,200 years on average (the README's arithmetic).
CODE_LENGTH = 12
# aiohttp closes a connection whose frame is longer than this (bytes); below it, a frame
# too long for the protocol is refused with a message and the connection stays.
HARD_FRAME_LIMIT = 1 << 20
HEARTBEAT = 20.0  # seconds between pings: a vanished client is noticed within two
# Connections waiting to be accepted: every client of a restarted server comes back at once,
# and past aiohttp's 128 the kernel drops them, to be tried again 1, 3, 7 ... s later.
BACKLOG = 4096
# Frames a second a connection may send, and in one burst: far above a person's pace, far
# below a flood.
RATE, BURST = 50.0, 100
# Frames dropped for flooding before the connection is closed, forgiven at a fifth of the
# rate: a flood is closed within seconds, a client that only ever outruns a busy server for
# a moment (frames bunched up while it was slow) never is.
DROPS_BEFORE_CLOSE = 200
# Seconds a closing connection still reads (and throws away) what its client sends, until
# the client answers the close: a socket closed under a client still sending is answered
# with a reset, which throws away what the client has not read yet, the last refusal too.
LINGER = 2.0
QUEUE_MOST = 5_000  # frames waiting for a slow client before it is dropped
QUEUE_BYTES = 8 << 20  # characters waiting for a slow client before it is dropped
# The collector's thresholds: a young collection every 10,000 objects kept, a full one
# considered only after 1,000 young ones: making 1,000 tables (bench notes in the README)
# saw a full collection of 63-212 ms with Python's (700, 10, 10), none with these.
GC_THRESHOLDS = (10_000, 20, 50)
UNLOAD_AFTER = 300.0  # seconds a table not in play with nobody at it stays in memory
# Seconds a table nobody is at stays in memory when the store is shared: its players may
# come back through another process, which takes it up from the store.
LET_GO = 2.0
# Seconds a process with a shared store, told to stop, answers its health check 503 while
# its connections go on, until the balancer marks it down and closes them: its players are
# then sent straight to another process (HAProxy's three checks 0.5 s apart: 1-1.5 s).
DRAIN = 3.0
SWEEP_MOST, SWEEP_LEAST = 600.0, 1.0  # seconds between two sweeps, at most and least
SWEEP_BATCH = 500  # tables expired or retired at once, the others' turn between
MOST_TABLES = 10_000  # tables in memory at once
MOST_AWAY, MOST_PACE = 86_400.0, 60.0
MOST_CARDS = 500  # cards of a deck given as an option
# Refused moves that no honest client sends (an illegal move is a player's mistake).
HOSTILE = ("move_malformed", "not_your_seat")


class Connection:
    """One WebSocket from client address ``remote``: a
    :class:`brailledev.network.server.room.Peer` of its room once seated; ``rate`` frames a
    second it may send, ``burst`` at once; its offences told to ``guard`` (logged once a
    minute per address), its place in the address's counts ``held``."""

    def __init__(self, ws: web.WebSocketResponse, remote: str, guard: Guard, held: Held,
                 rate: float = RATE, burst: int = BURST) -> None:
        self.ws = ws
        self.remote = remote
        self.held = held
        self.guard = guard
        self.seat: Seat = -1
        self.web = False
        self.lang = "en"
        self.protocol = 1
        self.view: Any = None  # the view this braille seat was last told (protocol 2)
        self.seats = ""  # the seats' JSON it was last told with a view (protocol 2)
        self.answered = ""  # the move whose answer its news carried last (protocol 2)
        self.room: Room | None = None
        self.screen: tuple[int, tuple[Line, ...], str] | None = None
        self.drawn: Json = None
        self.said: tuple[int, int | None] | None = None
        self.told = 0
        self.queue: deque[str] = deque()  # frames behind a socket backed up
        self.queued = 0  # characters in the queue
        self.closing = False
        self.writer: asyncio.Task[None] | None = None  # only while the socket is backed up
        self.closer: asyncio.Task[None] | None = None
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.filled = time.monotonic()
        self.dropped = 0
        self.patience = float(DROPS_BEFORE_CLOSE)

    def send(self, text: str) -> None:
        """Write a frame at once, or queue it behind a socket backed up; a client too slow
        to take its frames (too many, or too long in all) is dropped (it comes back and is
        told what it missed)."""
        if self.closing:
            return
        if self.writer is None:
            self._write_now(text)
            return
        if len(self.queue) >= QUEUE_MOST or self.queued + len(text) > QUEUE_BYTES:
            self.offence("too_slow")
            self.drop()
            return
        self.queued += len(text)
        self.queue.append(text)

    def _write_now(self, text: str) -> None:
        """The frame written to the socket now (a task and a queue a connection cost the
        server 16% of its processor at 1,000 tables); if aiohttp then waits for the socket
        to drain, a writer task waits for it, and the frames after it queue behind."""
        sending = self.ws.send_str(text)
        try:
            waiting = sending.send(None)
        except StopIteration:
            return
        except (ConnectionError, RuntimeError):  # the connection is going: its reader ends it
            return
        self.writer = asyncio.get_running_loop().create_task(self._write(sending, waiting))

    async def _write(self, sending: Coroutine[Any, Any, None], waiting: Any) -> None:
        """Run the frame's sending on once the socket drained (``waiting``: what it awaits),
        then the frames queued behind it, in order; then frames go straight out again."""
        try:
            with contextlib.suppress(ConnectionError, RuntimeError):
                while True:
                    # A future, as aiohttp's waits are; a bare yield asks for one turn.
                    await (asyncio.sleep(0) if waiting is None else asyncio.wait([waiting]))
                    try:
                        waiting = sending.send(None)
                    except StopIteration:
                        break
                while self.queue:
                    text = self.queue.popleft()
                    self.queued -= len(text)
                    await self.ws.send_str(text)
        finally:
            sending.close()
            self.queue.clear()
            self.queued = 0
            self.writer = None

    def refuse(self, code: str, **params: Any) -> None:
        """Tell the client what it did wrong, in a code its own client words."""
        self.offence(code)
        words = {k: str(v) for k, v in params.items()}
        # A web page has no words of its own: it is told the sentence a braille client says.
        text = {"text": error_text(code, words, self.lang)} if self.web else {}
        self.send(write_frame("error", code=code, params=words, **text))

    def offence(self, code: str) -> None:
        """A mistake no honest client makes: one log line per address a minute, however
        many it makes on however many connections."""
        where = f"table {self.room.code} seat {self.seat}" if self.room else "not seated"
        self.guard.quiet.tell(f"client {self.remote}", f"{code} ({where})")

    def allowed(self) -> bool:
        """Whether one more frame fits the rate (a token bucket of ``BURST`` frames,
        refilled at ``RATE`` a second); a frame dropped uses up the connection's patience
        (``DROPS_BEFORE_CLOSE``, forgiven at a fifth of the rate)."""
        now = time.monotonic()
        elapsed, self.filled = now - self.filled, now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.patience = min(DROPS_BEFORE_CLOSE, self.patience + elapsed * self.rate / 5)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.dropped += 1
        self.patience -= 1
        if self.dropped == 1 or self.dropped % self.burst == 0:
            self.refuse("too_fast")
        return False

    async def close(self) -> None:
        """Let the frames already queued go out (a last error), then stop writing; a close
        begun by :meth:`drop` ends first (within its bounds: :data:`LINGER`)."""
        if self.closer is not None:
            await asyncio.wait([self.closer], timeout=LINGER + 2)
        # Frames already queued (a last error) still go out before the writer stops.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drain(), 1.0)
        if self.writer is not None:
            self.writer.cancel()

    def drop(self, code: int = WSCloseCode.OK) -> None:
        """Close the connection with ``code`` once the frames queued (a last refusal) went
        out; what it sends meanwhile is read and thrown away until it answers the close (at
        most :data:`LINGER` seconds), nothing more is sent to it."""
        if not self.closing:
            self.closing = True
            self.closer = asyncio.get_running_loop().create_task(
                self._close_after_frames(code))

    def expel(self, code: str) -> None:
        """Close the connection for an abuse, told ``code`` first: the news still queued
        for it is let go (it is told what it missed when it comes back), so the refusal
        cannot be stuck behind a flood's news when the close comes:
        ``connection.expel("too_fast")``."""
        if self.closing:
            return
        self.queue.clear()
        self.queued = 0
        self.refuse(code)
        self.drop()

    async def _close_after_frames(self, code: int) -> None:
        """The queued frames out, then the close handshake: the close frame, what the client
        sends read and thrown away until its own close frame, then the socket closed; each
        step bounded (a client that neither reads nor answers cannot hold the server)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drain(), 1.0)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ws.close(code=code), LINGER)

    async def _drain(self) -> None:
        while self.writer is not None and not self.ws.closed:
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
    """Tables, their tasks and their connections; see the module docstring. ``door`` says
    who makes tables, the limits per address and the tables' lifetimes; ``rate`` and
    ``burst`` bound the frames of each connection (a benchmark of bots raises them)."""

    def __init__(self, store: TableStore, door: Doorkeeping | None = None,
                 rate: float = RATE, burst: int = BURST) -> None:
        self.store = store
        self.door = door or Doorkeeping()
        self.guard = Guard(self.door, store.secret())
        self.rate, self.burst = rate, burst
        self.rooms: dict[str, Room] = {}
        self.wakes: dict[str, asyncio.Event] = {}
        # The rooms whose task waits, not idle: until when (the loop's time).
        self.sleeping: dict[str, float] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.connections: set[Connection] = set()
        self.damaged: set[str] = set()  # tables whose row cannot be read: left as they are
        self.sweeper: asyncio.Task[None] | None = None
        self.follower: asyncio.Task[None] | None = None  # hears the store's news of changes
        self.draining = False
        self.stopping = False
        # A table no sweep may take while in memory leaves memory before it is due.
        lifetimes = self.door.lifetimes
        self.unload_after = min(UNLOAD_AFTER, lifetimes.finished, lifetimes.unjoined)

    def app(self) -> web.Application:
        """The aiohttp application: ``web.run_app(server.app(), port=8765)``."""
        app = web.Application(client_max_size=64 * 1024, middlewares=[self.guard.middleware])
        app.router.add_post("/tables", self.new_table)
        app.router.add_get("/tables/{code}", self.table_info)
        app.router.add_get("/ws", self.websocket)
        app.router.add_get("/healthz", self.healthz)
        WebPages(self).add_routes(app)
        app.on_response_prepare.append(secure_headers)
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._close_connections)
        app.on_cleanup.append(self._stop)
        return app

    async def _start(self, app: web.Application) -> None:
        # A shared store's tables are taken up by the process their players reach.
        for code in [] if self.store.shared else self.store.in_play():
            try:
                room = Room.load(code, self.store)
            except TableDamaged as damage:
                self._damaged(damage)
                continue
            if room is not None:
                self._keep(room)
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then())
        if isinstance(self.store, Watched):
            self.follower = asyncio.get_running_loop().create_task(
                self.store.listen(lambda: list(self.rooms), self._moved))
        # What exists by now (modules, the tables taken up) stays: full collections, which
        # paused play 88 ms, no longer walk it; and they come rarely (GC_THRESHOLDS).
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)

    async def drain(self, most: float = DRAIN) -> None:
        """Going away, with a shared store (behind a balancer): ``GET /healthz`` answers 503
        while play goes on, until the balancer has closed every connection or ``most``
        seconds passed; a balancer still sending a player here once the port is closed
        waits a turn (1 s) before it tries another process. ``await server.drain()``"""
        if not self.store.shared:
            return
        self.draining = True
        deadline = time.monotonic() + most
        while self.connections and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    async def _close_connections(self, app: web.Application) -> None:
        """Going away: every client is told so (1001) and will come back by itself; the
        tables tell nobody that anyone left (nobody did)."""
        self.stopping = True
        # All at once: one after the other, each waiting for its client's answer, 67 tables'
        # connections took 3-4 s of a rolling restart's process stop under load.
        await asyncio.gather(*(connection.ws.close(code=WSCloseCode.GOING_AWAY)
                               for connection in list(self.connections)),
                             return_exceptions=True)

    async def _stop(self, app: web.Application) -> None:
        tasks = [*self.tasks.values(),
                 *(task for task in (self.sweeper, self.follower) if task is not None)]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for room in self.rooms.values():  # the next start plays no log again
            room.settle()
        self.store.close()

    # ---- tables --------------------------------------------------------------------------

    def _keep(self, room: Room) -> None:
        self.rooms[room.code] = room
        self.wakes[room.code] = asyncio.Event()
        self.tasks[room.code] = asyncio.get_running_loop().create_task(self._run(room))

    async def _run(self, room: Room) -> None:
        """The room's own pace: wait until something is due or someone acted, then act;
        a table not in play (over, or waiting for players) that nobody is at leaves memory
        after a while. With a shared store, a table nobody is at does nothing and leaves
        memory soon, and one another process moved on leaves at once, its connections
        closed (they come back through the balancer to the process holding it). A table
        quiet for a while, or leaving memory, folds its log into a snapshot."""
        wake = self.wakes[room.code]
        while not room.lost:
            idle = self._idle(room)
            due = (LET_GO if self.store.shared else self.unload_after) if idle else room.due()
            quiet = room.quiet_in()
            if quiet == 0.0:
                room.settle()
                continue
            settling = quiet is not None and (due is None or quiet < due)
            if settling:
                due = quiet
            if due is None or due > 0:
                wake.clear()
                if not idle:
                    self.sleeping[room.code] = math.inf if due is None \
                        else asyncio.get_running_loop().time() + due
                try:
                    woken = await _woken(wake, due)
                finally:
                    self.sleeping.pop(room.code, None)
                if not woken and idle and not settling and self._idle(room):
                    break
            else:
                await asyncio.sleep(0)  # other tables' turn between two bot moves
            if not (self.store.shared and self._idle(room)):
                room.act()
        if not room.lost:
            room.settle()
        self._forget(room)
        self._send_away(room)

    def _moved(self, code: str, seq: int) -> None:
        """Table ``code`` is at change ``seq`` in the store: if that is past this process's
        copy, another process moved it on, and the copy is let go at once (its connections
        sent away: they come back through the balancer to the process that moved it); a
        copy left behind keeps its seats waiting for news that never comes here."""
        room = self.rooms.get(code)
        if room is None or seq <= room.seq:  # this process's own change, or known
            return
        log.info("table %s: change %d made by another process; let go at %d", code, seq,
                 room.seq)
        room.lost = True
        self._forget(room).cancel()
        self._send_away(room)

    def _send_away(self, room: Room) -> None:
        """Close the connections at ``room``, which has left memory: 1012 (the service
        restarts) when another process moved it on, and its clients come back at once."""
        if not room.connected():
            return
        code = WSCloseCode.SERVICE_RESTART if room.lost else WSCloseCode.OK
        for connection in [each for each in self.connections if each.room is room]:
            connection.drop(code)

    def _idle(self, room: Room) -> bool:
        """Whether ``room`` may leave memory: nobody is at it and it is not in play (or,
        with a shared store, whatever its state)."""
        return not room.connected() and (self.store.shared or room.over or not room.started)

    def _forget(self, room: Room) -> asyncio.Task[None]:
        """``room`` out of memory; its task (cancelled by whoever did not run it)."""
        del self.rooms[room.code], self.wakes[room.code]
        return self.tasks.pop(room.code)

    def _wake(self, room: Room | None) -> None:
        """``room``'s task told someone acted, unless it would wake in time by itself (most
        moves at a table of people, each of which woke it to arm a timer and act on
        nothing)."""
        if room is None or room.code not in self.wakes:
            return
        until = self.sleeping.get(room.code)
        if until is None or room.lost or not self._in_time(room, until):
            self.wakes[room.code].set()

    def _in_time(self, room: Room, until: float) -> bool:
        """Whether ``room``'s task, asleep until ``until`` (the loop's time), not idle then,
        wakes in time by itself: it is still not idle, and nothing is due, nor is the table
        quiet enough to settle, before then."""
        if self._idle(room):
            return False
        waits = [wait for wait in (room.due(), room.quiet_in()) if wait is not None]
        return not waits or asyncio.get_running_loop().time() + min(waits) >= until

    def _damaged(self, damage: TableDamaged) -> None:
        self.damaged.add(damage.code)
        self.guard.quiet.tell(f"table {damage.code}",
                              f"damaged ({damage.detail}); left in the store as it is")

    def table_room(self, code: str) -> Room | None:
        """The room of table ``code``, loaded from the store if need be; ``None``: no such
        table in play. :class:`brailledev.network.store.TableDamaged` when its row cannot
        be read, :class:`Busy` when there is no room for one more in memory."""
        room = self.rooms.get(code)
        if room is not None and self.store.shared and not room.connected():
            self._forget(room).cancel()  # another process may have moved it on since
            room = None
        if room is not None:
            return room
        if code in self.damaged:
            raise TableDamaged(code, "known damaged")
        if len(self.rooms) >= MOST_TABLES:
            raise Busy()
        try:
            room = Room.load(code, self.store)
        except TableDamaged as damage:
            self._damaged(damage)
            raise
        if room is not None:
            self._keep(room)
        return room

    def table_record(self, code: str) -> Record | None:
        """The record of table ``code`` once retired, ``None`` if there is none."""
        return self.store.record(code)

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
        a mistake is a :class:`layouts.errors.Problem`, a full memory :class:`Busy`."""
        settings = read_settings(data)
        if len(self.rooms) >= MOST_TABLES:
            raise Busy()
        room = Room.create(self._new_code(), settings, self.store)
        self._keep(room)
        log.info("table %s: %s for %d, %d people", room.code, settings.game,
                 settings.players, settings.people)
        return room

    async def table_info(self, request: web.Request) -> web.Response:
        """``GET /tables/CODE``: the table as anyone invited may see it, or its record."""
        code = request.match_info["code"].lower()
        room = self.table_room(code)
        if room is None:
            record = self.table_record(code)
            if record is None:
                return web.json_response({"error": "table_unknown", "params": {}},
                                         status=404)
            return web.json_response(_record_json(record))
        return web.json_response({
            "code": room.code, "game": room.settings.game, "players": room.table.players,
            "started": room.started, "over": room.over,
            "seats": [{"name": state.name, "kind": state.kind, "connected": state.connected,
                       "stand_in": state.stand_in} for state in room.seat_states()]})

    async def healthz(self, request: web.Request) -> web.Response:
        """``GET /healthz``: 200 while this process takes players (for a load balancer's
        health check), 503 once it is going away; how many tables it holds."""
        return web.json_response({"tables": len(self.rooms)},
                                 status=503 if self.draining or self.stopping else 200)

    # ---- a table's life ------------------------------------------------------------------

    async def _sweep_now_and_then(self) -> None:
        every = min(SWEEP_MOST, max(SWEEP_LEAST, self.door.lifetimes.shortest / 10))
        while True:
            with contextlib.suppress(StoreFailed):  # the store logged it; next time
                await self.sweep()
            await asyncio.sleep(every)

    async def sweep(self) -> int:
        """Expire the tables nobody sat at and the old records, retire the tables finished
        or untouched long enough into records, give the room back; how many tables went.
        Tables held in memory are left for a later sweep."""
        lifetimes, now = self.door.lifetimes, time.time()
        gone = SWEEP_BATCH
        total = 0
        while gone == SWEEP_BATCH:
            gone = self.store.expire(now, lifetimes, {*self.rooms, *self.damaged},
                                     SWEEP_BATCH)
            total += gone
            await asyncio.sleep(0)
        while True:
            codes = self.store.retirable(now, lifetimes, {*self.rooms, *self.damaged},
                                         SWEEP_BATCH)
            if not codes:
                break
            for code in codes:
                try:
                    room = Room.load(code, self.store)
                except TableDamaged as damage:
                    self._damaged(damage)
                    continue
                self.store.retire(code, room.result() if room is not None else None)
                total += 1
                await asyncio.sleep(0)
        self.store.compact()
        if total:
            log.info("sweep: %d tables expired or retired", total)
        return total

    # ---- connections ---------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        """``GET /ws``: one client's connection, frame by frame, until it goes."""
        ws = web.WebSocketResponse(max_msg_size=HARD_FRAME_LIMIT, heartbeat=HEARTBEAT)
        await ws.prepare(request)
        connection = Connection(ws, request[ADDRESS], self.guard, request[HELD], self.rate,
                                self.burst)
        self.connections.add(connection)
        try:
            if connection.held.probation and not await self._on_probation(connection):
                return ws
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    self.receive(connection, message.data)
                elif message.type == WSMsgType.BINARY:
                    connection.refuse("frame_not_text")
                elif message.type == WSMsgType.ERROR:
                    # Beyond aiohttp's limit it closed the connection itself, with the code
                    # that says why (1009, message too big) when the client can still read.
                    connection.offence("frame_too_big")
                if connection.closing:
                    # The close reads on: aiohttp closes the socket at once while this loop
                    # waits for a frame, and a client still sending is then reset.
                    break
        finally:
            room = connection.room
            if room is not None:
                with contextlib.suppress(Refusal):
                    room.leave(connection, quietly=self.stopping or room.lost)
                self._wake(room)
            await connection.close()
            self.connections.discard(connection)
        return ws

    async def _on_probation(self, connection: Connection) -> bool:
        """A connection past its address's limit: whether its first frame, within
        :data:`PROBATION` seconds, took its seat back with the seat's key; if not, it is
        told the limit and closed."""
        with contextlib.suppress(TimeoutError):
            message = await connection.ws.receive(PROBATION)
            if message.type == WSMsgType.TEXT and _with_key(message.data):
                self.receive(connection, message.data)
        if not connection.held.probation:
            return True
        if not connection.closing:
            connection.refuse("too_many_connections", most=self.door.limits.connections)
            connection.drop()
        return False

    def receive(self, connection: Connection, text: str) -> None:
        """One frame from a client: checked, then done; never an exception."""
        if connection.closing:
            return
        if not connection.allowed():
            if connection.patience < 0:
                connection.expel("too_fast")
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
        except StoreFailed:  # the store logged it
            connection.refuse("store_failed")
        except TableDamaged as damage:
            connection.refuse("table_damaged", invitation=damage.code)
        except Busy:
            connection.refuse("server_busy")
        except Exception:
            log.exception("client %s: a frame failed", connection.remote)
            connection.refuse("server_error")
        finally:
            self._wake(connection.room)

    def _handle(self, connection: Connection, frame: object) -> None:
        if isinstance(frame, Hello):
            if connection.room is not None:
                raise Refusal("already_seated")
            self._sit(connection, frame)
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
            if reason is None and connection.answered == frame.id:
                connection.answered = ""  # the same id sent again is answered again
                return  # its news carried the answer
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

    def _sit(self, connection: Connection, hello: Hello) -> None:
        """A hello: the table looked up and the seat taken, unless the address has tried
        too many unknown codes or wrong keys (then it is told, and the connection closed,
        whether the code is good or not: the answers tell it nothing)."""
        guard, address = self.guard, connection.remote
        wait = guard.tried(address)
        if wait:
            connection.refuse("too_many_tries", most=self.door.limits.tries,
                              seconds=retry_after(wait))
            connection.drop()
            return
        connection.web, connection.lang, connection.protocol = hello.web, hello.lang, \
            hello.protocol
        room = self.table_room(hello.code)
        if room is None:
            if self.table_record(hello.code) is not None:
                raise Refusal("table_over")
            guard.missed(address, "unknown table codes")
            raise Refusal("table_unknown", invitation=hello.code)
        try:
            room.sit(hello, connection)
        except Refusal as refusal:
            if refusal.code == "wrong_token":
                guard.missed(address, "wrong seat keys")
            # Told, then closed: a client comes back (to the process holding the table, if
            # another moved it on while this one sat it down).
            if refusal.code == "store_failed" or room.lost:
                connection.refuse(refusal.code, **refusal.params)
                connection.drop()
                self._wake(room)  # a table lost leaves at once, its connections closed
                return
            raise
        connection.room = room
        if room.peers.get(connection.seat) == [connection]:
            self.guard.let_go(connection.held)  # a seat's one connection: bounded by seats


def _with_key(text: str) -> bool:
    """Whether a frame is a hello taking a seat back with its key."""
    try:
        frame = read_frame(text)
    except BadFrame:
        return False
    return isinstance(frame, Hello) and frame.token is not None


async def _woken(wake: asyncio.Event, due: float | None) -> bool:
    """Wait until ``wake`` is set or ``due`` seconds passed (``None``: no end); whether it
    was set first: ``await _woken(event, 2.5)``. What ``asyncio.wait_for(wake.wait(), due)``
    does without a task, a coroutine and their futures made at every wait (the room's wait
    after each move it hears)."""
    timer = None if due is None else asyncio.get_running_loop().call_later(due, wake.set)
    try:
        await wake.wait()
    finally:
        if timer is not None:
            timer.cancel()
    return timer is None or asyncio.get_running_loop().time() < timer.when()


def _problem(problem: Problem) -> web.Response:
    return web.json_response({"error": problem.code,
                              "params": {k: str(v) for k, v in problem.params.items()}},
                             status=400)


def _record_json(record: Record) -> dict[str, Any]:
    """A retired table as ``GET /tables/CODE`` tells it."""
    result = record.result
    return {"code": record.code, "game": record.game, "players": len(result.players),
            "started": True, "over": result.over, "retired": True,
            "seats": [{"name": name, "kind": kind} for name, kind in result.players],
            "scores": list(result.scores), "created": record.created, "ended": record.ended}
