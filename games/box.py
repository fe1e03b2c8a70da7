"""The box's numbers of each game, read from ``games/<game>/rules.toml``.

    box_data("uno")["hand_size"] == 7
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from games.errors import data_problem


@cache
def _box(name: str) -> Mapping[str, Any]:
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise data_problem("no_box_data", game=name)
    try:
        text = resources.files("games").joinpath(name, "rules.toml").read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        raise data_problem("no_box_data", game=name) from None
    try:
        return tomllib.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        raise data_problem("box_data_unreadable", game=name) from None


def box_data(name: str) -> dict[str, Any]:
    """The box's numbers for game ``name`` (``games/<name>/rules.toml``), a fresh copy:
    ``box_data("uno")["hand_size"] == 7``."""
    copied: dict[str, Any] = _copy(_box(name))
    return copied


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
