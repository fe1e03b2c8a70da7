"""A real braille display through BRLTTY's BrlAPI.

Takes the display in tty mode (``enterTtyModeWithPath``: the root of the tty tree, so the
game keeps the display whatever console has the focus), writes Unicode braille cells, and
reads only the BRLTTY commands we use: routing keys, panning, line up/down, top/bottom, help,
the newest message (BRLTTY's HOME, "go to the cursor") and back to where the reader was (its
BACK, "go back"), and braille keyboard dots. Every other key stays with BRLTTY.

A display of several rows: a routing key's argument counts cells across the rows (row r
starts at ``r * columns``), as BRLTTY's own ``ROUTE`` does; a Canute, which has no routing
keys, sends ``ROUTE_LINE`` from the key beside each row (``RowKey``) and ``WINUP``/``WINDN``
from its Back and Forward keys, a Dot Pad ``PRDIFLN``/``NXDIFLN`` from its keys F2 and F3
(``Backward``/``Forward``); Enter on a braille keyboard acts on what they picked. A write
rewrites only the rows that changed, one BrlAPI write a row (the slow multi-line displays
refresh what they are sent: a Canute takes about 1.2 s a row).

When BRLTTY goes away (restarted, or its display unplugged: size 0) nothing is lost: the
last content is kept, ``read_key`` reconnects with a growing delay and redraws it, and
reports ``Named(RESIZED)`` if the display that came back has another size.

    display = BrlapiDisplay(host="127.0.0.1:1")     # None: BrlAPI's own default
    display.write(["⠗⠼⠑".ljust(display.columns, "⠀")])
    key = display.read_key(timeout=1.0)             # Route(0), PanRight(), ... or None
"""

from __future__ import annotations

import collections
import contextlib
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import brlapi

from brailledev.display.base import RESIZED, fit
from brailledev.display.keys import (
    ACT,
    BACK,
    NEWEST,
    Backward,
    Bottom,
    Chord,
    Forward,
    Key,
    LineDown,
    LineUp,
    Named,
    PanLeft,
    PanRight,
    Route,
    RowKey,
    Top,
)
from brailledev.errors import DisplayGone
from layouts.errors import Problem, UserError, system_reason

_ERRORS = (brlapi.ConnectionError, brlapi.OperationError)
# Basic commands we take from BRLTTY, each with the key it becomes.
_COMMANDS: dict[int, Key] = {
    brlapi.KEY_CMD_FWINLT: PanLeft(),
    brlapi.KEY_CMD_FWINLTSKIP: PanLeft(),
    brlapi.KEY_CMD_FWINRT: PanRight(),
    brlapi.KEY_CMD_FWINRTSKIP: PanRight(),
    brlapi.KEY_CMD_LNUP: LineUp(),
    brlapi.KEY_CMD_LNDN: LineDown(),
    brlapi.KEY_CMD_TOP: Top(),
    brlapi.KEY_CMD_TOP_LEFT: Top(),
    brlapi.KEY_CMD_BOT: Bottom(),
    brlapi.KEY_CMD_BOT_LEFT: Bottom(),
    brlapi.KEY_CMD_HELP: Named("help"),
    # Where the news is, as HOME goes where the cursor is; BACK returns, as in BRLTTY.
    brlapi.KEY_CMD_HOME: Named(NEWEST),
    brlapi.KEY_CMD_BACK: Named(BACK),
    # A Canute's Back and Forward keys, a Dot Pad's F2 and F3: pick along the rows.
    brlapi.KEY_CMD_WINUP: Backward(),
    brlapi.KEY_CMD_WINDN: Forward(),
    brlapi.KEY_CMD_PRDIFLN: Backward(),
    brlapi.KEY_CMD_NXDIFLN: Forward(),
}
# Commands with an argument (a cell, a row, dots): the whole block is ours.
_BLOCKS = (brlapi.KEY_CMD_ROUTE, brlapi.KEY_CMD_ROUTE_LINE, brlapi.KEY_CMD_PASSDOTS)
# Enter on a braille keyboard (dot 8 alone in BRLTTY's chords): act on what was picked.
_ENTER = brlapi.KEY_TYPE_SYM | brlapi.KEY_SYM_LINEFEED
_SLICE = 0.25  # seconds; how often a waiting read looks at the display's size
_FIRST_DELAY, _MAX_DELAY = 0.05, 2.0


