"""A daemon a test starts for itself (a private PostgreSQL, CUPS, HAProxy, ``brailledev
serve``): started with all it prints in a log file, waited for until a check passes (its port
answers, its own client says it is up) with its log in the error when it does not, and
stopped: asked first (SIGTERM, or the signal the daemon wants), killed if it will not go.
The kernel kills it if the test process dies, however abruptly.

    daemon = Daemon("cupsd", [CUPSD, "-f", ...], folder / "cupsd.log")
    daemon.start()
    daemon.wait_until(lambda: answers(port), timeout=20)   # DaemonFailed, its log, if not
    daemon.stop()
"""

from __future__ import annotations

import contextlib
import ctypes
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

PR_SET_PDEATHSIG = 1  # prctl option, from <linux/prctl.h>
LOG_TAIL = 2000  # characters of the daemon's log an error shows


class DaemonFailed(RuntimeError):
    """A daemon ended at start or did not get ready in time (the end of its log says why)."""


def die_with_parent() -> None:
    """In the child before exec: the kernel kills it when the test process dies (a killed
    pytest would otherwise leave it running)."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def free_port() -> int:
    """A loopback TCP port nobody listens on now: ``free_port()``."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def answers(port: int) -> bool:
    """Whether something listens on loopback ``port``: ``answers(5432)``."""
    try:
        socket.create_connection(("127.0.0.1", port), 0.2).close()
    except OSError:
        return False
    return True


def end(process: subprocess.Popen[bytes], ask: int = signal.SIGTERM,
        grace: float = 10.0) -> None:
    """Stop ``process``: signal ``ask`` first, SIGKILL after ``grace`` seconds if it is still
    there: ``end(process, signal.SIGINT)``."""
    if process.poll() is None:
        process.send_signal(ask)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Daemon:
    """The daemon ``name`` run as ``command`` (more of :class:`subprocess.Popen`'s arguments
    in ``popen``), what it prints appended to ``log``; stopped by ``ask`` then SIGKILL after
    ``grace`` seconds."""

    def __init__(self, name: str, command: Sequence[str], log: Path,
                 ask: int = signal.SIGTERM, grace: float = 10.0, **popen: Any) -> None:
        self.name, self.command, self.log = name, list(command), log
        self.ask, self.grace = ask, grace
        self.popen = {"preexec_fn": die_with_parent, **popen}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None, f"{self.name} is not running"
        return self.process.pid

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        """Start it, without waiting for it (several start side by side, then each waits)."""
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL,
                                            stdout=log, stderr=subprocess.STDOUT,
                                            **self.popen)

    def wait_until(self, ready: Callable[[], bool], timeout: float,
                   pause: float = 0.05) -> None:
        """Wait until ``ready()`` is true; :class:`DaemonFailed` with the end of the log if
        the daemon ends first or ``timeout`` seconds pass."""
        deadline = time.monotonic() + timeout
        while not ready():
            if not self.running():
                raise DaemonFailed(f"{self.name} ended at start: {self.output()[-LOG_TAIL:]}")
            if time.monotonic() > deadline:
                raise DaemonFailed(f"{self.name} was not ready within {timeout:g} s: "
                                   f"{self.output()[-LOG_TAIL:]}")
            time.sleep(pause)

    def output(self) -> str:
        """Everything it printed so far."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        """Ask it to stop, kill it if it will not; nothing if it is not running."""
        process, self.process = self.process, None
        if process is not None:
            end(process, self.ask, self.grace)

    def kill(self) -> None:
        """``kill -9``: no cleanup, no last write."""
        process, self.process = self.process, None
        if process is not None:
            process.kill()
            process.wait(10)


class PrivateDaemon:
    """A daemon of the test's own, in a temporary folder, on a free loopback port: started
    on entering (closed again if it fails to), closed on leaving: the daemon stopped and the
    folder removed, whatever happened. A subclass's :meth:`start` makes and starts
    ``self.daemon``: ``with PrivateCups() as cups: ...``."""

    def __init__(self, prefix: str, timeout: float) -> None:
        self.timeout = timeout
        self.folder = Path(tempfile.mkdtemp(prefix=prefix))
        self.port = free_port()
        self.daemon: Daemon | None = None

    def start(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self.daemon is not None:
            self.daemon.stop()
        with contextlib.suppress(OSError):
            shutil.rmtree(self.folder)
