"""Every parser of every game reads its notation or raises its own error, never another
(issue 13.5): random text, and digits that ``str.isdigit`` accepts but ``int`` refuses
(``K¹``, ``r²``) or that are not ASCII (Arabic-Indic ``٣``). A move read back is written
back the same way, and ``check`` answers it with a reason or ``None``.

Also: decks given as an option are checked (DOM-1), and the box data too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.core import BadState, DataProblem, Game, NotationError, Reason
from games.domino import Domino
from games.domino import notation as domino
from games.elements import Elements
from games.elements import notation as elements
from games.elevens import Elevens
from games.elevens import notation as elevens
from games.rummikub import Rummikub
from games.rummikub import notation as rummikub
from games.uno import Uno
from games.uno import notation as uno

FUZZ = settings(max_examples=300, deadline=None)
ODD_DIGITS = "¹²³⁴⁵⁶⁷⁸⁹⁰٠١٢٣٤٥٦٧٨٩०१२३४५६७८९１２３４５６７８９₁₂①Ⅻ"
SYMBOLS = "rygbkwisKRBYJEL*@>v/,:;|!+-=x. 0123456789"
# text that looks like notation: its letters and signs, odd digits, any other character
LOOKALIKE = st.text(st.one_of(st.sampled_from(SYMBOLS), st.sampled_from(ODD_DIGITS),
                              st.characters()), max_size=40)
ANY_TEXT = st.one_of(LOOKALIKE, st.text(max_size=60))

UNO = Uno.new(players=3, seed=1)
RUMMIKUB = Rummikub.new(players=2, seed=1)
ELEVENS = Elevens.new(players=2, seed=1)
ELEMENTS = Elements.new(players=3, seed=1)
DOMINO = Domino.new(players=2, seed=1)
DOMINO_LATER = Domino.from_position(
    "domino players=2 table=6/4@0,0>;1/1@0,1> hands=6/0,1/2;3/3,4/4,5/5 opening=no")
GAMES: dict[str, Game[Any, Any]] = {"uno": UNO, "rummikub": RUMMIKUB, "elevens": ELEVENS,
                                     "elements": ELEMENTS, "domino": DOMINO_LATER}

# each parser of each game, and what it gives back (a card or a move)
PARSERS: dict[str, Callable[[str], Any]] = {
    "uno card": lambda text: uno.parse_card(text, UNO.colours),
    "uno move": lambda text: UNO.parse_move(0, text),
    "rummikub tile": rummikub.parse_tile,
    "rummikub set": rummikub.parse_set,
    "rummikub table": rummikub.parse_table,
    "rummikub move": lambda text: RUMMIKUB.parse_move(0, text),
    "elevens step": lambda text: ELEVENS.parse_move(0, text),
    "elevens step, any rows": lambda text: elevens.parse_step(text, "abcdefghijklmnopqrstuvwxyz",
                                                              0, 999),
    "elements card": ELEMENTS.read_card,
    "elements cards": lambda text: elements.read_cards(text.split(","), ELEMENTS.colours,
                                                       range(0, 100)),
    "elements move": lambda text: ELEMENTS.parse_move(0, text),
    "domino card": domino.parse_card,
    "domino move": lambda text: DOMINO.parse_move(0, text),
    "domino move on a table": lambda text: DOMINO_LATER.parse_move(0, text),
}
MOVES = {"uno move": "uno", "rummikub move": "rummikub", "elevens step": "elevens",
         "elements move": "elements", "domino move": "domino",
         "domino move on a table": "domino"}


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
    for parse in (rummikub.parse_tile, ELEMENTS.read_card,
                  lambda t: uno.parse_card(t, UNO.colours),
                  lambda t: ELEVENS.parse_move(0, t.lower())):
        with pytest.raises(NotationError):
            parse(text)


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=100, deadline=None)
@given(line=ANY_TEXT)
@example(line="uno players=2 hands=r¹;b1 discard=r9")
@example(line="domino players=2 hands=6/0;1/1 rng=1+٣")
@example(line="elevens players=2 hands=r1;r2 rng=mt:9:zzzz")
def test_a_position_line_is_read_or_refused_as_a_bad_state(name, line):
    for text in (line, f"{name} {line}"):
        try:
            GAMES[name].from_position(text)
        except BadState as error:
            assert error.reason.code == "bad_state"


BOX = Domino.new(players=2, seed=1).data["cards"]


@pytest.mark.parametrize(("deck", "why"), [
    (["7/1", *BOX[1:]], "domino_pips"),                       # DOM-1: halves 0 to 6
    (["9/9", *BOX[1:]], "domino_pips"),
    (["1/1"] * 100_000, "too_long"),                           # no box holds that many
    (["6/6"] * 9 + BOX[9:], "card_too_often"),                 # more than a box prints
    (BOX[:10], "too_short"),                                   # not a round's cards
    ([6, *BOX[1:]], "wrong_type"),
    ("6/6", "wrong_type"),
    (["6/٣", *BOX[1:]], "not_a_card"),
])
def test_dom_1_a_deck_option_is_checked_card_by_card(deck, why):
    with pytest.raises(DataProblem) as refused:
        Domino.new(players=2, seed=1, deck=deck)
    assert refused.value.reason.code == "box_data"
    assert refused.value.reason.params["why"] == why


def test_dom_1_a_deck_of_other_cards_within_the_limits_is_a_box():
    deck = [f"{a}/{b}" for a in range(1, 7) for b in range(a, 7)] * 2 + ["0/0"] * 8
    assert sum(Domino.new(players=2, seed=3, deck=deck).box_cards().values()) == 50


@pytest.mark.parametrize(("name", "key", "value"), [
    ("uno", "colours", ["r", "r"]), ("uno", "hand_size", 10**8), ("uno", "deck", {"7": -1}),
    ("uno", "deck", {"0": 1}), ("rummikub", "top", 14), ("rummikub", "jokers", "2"),
    ("elevens", "start", 0), ("elevens", "colours", ["r"]), ("elements", "rounds", [2, 2, 2]),
    ("elements", "max_value", 10**9), ("domino", "max_line", None),
])
def test_damaged_box_data_is_refused_when_a_game_starts(name, key, value):
    engine = type(GAMES[name])
    data = engine.new(players=engine.default_players).to_dict()["data"]
    data[key] = value
    with pytest.raises(DataProblem) as refused:
        engine.new(data=data)
    assert refused.value.reason.code == "box_data"


def test_elevens_check_of_an_unknown_seat_is_a_reason_not_an_index_error():
    step = ELEVENS.legal_moves(0)[0]
    assert ELEVENS.check(7, step) == Reason.of("no_such_seat", seat="7")
    assert ELEVENS.check(-1, step) == Reason.of("no_such_seat", seat="-1")
    assert ELEVENS.legal_moves(7) == []
