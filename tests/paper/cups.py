"""A private CUPS scheduler for tests: its own ``cupsd -f`` on a free loopback port, its own
configuration, spool and logs in a temporary folder, and raw queues whose device is a small
capture backend of ours that copies each job, byte for byte, to a file (CUPS's own ``file:``
device writes nothing for a raw queue, by design). ``lp``/``lpstat`` (and so brailledev)
reach it through ``CUPS_SERVER``. Whatever happens, the scheduler is stopped and the folder
removed.

    with PrivateCups() as cups:
        cups.add_queue("index")
        os.environ["CUPS_SERVER"] = cups.server
        ... lp -d index -o raw ...
        cups.wait_done("index")
        cups.jobs("index")            # [b"...bytes of job 1...", ...]
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import subprocess
import time
from pathlib import Path

from tests.daemon import Daemon, PrivateDaemon

CUPSD = shutil.which("cupsd") or "/usr/sbin/cupsd"
SYSTEM_SERVER_BIN = Path("/usr/lib/cups")
CAPTURE = """#!/bin/sh
# Capture backend of the tests: each job's bytes into <folder>/job-<id> of its device URI.
if [ $# -eq 0 ]; then
    echo 'direct capture "Unknown" "Test capture"'
    exit 0
fi
folder="${DEVICE_URI#capture:}"
if [ -n "$6" ]; then cat "$6"; else cat; fi > "$folder/.job-$1"
mv "$folder/.job-$1" "$folder/job-$1"
"""


class CupsError(RuntimeError):
    """A job did not finish in time (a scheduler that does not start is
    :class:`tests.daemon.DaemonFailed`)."""


class PrivateCups(PrivateDaemon):
    """See the module docstring."""

    def __init__(self, timeout: float = 20.0) -> None:
        super().__init__("cups-harness-", timeout)

    @property
    def server(self) -> str:
        """What ``CUPS_SERVER`` is set to: ``127.0.0.1:PORT``."""
        return f"127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        return {**os.environ, "CUPS_SERVER": self.server, "LC_ALL": "C", "LANG": "C"}

    def start(self) -> None:
        folder = self.folder
        for name in ("conf", "spool", "spool/tmp", "cache", "state", "logs", "bin",
                     "bin/backend", "captured"):
            (folder / name).mkdir(mode=0o755, exist_ok=True)
        # Filters, daemons and the rest come from the system; the backends are only ours.
        for part in SYSTEM_SERVER_BIN.iterdir():
            if part.name != "backend":
                (folder / "bin" / part.name).symlink_to(part)
        backend = folder / "bin" / "backend" / "capture"
        backend.write_text(CAPTURE)
        # Mode 0700: cupsd runs it as the user that owns it (the test's), never as lp.
        backend.chmod(0o700)
        user = pwd.getpwuid(os.getuid()).pw_name
        group = grp.getgrgid(os.getgid()).gr_name
        if os.getuid() == 0:
            user, group = "lp", "lp"     # cupsd refuses to run filters as root
        (folder / "conf" / "cups-files.conf").write_text(f"""\
ServerRoot {folder}/conf
ServerBin {folder}/bin
DataDir /usr/share/cups
CacheDir {folder}/cache
StateDir {folder}/state
RequestRoot {folder}/spool
TempDir {folder}/spool/tmp
AccessLog {folder}/logs/access_log
ErrorLog {folder}/logs/error_log
PageLog {folder}/logs/page_log
User {user}
Group {group}
SystemGroup root
FileDevice Yes
Sandboxing Relaxed
""")
        (folder / "conf" / "cupsd.conf").write_text(f"""\
LogLevel warn
Listen 127.0.0.1:{self.port}
Browsing No
WebInterface No
DefaultAuthType None
JobRetryLimit 0
<Location />
  Order allow,deny
  Allow all
</Location>
<Policy default>
  <Limit All>
    Order allow,deny
    Allow all
  </Limit>
</Policy>
""")
        # What cupsd prints goes to its own error log: one place to read when it fails.
        self.daemon = Daemon(f"cupsd on {self.server}", [
            CUPSD, "-f", "-c", str(folder / "conf" / "cupsd.conf"),
            "-s", str(folder / "conf" / "cups-files.conf")], folder / "logs" / "error_log",
            grace=5.0)
        self.daemon.start()
        self.daemon.wait_until(
            lambda: self.lpstat("-r").stdout.strip() == "scheduler is running",
            self.timeout, pause=0.1)

    def log(self) -> str:
        return self.daemon.output() if self.daemon is not None else ""

    def lpstat(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["lpstat", *args], capture_output=True, text=True,
                              env=self.env(), check=False, timeout=10)

    def admin(self, *command: str) -> None:
        """Run a CUPS admin command (``lpadmin``, ``cupsdisable``) against this scheduler."""
        subprocess.run([*command], capture_output=True, text=True, env=self.env(), check=True,
                       timeout=10)

    def add_queue(self, name: str) -> None:
        """A raw queue whose device is the capture backend, enabled and accepting jobs."""
        (self.folder / "captured" / name).mkdir(exist_ok=True)
        self.admin("lpadmin", "-p", name, "-E", "-v",
                   f"capture:{self.folder / 'captured' / name}")

    def jobs(self, name: str) -> list[bytes]:
        """The bytes each finished job of queue ``name`` delivered, in job order."""
        found = sorted((self.folder / "captured" / name).glob("job-*"),
                       key=lambda path: int(path.name.split("-")[1]))
        return [path.read_bytes() for path in found]

    def wait_done(self, name: str, count: int) -> list[bytes]:
        """Wait until ``count`` jobs of queue ``name`` delivered their bytes."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            jobs = self.jobs(name)
            if len(jobs) >= count and not self.lpstat("-o", name).stdout.strip():
                return jobs
            time.sleep(0.05)
        raise CupsError(f"queue {name} delivered {len(self.jobs(name))} of {count} jobs: "
                        f"{self.lpstat('-o', name).stdout} {self.log()}")
