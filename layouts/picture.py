"""A game's table as a web page draws it besides the screen's lines: words and regions only
(the web module adds the braille of every card label and everything the page shares: the
players, their card counts, whose turn). Each game's kit holds its picture; a game without
one of its own has this default, which draws nothing more than the screen (its hand line's
cards as cards).

A picture gives, by key: ``cards`` (a card of a line's region, by its id ``"row.column"``:
``card``, ``label``, ``caption`` and what the game draws of it), and whatever else it draws
(a discard pile, a grid); ``covers`` lists the lines it draws itself, which the page leaves
out of its actions, and ``long_lines`` the lines that may grow long (the page lets them
scroll). A card's ``tone`` is one of the page's card colours (``page.css``:
``.card.tone-NAME``), listed in :attr:`Picture.tones`.

    picture = Picture(hand=RACK_LINE)                  # the default, with another hand line
    picture.draw(view, lines, catalog)                  # {} (the default draws nothing)
    card_face(face("r7", catalog))                      # {"card": "r7", "label": "r7", ...}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from layouts.catalog import Catalog
from layouts.paper import Face
from layouts.screen import HAND_LINE, Line

Json = dict[str, Any]


class Picture:
    """What a game's web page draws; see the module docstring. ``hand`` is the key of the
    line the page draws as the player's hand."""

    # The card colours this picture may give (each styled by page.css).
    tones: tuple[str, ...] = ()

    def __init__(self, hand: str = HAND_LINE) -> None:
        self.hand = hand

    def draw(self, view: Any, lines: tuple[Line, ...], catalog: Catalog) -> Json:
        """What the page draws for ``view`` besides the lines, in words (nothing here)."""
        return {}


def card_face(face: Face) -> Json:
    """A card as the page draws it: its notation, the label as embossed and the caption as
    the box prints it: ``card_face(face("r7", catalog))``."""
    return {"card": face.card, "label": " ".join(face.lines), "caption": face.caption}


def rows_keyed(lines: tuple[Line, ...], key: str) -> Iterator[tuple[int, Line]]:
    """The lines keyed ``key`` with their row on the screen (a region's id is
    ``"row.column"``): ``rows_keyed(lines, HAND_LINE)``."""
    return ((row, line) for row, line in enumerate(lines) if line.key == key)
