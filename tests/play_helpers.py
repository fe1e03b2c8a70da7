"""What the play tests share: picking what a player would route, from the screen alone."""

from __future__ import annotations

from typing import Any

from layouts.common.screen import Ask, Move
from layouts.screen import Line
from layouts.uno.screen import UnoInput

ONE_ROUND = {"match_target": 0}


def wanted(lines: tuple[Line, ...], legal: list[Any], pending: Any) -> tuple[str, int]:
    """The line and region a sensible player routes next: a legal move on the choice line,
    else a playable card of the hand (a Wild asks its colour first), else a command (draw,
    keep). Arms UNO first when the hand is down to two cards."""
    by_key = {line.key: line for line in lines}
    said = pending if isinstance(pending, UnoInput) else UnoInput()
    commands = by_key["commands"]
    for index, region in enumerate(commands.regions):
        target = region.target
        if (isinstance(target, Ask) and isinstance(target.pending, UnoInput)
                and target.pending.uno and not said.uno):
            return "commands", index
    for key in ("choice", "hand", "commands"):
        line = by_key.get(key)
        if line is None:
            continue
        for index, region in enumerate(line.regions):
            target = region.target
            if isinstance(target, Move) and target.move in legal:
                return key, index
            if (key != "commands" and isinstance(target, Ask)
                    and isinstance(target.pending, UnoInput) and target.pending.wild
                    and not said.wild):
                return key, index
    raise AssertionError(f"nothing to route among {[line.text for line in lines]}")
