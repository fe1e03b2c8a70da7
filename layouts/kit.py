"""One record per game: everything brailledev needs of it besides its rules, found by name
through :func:`layouts.registry.kit`. Each ``layouts/<game>/__init__.py`` makes its ``KIT``.

    uno = kit("uno")
    game = uno.new_game(players=3, seed=1)
    uno.screen.screen(game.view(0), context)                 # the display
    uno.board.board(game.view(0), context, lines, Size(40, 9))  # a multi-line display
    uno.label("r+2", uno.catalog("fr"))                      # the same label everywhere
    uno.deck_faces("fr", cards="r7,wi")                      # paper: card faces
    uno.pad_sheets("en", players=4)                          # paper: a score pad
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.core import Bot, DataProblem, Game, NotationError, Reason, TurnClock
from games.options import Option
from games.pads import Book
from layouts.board import GameBoard
from layouts.catalog import Catalog, game_data, rules_data
from layouts.errors import GameProblem, GameRefused, PaperError, Problem, UnknownName
from layouts.paper import CardSize, Face, PadMaker, PadRequest, Sheet
from layouts.picture import Picture
from layouts.screen import GameScreen

# A bot maker takes the bot's seed: ``BOTS["heuristic"](5)``.
BotMaker = Callable[[int], Bot[Any, Any]]
# The most players a score pad is made for.
PAD_PLAYERS = 10


# The words an engine's refusal of a new game is told in: the code of a sentence of [errors]
# and the arguments it needs.
RefusalWords = Mapping[str, tuple[str, tuple[str, ...]]]
# The refusals every engine may give (games.core); a game's own are in its kit.
REFUSAL_WORDS: RefusalWords = {
    "players_range": ("refused_players_range", ("game", "low", "high", "players")),
    "option_value": ("refused_option_value", ("option", "value")),
    "unknown_option": ("refused_unknown_option", ("game", "option")),
    "box_data": ("refused_box_data", ("at",)),
    "no_box_data": ("refused_no_box_data", ("game",)),
    "box_data_unreadable": ("refused_box_data_unreadable", ("game",)),
}


def as_written(text: str, rules: Mapping[str, Any]) -> str:
    """A card of a ``--cards`` list that needs no reading: its text, spaces dropped:
    ``as_written(" r5", rules) == "r5"``."""
    return text.strip()


@dataclass(frozen=True)
class Deck:
    """A game's cards on paper: ``cards`` lists the whole deck in the game's notation from the
    box data (duplicates included), ``read`` turns a card text of a ``--cards`` list into that
    notation (or raises ``NotationError``), ``face`` gives what is embossed on one card:
    ``Deck(deck_cards, face, read_card)``."""

    cards: Callable[[Mapping[str, Any]], list[str]]
    face: Callable[[str, Catalog], Face]
    read: Callable[[str, Mapping[str, Any]], str] = as_written


@dataclass(frozen=True)
class KeptPad:
    """A game's score pad kept on the display while the box's cards are played at a real
    table (``brailledev pad``): ``book`` makes a blank book from the box's numbers and the
    player count (``games/<game>/book.py``), ``screen`` shows it:
    ``KeptPad(blank_book, RoundsPadScreen("uno"))``."""

    book: Callable[[Mapping[str, Any], int], Book]
    screen: GameScreen


@dataclass(frozen=True)
class GameKit:
    """A game as brailledev knows it: ``name`` (its folder in ``games/`` and ``layouts/``),
    the engine class ``game``, ``bots`` (name -> maker from a seed), ``options`` (the
    variants ``--option`` and the flags choose), ``selfplay_options`` (what self-play sets
    unless told otherwise), ``label`` (a card of the game's own card type in words: the one
    label of the display, the embossed card and the web page), ``screen`` (its face on a
    display), ``board`` (its table over the rows of a multi-line display), ``deck`` (its
    cards on paper; card size and notation in ``deck.toml``) and ``pad`` (its score pad on
    paper; words in ``pad.toml``), ``kept_pad`` (its score pad kept
    on a display for the physical game), ``picture`` (its table on a web page: the shared
    default unless it draws more), and ``clock`` (the turn time limit
    of a game that has one, a rule of the game; its words are the screen's). ``refusals``
    words the engine's own refusals of a new game (its [errors] sentences, in its folder).
    A game may start without a screen, a board, a deck, a pad, a kept pad or a clock: ``None``."""

    name: str
    game: type[Game[Any, Any]]
    bots: Mapping[str, BotMaker]
    label: Callable[[Any, Catalog], str]
    options: Mapping[str, Option] = field(default_factory=dict)
    selfplay_options: Mapping[str, Any] = field(default_factory=dict)
    screen: GameScreen | None = None
    board: GameBoard | None = None
    deck: Deck | None = None
    pad: PadMaker | None = None
    kept_pad: KeptPad | None = None
    picture: Picture = field(default_factory=Picture)
    clock: TurnClock[Any] | None = None
    refusals: RefusalWords = field(default_factory=dict)

    # ---- words and rules -------------------------------------------------------------------

    def catalog(self, lang: str) -> Catalog:
        """The game's words in ``lang``: ``kit("uno").catalog("fr").text("uno_help")``."""
        return Catalog.load(self.name, lang)

    def rules(self) -> dict[str, Any]:
        """The box's numbers (a fresh copy): ``kit("domino").rules()["pad"]``."""
        return rules_data(self.name)

    # ---- playing ---------------------------------------------------------------------------

    @property
    def default_players(self) -> int:
        """The player count a game starts with when none is asked: the engine's own if it
        says, else its least (``kit("elements").default_players == 3``)."""
        found = getattr(self.game, "default_players", self.game.min_players)
        return int(found)

    def check_players(self, players: int) -> None:
        """A player count outside the game's range is a :class:`GameRefused`:
        ``kit("elements").check_players(2)``."""
        if not self.game.min_players <= players <= self.game.max_players:
            raise GameRefused("players_range", game=self.name.capitalize(),
                              low=self.game.min_players, high=self.game.max_players,
                              players=players, default=self.default_players)

    def new_game(self, players: int, seed: int, **options: Any) -> Game[Any, Any]:
        """A fresh game with the box's data; a player count outside the game's range, or an
        engine's refusal of the options (a ValueError), is a :class:`GameRefused`. Options go
        to the engine by its own names (``Option.keyword``):
        ``kit("uno").new_game(3, seed=1, match_target=0)``."""
        self.check_players(players)
        given = {self._keyword(name): value for name, value in options.items()}
        try:
            return self.game.new(players=players, seed=seed, data=self.rules(), **given)
        except Problem:
            raise
        except DataProblem as error:
            raise GameRefused("game_refused", game=self.name,
                              detail=self.refusal(error.reason)) from None
        except ValueError as error:  # an engine's plainer refusal: its own words, shortened
            raise GameRefused("game_refused", game=self.name,
                              detail=Problem("refused_other", what=str(error)[:80])) from None

    def refusal(self, reason: Reason) -> Problem:
        """Why the engine refused to create a game, in words (the game's own, else the shared
        ones): ``kit("uno").refusal(Reason.of("option_value", option="teams", value="3"))``
        -> "the option teams cannot be 3"."""
        params = reason.params
        own = reason.code in self.refusals
        code, needs = (self.refusals if own else REFUSAL_WORDS).get(reason.code,
                                                                     ("refused_other", ()))
        if code == "refused_other" or any(name not in params for name in needs):
            return Problem("refused_other", what=reason.code)
        given = {name: params[name] for name in needs}
        return GameProblem(self.name, code, **given) if own else Problem(code, **given)

    def _keyword(self, name: str) -> str:
        option = self.options.get(name)
        return option.keyword if option is not None and option.keyword else name

    def check_bot(self, bot: str) -> None:
        """A bot name the game does not have is an :class:`UnknownName` listing those it
        has: ``kit("uno").check_bot("clever")``."""
        if bot not in self.bots:
            raise UnknownName("bot_unknown", game=self.name.capitalize(), bot=bot,
                              choices=", ".join(self.bots))

    def make_bot(self, bot: str, seed: int) -> Bot[Any, Any]:
        """The bot named ``bot``, seeded: ``kit("uno").make_bot("heuristic", 5)``."""
        self.check_bot(bot)
        return self.bots[bot](seed)

    # ---- paper -----------------------------------------------------------------------------

    def card_size(self) -> CardSize:
        """The card size of the box (``deck.toml``): ``kit("uno").card_size()``."""
        data = game_data(self.name, "deck")
        return CardSize(float(data["card_width"]), float(data["card_height"]))

    def whole_deck(self) -> list[str]:
        """Every card of the box in the game's notation, duplicates included:
        ``kit("rummikub").whole_deck().count("J") == 2``."""
        return self._deck().cards(self.rules())

    def parse_cards(self, text: str, lang: str) -> list[str]:
        """A replacement set ``"r7,r7,b+2,wi"`` checked against the deck, in notation; each
        card written as its label in ``lang`` (French ``"j7,vpas,jk+4"``) or in the game's
        notation; an unknown card is refused with the labels explained in ``lang``."""
        deck, rules = self._deck(), self.rules()
        known = set(deck.cards(rules))
        labels = {" ".join(face.lines): face.card for face in self.deck_faces(lang)}
        items = [item.strip() for item in text.split(",") if item.strip()]
        if not items:
            raise PaperError("cards_empty")
        chosen = []
        for item in items:
            try:
                card = labels[item] if item in labels else deck.read(item, rules)
            except NotationError:
                card = ""
            if card not in known:
                notation = self.catalog(lang).section("deck")["notation"]
                raise PaperError("card_unknown", game=self.name, card=item, notation=notation)
            chosen.append(card)
        return chosen

    def deck_faces(self, lang: str, cards: str | None = None) -> list[Face]:
        """The faces of the whole deck, or of the cards listed in ``cards``:
        ``kit("uno").deck_faces("fr", "r7,wi")``."""
        face = self._deck().face
        chosen = self.whole_deck() if cards is None else self.parse_cards(cards, lang)
        catalog = self.catalog(lang)
        return [face(card, catalog) for card in chosen]

    def pad_sheets(self, lang: str, players: int, book: Any = None) -> list[Sheet]:
        """The sheets of one score pad for ``players`` players, in ``lang``, blank or filled
        from a ``book`` kept on the display (:mod:`games.pads`):
        ``kit("domino").pad_sheets("fr", 3)``."""
        if self.pad is None:
            raise PaperError("no_pad", game=self.name)
        if not 1 <= players <= PAD_PLAYERS:
            raise PaperError("pad_players", players=players)
        return self.pad(PadRequest(self.rules(), self.catalog(lang).section("pad"), players,
                                   book))

    def _deck(self) -> Deck:
        if self.deck is None:
            raise PaperError("no_deck", game=self.name)
        return self.deck
