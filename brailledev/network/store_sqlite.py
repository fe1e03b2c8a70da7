"""The table store in one SQLite file: the embedded default, one process, no set-up
(:class:`brailledev.network.store.TableStore`).

The database is in WAL mode with ``synchronous=NORMAL``: a commit is in the operating
system's hands before the server goes on, which a killed server (``kill -9``) cannot lose;
only a power cut or a kernel crash may lose the last moments (``FULL`` would wait for the
disk at every move, a few milliseconds each, for a risk the players can live with: they
would see the table go back a move or two). ``auto_vacuum=INCREMENTAL``: what expired
tables freed goes back to the system at each sweep (:meth:`SqliteStore.compact`).

The file says what it is: ``PRAGMA application_id`` is brailledev's and ``user_version``
the schema's version, so another program's database, or one of a newer brailledev, is
refused by name instead of written into; a store of brailledev 0.1 (no id, version 0) is
brought up to date in place.

    store = SqliteStore(Path("tables.db"))
    store.create("tkrzvmbcdfgh", "uno", state, start_events)
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

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

APPLICATION_ID = 0x62726C64  # "brld"
VERSION = 2  # 1: brailledev 0.1's tables and changes, without an id
BUSY_WAIT = 1.0  # seconds a write waits for another process's; longer freezes every table
REST = 5.0  # seconds writes are refused at once after one failed (the Retry-After)
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
# Version 2: the move each change played (its seat and id, found however old), records of
# retired tables, and the store's secret.
UPGRADE_2 = """
ALTER TABLE changes ADD COLUMN seat INTEGER;
ALTER TABLE changes ADD COLUMN move TEXT;
CREATE INDEX moves ON changes (code, seat, move) WHERE move IS NOT NULL;
CREATE TABLE records (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    scores TEXT NOT NULL,
    over INTEGER NOT NULL,
    created REAL NOT NULL,
    ended REAL NOT NULL
);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
log = logging.getLogger("brailledev.network.store")
VERSION_1_COLUMNS = {"tables": ["code", "game", "state", "seq", "over", "created", "updated"],
                     "changes": ["code", "seq", "events"]}
T = TypeVar("T")


