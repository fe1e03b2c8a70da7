"""Elements in words: card labels, combination names, refusals and events, per language.

    label(Card("y", 7), Catalog.load("elements", "fr"))      # "j7"
    label("Eb", Catalog.load("elements", "fr"))              # "éb", an element card
    words = Words.load("fr")
    words.combination(key)                 # "paire de nombres"
    words.event(Won(1, Card("r", 5), (Card("y", 10),), key), viewer=0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.core import Event, NotationError, Reason, Seat
from games.elements.cards import ELEMENT_PREFIX, Card, ComboKey, element_label
from games.elements.engine import (
    Bidding,
    Drew,
    GameOver,
    HandScored,
    Kept,
    Laid,
    NewHand,
    Passed,
    Placed,
    Revealed,
    ToStock,
    Won,
)
from layouts.catalog import Catalog
from layouts.paper import caption_words


def label(card: Card | str, catalog: Catalog) -> str:
    """The label of a card, the same on the display and on paper: a number card its colour
    letter and value (``label(Card("y", 7), fr) == "j7"``), an element card, given in its
    notation ``E`` and colour, the language's element letter and the colour letter (``e``
    in English, ``é`` in French: ``label("Ey", fr) == "éj"``, and black ``én``, never the
    word "en"): lower case, so no reader's table puts a capital sign on it."""
    cards = catalog.section("cards")
    if isinstance(card, Card):
        return f"{cards['colour_prefix'][card.colour]}{card.value}"
    return f"{cards['element_prefix']}{cards['colour_prefix'][card[len(ELEMENT_PREFIX):]]}"


def print_name(card: Card | str, catalog: Catalog) -> str:
    """A card named as the box prints it: ``print_name(Card("y", 7), Catalog.load(
    "elements", "fr")) == "jaune 7"``, ``print_name("Ey", fr) == "élément jaune"``."""
    captions = caption_words("elements", catalog.lang)
    colours = catalog.section("names")["colours"]
    if isinstance(card, Card):
        return captions["number"].format(colour=colours[card.colour], value=card.value)
    return captions["element"].format(colour=colours[card[len(ELEMENT_PREFIX):]])


def name(card: Card | str, catalog: Catalog) -> str:
    """A card as a sentence names it: its label, or its print name for a catalog
    :meth:`Catalog.in_print` (a web page's): ``name(Card("b", 3), catalog)``."""
    return print_name(card, catalog) if catalog.print_names else label(card, catalog)


@dataclass(frozen=True)
class Words:
    """The words of Elements in one language (``Words.load("en")``)."""

    catalog: Catalog

    @classmethod
    def load(cls, lang: str) -> Words:
        return cls(Catalog.load("elements", lang))

    @property
    def lang(self) -> str:
        return self.catalog.lang

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards one after the other as a sentence names them (:func:`name`):
        ``words.cards([Card("y", 7), Card("b", 2)])``."""
        return self.catalog.series(name(card, self.catalog) for card in cards)


    def colour(self, colour: str) -> str:
        return str(self.catalog.section("names")["colours"][colour])

    def combination(self, key: ComboKey) -> str:
        return str(self.catalog.section("combinations")[key.pattern.code])

    def text(self, code: str, **args: object) -> str:
        return self.catalog.text(code, **args)

    def reason(self, reason: Reason) -> str:
        return self.catalog.reason(reason)

    def player(self, seat: Seat, viewer: Seat | None, names: Sequence[str] = ()) -> str:
        """``you`` for the viewer, else the seat's name if given, else ``player 2``."""
        if seat == viewer:
            return self.text("you")
        return names[seat] if names else self.text("player", seat=seat + 1)

    def read_card(self, text: str) -> Card:
        """A label back to its card (``j7`` in French is ``y7``, ``ge7`` in German); raises
        NotationError."""
        prefixes = self.catalog.section("cards")["colour_prefix"]
        for colour, head in prefixes.items():
            # No colour's letters begin another's (tests/layouts/test_labels.py).
            digits = text.removeprefix(head)
            if text.startswith(head) and digits.isdigit():
                return Card(colour, int(digits))
        raise NotationError(Reason.of("not_a_card", text=text))

    def event(self, event: Event, viewer: Seat | None,
              names: Sequence[str] = ()) -> str | None:
        """One event as a sentence for ``viewer`` (already filtered for that seat); seats are
        called by ``names`` when given (``("you", "Bo", "Cy")``)."""
        said = _Teller(self, viewer, tuple(names)).event(event)
        return said[:1].upper() + said[1:] if said else None

    def order(self, order: Sequence[str]) -> str:
        """The colour order, strongest first: ``b r g y k``, on a web page by the colours'
        names: ``words.order("brgyk")``."""
        if self.catalog.print_names:
            return self.catalog.series(self.colour(colour) for colour in order)
        return " ".join(self.catalog.section("cards")["colour_prefix"][c] for c in order)


