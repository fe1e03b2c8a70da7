"""Every refusal every engine can give, told through its game's screen in both languages.

The codes are found in the source (every ``Reason(...)`` and ``Reason.of(...)`` of each game's
folders in ``games/`` and ``layouts/``, and of the engines' shared ``games/core.py``), so a new
refusal without words, or without a case here, fails this test. The other shared files of
``games/`` give no refusal of a move: saves and box data (``saved.py``, ``errors.py``), bots
that fail (``play.py``), the score pads with their own screen (``pads.py``, and each game's
pad book, ``games/<game>/book.py``).
Each case has realistic arguments (cards in the engine's notation); the words must be one
sentence with no placeholder, no code and no notation left, the cards in the reader's labels.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

from brailledev.programs.session import Session
from games.core import Reason
from layouts.registry import GAMES, kit

ROOT = Path(__file__).resolve().parents[2]
# Codes built from a pattern in the source, and every code the pattern makes.
PATTERNS = {"f'uno_no_{kind}_now'": ("uno_no_choose_now", "uno_no_challenge_now",
                                     "uno_no_accept_now")}
# Shared by the engines: the files outside a game's folder whose refusals every game gives.
ENGINES_SHARED = ("games/core.py",)
Case = dict[str, Any]
COMMON: dict[str, list[Case]] = {"not_your_turn": [{}], "game_over": [{}],
                                 "no_such_seat": [{"seat": "7"}]}
# code -> the arguments of each case, and what each language must show of them.
CASES: dict[str, dict[str, list[Case]]] = {
    "uno": {
        "unknown_move": [{"text": "play r99", "en": ["play r99"], "fr": ["play r99"]}],
        "uno_card_does_not_match": [{"card": "rsk", "top": "y7", "colour": "y",
                                     "en": ["rsk", "y7", "yellow"],
                                     "fr": ["rpas", "j7", "jaune"]}],
        "uno_card_not_in_hand": [{"card": "wi+4", "en": ["wi+4"], "fr": ["jk+4"]}],
        "uno_catch_opponents_only": [{}],
        "uno_challenge_or_accept": [{}],
        "uno_choose_colour_first": [{}],
        "uno_colour_only_for_wilds": [{"card": "y5", "en": ["y5"], "fr": ["j5"]}],
        "uno_not_due": [{}],
        "uno_nothing_drawn": [{}],
        "uno_nothing_to_catch": [{"seat": 1, "en": ["Bo"], "fr": ["Bo"]}],
        "uno_nothing_to_draw": [{}],
        "uno_only_drawn_card": [{"card": "yrv", "en": ["yrv"], "fr": ["jinv"]}],
        "uno_play_drawn_or_keep": [{"card": "y+2", "en": ["y+2"], "fr": ["j+2"]}],
        "uno_wild_needs_colour": [{"card": "wi", "en": ["wi"], "fr": ["jk"]}],
        "uno_not_a_card": [{"text": "x9", "en": ["x9"], "fr": ["x9"]}],
        "uno_unknown_colour": [{"colour": "p", "en": ["'p'"], "fr": ["« p »"]}],
        "uno_no_choose_now": [{}],
        "uno_no_challenge_now": [{}],
        "uno_no_accept_now": [{}],
    },
    "elevens": {
        "unknown_move": [{"text": "r99", "en": ["r99"], "fr": ["r99"]}],
        "card_not_in_hand": [{"card": "y12", "en": ["y12"], "fr": ["j12"]}],
        "discard_only_jokers": [{}],
        "draw_only_first": [{}],
        "draw_or_play": [{}],
        "exchange_needs_other_card": [{}],
        "limit_reached": [{"limit": 4, "en": ["4"], "fr": ["4"]}],
        "link_needs_card": [{"row": "y", "pos": 5, "en": ["y5"], "fr": ["j5"]}],
        "must_play": [{}],
        "no_joker_there": [{"row": "y", "pos": 7, "en": ["y7"], "fr": ["j7"]}],
        "no_link_card": [{}],
        "no_links_in_beginner": [{}],
        "no_such_card": [{"card": "y22", "en": ["y22"], "fr": ["j22"]}],
        "no_such_place": [{"row": "y", "pos": 22, "en": ["y22"], "fr": ["j22"]}],
        "not_neighbour_row": [{"source": "y", "row": "b", "en": ["y", "b"],
                               "fr": ["j", "b"]}],
        "not_next_to_row": [{"row": "y", "pos": 3, "en": ["y3"], "fr": ["j3"]}],
        "nothing_to_undo": [{}],
        "place_taken": [{"row": "y", "pos": 5, "en": ["y5"], "fr": ["j5"]}],
        "stock_empty": [{}],
        "unknown_step": [{"kind": "jump", "en": ["jump"], "fr": ["jump"]}],
        "wrong_place": [{"card": "y12", "en": ["y12"], "fr": ["j12"]}],
    },
    "elements": {
        "unknown_move": [{"text": "fly r7", "en": ["fly r7"], "fr": ["fly r7"]}],
        "card_not_in_hand": [{"card": "y7", "en": ["y7"], "fr": ["j7"]}],
        "card_twice": [{}],
        "element_taken": [{"element": "Ey", "en": ["ey"], "fr": ["ej"]}],
        "lay_count": [{"need": 2, "en": ["2"], "fr": ["2"]}],
        "must_pass": [{"need": 2, "en": ["2"], "fr": ["2"]}],
        "not_a_card": [{"text": "q7", "en": ["q7"], "fr": ["q7"]}],
        "not_an_element": [{"text": "Eq", "en": ["Eq"], "fr": ["Eq"]}],
        "not_now": [{"move": "keep", "en": ["keep cards"], "fr": ["garder des cartes"]},
                    {"move": "lay", "en": ["lay cards"], "fr": ["poser des cartes"]},
                    {"move": "pass", "en": ["pass"], "fr": ["passer"]},
                    {"move": "place", "en": ["place a card"], "fr": ["placer une carte"]}],
    },
    "rummikub": {
        "unknown_move": [{"text": "jump", "en": ["jump"], "fr": ["jump"]}],
        "freed_joker_not_new_set": [{}],
        "initial_table_touched": [{}],
        "initial_too_low": [{"value": 21, "least": 30, "en": ["21", "30"],
                             "fr": ["21", "30"]}],
        "invalid_set": [{"set": 2, "why": "run_gap", "en": ["2"], "fr": ["2"]}],
        "joker_not_exchanged": [{"set": "K4 J K6", "en": ["k4 jk5 k6"],
                                 "fr": ["n4 jo5 n6"]}],
        "joker_set_split": [{"set": "Y4 Y5 J", "en": ["y4 y5 jk6"], "fr": ["j4 j5 jo6"]}],
        "no_time_limit": [{}],
        "nothing_played": [{}],
        "not_on_rack": [{"tile": "Y5", "en": ["y5"], "fr": ["j5"]}],
        "table_tile_taken": [{"tile": "J", "en": ["jk"], "fr": ["jo"]}],
        "empty_set": [{}],
        "group_colour_twice": [{}],
        "group_too_long": [{"size": 5}],
        "not_a_tile": [{"text": "Q5", "en": ["Q5"], "fr": ["Q5"]}],
        "run_gap": [{}],
        "run_mixed_colours": [{}],
        "run_number_twice": [{}],
        "run_too_long": [{}],
        "set_only_jokers": [{}],
        "set_too_short": [{"size": 2, "least": 3, "en": ["2", "3"], "fr": ["2", "3"]}],
        "selection_not_placed": [{"count": 2, "en": ["2"], "fr": ["2"]}],
    },
    "domino": {
        "unknown_move": [{"text": "6/0@z9", "en": ["6/0@z9"], "fr": ["6/0@z9"]}],
        "card_not_in_hand": [{"card": "6/0", "en": ["6/0"], "fr": ["6/0"]}],
        "line_too_long": [{"value": 13, "max": 12, "en": ["13", "12"], "fr": ["13", "12"]}],
        "not_a_card": [{"text": "7/0", "en": ["7/0"], "fr": ["7/0"]}],
        "domino_pips": [{"text": "7/0", "most": 6, "en": ["7/0", "6"], "fr": ["7/0", "6"]}],
        "not_touching": [{}],
        "one_card_per_turn": [{}],
        "opening_not_joined": [{}],
        "opening_two_cards": [{}],
        "square_taken": [{}],
    },
}
# Notation the reader never sees (the engine's Rummikub tiles; the labels are lower case).
NOTATION = {"rummikub": ("K4", "Y4", "Y5", " J ")}


def _pad_books() -> set[Path]:
    """The files of the score pads kept on a display: they refuse entries, not moves, told by
    the pad's own screen."""
    return {Path(inspect.getfile(kept.book)).resolve() for game in GAMES
            if (kept := kit(game).kept_pad) is not None}


