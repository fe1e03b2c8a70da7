"""One table held by the server: the table core, who sits where, the secret keys of the
seats, presence and talk, the bots' pace, and the store every change goes to first.

A room knows no socket: its peers are anything that can be sent a frame. Every change (a
move, a seat taken, a player gone or back, a bot standing in, a line of talk, the turn
clock) is committed to the store before it is sent to anyone, each seat getting only its own
share (``events_for``) and, with it, its view and legal moves; a peer is attached to its
seat only once the seat is committed. The store keeps a change as a row of the table's log,
written as the room plays it again (``["play", 1, "r7", "m12"]``, ``["bot"]``), and the
room's whole state only every :data:`SNAPSHOT_EVERY` changes, at the game's end and on a
quiet table (:meth:`Room.settle`); a room is loaded as its last snapshot with the log after
it played again: the same game, the same bots' memory and random state. Web seats get their
screen worded on the server, in their language (:meth:`Room.send_screen`): a new screen when
it changed, else only the new sentences, from a history of bounded length.

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
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from brailledev.network.protocol import Hello, MoveFrame, RouteFrame, write_frame, write_news
from brailledev.network.store import (
    Result,
    Shares,
    StoreConflict,
    StoreFailed,
    TableDamaged,
    TableStore,
    dump,
)
from brailledev.network.web.picture import frame_lines, picture
from brailledev.network.wire import Codec, WireError, codec_for
from brailledev.table.core import DEFAULT_BOT, Table, TimeLeft
from brailledev.table.history import History
from brailledev.table.presence import (
    SEAT_BOT,
    SEAT_FREE,
    SEAT_PERSON,
    Back,
    Gone,
    Left,
    Said,
    SatDown,
    SeatState,
    Started,
    StoodIn,
    TableSeat,
    clean_talk,
)
from games import saved as check
from games.core import Event, Json, Reason, Seat, events_for
from layouts.catalog import LANGUAGES
from layouts.screen import MESSAGE_LINE, Context, Line, Messages

AWAY = 120.0  # seconds a player may be away before a bot plays for them
PACE = 1.5  # seconds between two bot moves, as ``play``'s
CLOCK_POLL = 0.25  # seconds between two looks at a running turn clock
PAUSE_AFTER_FAILURE = 10.0  # seconds a room rests after something failed in it
MAX_NAME = 20
TOKEN_BYTES = 24
# Move ids each seat keeps with the table: more than the store's log holds of all seats'
# moves (``HISTORY`` before the last snapshot, fewer than ``SNAPSHOT_EVERY`` after it), so an
# id resent after a lost connection is known here or is older than anything kept.
MOVE_IDS = 256
# Sentences a web seat's history keeps on the server: what a page coming back is sent at
# most (about 60 KB), and all the memory a page's reader takes for them.
KEPT_SENTENCES = 400
# Changes between two snapshots of the room's whole state (a table's log is played again
# from its last one when the table is loaded): 25 moves of a heuristic bot take some
# milliseconds to play again, a snapshot at every move was a third of the server's time.
SNAPSHOT_EVERY = 25
QUIET = 30.0  # seconds without a change after which a table's log is folded into a snapshot

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
    send it a frame (a web page's: the screen (number, lines, focus) and picture it was last
    sent, the numbers of the seat's jump and of what it showed at once then, and how many
    sentences it was told; a braille seat's: the protocol it speaks, the view it was last
    told whole or in changes and the seats' JSON it was last told, and the id of the last
    move whose answer its news carried)."""

    seat: Seat
    web: bool
    protocol: int
    view: Any
    seats: str
    answered: str
    screen: tuple[int, tuple[Line, ...], str] | None
    drawn: Json
    said: tuple[int, int | None] | None
    told: int

    def send(self, text: str) -> None: ...

    def drop(self) -> None:
        """Close the connection once the frames queued went out (the client comes back)."""


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
    bot's; the ids of the last ``MOVE_IDS`` moves played from it. (A web seat's reader is
    not kept: it is heard again from the table's changes when the page comes, so a line of
    talk does not store every page's history again.)"""

    kind: str
    name: str = ""
    token_hash: str = ""
    lang: str = "en"
    moves: list[str] = field(default_factory=list)

    @property
    def taken(self) -> bool:
        return self.kind == SEAT_PERSON and bool(self.token_hash)

    @classmethod
    def from_dict(cls, data: object, at: str) -> SeatRecord:
        """A seat as :meth:`Room.to_dict` stored it, every field checked (brailledev 0.1
        kept only the last move's id, ``last_move``, and a web seat's ``reader``, heard
        again now): :class:`games.core.BadState` names the one at fault."""
        saved = check.need_dict(data, at)
        known = {"kind", "name", "token_hash", "lang", "moves", "reader", "last_move"}
        check.ensure(set(saved) <= known, at, "unknown_field")
        last = check.text(saved.get("last_move", ""), f"{at}.last_move")
        moves = saved.get("moves", [last] if last else [])
        return cls(check.text(check.field(saved, "kind", at), f"{at}.kind",
                              (SEAT_PERSON, SEAT_BOT)),
                   check.text(saved.get("name", ""), f"{at}.name"),
                   check.text(saved.get("token_hash", ""), f"{at}.token_hash"),
                   check.text(saved.get("lang", "en"), f"{at}.lang", LANGUAGES),
                   check.each(moves, f"{at}.moves", MOVE_IDS, check.text))


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


