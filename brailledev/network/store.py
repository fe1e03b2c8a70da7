"""The table server's store: what every store keeps and promises, whatever holds it.

A change (a move, a bot's move, a seat taken, a line of talk) is one transaction: a row of
the table's log under the next sequence number, holding the change as the room plays it
again (``["play", 1, "r7", "m12"]``), the change as each seat may learn it, and the id of
the move a person played, if it was one. The table's whole state is written only now and
then (a snapshot: every few changes, at the game's end, on a quiet table), and the log
before a snapshot is pruned but for the last :data:`HISTORY` changes (what a seat coming
back is sent of what it missed). A table is read back as its last snapshot and the log
after it (:class:`Stored`), which the room plays again. The server broadcasts a change only
once it is committed, so a server killed at any moment comes back with every table as its
players last saw it.

Tables have a life: one nobody sat at (its only change the deal) expires, a finished or
long untouched one is retired into a short :class:`Record` (players, scores, dates) and its
state and changes are dropped, and records go after a while too; so the store never grows
without bound. A store that cannot do something now (a full disk, another process holding
the database) raises :class:`StoreFailed`; a table whose row cannot be read raises
:class:`TableDamaged` for that table alone.

SQLite (:mod:`brailledev.network.store_sqlite`) is the store of one process; a second kind
(PostgreSQL, for several) implements :class:`TableStore` and is chosen by its address in
:func:`brailledev.network.stores.open_store`.

    store = open_store(Path("tables.db"))
    store.create("tkrzvmbcdfgh", "uno", state, start_events)
    store.commit("tkrzvmbcdfgh", 2, ["play", 1, "r7", "c7-12"], events, over=False,
                 move=(1, "c7-12"))
    store.commit("tkrzvmbcdfgh", 3, ["bot"], events, over=False, state=state)  # a snapshot
    store.load("tkrzvmbcdfgh")           # Stored(state, at=3, log=())
    store.changes("tkrzvmbcdfgh", seat=1, since=1)    # [(2, [...what seat 1 may learn...])]
"""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from brailledev.network.protocol import to_json
from games.core import Json, Seat

MT_WORDS = 625  # a Mersenne Twister's state as ``random.getstate`` gives it: 624 words, a position
DAY = 86_400.0
# Changes kept before a snapshot: what a seat coming back is sent of what it missed, and
# what a web page's history (400 sentences at most) is heard again from.
HISTORY = 200


class StoreFailed(Exception):
    """The store could not do this now (the disk full, the database held by another
    process, an I/O error); nothing was changed. ``retry`` is the seconds after which
    trying again makes sense: ``StoreFailed("database or disk is full", retry=5.0)``."""

    def __init__(self, detail: str, retry: float) -> None:
        super().__init__(detail)
        self.detail = detail
        self.retry = retry


class StoreConflict(Exception):
    """Change ``seq`` of table ``code`` was committed already (by this process or, with a
    shared store, another): this one is not, and the table is to be read again:
    ``StoreConflict("tkrzvmbcdfgh", 42)``."""

    def __init__(self, code: str, seq: int) -> None:
        super().__init__(f"{code}: change {seq} exists")
        self.code = code
        self.seq = seq


class TableDamaged(Exception):
    """Table ``code``'s row cannot be read (``detail`` says where); it is left as it is
    and refused alone: ``TableDamaged("tkrzvmbcdfgh", "seats.1.kind")``."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class Stored:
    """A table as a store holds it: ``state`` after change ``at`` (its last snapshot), then
    the log of the changes after it, ``(seq, change)`` in order, which the room plays again:
    ``Stored({"n": 2}, 3, ((4, ["bot"]),))``."""

    state: Json
    at: int
    log: tuple[tuple[int, Json], ...] = ()

    @property
    def seq(self) -> int:
        """The table's last change."""
        return self.log[-1][0] if self.log else self.at


