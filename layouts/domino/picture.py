"""Domino 10-11-12 on a web page: the hand's cards with their two halves (the one chosen for
the places line marked), and the grid as the round names it, each empty square a button
where the screen's grid line has a place for it.

    PICTURE.draw(view, lines, catalog)    # {"cards": {...}, "grid": {"columns": [...], ...}}
"""

from __future__ import annotations

from typing import Any

from games.domino.engine import DominoView
from games.domino.grid import bounds, card_text
from games.domino.notation import anchor_of, column_of, row_of, square_name
from layouts.catalog import Catalog
from layouts.domino.paper import face
from layouts.domino.screen import COLUMNS_LINE, PLACES_LINE, grid_key
from layouts.picture import Json, Picture, card_face, rows_keyed
from layouts.screen import HAND_LINE, Line


class DominoPicture(Picture):
    """The :class:`layouts.picture.Picture` of Domino 10-11-12."""

    def draw(self, view: DominoView, lines: tuple[Line, ...], catalog: Catalog) -> Json:
        cards: dict[str, Any] = {}
        for row, line in rows_keyed(lines, HAND_LINE):
            for column, card in enumerate(sorted(view.hand, reverse=True)):
                if column < len(line.regions):
                    found = card_face(face(card_text(card), catalog))
                    found["halves"] = list(card)
                    found["chosen"] = line.regions[column].text.startswith("[")
                    cards[f"{row}.{column}"] = found
        # Squares carry the round's fixed names, as on the display and in the messages.
        anchor = anchor_of(view.table)
        x0, y0, x1, y1 = bounds(view.grid)
        rows, covers = [], [COLUMNS_LINE]
        for y in range(y0, y1 + 1):
            number = row_of(anchor, y)
            covers.append(grid_key(number))
            where = next((row for row, _ in rows_keyed(lines, grid_key(number))), None)
            squares = []
            for x in range(x0, x1 + 1):
                pips = view.grid.get((x, y))
                target = f"{where}.{x - x0 + 1}" if where is not None and pips is None else None
                squares.append({"pips": pips, "target": target,
                                "name": square_name(anchor, (x, y))})
            rows.append({"number": str(number), "squares": squares})
        return {"cards": cards, "grid": {"columns": [column_of(anchor, x)
                                                     for x in range(x0, x1 + 1)], "rows": rows},
                "covers": covers, "long_lines": [PLACES_LINE]}


PICTURE = DominoPicture()
