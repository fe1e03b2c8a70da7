"""Elevens in words: card labels, steps, refusals and events in the reader's language.

The engine speaks in canonical notation (``y12``, ``L r5>y``); people read labels from
``layouts/elevens/<lang>.toml`` (``j12`` in French), the same on the display and on paper.

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


def step_label(cat: Catalog, step: Step) -> str:
    """A step as the reader's notation: ``li r5>j``, ``*@j7``, ``x j7``, ``r12``."""
    joker = label(JOKER, cat)
    screen = cat.section("screen")
    if step.kind in ("draw", "end", "undo"):
        return str(screen[step.kind])
    if step.kind == "discard":
        return str(screen["discard"])
    if step.kind == "exchange":
        return f"{screen['exchange']} {label(step.card, cat)}"
    target = f"{row_label(cat, step.row)}{step.pos}"
    if step.kind == "link":
        suffix = f" {joker}" if step.card == JOKER else ""
        link = label(LINK_CARD, cat)
        return f"{link} {row_label(cat, step.source)}{step.pos}>{row_label(cat, step.row)}{suffix}"
    return f"{joker}@{target}" if step.card == JOKER else label(step.card, cat)


def reason_text(cat: Catalog, reason: Reason) -> str:
    """A refusal in words, its cards and rows as labels of ``cat``'s language."""
    args = dict(reason.params)
    for key in ("row", "source"):
        if key in args:
            args[key] = row_label(cat, str(args[key]))
    if "card" in args:
        args["card"] = label(str(args["card"]), cat)
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
        card = label(event.card, cat) if event.card != JOKER else (
            f"{label(JOKER, cat)}@{row_label(cat, event.row)}{event.pos}")
        if event.source:
            source = f"{row_label(cat, event.source)}{event.pos}"
            return say("linked", event.seat, source=source, card=card)
        return say("placed", event.seat, card=card)
    if isinstance(event, Exchanged):
        return say("exchanged", event.seat, card=f"{row_label(cat, event.row)}{event.pos}")
    if isinstance(event, Discarded):
        return say("discarded", event.seat)
    if isinstance(event, Drew):
        return say("drew", event.seat, card=label(event.cards[0] if event.cards else "", cat))
    if isinstance(event, BonusTaken):
        words = cat.section("names")
        return say("bonus", event.seat, colour=words["colours"][event.row],
                   half=words["halves"][event.half])
    if isinstance(event, Undone):
        return say("undone", event.seat, step=step_label(cat, event.step))
    if isinstance(event, TurnEnded):
        return say("passed", event.seat) if event.passed else None
    if isinstance(event, GameOver):
        def name(seat: Seat) -> str:
            if names is not None:
                return names[seat]
            if seat == me:
                return str(cat.section("names")["you"])
            return str(cat.section("names")["seat"]).format(seat=seat + 1)

        scores = ", ".join(f"{name(seat)} {points}" for seat, points in enumerate(event.scores))
        return cat.text("result", scores=scores,
                        winners=", ".join(name(seat) for seat in event.winners))
    return None
