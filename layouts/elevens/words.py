"""Elevens in words: card labels, steps, refusals and events in the reader's language.

The engine speaks in canonical notation (``y12``, ``*@b7``, ``L r5>y``); people read labels
from ``layouts/elevens/<lang>.toml`` (``j12`` in French), the same on the display and on
paper, and steps in words (``the joker on b7``, ``y5 by link from r5``): notation is for
typing only.

    cat = Catalog.load("elevens", "fr")
    label("y12", cat)                               # 'j12'
    reason_text(cat, Reason.of("place_taken", row="y", pos=5))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import Event, Reason, Seat
from games.elevens.engine import (
    JOKER,
    BonusTaken,
    Discarded,
    Drew,
    Exchanged,
    GameOver,
    Placed,
    Step,
    TurnEnded,
    Undone,
    split_card,
)
from layouts.catalog import Catalog
from layouts.paper import caption_words


def row_label(cat: Catalog, row: str) -> str:
    """The colour letter of a row in ``cat``'s language: ``row_label(fr, "y") == "j"``."""
    return str(cat.section("cards")["colour_prefix"].get(row, row))


# The cards of the box the engine has no notation for: a --cards list writes them so.
LINK_CARD = "L"
BONUS_CARD = "bonus"
# The [cards] label of each card that is not a number card.
_SPECIAL = {JOKER: "joker", LINK_CARD: "link", BONUS_CARD: "bonus"}


def label(card: str, catalog: Catalog) -> str:
    """The label of a card, the same on the display and on paper: its row's colour letter and
    value (``label("y12", fr) == "j12"``), ``*`` for a joker, ``li`` for a link card, ``11``
    for a bonus card (the ``[cards]`` words)."""
    if card in _SPECIAL:
        return str(catalog.section("cards")[_SPECIAL[card]])
    row, pos = split_card(card)
    return f"{row_label(catalog, row)}{pos}" if row else card


def print_name(card: str, catalog: Catalog) -> str:
    """A card named as the box prints it: ``print_name("y12", Catalog.load("elevens",
    "fr")) == "jaune 12"``, ``"carte liaison"`` for a link card."""
    words = caption_words("elevens", catalog.lang)
    if card in _SPECIAL:
        return words[_SPECIAL[card]]
    row, pos = split_card(card)
    if not row:
        return card
    return words["number"].format(colour=catalog.section("names")["colours"][row], value=pos)


def name(card: str, catalog: Catalog) -> str:
    """A card as a sentence names it: its label, or its print name for a catalog
    :meth:`Catalog.in_print` (a web page's): ``name("y11", catalog)``."""
    return print_name(card, catalog) if catalog.print_names else label(card, catalog)


def row_words(cat: Catalog, row: str) -> str:
    """A row as a sentence names it: its colour letter (``j`` in French), on a web page its
    colour (``jaune``): ``row_words(cat, "y")``."""
    if cat.print_names:
        return str(cat.section("names")["colours"].get(row, row))
    return row_label(cat, row)


def place_words(cat: Catalog, row: str, pos: int) -> str:
    """A place of the table as a sentence names it: as the card that belongs there
    (:func:`name`): ``y7``, on a web page ``yellow 7``: ``place_words(cat, "y", 7)``."""
    return name(f"{row}{pos}", cat) if cat.print_names else place_name(cat, row, pos)


def place_name(cat: Catalog, row: str, pos: int) -> str:
    """A place of the table, as its row's colour letter and position (what the card that
    belongs there is labelled): ``place_name(fr, "y", 7) == "j7"``."""
    return f"{row_label(cat, row)}{pos}"


def step_words(cat: Catalog, step: Step) -> str:
    """A step in words, the card and its place named as sentences name them (:func:`name`),
    for the turn line and the messages: ``r12``, ``the joker on b7``, ``y5 by link from
    g5``, ``r12 for the joker on r12``:
    ``step_words(en, place("*", "b", 7)) == "the joker on b7"``."""
    screen = cat.section("screen")
    if step.kind in ("draw", "end", "undo"):
        return str(screen[step.kind])
    if step.kind == "discard":
        return str(screen["step_discard"])
    place = place_words(cat, step.row, step.pos)
    if step.kind == "exchange":
        return str(screen["step_exchange"]).format(card=name(step.card, cat), place=place)
    card = str(screen["step_joker"]).format(place=place) if step.card == JOKER \
        else name(step.card, cat)
    if step.kind == "link":
        source = place_words(cat, step.source, step.pos)
        return str(screen["step_link"]).format(card=card, source=source)
    return card


