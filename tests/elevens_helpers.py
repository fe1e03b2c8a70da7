"""Building Elevens tables for tests: ``table(hands=[["r12"], ["b3"]], rows={"r": [10]})``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from games.core import IllegalMove
from games.elevens.engine import JOKER, Elevens, Step
from layouts.catalog import rules_data

DATA = rules_data("elevens")
ORDER = ("r", "y", "g", "b")


def table(hands: Sequence[Sequence[str]], rows: Mapping[str, Iterable[int]] | None = None,
          jokers: Iterable[tuple[str, int]] = (), stock: Sequence[str] = ("g1",),
          links: Sequence[int] | None = None, bonus_left: int = 7, beginner: bool = False,
          current: int = 0) -> Elevens:
    """A game in a chosen position: the 11s, the number cards at ``rows`` and the jokers at
    ``jokers`` on the table, in the column order r y g b. Conservation is the caller's care:
    the position is built on the engine directly, not read as a save (``from_dict`` refuses
    a table whose cards do not add up to the box)."""
    game = Elevens.new(len(hands), seed=1, data=DATA, beginner=beginner)
    state = game.to_dict()
    cells: dict[str, dict[str, str]] = {colour: {"11": f"{colour}11"} for colour in ORDER}
    for colour, positions in (rows or {}).items():
        for pos in positions:
            cells[colour][str(pos)] = f"{colour}{pos}"
    for colour, pos in jokers:
        cells[colour][str(pos)] = JOKER
    state.update(order=list(ORDER), rows=cells, stock=list(stock), bonus_left=bonus_left,
                 hands=[list(hand) for hand in hands], current=current,
                 links=list(links) if links is not None else [0 if beginner else 4] * len(hands))
    made = Elevens(state)
    for hand in made.hands:
        made._sort(hand)
    return made


def steps(game: Elevens, seat: int, *texts: str) -> None:
    """Play several steps in notation, e.g. ``steps(game, 0, "r12", "r13", "end")``."""
    for text in texts:
        game.play(seat, game.parse_move(seat, text))


def refused(game: Elevens, seat: int, text: str) -> str:
    """The reason code a step is refused with; the state must be left exactly as it was."""
    before = game.to_dict()
    move: Step = game.parse_move(seat, text)
    try:
        game.play(seat, move)
    except IllegalMove as error:
        assert game.to_dict() == before
        return error.reason.code
    raise AssertionError(f"{text} was accepted")
