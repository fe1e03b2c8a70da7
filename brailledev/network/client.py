"""A seat's connection to a table server: the client side of :mod:`brailledev.network.protocol`.

It says hello (with the seat's key once it has one), hands on every frame the server sends,
counts changes so that none is told twice or lost, reconnects by itself with a growing delay
when the connection breaks, and sends a move with an id so that a move sent again after a
break is never played twice. It knows nothing of screens: ``brailledev join`` puts a seat
client on top of it, tests and the benchmark put bots and recorders.

    client = TableClient("http://127.0.0.1:8765", "tkrzvm", name="Ann", lang="fr",
                         on_frame=print)
    task = asyncio.create_task(client.run())
    await client.seated.wait()
    reason = await client.play({"$": "Move", "kind": "draw", ...})   # None: played
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit, urlunsplit

from brailledev.network.protocol import PROTOCOL, from_json, whole_state, write_frame
from games.core import Json

if TYPE_CHECKING:
    import aiohttp

FIRST_DELAY, MOST_DELAY = 0.1, 5.0  # seconds between two tries to reconnect
HEARTBEAT = 20.0
ANSWER_WAIT = 10.0  # seconds a move waits for its answer (a reconnection included)
# A Domino view with a wide grid and every pad is the largest frame: far below this.
MOST_FRAME = 8 << 20
# A bot's move refused for these is sent again after a while (up to one try per delay).
AGAIN = ("too_fast", "no_answer")
RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0)
# Refusals of a hello that trying again cannot mend.
FINAL = ("table_unknown", "wrong_token", "table_full", "table_over", "frame_invalid",
         "too_many_tries", "table_damaged")


def socket_url(server: str) -> str:
    """The WebSocket address of a server's address:
    ``socket_url("https://games.example.org/cards") == "wss://games.example.org/cards/ws"``;
    anything but an http(s) or ws(s) address is a ValueError."""
    parts = urlsplit(server.strip())
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.hostname:
        raise ValueError(f"{server!r} is not an http(s) address")
    return urlunsplit((scheme, parts.netloc, parts.path.rstrip("/") + "/ws", "", ""))


def http_url(server: str) -> str:
    """The HTTP address of a server, without a trailing slash."""
    socket_url(server)
    return server.strip().rstrip("/")


class TableClient:
    """See the module docstring. ``on_frame`` is called with each frame (a dict) in the
    client's event loop; ``on_connection`` with True/False as the connection comes and goes.
    """

    def __init__(self, server: str, code: str, name: str = "", lang: str = "en",
                 token: str | None = None, since: int = 0, web: bool = False,
                 on_frame: Callable[[dict[str, Any]], None] | None = None,
                 on_connection: Callable[[bool], None] | None = None,
                 on_text: Callable[[str], None] | None = None) -> None:
        # The code in the address too: a load balancer sends a table's players to one process.
        self.url = f"{socket_url(server)}?code={quote(code)}"
        self.code = code
        self.name = name
        self.lang = lang
        self.token = token
        self.seq = since
        self.web = web
        self.on_frame = on_frame or (lambda frame: None)
        self.on_connection = on_connection or (lambda up: None)
        # Every frame as the server sent it, before anything reads it (a recorder's).
        self.on_text = on_text or (lambda text: None)
        self.seat: int | None = None
        # The seat's state as the last news carrying one said (view, legal moves, ...).
        self.state: dict[str, Any] | None = None
        self.players = 0
        self.game = ""
        self.seated = asyncio.Event()
        self.connected = asyncio.Event()
        self.stopped = asyncio.Event()
        # Why the server will not seat this client (a code of ``FINAL``), once it said so.
        self.refused: str | None = None
        # What the server's sentence of that refusal names (the minutes to wait...).
        self.refused_params: dict[str, str] = {}
        # Why the first connections failed, while none has reached the server yet.
        self.unreachable: str | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._answers: dict[str, asyncio.Future[Json]] = {}
        self._sent: dict[str, str] = {}  # the frames of moves still unanswered, by id
        self._ids = itertools.count(1)
        self._prefix = secrets.token_hex(4)
        # The seat's key, drawn here: a hello sent again after a cut finds the seat it took.
        self._key = secrets.token_urlsafe(24)
        self.reconnections = 0
        # The protocol of the hello: 1 once a server older than protocol 2 refused it.
        self.protocol = PROTOCOL
        self._hello_again = False

    # ---- running ---------------------------------------------------------------------------

    async def run(self) -> None:
        """Stay connected until :meth:`stop` or a final refusal."""
        import aiohttp  # here: the command line starts without loading it

        delay = FIRST_DELAY
        async with aiohttp.ClientSession() as session:
            while not self.stopped.is_set() and self.refused is None:
                try:
                    async with session.ws_connect(self.url, heartbeat=HEARTBEAT,
                                                  max_msg_size=MOST_FRAME) as ws:
                        self._ws = ws
                        await ws.send_str(self._hello())
                        async for message in ws:
                            if message.type != aiohttp.WSMsgType.TEXT:
                                break
                            if self._receive(message.data):
                                delay = FIRST_DELAY
                            if self._hello_again:
                                self._hello_again = False
                                await ws.send_str(self._hello())
                            if self.refused is not None:
                                break
                except (aiohttp.ClientError, OSError, TimeoutError) as error:
                    if self.seat is None:  # never reached: a person waiting is told why
                        self.unreachable = str(error) or type(error).__name__
                finally:
                    self._ws = None
                    if self.connected.is_set():
                        self.connected.clear()
                        self.on_connection(False)
                if self.stopped.is_set() or self.refused is not None:
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopped.wait(),
                                           delay * random.uniform(0.5, 1.0))
                delay = min(MOST_DELAY, delay * 2)
                self.reconnections += 1
        self.seated.set()  # nobody waits for a seat that will not come

    async def stop(self) -> None:
        """Leave the table (the seat stays this client's, for its key)."""
        self.stopped.set()
        if self._ws is not None:
            await self._ws.close()

    async def leave(self) -> None:
        """Leave the table on purpose: the others are told so, then :meth:`stop`."""
        await self.send(write_frame("leave"))
        await self.stop()

    def _hello(self) -> str:
        fields: dict[str, Any] = {"protocol": self.protocol, "code": self.code,
                                  "lang": self.lang, "web": self.web}
        if self.token is None:
            fields.update(name=self.name, key=self._key)
        else:
            fields.update(token=self.token, since=self.seq)
        return write_frame("hello", **fields)

    def _receive(self, text: str) -> bool:
        """Take one frame; True once it seated this client."""
        self.on_text(text)
        frame = json_object(text)
        if frame is None:
            return False
        kind = frame.get("type")
        if kind == "welcome":
            self.seat = int(frame["seat"])
            self.players = int(frame["players"])
            self.game = str(frame["game"])
            if frame.get("token"):
                self.token = str(frame["token"])
            self.connected.set()
            self.on_connection(True)
            self.seated.set()
            for sent in self._sent.values():
                self._send_now(sent)
            self.on_frame(frame)
            return True
        if kind == "answer":
            self._answered(str(frame.get("id")), frame.get("reason"))
            return False
        if kind == "news":
            seq = int(frame.get("seq", 0))
            if seq <= self.seq and frame.get("events"):
                frame = {**frame, "events": []}  # told already: the state alone is news
            self.seq = max(self.seq, seq)
            state = frame.get("state")
            if isinstance(state, dict) and "view_changes" in state:
                # Changes build on this connection's last state (its first is whole).
                frame = {**frame, "state": whole_state(state, self.state)}
            if "state" in frame:
                self.state = frame["state"]
        if kind == "error" and not self.connected.is_set() and self.protocol > 1 \
                and frame.get("code") == "frame_invalid" \
                and (frame.get("params") or {}).get("field") == "protocol":
            self.protocol = 1  # a server from before protocol 2: its hello again, in 1
            self._hello_again = True
            return False
        if kind == "error" and not self.connected.is_set() and frame.get("code") in FINAL:
            self.refused = str(frame["code"])
            self.refused_params = dict(frame.get("params") or {})
        self.on_frame(frame)
        if kind == "news" and "answer" in frame:  # after the news, as an answer frame comes
            self._answered(str(frame["answer"]), None)
        return False

    def _answered(self, move_id: str, reason: Json) -> None:
        """The answer to move ``move_id``: its waiter told, its frame no longer sent again."""
        future = self._answers.pop(move_id, None)
        self._sent.pop(move_id, None)
        if future is not None and not future.done():
            future.set_result(reason)

    # ---- sending ---------------------------------------------------------------------------

    async def play(self, move: Json, wait: float = ANSWER_WAIT) -> Json:
        """Send a move (in the wire's codec) and wait for its answer: ``None`` when played,
        else the reason (code and args); sent again after a reconnection with the same id.
        ``{"code": "no_answer"}`` when no answer came in ``wait`` seconds."""
        move_id = f"{self._prefix}-{next(self._ids)}"
        frame = write_frame("move", id=move_id, move=move)
        future: asyncio.Future[Json] = asyncio.get_running_loop().create_future()
        self._answers[move_id] = future
        self._sent[move_id] = frame
        if self.connected.is_set():
            self._send_now(frame)
        try:
            return await asyncio.wait_for(future, wait)
        except TimeoutError:
            return {"code": "no_answer", "args": {}}
        finally:
            self._answers.pop(move_id, None)
            self._sent.pop(move_id, None)

    async def say(self, text: str) -> bool:
        """Send a line of talk; False when not connected (nothing sent)."""
        return await self.send(write_frame("say", text=text))

    async def send(self, frame: str) -> bool:
        """Send a frame as it is (web routes, tests); False when not connected."""
        ws = self._ws
        if ws is None or ws.closed or not self.connected.is_set():
            return False
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_str(frame)
            return True
        return False

    def _send_now(self, frame: str) -> None:
        asyncio.get_running_loop().create_task(self.send(frame))


def json_object(text: str) -> dict[str, Any] | None:
    """A frame as a dict, ``None`` for anything else (a server never sends that)."""
    try:
        frame = from_json(text)
    except (ValueError, RecursionError):
        return None
    return frame if isinstance(frame, dict) else None


class WireBot:
    """One of a game's bots playing a seat of a server's table over the wire, as a person's
    client would: it sees only what the seat receives, and thinks before each move for
    ``think`` seconds on average (half to one and a half times it, as people do: bots in
    step would all move at once). ``sent`` and ``seen`` keep when each position was left by
    this bot's move and first reached here, ``played`` the positions its moves were played
    from (for the benchmark).

        bot = WireBot("http://127.0.0.1:8765", "tkrzvm", "uno", seed=3)
        await bot.client.run()
    """

    def __init__(self, server: str, code: str, game: str, bot: str = "heuristic",
                 seed: int = 0, name: str = "", clock: Callable[[], float] = time.perf_counter,
                 think: float = 0.0, **client: Any) -> None:
        from brailledev.network.wire import codec_for
        from layouts.registry import kit

        self.codec = codec_for(game)
        self.bot = kit(game).make_bot(bot, seed)
        self.clock = clock
        self.client = TableClient(server, code, name=name or bot, on_frame=self._frame,
                                  **client)
        self.think = think
        self.pauses = random.Random(seed)  # its own: the bot's generator plays the game
        self.sent: dict[int, float] = {}
        self.seen: dict[int, float] = {}
        self.played: set[int] = set()  # positions this bot's move was played from
        self.refusals: list[Json] = []
        # Refused moves sent from a position the table had left by the answer: races
        # between seats that may act at once (Uno's catch), not mistakes.
        self.overtaken: list[Json] = []
        self.latest = -1
        self.over = asyncio.Event()
        self._asked = -1

    def _frame(self, frame: dict[str, Any]) -> None:
        state = frame.get("state")
        if frame.get("type") != "news" or state is None:
            return
        position = int(state["position"])
        self.latest = max(self.latest, position)
        self.seen.setdefault(position, self.clock())
        if state["over"]:
            self.over.set()
        if not state["actor"] or self._asked == position:
            return
        self._asked = position
        move = self.bot.choose(self.codec.decode(state["view"]),
                               list(self.codec.decode(state["legal"])))
        if move is not None:
            asyncio.get_running_loop().create_task(self._play(position, move))

    async def _play(self, position: int, move: Any) -> None:
        if self.think:
            await asyncio.sleep(self.think * self.pauses.uniform(0.5, 1.5))
        self.sent[position] = self.clock()
        reason = await self.client.play(self.codec.encode(move))
        for delay in RETRY_DELAYS:
            if not (isinstance(reason, dict) and reason.get("code") in AGAIN):
                break
            await asyncio.sleep(delay)
            reason = await self.client.play(self.codec.encode(move))
        if reason is not None:
            (self.overtaken if self.latest > position else self.refusals).append(reason)
            if self._asked == position:  # asked again at the next state told, as a person would
                self._asked = -1
        else:
            self.played.add(position)