def stored(code: str, state: str, at: int, log: Sequence[tuple[int, str | None]]) -> Stored:
    """A table read back from the text a store keeps (its snapshot, its log after it);
    :class:`TableDamaged` if it cannot be read or the log has a hole:
    ``stored("tkrzvm", '{"n":2}', 3, [(4, '["bot"]')])``."""
    try:
        state_read = unpack(json.loads(state))
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise TableDamaged(code, f"state: {error}") from None
    changes: list[tuple[int, Json]] = []
    for seq, change in log:
        if seq != at + len(changes) + 1 or change is None:
            raise TableDamaged(code, f"change {seq}: not in the log")
        try:
            changes.append((seq, json.loads(change)))
        except ValueError as error:
            raise TableDamaged(code, f"change {seq}: {error}") from None
    return Stored(state_read, at, tuple(changes))


@dataclass(frozen=True)
class Lifetimes:
    """How long tables and records are kept, in seconds: a table nobody sat at
    (``unjoined``), a finished one before it is retired into a record (``finished``), an
    unfinished one nobody touched (``idle``), and a record (``records``):
    ``Lifetimes(unjoined=3600.0)``."""

    unjoined: float = DAY
    finished: float = 3_600.0
    idle: float = 30 * DAY
    records: float = 365 * DAY

    @property
    def shortest(self) -> float:
        return min(self.unjoined, self.finished, self.idle, self.records)


@dataclass(frozen=True)
class Result:
    """How a game went: its players (name and kind, as
    :class:`brailledev.table.presence.SeatState` says), their scores, whether it was played
    to its end: ``Result((("Ann", "person"), ("", "bot")), (0, 57), over=True)``."""

    players: tuple[tuple[str, str], ...]
    scores: tuple[int, ...]
    over: bool


@dataclass(frozen=True)
class Record:
    """What is kept of a table once retired: its game's result, when it was made and when
    it last changed (seconds since the epoch)."""

    code: str
    game: str
    result: Result
    created: float
    ended: float


@dataclass(frozen=True)
class Census:
    """How many tables a store holds: ``waiting`` (nobody sat yet), ``playing`` (someone
    did, not over), ``finished`` (over, not yet retired) and ``records``."""

    waiting: int
    playing: int
    finished: int
    records: int

    @property
    def tables(self) -> int:
        return self.waiting + self.playing + self.finished


class TableStore(Protocol):
    """What the server asks of a store; every method may raise :class:`StoreFailed`.
    ``shared``: whether other server processes may hold and move on its tables too."""

    shared: bool

    def create(self, code: str, game: str, state: Json, events: Sequence[Json]) -> None:
        """A new table with its first change (number 1: what the deal told each seat)."""

    def commit(self, code: str, seq: int, change: Json, events: Sequence[Json] | Shares,
               over: bool, move: tuple[Seat, str] | None = None,
               state: Json | None = None) -> None:
        """Change number ``seq`` of table ``code`` in its log: the change as the room plays
        it again, its events (one list per seat, or :class:`Shares`), and the seat and id of
        the move it played; with ``state`` (the table after the change) a snapshot too, and
        the log pruned before it; :class:`StoreConflict` if that change exists already."""

    def snapshot(self, code: str, seq: int, state: Json) -> None:
        """A snapshot of table ``code`` after its last change, ``seq`` (a quiet table, a
        server stopping), and the log pruned before it; :class:`StoreConflict` if the table
        has moved on since."""

    def load(self, code: str) -> Stored | None:
        """Table ``code`` as its last snapshot and the log after it, ``None`` if there is
        none; :class:`TableDamaged` if what is stored cannot be read."""

    def record(self, code: str) -> Record | None:
        """The record of a retired table ``code``, ``None`` if there is none."""

    def exists(self, code: str) -> bool:
        """Whether ``code`` names a table or a record."""

    def in_play(self) -> list[str]:
        """The codes of the tables someone sat at and whose game is not over, oldest
        first (what a server starting takes up again)."""

    def changes(self, code: str, seat: Seat, since: int) -> list[tuple[int, Json]]:
        """The changes of table ``code`` after number ``since``, as ``seat`` learnt them."""

    def expire(self, now: float, lifetimes: Lifetimes, keep: Collection[str],
               most: int) -> int:
        """Drop up to ``most`` tables nobody sat at and records past their lifetimes (not
        the tables of ``keep``, held by the server); how many went."""

    def retirable(self, now: float, lifetimes: Lifetimes, keep: Collection[str],
                  most: int) -> list[str]:
        """Up to ``most`` codes of tables finished or untouched long enough to retire."""

    def retire(self, code: str, result: Result | None) -> None:
        """Keep a record of ``result`` (``None``: none, the game never began) in place of
        table ``code``, whose state and changes go."""

    def compact(self) -> None:
        """Give the room of what went back to the system."""

    def census(self) -> Census:
        """How many tables and records the store holds."""

    def secret(self) -> bytes:
        """The store's own secret, made once (what the server signs with, the same in
        every process sharing the store)."""

    def close(self) -> None:
        """Let go of the store."""


