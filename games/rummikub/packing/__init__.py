"""The exact core of the solver: cover tiles with runs and groups, dynamic programming.

The tiles are counts per colour and number (indexed from 13 down, see ``index_of``):
``table`` counts must all be used, ``rack`` counts may be; ``must_jokers`` must be placed,
``rack_jokers`` may be. Numbers are taken from 13 down to 1 (a move's points, most of them in
the high numbers, are settled first), and in a second search from 1 up, on the counts and
joker sets mirrored: ``pack`` races the two, as a direction that leaves the slack of a
position to its last numbers may walk a long plateau of states. The state after a number is,
per colour, the sorted lengths of the runs still open (capped at 3: a run of 3 or more may
close or go on), the jokers used so far and, for an initial meld, its value so far (capped at
the threshold). Within a number the colours are decided one after the other and the tiles
left for groups are counted, then grouped with any jokers. This is the shape of van Rijn,
Takes and Vis, "Computational complexity of Rummikub", written anew.

    best = pack(table, rack, must_jokers=0, rack_jokers=1, threshold=0, joker_points=30)
    best.score, best.sets

The score is lexicographic, packed into one integer: rack tiles played, then their points
(a number tile its number, a joker the rack penalty).

Two forms of one search. :class:`~reference.Search` is recursive and memoised, state by
state; it holds the rules of each step (the joker sets' too) and stays as the reference the
tests hold the other to. :class:`~layers.Layers` (and :class:`~joker_layers.JokerLayers` when
the table has joker sets) takes every state of a step at once, each state one integer: the
form ``pack`` uses.

- ``moves``: the shared state encoding and moves;
- ``layers``: the layered search;
- ``joker_layers``: the layers of a table with joker sets;
- ``reference``: the recursive reference;
- ``best``: ``pack``, the narrowed search then the whole one, the race of the two directions,
  and the spare jokers.

Five of them (not ``reference``) may run compiled by mypyc (``tools/build_packing.py``, run
by ``make setup``), which records the sha256 of each source it compiled in
``compiled.sha256``. They are one compiled group (each calls the others directly), so either
all five run compiled or none: the compiled modules are used only while every source has its
recorded hash, else the sources are imported, as they are when ``BRAILLEDEV_PURE_PACKING=1``.
``COMPILED`` says which.
"""

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType

COMPILED_MODULES = ("best", "bound", "joker_layers", "layers", "moves")
MANIFEST = "compiled.sha256"


def manifest(directory: Path, names: Sequence[str] = COMPILED_MODULES) -> str:
    """The text of ``MANIFEST`` for the sources of ``names`` in ``directory`` as they are:
    one ``sha256  name.py`` line each (``tools/build_packing.py`` writes it as it compiles).

        manifest(Path("games/rummikub/packing"))  # 'ab12…  best.py\n…'
    """
    return "".join(f"{hashlib.sha256((directory / f'{name}.py').read_bytes()).hexdigest()}"
                   f"  {name}.py\n" for name in names)


def compiled_fresh(directory: Path, names: Sequence[str] = COMPILED_MODULES) -> bool:
    """Whether every module of ``names`` in ``directory`` has a compiled library and its source
    the sha256 that ``MANIFEST`` recorded when it was compiled.

        compiled_fresh(Path("games/rummikub/packing"))  # False once a source is edited
    """
    try:
        return all(any((directory / f"{name}{suffix}").is_file()
                       for suffix in EXTENSION_SUFFIXES) for name in names) \
            and (directory / MANIFEST).read_text(encoding="utf-8") == manifest(directory, names)
    except OSError:  # no manifest, a source gone
        return False


class _Sources:
    """Finds the five modules as their sources, before the finders that prefer a compiled
    library beside them (placed first in ``sys.meta_path``)."""

    def __init__(self, directory: Path) -> None:
        self.paths = {f"{__name__}.{name}": directory / f"{name}.py"
                      for name in COMPILED_MODULES}

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        """The spec of the source for one of the five modules, else None (others decide)."""
        if fullname not in self.paths:
            return None
        return importlib.util.spec_from_file_location(fullname, self.paths[fullname])


_HERE = Path(__file__).resolve().parent
if os.environ.get("BRAILLEDEV_PURE_PACKING") == "1" or not compiled_fresh(_HERE):
    sys.meta_path.insert(0, _Sources(_HERE))

from games.rummikub.packing import best, bound, joker_layers, layers, moves  # noqa: E402
from games.rummikub.packing.best import pack, pack_strict, split  # noqa: E402
from games.rummikub.packing.moves import (  # noqa: E402
    NEG,
    WEIGHT,
    Counts,
    JokerSet,
    Packing,
    index_of,
)

COMPILED = all(isinstance(module.__loader__, importlib.machinery.ExtensionFileLoader)
               for module in (best, bound, joker_layers, layers, moves))

__all__ = ["COMPILED", "NEG", "WEIGHT", "Counts", "JokerSet", "Packing", "index_of", "pack",
           "pack_strict", "split"]
