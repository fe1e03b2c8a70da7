"""The table store in one SQLite file: the embedded default, one process, no set-up
(:class:`brailledev.network.store_sql.SqlStore` but how it connects, opens a transaction, makes
its schema and compacts).

The database is in WAL mode with ``synchronous=NORMAL``: a commit is in the operating
system's hands before the server goes on, which a killed server (``kill -9``) cannot lose;
only a power cut or a kernel crash may lose the last moments (``FULL`` would wait for the
disk at every move, a few milliseconds each, for a risk the players can live with: they
would see the table go back a move or two). ``auto_vacuum=INCREMENTAL``: what expired
tables freed goes back to the system at each sweep (:meth:`SqliteStore.compact`).

The file says what it is: ``PRAGMA application_id`` is brailledev's and ``user_version``
the schema's version, so another program's database, or one of a newer brailledev, is
refused by name instead of written into; a store of brailledev 0.1 (no id, version 0), or
of a version before the log and snapshots (2: each table's whole state after its last
change), before the move in one statement (3) or with an index of the moves' ids (4), is
brought up to date in place.

    store = SqliteStore(Path("tables.db"))
    store.create("tkrzvmbcdfgh", "uno", state, start_events)
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from brailledev.network.store import Shares, StoreConflict, dump, dump_events
from brailledev.network.store_sql import RECORDS, Connection, Dialect, SqlStore
from games.core import Json, Seat
from layouts.errors import UserError

APPLICATION_ID = 0x62726C64  # "brld"
VERSION = 5  # 1: brailledev 0.1's, without an id; 2: no log, no snapshots; 3: a move in 4
# calls; 4: an index of the moves' ids
BUSY_WAIT = 1.0  # seconds a write waits for another process's; longer freezes every table
WAL_KEPT = 4 << 20  # bytes the write-ahead log keeps after a checkpoint

TABLES = """
CREATE TABLE tables (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    state TEXT NOT NULL,
    seq INTEGER NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE changes (
    code TEXT NOT NULL REFERENCES tables(code),
    seq INTEGER NOT NULL,
    events TEXT NOT NULL,
    PRIMARY KEY (code, seq)
) WITHOUT ROWID;
"""
# Version 2: the move each change played (its seat and id), records of
# retired tables, and the store's secret.
DIALECT = Dialect(placeholder="?", listed="json_each(?)", meta="meta", boolean="INTEGER",
                  real="REAL")
UPGRADE_2 = DIALECT.sql(f"""
ALTER TABLE changes ADD COLUMN seat INTEGER;
ALTER TABLE changes ADD COLUMN move TEXT;
CREATE INDEX moves ON changes (code, seat, move) WHERE move IS NOT NULL;
{RECORDS};
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
""")
# Version 3: a change is a row of the log (the change as the room plays it again); the state
# is a snapshot now and then, in a table of its own so that a move rewrites a small row.
UPGRADE_3 = """
CREATE TABLE snapshots (code TEXT PRIMARY KEY, seq INTEGER NOT NULL, state TEXT NOT NULL);
INSERT INTO snapshots SELECT code, seq, state FROM tables;
ALTER TABLE tables DROP COLUMN state;
ALTER TABLE changes ADD COLUMN change TEXT;
"""
# Version 4: a move is one statement, its own transaction (no BEGIN and COMMIT): a row
# inserted into the view ``played`` moves the table on if it is at the change before, or
# fails as a conflict (another process moved it on), and adds the change to the log.
UPGRADE_4 = (
    "CREATE VIEW played AS SELECT c.code, c.seq, c.events, c.seat, c.move, c.change, "
    "t.over, t.updated FROM changes c JOIN tables t USING (code)",
    """CREATE TRIGGER move INSTEAD OF INSERT ON played BEGIN
    UPDATE tables SET seq = NEW.seq, over = NEW.over, updated = NEW.updated
        WHERE code = NEW.code AND seq = NEW.seq - 1;
    SELECT RAISE(ABORT, 'the table was moved on elsewhere') WHERE changes() = 0;
    INSERT INTO changes VALUES (NEW.code, NEW.seq, NEW.events, NEW.seat, NEW.move,
        NEW.change);
END""",
)
# Version 5: no index of the moves' ids (a fifth of a move's commit): a seat's last
# ``MOVE_IDS`` ids, kept with the table, cover every move the log holds.
UPGRADE_5 = "DROP INDEX IF EXISTS moves"
VERSION_1_COLUMNS = {"tables": ["code", "game", "state", "seq", "over", "created", "updated"],
                     "changes": ["code", "seq", "events"]}


class SqliteStore(SqlStore):
    """Tables, their changes and records in one SQLite file (``":memory:"`` for tests); see
    the module docstring."""

    dialect = DIALECT
    error = sqlite3.Error
    conflict = sqlite3.IntegrityError
    shared = False  # one process: the file's lock would freeze the others' tables

    def __init__(self, path: Path | str) -> None:
        super().__init__(str(path))
        self.path = path
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, timeout=BUSY_WAIT)
            found = self._version()
        except sqlite3.DatabaseError as error:
            raise UserError("store_unusable", path=path, detail=error) from None
        if found is None:
            self.db.close()
            raise UserError("store_foreign", path=path)
        if found > VERSION:
            self.db.close()
            raise UserError("store_newer", path=path, version=found, known=VERSION)
        try:
            self._prepare(found)
        except sqlite3.Error as error:
            self.db.close()
            raise UserError("store_unusable", path=path, detail=error) from None

    def _version(self) -> int | None:
        """The file's schema version (0: empty), ``None`` when it is not a store of ours.
        Nothing is written before this is known."""
        application = self.db.execute("PRAGMA application_id").fetchone()[0]
        version = int(self.db.execute("PRAGMA user_version").fetchone()[0])
        names = {name for name, in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if application == APPLICATION_ID:
            return version
        if application != 0 or version != 0:
            return None
        if not names:
            return 0
        columns = {name: [row[1] for row in self.db.execute(f"PRAGMA table_info({name})")]
                   for name in names}
        return 1 if columns == VERSION_1_COLUMNS else None

    def _prepare(self, version: int) -> None:
        if version == 0:  # before any table: a page freed by a sweep can go back
            self.db.execute("PRAGMA auto_vacuum=INCREMENTAL")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(f"PRAGMA journal_size_limit={WAL_KEPT}")
        if version == VERSION:
            return
        with self._transaction(self.db):
            if version == 0:
                self._script(TABLES)
            if version <= 1:
                self._script(UPGRADE_2)
                self.db.execute("INSERT INTO meta VALUES ('secret', ?)",
                                (secrets.token_hex(32),))
            if version <= 2:
                self._script(UPGRADE_3)
            if version <= 3:
                for statement in UPGRADE_4:
                    self.db.execute(statement)
            self.db.execute(UPGRADE_5)
            self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            self.db.execute(f"PRAGMA user_version={VERSION}")
        if version == 1:  # auto_vacuum takes effect on a store made without it by a VACUUM
            self.db.execute("PRAGMA auto_vacuum=INCREMENTAL")
            self.db.execute("VACUUM")

    def _script(self, script: str) -> None:
        # executescript would commit the transaction first: one statement at a time.
        for statement in script.split(";"):
            if statement.strip():
                self.db.execute(statement)

    def close(self) -> None:
        self.db.close()

    # ---- what SQLite does its own way ------------------------------------------------------

    def _connection(self) -> Connection:
        return self.db

    @contextmanager
    def _transaction(self, db: Connection) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    def commit(self, code: str, seq: int, change: Json, events: Sequence[Json] | Shares,
               over: bool, move: tuple[Seat, str] | None = None,
               state: Json | None = None) -> None:
        """A change as :meth:`SqlStore.commit` writes it, in one statement when no snapshot
        comes with it (``UPGRADE_4``): one call into SQLite instead of four:
        ``store.commit("tkrzvmbcdfgh", 5, change, events, False, (1, "m7"))``."""
        if state is not None:  # every so many moves: the shared transaction
            super().commit(code, seq, change, events, over, move, state)
            return
        seat, move_id = move if move is not None else (None, None)
        try:
            with self._writing(alone=True) as db:
                db.execute("INSERT INTO played VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (code, seq, dump_events(events), seat, move_id, dump(change), over,
                            time.time()))
        except self.conflict:  # the trigger's guard, or the change already there
            raise StoreConflict(code, seq) from None

    def compact(self) -> None:
        """Give what the sweep freed back to the system, and truncate the write-ahead log."""
        try:
            # execute() would step the pragma once, freeing one page: a script runs it out.
            self.db.executescript("PRAGMA incremental_vacuum;")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error as error:
            raise self._failed(error) from None