def _game_of(path: Path) -> str | None:
    """The game a source file belongs to (``None``: every game's)."""
    parts = path.relative_to(ROOT).parts
    return parts[1] if len(parts) > 2 and parts[1] in GAMES else None


def _is_reason(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Name) and func.id == "Reason") or (
        isinstance(func, ast.Attribute) and func.attr == "of"
        and isinstance(func.value, ast.Name) and func.value.id == "Reason")


def scanned() -> dict[str, set[str]]:
    """Every refusal code of the source, by game (the engines' shared ones to every game)."""
    found: dict[str, set[str]] = {game: set() for game in GAMES}
    pads = _pad_books()
    for folder in ("games", "layouts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            owner = _game_of(path)
            shared = str(path.relative_to(ROOT)) in ENGINES_SHARED
            if (owner is None and not shared) or path.resolve() in pads:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and _is_reason(node) and node.args):
                    continue
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes: tuple[str, ...] = (first.value,)
                else:
                    codes = PATTERNS[ast.unparse(first)]
                for game in [owner] if owner else GAMES:
                    found[game].update(codes)
    return found


def test_every_code_in_the_source_has_a_case_and_every_case_a_code():
    found = scanned()
    for game in GAMES:
        assert found[game] == set(CASES[game]) | set(COMMON), game


