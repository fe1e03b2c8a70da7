"""The kinds of store, chosen by the ``--db`` address (the one place that knows them all,
so the interface in :mod:`brailledev.network.store` imports none of them).

    store = open_store(Path("tables.db"))
    store = open_store("postgresql://brailledev@localhost/brailledev")
"""

from __future__ import annotations

from pathlib import Path

from brailledev.network.store import TableStore
from brailledev.network.store_sqlite import SqliteStore

SCHEMES = ("postgresql://", "postgres://")


def is_database(where: Path | str) -> bool:
    """Whether ``where`` is a database server's address rather than a file:
    ``is_database("postgresql://localhost/tables")``."""
    return isinstance(where, str) and where.startswith(SCHEMES)


def open_store(where: Path | str) -> TableStore:
    """The store at ``where``: a PostgreSQL address (``postgresql://...``), or an SQLite file
    (``":memory:"`` for tests); a foreign or newer database, or one that cannot be opened
    or reached, is a :class:`layouts.errors.UserError` naming it:
    ``open_store(Path("tables.db"))``."""
    if is_database(where):
        from brailledev.network.store_postgres import PostgresStore

        return PostgresStore(str(where))
    return SqliteStore(where)
