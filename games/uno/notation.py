"""Uno's text notation for cards and moves (UNO-12), shared by the CLI, the tests and the logs.

Cards are a colour letter and a value, or a Wild by its name:

    r7  y0  g9          number cards (colours r y g b, values 0-9)
    r+2  rsk  rrv       Draw Two, Skip, Reverse of a colour
    wi  wi+4            Wild, Wild Draw Four

Moves (seats are numbered from 0):

    r7          play the red 7
    r7!         play it and say "UNO" (only when it leaves one card in hand, UNO-7)
    wi:g        play a Wild and choose green; a Wild's colour is always part of its play
    wi+4:b!     play a Wild Draw Four, choose blue, say "UNO"
    draw        draw one card instead of playing (UNO-4)
    keep        after drawing a card that matches, keep it and end the turn (UNO-4)
    choose y    choose the first colour when the first card of the discard is a Wild (UNO-3)
    challenge   challenge the Wild Draw Four just played on you (UNO-6)
    accept      draw the four cards without challenging (UNO-6)
    catch 2     catch seat 2, who forgot to say "UNO" (UNO-7)

    >>> parse_move("wi+4:g!", ("r", "y", "g", "b"))
    Move(kind='play', card='wi+4', colour='g', uno=True, target=-1)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from games.core import NotationError, Reason

WILD = "wi"
WILD_DRAW_FOUR = "wi+4"
WILDS = (WILD, WILD_DRAW_FOUR)
SKIP, REVERSE, DRAW_TWO = "sk", "rv", "+2"
NUMBERS = tuple(str(n) for n in range(10))

PLAY, DRAW, KEEP, CHOOSE, CHALLENGE, ACCEPT, CATCH = (
    "play", "draw", "keep", "choose", "challenge", "accept", "catch")
KINDS = (PLAY, DRAW, KEEP, CHOOSE, CHALLENGE, ACCEPT, CATCH)
_WORDS = {DRAW, KEEP, CHALLENGE, ACCEPT}


@dataclass(frozen=True, slots=True)
class Move:
    """One Uno move: ``Move("play", "wi", colour="g")``, ``Move("catch", target=2)``.

    ``card`` and ``colour`` are "" and ``target`` is -1 where a kind of move has none.
    """

    kind: str
    card: str = ""
    colour: str = ""
    uno: bool = False
    target: int = -1

    def __str__(self) -> str:
        return format_move(self)


def colour_of(card: str) -> str:
    """The printed colour of a card, "" for a Wild: ``colour_of("r+2") == "r"``."""
    return "" if card in WILDS else card[0]


def value_of(card: str) -> str:
    """The value or symbol of a card: ``value_of("rsk") == "sk"``, ``value_of("wi") == "wi"``."""
    return card if card in WILDS else card[1:]


def parse_card(text: str, colours: Sequence[str]) -> str:
    """The canonical card for ``text`` (case and spaces ignored): ``parse_card(" R7", cols)``."""
    if type(text) is not str:
        raise NotationError(Reason.of("uno_not_a_card", text=repr(text)[:40]))
    card = text.strip().lower()
    if card in WILDS:
        return card
    if len(card) >= 2 and card[0] in colours and card[1:] in (*NUMBERS, SKIP, REVERSE, DRAW_TWO):
        return card
    raise NotationError(Reason.of("uno_not_a_card", text=text[:40]))


def parse_move(text: str, colours: Sequence[str]) -> Move:
    """Read a move in the notation above, or raise :class:`NotationError`."""
    if type(text) is not str or len(text) > 200:
        raise NotationError(Reason.of("unknown_move", text=repr(text)[:40]))
    words = text.strip().lower().split()
    if not words:
        raise NotationError(Reason.of("unknown_move", text=text))
    head = words[0]
    if len(words) == 1 and head in _WORDS:
        return Move(head)
    if head == CHOOSE and len(words) == 2 and words[1] in colours:
        return Move(CHOOSE, colour=words[1])
    if head == CATCH and len(words) == 2 and re.fullmatch("[0-9]{1,3}", words[1]):
        return Move(CATCH, target=int(words[1]))
    if len(words) != 1:
        raise NotationError(Reason.of("unknown_move", text=text))
    uno = head.endswith("!")
    body = head[:-1] if uno else head
    card_text, _, colour = body.partition(":")
    try:
        card = parse_card(card_text, colours)
    except NotationError:
        raise NotationError(Reason.of("unknown_move", text=text)) from None
    if colour and colour not in colours:
        raise NotationError(Reason.of("uno_unknown_colour", colour=colour))
    return Move(PLAY, card, colour, uno)


def format_move(move: Move) -> str:
    """The text of a move: ``format_move(Move("play", "wi", "g")) == "wi:g"``."""
    if move.kind == PLAY:
        text = move.card + (f":{move.colour}" if move.colour else "")
        return text + ("!" if move.uno else "")
    if move.kind == CHOOSE:
        return f"choose {move.colour}"
    if move.kind == CATCH:
        return f"catch {move.target}"
    return str(move.kind)
