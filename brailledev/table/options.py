"""A game's options as values: a text read as the kind its declaration says and checked
(:class:`games.options.Option`), a deck file's cards read and tried on the game; a mistake
is one sentence naming the option and what it accepts. The command line (``--option``, the
games' flags) and the table server (``POST /tables``) read options through it.

    read_value("uno", "teams", kit("uno").options["teams"], "2", players=4) == 2
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from brailledev.files import NotAFile, TooBig, read_file
from games.core import DataProblem
from games.options import Option
from layouts.errors import Problem, UserError, system_reason
from layouts.registry import kit

# A deck file is a list of cards: a few kilobytes; anything much larger is not one.
MOST_DECK_BYTES = 1024 * 1024
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def read_value(game: str, name: str, option: Option, text: str, players: int) -> Any:
    """``text`` as a value of ``option``: ``read_value("uno", "teams", option, "2", 4) == 2``."""
    text = str(option.aliases.get(text, text))
    value: Any
    if option.kind in ("int", "seat"):
        try:
            value = int(text)
        except ValueError:
            raise UserError("option_not_integer", name=name, value=text) from None
    elif option.kind == "bool":
        if text.lower() not in _TRUE + _FALSE:
            raise UserError("option_not_boolean", name=name, value=text)
        value = text.lower() in _TRUE
    elif option.kind == "cards":
        value = read_cards(Path(text))
        check_deck(game, option.keyword or name, Path(text), value, players)
    else:
        value = text
    if option.choices and value not in option.choices:
        words = [*option.choices, *option.aliases]
        raise UserError("option_choice", name=name, value=text,
                        choices=", ".join(map(str, words)))
    if option.minimum is not None and value < option.minimum:
        raise UserError("option_minimum", name=name, value=value, minimum=option.minimum)
    if option.kind == "seat" and not 0 <= value < players:
        raise UserError("option_seat", name=name, value=value, players=players,
                        last=players - 1)
    return value


def read_cards(path: Path) -> list[str]:
    """The card texts of a deck file: a TOML file holding ``cards = ["6/0", "1/1", ...]``."""
    try:
        data = tomllib.loads(read_file(path, MOST_DECK_BYTES).decode("utf-8"))
    except FileNotFoundError:
        raise UserError("deck_file_missing", path=path) from None
    except NotAFile:  # a pipe or a device is never waited on
        raise UserError("deck_file_invalid", path=path,
                        detail=Problem("damage_not_file")) from None
    except TooBig:
        raise UserError("deck_file_invalid", path=path,
                        detail=Problem("deck_file_too_big", most=MOST_DECK_BYTES // 1024)) from None
    except OSError as error:
        raise UserError("deck_file_invalid", path=path, detail=system_reason(error)) from None
    except UnicodeDecodeError:
        raise UserError("deck_file_invalid", path=path,
                        detail=Problem("damage_not_text")) from None
    except tomllib.TOMLDecodeError as error:
        raise UserError("deck_file_invalid", path=path, detail=error) from None
    except RecursionError:
        raise UserError("deck_file_invalid", path=path,
                        detail=Problem("damage_too_deep_file")) from None
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards or \
            not all(isinstance(card, str) for card in cards):
        raise UserError("deck_file_no_cards", path=path)
    return cards


def check_deck(game: str, keyword: str, path: Path, cards: list[str], players: int) -> None:
    """Refuse, naming the file, a deck the game cannot be played with (an unknown card, too
    many or too few, one card too often): ``check_deck("domino", "deck", path, ["7/9"], 2)``.
    Refusals that are not the deck's are told later, with the rest of the game's."""
    the_kit = kit(game)
    try:
        the_kit.game.new(players=players, seed=0, data=the_kit.rules(), **{keyword: cards})
    except DataProblem as error:
        params = error.reason.params
        at = str(params.get("at", ""))
        if error.reason.code == "box_data" and (at.startswith("data.cards")
                                                or at == "cards_per_round"):
            raise UserError("deck_file_unplayable", path=path,
                            detail=_deck_damage(at, params, cards)) from None


def _deck_damage(at: str, params: Mapping[str, Any], cards: list[str]) -> Problem:
    """What is wrong with a deck's cards, in words."""
    why = params.get("why")
    index = at.removeprefix("data.cards.")
    if index.isascii() and index.isdigit() and int(index) < len(cards):
        return Problem("deck_card_unknown", card=cards[int(index)][:20])
    if why == "card_too_often" and "card" in params and "most" in params:
        return Problem("deck_card_too_often", card=params["card"], most=params["most"],
                       count=params["most"])
    if why == "too_long" and "most" in params:
        return Problem("deck_too_many", count=len(cards), most=params["most"])
    if why == "too_short" and "least" in params:
        return Problem("deck_too_few", count=len(cards), least=params["least"])
    if why == "too_few_cards" and "players" in params:
        return Problem("deck_too_few_for", players=params["players"])
    return Problem("deck_other")
