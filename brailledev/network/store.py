"""The table server's store: every table's state and its log of changes, in SQLite.

A change (a move, a bot's move, a seat taken, a line of talk) is one transaction: the
table's whole state after it, and the change as each seat may learn it, under the next
sequence number. The server broadcasts a change only once it is committed, so a server
killed at any moment comes back with every table as its players last saw it.

The database is in WAL mode with ``synchronous=NORMAL``: a commit is in the operating
system's hands before the server goes on, which a killed server (``kill -9``) cannot lose;
only a power cut or a kernel crash may lose the last moments (``FULL`` would wait for the
disk at every move, a few milliseconds each, for a risk the players can live with: they
would see the table go back a move or two).

    store = Store(Path("tables.db"))
    store.create("tkrzvm", "uno", state, start_events)
    store.commit("tkrzvm", 2, state, events, over=False)
    store.changes("tkrzvm", seat=1, since=1)    # [(2, [...the events seat 1 may learn...])]
"""

from __future__ import annotations

import base64
import json
import sqlite3
import struct
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.core import Json
from layouts.errors import UserError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    state TEXT NOT NULL,
    seq INTEGER NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (
    code TEXT NOT NULL REFERENCES tables(code),
    seq INTEGER NOT NULL,
    events TEXT NOT NULL,
    PRIMARY KEY (code, seq)
) WITHOUT ROWID;
"""


MT_WORDS = 625  # a Mersenne Twister's state as ``random.getstate`` gives it: 624 words, a position


def _dump(data: Json) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _is_random_state(value: Json) -> bool:
    return (type(value) is list and len(value) == 3 and value[0] == 3
            and type(value[1]) is list and len(value[1]) == MT_WORDS)


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


class Store:
    """Tables and their changes in one SQLite file (``":memory:"`` for tests)."""

    def __init__(self, path: Path | str) -> None:
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as error:
            raise UserError("store_unusable", path=path, detail=error) from None

    def close(self) -> None:
        self.db.close()

    def create(self, code: str, game: str, state: Json, events: Sequence[Json]) -> None:
        """A new table with its first change (number 1: what the deal told each seat)."""
        now = time.time()
        with self._transaction():
            self.db.execute("INSERT INTO tables VALUES (?, ?, ?, 1, 0, ?, ?)",
                            (code, game, _dump(pack(state)), now, now))
            self.db.execute("INSERT INTO changes VALUES (?, 1, ?)", (code, _dump(events)))

    def commit(self, code: str, seq: int, state: Json, events: Sequence[Json],
               over: bool) -> None:
        """Change number ``seq`` of table ``code``: its state after the change, and the
        events of the change, one list per seat."""
        with self._transaction():
            self.db.execute("UPDATE tables SET state = ?, seq = ?, over = ?, updated = ? "
                            "WHERE code = ?", (_dump(pack(state)), seq, int(over), time.time(),
                                               code))
            self.db.execute("INSERT INTO changes VALUES (?, ?, ?)", (code, seq, _dump(events)))

    def load(self, code: str) -> tuple[Json, int] | None:
        """The state and last sequence number of table ``code``, ``None`` if there is none."""
        row = self.db.execute("SELECT state, seq FROM tables WHERE code = ?",
                              (code,)).fetchone()
        return None if row is None else (unpack(json.loads(row[0])), int(row[1]))

    def unfinished(self) -> list[str]:
        """The codes of the tables whose game is not over, oldest first."""
        rows = self.db.execute("SELECT code FROM tables WHERE over = 0 ORDER BY created")
        return [str(code) for code, in rows]

    def exists(self, code: str) -> bool:
        """Whether a table ``code`` was ever made (finished or not)."""
        return self.db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone() \
            is not None

    def changes(self, code: str, seat: int, since: int) -> list[tuple[int, Json]]:
        """The changes of table ``code`` after number ``since``, as ``seat`` learnt them."""
        rows = self.db.execute("SELECT seq, events FROM changes WHERE code = ? AND seq > ? "
                               "ORDER BY seq", (code, since))
        found: list[tuple[int, Json]] = []
        for seq, events in rows:
            per_seat: list[Any] = json.loads(events)
            found.append((int(seq), per_seat[seat] if seat < len(per_seat) else []))
        return found

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` when anything failed."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
