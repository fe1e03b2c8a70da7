"""A blind player's own screen reader at the page: Debian's Orca reading Debian's Chromium on a
virtual X screen (Xvfb) to a braille display on a real BRLTTY (Virtual driver), with a private
D-Bus session and accessibility bus, and a home of its own thrown away after.

Orca translates nothing here: it writes text and BRLTTY shows it through its North American
computer braille table (``en-nabcc``, a capital with dot 7, the cursor as dots 7 and 8);
:func:`read_cells` turns those cells back into text.

    with OrcaDesk() as desk:
        page = desk.browser.new_page()
        page.goto(url)
        desk.wait_for_text(lambda text: "Sit down" in text)
        desk.pan_right()                   # the display's keys go to Orca, as a reader's do
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from functools import cache
from pathlib import Path
from types import TracebackType

import louis
from playwright.sync_api import Browser, sync_playwright

from tests.brltty.harness import VirtualBrltty
from tests.daemon import die_with_parent, end
from tests.web.helpers import CHROMIUM, FLAGS

ORCA = shutil.which("orca") or "/usr/bin/orca"
XVFB = shutil.which("Xvfb") or "/usr/bin/Xvfb"
DOT_7, DOT_8 = 0x40, 0x80
BLANK = 0x2800
ORCA_WAIT = 600  # seconds a desk waits for another Orca of this user to end
ORCA_SETTLES = 3  # an Orca that refuses to start ends within this


@cache
def _nabcc() -> dict[str, str]:
    """Each cell of BRLTTY's ``en-nabcc`` text table and the character it shows."""
    found: dict[str, str] = {}
    for character in map(chr, range(32, 127)):
        cell = louis.translateString(["en-nabcc.utb"], character,
                                     mode=louis.dotsIO | louis.ucBrl)
        found.setdefault(cell, character)
    return found


def read_cells(cells: str) -> str:
    """The text of a row of computer braille cells, the cursor (dots 7 and 8 together) left
    out, and with it the case of the letter under it: ``read_cells("⣗⠑⠙")`` is ``"red"``,
    ``read_cells("⡗⠑⠙")`` is ``"Red"``; a cell's place is its character's."""
    table, text = _nabcc(), []
    for cell in cells:
        dots = ord(cell) - BLANK
        if dots & DOT_8:
            dots &= ~(DOT_7 | DOT_8)
        text.append(table.get(chr(BLANK + dots), "?"))
    return "".join(text).rstrip()


def _free_display() -> int:
    """A number of an X display nobody uses (no lock file in /tmp)."""
    for number in range(90 + os.getpid() % 400, 900):
        if not Path(f"/tmp/.X{number}-lock").exists():
            return number
    raise RuntimeError("no free X display number")


