"""Elevens in words: card labels, steps, refusals and events in the reader's language.

The engine speaks in canonical notation (``y12``, ``L r5>y``); people read labels from
``layouts/elevens/<lang>.toml`` (``j12`` in French), the same on the display and on paper.

    cat = Catalog.load("elevens", "fr")
    card_label(cat, "y12")                          # 'j12'
    reason_text(cat, Reason.of("place_taken", row="y", pos=5))
"""

from __future__ import annotations

from collections.abc import Sequence

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
    return str(cat.table("cards")["colour_prefix"].get(row, row))


def card_label(cat: Catalog, card: str) -> str:
    """``card_label(fr, "y12") == "j12"``; ``*`` for a joker (the [cards] joker label)."""
    if card == JOKER:
        return str(cat.table("cards")["joker"])
    row, pos = split_card(card)
    return f"{row_label(cat, row)}{pos}" if row else card


def step_label(cat: Catalog, step: Step) -> str:
    """A step as the reader's notation: ``L r5>j``, ``*@j7``, ``x j7``, ``r12``."""
    joker = str(cat.table("cards")["joker"])
    screen = cat.table("screen")
    if step.kind in ("draw", "end", "undo"):
        return str(screen[step.kind])
    if step.kind == "discard":
        return str(screen["discard"])
    if step.kind == "exchange":
        return f"{screen['exchange']} {card_label(cat, step.card)}"
    target = f"{row_label(cat, step.row)}{step.pos}"
    if step.kind == "link":
        suffix = f" {joker}" if step.card == JOKER else ""
        link = cat.table("cards")["link"]
        return f"{link} {row_label(cat, step.source)}{step.pos}>{row_label(cat, step.row)}{suffix}"
    return f"{joker}@{target}" if step.card == JOKER else card_label(cat, step.card)


def reason_text(cat: Catalog, reason: Reason) -> str:
    """A refusal in words, its cards and rows as labels of ``cat``'s language."""
    args = dict(reason.params)
    for key in ("row", "source"):
        if key in args:
            args[key] = row_label(cat, str(args[key]))
    if "card" in args:
        args["card"] = card_label(cat, str(args["card"]))
    return cat.text(reason.code, **args)


def player_name(cat: Catalog, seat: Seat, me: Seat | None) -> str:
    names = cat.table("names")
    return str(names["you"]) if seat == me else str(names["seat"]).format(seat=seat + 1)


def event_text(cat: Catalog, event: Event, me: Seat | None = None,
               names: Sequence[str] | None = None) -> str | None:
    """One sentence for an event as ``me`` may learn it (filter with ``events_for`` first),
    or ``None`` for events not worth saying; ``names`` replaces "player N"."""

    def who(seat: Seat) -> str:
        return names[seat] if names is not None else player_name(cat, seat, me)

    if isinstance(event, Placed):
        card = card_label(cat, event.card) if event.card != JOKER else (
            f"{card_label(cat, JOKER)}@{row_label(cat, event.row)}{event.pos}")
        if event.source:
            source = f"{row_label(cat, event.source)}{event.pos}"
            return cat.text("linked", player=who(event.seat), source=source, card=card)
        return cat.text("placed", player=who(event.seat), card=card)
    if isinstance(event, Exchanged):
        card = f"{row_label(cat, event.row)}{event.pos}"
        return cat.text("exchanged", player=who(event.seat), card=card)
    if isinstance(event, Discarded):
        return cat.text("discarded", player=who(event.seat))
    if isinstance(event, Drew):
        if event.card is not None and event.seat == me:
            return cat.text("drew_own", card=card_label(cat, event.card))
        return cat.text("drew", player=who(event.seat))
    if isinstance(event, BonusTaken):
        names_table = cat.table("names")
        return cat.text("bonus", player=who(event.seat),
                        colour=names_table["colours"][event.row],
                        half=names_table["halves"][event.half])
    if isinstance(event, Undone):
        return cat.text("undone", player=who(event.seat), step=step_label(cat, event.step))
    if isinstance(event, TurnEnded):
        if event.passed:
            return cat.text("passed", player=who(event.seat))
        return None
    if isinstance(event, GameOver):
        scores = ", ".join(f"{who(seat)} {points}" for seat, points in enumerate(event.scores))
        winners = ", ".join(who(seat) for seat in event.winners)
        return cat.text("result", scores=scores, winners=winners)
    return None
