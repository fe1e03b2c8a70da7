"""Every game's declared save (``games/saved.py`` kinds, each engine's box, head and body),
held to what a reader of saves must do whatever it is given. Hypothesis plays a game a few
moves with random bots, takes its save and damages one place of it:

- a field left out is refused as ``missing`` at its path;
- a value of another type, a number out of any range, a list of 100,000 items or nested
  10,000 deep is refused at its path, or at the item holding it (a link, a placement, the
  random state) when the reader checks that item whole;
- any JSON value anywhere is refused with :class:`BadState`, or read into a game that saves
  and reads back the same; no other exception ever escapes;
- an undamaged save reads back exactly.
"""

from __future__ import annotations

import json
import math
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import BadState
from layouts.registry import GAMES
from tests.games.cases import case_of, play_moves
from tests.games.test_saved_states import changed

NAMES = GAMES
SOME = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
Path = tuple[Any, ...]


@cache
def save_text(name: str, players: int, seed: int, moves: int) -> str:
    """The save of a game of ``name`` after ``moves`` moves of random bots."""
    case = case_of(name)
    game = case.new(players, seed)
    for _ in play_moves(game, case.bots(game, seed), moves):
        pass
    return json.dumps(game.to_dict())


def a_save(name: str, data: st.DataObject) -> dict[str, Any]:
    case = case_of(name)
    players = data.draw(st.sampled_from(case.players), label="players")
    seed = data.draw(st.integers(0, 30), label="seed")
    moves = data.draw(st.integers(0, 60), label="moves")
    state: dict[str, Any] = json.loads(save_text(name, players, seed, moves))
    return state


def a_place(state: Any, data: st.DataObject, wanted: Any = object, instead: Path = ()
            ) -> Path:
    """A path to a node of ``state`` below the top, walked one step at a time, that is a
    ``wanted`` (``instead`` when the walk ends at another kind of node)."""
    path: list[Any] = []
    node = state
    while isinstance(node, (dict, list)) and node:
        if path and isinstance(node, wanted) and data.draw(st.booleans(), label="stop"):
            break
        key = data.draw(st.sampled_from(list(node) if isinstance(node, dict)
                                        else range(len(node))), label="step")
        path.append(key)
        node = node[key]
    return tuple(path) if type(node) is wanted or wanted is object else instead


def records(state: Any, path: Path = ()) -> list[Path]:
    """The save itself and every dict that is an item of a list (a record of the save)."""
    found = [path] if isinstance(state, dict) and (not path or isinstance(path[-1], int)) else []
    children = state.items() if isinstance(state, dict) else (
        enumerate(state) if isinstance(state, list) else ())
    for key, value in children:
        found += records(value, (*path, key))
    return found


def node_at(state: Any, path: Path) -> Any:
    for step in path:
        state = state[step]
    return state


def refusal(name: str, state: Any) -> str:
    """Where the game's reader refuses ``state`` (the ``at`` of its :class:`BadState`)."""
    with pytest.raises(BadState) as refused:
        case_of(name).engine.from_dict(state)
    at: str = refused.value.reason.params["at"]
    return at


def named(at: str, path: Path) -> bool:
    """Whether a refusal at ``at`` names ``path``, the item holding it, or a place inside the
    value put there."""
    where = ".".join(map(str, path))
    return where == at or where.startswith(f"{at}.") or at.startswith(f"{where}.")


def deep(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
                        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
JSON = st.recursive(JSON_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
    max_leaves=12)


def another_type(value: Any) -> st.SearchStrategy[Any]:
    """JSON values of another type than ``value``; no ``None`` for an int, no number for
    ``None`` (a seat that may be absent, a random state's spare float: a value away)."""
    def kind(other: Any) -> str:
        return "number" if isinstance(other, float) and math.isfinite(other) else (
            type(other).__name__)

    near = {"int": ("NoneType",), "NoneType": ("int", "number")}
    return JSON.filter(lambda other: kind(other) != kind(value)
                       and kind(other) not in near.get(kind(value), ()))


@pytest.mark.parametrize("name", NAMES)
@SOME
@given(data=st.data())
def test_an_undamaged_save_reads_back_exactly(name, data):
    state = a_save(name, data)
    game = case_of(name).engine.from_dict(state)
    assert game.to_dict() == state
    assert json.loads(json.dumps(game.to_dict())) == state


@pytest.mark.parametrize("name", NAMES)
@SOME
@given(data=st.data())
def test_a_field_left_out_is_refused_as_missing_at_its_path(name, data):
    """Every field of the save and of the records in its lists (a step of Elevens' turn, a
    Domino score sheet) is required."""
    state = a_save(name, data)
    holder = data.draw(st.sampled_from(records(state)), label="record")
    key = data.draw(st.sampled_from(sorted(node_at(state, holder))), label="key")
    damaged = changed(state, holder, lambda fields: {k: v for k, v in fields.items()
                                                     if k != key})
    with pytest.raises(BadState) as refused:
        case_of(name).engine.from_dict(damaged)
    assert refused.value.reason.params == {"at": ".".join(map(str, (*holder, key))),
                                           "why": "missing"}


@pytest.mark.parametrize("name", NAMES)
@SOME
@given(data=st.data())
def test_a_value_of_another_type_is_refused_where_it_is(name, data):
    state = a_save(name, data)
    path = a_place(state, data)
    other = data.draw(another_type(node_at(state, path)), label="other")
    assert named(refusal(name, changed(state, path, lambda _: other)), path)


@pytest.mark.parametrize("name", NAMES)
@SOME
@given(data=st.data(), number=st.one_of(st.integers(10**10, 10**40),
                                        st.integers(-10**40, -10**10)))
def test_a_number_out_of_any_range_is_refused_where_it_is(name, data, number):
    state = a_save(name, data)
    path = a_place(state, data, int, instead=("players",))
    assert named(refusal(name, changed(state, path, lambda _: number)), path)


@pytest.mark.parametrize("name", NAMES)
@SOME
@given(data=st.data(), nested=st.booleans())
def test_a_huge_or_deep_list_is_refused_where_it_is(name, data, nested):
    """Sizes are read before contents: 100,000 items, or 10,000 lists in one another."""
    state = a_save(name, data)
    path = a_place(state, data, list, instead=("hands",) if "hands" in state else ("racks",))
    items = node_at(state, path)
    huge = deep(10_000) if nested else [items[0] if items else 0] * 100_000
    assert named(refusal(name, changed(state, path, lambda _: huge)), path)


@pytest.mark.parametrize("name", NAMES)
@SOME
@given(data=st.data(), value=JSON)
def test_any_value_anywhere_is_refused_or_read_into_a_game_that_saves_the_same(name, data,
                                                                             value):
    state = a_save(name, data)
    damaged = changed(state, a_place(state, data), lambda _: value)
    engine = case_of(name).engine
    try:
        game = engine.from_dict(damaged)
    except BadState:
        return
    saved = json.loads(json.dumps(game.to_dict()))
    assert engine.from_dict(saved).to_dict() == saved
