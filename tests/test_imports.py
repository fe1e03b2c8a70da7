"""The layers' import rules, read from the sources with ``ast`` (every import counts: at the
top, inside a function, under ``TYPE_CHECKING``): no circle between production files, each
layer importing only the layers below it (``games`` nothing of ours, ``layouts`` only
``games``), ``brailledev/``'s rooms each importing only the rooms below it, and nothing in
``brailledev/`` importing ``emboss/`` but the command line."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = ("games", "layouts", "brailledev", "emboss")
# What each lower layer may import besides itself (ARCHITECTURE.md's arrows).
BELOW = {"games": (), "layouts": ("games",)}
# The only file of brailledev/ that may import emboss/: the command line, which holds both.
EMBOSS_IMPORTERS = {"brailledev.programs.cli"}
# brailledev/'s rooms from the bottom: the base (errors, files, helptext) first; each room
# may import those below it and itself.
ROOMS = ("base", "display", "table", "network", "programs")


def modules(root: Path, tops: Iterable[str]) -> dict[str, Path]:
    """Every module under the ``tops`` folders of ``root`` by its dotted name (a package by
    its folder's): ``modules(ROOT, ["emboss"])["emboss.cli"]``."""
    found: dict[str, Path] = {}
    for top in tops:
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` (the file ``path``) imports: a name
    imported from a package is the module of that name when there is one, else the package."""

    def module_of(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            wanted = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            wanted = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                      for alias in node.names]
        else:
            continue
        found.update(module for each in wanted if (module := module_of(each)) is not None)
    found.discard(name)
    return found


def graph(root: Path, tops: Iterable[str]) -> dict[str, set[str]]:
    """Who imports whom among the modules under ``tops``."""
    known = modules(root, tops)
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other in a circle (strongly connected, two or
    more), each sorted: ``circles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]``."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in order:
            continue
        # Tarjan's algorithm with an explicit stack: a module, and the imports left to visit.
        work = [(start, iter(sorted(edges[start])))]
        order[start] = low[start] = len(order)
        stack.append(start)
        while work:
            module, pending = work[-1]
            after = next((each for each in pending if each in edges), None)
            if after is not None:
                if after not in order:
                    order[after] = low[after] = len(order)
                    stack.append(after)
                    work.append((after, iter(sorted(edges[after]))))
                elif after in stack:
                    low[module] = min(low[module], order[after])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == order[module]:
                group = [stack.pop()]
                while group[-1] != module:
                    group.append(stack.pop())
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_circle_between_production_files() -> None:
    assert circles(graph(ROOT, PRODUCTION)) == []


def test_games_and_layouts_import_only_the_layers_below_them() -> None:
    edges = graph(ROOT, PRODUCTION)
    upward = {module: sorted(each for each in imported
                             if each.split(".")[0] not in (top, *BELOW[top]))
              for module, imported in edges.items()
              if (top := module.split(".")[0]) in BELOW}
    assert {module: found for module, found in upward.items() if found} == {}


def test_the_circle_finder_sees_circles_of_two_and_more_and_lazy_imports(
        tmp_path: Path) -> None:
    package = tmp_path / "pack"
    (package / "inner").mkdir(parents=True)
    sources = {
        "__init__.py": "",
        "a.py": "from pack import b\n",
        "b.py": "import typing\nif typing.TYPE_CHECKING:\n    from pack.a import x\n",
        "c.py": "def later():\n    from .inner import d\n",
        "inner/__init__.py": "",
        "inner/d.py": "from ..e import y\n",
        "e.py": "from pack import c\n",
        "f.py": "from pack import a, e\n",
    }
    for name, text in sources.items():
        (package / name).write_text(text)
    assert circles(graph(tmp_path, ["pack"])) == [["pack.a", "pack.b"],
                                                   ["pack.c", "pack.e", "pack.inner.d"]]


def test_only_the_command_line_imports_emboss() -> None:
    edges = graph(ROOT, PRODUCTION)
    importers = {module for module, imported in edges.items()
                 if module.startswith("brailledev")
                 and any(each.split(".")[0] == "emboss" for each in imported)}
    assert importers <= EMBOSS_IMPORTERS


def room(module: str) -> str:
    """The room of a module of brailledev/ (``python -m brailledev`` runs the programs):
    ``room("brailledev.table.seat") == "table"``, ``room("brailledev.files") == "base"``."""
    name = module.split(".")[1] if "." in module else ""
    return name if name in ROOMS else "programs" if name == "__main__" else "base"


def test_each_room_of_brailledev_imports_only_the_rooms_below_it() -> None:
    edges = graph(ROOT, PRODUCTION)
    upward = sorted(f"{module} -> {each}" for module, imported in edges.items()
                    if module.split(".")[0] == "brailledev"
                    for each in imported if each.split(".")[0] == "brailledev"
                    and ROOMS.index(room(each)) > ROOMS.index(room(module)))
    assert upward == []
