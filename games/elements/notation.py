"""Elements' text notation for cards and moves (colour letters from the box data, by default
``r y g b k``; values 0-10).

A number card is its colour letter and value (``r7``, ``k10``); an element card is ``E`` and
its colour (``Er``). Moves:

    place r7@Eb     phase 1: put r7 face down before the blue element card (ELE-3)
    lay r7          phase 2: lay one card (rounds 1 and 2), ``lay r7 b7`` two (round 3, ELE-5)
    pass            phase 2: stop bidding for this point card
    keep r7 b3      phase 3: keep these cards, the others go to the stock (``keep`` alone
                    keeps nothing, ELE-7)

    >>> parse_move("lay b7 r7", colours=("r", "y", "g", "b", "k"), values=range(11))
    Lay(cards=(Card(colour='r', value=7), Card(colour='b', value=7)))
    >>> str(Place(Card("r", 7), "b"))
    'place r7@Eb'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from games.errors import NotationError, Reason

ELEMENT_PREFIX = "E"


class Card(NamedTuple):
    """A number card: ``Card("r", 7)`` is written ``r7``."""

    colour: str
    value: int

    def __str__(self) -> str:
        return f"{self.colour}{self.value}"


def element_label(colour: str) -> str:
    """The element card of a colour: ``element_label("b") == "Eb"``."""
    return f"{ELEMENT_PREFIX}{colour}"


_CARD = re.compile(r"([a-z])([0-9]{1,3})")


def read_card(text: str, colours: Sequence[str], values: range) -> Card:
    """``read_card("r7", ("r", "y"), range(11)) == Card("r", 7)``; raises
    :class:`NotationError` for anything else."""
    found = _CARD.fullmatch(text.strip()) if type(text) is str else None
    if found is None or found.group(1) not in colours or int(found.group(2)) not in values:
        raise NotationError(Reason.of("not_a_card", text=str(text).strip()[:20]))
    return Card(found.group(1), int(found.group(2)))


def read_cards(texts: Sequence[str], colours: Sequence[str], values: range) -> list[Card]:
    return [read_card(text, colours, values) for text in texts]


def sort_key(card: Card, colours: Sequence[str]) -> tuple[int, int]:
    """Hand order: by the colours' notation order, then value."""
    return colours.index(card.colour), card.value


@dataclass(frozen=True)
class Place:
    """Phase 1: put ``card`` face down before the element card of colour ``element``."""

    card: Card
    element: str

    def __str__(self) -> str:
        return f"place {self.card}@{element_label(self.element)}"


@dataclass(frozen=True)
class Lay:
    """Phase 2: lay ``cards`` face up (1 card in rounds 1 and 2, 2 cards in round 3)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return " ".join(["lay", *map(str, self.cards)])


@dataclass(frozen=True)
class Pass:
    """Phase 2: stop bidding for this point card (cards already laid still compete)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Keep:
    """Phase 3: keep ``cards`` of the hand; the others go to the stock."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return " ".join(["keep", *map(str, self.cards)])


Move = Place | Lay | Pass | Keep


def format_move(move: Move) -> str:
    return str(move)


def parse_move(text: str, colours: Sequence[str], values: range) -> Move:
    """Read a move in the notation above; the cards of ``lay`` and ``keep`` are put in hand
    order. Raises :class:`NotationError`."""
    if type(text) is not str or len(text) > 400:
        raise NotationError(Reason.of("unknown_move", text=repr(text)[:40]))
    words = text.split()
    if not words:
        raise NotationError(Reason.of("unknown_move", text=text[:40]))
    verb, rest = words[0].lower(), words[1:]
    if verb == "pass" and not rest:
        return Pass()
    if verb == "place" and len(rest) == 1 and "@" in rest[0]:
        card, element = rest[0].split("@", 1)
        colour = element[len(ELEMENT_PREFIX):]
        if not element.startswith(ELEMENT_PREFIX) or colour not in colours:
            raise NotationError(Reason.of("not_an_element", text=element[:20]))
        return Place(read_card(card, colours, values), colour)

    def ordered() -> tuple[Card, ...]:
        cards = read_cards(rest, colours, values)
        return tuple(sorted(cards, key=lambda card: sort_key(card, colours)))

    if verb == "lay" and rest:
        return Lay(ordered())
    if verb == "keep":
        return Keep(ordered())
    raise NotationError(Reason.of("unknown_move", text=text[:40]))
