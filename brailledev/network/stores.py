"""The kinds of store, chosen by the ``--db`` address (the one place that knows them all,
so the interface in :mod:`brailledev.network.store` imports none of them).

    store = open_store(Path("tables.db"))
"""

from __future__ import annotations

from pathlib import Path

from brailledev.network.store import TableStore
from brailledev.network.store_sqlite import SqliteStore


def open_store(where: Path | str) -> TableStore:
    """The store at ``where``: an SQLite file (``":memory:"`` for tests); a foreign or
    newer database, or one that cannot be opened, is a :class:`layouts.errors.UserError`
    naming it: ``open_store(Path("tables.db"))``."""
    return SqliteStore(where)
