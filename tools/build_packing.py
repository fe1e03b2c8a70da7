"""Compile the Rummikub packing's five search modules with mypyc, next to their sources, and
record the sha256 of each source compiled (``compiled.sha256``): the guard in
``games/rummikub/packing/__init__.py`` uses the compiled modules only while every source still
has its recorded hash.

    .venv/bin/python tools/build_packing.py          # run by `make setup`

The build runs in ``build/packing/``, away from pyproject.toml (the venv's setuptools would
read it and reject its licence field); the built files are then moved next to the sources.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "games" / "rummikub" / "packing"
GROUP = "games.rummikub.packing.compiled"  # the shared library: compiled__mypyc.*.so
WORK = ROOT / "build" / "packing"


def build() -> None:
    """Compile the five modules and put them, then their manifest, next to the sources."""
    from mypyc.build import mypycify
    from setuptools import setup

    from games.rummikub.packing import COMPILED_MODULES as MODULES
    from games.rummikub.packing import MANIFEST, manifest

    (PACKAGE / MANIFEST).unlink(missing_ok=True)  # no manifest: the sources are used meanwhile
    recorded = manifest(PACKAGE)  # before compiling: a source edited meanwhile will not match
    shutil.rmtree(WORK, ignore_errors=True)
    (WORK / "games" / "rummikub" / "packing").mkdir(parents=True)  # where --inplace puts them
    os.chdir(WORK)
    sources = [str(PACKAGE / f"{name}.py") for name in MODULES]
    setup(name="brailledev-packing",
          ext_modules=mypycify([f"--config-file={ROOT / 'pyproject.toml'}", *sources],
                               opt_level="3", group_name=GROUP),
          script_args=["--quiet", "build_ext", "--inplace"])
    built = sorted((WORK / "games" / "rummikub" / "packing").glob("*.so"))
    if len(built) != len(MODULES) + 1:
        sys.exit(f"mypyc built {len(built)} libraries, not {len(MODULES) + 1}")
    for library in built:
        for old in PACKAGE.glob(library.name.split(".")[0] + ".*.so"):
            old.unlink()
        shutil.move(library, PACKAGE / library.name)
    (PACKAGE / MANIFEST).write_text(recorded, encoding="utf-8")


if __name__ == "__main__":
    build()
