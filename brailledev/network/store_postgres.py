"""The table store in a PostgreSQL database: several ``serve`` processes, on one machine or
several, share it (:class:`brailledev.network.store.TableStore`).

Each process has one connection (psycopg 3, statements prepared after a few uses). A
change is one transaction whose update is guarded by the sequence number the process last
knew (``UPDATE tables ... WHERE code = %s AND seq = %s``): of two processes moving the same
table on at once, exactly one does, the other is told :class:`StoreConflict` and reads the
table again. A connection lost (the database restarted, the network cut) is
:class:`StoreFailed`, writes rest a few seconds, and the next use connects again.

The database says what it holds: its ``brailledev_meta`` table keeps the schema's version
and the store's secret; the schema is made by the first server to open an empty database
and brought up to date by a newer one (under an advisory lock, so processes starting
together do it once); a database holding other tables, or of a newer brailledev, is refused
by name and left as it was.

    store = PostgresStore("postgresql://brailledev@db.example.org/brailledev")
    store.create("tkrzvmbcdfgh", "uno", state, start_events)
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import psycopg

from brailledev.network.logs import QuietLog
from brailledev.network.store import (
    Census,
    Lifetimes,
    Record,
    Result,
    StoreConflict,
    StoreFailed,
    TableDamaged,
    dump,
    pack,
    unpack,
)
from games.core import Json, Seat
from layouts.errors import UserError

VERSION = 1
LOCK = 0x62726C64  # "brld": the advisory lock held while the schema is made or upgraded
CONNECT_WAIT = 5  # seconds to reach the database before it is called unreachable
# Milliseconds a statement may wait for a lock or run: longer would freeze every table.
TIMEOUTS = "-c lock_timeout=1000 -c statement_timeout=5000"
REST = 5.0  # seconds writes are refused at once after one failed (the Retry-After)

SCHEMA = """
CREATE TABLE brailledev_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tables (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    state TEXT NOT NULL,
    seq INTEGER NOT NULL,
    over BOOLEAN NOT NULL DEFAULT FALSE,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL
);
CREATE TABLE changes (
    code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    events TEXT NOT NULL,
    seat INTEGER,
    move TEXT,
    PRIMARY KEY (code, seq)
);
CREATE INDEX moves ON changes (code, seat, move) WHERE move IS NOT NULL;
CREATE TABLE records (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    scores TEXT NOT NULL,
    over BOOLEAN NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    ended DOUBLE PRECISION NOT NULL
)
"""
log = logging.getLogger("brailledev.network.store")
T = TypeVar("T")


def shown(address: str) -> str:
    """``address`` without its password, as it may be printed and logged:
    ``shown("postgresql://ann:secret@db/tables")`` is ``"postgresql://ann@db/tables"``."""
    parts = urlsplit(address)
    if parts.password is None:
        return address
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=user + host))


class PostgresStore:
    """Tables, their changes and records in a PostgreSQL database at ``address`` (a
    ``postgresql://`` URL); see the module docstring."""

    shared = True

    def __init__(self, address: str) -> None:
        self.address = address
        self.name = shown(address)
        self.resting_until = 0.0
        self.failures = QuietLog(log)
        try:
            self.db = self._connect()
        except psycopg.Error as error:
            raise UserError("store_unreachable", address=self.name,
                            detail=_first_line(error)) from None
        try:
            self._prepare()
        except psycopg.Error as error:
            self.db.close()
            raise UserError("store_database_unusable", address=self.name,
                            detail=_first_line(error)) from None
        except UserError:
            self.db.close()
            raise

    def _connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.address, autocommit=True, connect_timeout=CONNECT_WAIT,
                               options=TIMEOUTS, application_name="brailledev serve")

    def _prepare(self) -> None:
        """The schema made or brought up to date, once, whoever starts first; nothing is
        written to a database that is not ours."""
        with self.db.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
            names = {name for name, in self.db.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()")}
            if "brailledev_meta" not in names:
                if names:
                    raise UserError("store_foreign_database", address=self.name)
                for statement in SCHEMA.split(";"):
                    self.db.execute(statement)
                self.db.execute("INSERT INTO brailledev_meta VALUES ('version', %s), "
                                "('secret', %s)", (str(VERSION), secrets.token_hex(32)))
                return
            row = self.db.execute(
                "SELECT value FROM brailledev_meta WHERE key = 'version'").fetchone()
            found = int(row[0]) if row is not None and str(row[0]).isdigit() else None
            if found is None:
                raise UserError("store_foreign_database", address=self.name)
            if found > VERSION:
                raise UserError("store_database_newer", address=self.name, version=found,
                                known=VERSION)

    def close(self) -> None:
        self.db.close()

    # ---- failures --------------------------------------------------------------------------

    def _connection(self) -> psycopg.Connection[Any]:
        """The connection, made again if it was lost."""
        if self.db.closed or self.db.broken:
            self.db.close()
            self.db = self._connect()
        return self.db

    @contextmanager
    def _writing(self, one_statement: bool = False) -> Iterator[psycopg.Connection[Any]]:
        """One write transaction (``one_statement``: a single statement, its own
        transaction, without the round trips of BEGIN and COMMIT); a failure is
        :class:`StoreFailed`, and the writes after it are refused at once for ``REST``
        seconds."""
        now = time.monotonic()
        if now < self.resting_until:
            raise StoreFailed("resting after a failure", retry=self.resting_until - now)
        try:
            db = self._connection()
            if one_statement:
                yield db
                return
            with db.transaction():
                yield db
        except psycopg.errors.IntegrityError:
            raise
        except psycopg.Error as error:
            self.resting_until = time.monotonic() + REST
            raise self._failed(error, f"; writes refused for {REST:.0f} s") from None

    def _reading(self, read: Callable[[psycopg.Connection[Any]], T]) -> T:
        try:
            return read(self._connection())
        except psycopg.Error as error:
            raise self._failed(error) from None

    def _failed(self, error: psycopg.Error, then: str = "") -> StoreFailed:
        """What the server is told of a failure, logged once a minute."""
        self.failures.tell(f"store {self.name}", f"{_first_line(error)}{then}", logging.ERROR)
        return StoreFailed(_first_line(error), retry=REST)

    # ---- tables ----------------------------------------------------------------------------

    def create(self, code: str, game: str, state: Json, events: Sequence[Json]) -> None:
        now = time.time()
        with self._writing() as db:
            db.execute("INSERT INTO tables VALUES (%s, %s, %s, 1, FALSE, %s, %s)",
                       (code, game, dump(pack(state)), now, now))
            db.execute("INSERT INTO changes VALUES (%s, 1, %s, NULL, NULL)",
                       (code, dump(events)))

    def commit(self, code: str, seq: int, state: Json, events: Sequence[Json], over: bool,
               move: tuple[Seat, str] | None = None) -> None:
        seat, move_id = move if move is not None else (None, None)
        # One statement, one round trip (the server waits for it): the change is inserted
        # only if the guarded update found the table at the number this process knew.
        try:
            with self._writing(one_statement=True) as db:
                inserted = db.execute(
                    "WITH moved AS (UPDATE tables SET state = %s, seq = %s, over = %s, "
                    "updated = %s WHERE code = %s AND seq = %s RETURNING code) "
                    "INSERT INTO changes SELECT code, %s, %s, %s, %s FROM moved",
                    (dump(pack(state)), seq, over, time.time(), code, seq - 1,
                     seq, dump(events), seat, move_id)).rowcount
        except psycopg.errors.IntegrityError:
            raise StoreConflict(code, seq) from None
        if inserted != 1:  # another process moved it on (or retired it) first
            raise StoreConflict(code, seq)

    def load(self, code: str) -> tuple[Json, int] | None:
        row = self._reading(lambda db: db.execute(
            "SELECT state, seq FROM tables WHERE code = %s", (code,)).fetchone())
        if row is None:
            return None
        try:
            return unpack(json.loads(row[0])), int(row[1])
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            raise TableDamaged(code, f"state: {error}") from None

    def record(self, code: str) -> Record | None:
        row = self._reading(lambda db: db.execute(
            "SELECT game, players, scores, over, created, ended FROM records WHERE code = %s",
            (code,)).fetchone())
        if row is None:
            return None
        game, players, scores, over, created, ended = row
        try:
            result = Result(tuple((str(name), str(kind)) for name, kind in json.loads(players)),
                            tuple(int(score) for score in json.loads(scores)), bool(over))
            return Record(code, str(game), result, float(created), float(ended))
        except (ValueError, TypeError) as error:
            raise TableDamaged(code, f"record: {error}") from None

    def exists(self, code: str) -> bool:
        return self._reading(lambda db: db.execute(
            "SELECT 1 FROM tables WHERE code = %s UNION ALL "
            "SELECT 1 FROM records WHERE code = %s", (code, code)).fetchone()) is not None

    def in_play(self) -> list[str]:
        rows = self._reading(lambda db: db.execute(
            "SELECT code FROM tables WHERE NOT over AND seq > 1 ORDER BY created").fetchall())
        return [str(code) for code, in rows]

    def changes(self, code: str, seat: Seat, since: int) -> list[tuple[int, Json]]:
        rows = self._reading(lambda db: db.execute(
            "SELECT seq, events FROM changes WHERE code = %s AND seq > %s ORDER BY seq",
            (code, since)).fetchall())
        found: list[tuple[int, Json]] = []
        for seq, events in rows:
            try:
                per_seat: list[Any] = json.loads(events)
            except ValueError as error:
                raise TableDamaged(code, f"change {seq}: {error}") from None
            found.append((int(seq), per_seat[seat] if seat < len(per_seat) else []))
        return found

    def played(self, code: str, seat: Seat, move_id: str) -> bool:
        return self._reading(lambda db: db.execute(
            "SELECT 1 FROM changes WHERE code = %s AND seat = %s AND move = %s",
            (code, seat, move_id)).fetchone()) is not None

    # ---- a table's life --------------------------------------------------------------------

    def expire(self, now: float, lifetimes: Lifetimes, keep: Collection[str],
               most: int) -> int:
        with self._writing() as db:
            tables = db.execute(
                "DELETE FROM tables WHERE code IN (SELECT code FROM tables WHERE seq = 1 "
                "AND created < %s AND NOT code = ANY(%s) LIMIT %s)",
                (now - lifetimes.unjoined, list(keep), most)).rowcount
            records = db.execute(
                "DELETE FROM records WHERE code IN (SELECT code FROM records WHERE ended < %s "
                "LIMIT %s)", (now - lifetimes.records, most)).rowcount
        return tables + records

    def retirable(self, now: float, lifetimes: Lifetimes, keep: Collection[str],
                  most: int) -> list[str]:
        rows = self._reading(lambda db: db.execute(
            "SELECT code FROM tables WHERE ((over AND updated < %s) "
            "OR (NOT over AND seq > 1 AND updated < %s)) AND NOT code = ANY(%s) LIMIT %s",
            (now - lifetimes.finished, now - lifetimes.idle, list(keep), most)).fetchall())
        return [str(code) for code, in rows]

    def retire(self, code: str, result: Result | None) -> None:
        with self._writing() as db:
            if result is not None:
                db.execute(
                    "INSERT INTO records SELECT code, game, %s, %s, %s, created, updated "
                    "FROM tables WHERE code = %s ON CONFLICT (code) DO UPDATE SET "
                    "players = excluded.players, scores = excluded.scores, "
                    "over = excluded.over, ended = excluded.ended",
                    (dump([list(player) for player in result.players]),
                     dump(list(result.scores)), result.over, code))
            db.execute("DELETE FROM tables WHERE code = %s", (code,))

    def compact(self) -> None:
        """Nothing to do: PostgreSQL's autovacuum gives the room of dropped rows back."""

    def census(self) -> Census:
        def count(db: psycopg.Connection[Any]) -> tuple[Any, ...]:
            row = db.execute(
                "SELECT (SELECT count(*) FROM tables WHERE seq = 1), "
                "(SELECT count(*) FROM tables WHERE seq > 1 AND NOT over), "
                "(SELECT count(*) FROM tables WHERE over), "
                "(SELECT count(*) FROM records)").fetchone()
            return tuple(row) if row is not None else (0, 0, 0, 0)
        waiting, playing, finished, records = self._reading(count)
        return Census(int(waiting), int(playing), int(finished), int(records))

    def secret(self) -> bytes:
        row = self._reading(lambda db: db.execute(
            "SELECT value FROM brailledev_meta WHERE key = 'secret'").fetchone())
        if row is None:
            raise TableDamaged("brailledev_meta", "secret: missing")
        return bytes.fromhex(str(row[0]))


def _first_line(error: BaseException) -> str:
    """psycopg's messages run over several lines (a hint, the statement): the first says
    what happened."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0]
