"""The Rummikub packing compiled by mypyc (issue 16): a compiled module is used only while its
source is the one compiled, compiled and pure answer alike, and a fresh build is in use."""

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from dataclasses import asdict
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from games.rummikub import packing, solve
from games.rummikub.packing import COMPILED, COMPILED_MODULES, MANIFEST, compiled_fresh
from tests.games.test_rummikub_solver import (
    joker_set_positions,
    random_position,
    solved_elsewhere,
)

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(packing.__file__).resolve().parent


def built(directory, names):
    """Sources, stand-ins for their libraries and the manifest of their hashes."""
    lines = []
    for name in names:
        source = directory / f"{name}.py"
        source.write_text(f"NAME = {name!r}\n", encoding="utf-8")
        (directory / f"{name}{EXTENSION_SUFFIXES[0]}").write_bytes(b"\x7fELF")
        lines.append(f"{hashlib.sha256(source.read_bytes()).hexdigest()}  {name}.py\n")
    (directory / MANIFEST).write_text("".join(lines), encoding="utf-8")


def test_a_compiled_module_is_used_only_while_every_source_has_its_recorded_hash(tmp_path):
    names = ("one", "two")
    built(tmp_path, names)
    assert compiled_fresh(tmp_path, names)
    with (tmp_path / "two.py").open("a", encoding="utf-8") as source:
        source.write("EDITED = True\n")
    assert not compiled_fresh(tmp_path, names)  # one edit: none of the group is used


@pytest.mark.parametrize("spoil", ["no manifest", "no library", "a name missing", "garbled",
                                   "no source"])
def test_without_a_whole_matching_build_the_sources_are_used(tmp_path, spoil):
    names = ("one", "two")
    built(tmp_path, names)
    manifest = tmp_path / MANIFEST
    if spoil == "no manifest":
        manifest.unlink()
    elif spoil == "no library":
        (tmp_path / f"one{EXTENSION_SUFFIXES[0]}").unlink()
    elif spoil == "a name missing":
        manifest.write_text(manifest.read_text(encoding="utf-8").splitlines()[0] + "\n",
                            encoding="utf-8")
    elif spoil == "garbled":
        manifest.write_text("not a pair\n", encoding="utf-8")
    else:
        (tmp_path / "one.py").unlink()
    assert not compiled_fresh(tmp_path, names)


IMPORTED = """
import json, games
from games.rummikub import packing
from games.rummikub.packing import moves
print(json.dumps({"games": games.__file__, "compiled": packing.COMPILED,
                  "edited": getattr(moves, "EDITED", False),
                  "files": [getattr(packing, name).__file__ for name in packing.COMPILED_MODULES]}))
"""


def imported(root):
    done = subprocess.run([sys.executable, "-c", IMPORTED], cwd=root, capture_output=True,
                          text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def test_an_edited_source_wins_over_its_compiled_library(tmp_path):
    # a copy of the package with whatever make setup built: as built it runs as here; with
    # one source edited, all five run from their sources and the edit is seen
    shutil.copytree(ROOT / "games", tmp_path / "games",
                    ignore=shutil.ignore_patterns("__pycache__"))
    copy = tmp_path / "games" / "rummikub" / "packing"
    found = imported(tmp_path)
    assert found["games"] == str(tmp_path / "games" / "__init__.py")
    assert found["compiled"] == COMPILED and not found["edited"]
    with (copy / "moves.py").open("a", encoding="utf-8") as source:
        source.write("EDITED = True\n")
    found = imported(tmp_path)
    assert found["edited"] and not found["compiled"]
    assert found["files"] == [str(copy / f"{name}.py") for name in COMPILED_MODULES]


def test_a_fresh_build_is_in_use():
    # make setup builds the packing before the suite runs: the suite runs it compiled
    # unless told not to, and runs the sources when the build is not the sources' own
    fresh = compiled_fresh(PACKAGE)
    forced = os.environ.get("BRAILLEDEV_PURE_PACKING") == "1"
    expected = fresh and not forced
    assert COMPILED is expected, (fresh, forced)


def test_compiled_and_pure_find_the_same_solutions():
    # ~100 positions of every kind, the hint's fewest changes included: the same Solution
    # from the sources in a subprocess as here (compiled after make setup)
    rng = random.Random(71)
    positions = []
    for _ in range(30):  # no joker
        table, rack = random_position(rng, rng.randint(9, 45), rng.randint(3, 14),
                                      rack_jokers=False)
        positions.append((table, rack, False))
    for _ in range(30):  # a joker in the rack
        table, rack = random_position(rng, rng.randint(9, 45), rng.randint(3, 14))
        positions.append((table, rack if "J" in rack else [*rack[1:], "J"], False))
    positions += [(table, rack, False) for table, rack in joker_set_positions(rng, 30)]
    positions += [([], random_position(rng, 0, rng.randint(4, 12))[1], True)
                  for _ in range(10)]
    here = json.loads(json.dumps([asdict(solve(table, rack, initial=initial))
                                  for table, rack, initial in positions]))
    pure = solved_elsewhere(positions, pure=True)
    assert not pure["compiled"]
    assert pure["solutions"] == here
    assert sum(1 for found in here if found["count"]) > 50
    assert sum(1 for found in here if found["changed"]) > 10
