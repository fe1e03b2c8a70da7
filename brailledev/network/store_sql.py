"""What the SQL stores share: one text of each statement, run through a small
:class:`Dialect` (how a value is written in, how a list of codes is read as rows, the name
of the store's own table of keys), the rules of a write (one transaction; a failure rests
the writes a few seconds) and of a read; the records table's schema, with the dialect's
names of its types. :class:`SqlStore` is
:class:`brailledev.network.store.TableStore` but for how to connect, open a transaction,
make and upgrade the schema, and compact; :mod:`brailledev.network.store_sqlite` and
:mod:`brailledev.network.store_postgres` say those, and override a statement where their
database does it better (PostgreSQL commits a change in one round trip).

    class MyStore(SqlStore):
        dialect = Dialect(placeholder="?", listed="json_each(?)", meta="meta",
                          boolean="INTEGER", real="REAL")
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from brailledev.network.logs import QuietLog
from brailledev.network.store import (
    HISTORY,
    Census,
    Lifetimes,
    Record,
    Result,
    Shares,
    StoreConflict,
    Stored,
    StoreFailed,
    TableDamaged,
    dump,
    dump_events,
    pack,
    seat_events,
    stored,
)
from games.core import Json, Seat

REST = 5.0  # seconds writes are refused at once after one failed (the Retry-After)
log = logging.getLogger("brailledev.network.store")
T = TypeVar("T")
# The records of retired tables, the same in every store but for the names of two types.
RECORDS = """
CREATE TABLE records (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    scores TEXT NOT NULL,
    over {boolean} NOT NULL,
    created {real} NOT NULL,
    ended {real} NOT NULL
)"""


class Cursor(Protocol):
    """What the stores read of a statement run (sqlite3's cursor, psycopg's)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """What the stores ask of a database connection (sqlite3's, psycopg's)."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...


@dataclass(frozen=True)
class Dialect:
    """How a database spells what the stores' SQL leaves open: ``placeholder``, a value
    given apart (the texts are written with ``?``); ``listed``, a ``FROM`` item whose
    column ``value`` holds each text of a JSON list given as one value (the codes a server
    holds); ``meta``, the table of the store's own keys (its secret); ``boolean`` and
    ``real``, the names of those column types:
    ``Dialect(placeholder="%s", listed="json_array_elements_text(?::json) AS held(value)",
    meta="brailledev_meta", boolean="BOOLEAN", real="DOUBLE PRECISION")``."""

    placeholder: str
    listed: str
    meta: str
    boolean: str
    real: str

    def sql(self, text: str) -> str:
        """``text`` (``?`` for each value, ``{listed}``, ``{meta}``, ``{boolean}``,
        ``{real}``) in this dialect."""
        for name in ("listed", "meta", "boolean", "real"):
            text = text.replace(f"{{{name}}}", getattr(self, name))
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)


def first_line(error: BaseException) -> str:
    """A driver's message runs over several lines (a hint, the statement) in psycopg: the
    first says what happened: ``first_line(ValueError("gone\\nhint")) == "gone"``."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


