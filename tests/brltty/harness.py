"""A real BRLTTY with its Virtual braille driver, and the display side of its protocol.

The harness starts ``brltty`` (foreground, no screen, no speech, no system configuration)
with the Virtual driver listening on a free loopback port and BrlAPI on its own free loopback
port without authentication, then connects as the braille display: it announces the size,
reads the ``Braille "1|12|..."`` lines BRLTTY sends, and presses keys (``route 5``,
``fwinrt``...). It can stop and restart BRLTTY on the same ports (for reconnect tests) and
always kills what it started.

    with VirtualBrltty(columns=40) as brltty:
        display = BrlapiDisplay(host=brltty.host)
        display.write(["⠗⠼⠑".ljust(40, "⠀")])
        brltty.wait_for(lambda rows: rows[0].startswith("⠗⠼⠑"))
        brltty.route(2)                  # 0-based cell, as in keys.Route
        assert display.read_key(2.0) == Route(2)
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from brailledev.display.braille import BLANK, Translator, dots_to_cell, numbers_to_dots
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.display.window import DOTS_78, LEFT_MARKER, RIGHT_MARKER
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from layouts.screen import MESSAGE_LINE
from tests.daemon import die_with_parent, free_port

READY_SETTLE = 0.2  # seconds between BRLTTY's braille device line and BrlAPI serving
BRLAPI_BASE_PORT = 4101  # BrlAPI listens on TCP port 4101 + N for host "127.0.0.1:N"
SEND_GAP = 0.03  # seconds between two lines sent to BRLTTY (see ``send``)
PUMP_IDLE, PUMPS = 0.15, 3  # empty lines after that many idle seconds, at most PUMPS
BRLTTY = shutil.which("brltty") or "/usr/sbin/brltty"
# The largest cell number the Virtual driver's commands carry (one byte).
VIRTUAL_MOST = 255


class HarnessError(RuntimeError):
    """BRLTTY did not start, or the display side did not see what it waited for."""


def _port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_brlapi_number() -> int:
    # Random numbers keep parallel test runs apart; the system's generator, because
    # hypothesis seeds the ``random`` module the same way in every run.
    chooser = random.SystemRandom()
    for _ in range(200):
        number = chooser.randint(2000, 30000)
        if _port_is_free(BRLAPI_BASE_PORT + number):
            return number
    raise HarnessError("no free loopback port for BrlAPI")


def parse_braille_line(line: str) -> str | None:
    """The cells of a ``Braille "1|12| |..."`` line as Unicode braille, else ``None``.

    >>> parse_braille_line('Braille "1|12| |78"')
    '⠁⠃⠀⣀'
    """
    words = line.strip().split(" ", 1)
    if len(words) != 2 or words[0].lower() != "braille":
        return None
    body = words[1].strip()
    if len(body) < 2 or body[0] != '"' or body[-1] != '"':
        return None
    return "".join(dots_to_cell(numbers_to_dots(cell.strip()))
                   for cell in body[1:-1].split("|"))


class VirtualBrltty:
    """A private BRLTTY on loopback ports, driven from the braille display's side."""

    def __init__(self, columns: int = 40, rows: int = 1, timeout: float = 10.0,
                 pump: bool = True, auth: str = "none") -> None:
        """``pump``: flush lines BRLTTY left waiting while ``wait_for`` waits (see ``send``);
        ``auth``: how BrlAPI clients authenticate (``keyfile:/path``; ``none``: they need not)."""
        self.auth = auth
        self.columns = columns
        self.rows = rows
        self.timeout = timeout
        self.directory = Path(tempfile.mkdtemp(prefix="brltty-harness-"))
        self.display_port = free_port()
        self.brlapi_number = _free_brlapi_number()
        self.process: subprocess.Popen[bytes] | None = None
        self._socket: socket.socket | None = None
        self._reader: threading.Thread | None = None
        self._changed = threading.Condition()
        self._cells: str | None = None
        self._updates = 0
        self._started = False
        self._send_lock = threading.RLock()
        self._last_send = 0.0
        self._pumps = PUMPS
        self.pump = pump
        self._closing = threading.Event()
        if pump:
            threading.Thread(target=self._pump, daemon=True).start()

    @property
    def host(self) -> str:
        """The BrlAPI host string for clients: ``127.0.0.1:N``."""
        return f"127.0.0.1:{self.brlapi_number}"

    @property
    def log(self) -> str:
        """What BRLTTY logged so far (for failure messages)."""
        path = self.directory / "brltty.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def __enter__(self) -> VirtualBrltty:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def start(self) -> None:
        """Start BRLTTY and connect as its display; ready when BrlAPI accepts clients."""
        if self.process is not None:
            raise HarnessError("BRLTTY is already running")
        for attempt in range(3):
            if attempt and not self._started:  # a port taken meanwhile: take others
                self.display_port, self.brlapi_number = free_port(), _free_brlapi_number()
            self._spawn()
            try:
                self._connect_display()
                self._wait_for_brlapi()
                self._started = True
                return
            except HarnessError:
                self._kill()
        raise HarnessError(f"BRLTTY did not start; its log:\n{self.log}")

    def _spawn(self) -> None:
        command = [
            BRLTTY, "-n", "-e", "-l", "info", "-x", "no", "-s", "no",
            "-b", "vr", "-d", f"server:127.0.0.1:{self.display_port}",
            "-A", f"host=127.0.0.1:{self.brlapi_number},auth={self.auth}",
            "-f", "/dev/null", "-F", str(self.directory / "brltty.prefs"),
            "-P", str(self.directory / "brltty.pid"),
            "-W", str(self.directory), "-U", str(self.directory),
            "-M", "1",
        ]
        with (self.directory / "brltty.log").open("ab") as log:
            # Own process group, so that cleanup reaches anything BRLTTY forks.
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log,
                                            stderr=subprocess.STDOUT, cwd=self.directory,
                                            start_new_session=True, preexec_fn=die_with_parent)

    def _wait_for_brlapi(self) -> None:
        """Ready once BRLTTY logged its braille device, and a moment more for BrlAPI.

        Asking BrlAPI itself is no good: a bare TCP probe makes BRLTTY reset and refuse
        clients for a while, and so, often, does a client that connects and leaves at once.
        """
        deadline = time.monotonic() + self.timeout
        while "Braille Device:" not in self.log:
            self._check_alive()
            if time.monotonic() > deadline:
                raise HarnessError("BRLTTY did not start its braille driver")
            time.sleep(0.02)
        time.sleep(READY_SETTLE)

    def _check_alive(self) -> None:
        if self.process is None or self.process.poll() is not None:
            raise HarnessError("BRLTTY exited")

    def _connect_display(self) -> None:
        deadline = time.monotonic() + self.timeout
        while True:
            self._check_alive()
            try:
                connection = socket.create_connection(("127.0.0.1", self.display_port), 0.5)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise HarnessError("BRLTTY's Virtual driver does not listen") from None
                time.sleep(0.02)
        connection.settimeout(None)
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._socket = connection
        with self._changed:
            self._cells = None
        self._reader = threading.Thread(target=self._read, args=(connection,), daemon=True)
        self._reader.start()
        first = self.updates
        self._send(f"cells {self.columns} {self.rows}")
        self.wait_for(lambda rows: True, after=first)
        # BRLTTY's start message swallows the first key; with -M 1 it goes after 10 ms.
        with contextlib.suppress(HarnessError):
            self.wait_for(lambda rows: True, timeout=2.0, after=first + 1)

    def _read(self, connection: socket.socket) -> None:
        buffer = b""
        while True:
            try:
                data = connection.recv(65536)
            except OSError:
                data = b""
            if not data:
                with self._changed:
                    self._changed.notify_all()
                return
            buffer += data
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                cells = parse_braille_line(line.decode("utf-8", "replace"))
                if cells is not None:
                    with self._changed:
                        self._cells = cells
                        self._updates += 1
                        self._changed.notify_all()

    def send(self, command: str) -> None:
        """Send one protocol line to BRLTTY, e.g. ``send("fwinrt")``.

        BRLTTY 6.5's Virtual driver takes one line each time data arrives: lines arriving
        together wait for the next arrival. So lines go ``SEND_GAP`` seconds apart, and after
        a command a pump sends a few empty lines (no-ops) once the line has been quiet for
        ``PUMP_IDLE`` seconds, to flush any left waiting.
        """
        self._send(command)
        with self._send_lock:
            self._pumps = 0

    def send_together(self, *lines: str) -> None:
        """Send ``lines`` in one write, as a client that does not wait between keys would:
        ``send_together("lnup", "lndn")`` (the Virtual driver then runs the first only)."""
        with self._send_lock:
            if self._socket is None:
                raise HarnessError("the display side is not connected")
            self._socket.sendall("".join(f"{line}\n" for line in lines).encode())
            self._last_send = time.monotonic()

    def _send(self, line: str) -> None:
        with self._send_lock:
            if self._socket is None:
                raise HarnessError("the display side is not connected")
            wait = self._last_send + SEND_GAP - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self._socket.sendall(line.encode() + b"\n")
            self._last_send = time.monotonic()

    def round_trip(self, command: str, timeout: float | None = None) -> float:
        """Seconds from sending ``command`` (e.g. ``route 3``) to the next ``Braille`` line.

        The clock starts just before the line leaves, after any ``SEND_GAP`` wait.
        """
        with self._send_lock:
            wait = self._last_send + SEND_GAP - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            before = self.updates
            if self._socket is None:
                raise HarnessError("the display side is not connected")
            start = time.perf_counter()
            self._socket.sendall(command.encode() + b"\n")
            self._last_send = time.monotonic()
            self._pumps = 0
        self.wait_for(lambda rows: True, timeout=timeout, after=before)
        return time.perf_counter() - start

    def _pump(self) -> None:
        while not self._closing.wait(PUMP_IDLE / 2):
            self._pump_if_stalled()

    def _pump_if_stalled(self) -> None:
        """An empty line when a command had no visible effect for a while (see ``send``)."""
        with self._send_lock:
            now = time.monotonic()
            due = (self.pump and self._socket is not None and self._pumps < PUMPS
                   and now - self._last_send >= PUMP_IDLE)
            if due:
                self._pumps += 1
        if due:
            with contextlib.suppress(OSError, HarnessError):
                self._send("")

    def route(self, cell: int, row: int = 0) -> None:
        """Press the routing key over 0-based ``cell`` of display ``row``.

        BRLTTY 6.5's Virtual driver takes ``route N`` for N >= 1 and hands BrlAPI clients
        argument N (it does not subtract the 1 its README counts from), so N is our 0-based
        cell and the very first cell of the display cannot be pressed through it. Its
        numbers stop at 255 (the one-byte argument of a BRLTTY command), so on a display of
        more cells the last rows cannot be routed through it either (``reaches``).
        """
        number = row * self.columns + cell
        if not self.reaches(cell, row):
            most = min(self.columns * self.rows - 1, VIRTUAL_MOST)
            raise HarnessError(f"the Virtual driver cannot press routing key {number} "
                               f"(it reaches 1 to {most})")
        self.send(f"route {number}")

    def reaches(self, cell: int, row: int = 0) -> bool:
        """Whether the Virtual driver can press the routing key over ``cell`` of ``row``."""
        number = row * self.columns + cell
        return 1 <= number < self.columns * self.rows and number <= VIRTUAL_MOST

    def row_key(self, row: int) -> None:
        """Press the key beside display ``row`` (a Canute's line keys, BRLTTY's ROUTE_LINE).

        As with ``route``, BRLTTY 6.5's Virtual driver hands clients the number sent, so
        ``route_line N`` is row N, and row 0 cannot be pressed through it.
        """
        if not 1 <= row < self.rows:
            raise HarnessError(f"the Virtual driver cannot press row key {row} "
                               f"(it reaches 1 to {self.rows - 1})")
        self.send(f"route_line {row}")

    def forward(self) -> None:
        """A Canute's Forward key (BRLTTY's WINDN)."""
        self.send("windn")

    def backward(self) -> None:
        """A Canute's Back key (BRLTTY's WINUP)."""
        self.send("winup")

    def enter(self) -> None:
        """Enter on a braille keyboard (BRLTTY's KEY_ENTER)."""
        self.send("key_enter")

    def pan_left(self) -> None:
        self.send("fwinlt")

    def pan_right(self) -> None:
        self.send("fwinrt")

    def line_up(self) -> None:
        self.send("lnup")

    def line_down(self) -> None:
        self.send("lndn")

    def top(self) -> None:
        self.send("top")

    def bottom(self) -> None:
        self.send("bot")

    def resize(self, columns: int, rows: int = 1) -> None:
        """Tell BRLTTY the display now has ``columns`` x ``rows`` cells."""
        self.columns, self.rows = columns, rows
        self.send(f"cells {columns} {rows}")

    @property
    def updates(self) -> int:
        """How many ``Braille`` lines arrived so far (to wait for the next one)."""
        with self._changed:
            return self._updates

    def cells(self) -> str:
        """All cells last shown, rows one after another."""
        with self._changed:
            return self._cells or ""

    def display_rows(self) -> list[str]:
        """The cells last shown, one string per display row."""
        cells = self.cells()
        return [cells[row * self.columns:(row + 1) * self.columns] for row in range(self.rows)]

    def wait_for(self, predicate: Callable[[list[str]], bool], timeout: float | None = None,
                 after: int = 0) -> list[str]:
        """Wait until the shown rows satisfy ``predicate`` (with update number > ``after``)."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        with self._changed:
            while True:
                if self._cells is not None and self._updates > after:
                    rows = [self._cells[row * self.columns:(row + 1) * self.columns]
                            for row in range(self.rows)]
                    if predicate(rows):
                        return rows
                left = deadline - time.monotonic()
                if left <= 0:
                    raise HarnessError(f"the display never showed what was expected; it shows "
                                       f"{self._cells!r}")
                if not self._changed.wait(min(left, PUMP_IDLE)):
                    self._changed.release()
                    try:
                        self._pump_if_stalled()
                    finally:
                        self._changed.acquire()

    def unplug(self) -> None:
        """Drop the display side, as if the display's cable were pulled; BRLTTY stays."""
        self._disconnect_display()

    def plug(self, columns: int | None = None, rows: int | None = None) -> None:
        """Connect a display again (of another size if given) to the running BRLTTY."""
        self.columns = columns or self.columns
        self.rows = rows or self.rows
        self._connect_display()

    def stop(self) -> None:
        """Stop BRLTTY (as a user or a package upgrade would) and drop the display side."""
        self._disconnect_display()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(self.timeout)
            except subprocess.TimeoutExpired:
                self._kill()
        self.process = None

    def restart(self) -> None:
        """Stop BRLTTY and start it again on the same ports."""
        self.stop()
        self.start()

    def close(self) -> None:
        """Stop everything and remove the private directory; safe to call twice."""
        self._closing.set()
        try:
            self.stop()
        finally:
            self._kill()
            shutil.rmtree(self.directory, ignore_errors=True)

    def _disconnect_display(self) -> None:
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.shutdown(socket.SHUT_RDWR)
            self._socket.close()
            self._socket = None
        if self._reader is not None:
            self._reader.join(self.timeout)
            self._reader = None

    def _kill(self) -> None:
        self._disconnect_display()
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None