class PageReader(TableSeat):
    """The server's reader of a web seat. A page is sent the sentences themselves, never
    the message line: that line stays empty here (worded, it would hold the whole summary
    the other players' talk gathers, rebuilt word by word at every line of it). Its
    sentences name cards as the box prints them ("Cy plays blue 6."), for the sighted
    person at the page; its screen's lines keep the labels the page shows in braille."""

    def __init__(self, link: RoomLink, game: str, lang: str, history: History) -> None:
        super().__init__(link, game, lang, history=history)
        self.catalog = self.catalog.in_print()

    def set_lang(self, lang: str) -> None:
        super().set_lang(lang)
        self.catalog = self.catalog.in_print()

    def context(self) -> Context:
        return replace(super().context(), messages=Messages())

    def lines(self) -> tuple[Line, ...]:
        return tuple(Line(MESSAGE_LINE, ()) if line.key == MESSAGE_LINE else line
                     for line in super().lines())


class Room:
    """A table held by the server; see the module docstring."""

    def __init__(self, code: str, settings: Settings, table: Table, seats: list[SeatRecord],
                 store: TableStore, seq: int = 1, started: bool = False,
                 clock: Callable[[], float] = time.monotonic,
                 snapshot_every: int = SNAPSHOT_EVERY) -> None:
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
        # Another process moved the table on (a shared store): this one lets it go.
        self.lost = False
        self.web_seats: dict[Seat, PageReader] = {}
        self._heard: list[list[Event]] = []
        self._played: tuple[Seat, str] | None = None  # the seat and id of a move being made
        self._silent = False  # a change being made changed the table and told nobody
        self._arriving: Seat | None = None  # a seat whose peer is attached once committed
        # While a web page's routing runs, its changes leave the pages' screens to it.
        self._routing = False
        # The seats' states last told, and their JSON: the same at most changes.
        self._company: tuple[tuple[SeatState, ...], str] = ((), "")
        self.snapshot_every = snapshot_every
        self._adopt(table, seats, seq, started)
        # Nobody is connected to a room just made or loaded: every taken seat is away.
        for seat, record in enumerate(seats):
            if record.taken:
                self.away_since[seat] = clock()

    def _adopt(self, table: Table, seats: list[SeatRecord], seq: int, started: bool) -> None:
        self.table = table
        self.seats = seats
        self.seq = seq
        self.snapshot_seq = seq  # the change the store's last snapshot of the room is at
        self.started = started
        self._heard = [[] for _ in range(table.players)]
        table.listen(self._listen)
        self.web_seats = {}  # made again when a page needs one (heard from the changes)

    # ---- making, saving, loading ---------------------------------------------------------

    @classmethod
    def create(cls, code: str, settings: Settings, store: TableStore,
               clock: Callable[[], float] = time.monotonic,
               snapshot_every: int = SNAPSHOT_EVERY) -> Room:
        """A new table, stored with what its deal told each seat (change number 1)."""
        table = Table.new(settings.game, settings.players, settings.seed,
                          people=range(settings.people), bots=settings.bots,
                          options=settings.options, clock=clock)
        seats = [SeatRecord(SEAT_PERSON if seat < settings.people else SEAT_BOT)
                 for seat in range(settings.players)]
        room = cls(code, settings, table, seats, store, clock=clock,
                   snapshot_every=snapshot_every)
        start = table.start_events
        store.create(code, settings.game, room.to_dict(),
                     [room.codec.encode(tuple(events_for(start, seat)))
                      for seat in range(table.players)])
        return room

    @classmethod
    def load(cls, code: str, store: TableStore,
             clock: Callable[[], float] = time.monotonic,
             snapshot_every: int = SNAPSHOT_EVERY) -> Room | None:
        """The table ``code`` as the store last committed it (its last snapshot, the log
        after it played again), ``None`` if there is none;
        :class:`brailledev.network.store.TableDamaged` if what is stored cannot be read."""
        found = store.load(code)
        if found is None:
            return None
        # Whatever a damaged row makes the reading raise, that table alone is refused.
        try:
            settings = Settings.from_dict(found.state["settings"])
            table, seats, started = _restored(found.state, clock)
            room = cls(code, settings, table, seats, store, found.at, started, clock,
                       snapshot_every)
        except Exception as error:
            raise TableDamaged(code, str(error) or type(error).__name__) from None
        room._replay(found.log)
        for seat, record in enumerate(room.seats):
            if record.taken:
                room.away_since.setdefault(seat, clock())
        return room

    def to_dict(self) -> dict[str, Any]:
        """What the store keeps of the room (the sequence number apart)."""
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
        try:
            table, seats, started = _restored(found.state, self.clock)
            self._adopt(table, seats, found.at, started)
        except Exception as error:
            raise TableDamaged(self.code, str(error) or type(error).__name__) from None
        self._replay(found.log)

    def _replay(self, log: Sequence[tuple[int, Json]]) -> None:
        """Play again the changes of the table's log after its snapshot, as they were
        played (:class:`brailledev.network.store.TableDamaged` if one cannot be)."""
        replays: dict[str, Callable[..., Json]] = {
            "play": self._play_again, "bot": self._bot_move, "tick": self._tick_again,
            "sit": self._sit_down, "back": self._come_back, "away": self._away,
            "say": self._said, "stand_in": self._stand_in}
        for seq, change in log:
            try:
                kind, *values = change
                replays[kind](*values)
            except Exception as error:
                raise TableDamaged(self.code, f"change {seq}: {error!r}") from None
            self.seq = seq
        self._heard = [[] for _ in range(self.table.players)]

    def quiet_in(self) -> float | None:
        """Seconds until the table has been quiet long enough to :meth:`settle`; ``None``
        when its last snapshot is its last change."""
        if self.seq == self.snapshot_seq:
            return None
        return max(0.0, self.last_change + QUIET - self.clock())

    def settle(self) -> None:
        """The room's whole state as a snapshot in the store, if changes came since the
        last one (a quiet table, a table leaving memory, a server stopping): its log is
        played again no more. A table another process moved on is :attr:`lost`."""
        if self.seq == self.snapshot_seq:
            return
        try:
            self.store.snapshot(self.code, self.seq, self.to_dict())
        except StoreConflict:
            self.lost = True
            return
        except StoreFailed:
            self.last_change = self.clock()  # tried again once quiet as long again
            return
        self.snapshot_seq = self.seq

    def result(self) -> Result | None:
        """How the game went, as the table's record keeps it (``None``: it never began)."""
        if not self.started:
            return None
        return Result(tuple((state.name, state.kind) for state in self.seat_states()),
                      tuple(self.table.game.scores()), self.over)

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
                here = bool(self.peers.get(seat)) or seat == self._arriving
                states.append(SeatState(record.name, SEAT_PERSON, here,
                                        seat not in self.table.seating.people))
        return tuple(states)

    def _company_json(self) -> str:
        """:meth:`seat_states` in the wire's JSON, written again only when they changed
        (someone came, went or was stood in for)."""
        states = self.seat_states()
        if states != self._company[0]:
            self._company = (states, dump(self.codec.encode(states)))
        return self._company[1]

    def can_act(self, seat: Seat) -> bool:
        """Whether ``seat``'s person may move now (the game begun, their turn or a catch,
        no bot standing in)."""
        game = self.table.game
        return self.started and not game.is_over() and seat in game.actors() \
            and seat in self.table.seating.people

    def state_of(self, peer: Peer) -> dict[str, Json]:
        """What the client of braille seat ``peer`` keeps of the table: view (whole: the
        view its next news changes), legal moves, position, and the seats."""
        view = peer.view = self.table.view(peer.seat)
        peer.seats = ""  # told as a value here: the next news tells them as JSON again
        return {"view": self.codec.encode(view), **self._own_state(peer.seat),
                "seats": self.codec.encode(self.seat_states())}

    def _own_state(self, seat: Seat) -> dict[str, Json]:
        """:meth:`state_of` but the view and the seats."""
        actor = self.can_act(seat)
        return {"legal": self.codec.encode(tuple(self.table.legal(seat))) if actor else [],
                "position": self.table.moves, "actor": actor,
                "time_left": self.table.time_left(seat) if self.started else None,
                "over": self.over, "started": self.started}

    def _news(self, seat: Seat, peers: Sequence[Peer], events: str, company: str,
              played: tuple[Seat, str] | None) -> None:
        """A change's news to the braille ``peers`` of ``seat``: its ``events`` and the
        seats (``company``) in JSON already; the seat's view whole, or in protocol 2 as
        what changed since the view the connection was told last (and the seats only when
        they changed since), with the answer to its move if ``played`` was one of the
        seat's."""
        view = self.table.view(seat)
        own = self._own_state(seat)
        whole: str | None = None
        answer = played[1] if played is not None and played[0] == seat else None
        for peer in peers:
            if peer.protocol < 2:
                if whole is None:
                    whole = write_news(self.seq, events,
                                       {"view": self.codec.encode(view), **own}, company)
                peer.send(whole)
                continue
            changes = None if peer.view is None else self.codec.encode_changes(view, peer.view)
            told = {"view": self.codec.encode(view)} if changes is None \
                else {"view_changes": changes}
            # The seats as they were told last, with a view's changes: left out.
            seats = None if changes is not None and company is peer.seats else company
            peer.view, peer.seats = view, company
            if answer is not None:
                peer.answered = answer
            peer.send(write_news(self.seq, events, {**told, **own}, seats, answer))

    # ---- seats -----------------------------------------------------------------------------

    def sit(self, hello: Hello, peer: Peer) -> tuple[Seat, str | None]:
        """Sit ``peer`` down: at its seat again with its key, else at the free seat it asked
        for or the next free one (a new key, or the one ``hello`` drew, returned once; again
        with the seat that key took if the first welcome was lost). Sends it what it missed; a
        refusal is a :class:`Refusal`. The seat taken (or taken back) is committed before
        ``peer`` is attached to it: a commit that fails leaves it unseated, told why, and sent
        nothing of the seat."""
        # A hello sent again after its welcome was lost: the seat its key took already.
        again = None if hello.key is None else self._seat_of(hello.key)
        if hello.token is not None:
            seat = self._seat_of(hello.token)
            if seat is None:
                raise Refusal("wrong_token")
            token = None
        elif again is not None:
            seat, token = again, None
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
            token = hello.key or secrets.token_urlsafe(TOKEN_BYTES)
        returning = not self.peers.get(seat) and (
            seat in self.told_gone or seat not in self.table.seating.people)
        self._arriving = seat  # the others are told the seat is connected
        try:
            if token is not None:
                self._change(functools.partial(self._sit_down, seat, hash_token(token),
                                               self._unique_name(hello.name, seat),
                                               hello.lang))
            elif returning:
                self._change(functools.partial(self._come_back, seat))
                self.told_gone.discard(seat)
        finally:
            self._arriving = None
        self.seats[seat].lang = hello.lang
        peer.seat = seat
        self.peers.setdefault(seat, []).append(peer)
        self.away_since.pop(seat, None)
        if peer.web:
            self._web_seat(seat)
        if again is not None:
            token = hello.key  # the client may not know that this key took the seat
        peer.send(write_frame("welcome", seat=seat, token=token, code=self.code,
                              game=self.settings.game, players=self.table.players))
        self._send_missed(peer, hello.since)
        return seat, token

    def _sit_down(self, seat: Seat, token_hash: str, name: str, lang: str) -> Json:
        record = self.seats[seat]
        record.token_hash, record.name, record.lang = token_hash, name, lang
        missing = sum(1 for each in self.seats if each.kind == SEAT_PERSON and not each.taken)
        events: list[Event] = [SatDown(seat, record.name, missing)]
        if not missing:
            self.started = True
            events.append(Started())
        self.table.publish(events)
        return ["sit", seat, token_hash, name, lang]

    def _come_back(self, seat: Seat) -> Json:
        self.table.take_back(seat)
        self.table.publish([Back(seat, self.seats[seat].name)])
        return ["back", seat]

    def _away(self, seat: Seat, on_purpose: bool) -> Json:
        away = Left if on_purpose else Gone
        self.table.publish([away(seat, self.seats[seat].name)])
        return ["away", seat, on_purpose]

    def leave(self, peer: Peer, quietly: bool = False, on_purpose: bool = False) -> None:
        """``peer`` is gone; when it was its seat's last, the seat is away from now on, and
        everyone is told unless ``quietly`` (the server itself is stopping): that its person
        left when ``on_purpose`` (a ``leave`` frame), else that the connection was lost."""
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
            self._change(functools.partial(self._away, seat, on_purpose))

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
        if frame.id in self.seats[seat].moves:
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

        def move_it() -> Json:
            text = self.table.game.format_move(move)
            reason = self.table.play(seat, move)
            if reason is not None:
                refused.append(reason)
            elif move_id:
                self._played = (seat, move_id)
            return ["play", seat, text, move_id]

        self._change(move_it)
        return refused[0] if refused else None

    def _play_again(self, seat: Seat, text: str, move_id: str) -> Json:
        reason = self.table.play(seat, self.table.game.parse_move(seat, text))
        if reason is not None:
            raise ValueError(f"{text} refused: {reason.code}")
        if move_id:
            self._remember(seat, move_id)
        return ["play", seat, text, move_id]

    def _remember(self, seat: Seat, move_id: str) -> None:
        ids = self.seats[seat].moves
        ids.append(move_id)
        del ids[:-MOVE_IDS]

    def say(self, seat: Seat, text: str) -> Reason | None:
        """A line of talk from ``seat``, to everyone."""
        line = clean_talk(text)
        if not line:
            return Reason.of("talk_refused")
        self._change(functools.partial(self._said, seat, line))
        return None

    def _said(self, seat: Seat, line: str) -> Json:
        self.table.publish([Said(seat, self.seats[seat].name, line)])
        return ["say", seat, line]

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
        except (Refusal, StoreFailed, TableDamaged):
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
            self._change(self._tick)
        if self.table.bot_due() is not None \
                and now - self.last_change >= self.settings.pace:
            self._change(self._bot_move)

    def _stand_in(self, seat: Seat) -> Json:
        self.table.stand_in(seat, self.settings.stand_in_bot)
        self.table.publish([StoodIn(seat, self.seats[seat].name)])
        return ["stand_in", seat]

    def _bot_move(self) -> Json:
        # Bots asked whether they act (Uno's catch) and declining change the table (asked
        # once a position, their random state) without a word to anyone: logged all the same.
        self._silent = not self.table.bot_move()
        return ["bot"]

    def _tick(self) -> Json:
        """The turn clock kept; logged as what it told the seat (the seconds left at each
        mark, 0: time up) and the clock then, as it cannot be played again later."""
        seat = self.table.timed_seat()
        self.table.tick()
        marks = [] if seat is None else [
            event.seconds for event in self._heard[seat] if type(event) is TimeLeft]
        return ["tick", seat, marks, self.table.timer.to_dict()]

    def _tick_again(self, seat: Seat, marks: list[int], clock: Json) -> Json:
        self.table.tell_time(seat, marks)
        self.table.timer.restore(clock)
        return ["tick", seat, marks, clock]

    # ---- changes: committed, then sent -------------------------------------------------------

    def _listen(self, seat: Seat, events: Sequence[Event]) -> None:
        self._heard[seat].extend(events)

    def _change(self, change: Callable[[], Json]) -> None:
        """Run ``change``, which returns itself as the log keeps it (how :meth:`_replay`
        plays it again); whatever it made the table tell is committed as one change, with a
        snapshot of the room every :data:`SNAPSHOT_EVERY` changes and at the game's end,
        then sent to every seat. When the change or its commit fails, the room goes back to
        what the store holds and :class:`Refusal` says why (``server_error``,
        ``store_failed``)."""
        self._heard = [[] for _ in range(self.table.players)]
        self._played, self._silent = None, False
        try:
            logged = change()
        except Exception:
            log.exception("table %s: a change failed; back to the last one saved", self.code)
            self._reload()
            raise Refusal("server_error") from None
        heard, self._heard = self._heard, [[] for _ in range(self.table.players)]
        played, self._played = self._played, None
        if not any(heard) and not self._silent:
            return
        self.seq += 1
        shares = self._shares(heard)
        for seat, reader in self.web_seats.items():
            reader.hear(heard[seat])
        if played is not None:
            self._remember(*played)
        snapshot = self.over or self.seq - self.snapshot_seq >= self.snapshot_every
        try:
            self.store.commit(self.code, self.seq, logged, shares, self.over, played,
                              self.to_dict() if snapshot else None)
        except StoreConflict:
            log.error("table %s: change %d was committed already; back to the last one",
                      self.code, self.seq)
            self.lost = True
            self._reload()
            raise Refusal("server_error") from None
        except StoreFailed:
            # The server logs the store's failures, once a minute.
            self._reload()
            raise Refusal("store_failed") from None
        if snapshot:
            self.snapshot_seq = self.seq
        if not any(heard):
            return
        self.last_change = self.clock()
        company = self._company_json()
        # Talk changes no screen: a page is sent the new sentences alone.
        talk = all(type(event) is Said for events in heard for event in events)
        for seat, peers in self.peers.items():
            braille = [peer for peer in peers if not peer.web]
            if braille:
                self._news(seat, braille, shares.texts[seat], company, played)
        if not self._routing:
            self._send_screens(self._web_peers(), talk)

    def _shares(self, heard: Sequence[Sequence[Event]]) -> Shares:
        """Each seat's events of a change in the wire's JSON, encoded once for all the seats
        told the same (a public move is the same event objects for every seat)."""
        texts: dict[tuple[int, ...], str] = {}
        shares = []
        for events in heard:
            key = tuple(map(id, events))
            text = texts.get(key)
            if text is None:
                text = texts[key] = dump(self.codec.encode(tuple(events)))
            shares.append(text)
        return Shares(tuple(shares))

    def _web_peers(self) -> list[Peer]:
        return [peer for peers in self.peers.values() for peer in peers if peer.web]

    def _send_missed(self, peer: Peer, since: int) -> None:
        """What ``peer`` missed since change ``since``, then where the table is now."""
        if peer.web:
            peer.told = min(since, self.web_seats[peer.seat].history.told)
            self.send_screen(peer)
            return
        for seq, events in self.store.changes(self.code, peer.seat, since):
            peer.send(write_frame("news", seq=seq, events=events))
        peer.send(write_frame("news", seq=self.seq, events=[], state=self.state_of(peer)))

    # ---- web seats: worded on the server -----------------------------------------------------

    def _web_seat(self, seat: Seat) -> PageReader:
        """The server's reader of a web seat, made once from every change the seat was
        told (it hears every change after)."""
        reader = self.web_seats.get(seat)
        if reader is not None:
            return reader
        reader = PageReader(RoomLink(self, seat), self.settings.game, self.seats[seat].lang,
                            history=History(most=KEPT_SENTENCES))
        for _, events in self.store.changes(self.code, seat, 0):
            reader.hear(self.codec.decode(events))
        self.web_seats[seat] = reader
        return reader

    def send_screen(self, peer: Peer, talk: bool = False) -> None:
        """A web seat's screen and the sentences it has not been told, in its language;
        only those sentences (a ``messages`` frame) when the screen, its focus and the
        picture did not change, as after ``talk`` (the page's message line stays empty)."""
        reader = self._web_seat(peer.seat)
        if reader.lang != self.seats[peer.seat].lang:
            reader.set_lang(self.seats[peer.seat].lang)
        history = reader.history
        told = max(peer.told, history.dropped)
        texts = history.sentences[told - history.dropped:]
        peer.told = history.told
        lines = peer.screen[1] if talk and peer.screen is not None else reader.lines()
        drawn = peer.drawn if talk and peer.screen is not None else picture(reader, lines)
        jump, flash = reader.last_jump(), reader.shown_at_once()
        said = (jump.number, None if flash is None else flash.number)
        if peer.screen is not None and peer.screen[1:] == (lines, reader.focus) \
                and peer.drawn == drawn and peer.said == said:
            if texts:
                peer.send(write_frame("messages", seq=self.seq, first=told, messages=texts))
            return
        number = (peer.screen[0] + 1) if peer.screen else 1
        peer.screen, peer.drawn, peer.said = (number, lines, reader.focus), drawn, said
        newest = reader.history.newest
        # What the page says at once: the summary the seat put before its reader (a jump to
        # the messages), or what it shows at once (a refusal): each told once, by number.
        peer.send(write_frame(
            "screen", seq=self.seq, number=number, focus=reader.focus, first=told,
            messages=texts, lines=frame_lines(lines, reader.lang), table=drawn,
            over=self.over, started=self.started, jump=jump.number,
            newest=newest.text if newest else "",
            flash=None if flash is None else {"number": flash.number, "text": flash.text}))

    def _send_screens(self, peers: Sequence[Peer], talk: bool = False) -> None:
        for peer in peers:
            self.send_screen(peer, talk)

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


def _restored(data: Json, clock: Callable[[], float]) -> tuple[Table, list[SeatRecord], bool]:
    """The table, seats and whether the game began, from a room's snapshot (its
    :meth:`Room.to_dict`), every field checked."""
    table = Table.from_dict(data["table"], clock=clock)
    seats = [SeatRecord.from_dict(record, f"seats.{seat}")
             for seat, record in enumerate(check.items(data["seats"], "seats", table.players,
                                                       table.players))]
    return table, seats, check.flag(data["started"], "started")
