"""The rules layer's imports (ARCHITECTURE.md: ``games`` imports nothing of ours, and no
circles between files): every import of every module of ``games/``, at the top, inside a
function or for the type checker alone, read from the sources."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
OURS = ("games", "layouts", "brailledev", "emboss", "tests")


def module_of(path: Path) -> str:
    parts = path.relative_to(GAMES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_of(path): path for path in GAMES.rglob("*.py")}


def imported(path: Path) -> set[str]:
    """Our modules that ``path`` imports: ``from games.uno import notation`` names
    ``games.uno.notation`` (not the package), ``from games.uno.engine import Uno`` names
    ``games.uno.engine``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                names.add(inner if inner in MODULES else node.module)
    return {name for name in names if name.split(".")[0] in OURS}


GRAPH = {name: imported(path) & set(MODULES) - {name} for name, path in MODULES.items()}


def circle_from(start: str) -> list[str] | None:
    """A path of imports from ``start`` back to itself, or ``None``."""
    todo = [(start, [start])]
    seen: set[str] = set()
    while todo:
        name, path = todo.pop()
        for target in sorted(GRAPH[name]):
            if target == start:
                return [*path, start]
            if target not in seen:
                seen.add(target)
                todo.append((target, [*path, target]))
    return None


def test_the_sources_were_found():
    assert {"games.core", "games.position", "games.saved", "games.uno.engine",
            "games.domino.engine"} <= set(MODULES)
    assert "games.position" in GRAPH["games.core"]  # an import the reader must see


def test_no_module_of_games_imports_itself_through_others():
    circles = [circle for name in sorted(MODULES) if (circle := circle_from(name))]
    assert not circles, " -> ".join(circles[0])


def test_games_imports_nothing_of_the_higher_layers():
    higher = {name: sorted(target for target in imported(path)
                           if not target.startswith("games"))
              for name, path in MODULES.items()}
    assert not {name: targets for name, targets in higher.items() if targets}
