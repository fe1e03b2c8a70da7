"""The udev rules for embossers: show them, or install them and reload udev.

By default the rules claim embossers only (by the maker's name they report); ``adapters``
adds the USB-serial adapters an embosser's serial cable may go through (FTDI, Prolific,
CH340, CP210x), which claims every adapter of those makes for the logged-in user.

The installed file starts with a stamp holding the checksum of the rest: a file whose stamp
no longer matches was edited by hand, and ``install`` leaves it alone unless ``force`` (then
the edited file is kept beside it, under a name udev does not read).

    print(rules_text(adapters=True))
    install(Path("/etc/udev/rules.d"), lang="fr")      # as root; says what it did
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from brailledev.files import write_atomically
from emboss.transport import write_file
from layouts.catalog import output_text
from layouts.errors import TransportError, UserError, system_reason

RULES_NAME = "70-brailledev-embossers.rules"
RULES_FOLDER = Path(__file__).resolve().parent.parent / "udev"
RULES_FILE = RULES_FOLDER / RULES_NAME
ADAPTERS_FILE = RULES_FOLDER / "usb-serial-adapters.rules"
SYSTEM_RULES = Path("/etc/udev/rules.d")
_STAMP = re.compile(r"# brailledev udev rules, sha256 ([0-9a-f]{64})\n")
# Rules brailledev installed before files carried a stamp: replaced without asking.
EARLIER_RULES = frozenset({
    "692c47a49423b3d71b7ed15a6a96b9f46b6c5dd5f1876a98c703c00427d56365",
})
_END = 'LABEL="brailledev_end"'


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError("udev_rules_missing", path=path) from None


def rules_text(adapters: bool = False) -> str:
    """The rules as ``install`` writes them, stamp included: embossers only, or with the
    USB-serial adapters: ``rules_text(adapters=True)``."""
    body = _read(RULES_FILE)
    if adapters:
        body = body.replace(_END, _read(ADAPTERS_FILE) + "\n" + _END)
    return f"# brailledev udev rules, sha256 {_digest(body)}\n{body}"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def untouched(text: str) -> bool:
    """Whether a rules file is as brailledev wrote it (any version): its stamp matches the
    rest, or it is one of the rules shipped before the stamp."""
    found = _STAMP.match(text)
    if found is None:
        return _digest(text) in EARLIER_RULES
    return found.group(1) == _digest(text[found.end():])


def install(target: Path = SYSTEM_RULES, is_root: bool | None = None,
            udevadm: str | None = "", lang: str = "en", adapters: bool = False,
            force: bool = False) -> str:
    """Install the rules into ``target`` and ask udev to apply them; returns what was done,
    in ``lang``. A rules file edited by hand is refused unless ``force``.

    ``udevadm`` is the program to reload with: found on the PATH by default, ``None`` to
    leave udev alone (a test, or a system image being prepared).
    """
    root = os.geteuid() == 0 if is_root is None else is_root
    if not root:
        raise UserError("udev_needs_root")
    destination = target / RULES_NAME
    wanted = rules_text(adapters)
    try:
        found = destination.read_bytes()
        present: str | None = found.decode("utf-8", errors="replace")
    except FileNotFoundError:
        found, present = b"", None
    except OSError as error:
        raise TransportError("cannot_write", path=destination,
                             reason=system_reason(error)) from None
    if present == wanted:
        done = output_text("udev.unchanged", lang, path=destination)
    elif present is None:
        write_file(destination, wanted.encode("utf-8"))
        done = output_text("udev.installed", lang, path=destination)
    elif untouched(present):
        write_file(destination, wanted.encode("utf-8"))
        done = output_text("udev.updated", lang, path=destination)
    elif not force:
        raise UserError("udev_rules_edited", path=destination)
    else:
        kept = destination.with_name(f"{RULES_NAME}.edited-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            write_atomically(kept, found)  # byte for byte, whatever was typed in it
        except OSError as error:
            raise TransportError("cannot_write", path=kept,
                                 reason=system_reason(error)) from None
        write_file(destination, wanted.encode("utf-8"))
        done = output_text("udev.replaced", lang, path=destination, kept=kept)
    return _reload(udevadm, done, lang)


def _reload(udevadm: str | None, done: str, lang: str) -> str:
    """Ask udev to read the rules again and apply them to what is plugged in now."""
    if udevadm == "":
        udevadm = shutil.which("udevadm")
    if udevadm is None:
        return output_text("udev.no_udevadm", lang, done=done)
    for command in ([udevadm, "control", "--reload"],
                    [udevadm, "trigger", "--subsystem-match=tty",
                     "--subsystem-match=usbmisc", "--action=add"]):
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            return output_text("udev.reload_failed", lang, done=done,
                               command=" ".join(command[1:]),
                               detail=result.stderr.strip() or result.returncode)
    return output_text("udev.reloaded", lang, done=done)
