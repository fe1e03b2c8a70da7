"""The server tests' private PostgreSQL: started once per session (per xdist worker) on
first use, stopped at the end (see tests/server/postgres.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.postgres import PrivatePostgres


@pytest.fixture(scope="session")
def postgres() -> Iterator[PrivatePostgres]:
    """The running private cluster: ``postgres.database()`` is a new empty database."""
    with PrivatePostgres() as cluster:
        yield cluster
