"""The table store in a PostgreSQL database: several ``serve`` processes, on one machine or
several, share it (:class:`brailledev.network.store_sql.SqlStore` but how it connects, opens
a transaction, makes and upgrades its schema, and two statements it does in one round trip).

Each process has one connection to write and read (psycopg 3, statements prepared after a
few uses), and one more to listen. A change
is one statement (a row of the log, and a snapshot now and then) whose update of the table's
small row is guarded by the sequence number the process last knew (``UPDATE tables ... WHERE
code = %s AND seq = %s``): of two processes moving the same table on at once, exactly one
does, the other is told :class:`StoreConflict` and reads the table again. The same statement
tells the change to every process listening (``pg_notify``, sent only if it commits), which
:meth:`PostgresStore.listen` hears: a process holding a copy of a table another moved on
learns it at once. A connection lost (the database restarted, the network cut) is
:class:`StoreFailed`, writes rest a few seconds, and the next use connects again.

The database says what it holds: its ``brailledev_meta`` table keeps the schema's version
and the store's secret; the schema is made by the first server to open an empty database
and brought up to date by a newer one (under an advisory lock, so processes starting
together do it once: a database of version 1, each table's whole state after its last
change, gets the log and snapshots of version 2); a database holding other tables, or of a
newer brailledev, is refused by name and left as it was.

    store = PostgresStore("postgresql://brailledev@db.example.org/brailledev")
    store.create("tkrzvmbcdfgh", "uno", state, start_events)
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

from brailledev.network.store import (
    HISTORY,
    Shares,
    StoreConflict,
    Stored,
    dump,
    dump_events,
    pack,
    stored,
)
from brailledev.network.store_sql import RECORDS, Connection, Dialect, SqlStore, first_line
from games.core import Json, Seat
from layouts.errors import UserError

VERSION = 3  # 1: each table's whole state after its last change, no log; 2: an index of the
# moves' ids
LOCK = 0x62726C64  # "brld": the advisory lock held while the schema is made or upgraded
CONNECT_WAIT = 5  # seconds to reach the database before it is called unreachable
# The notification of each change committed, "CODE SEQ": the processes holding a copy of
# the table let it go at once.
CHANNEL = "brailledev_moved"
LISTEN_AGAIN = 1.0  # seconds before listening again once the listening connection was lost
# Milliseconds a statement may wait for a lock or run: longer would freeze every table.
TIMEOUTS = "-c lock_timeout=1000 -c statement_timeout=5000"

DIALECT = Dialect(placeholder="%s", listed="json_array_elements_text(?::json) AS held(value)",
                  meta="brailledev_meta", boolean="BOOLEAN", real="DOUBLE PRECISION")
SCHEMA = DIALECT.sql(f"""
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
{RECORDS}
""")
# Version 2: a change is a row of the log (the change as the room plays it again); the state
# is a snapshot now and then, in a table of its own so that a move rewrites a small row.
UPGRADE_2 = """
CREATE TABLE snapshots (
    code TEXT PRIMARY KEY REFERENCES tables(code) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    state TEXT NOT NULL
);
INSERT INTO snapshots SELECT code, seq, state FROM tables;
ALTER TABLE tables DROP COLUMN state;
ALTER TABLE changes ADD COLUMN change TEXT
"""
# Version 3: no index of the moves' ids; a seat's last ``MOVE_IDS`` ids, kept with the
# table, cover every move the log holds.
UPGRADE_3 = "DROP INDEX IF EXISTS moves"


def shown(address: str) -> str:
    """``address`` without its password, as it may be printed and logged:
    ``shown("postgresql://ann:secret@db/tables")`` is ``"postgresql://ann@db/tables"``."""
    parts = urlsplit(address)
    if parts.password is None:
        return address
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=user + host))


class PostgresStore(SqlStore):
    """Tables, their changes and records in a PostgreSQL database at ``address`` (a
    ``postgresql://`` URL); see the module docstring."""

    dialect = DIALECT
    error = psycopg.Error
    conflict = psycopg.errors.IntegrityError
    shared = True

    def __init__(self, address: str) -> None:
        super().__init__(shown(address))
        self.address = address
        try:
            self.db = self._connect()
        except psycopg.Error as error:
            raise UserError("store_unreachable", address=self.name,
                            detail=first_line(error)) from None
        try:
            self._prepare()
        except psycopg.Error as error:
            self.db.close()
            raise UserError("store_database_unusable", address=self.name,
                            detail=first_line(error)) from None
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
                self.db.execute("INSERT INTO brailledev_meta VALUES ('version', '1'), "
                                "('secret', %s)", (secrets.token_hex(32),))
            row = self.db.execute(
                "SELECT value FROM brailledev_meta WHERE key = 'version'").fetchone()
            found = int(row[0]) if row is not None and str(row[0]).isdigit() else None
            if found is None:
                raise UserError("store_foreign_database", address=self.name)
            if found > VERSION:
                raise UserError("store_database_newer", address=self.name, version=found,
                                known=VERSION)
            if found < 2:
                for statement in UPGRADE_2.split(";"):
                    self.db.execute(statement)
            if found < VERSION:
                self.db.execute(UPGRADE_3)
                self.db.execute("UPDATE brailledev_meta SET value = %s WHERE key = 'version'",
                                (str(VERSION),))

    def close(self) -> None:
        self.db.close()

    # ---- what PostgreSQL does its own way --------------------------------------------------

    def _connection(self) -> Connection:
        if self.db.closed or self.db.broken:
            self.db.close()
            self.db = self._connect()
        return self.db

    @contextmanager
    def _transaction(self, db: Connection) -> Iterator[None]:
        with self.db.transaction():
            yield

    def commit(self, code: str, seq: int, change: Json, events: Sequence[Json] | Shares,
               over: bool, move: tuple[Seat, str] | None = None,
               state: Json | None = None) -> None:
        seat, move_id = move if move is not None else (None, None)
        # One statement, one round trip (the server waits for it): the change is inserted,
        # the snapshot written and the other processes told (at the commit), only if the
        # guarded update found the table at the number this process knew.
        snapshot = ""
        values: tuple[Any, ...] = (seq, over, time.time(), code, seq - 1)
        if state is not None:
            snapshot = (", snapped AS (UPDATE snapshots SET seq = ?, state = ? "
                        "WHERE code = (SELECT code FROM moved)), "
                        "pruned AS (DELETE FROM changes WHERE code = (SELECT code FROM moved) "
                        "AND seq <= ?)")
            values += (seq, dump(pack(state)), seq - HISTORY)
        try:
            with self._writing(alone=True) as db:
                inserted = self._run(
                    db, "WITH moved AS (UPDATE tables SET seq = ?, over = ?, updated = ? "
                    f"WHERE code = ? AND seq = ? RETURNING code, seq){snapshot}, "
                    f"told AS (SELECT pg_notify('{CHANNEL}', code || ' ' || seq) FROM moved) "
                    "INSERT INTO changes SELECT code, ?, ?, ?, ?, ? FROM moved, told",
                    *values, seq, dump_events(events), seat, move_id, dump(change)).rowcount
        except self.conflict:
            raise StoreConflict(code, seq) from None
        if inserted != 1:  # another process moved it on (or retired it) first
            raise StoreConflict(code, seq)

    def load(self, code: str) -> Stored | None:
        # One statement: the snapshot and the log after it as one moment of the database.
        rows = self._read(
            "SELECT state, seq, (SELECT json_agg(json_build_array(c.seq, c.change) "
            "ORDER BY c.seq) FROM changes c WHERE c.code = s.code AND c.seq > s.seq) "
            "FROM snapshots s WHERE code = ?", code)
        if not rows:
            return None
        state, at, log = rows[0]
        return stored(code, state, int(at), [(int(seq), change) for seq, change in log or []])

    async def listen(self, held: Callable[[], Collection[str]],
                     told: Callable[[str, int], None]) -> None:
        """``told(code, seq)`` for each change committed from now on, by any process (this
        one too), as it commits; on each start of listening (the first, and again after the
        connection was lost) first for each table of ``held()`` at the number it is at, so
        that what moved on while nobody listened is not missed. Runs until cancelled:
        ``await store.listen(lambda: list(rooms), print)``."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self.address, autocommit=True, connect_timeout=CONNECT_WAIT,
                        application_name="brailledev serve listening") as db:
                    await db.execute(f"LISTEN {CHANNEL}")
                    codes = list(held())
                    if codes:
                        found = await db.execute(self.dialect.sql(
                            "SELECT code, seq FROM tables WHERE code IN "
                            "(SELECT value FROM {listed})"), (json.dumps(codes),))
                        for code, seq in await found.fetchall():
                            told(str(code), int(seq))
                    lost: asyncio.Future[None] = loop.create_future()
                    # Read by hand, every notification waiting at once: psycopg's notifies()
                    # cost 0.16 ms of processor each, one a move, this process's own too.
                    loop.add_reader(db.fileno(), _hear, db.pgconn, told, lost)
                    try:
                        await lost
                    finally:
                        loop.remove_reader(db.fileno())
            except psycopg.Error as error:
                self.failures.tell(f"store {self.name}", f"listening: {first_line(error)}; "
                                   f"again in {LISTEN_AGAIN:.0f} s", logging.ERROR)
            await asyncio.sleep(LISTEN_AGAIN)

    def compact(self) -> None:
        """Nothing to do: PostgreSQL's autovacuum gives the room of dropped rows back."""


def _hear(connection: psycopg.pq.abc.PGconn, told: Callable[[str, int], None],
          lost: asyncio.Future[None]) -> None:
    """The notifications come in on ``connection``: each told; the connection's loss sets
    ``lost``. A notification of another program on the channel is let pass."""
    try:
        connection.consume_input()
    except psycopg.Error as error:
        if not lost.done():
            lost.set_exception(error)
        return
    while (notification := connection.notifies()) is not None:
        code, _, seq = notification.extra.decode().partition(" ")
        if seq.isdigit():
            told(code, int(seq))
