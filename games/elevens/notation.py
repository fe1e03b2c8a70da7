"""Elevens' text notation for cards and steps (colour letters from the box data, by default
``r y g b``; positions 1-21). A turn is a sequence of steps:

    r5          place the number card r5 at position 5 of row r (ELV-5)
    *@b7        place a joker at position 7 of row b
    L r12>b     lay a link card on r12 toward the neighbour row b and place b12 there (ELV-6)
    L r12>b *   the same, with a joker standing for b12
    x b7        exchange: b7 from the hand replaces the joker at b7, which goes to the hand (ELV-8)
    discard *   discard a joker from the hand back to the box (ELV-9)
    draw        draw the top card of the stock: the whole turn (ELV-4)
    end         end the turn; with nothing placed and an empty stock it is a pass (ELV-7)
    undo        take back the last step of the turn in progress

    >>> parse_step("L r12>b *", rows=("r", "y", "g", "b"), lowest=1, highest=21)
    Step(kind='link', card='*', row='b', pos=12, source='r')
    >>> str(Step("link", "*", "b", 12, "r"))
    'L r12>b *'
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from games.errors import NotationError, Reason

JOKER = "*"
KINDS = ("place", "link", "exchange", "discard", "draw", "end", "undo")


@dataclass(frozen=True)
class Step:
    """One step of a turn. ``card`` is a number card (``r5``) or ``*``; ``row``/``pos`` where it
    goes; ``source`` the row a link card starts from, e.g. ``Step("link", "b12", "b", 12, "r")``.
    """

    kind: str
    card: str = ""
    row: str = ""
    pos: int = 0
    source: str = ""

    def __str__(self) -> str:
        return format_step(self)


# The steps that need no card or place.
DRAW, END, UNDO = Step("draw"), Step("end"), Step("undo")
DISCARD = Step("discard", JOKER)


def place(card: str, row: str = "", pos: int = 0) -> Step:
    """``place("r5")`` a number card; ``place("*", "b", 7)`` a joker at b7."""
    if card != JOKER:
        row, pos = split_card(card)
    return Step("place", card, row, pos)


def split_card(card: str) -> tuple[str, int]:
    """``split_card("r12") == ("r", 12)``; a malformed card gives ``("", 0)``."""
    return _split(card) if type(card) is str else ("", 0)


@lru_cache(maxsize=1024)  # the legal steps split the same few cards thousands of times
def _split(card: str) -> tuple[str, int]:
    match = _CARD.fullmatch(card)
    if match is None:
        return "", 0
    return match.group(1), int(match.group(2))


_CARD = re.compile(r"([a-z]+)([0-9]{1,3})")
_JOKER_AT = re.compile(r"\*\s*@\s*([a-z]+)([0-9]{1,3})")
_LINK = re.compile(r"l\s*([a-z]+)([0-9]{1,3})\s*>\s*([a-z]+)\s*(\*)?")
_EXCHANGE = re.compile(r"x\s*([a-z]+)([0-9]{1,3})")
_DISCARD = re.compile(r"discard\s*\*?")


def format_step(step: Step) -> str:
    """The text of a step: ``format_step(place("*", "b", 7)) == "*@b7"``."""
    if step.kind in ("draw", "end", "undo"):
        return step.kind
    if step.kind == "discard":
        return "discard *"
    if step.kind == "exchange":
        return f"x {step.card}"
    if step.kind == "link":
        suffix = " *" if step.card == JOKER else ""
        return f"L {step.source}{step.pos}>{step.row}{suffix}"
    if step.card == JOKER:
        return f"*@{step.row}{step.pos}"
    return str(step.card)


def parse_step(text: str, rows: Collection[str], lowest: int, highest: int) -> Step:
    """Read a step in the notation above for a table of ``rows`` (colour letters) and
    positions ``lowest`` to ``highest``, or raise :class:`NotationError`."""
    if type(text) is not str or len(text) > 200:
        raise NotationError(Reason.of("unknown_move", text=repr(text)[:40]))

    def card(row: str, value: str) -> str:
        if row not in rows or not lowest <= int(value) <= highest:
            raise NotationError(Reason.of("unknown_move", text=text[:40]))
        return f"{row}{int(value)}"

    lowered = " ".join(text.strip().split()).lower()
    if lowered in ("draw", "end", "undo"):
        return Step(lowered)
    if _DISCARD.fullmatch(lowered):
        return DISCARD
    match = _EXCHANGE.fullmatch(lowered)
    if match:
        number = card(match.group(1), match.group(2))
        return Step("exchange", number, *split_card(number))
    match = _JOKER_AT.fullmatch(lowered)
    if match:
        return Step("place", JOKER, *split_card(card(match.group(1), match.group(2))))
    match = _LINK.fullmatch(lowered)
    if match:
        card(match.group(1), match.group(2))
        number = card(match.group(3), match.group(2))
        row, pos = split_card(number)
        return Step("link", JOKER if match.group(4) else number, row, pos, match.group(1))
    match = _CARD.fullmatch(lowered)
    if match:
        return place(card(match.group(1), match.group(2)))
    raise NotationError(Reason.of("unknown_move", text=text[:40]))