@runtime_checkable
class Watched(Protocol):
    """A shared store that tells each change as it commits, whichever process made it
    (PostgreSQL's notifications): a process holding a copy of a table another moved on
    lets it go at once instead of keeping its seats waiting for news that never comes."""

    async def listen(self, held: Callable[[], Collection[str]],
                     told: Callable[[str, int], None]) -> None:
        """``told(code, seq)`` for each change committed from now on; on each start of
        listening, first for each table of ``held()`` at the number it is at; until
        cancelled."""


def _is_random_state(value: Json) -> bool:
    return (type(value) is list and len(value) == 3 and value[0] == 3
            and type(value[1]) is list and len(value[1]) == MT_WORDS)


@dataclass(frozen=True)
class Shares:
    """What each seat was told of a change, each seat's share already as JSON text: encoded
    once for the seat's news and the store alike: ``Shares(('[{"$":"Said"}]', '[]'))``."""

    texts: tuple[str, ...]


def dump_events(events: Sequence[Json] | Shares) -> str:
    """A change's events, one list per seat, as the stores write them (see :func:`dump`); a
    seat told what an earlier seat was told is written as that seat's number (a public move
    is told alike to every seat: the row, a quarter as long at four seats, took a quarter off
    a commit): ``dump_events(Shares(("[1]", "[]", "[1]"))) == "[[1],[],0]"``."""
    if isinstance(events, Shares):
        first: dict[str, int] = {}
        parts = []
        for seat, text in enumerate(events.texts):
            earlier = first.setdefault(text, seat)
            parts.append(text if earlier == seat else str(earlier))
        return f"[{','.join(parts)}]"
    return dump(events)


def seat_events(per_seat: Json, seat: int) -> list[Json]:
    """What ``seat`` was told of a change, from its events as :func:`dump_events` wrote
    them (read back as JSON); a ValueError if they are not such:
    ``seat_events([[1], [], 0], 2) == [1]``; a seat past the list was told nothing."""
    if type(per_seat) is not list:
        raise ValueError("the events are not a list of seats")
    told = per_seat[seat] if seat < len(per_seat) else []
    if type(told) is int:
        if not 0 <= told < seat or type(per_seat[told]) is not list:
            raise ValueError(f"seat {seat} refers to seat {told}")
        told = per_seat[told]
    if type(told) is not list:
        raise ValueError(f"seat {seat}'s events are not a list")
    return told


def dump(data: Json) -> str:
    """``data`` as the stores write it: compact JSON, letters as they are, as the wire's
    (every kind of store keeps the same text): ``dump({"a": [1]}) == '{"a":[1]}'``."""
    return to_json(data)


def pack(data: Json) -> Json:
    """A state with each random generator's state (``[3, [625 words], gauss]``, the games'
    and the bots') as ``{"$rng": [base64 of the words, gauss]}``: a third of the size, and
    written many times faster than 625 numbers. Only dictionaries are walked: generator
    states are values of their keys."""
    if type(data) is not dict:
        return data
    packed: dict[str, Json] = {}
    for key, value in data.items():
        if _is_random_state(value):
            words = struct.pack(f"<{MT_WORDS}I", *value[1])
            value = {"$rng": [base64.b64encode(words).decode("ascii"), value[2]]}
        elif type(value) is dict:
            value = pack(value)
        packed[key] = value
    return packed


def unpack(data: Json) -> Json:
    """The state :func:`pack` was given."""
    if type(data) is not dict:
        return data
    if set(data) == {"$rng"}:
        words, gauss = data["$rng"]
        return [3, list(struct.unpack(f"<{MT_WORDS}I", base64.b64decode(words))), gauss]
    return {key: unpack(value) for key, value in data.items()}

