"""Compile the gettext catalogs: each ``layouts/locale/<lang>.po`` into ``<lang>.mo`` beside it,
written whole (a temporary file renamed), through polib (Debian's msgfmt makes the same file).

    .venv/bin/python tools/build_catalogs.py          # run by `make setup`

A ``.po`` newer than its ``.mo`` is read directly until this runs again
(layouts/translations.py), so a catalog edited or merged is never told from a stale build.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent.parent / "layouts" / "locale"


def build() -> list[Path]:
    """Compile every catalog; the compiled files: ``build()``."""
    built = []
    for source in sorted(LOCALE.glob("*.po")):
        target = source.with_suffix(".mo")
        partial = target.with_suffix(".mo.partial")
        partial.write_bytes(polib.pofile(str(source)).to_binary())
        os.replace(partial, target)
        built.append(target)
    return built


if __name__ == "__main__":
    for path in build():
        print(f"compiled {path.name}: {path.stat().st_size} bytes")
    sys.exit(0)
