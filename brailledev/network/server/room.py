"""One table held by the server: the table core, who sits where, the secret keys of the
seats, presence and talk, the bots' pace, and the store every change goes to first.

A room knows no socket: its peers are anything that can be sent a frame. Every change (a
move, a seat taken, a player gone or back, a bot standing in, a line of talk, the turn clock)
is committed to the store before it is sent to anyone, each seat getting only its own
share (``events_for``) and, with it, its view and legal moves. Web seats get their screen
worded on the server, in their language (:meth:`Room.send_screen`).

    room = Room.create("tkrzvm", Settings("uno", players=4, people=2, bots="heuristic",
                                          options={}, seed=7), store)
    seat, token = room.sit(Hello("tkrzvm", name="Ann", lang="fr"), peer)
    room.play(seat, MoveFrame("m1", codec_for("uno").encode(move)))
    room.act()                           # what is due: a bot's move, the clock, stand-ins
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from brailledev.network.protocol import Hello, MoveFrame, RouteFrame, write_frame
from brailledev.network.store import Store
from brailledev.network.web.picture import frame_lines, picture
from brailledev.network.wire import Codec, WireError, codec_for
from brailledev.table.core import DEFAULT_BOT, Table
from brailledev.table.history import History
from brailledev.table.presence import (
    SEAT_BOT,
    SEAT_FREE,
    SEAT_PERSON,
    Back,
    Gone,
    Said,
    SatDown,
    SeatState,
    Started,
    StoodIn,
    TableSeat,
    clean_talk,
)
from games.core import Event, Json, Reason, Seat, events_for
from layouts.screen import MESSAGE_LINE, Line

AWAY = 120.0  # seconds a player may be away before a bot plays for them
PACE = 1.5  # seconds between two bot moves, as ``play``'s
CLOCK_POLL = 0.25  # seconds between two looks at a running turn clock
PAUSE_AFTER_FAILURE = 10.0  # seconds a room rests after something failed in it
MAX_NAME = 20
TOKEN_BYTES = 24

log = logging.getLogger("brailledev.network.server")


class Refusal(Exception):
    """What a room refuses a peer, told to it as a code and values:
    ``Refusal("table_full")``."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


class Peer(Protocol):
    """A connection as a room sees it: its seat, whether it is a web page, and a way to
    send it a frame."""

    seat: Seat
    web: bool
    screen: tuple[int, tuple[Line, ...]] | None
    told: int

    def send(self, text: str) -> None: ...


@dataclass
class Settings:
    """What a table is made of, chosen by ``brailledev table new``: ``people`` seats (the
    first ones) are for people, the others for bots named in ``bots`` (given in turn);
    ``away`` seconds before a bot stands in for a player gone, ``pace`` between bot moves."""

    game: str
    players: int
    people: int
    bots: str
    options: dict[str, Any]
    seed: int
    away: float = AWAY
    pace: float = PACE

    @property
    def stand_in_bot(self) -> str:
        return next((name.strip() for name in self.bots.split(",") if name.strip()),
                    DEFAULT_BOT)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        return cls(str(data["game"]), int(data["players"]), int(data["people"]),
                   str(data["bots"]), dict(data["options"]), int(data["seed"]),
                   float(data["away"]), float(data["pace"]))


@dataclass
class SeatRecord:
    """One seat as the server keeps it: a person's (``token_hash`` empty until taken) or a
    bot's; the last move id played from it; a web seat's reading state."""

    kind: str
    name: str = ""
    token_hash: str = ""
    lang: str = "en"
    last_move: str = ""
    reader: dict[str, Any] | None = field(default=None)

    @property
    def taken(self) -> bool:
        return self.kind == SEAT_PERSON and bool(self.token_hash)


def hash_token(token: str) -> str:
    """What the store keeps of a seat's key: never the key itself."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class RoomLink:
    """A web seat's link to its room (the room plays its moves and words its screen)."""

    def __init__(self, room: Room, seat: Seat) -> None:
        self.room = room
        self.seat = seat

    @property
    def players(self) -> int:
        return self.room.table.players

    @property
    def position(self) -> int:
        return self.room.table.moves

    def view(self) -> Any:
        return self.room.table.view(self.seat)

    def legal(self) -> list[Any]:
        return self.room.table.legal(self.seat) if self.waiting_for_me() else []

    def waiting_for_me(self) -> bool:
        return self.room.can_act(self.seat)

    def over(self) -> bool:
        return self.room.over

    def time_left(self) -> int | None:
        return self.room.table.time_left(self.seat) if self.room.started else None

    def play(self, move: Hashable) -> Reason | None:
        return self.room.play_move(self.seat, move)

    def seats(self) -> tuple[SeatState, ...]:
        return self.room.seat_states()

    def say(self, text: str) -> Reason | None:
        return self.room.say(self.seat, text)