def sessions() -> dict[tuple[str, str], Session]:
    made = {}
    for game in GAMES:
        for lang in ("en", "fr"):
            players = 3 if game == "elements" else 2
            made[game, lang] = Session.start(game, players=players, seed=1, lang=lang, pace=0)
    return made


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_is_a_sentence_in_the_readers_words(game):
    made = sessions()
    for code, cases in {**COMMON, **CASES[game]}.items():
        for case in cases:
            params = {key: value for key, value in case.items() if key not in ("en", "fr")}
            for lang in ("en", "fr"):
                seat = made[game, lang].seat
                text = seat.refusal(Reason.of(code, **params))
                refused = "Refused: " if lang == "en" else "Refusé : "
                assert text.startswith(refused), text
                said = text[len(refused):]
                assert "{" not in said and "}" not in said, (code, lang, said)
                assert code not in said, (code, lang, said)
                assert said[-1] in ".!?", (code, lang, said)
                for shown in case.get(lang, ()):
                    assert shown in said, (code, lang, shown, said)
                for notation in NOTATION.get(game, ()):
                    assert notation not in f" {said} ", (code, lang, said)


def test_every_refusal_of_a_kept_pad_is_a_sentence_in_both_languages():
    """The codes the pads refuse an entry with (``pad_...`` in ``games/pads.py`` and the
    games' pad books) are sentences in each kept pad's words, in English and French."""
    codes: set[str] = set()
    for path in {ROOT / "games" / "pads.py", *_pad_books()}:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"pad_[a-z_]+", node.value):
                codes.add(node.value)
    assert {"pad_finished", "pad_line_value", "pad_winner", "pad_not_here"} <= codes
    for game in GAMES:
        if kit(game).kept_pad is None:
            continue
        for lang in ("en", "fr"):
            for code in codes:
                said = kit(game).catalog(lang).reason(Reason.of(code))
                assert "{" not in said and said[-1] in ".!?", (game, lang, code, said)