class OrcaDesk:
    """Xvfb, a D-Bus session, BRLTTY, Orca and Chromium (not headless: Orca reads what an X
    screen shows), all started here and all stopped at the end, in that order reversed."""

    def __init__(self, columns: int = 40) -> None:
        self.columns = columns
        self.stack = ExitStack()
        self.home = Path(tempfile.mkdtemp(prefix="orca-desk-"))
        self.env: dict[str, str] = {}
        self.brltty: VirtualBrltty
        self.browser: Browser
        self.seen: list[str] = []  # every text the display showed, in order
        self._done = threading.Event()

    def __enter__(self) -> OrcaDesk:
        try:
            self._start()
        except BaseException:
            self.stack.close()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stack.close()
        shutil.rmtree(self.home, ignore_errors=True)

    def _spawn(self, command: list[str], log: str) -> subprocess.Popen[bytes]:
        with (self.home / log).open("ab") as out:
            process = subprocess.Popen(command, env=self.env, stdin=subprocess.DEVNULL,
                                       stdout=out, stderr=subprocess.STDOUT,
                                       start_new_session=True, preexec_fn=die_with_parent)
        self.stack.callback(end, process, grace=5.0)
        return process

    def _start(self) -> None:
        run = self.home / "run"
        run.mkdir(mode=0o700)
        number = _free_display()
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home),
                    "XDG_RUNTIME_DIR": str(run),
                    "XDG_CONFIG_HOME": str(self.home / "config"),
                    "XDG_DATA_HOME": str(self.home / "data"),
                    "XDG_CACHE_HOME": str(self.home / "cache"),
                    "DISPLAY": f":{number}", "LANG": "C.UTF-8", "GTK_USE_PORTAL": "0"}
        self._spawn([XVFB, f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                    "xvfb.log")
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            if time.monotonic() > deadline:
                raise RuntimeError("Xvfb did not start")
            time.sleep(0.02)
        bus = self._spawn(["dbus-daemon", "--session", "--nofork", "--print-address=1",
                           f"--address=unix:path={run}/bus"], "dbus.log")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={run}/bus"
        while not (run / "bus").exists():
            if bus.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the D-Bus session did not start")
            time.sleep(0.02)
        self.brltty = self.stack.enter_context(VirtualBrltty(columns=self.columns))
        self.env["BRLAPI_HOST"] = self.brltty.host
        watcher = threading.Thread(target=self._watch, daemon=True)
        watcher.start()
        self.stack.callback(watcher.join)
        self.stack.callback(self._done.set)
        self._start_orca()
        driver = self.stack.enter_context(sync_playwright())
        self.browser = driver.chromium.launch(
            executable_path=CHROMIUM, headless=False,
            args=[*FLAGS, "--force-renderer-accessibility"],
            env={**self.env, "ACCESSIBILITY_ENABLED": "1"})
        self.stack.callback(self.browser.close)

    def _start_orca(self) -> None:
        """Orca, once no other Orca of this user runs: it refuses to start beside one (it
        looks for any process of the user named orca, other desks' too), so a desk waits its
        turn and starts again if another Orca came first."""
        deadline = time.monotonic() + ORCA_WAIT
        while True:
            while _other_orcas():
                if time.monotonic() > deadline:
                    raise RuntimeError("another Orca of this user kept running")
                time.sleep(0.5)
            orca = self._spawn([ORCA, "-e", "braille", "-d", "speech"], "orca.log")
            try:
                orca.wait(ORCA_SETTLES)
            except subprocess.TimeoutExpired:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"Orca did not start:\n{self.log}")

    def _watch(self) -> None:
        """Keep every text the display shows (a flash message lasts seconds)."""
        while not self._done.wait(0.02):
            shown = self.text()
            if not self.seen or self.seen[-1] != shown:
                self.seen.append(shown)

    @property
    def log(self) -> str:
        """What Orca said of itself (for failure messages)."""
        path = self.home / "orca.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def text(self) -> str:
        """What the braille display shows now, as text (blanks around it left out)."""
        return read_cells(self.brltty.cells()).strip()

    def wait_for_text(self, fits: Callable[[str], bool], timeout: float = 15) -> str:
        """Wait until the display shows a text that ``fits``; that text."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.text()
            if fits(shown):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"the display never showed it; it shows {shown!r}\n"
                                     f"{self.log}")
            time.sleep(0.05)

    def press(self, command: str, settle: float = 0.25, patience: float = 3) -> str:
        """Press one of the display's keys (a BRLTTY command: ``fwinrt``, ``route 3``), then
        what it shows once it stops changing (the same text after ``patience`` seconds
        without a change: a window like the one before, or nothing more to show)."""
        before = self.brltty.updates
        self.brltty.send(command)
        deadline = time.monotonic() + patience
        while self.brltty.updates == before and time.monotonic() < deadline:
            time.sleep(0.02)
        while True:
            seen = self.brltty.updates
            time.sleep(settle)
            if self.brltty.updates == seen:
                return self.text()

    def pan_right(self) -> str:
        """Pan on, as a reader does through a page; what the display shows then."""
        return self.press("fwinrt")


def _other_orcas() -> bool:
    """Whether an Orca of this user runs (as Orca itself looks: ``pgrep -u UID -x orca``)."""
    found = subprocess.run(["pgrep", "-u", str(os.getuid()), "-x", "orca"],
                           capture_output=True, check=False)
    return bool(found.stdout.strip())
