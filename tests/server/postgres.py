"""A private PostgreSQL for tests: Debian's ``initdb`` into a temporary folder, its own
``postgres`` on a free loopback port with its Unix socket in that folder, trust
authentication for its one user; each test asks for a new empty database. As root (the
machine's set-up), the cluster belongs to the ``postgres`` user, as PostgreSQL requires.
Whatever happens, the server is stopped and the folder removed.

    with PrivatePostgres() as cluster:
        address = cluster.database()     # "postgresql://brailledev@127.0.0.1:PORT/t1"
"""

from __future__ import annotations

import itertools
import os
import pwd
import signal
import subprocess
from pathlib import Path
from typing import Any

import psycopg

from tests.daemon import Daemon, PrivateDaemon

BIN = Path("/usr/lib/postgresql/15/bin")
USER = "brailledev"
# A test cluster: nothing is worth a wait for the disk.
FAST = ("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
        "-c", "max_connections=200", "-c", "shared_buffers=32MB")


class PrivatePostgres(PrivateDaemon):
    """See the module docstring."""

    def __init__(self, timeout: float = 30.0) -> None:
        super().__init__("postgres-harness-", timeout)
        self.numbers = itertools.count(1)
        # PostgreSQL refuses to run as root: then it runs as Debian's postgres user.
        self.owner: dict[str, Any] = {}
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
            self.owner = {"user": account.pw_uid, "group": account.pw_gid,
                          "extra_groups": []}

    @property
    def admin(self) -> str:
        """The address of the cluster's first database, to make others."""
        return self.address("postgres")

    def address(self, name: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{name}"

    def start(self) -> None:
        data = self.folder / "data"
        subprocess.run([str(BIN / "initdb"), "-D", str(data), "-U", USER, "--auth=trust",
                        "-E", "UTF8", "--locale=C", "--no-sync"], check=True,
                       capture_output=True, cwd=self.folder, **self.owner)
        # SIGINT: PostgreSQL's fast shutdown (SIGTERM would wait for every client to go).
        self.daemon = Daemon("the private PostgreSQL", [
            str(BIN / "postgres"), "-D", str(data), "-p", str(self.port), "-h", "127.0.0.1",
            "-k", str(self.folder), *FAST], self.folder / "log", ask=signal.SIGINT,
            cwd=self.folder, **self.owner)
        self.daemon.start()
        self.daemon.wait_until(self._answers, self.timeout, pause=0.1)

    def _answers(self) -> bool:
        try:
            psycopg.connect(self.admin, connect_timeout=2).close()
        except psycopg.OperationalError:
            return False
        return True

    def database(self) -> str:
        """The address of a new empty database of the cluster."""
        name = f"t{next(self.numbers)}"
        with psycopg.connect(self.admin, autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.address(name)

    def execute(self, address: str, statement: str) -> list[tuple[Any, ...]]:
        """Run ``statement`` in the database at ``address``; its rows, if any."""
        with psycopg.connect(address, autocommit=True) as db:
            cursor = db.execute(statement)
            return cursor.fetchall() if cursor.description else []