class BrlapiDisplay:
    """A braille display reached through BrlAPI; see the module docstring."""

    def __init__(self, host: str | None = None, auth: str | None = None,
                 give_up: float | None = None, connect_timeout: float = 0.0) -> None:
        """Connect now (``DisplayGone`` if no BRLTTY with a display answers).

        ``give_up``: seconds without BRLTTY after which ``read_key`` raises
        ``DisplayGone``; ``None`` waits for it forever. ``connect_timeout``: seconds to
        keep trying the first connection (a BRLTTY just asked by ``probe`` may turn the
        next client away for a moment).
        """
        self.host = host
        self.auth = auth
        self.give_up = give_up
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._connection: Any = None
        self._columns = 0
        self._rows = 0
        self._driver = ""
        self._watched_size: tuple[int, int] | None = None
        self._pending: collections.deque[Key] = collections.deque()
        self._last: tuple[list[str], int | None] | None = None
        # The rows this connection last wrote (None: write them all).
        self._sent: list[str] | None = None
        # BrlAPI writes made, one per row rewritten.
        self.writes = 0
        self._gone_since: float | None = None
        self._reconnector: threading.Thread | None = None
        self._closed = False
        self.reconnections = 0
        deadline = time.monotonic() + connect_timeout
        while not self._connect():
            if time.monotonic() >= deadline:
                raise DisplayGone(f"no braille display answers through BRLTTY at "
                                  f"{host or 'the default BrlAPI address'}")
            time.sleep(0.1)

    @property
    def columns(self) -> int:
        return self._columns

    @property
    def rows(self) -> int:
        return self._rows

    @property
    def driver(self) -> str:
        """BRLTTY's name for the display's driver, e.g. ``Virtual``."""
        return self._driver

    @property
    def connected(self) -> bool:
        return self._connection is not None

    def write(self, rows: Sequence[str], cursor: int | None = None,
              text: Sequence[str] | None = None) -> None:
        """Show ``rows``; kept for the redraw if BRLTTY is away right now."""
        with self._lock:
            self._last = (list(rows), cursor)
            if self._connection is None:
                return
            try:
                self._send(self._connection, rows, cursor)
            except _ERRORS:
                self._drop()

    def read_key(self, timeout: float | None = None) -> Key | None:
        """The next key we use; while BRLTTY is away, waits for it to come back."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                if self._pending:
                    return self._pending.popleft()
                connection = self._connection
            left = _SLICE if deadline is None else min(_SLICE, deadline - time.monotonic())
            left = max(left, 0.0)
            if connection is None:
                self._wait_for_connection(left)
            else:
                key = self._read_from(connection, left)
                if key is not None:
                    return key
            if deadline is not None and time.monotonic() >= deadline and not self._pending:
                return None

    def close(self) -> None:
        with self._lock:
            self._closed = True
            connection, self._connection = self._connection, None
            self._changed.notify_all()
        if connection is not None:
            with contextlib.suppress(*_ERRORS):
                connection.leaveTtyMode()
                connection.closeConnection()

    def _read_from(self, connection: Any, seconds: float) -> Key | None:
        try:
            code = connection.readKeyWithTimeout(int(seconds * 1000))
        except _ERRORS:
            with self._lock:
                if self._connection is connection:
                    self._drop()
            return None
        self._check_size()
        return None if code is None else self._key(code)

    def _wait_for_connection(self, seconds: float) -> None:
        with self._lock:
            if self.give_up is not None and self._gone_since is not None \
                    and time.monotonic() - self._gone_since > self.give_up:
                raise DisplayGone(f"BRLTTY has not come back for {self.give_up:g} seconds")
            if self._connection is None:
                self._changed.wait(seconds)

    def _connect(self) -> bool:
        """Open a connection; ``False`` when BRLTTY or its display is not there."""
        try:
            connection = brlapi.Connection(
                self.host.encode() if self.host else None,
                self.auth.encode() if self.auth else None)
        except _ERRORS as error:
            if getattr(error, "brlerrno", None) == brlapi.ERROR_AUTHENTICATION \
                    and self.reconnections == 0 and not self._columns:
                raise auth_refusal(error, self.host) from None  # only on the first connection
            return False
        try:
            columns, rows = connection.displaySize
            if columns * rows == 0:
                connection.closeConnection()
                return False
            connection.enterTtyModeWithPath([])
            connection.ignoreAllKeys()
            connection.acceptKeys(brlapi.rangeType_command,
                                  [brlapi.KEY_TYPE_CMD | block for block in _BLOCKS])
            connection.acceptKeys(brlapi.rangeType_key,
                                  [brlapi.KEY_TYPE_CMD | command for command in _COMMANDS]
                                  + [_ENTER])
            connection.watchParameter(brlapi.PARAM_DISPLAY_SIZE, 0, brlapi.PARAMF_GLOBAL,
                                      self._size_watched)
            driver = connection.driverName
        except _ERRORS:
            with contextlib.suppress(*_ERRORS):
                connection.closeConnection()
            return False
        with self._lock:
            if self._closed:
                with contextlib.suppress(*_ERRORS):
                    connection.closeConnection()
                return True
            if self._columns and (columns, rows) != (self._columns, self._rows):
                self._pending.append(Named(RESIZED))
            self._columns, self._rows = columns, rows
            self._driver = _text(driver)
            self._connection = connection
            self._sent = None
            back, self._gone_since = self._gone_since is not None, None
            if self._last is not None:
                try:
                    self._send(connection, *self._last)
                except _ERRORS:
                    self._drop()
                    return False
            if back:  # counted with the redraw, under the lock: whoever sees one sees both
                self.reconnections += 1
            self._changed.notify_all()
        return True

    def _send(self, connection: Any, rows: Sequence[str], cursor: int | None) -> None:
        """The rows that changed since the last write, each with one BrlAPI write (its region
        counted across the rows); the cursor goes with the first."""
        fitted = fit(rows, self._columns, self._rows)
        sent = self._sent
        changed = [number for number, row in enumerate(fitted)
                   if sent is None or row != sent[number]]
        self._sent = None  # until every write went through
        for order, number in enumerate(changed):
            extra = {} if order else \
                {"cursor": brlapi.CURSOR_OFF if cursor is None else cursor + 1}
            connection.write(text=fitted[number], regionBegin=number * self._columns + 1,
                             regionSize=self._columns, **extra)
            self.writes += 1
        self._sent = fitted

    def _drop(self, delay: float = _FIRST_DELAY) -> None:
        """Forget the connection and reconnect in the background (BrlAPI calls can block
        while BRLTTY's braille driver restarts; the game must not)."""
        connection, self._connection = self._connection, None
        if self._gone_since is None:
            self._gone_since = time.monotonic()
        if self._reconnector is None or not self._reconnector.is_alive():
            self._reconnector = threading.Thread(target=self._reconnect,
                                                 args=(connection, delay), daemon=True)
            self._reconnector.start()

    def _reconnect(self, old: Any, delay: float) -> None:
        if old is not None:
            with contextlib.suppress(*_ERRORS):
                old.closeConnection()
        while not self._closed:
            time.sleep(delay)
            if self._connect():
                return
            delay = min(_MAX_DELAY, max(_FIRST_DELAY, delay * 2))

    def _size_watched(self, param: int, subparam: int, flags: int, value: Any) -> None:
        # Called by BrlAPI inside readKey; acted on after the read returns. Asking BRLTTY
        # for the size instead would block while its braille driver restarts.
        self._watched_size = (int(value[0]), int(value[1]))

    def _check_size(self) -> None:
        size, self._watched_size = self._watched_size, None
        with self._lock:
            if size is None or self._connection is None:
                return
            if size != (self._columns, self._rows):
                # Size 0: unplugged, wait for a display. Another size: BRLTTY 6.5 only
                # lays a client out afresh on a new connection, so reconnect at once.
                self._drop(delay=0.0 if size[0] * size[1] else _FIRST_DELAY)

    def _key(self, code: int) -> Key | None:
        parts = brlapi.expandKeyCode(code)
        if parts["type"] == brlapi.KEY_TYPE_SYM:
            return Named(ACT) if parts["command"] | parts["argument"] == _ENTER else None
        if parts["type"] != brlapi.KEY_TYPE_CMD:
            return None
        command, argument = parts["command"], parts["argument"]
        if command == brlapi.KEY_CMD_ROUTE:
            columns = max(self._columns, 1)
            return Route(argument % columns, argument // columns)
        if command == brlapi.KEY_CMD_ROUTE_LINE:
            return RowKey(argument)
        if command == brlapi.KEY_CMD_PASSDOTS:
            return Chord(argument & 0xFF, space=bool(argument & brlapi.DOTC))
        return _COMMANDS.get(command)


@dataclass(frozen=True)
class BrlttyInfo:
    """What a BRLTTY told us about its display (size 0 x 0: no display attached)."""

    host: str | None
    driver: str
    columns: int
    rows: int


def probe(host: str | None = None, auth: str | None = None,
          timeout: float = 3.0) -> BrlttyInfo | None:
    """Ask a BRLTTY about its display, or ``None`` if none answers within ``timeout``; a
    BRLTTY that refuses our key (``auth``: BrlAPI's, e.g. ``keyfile:/etc/brlapi.key``) is a
    :class:`UserError` saying so and how to fix it.

    >>> probe("127.0.0.1:9999") is None      # nothing listens there
    True
    """
    answers: list[BrlttyInfo] = []
    denied: list[UserError] = []
    deadline = time.monotonic() + timeout

    def ask() -> None:
        listening = False
        while not answers and time.monotonic() < deadline:
            try:
                connection = brlapi.Connection(host.encode() if host else None,
                                               auth.encode() if auth else None)
            except brlapi.ConnectionError as error:
                refused = getattr(error, "brlerrno", None) == brlapi.ERROR_CONNREFUSED \
                    and not getattr(error, "libcerrno", 0)
                if refused and not listening:
                    return  # nothing listens there: no BRLTTY
                if getattr(error, "brlerrno", None) == brlapi.ERROR_AUTHENTICATION:
                    denied.append(auth_refusal(error, host))
                    return
                time.sleep(0.1)  # a BRLTTY busy starting or restarting: ask again
                continue
            listening = True
            try:
                # Never ask the model: with a driver that has none BRLTTY fails the request
                # and then refuses every new client for many seconds.
                columns, rows = connection.displaySize
                answers.append(BrlttyInfo(host, _text(connection.driverName), columns, rows))
            except _ERRORS:
                time.sleep(0.1)
            finally:
                with contextlib.suppress(*_ERRORS):
                    connection.closeConnection()

    # A BRLTTY whose braille driver is restarting can leave BrlAPI calls hanging.
    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    asking.join(timeout)
    if denied:
        raise denied[0]
    return answers[0] if answers else None


def auth_refusal(error: Exception, host: str | None) -> UserError:
    """The sentence for a BRLTTY that refused our BrlAPI key (an error whose ``brlerrno`` is
    ``ERROR_AUTHENTICATION``): why, and the two ways to fix it."""
    where = host or "the default BrlAPI address"
    code = getattr(error, "libcerrno", 0)
    if code:  # the key file itself could not be read
        why = Problem("brlapi_key_unreadable",
                      key=_text(getattr(error, "auth", b"") or b"/etc/brlapi.key"),
                      reason=system_reason(OSError(code, os.strerror(code))))
    else:
        why = Problem("brlapi_key_refused")
    return UserError("brlapi_auth_failed", where=where, why=why)


def _text(value: bytes | str) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)
