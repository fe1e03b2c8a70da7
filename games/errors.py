"""Every error the games layer raises, in one place, each carrying a :class:`Reason`.

A reason is a stable code and its arguments, never a sentence: ``layouts`` turns it into
words in the reader's language. All of them are :class:`GameError`, so a caller that wants
to catch "anything the rules refused" catches that one class.

    try:
        game = Uno.from_dict(saved)
    except BadState as damaged:
        damaged.reason        # Reason("bad_state", (("at", "hands.1.3"), ("why", "unknown_card")))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Reason:
    """Why a move is illegal: a stable code and its arguments, e.g. ``Reason("not_your_turn")``."""

    code: str
    args: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, code: str, **args: Any) -> Reason:
        """``Reason.of("card_not_in_hand", card="r7")``."""
        return cls(code, tuple(sorted(args.items())))

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.args)

    def __str__(self) -> str:
        if not self.args:
            return self.code
        inner = ", ".join(f"{k}={v}" for k, v in self.args)
        return f"{self.code}({inner})"


class GameError(Exception):
    """Base of the games layer's errors: ``reason`` says what went wrong, as a code."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(str(reason))
        self.reason = reason


class IllegalMove(GameError):
    """Raised by ``play`` for a refused move; the game state is left exactly as it was."""


class NotationError(GameError, ValueError):
    """Text that is not a card or move in the game's notation, e.g. ``parse_card("x9")``."""


class DataProblem(GameError, ValueError):
    """The box data (``games/<game>/rules.toml``, or a deck given as an option), the number
    of players or a variant option cannot make a game, e.g. ``Reason("players_range")``."""


class BadState(GameError, ValueError):
    """A saved state or a position line that is not a game the rules could reach: wrong
    types, unknown or missing cards, seats out of range... ``Reason.of("bad_state", at=...,
    why=...)`` names the field (a dotted path) and what is wrong with it."""


class NoSuchSeat(GameError, ValueError):
    """A seat number the game does not have, asked for a view: ``Reason("no_such_seat")``."""


class BotError(GameError, RuntimeError):
    """A bot returned nothing where the game waits for it, or cannot be restored: a bug."""


def data_problem(code: str, **args: Any) -> DataProblem:
    """A refused creation: ``raise data_problem("option_value", option="teams", value="3")``."""
    return DataProblem(Reason.of(code, **args))


def bad_state(at: str, why: str, **args: Any) -> BadState:
    """The error for a damaged field: ``raise bad_state("hands.1", "unknown_card", card="x")``."""
    return BadState(Reason.of("bad_state", at=at, why=why, **args))