class SqlStore:
    """A table store in an SQL database named ``name`` (its file or its address without
    a password, as messages give it); see the module docstring. A subclass gives its
    ``dialect``, its driver's ``error`` and ``conflict`` (a key already there) exception
    classes, ``_connection``, ``_transaction`` and ``compact``."""

    dialect: ClassVar[Dialect]
    error: ClassVar[type[Exception]]
    conflict: ClassVar[type[Exception]]
    shared: bool

    def __init__(self, name: str) -> None:
        self.name = name
        self.resting_until = 0.0
        self.failures = QuietLog(log)

    def _connection(self) -> Connection:
        """The connection, made again if it was lost."""
        raise NotImplementedError

    def _transaction(self, db: Connection) -> AbstractContextManager[object]:
        """One write transaction on ``db``: committed if its block ends, rolled back if
        it raises."""
        raise NotImplementedError

    def compact(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _run(self, db: Connection, text: str, *values: Any) -> Cursor:
        return db.execute(self.dialect.sql(text), values)

    # ---- failures --------------------------------------------------------------------------

    @contextmanager
    def _writing(self, alone: bool = False) -> Iterator[Connection]:
        """One write transaction (``alone``: one statement, its own transaction without
        the round trips of BEGIN and COMMIT); a failure is :class:`StoreFailed`, and the
        writes after it are refused at once for ``REST`` seconds (each would wait for a
        lock, freezing every table, or fail on the same full disk). A key already there
        (``conflict``) goes through as it is."""
        now = time.monotonic()
        if now < self.resting_until:
            raise StoreFailed("resting after a failure", retry=self.resting_until - now)
        try:
            db = self._connection()
            with nullcontext() if alone else self._transaction(db):
                yield db
        except self.conflict:
            raise
        except self.error as error:
            self.resting_until = time.monotonic() + REST
            raise self._failed(error, f"; writes refused for {REST:.0f} s") from None

    def _reading(self, read: Callable[[Connection], T]) -> T:
        try:
            return read(self._connection())
        except self.error as error:
            raise self._failed(error) from None

    def _read(self, text: str, *values: Any) -> list[Any]:
        """The rows of one query."""
        return self._reading(lambda db: self._run(db, text, *values).fetchall())

    def _failed(self, error: Exception, then: str = "") -> StoreFailed:
        """What the server is told of a failure, logged once a minute."""
        self.failures.tell(f"store {self.name}", f"{first_line(error)}{then}", logging.ERROR)
        return StoreFailed(first_line(error), retry=REST)

    # ---- tables ----------------------------------------------------------------------------

    def create(self, code: str, game: str, state: Json, events: Sequence[Json]) -> None:
        now = time.time()
        with self._writing() as db:
            self._run(db, "INSERT INTO tables VALUES (?, ?, 1, FALSE, ?, ?)", code, game, now, now)
            self._run(db, "INSERT INTO snapshots VALUES (?, 1, ?)", code, dump(pack(state)))
            self._run(db, "INSERT INTO changes VALUES (?, 1, ?, NULL, NULL, NULL)",
                      code, dump(events))

    def commit(self, code: str, seq: int, change: Json, events: Sequence[Json] | Shares,
               over: bool, move: tuple[Seat, str] | None = None,
               state: Json | None = None) -> None:
        seat, move_id = move if move is not None else (None, None)
        try:
            with self._writing() as db:
                moved = self._run(
                    db, "UPDATE tables SET seq = ?, over = ?, updated = ? "
                    "WHERE code = ? AND seq = ?", seq, over, time.time(), code, seq - 1).rowcount
                if moved != 1:  # another process moved it on (or retired it) first
                    raise StoreConflict(code, seq)
                self._run(db, "INSERT INTO changes VALUES (?, ?, ?, ?, ?, ?)",
                          code, seq, dump_events(events), seat, move_id, dump(change))
                if state is not None:
                    self._snapshot(db, code, seq, state)
        except self.conflict:
            raise StoreConflict(code, seq) from None

    def snapshot(self, code: str, seq: int, state: Json) -> None:
        with self._writing() as db:
            self._snapshot(db, code, seq, state)

    def _snapshot(self, db: Connection, code: str, seq: int, state: Json) -> None:
        """The snapshot written if the table is at change ``seq``, and the log pruned."""
        written = self._run(
            db, "UPDATE snapshots SET seq = ?, state = ? WHERE code = ? AND seq <= ? "
            "AND EXISTS (SELECT 1 FROM tables WHERE code = ? AND seq = ?)",
            seq, dump(pack(state)), code, seq, code, seq).rowcount
        if written != 1:
            raise StoreConflict(code, seq)
        self._run(db, "DELETE FROM changes WHERE code = ? AND seq <= ?", code, seq - HISTORY)

    def load(self, code: str) -> Stored | None:
        def read(db: Connection) -> tuple[Any, list[Any]]:
            snapshot = self._run(db, "SELECT state, seq FROM snapshots WHERE code = ?",
                                 code).fetchone()
            if snapshot is None:
                return None, []
            return snapshot, self._run(
                db, "SELECT seq, change FROM changes WHERE code = ? AND seq > ? ORDER BY seq",
                code, snapshot[1]).fetchall()
        snapshot, changes = self._reading(read)
        if snapshot is None:
            return None
        return stored(code, snapshot[0], int(snapshot[1]), changes)

    def record(self, code: str) -> Record | None:
        rows = self._read("SELECT game, players, scores, over, created, ended FROM records "
                          "WHERE code = ?", code)
        if not rows:
            return None
        game, players, scores, over, created, ended = rows[0]
        try:
            result = Result(tuple((str(name), str(kind)) for name, kind in json.loads(players)),
                            tuple(int(score) for score in json.loads(scores)), bool(over))
            return Record(code, str(game), result, float(created), float(ended))
        except (ValueError, TypeError) as error:
            raise TableDamaged(code, f"record: {error}") from None

    def exists(self, code: str) -> bool:
        return bool(self._read("SELECT 1 FROM tables WHERE code = ? UNION ALL "
                               "SELECT 1 FROM records WHERE code = ?", code, code))

    def in_play(self) -> list[str]:
        rows = self._read("SELECT code FROM tables WHERE NOT over AND seq > 1 ORDER BY created")
        return [str(code) for code, in rows]

    def changes(self, code: str, seat: Seat, since: int) -> list[tuple[int, Json]]:
        rows = self._read("SELECT seq, events FROM changes WHERE code = ? AND seq > ? "
                          "ORDER BY seq", code, since)
        found: list[tuple[int, Json]] = []
        for seq, events in rows:
            try:
                found.append((int(seq), seat_events(json.loads(events), seat)))
            except ValueError as error:
                raise TableDamaged(code, f"change {seq}: {error}") from None
        return found

    # ---- a table's life --------------------------------------------------------------------

    def expire(self, now: float, lifetimes: Lifetimes, keep: Collection[str],
               most: int) -> int:
        with self._writing() as db:
            codes = [code for code, in self._run(
                db, "SELECT code FROM tables WHERE seq = 1 AND created < ? "
                "AND code NOT IN (SELECT value FROM {listed}) LIMIT ?",
                now - lifetimes.unjoined, json.dumps(list(keep)), most).fetchall()]
            self._drop(db, codes)
            gone = self._run(
                db, "DELETE FROM records WHERE code IN (SELECT code FROM records "
                "WHERE ended < ? LIMIT ?)", now - lifetimes.records, most).rowcount
        return len(codes) + gone

    def _drop(self, db: Connection, codes: list[str]) -> None:
        """Tables ``codes``, their snapshots and changes, gone."""
        for table in ("changes", "snapshots", "tables"):
            self._run(db, f"DELETE FROM {table} WHERE code IN (SELECT value FROM {{listed}})",
                      json.dumps(codes))

    def retirable(self, now: float, lifetimes: Lifetimes, keep: Collection[str],
                  most: int) -> list[str]:
        rows = self._read(
            "SELECT code FROM tables WHERE ((over AND updated < ?) "
            "OR (NOT over AND seq > 1 AND updated < ?)) "
            "AND code NOT IN (SELECT value FROM {listed}) LIMIT ?",
            now - lifetimes.finished, now - lifetimes.idle, json.dumps(list(keep)), most)
        return [str(code) for code, in rows]

    def retire(self, code: str, result: Result | None) -> None:
        with self._writing() as db:
            if result is not None:
                self._run(
                    db, "INSERT INTO records SELECT code, game, ?, ?, ?, created, updated "
                    "FROM tables WHERE code = ? ON CONFLICT (code) DO UPDATE SET "
                    "players = excluded.players, scores = excluded.scores, "
                    "over = excluded.over, ended = excluded.ended",
                    dump([list(player) for player in result.players]),
                    dump(list(result.scores)), result.over, code)
            self._drop(db, [code])

    def census(self) -> Census:
        waiting, playing, finished, records = self._read(
            "SELECT (SELECT count(*) FROM tables WHERE seq = 1), "
            "(SELECT count(*) FROM tables WHERE seq > 1 AND NOT over), "
            "(SELECT count(*) FROM tables WHERE over), "
            "(SELECT count(*) FROM records)")[0]
        return Census(int(waiting), int(playing), int(finished), int(records))

    def secret(self) -> bytes:
        rows = self._read("SELECT value FROM {meta} WHERE key = 'secret'")
        if not rows:
            raise TableDamaged(self.dialect.meta, "secret: missing")
        return bytes.fromhex(str(rows[0][0]))
