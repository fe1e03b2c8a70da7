"""Every parser of every game reads its notation or raises its own error, never another
(issue 13.5): random text, and digits that ``str.isdigit`` accepts but ``int`` refuses
(``K¹``, ``r²``) or that are not ASCII (Arabic-Indic ``٣``). A move read back is written
back the same way, and ``check`` answers it with a reason or ``None``.

The parsers are every game's of the registry: its moves' (on a fresh game and on the
positions its trial gives) and the readers of its notation its trial declares
(``games/<game>/trial.py``). Also: every game refuses the damaged box data its trial gives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.core import BadState, DataProblem, Game, NotationError, Reason
from layouts.registry import GAMES as NAMES
from tests.games.cases import case_of

FUZZ = settings(max_examples=300, deadline=None)
ODD_DIGITS = "¹²³⁴⁵⁶⁷⁸⁹⁰٠١٢٣٤٥٦٧٨٩०१२३४५६७८९１２３４５６７８９₁₂①Ⅻ"
SYMBOLS = "rygbkwisKRBYJEL*@>v/,:;|!+-=x. 0123456789"
# text that looks like notation: its letters and signs, odd digits, any other character
LOOKALIKE = st.text(st.one_of(st.sampled_from(SYMBOLS), st.sampled_from(ODD_DIGITS),
                              st.characters()), max_size=40)
ANY_TEXT = st.one_of(LOOKALIKE, st.text(max_size=60))


def _games() -> dict[str, Game[Any, Any]]:
    """Each game of the registry fresh, and on each position its trial reads moves on."""
    found: dict[str, Game[Any, Any]] = {}
    for name in NAMES:
        case = case_of(name)
        found[name] = case.engine.new(players=case.players[0], seed=1)
        for number, line in enumerate(case.trial.positions, start=1):
            found[f"{name} at position {number}"] = case.engine.from_position(line)
    return found


GAMES = _games()


def _mover(game: Game[Any, Any]) -> Callable[[str], Any]:
    return lambda text: game.parse_move(0, text)


def _reader(read: Callable[[Any, str], Any], game: Game[Any, Any]) -> Callable[[str], Any]:
    return lambda text: read(game, text)


# each game's move parser (on each of its games) and the readers of its notation its trial
# declares, and what each gives back (a card or a move)
MOVES: dict[str, str] = {f"{where} move": where for where in GAMES}
PARSERS: dict[str, Callable[[str], Any]] = {
    **{parser: _mover(GAMES[where]) for parser, where in MOVES.items()},
    **{f"{name} {what}": _reader(read, GAMES[name]) for name in NAMES
       for what, read in case_of(name).trial.readers.items()}}


@pytest.mark.parametrize("parser", sorted(PARSERS))
@FUZZ
@given(text=ANY_TEXT)
@example(text="K¹")
@example(text="r²")
@example(text="r٣")
@example(text="catch ²")
@example(text="table K1 K2 K١٣")
@example(text="6/٣@c3>")
@example(text="6/0@c³>")
@example(text="place r١@Eb")
@example(text="L r1²>y")
@example(text="x b" + "7" * 5000)
@example(text="6/0@" + "9" * 5000 + ",0>")
def test_parsers_raise_only_their_own_error(parser, text):
    try:
        found = PARSERS[parser](text)
    except NotationError as error:
        assert isinstance(error.reason, Reason) and error.reason.code
        return
    if parser in MOVES:
        game = GAMES[MOVES[parser]]
        written = str(found)
        assert game.parse_move(0, written) == found  # a move read is written back alike
        for seat in range(game.players):
            assert game.check(seat, found) is None or isinstance(game.check(seat, found),
                                                                 Reason)


@pytest.mark.parametrize("text", ["K¹", "R²3", "r٣", "r³", "k1٠", "Y١", "b7٩"])
def test_digits_int_refuses_are_refused_as_notation(text):
    for parser, parse in PARSERS.items():
        for written in (text, text.lower()):
            with pytest.raises(NotationError):
                parse(written)
                pytest.fail(f"{parser} read {written!r}")


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=100, deadline=None)
@given(line=ANY_TEXT)
@example(line="uno players=2 hands=r¹;b1 discard=r9")
@example(line="domino players=2 hands=6/0;1/1 rng=1+٣")
@example(line="elevens players=2 hands=r1;r2 rng=mt:9:zzzz")
def test_a_position_line_is_read_or_refused_as_a_bad_state(name, line):
    for text in (line, f"{name} {line}"):
        try:
            case_of(name).engine.from_position(text)
        except BadState as error:
            assert error.reason.code == "bad_state"


@pytest.mark.parametrize("name", NAMES)
def test_damaged_box_data_is_refused_when_a_game_starts(name):
    engine = case_of(name).engine
    for key, value in case_of(name).trial.damaged:
        data = engine.new(players=engine.default_players).to_dict()["data"]
        data[key] = value
        with pytest.raises(DataProblem) as refused:
            engine.new(data=data)
        assert refused.value.reason.code == "box_data", (key, value)
