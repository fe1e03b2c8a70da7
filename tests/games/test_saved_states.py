"""Damaged saves: a corpus made by mutating valid saves of every game, field by field (wrong
types, numbers out of range, unknown, duplicated and missing cards, huge values, deep
nesting). Each mutation is either refused with :class:`BadState` or gives a game that
redraws every seat's view, lists and checks its moves, saves again and plays on; nothing
else may escape.

The test runs a sample of every game's corpus; ``SAVED_STATES=all`` runs the whole of it
(``python -m tests.games.test_saved_states`` prints the counts).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games.core import BadState, Game
from layouts.registry import GAMES
from tests.games.cases import Case, case_of, play_moves

Path = tuple[Any, ...]


def _deep(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


DEEP = _deep(20_000)
LONG = ["r1"] * 100_000

# what a field is replaced with, whatever it held
REPLACE: dict[str, Any] = {
    "none": None, "true": True, "text": "x", "float": 1.5, "minus": -1, "huge": 10**8,
    "giant": 10**100, "empty_list": [], "empty_dict": {}, "deep": DEEP, "long": LONG,
    "unknown_card": "z99", "nan": float("nan"),
}


def valid_saves(case: Case) -> list[dict[str, Any]]:
    """Saves of real games: at the start, in the middle, near the end, over."""
    saves = []
    for players, seed in ((case.players[0], 1), (case.players[-1], 2)):
        game = case.new(players, seed)
        bots = case.bots(game, seed, case.bot_names[::-1])
        saves.append(game.to_dict())
        for count, _ in enumerate(play_moves(game, bots, 400)):
            if count in (7, 60):
                saves.append(game.to_dict())
        if game.is_over():
            saves.append(game.to_dict())
    return [json.loads(json.dumps(state)) for state in saves]


def paths(value: Any, rng: random.Random, path: Path = ()) -> Iterator[Path]:
    """Every node of a saved state; of a long list, its first, last and one other item."""
    yield path
    if isinstance(value, dict):
        for key in value:
            yield from paths(value[key], rng, (*path, key))
    elif isinstance(value, list):
        indexes = list(range(len(value)))
        if len(indexes) > 6:
            indexes = sorted({0, len(value) - 1, rng.randrange(len(value))})
        for index in indexes:
            yield from paths(value[index], rng, (*path, index))


def changed(state: Any, path: Path, change: Callable[[Any], Any]) -> Any:
    """``state`` with the node at ``path`` replaced by ``change(node)``; only the dicts and
    lists on the way are copied."""
    if not path:
        return change(state)
    copy = dict(state) if isinstance(state, dict) else list(state)
    copy[path[0]] = changed(state[path[0]], path[1:], change)
    return copy


def to(value: Any) -> Callable[[Any], Any]:
    return lambda _: value


def plus(step: int) -> Callable[[Any], Any]:
    return lambda number: number + step


def without(key: Any) -> Callable[[Any], Any]:
    return lambda table: {k: v for k, v in table.items() if k != key}


def mutations(state: dict[str, Any], rng: random.Random) -> Iterator[tuple[str, Any]]:
    """``(what, damaged state)`` for every node and every change that applies to it."""
    texts = sorted({node for node in _leaves(state) if isinstance(node, str)})
    for path in paths(state, rng):
        node = _at(state, path)
        where = ".".join(map(str, path)) or "state"
        for name, value in REPLACE.items():
            yield f"{where}={name}", changed(state, path, to(value))
        if isinstance(node, list) and node:
            yield f"{where} drop", changed(state, path, lambda items: items[1:])
            yield f"{where} twice", changed(state, path, lambda items: [*items, items[0]])
            yield f"{where} reversed", changed(state, path, lambda items: items[::-1])
            yield f"{where} nested", changed(state, path, lambda items: [items])
        if isinstance(node, dict):
            for key in list(node)[:8]:
                yield f"{where} -{key}", changed(state, path, without(key))
            yield f"{where} +key", changed(state, path, lambda table: {**table, "zz": 1})
        if type(node) is int:
            for step in (1, -1):
                yield f"{where}{step:+}", changed(state, path, plus(step))
        if type(node) is bool:
            yield f"{where} flipped", changed(state, path, lambda flag: not flag)
        if isinstance(node, str) and texts:
            other = rng.choice(texts)
            yield f"{where}={other}", changed(state, path, to(other))


def _at(state: Any, path: Path) -> Any:
    for step in path:
        state = state[step]
    return state


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def usable(case: Case, game: Game[Any, Any], seed: int) -> None:
    """What a table does with a game it resumed: redraw, list, check, save, play on."""
    for seat in range(game.players):
        game.view(seat)
        for move in game.legal_moves(seat)[:20]:
            assert game.check(seat, move) is None
    again = case.engine.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.to_dict() == game.to_dict()
    assert case.engine.from_position(game.position()).to_dict() == game.to_dict()
    for _ in play_moves(game, case.bots(game, seed), 15):
        pass


def corpus(case: Case, every: int = 1) -> Iterator[tuple[str, Any]]:
    """The damaged saves of one game (every ``every``-th of them)."""
    rng = random.Random(case.name)
    count = 0
    for number, state in enumerate(valid_saves(case)):
        for what, damaged in mutations(state, rng):
            if count % every == 0:
                yield f"save {number}: {what}", damaged
            count += 1


def run(case: Case, every: int) -> tuple[int, int, list[str], float]:
    """Try the corpus: (cases, refused, failures, slowest seconds)."""
    tried = refused = 0
    failures: list[str] = []
    slowest = 0.0
    for what, damaged in corpus(case, every):
        tried += 1
        started = time.perf_counter()
        try:
            game = case.engine.from_dict(damaged)
        except BadState:
            refused += 1
        except Exception as error:  # anything else escaping is what this test hunts
            failures.append(f"{what}: {type(error).__name__}: {str(error)[:100]}")
        else:
            try:
                usable(case, game, tried)
            except Exception as error:  # accepted, then unusable: a gap in from_dict
                failures.append(f"{what} (accepted): {type(error).__name__}: "
                                f"{str(error)[:100]}")
        slowest = max(slowest, time.perf_counter() - started)
    return tried, refused, failures, slowest


SAMPLE = 1 if os.environ.get("SAVED_STATES") == "all" else 13


@pytest.mark.parametrize("name", GAMES)
def test_every_damaged_save_is_refused_or_playable(name):
    tried, refused, failures, _ = run(case_of(name), SAMPLE)
    assert not failures, "\n".join(failures[:20])
    assert tried > 100 and refused > tried // 2


@pytest.mark.parametrize("name", GAMES)
def test_a_valid_save_is_accepted_whole(name):
    case = case_of(name)
    for state in valid_saves(case):
        game = case.engine.from_dict(state)
        assert game.to_dict() == state
        usable(case, game, 1)


if __name__ == "__main__":
    for case_name in sys.argv[1:] or GAMES:
        cases, no, failed, worst = run(case_of(case_name), 1)
        print(f"{case_name}: {cases} cases, {no} refused, {cases - no - len(failed)} played on,"
              f" {len(failed)} failures, slowest {worst:.3f} s")
        for line in failed[:40]:
            print("   ", line)
