"""The udev rules for embossers: show them, or install them and reload udev.

    print(rules_text())
    install(Path("/etc/udev/rules.d"), lang="fr")      # as root; says what it did
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from emboss.transport import write_file
from layouts.catalog import output_text
from layouts.errors import UserError

RULES_NAME = "70-brailledev-embossers.rules"
RULES_FILE = Path(__file__).resolve().parent.parent / "udev" / RULES_NAME
SYSTEM_RULES = Path("/etc/udev/rules.d")


def rules_text() -> str:
    """The rules file as shipped."""
    try:
        return RULES_FILE.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError("udev_rules_missing", path=RULES_FILE) from None


def install(target: Path = SYSTEM_RULES, is_root: bool | None = None,
            udevadm: str | None = "", lang: str = "en") -> str:
    """Install the rules into ``target`` and ask udev to apply them; returns what was done,
    in ``lang``.

    ``udevadm`` is the program to reload with: found on the PATH by default, ``None`` to
    leave udev alone (a test, or a system image being prepared).
    """
    root = os.geteuid() == 0 if is_root is None else is_root
    if not root:
        raise UserError("udev_needs_root")
    destination = target / RULES_NAME
    write_file(destination, rules_text().encode("utf-8"))
    if udevadm == "":
        udevadm = shutil.which("udevadm")
    if udevadm is None:
        return output_text("udev.no_udevadm", lang, path=destination)
    for command in ([udevadm, "control", "--reload"],
                    [udevadm, "trigger", "--subsystem-match=tty",
                     "--subsystem-match=usbmisc", "--action=add"]):
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            return output_text("udev.reload_failed", lang, path=destination,
                               command=" ".join(command[1:]),
                               detail=result.stderr.strip() or result.returncode)
    return output_text("udev.installed", lang, path=destination)