class Room:
    """A table held by the server; see the module docstring."""

    def __init__(self, code: str, settings: Settings, table: Table, seats: list[SeatRecord],
                 store: Store, seq: int = 1, started: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.code = code
        self.settings = settings
        self.store = store
        self.clock = clock
        self.codec: Codec = codec_for(settings.game)
        self.peers: dict[Seat, list[Peer]] = {}
        self.away_since: dict[Seat, float] = {}
        self.told_gone: set[Seat] = set()
        self.last_change = clock()
        self.resting_until = 0.0
        self.web_seats: dict[Seat, TableSeat] = {}
        self._heard: list[list[Event]] = []
        # While a web page's routing runs, its changes leave the pages' screens to it.
        self._routing = False
        self._adopt(table, seats, seq, started)
        # Nobody is connected to a room just made or loaded: every taken seat is away.
        for seat, record in enumerate(seats):
            if record.taken:
                self.away_since[seat] = clock()

    def _adopt(self, table: Table, seats: list[SeatRecord], seq: int, started: bool) -> None:
        self.table = table
        self.seats = seats
        self.seq = seq
        self.started = started
        self._heard = [[] for _ in range(table.players)]
        table.listen(self._listen)
        self.web_seats = {}
        for seat, record in enumerate(seats):
            if record.reader is not None:
                self._web_seat(seat)

    # ---- making, saving, loading ---------------------------------------------------------

    @classmethod
    def create(cls, code: str, settings: Settings, store: Store,
               clock: Callable[[], float] = time.monotonic) -> Room:
        """A new table, stored with what its deal told each seat (change number 1)."""
        table = Table.new(settings.game, settings.players, settings.seed,
                          people=range(settings.people), bots=settings.bots,
                          options=settings.options, clock=clock)
        seats = [SeatRecord(SEAT_PERSON if seat < settings.people else SEAT_BOT)
                 for seat in range(settings.players)]
        room = cls(code, settings, table, seats, store, clock=clock)
        start = table.start_events
        store.create(code, settings.game, room.to_dict(),
                     [room.codec.encode(tuple(events_for(start, seat)))
                      for seat in range(table.players)])
        return room

    @classmethod
    def load(cls, code: str, store: Store,
             clock: Callable[[], float] = time.monotonic) -> Room | None:
        """The table ``code`` as the store last committed it, ``None`` if there is none."""
        found = store.load(code)
        if found is None:
            return None
        data, seq = found
        settings = Settings.from_dict(data["settings"])
        table = Table.from_dict(data["table"], clock=clock)
        seats = [SeatRecord(**record) for record in data["seats"]]
        return cls(code, settings, table, seats, store, seq, bool(data["started"]), clock)

    def to_dict(self) -> dict[str, Any]:
        """What the store keeps of the room (the sequence number apart)."""
        for seat, reader in self.web_seats.items():
            self.seats[seat].reader = reader.history.to_dict()
        # Shallow copies: the fields are plain values, dumped at once (asdict's deep copy
        # was a fifth of a move's time).
        return {"settings": dict(vars(self.settings)), "table": self.table.to_dict(),
                "seats": [dict(vars(record)) for record in self.seats],
                "started": self.started}

    def _reload(self) -> None:
        """Back to what the store holds, after a change that could not be committed."""
        found = self.store.load(self.code)
        if found is None:
            return
        data, seq = found
        table = Table.from_dict(data["table"], clock=self.clock)
        self._adopt(table, [SeatRecord(**record) for record in data["seats"]], seq,
                    bool(data["started"]))

    # ---- what everyone may know ------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.table.game.is_over()

    def connected(self) -> bool:
        """Whether anyone is at the table now."""
        return any(self.peers.values())

    def seat_states(self) -> tuple[SeatState, ...]:
        """Every seat as everyone may know it: who, how it is played, connected or not."""
        states = []
        for seat, record in enumerate(self.seats):
            if record.kind == SEAT_BOT:
                states.append(SeatState("", SEAT_BOT))
            elif not record.taken:
                states.append(SeatState("", SEAT_FREE))
            else:
                states.append(SeatState(record.name, SEAT_PERSON, bool(self.peers.get(seat)),
                                        seat not in self.table.seating.people))
        return tuple(states)

    def can_act(self, seat: Seat) -> bool:
        """Whether ``seat``'s person may move now (the game begun, their turn or a catch,
        no bot standing in)."""
        game = self.table.game
        return self.started and not game.is_over() and seat in game.actors() \
            and seat in self.table.seating.people

    def state_of(self, seat: Seat, seats: Json = None) -> dict[str, Json]:
        """What a braille seat's client keeps of the table: view, legal moves, position;
        ``seats`` the company already encoded (the same for every seat of a change)."""
        encode = self.codec.encode
        actor = self.can_act(seat)
        return {"view": encode(self.table.view(seat)),
                "legal": encode(tuple(self.table.legal(seat))) if actor else [],
                "position": self.table.moves, "actor": actor,
                "time_left": self.table.time_left(seat) if self.started else None,
                "over": self.over, "started": self.started,
                "seats": seats if seats is not None else encode(self.seat_states())}

    # ---- seats -----------------------------------------------------------------------------

    def sit(self, hello: Hello, peer: Peer) -> tuple[Seat, str | None]:
        """Sit ``peer`` down: at its seat again with its key, else at the free seat it asked
        for or the next free one (a new key, returned once). Sends it what it missed; a
        refusal is a :class:`Refusal`."""
        if hello.token is not None:
            seat = self._seat_of(hello.token)
            if seat is None:
                raise Refusal("wrong_token")
            token = None
        else:
            free = [seat for seat, record in enumerate(self.seats)
                    if record.kind == SEAT_PERSON and not record.taken]
            if self.over:
                raise Refusal("table_over")
            if not free:
                raise Refusal("table_full")
            if hello.seat is not None and hello.seat not in free:
                raise Refusal("seat_taken", number=hello.seat + 1)
            seat = free[0] if hello.seat is None else hello.seat
            token = secrets.token_urlsafe(TOKEN_BYTES)
        record = self.seats[seat]
        record.lang = hello.lang
        peer.seat = seat
        returning = not self.peers.get(seat) and (
            seat in self.told_gone or seat not in self.table.seating.people)
        self.peers.setdefault(seat, []).append(peer)
        self.away_since.pop(seat, None)
        if peer.web:
            self._web_seat(seat)
        peer.send(write_frame("welcome", seat=seat, token=token, code=self.code,
                              game=self.settings.game, players=self.table.players))
        self._send_missed(peer, hello.since)
        if token is not None:
            record.token_hash = hash_token(token)
            record.name = self._unique_name(hello.name, seat)
            missing = sum(1 for each in self.seats if each.kind == SEAT_PERSON
                          and not each.taken)
            events: list[Event] = [SatDown(seat, record.name, missing)]
            if not missing:
                self.started = True
                events.append(Started())
            self._change(lambda: self.table.publish(events))
        elif returning:
            self.told_gone.discard(seat)
            self._change(lambda: self._come_back(seat))
        return seat, token

    def _come_back(self, seat: Seat) -> None:
        self.table.take_back(seat)
        self.table.publish([Back(seat, self.seats[seat].name)])

    def leave(self, peer: Peer, quietly: bool = False) -> None:
        """``peer`` is gone; when it was its seat's last, the seat is away from now on, and
        everyone is told unless ``quietly`` (the server itself is stopping)."""
        peers = self.peers.get(peer.seat, [])
        if peer not in peers:
            return
        peers.remove(peer)
        seat = peer.seat
        if peers or not self.seats[seat].taken:
            return
        self.away_since[seat] = self.clock()
        if not self.over and not quietly:
            self.told_gone.add(seat)
            self._change(lambda: self.table.publish([Gone(seat, self.seats[seat].name)]))

    def _seat_of(self, token: str) -> Seat | None:
        wanted = hash_token(token)
        for seat, record in enumerate(self.seats):
            if record.taken and hmac.compare_digest(record.token_hash, wanted):
                return seat
        return None

    def _unique_name(self, wanted: str, seat: Seat) -> str:
        name = clean_talk(wanted)[:MAX_NAME] or f"#{seat + 1}"
        taken = {record.name.casefold() for record in self.seats if record.taken}
        base, number = name, 2
        while name.casefold() in taken:
            name = f"{base} {number}"
            number += 1
        return name

    # ---- acting ----------------------------------------------------------------------------

    def play(self, seat: Seat, frame: MoveFrame) -> Reason | None:
        """A move sent by the client of ``seat``: read through the game's notation (so the
        engine only ever sees moves the notation writes), then played. The move id it was
        played with is answered again, never played twice."""
        if frame.seat is not None and frame.seat != seat:
            return Reason.of("not_your_seat", seat=frame.seat)
        if frame.id == self.seats[seat].last_move:
            return None
        game = self.table.game
        try:
            sent = self.codec.decode(frame.move)
            move = game.parse_move(seat, game.format_move(sent))
        except (WireError, ValueError, TypeError, AttributeError, KeyError, IndexError):
            return Reason.of("move_malformed")
        return self.play_move(seat, move, frame.id)

    def play_move(self, seat: Seat, move: Hashable, move_id: str = "") -> Reason | None:
        """Play ``move`` for ``seat``: ``None`` once committed and sent, else why not."""
        if not self.started:
            return Reason.of("table_not_started")
        if seat not in self.table.seating.people:
            return Reason.of("not_your_turn")
        refused: list[Reason] = []

        def move_it() -> None:
            reason = self.table.play(seat, move)
            if reason is not None:
                refused.append(reason)
            else:
                self.seats[seat].last_move = move_id or self.seats[seat].last_move

        self._change(move_it)
        return refused[0] if refused else None

    def say(self, seat: Seat, text: str) -> Reason | None:
        """A line of talk from ``seat``, to everyone."""
        line = clean_talk(text)
        if not line:
            return Reason.of("talk_refused")
        said = Said(seat, self.seats[seat].name, line)
        self._change(lambda: self.table.publish([said]))
        return None

    def due(self) -> float | None:
        """Seconds until :meth:`act` has something to do; ``None`` when only people can."""
        if not self.started or self.over:
            return None
        now = self.clock()
        waits: list[float] = []
        if self.resting_until > now:
            return self.resting_until - now
        for seat, since in self.away_since.items():
            if seat in self.table.seating.people:
                waits.append(since + self.settings.away - now)
        if self.table.timed_seat() is not None:
            waits.append(CLOCK_POLL)
        if self.table.bot_due() is not None:
            waits.append(self.last_change + self.settings.pace - now)
        return max(0.0, min(waits)) if waits else None

    def act(self) -> None:
        """Do what is due: bots standing in for players away too long, the turn clock,
        then one bot move once the pace allows. Never raises: a change that failed left
        the room as the store last had it (see :meth:`_change`), and the room rests a
        while before trying again."""
        try:
            self._act()
        except Refusal:
            self.resting_until = self.clock() + PAUSE_AFTER_FAILURE

    def _act(self) -> None:
        now = self.clock()
        if not self.started or self.over or self.resting_until > now:
            return
        for seat, since in list(self.away_since.items()):
            if seat in self.table.seating.people and now - since >= self.settings.away:
                del self.away_since[seat]
                self._change(functools.partial(self._stand_in, seat))
        if self.table.timed is not None:
            self._change(self.table.tick)
        if self.table.bot_due() is not None \
                and now - self.last_change >= self.settings.pace:
            self._change(self.table.bot_move)

    def _stand_in(self, seat: Seat) -> None:
        self.table.stand_in(seat, self.settings.stand_in_bot)
        self.table.publish([StoodIn(seat, self.seats[seat].name)])

    # ---- changes: committed, then sent -------------------------------------------------------

    def _listen(self, seat: Seat, events: Sequence[Event]) -> None:
        self._heard[seat].extend(events)

    def _change(self, change: Callable[[], object]) -> None:
        """Run ``change``; whatever it made the table tell is committed as one change, then
        sent to every seat. When the change or its commit fails, the room goes back to what
        the store holds and :class:`Refusal` says why (``server_error``, ``store_failed``).
        """
        self._heard = [[] for _ in range(self.table.players)]
        try:
            change()
        except Exception:
            log.exception("table %s: a change failed; back to the last one saved", self.code)
            self._reload()
            raise Refusal("server_error") from None
        heard, self._heard = self._heard, [[] for _ in range(self.table.players)]
        if not any(heard):
            return
        self.seq += 1
        encoded = [self.codec.encode(tuple(events)) for events in heard]
        for seat, reader in self.web_seats.items():
            reader.hear(heard[seat])
        try:
            self.store.commit(self.code, self.seq, self.to_dict(), encoded, self.over)
        except sqlite3.Error as error:
            log.error("table %s: change %d not committed (%s); back to the last one",
                      self.code, self.seq, error)
            self._reload()
            raise Refusal("store_failed") from None
        self.last_change = self.clock()
        company = self.codec.encode(self.seat_states())
        for seat, peers in self.peers.items():
            braille = [peer for peer in peers if not peer.web]
            if braille:
                news = write_frame("news", seq=self.seq, events=encoded[seat],
                                   state=self.state_of(seat, company))
                for peer in braille:
                    peer.send(news)
        if not self._routing:
            self._send_screens(self._web_peers())

    def _web_peers(self) -> list[Peer]:
        return [peer for peers in self.peers.values() for peer in peers if peer.web]

    def _send_missed(self, peer: Peer, since: int) -> None:
        """What ``peer`` missed since change ``since``, then where the table is now."""
        if peer.web:
            peer.told = min(since, len(self.web_seats[peer.seat].history.sentences))
            self.send_screen(peer)
            return
        for seq, events in self.store.changes(self.code, peer.seat, since):
            peer.send(write_frame("news", seq=seq, events=events))
        peer.send(write_frame("news", seq=self.seq, events=[], state=self.state_of(peer.seat)))

    # ---- web seats: worded on the server -----------------------------------------------------

    def _web_seat(self, seat: Seat) -> TableSeat:
        """The server's reader of a web seat, made once (it hears every change since)."""
        reader = self.web_seats.get(seat)
        if reader is not None:
            return reader
        record = self.seats[seat]
        saved = record.reader
        history = History.from_dict(saved) if saved is not None else History()
        reader = TableSeat(RoomLink(self, seat), self.settings.game, record.lang,
                           history=history)
        self.web_seats[seat] = reader
        if saved is None:
            for _, events in self.store.changes(self.code, seat, 0):
                reader.hear(self.codec.decode(events))
        return reader

    def send_screen(self, peer: Peer) -> None:
        """A web seat's screen and the messages it has not been told, in its language."""
        reader = self._web_seat(peer.seat)
        if reader.lang != self.seats[peer.seat].lang:
            reader.set_lang(self.seats[peer.seat].lang)
        lines = reader.lines()
        number = (peer.screen[0] + 1) if peer.screen else 1
        peer.screen = (number, lines)
        texts = reader.history.sentences
        told, peer.told = peer.told, len(texts)
        newest = reader.history.newest
        flash = reader.shown_at_once()
        # What the page says at once: the summary the seat put before its reader (a jump to
        # the messages), or what it shows at once (a refusal): each told once, by number.
        peer.send(write_frame(
            "screen", seq=self.seq, number=number, focus=reader.focus, first=told,
            messages=texts[told:], lines=frame_lines(lines, reader.lang),
            table=picture(reader, lines), over=self.over, started=self.started,
            jump=reader.last_jump().number, newest=newest.text if newest else "",
            flash=None if flash is None else {"number": flash.number, "text": flash.text}))

    def _send_screens(self, peers: Sequence[Peer]) -> None:
        for peer in peers:
            self.send_screen(peer)

    def route(self, peer: Peer, frame: RouteFrame) -> None:
        """A web page routed a region of the screen it was sent: what a routing key does.

        The path of a click, top to bottom: the page's seat (its :class:`TableSeat`) acts
        on the region's target; a move goes through :class:`RoomLink` to :meth:`play_move`,
        the table core and the engine, and :meth:`_change` commits it and sends the braille
        seats their news; once the seat is done (its focus may move to a question), every
        page gets its screen, once: all of them after a change, else this one."""
        if peer.screen is None or peer.screen[0] != frame.screen:
            raise Refusal("screen_stale")
        row, _, column = frame.target.partition(".")
        try:
            region = peer.screen[1][int(row)].regions[int(column)]
        except (ValueError, IndexError):
            raise Refusal("frame_invalid", field="target") from None
        reader = self._web_seat(peer.seat)
        before = self.seq
        self._routing = True
        try:
            reader.clear_flash()  # a click clears what was shown at once, as a key does
            if peer.screen[1][int(row)].key == MESSAGE_LINE:
                reader.read_on()
            else:
                reader.route(region.target)
        finally:
            self._routing = False
        self._send_screens(self._web_peers() if self.seq != before else [peer])