def read_words(row: str, back: Callable[[str], str]) -> list[tuple[int, str]]:
    """The cell groups of a display ``row`` back-translated with ``back``, each with the index
    of its last cell, as a finger reads them: edge markers skipped, dots 7-8 (marks) read
    through to the six dots under them."""
    groups: list[tuple[int, str]] = []
    start = None
    for index, cell in enumerate([*row, BLANK]):
        word = cell not in (BLANK, LEFT_MARKER, RIGHT_MARKER)
        if word and start is None:
            start = index
        elif not word and start is not None:
            six = "".join(chr(ord(each) & ~DOTS_78) for each in row[start:index])
            groups.append((index - 1, back(six)))
            start = None
    return groups


class Fingers:
    """A player's fingers on the Virtual display, the game's front running in its own
    thread: press keys, wait until BRLTTY shows what the front wrote, read the words.

        with fingers_on(session, translator("en-ueb-g1.ctb")) as fingers:
            fingers.route_on("commands", "draw")
    """

    # The display the front writes to (a test may watch what is written).
    display_kind: type[BrlapiDisplay] = BrlapiDisplay
    pans = 0  # counted by route_region

    def __init__(self, brltty: VirtualBrltty, session: Session, table: Translator) -> None:
        self.brltty = brltty
        self.session = session
        self.table = table
        self.display = self.display_kind(host=brltty.host)
        self.front: Front[Any] = Front(session, self.display, table)
        self.thread = threading.Thread(target=self.front.run, daemon=True)
        self.keys = 0

    def settle(self, timeout: float = 10) -> None:
        """Wait until the front handled every key and BRLTTY shows what the front wrote."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (self.front.handled >= self.keys and self.front.idle.is_set()
                    and self.brltty.display_rows() == self.front.written):
                return
            time.sleep(0.005)
        raise AssertionError(f"display shows {self.brltty.display_rows()}")

    def press(self, action: str, *args: int | str) -> None:
        """Press a key and wait until it is handled and shown; a routing key waits, as a
        finger does, until cells the display changed by itself can have been felt (the
        front's ``reaction``: one sooner was aimed at what they showed before)."""
        if action == "route":
            time.sleep(max(0.0, self.front.changed_at + self.front.reaction - time.monotonic()))
        getattr(self.brltty, action)(*args)
        self.keys += 1
        self.settle()

    def words(self) -> list[tuple[int, str]]:
        """The cell groups of the display, back-translated, each with its last cell."""
        return read_words(self.brltty.display_rows()[0], self.table.back)

    def text(self) -> str:
        return " ".join(word for _, word in self.words())

    def read_all_messages(self) -> list[str]:
        """Read what the display puts before the player, each message whole: panning along
        a refusal until it is cleared, along the news until the display leaves the message
        line (past the newest's end: back where the player acts)."""
        read: list[str] = []
        window: list[str] = []
        while self.front.viewport.line_key == MESSAGE_LINE or self.front.seat.flash:
            flash = self.front.seat.flash
            window.append(self.text())
            more = self.brltty.display_rows()[0].endswith(RIGHT_MARKER)
            self.press("pan_right")
            if not more or (flash and not self.front.seat.flash):
                read.append(" ".join(window))
                window = []
        return read

    def newest(self) -> None:
        """BRLTTY's HOME: the newest message."""
        self.press("send", "home")

    def back(self) -> None:
        """BRLTTY's BACK: back to where the player was."""
        self.press("send", "back")

    def go_to(self, key: str) -> None:
        """Line keys up or down until the line ``key`` shows."""
        while self.front.viewport.line_key != key:
            present = [line.line.key for line in self.front.viewport.lines]
            here = present.index(str(self.front.viewport.line_key))
            self.press("line_down" if present.index(key) > here else "line_up")

    def route_word(self, word: str) -> None:
        """Pan along the current line from its start until ``word`` shows, then route over
        it."""
        while self.front.viewport.window > 0:
            self.press("pan_left")
        for _ in range(30):
            for cell, text in self.words():
                if text == word:
                    self.press("route", cell)
                    return
            self.press("pan_right")
        raise AssertionError(f"{word!r} never showed on the {self.front.viewport.line_key} line")

    def route_on(self, key: str, word: str) -> None:
        self.go_to(key)
        self.route_word(word)

    def route_region(self, key: str, index: int, wander: bool = False) -> None:
        """Go to line ``key``, pan to region ``index`` (first reading on along the line when
        ``wander``) and route it."""
        self.go_to(key)
        viewport = self.front.viewport
        laid = viewport.lines[viewport.top]
        while wander and viewport.window < min(2, len(laid.windows) - 1):
            self.press("pan_right")
            self.pans += 1
        wanted = laid.window_of(index)
        while viewport.window != wanted:
            self.press("pan_right" if viewport.window < wanted else "pan_left")
            self.pans += 1
        piece = next(piece for piece in laid.windows[wanted].pieces if piece.region == index)
        # the region's last cell: BRLTTY's Virtual driver never routes the first cell
        self.press("route", piece.column + piece.stop - piece.start - 1)


AnyFingers = TypeVar("AnyFingers", bound=Fingers)


@contextlib.contextmanager
def fingers_on(session: Session, table: Translator, kind: type[AnyFingers],
               columns: int = 40, rows: int = 1) -> Iterator[AnyFingers]:
    """A real BRLTTY of ``columns`` x ``rows`` cells with ``session`` played on it by
    fingers of ``kind`` (:class:`Fingers` or a game's own), stopped after."""
    with VirtualBrltty(columns=columns, rows=rows) as brltty:
        fingers = kind(brltty, session, table)
        fingers.thread.start()
        fingers.settle()
        try:
            yield fingers
        finally:
            fingers.front.stop()
            fingers.thread.join(10)
            fingers.display.close()
