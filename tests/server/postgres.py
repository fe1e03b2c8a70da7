"""A private PostgreSQL for tests: Debian's ``initdb`` into a temporary folder, its own
``postgres`` on a free loopback port with its Unix socket in that folder, trust
authentication for its one user; each test asks for a new empty database. As root (the
machine's set-up), the cluster belongs to the ``postgres`` user, as PostgreSQL requires.
Whatever happens, the server is stopped and the folder removed.

    with PrivatePostgres() as cluster:
        address = cluster.database()     # "postgresql://brailledev@127.0.0.1:PORT/t1"
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import psycopg

BIN = Path("/usr/lib/postgresql/15/bin")
USER = "brailledev"
PR_SET_PDEATHSIG = 1
# A test cluster: nothing is worth a wait for the disk.
FAST = ("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
        "-c", "max_connections=200", "-c", "shared_buffers=32MB")


def _die_with_parent() -> None:
    """In the child before exec: the kernel stops postgres if the test process dies."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class PrivatePostgres:
    """See the module docstring."""

    def __init__(self, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.folder = Path(tempfile.mkdtemp(prefix="postgres-harness-"))
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.numbers = itertools.count(1)
        # PostgreSQL refuses to run as root: then it runs as Debian's postgres user.
        self.owner: dict[str, Any] = {}
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
            self.owner = {"user": account.pw_uid, "group": account.pw_gid,
                          "extra_groups": []}

    def __enter__(self) -> PrivatePostgres:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

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
        self.process = subprocess.Popen(
            [str(BIN / "postgres"), "-D", str(data), "-p", str(self.port),
             "-h", "127.0.0.1", "-k", str(self.folder), *FAST],
            stdout=subprocess.DEVNULL, stderr=open(self.folder / "log", "wb"),  # noqa: SIM115
            cwd=self.folder, preexec_fn=_die_with_parent, **self.owner)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                psycopg.connect(self.admin, connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the private PostgreSQL did not start: "
                                       + (self.folder / "log").read_text()[-2000:]) from None
                time.sleep(0.1)

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

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        with contextlib.suppress(OSError):
            shutil.rmtree(self.folder)
