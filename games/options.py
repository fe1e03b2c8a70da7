"""How a game declares its variants (the ``**options`` of ``Game.new``), in one place.

Each game package exports ``OPTIONS``: option name -> :class:`Option`. The command line
turns ``--option NAME=VALUE`` and the friendly flags into values of the declared kind.

    OPTIONS = {"teams": Option("int", 0, choices=(0, 2), flag="teams", flag_value=2)}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

# int, bool, str; "seat" is a seat number of the game; "cards" a list of card texts (on the
# command line, a TOML file holding ``cards = [...]``).
Kind = Literal["int", "bool", "str", "seat", "cards"]


@dataclass(frozen=True)
class Option:
    """One variant of a game: its kind, its default (None: the box's, from rules.toml), the
    values allowed, and an optional friendly flag (``flag="teams"`` gives ``--teams``).

    A flag with ``flag_value`` (or of kind bool) takes no value and sets that value;
    ``aliases`` are friendlier words for values (``{"mattel": "no_matching_colour"}``);
    ``players`` are the player counts a value other than the default needs (Uno's teams);
    ``keyword`` is the engine's name for the option when it is not the option's own, so one
    name serves every game (``first`` is Elements' ``first_player``).
    """

    kind: Kind
    default: Any = None
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    flag: str | None = None
    flag_value: Any = None
    aliases: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[int, ...] = ()
    keyword: str | None = None