class SqliteStore:
    """Tables, their changes and records in one SQLite file (``":memory:"`` for tests); see
    the module docstring."""

    shared = False  # one process: the file's lock would freeze the others' tables

    def __init__(self, path: Path | str) -> None:
        self.path = path
        self.resting_until = 0.0
        self.failures = QuietLog(log)
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
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if version == 0:
                self._script(TABLES)
            self._script(UPGRADE_2)
            self.db.execute("INSERT INTO meta VALUES ('secret', ?)", (secrets.token_hex(32),))
            self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            self.db.execute(f"PRAGMA user_version={VERSION}")
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
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

    # ---- failures --------------------------------------------------------------------------

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One write transaction; a failure is :class:`StoreFailed`, and the writes after
        it are refused at once for ``REST`` seconds (each would wait ``BUSY_WAIT`` for a
        lock, freezing every table, or fail on the same full disk)."""
        now = time.monotonic()
        if now < self.resting_until:
            raise StoreFailed("resting after a failure", retry=self.resting_until - now)
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as error:
            self.resting_until = time.monotonic() + REST
            raise self._failed(error, f"; writes refused for {REST:.0f} s") from None

    def _reading(self, read: Callable[[], T]) -> T:
        try:
            return read()
        except sqlite3.Error as error:
            raise self._failed(error) from None

    def _failed(self, error: sqlite3.Error, then: str = "") -> StoreFailed:
        """What the server is told of a failure, logged once a minute."""
        self.failures.tell(f"store {self.path}", f"{error}{then}", logging.ERROR)
        return StoreFailed(str(error), retry=REST)

    # ---- tables ----------------------------------------------------------------------------

    def create(self, code: str, game: str, state: Json, events: Sequence[Json]) -> None:
        now = time.time()
        with self._writing():
            self.db.execute("INSERT INTO tables VALUES (?, ?, ?, 1, 0, ?, ?)",
                            (code, game, dump(pack(state)), now, now))
            self.db.execute("INSERT INTO changes VALUES (?, 1, ?, NULL, NULL)",
                            (code, dump(events)))

    def commit(self, code: str, seq: int, state: Json, events: Sequence[Json], over: bool,
               move: tuple[Seat, str] | None = None) -> None:
        seat, move_id = move if move is not None else (None, None)
        try:
            with self._writing():
                moved = self.db.execute(
                    "UPDATE tables SET state = ?, seq = ?, over = ?, updated = ? "
                    "WHERE code = ? AND seq = ?",
                    (dump(pack(state)), seq, int(over), time.time(), code, seq - 1)).rowcount
                if moved != 1:  # another process moved it on (or retired it) first
                    raise StoreConflict(code, seq)
                self.db.execute("INSERT INTO changes VALUES (?, ?, ?, ?, ?)",
                                (code, seq, dump(events), seat, move_id))
        except sqlite3.IntegrityError:
            raise StoreConflict(code, seq) from None

    def load(self, code: str) -> tuple[Json, int] | None:
        row = self._reading(lambda: self.db.execute(
            "SELECT state, seq FROM tables WHERE code = ?", (code,)).fetchone())
        if row is None:
            return None
        try:
            return unpack(json.loads(row[0])), int(row[1])
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            raise TableDamaged(code, f"state: {error}") from None

    def record(self, code: str) -> Record | None:
        row = self._reading(lambda: self.db.execute(
            "SELECT game, players, scores, over, created, ended FROM records WHERE code = ?",
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
        return self._reading(lambda: self.db.execute(
            "SELECT 1 FROM tables WHERE code = ? UNION ALL SELECT 1 FROM records WHERE code = ?",
            (code, code)).fetchone()) is not None

    def in_play(self) -> list[str]:
        rows = self._reading(lambda: self.db.execute(
            "SELECT code FROM tables WHERE over = 0 AND seq > 1 ORDER BY created").fetchall())
        return [str(code) for code, in rows]

    def changes(self, code: str, seat: Seat, since: int) -> list[tuple[int, Json]]:
        rows = self._reading(lambda: self.db.execute(
            "SELECT seq, events FROM changes WHERE code = ? AND seq > ? ORDER BY seq",
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
        return self._reading(lambda: self.db.execute(
            "SELECT 1 FROM changes WHERE code = ? AND seat = ? AND move = ?",
            (code, seat, move_id)).fetchone()) is not None

    # ---- a table's life --------------------------------------------------------------------

    def expire(self, now: float, lifetimes: Lifetimes, keep: Collection[str],
               most: int) -> int:
        held = json.dumps(list(keep))
        with self._writing():
            codes = [code for code, in self.db.execute(
                "SELECT code FROM tables WHERE seq = 1 AND created < ? "
                "AND code NOT IN (SELECT value FROM json_each(?)) LIMIT ?",
                (now - lifetimes.unjoined, held, most))]
            self.db.executemany("DELETE FROM changes WHERE code = ?", [(c,) for c in codes])
            self.db.executemany("DELETE FROM tables WHERE code = ?", [(c,) for c in codes])
            gone = self.db.execute(
                "DELETE FROM records WHERE code IN (SELECT code FROM records WHERE ended < ? "
                "LIMIT ?)", (now - lifetimes.records, most)).rowcount
        return len(codes) + gone

    def retirable(self, now: float, lifetimes: Lifetimes, keep: Collection[str],
                  most: int) -> list[str]:
        rows = self._reading(lambda: self.db.execute(
            "SELECT code FROM tables WHERE ((over = 1 AND updated < ?) "
            "OR (over = 0 AND seq > 1 AND updated < ?)) "
            "AND code NOT IN (SELECT value FROM json_each(?)) LIMIT ?",
            (now - lifetimes.finished, now - lifetimes.idle, json.dumps(list(keep)),
             most)).fetchall())
        return [str(code) for code, in rows]

    def retire(self, code: str, result: Result | None) -> None:
        with self._writing():
            if result is not None:
                self.db.execute(
                    "INSERT OR REPLACE INTO records SELECT code, game, ?, ?, ?, created, "
                    "updated FROM tables WHERE code = ?",
                    (dump([list(player) for player in result.players]),
                     dump(list(result.scores)), int(result.over), code))
            self.db.execute("DELETE FROM changes WHERE code = ?", (code,))
            self.db.execute("DELETE FROM tables WHERE code = ?", (code,))

    def compact(self) -> None:
        try:
            # execute() would step the pragma once, freeing one page: a script runs it out.
            self.db.executescript("PRAGMA incremental_vacuum;")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error as error:
            raise self._failed(error) from None

    def census(self) -> Census:
        def count() -> tuple[Any, ...]:
            return tuple(self.db.execute(
                "SELECT (SELECT count(*) FROM tables WHERE seq = 1), "
                "(SELECT count(*) FROM tables WHERE seq > 1 AND over = 0), "
                "(SELECT count(*) FROM tables WHERE over = 1), "
                "(SELECT count(*) FROM records)").fetchone())
        waiting, playing, finished, records = self._reading(count)
        return Census(int(waiting), int(playing), int(finished), int(records))

    def secret(self) -> bytes:
        row = self._reading(lambda: self.db.execute(
            "SELECT value FROM meta WHERE key = 'secret'").fetchone())
        return bytes.fromhex(str(row[0]))