def choice_words(cat: Catalog, step: Step) -> str:
    """Where a step puts the card the choice line is about (the line names the card first),
    in words: ``b7``, ``by link from y12`` (a joker's: ``r12 by link from y12``), ``for the
    joker on r12``, ``discard joker``:
    ``choice_words(en, Step("link", "r12", "r", 12, "y")) == "by link from y12"``."""
    screen = cat.section("screen")
    if step.kind == "discard":
        return str(screen["discard"])
    place = place_name(cat, step.row, step.pos)
    if step.kind == "exchange":
        return str(screen["for_joker"]).format(place=place)
    if step.kind == "link":
        source = place_name(cat, step.source, step.pos)
        if step.card == JOKER:
            return str(screen["step_link"]).format(card=place, source=source)
        return str(screen["by_link"]).format(source=source)
    return place


def reason_text(cat: Catalog, reason: Reason) -> str:
    """A refusal in words, its cards and rows named in ``cat``'s language (:func:`name`): a
    place as its row's letter and number (``y7``), on a web page the place whole in
    ``row`` (``yellow 7``) and rows by their colours."""
    args = dict(reason.params)
    whole = cat.print_names and "row" in args and "pos" in args
    if whole:
        args["row"], args["pos"] = place_words(cat, str(args["row"]), int(args["pos"])), ""
    for key in ("source",) if whole else ("row", "source"):
        if key in args:
            args[key] = row_words(cat, str(args[key]))
    if "card" in args:
        args["card"] = name(str(args["card"]), cat)
    return cat.text(reason.code, **args)


def event_text(cat: Catalog, event: Event, me: Seat | None = None,
               names: Sequence[str] | None = None) -> str | None:
    """One sentence for an event as ``me`` may learn it (filter with ``events_for`` first),
    or ``None`` for events not worth saying. The seat ``me`` is addressed as "you" (the
    ``*_you`` messages); ``names`` names the others (default "player N")."""

    def say(code: str, seat: Seat, **args: Any) -> str:
        if seat == me:
            return cat.text(f"{code}_you", **args)
        player = names[seat] if names is not None else str(
            cat.section("names")["seat"]).format(seat=seat + 1)
        return cat.text(code, player=player, **args)

    if isinstance(event, Placed):
        joker = "_joker" if event.card == JOKER else ""
        place = place_words(cat, event.row, event.pos)
        if event.source:
            return say(f"linked{joker}", event.seat, card=name(event.card, cat), place=place,
                       source=place_words(cat, event.source, event.pos))
        return say(f"placed{joker}", event.seat, card=name(event.card, cat), place=place)
    if isinstance(event, Exchanged):
        return say("exchanged", event.seat, card=place_words(cat, event.row, event.pos))
    if isinstance(event, Discarded):
        return say("discarded", event.seat)
    if isinstance(event, Drew):
        card = event.cards[0] if event.cards else ""
        if card == JOKER:
            return say("drew_joker", event.seat)
        return say("drew", event.seat, card=name(card, cat))
    if isinstance(event, BonusTaken):
        words = cat.section("names")
        return say("bonus", event.seat, colour=words["colours"][event.row],
                   half=words["halves"][event.half])
    if isinstance(event, Undone):
        return say("undone", event.seat, step=step_words(cat, event.step))
    if isinstance(event, TurnEnded):
        return say("passed", event.seat) if event.passed else None
    if isinstance(event, GameOver):
        def called(seat: Seat) -> str:
            if names is not None:
                return names[seat]
            if seat == me:
                return str(cat.section("names")["you"])
            return str(cat.section("names")["seat"]).format(seat=seat + 1)

        scores = ", ".join(f"{called(seat)} {points}"
                           for seat, points in enumerate(event.scores))
        return cat.text("result", scores=scores,
                        winners=", ".join(called(seat) for seat in event.winners))
    return None
