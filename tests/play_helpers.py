"""What the play tests share: picking what a player would route, from the screen alone."""

from __future__ import annotations

from functools import cache
from typing import Any

from layouts.screen import Ask, Line, PlayMove
from layouts.uno.screen import UnoInput

ONE_ROUND = {"match_target": 0}


def told(session: Any) -> list[str]:
    """Every sentence the session's history holds, oldest first (a summary's one by one)."""
    return [part for message in session.seat.history.messages for part in message.parts]


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
            if isinstance(target, PlayMove) and target.move in legal:
                return key, index
            if (key != "commands" and isinstance(target, Ask)
                    and isinstance(target.pending, UnoInput) and target.pending.wild
                    and not said.wild):
                return key, index
    raise AssertionError(f"nothing to route among {[line.text for line in lines]}")


@cache
def turns_to_end(seed: int, limit: int = 300) -> int:
    """How many turns the player of :func:`wanted` needs to finish a 2-player round."""
    from brailledev.programs.session import Session

    session = Session.start("uno", players=2, seed=seed, lang="en", options=ONE_ROUND, pace=0)
    session.table.run_bots()
    turns = 0
    while not session.table.game.is_over() and turns < limit:
        seat = session.seat
        key, index = wanted(seat.lines(), session.table.game.legal_moves(0), seat.pending)
        line = next(line for line in session.seat.lines() if line.key == key)
        session.seat.route(line.regions[index].target)
        session.table.run_bots()
        turns += 1
    return turns


def short_deal(at_least: int = 3) -> int:
    """The seed, among the first 40, of the shortest round of at least ``at_least`` turns:
    whole games through a real display stay quick whatever the engine's dealing does."""
    turns = {seed: turns_to_end(seed) for seed in range(40)}
    return min((count, seed) for seed, count in turns.items() if count >= at_least)[1]