@dataclass(frozen=True)
class _Teller:
    """Events in words for one viewer."""

    words: Words
    viewer: Seat | None
    names: tuple[str, ...]

    def about(self, code: str, seat: Seat, **args: object) -> str:
        """The message ``code`` about ``seat``; its ``_own`` form when the viewer did it."""
        if seat == self.viewer:
            return self.words.text(f"{code}_own", **args)
        return self.words.text(code, player=self.who(seat), **args)

    def who(self, seat: Seat) -> str:
        return self.words.player(seat, self.viewer, self.names)

    def event(self, event: Event) -> str | None:
        words, text, about = self.words, self.words.text, self.about
        catalog = words.catalog
        if isinstance(event, Placed):
            if event.cards and event.seat == self.viewer:
                return text("placed_own", card=name(event.cards[0], catalog),
                            element=name(element_label(event.element), catalog))
            return text("placed", player=self.who(event.seat),
                        element=name(element_label(event.element), catalog))
        if isinstance(event, Revealed):
            shown = ", ".join(self.placement(element_label(element), card)
                              for element, _, card in event.placements)
            return text("revealed", cards=shown, order=words.order(event.order))
        if isinstance(event, ToStock):
            return text(f"to_stock_{event.why}", card=name(event.card, catalog))
        if isinstance(event, Bidding):
            return about("bidding", event.seat, card=name(event.card, catalog))
        if isinstance(event, Laid):
            return about("laid", event.seat, cards=words.cards(event.cards))
        if isinstance(event, Passed):
            return about("passed", event.seat)
        if isinstance(event, Won):
            return about("won", event.seat, card=name(event.card, catalog),
                         combination=words.combination(event.key),
                         cards=words.cards(event.cards))
        if isinstance(event, HandScored):
            return text("hand_scored", points=self.scores(event.points),
                        totals=self.scores(event.totals))
        if isinstance(event, Kept):
            return about("kept", event.seat, count=event.count)
        if isinstance(event, Drew):
            if event.seat == self.viewer:
                return text("drew_own", cards=words.cards(event.cards or ())) \
                    if event.cards else None
            return text("drew", player=self.who(event.seat), count=event.count) \
                if event.count else None
        if isinstance(event, NewHand):
            return about("new_hand", event.first, number=event.number + 1)
        if isinstance(event, GameOver):
            return text("game_over_win", count=len(event.winners),
                        players=", ".join(self.who(seat) for seat in event.winners),
                        points=event.totals[event.winners[0]])
        return None

    def placement(self, element: str, card: Card) -> str:
        """A card shown on its element: ``er b7``, on a web page ``blue 7 on the red
        element``."""
        catalog = self.words.catalog
        if catalog.print_names:
            return catalog.text("revealed_on", card=name(card, catalog),
                                element=name(element, catalog))
        return f"{label(element, catalog)} {label(card, catalog)}"

    def scores(self, points: Sequence[int]) -> str:
        """Every seat's points, each after its name: ``you 7, Bo 0, Cy 18``."""
        return ", ".join(f"{self.who(seat)} {value}" for seat, value in enumerate(points))
