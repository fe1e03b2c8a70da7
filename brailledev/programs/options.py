"""A game's variants on the command line: ``--option NAME=VALUE`` (repeatable) and the
friendly flags the games declare (``--variant mattel``, ``--teams``, ``--beginner``,
``--first SEAT``, ``--time-limit SECONDS``, ``--deck FILE.toml``, ``--match-target N``).

Each game declares its options once, in ``OPTIONS`` of ``games/<game>/__init__.py`` (see
:class:`games.options.Option`), found through its kit; values are read as the declared kind and
checked here, so a mistake is one sentence naming the option and what it accepts.

    add_arguments(parser)
    chosen(parser.parse_args(["uno", "--variant", "mattel"]), "uno", players=2)
    # {'wild_draw_four': 'no_matching_colour'}
"""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from brailledev.errors import env_lang
from brailledev.files import NotAFile, TooBig, read_file
from brailledev.helptext import say
from games.core import DataProblem
from games.options import Option
from layouts.catalog import help_text
from layouts.errors import Problem, UserError, system_reason
from layouts.registry import GAMES, kit

# A deck file is a list of cards: a few kilobytes; anything much larger is not one.
MOST_DECK_BYTES = 1024 * 1024
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
# The metavar of each kind: a key of [help.metavar] in layouts/common/<lang>.toml.
_METAVARS = {"int": "number", "seat": "seat", "str": "value", "cards": "deck_file"}


def game_options(game: str) -> Mapping[str, Option]:
    """The options ``game`` declares (none if it declares nothing)."""
    return kit(game).options


def _flags() -> dict[str, list[tuple[str, Option]]]:
    """Flag -> (game, option) for every game declaring it."""
    flags: dict[str, list[tuple[str, Option]]] = {}
    for game in GAMES:
        for option in game_options(game).values():
            if option.flag:
                flags.setdefault(option.flag, []).append((game, option))
    return flags


def _takes_no_value(option: Option) -> bool:
    return option.kind == "bool" or option.flag_value is not None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--option`` and every game's friendly flags, in an argument group of their own."""
    group = parser.add_argument_group(say("game_options.title"),
                                      say("game_options.description"))
    group.add_argument("--option", action="append", default=[],
                       metavar=say("metavar.name_value"), help=say("game_options.option"))
    for flag, users in _flags().items():
        games = ", ".join(game for game, _ in users)
        first = users[0][1]
        if _takes_no_value(first):
            group.add_argument(f"--{flag}", dest=_dest(flag), action="store_true",
                               default=None, help=say("game_options.flag", games=games))
        else:
            group.add_argument(f"--{flag}", dest=_dest(flag), default=None,
                               metavar=say(f"metavar.{_METAVARS[first.kind]}"),
                               help=say("game_options.flag", games=games))


def _dest(flag: str) -> str:
    return "flag_" + flag.replace("-", "_")


def given(args: argparse.Namespace) -> bool:
    """Whether the command line names any game option (``--option`` or a flag)."""
    return bool(args.option) or any(getattr(args, _dest(flag), None) is not None
                                    for flag in _flags())


def chosen(args: argparse.Namespace, game: str, players: int) -> dict[str, Any]:
    """The options given on the command line for ``game``, read and checked."""
    options = game_options(game)
    result: dict[str, Any] = {}
    for item in args.option:
        name, equals, text = item.partition("=")
        name = name.strip()
        if not equals or not name:
            raise UserError("option_syntax", item=item)
        if name not in options:
            raise UserError("option_unknown", game=game, name=name,
                            choices=", ".join(options) or "-")
        result[name] = read_value(game, name, options[name], text.strip(), players)
    for flag in _flags():
        given = getattr(args, _dest(flag), None)
        if given is None:
            continue
        names = [name for name, option in options.items() if option.flag == flag]
        if not names:
            raise UserError("flag_not_for_game", flag=flag, game=game,
                            games=", ".join(each for each, _ in _flags()[flag]))
        option = options[names[0]]
        if option.flag_value is not None:
            result[names[0]] = option.flag_value
        elif option.kind == "bool":
            result[names[0]] = True
        else:
            result[names[0]] = read_value(game, names[0], option, str(given), players)
    for name, value in result.items():
        option = options[name]
        if option.players and value != option.default and players not in option.players:
            raise UserError("option_players", name=name, value=value, players=players,
                            choices=", ".join(map(str, option.players)))
    return result


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
        return Problem("deck_card_too_often", card=params["card"], most=params["most"])
    if why == "too_long" and "most" in params:
        return Problem("deck_too_many", count=len(cards), most=params["most"])
    if why == "too_short" and "least" in params:
        return Problem("deck_too_few", count=len(cards), least=params["least"])
    if why == "too_few_cards" and "players" in params:
        return Problem("deck_too_few_for", players=params["players"])
    return Problem("deck_other")


def describe(game: str, lang: str = "en") -> str:
    """The options of ``game`` for ``--help`` in ``lang``: one line each, with the values
    allowed: ``describe("elevens", "fr")``."""
    def words(key: str, **params: Any) -> str:
        return help_text(f"game_options.{key}", lang, **params)

    options = game_options(game)
    if not options:
        return words("none", game=game)
    lines = [words("heading", game=game)]
    for name, option in options.items():
        if option.kind == "bool":
            values = "true|false"
        elif option.choices:
            values = "|".join(map(str, option.choices))
        elif option.kind in ("cards", "seat"):
            values = words(f"values_{option.kind}")
        elif option.minimum is not None:
            values = words("values_minimum", minimum=option.minimum)
        else:
            values = words(f"values_{option.kind}")
        default = words("box_default") if option.default is None \
            else str(option.default).lower()
        flag = ""
        if option.flag:
            flag = f"; --{option.flag}"
            if option.flag_value is not None:
                flag += f" = {option.flag_value}"
            elif option.kind != "bool":
                metavar = help_text(f"metavar.{_METAVARS[option.kind]}", lang)
                flag += f" {'|'.join(option.aliases) or metavar}"
        aliases = "".join(f", {alias} = {value}" for alias, value in option.aliases.items())
        lines.append(words("line", name=name, values=values, default=default,
                           aliases=aliases, flag=flag))
    return "\n".join(lines)


class GameHelp(argparse.Action):
    """``-h``/``--help`` that adds the options of the game named before it (all games' if
    none was): ``brailledev play uno --help``."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        game = getattr(namespace, "game", None)
        games = [game] if game in GAMES else list(GAMES)
        lang = getattr(parser, "lang", None) or env_lang()
        parser.print_help()
        print()
        print("\n".join(describe(each, lang) for each in games))
        parser.exit()
