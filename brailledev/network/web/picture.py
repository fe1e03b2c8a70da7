"""What a web page draws: the seat's table as a sighted player expects it, built only from
the seat's view and its screen, never from the state. The game's own picture
(:mod:`layouts.picture`, in the game's folder) gives its pieces in words; this module adds
what every page shares (every player with their count and whose turn, the seat's clock) and
the braille cells of every card label, translated as ``emboss`` translates the label on the
card: letter by letter through the reader's uncontracted table.

    frame_lines(lines, "fr")      # [{"key": "hand", "regions": [{"text": "r5", ...}]}]
    picture(reader, lines)        # {"players": [...], "hand": {...}, "table": [...], ...}
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from brailledev.display.braille import label_table, table_for, translator
from brailledev.table.presence import SEAT_BOT, SEAT_FREE, TableSeat
from layouts.picture import Json
from layouts.registry import kit
from layouts.screen import Ask, Line, PlayMove, Region, Show, Ui


def braille_label(text: str, lang: str) -> str:
    """A card label's cells as embossed: ``braille_label("r5", "en") == "⠗⠼⠑"``."""
    return translator(label_table(table_for(lang))).translate(text, label=True).cells


def action(target: Hashable) -> str | None:
    """What routing a target does, as the page needs to know it: ``play`` a move, ``ask``
    (a choice on the way to a move), ``show`` a line, a session command ``ui:<name>``."""
    if target is None:
        return None
    if isinstance(target, PlayMove):
        return "play"
    if isinstance(target, Ask):
        return "ask"
    if isinstance(target, Show):
        return "show"
    if isinstance(target, Ui):
        return f"ui:{target.name}"
    return "other"


def region_json(region: Region, row: int, column: int, lang: str) -> Json:
    """One region as the page gets it: text, its target's id ("line.region") and action,
    whether it is marked, and a card label's braille."""
    found: Json = {"text": region.text, "mark": region.mark,
                   "target": f"{row}.{column}" if region.target is not None else None,
                   "action": action(region.target)}
    if region.label:
        found["braille"] = braille_label(region.text.strip("[]"), lang)
    return found


def frame_lines(lines: tuple[Line, ...], lang: str) -> list[Json]:
    """The screen's lines as the page gets them (see :func:`region_json`)."""
    return [{"key": line.key, "regions": [region_json(region, row, column, lang)
                                          for column, region in enumerate(line.regions)]}
            for row, line in enumerate(lines)]


def _with_braille(value: Any, lang: str) -> Any:
    """The picture with each card label's cells added beside it (``braille``), as embossed."""
    if isinstance(value, dict):
        found = {key: _with_braille(each, lang) for key, each in value.items()}
        if value.get("kind") == "card" and value.get("label"):
            found["braille"] = braille_label(value["label"], lang)
        return found
    if isinstance(value, list):
        return [_with_braille(each, lang) for each in value]
    return value


def picture(reader: TableSeat, lines: tuple[Line, ...]) -> Json:
    """The seat's table as the page draws it: every player (name as the seat reads it, how
    the seat is played, connected or not, how many cards and its words, whose turn), the
    seat's clock, the unit of its hand (cards or tiles), and what the game's own picture draws
    (:mod:`layouts.picture`), its card labels in braille."""
    view, catalog = reader.view(), reader.catalog
    drawing = kit(reader.game).picture
    players = []
    for seat, state in enumerate(reader.company.seats()):
        count = view.hand_sizes[seat]
        players.append({"name": reader.names[seat] if seat < len(reader.names) else "",
                        "you": seat == reader.seat,
                        "kind": state.kind, "connected": state.connected
                        if state.kind not in (SEAT_BOT, SEAT_FREE) else None,
                        "count": count,
                        "cards": catalog.count(f"web.{drawing.unit}", count, count=count),
                        "turn": view.turn == seat})
    found: Json = {"game": reader.game, "players": players, "unit": drawing.unit,
                   "clock": reader.link.time_left() if view.turn == reader.seat else None}
    found.update(_with_braille(drawing.draw(view, lines, reader.context()), catalog.lang))
    return found
