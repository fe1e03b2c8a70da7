"""A game's variants on the command line: ``--option NAME=VALUE`` (repeatable) and the
friendly flags the games declare (``--variant mattel``, ``--teams``, ``--beginner``,
``--first SEAT``, ``--time-limit SECONDS``, ``--deck FILE.toml``, ``--match-target N``).

Each game declares its options once, in ``OPTIONS`` of ``games/<game>/__init__.py`` (see
:class:`games.options.Option`), found through its kit; values are read as the declared kind and
checked by :mod:`brailledev.table.options`, so a mistake is one sentence naming the option and
what it accepts.

    add_arguments(parser)
    chosen(parser.parse_args(["uno", "--variant", "mattel"]), "uno", players=2)
    # {'wild_draw_four': 'no_matching_colour'}
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from brailledev.errors import env_lang
from brailledev.helptext import say
from brailledev.table.options import read_value
from games.options import Option
from layouts.catalog import help_text
from layouts.errors import UserError
from layouts.registry import GAMES, kit

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
    return bool(given_names(args))


def given_names(args: argparse.Namespace) -> list[str]:
    """The game options the command line names, as typed: ``["--option", "--teams"]``."""
    flags = [flag for flag in _flags() if getattr(args, _dest(flag), None) is not None]
    named = [f"--{flag}" for flag in flags]
    return ["--option", *named] if args.option else named


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
