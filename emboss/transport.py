"""Where a job goes: a file (written atomically), a serial port, or a CUPS queue.

Every transport sends a :class:`emboss.embossers.Job` from a given page. The serial port
sends page by page, so a job interrupted by an error (cable out, embosser stopped) says the
last page that went out whole, and the job can be sent again from the next page.

    FileTransport(Path("uno.brf")).send(job)
    SerialTransport("/dev/embosser0", baud=9600, flow="rtscts").send(job, from_page=4)
    CupsTransport("index").send(job)     # lp -d index -o raw; a stopped queue is an error

CUPS is reached as ``lp`` and ``lpstat`` reach it: the local scheduler, or the one that
``CUPS_SERVER`` (``host:port``) names.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import serial

from brailledev.files import write_together
from emboss.embossers import Job
from layouts.errors import TransportError, system_reason

# Called after each page that went out whole: (pages sent so far, pages in the job).
Progress = Callable[[int, int], None]
FLOW_CONTROLS = ("rtscts", "xonxoff", "none")
# Serial speeds (bits per second) and the wait for an embosser to take more (seconds) that
# the options accept: from the slowest teleprinter to the fastest USB-serial adapter.
BAUD_RANGE = (50, 4_000_000)
WRITE_TIMEOUT_RANGE = (0.1, 3600.0)


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (:func:`write_atomically`); a missing
    folder or a refused write is one sentence: ``write_file(Path("deck.brf"), data)``."""
    write_files([(path, data)])


def write_files(files: Sequence[tuple[Path, bytes]]) -> None:
    """Write every file whole, or none of them (:func:`write_together`, mode 0644, synced);
    a missing folder or a refused write is one sentence naming the file:
    ``write_files([(Path("deck.brf"), brf), (Path("deck.pdf"), pdf)])``."""
    for path, _ in files:
        if not path.parent.is_dir():
            raise TransportError("out_folder_missing", folder=path.parent)
    try:
        write_together(files)
    except OSError as error:
        failed = Path(error.filename) if error.filename else None
        named = next((path for path, _ in files if failed is not None and (
            path == failed or (path.parent == failed.parent
                               and failed.name.startswith(f".{path.name}.")))), files[0][0])
        raise TransportError("cannot_write", path=named,
                             reason=system_reason(error)) from None


@dataclass
class FileTransport:
    """The job's bytes into a file (``.brf`` for an embosser to read later)."""

    path: Path

    def send(self, job: Job, from_page: int = 1, progress: Progress | None = None) -> None:
        write_file(self.path, job.data(from_page))
        if progress is not None:
            progress(len(job.pages), len(job.pages))


@dataclass
class SerialTransport:
    """An embosser on a serial port (or a USB-serial adapter) through pyserial."""

    port: str
    baud: int = 9600
    flow: str = "rtscts"
    write_timeout: float = 30.0

    def send(self, job: Job, from_page: int = 1, progress: Progress | None = None) -> None:
        if self.flow not in FLOW_CONTROLS:
            raise TransportError("flow_unknown", flow=self.flow,
                                 choices=", ".join(FLOW_CONTROLS))
        try:
            port = serial.Serial(self.port, self.baud, rtscts=self.flow == "rtscts",
                                 xonxoff=self.flow == "xonxoff")
        except (serial.SerialException, OSError) as error:
            raise TransportError("serial_cannot_open", port=self.port, detail=error) from None
        sent = from_page - 1
        try:
            with port:
                os.set_blocking(port.fileno(), False)
                self._write(port, job.header)
                for number in range(from_page, len(job.pages) + 1):
                    self._write(port, job.pages[number - 1])
                    sent = number
                    if progress is not None:
                        progress(number, len(job.pages))
                self._write(port, job.end)
        except (serial.SerialException, OSError) as error:
            again = min(sent + 1, len(job.pages))
            if sent >= from_page:
                raise TransportError("job_stopped", port=self.port, detail=error, sent=sent,
                                     again=again) from None
            raise TransportError("job_stopped_at_start", port=self.port, detail=error,
                                 again=again) from None


    def _write(self, port: serial.Serial, data: bytes) -> None:
        """All of ``data``, or ``SerialTimeoutException`` when the port takes nothing for
        ``write_timeout`` seconds (embosser stopped by flow control, or gone)."""
        # pyserial's own non-blocking write spins on EAGAIN, so we write to its descriptor.
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(port.fileno(), view):]
            except BlockingIOError:
                _, ready, _ = select.select([], [port.fileno()], [], self.write_timeout)
                if not ready:
                    raise serial.SerialTimeoutException(
                        f"nothing accepted for {self.write_timeout:g} s") from None


# lp's answer, in the C locale we run it in: "request id is index-12 (1 file(s))".
_REQUEST = re.compile(r"request id is (\S+)")
# CUPS's own words, whatever the reader's language: we read them, the reader reads ours.
_C_LOCALE = {"LC_ALL": "C", "LANG": "C", "LANGUAGE": "C"}


def _cups_env() -> dict[str, str]:
    return {**os.environ, **_C_LOCALE}


@dataclass
class CupsTransport:
    """A CUPS queue, raw: ``lp -d QUEUE -o raw`` (the queue's driver must not translate).
    After sending, ``job`` holds the job's id (``index-12``); a queue found stopped is an
    error naming the job, which waits in it."""

    queue: str
    job: str = ""

    def send(self, job: Job, from_page: int = 1, progress: Progress | None = None) -> None:
        lp = shutil.which("lp")
        if lp is None:
            raise TransportError("lp_missing")
        result = subprocess.run([lp, "-d", self.queue, "-o", "raw"], input=job.data(from_page),
                                capture_output=True, check=False, env=_cups_env())
        if result.returncode != 0:
            reason = result.stderr.decode(errors="replace").strip().splitlines()
            if reason:
                raise TransportError("cups_refused", queue=self.queue, reason=reason[-1])
            raise TransportError("cups_refused_silently", queue=self.queue)
        found = _REQUEST.search(result.stdout.decode(errors="replace"))
        self.job = found.group(1) if found else self.queue
        if cups_stopped(self.queue):
            raise TransportError("cups_stopped", queue=self.queue, job=self.job)
        if progress is not None:
            progress(len(job.pages), len(job.pages))


def cups_stopped(queue: str) -> bool:
    """Whether CUPS holds ``queue`` stopped (disabled: jobs wait, nothing prints)."""
    lpstat = shutil.which("lpstat")
    if lpstat is None:
        return False
    try:
        result = subprocess.run([lpstat, "-p", queue], capture_output=True, text=True,
                                timeout=10, check=False, env=_cups_env())
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0 and f"printer {queue} disabled" in result.stdout


def serial_ports() -> list[tuple[str, str]]:
    """The serial ports pyserial sees: (device, description)."""
    from serial.tools import list_ports

    return sorted((port.device, port.description or "") for port in list_ports.comports())


def cups_queues() -> list[str]:
    """The CUPS queues ``lpstat -e`` lists; none when CUPS is absent or not running."""
    lpstat = shutil.which("lpstat")
    if lpstat is None:
        return []
    try:
        result = subprocess.run([lpstat, "-e"], capture_output=True, text=True, timeout=10,
                                check=False, env=_cups_env())
    except (OSError, subprocess.TimeoutExpired):
        return []
    if result.returncode != 0:
        return []
    return [line.strip() for line in result.stdout.splitlines() if line.strip()]
