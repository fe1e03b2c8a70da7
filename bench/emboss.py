"""Embossing: time to make the whole Uno deck, and labels per sheet against the area bound.

    .venv/bin/python bench/emboss.py [repeats]

Prints one JSON object. ``deck_seconds`` is the best of ``repeats`` runs of the whole Uno deck
(108 labels, English, UEB grade 1) as BRF, PEF and a PDF preview, from the layouts data to
bytes (files not written), with its ratio to the 1 second anchor. ``sheets`` gives for each
paper the labels placed upright (braille across the card, as on the Uno braille edition) and
with ``--rotate`` (some labels on their long side), each with its 2 mm bleed and its braille at
the same place on every label, against the area bound (sheet area / card area, which no
packing beats), with the ratio to the 90% anchor.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

# This script is named like the package it measures: find packages from the project root,
# before importing them (hence the imports below the path fix).
# ruff: noqa: E402
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from brailledev.display.braille import translator
from emboss import brf
from emboss.deck import area_bound, deck_document, deck_layout
from emboss.page import PAPERS, Geometry, paper
from emboss.pef import document_pef
from emboss.preview import pdf
from layouts.registry import kit

TIME_ANCHOR = 1.0
FILL_ANCHOR = 0.90


def whole_deck_once() -> int:
    uno = kit("uno")
    document = deck_document(uno.deck_faces("en"), Geometry(paper("a4")), uno.card_size(),
                             translator("en-ueb-g1.ctb"), "Uno card labels", "en")
    data = brf.document_bytes(document)
    data += document_pef(document, "bench", "2026-01-01")
    data += pdf(document)
    return len(data)


def sheets() -> dict[str, Any]:
    size = kit("uno").card_size()
    louis = translator("en-ueb-g1.ctb")
    faces = kit("uno").deck_faces("en")
    figures: dict[str, Any] = {}
    for name in PAPERS:
        geometry = Geometry(paper(name))
        bound = area_bound(geometry.paper, size)
        row: dict[str, Any] = {"area_bound": bound}
        for label, rotate in (("upright", False), ("rotate", True)):
            placed = len(deck_layout(faces, geometry, size, louis, rotate).slots)
            row[label] = {"placed": placed, "of_area_bound": round(placed / bound, 3),
                          "ratio_to_anchor": round(placed / bound / FILL_ANCHOR, 3)}
        figures[name] = row
    return figures


def main(repeats: int) -> dict[str, Any]:
    # Cold run first: liblouis compiles its table once per process.
    start = time.perf_counter()
    size = whole_deck_once()
    cold = time.perf_counter() - start
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        whole_deck_once()
        best = min(best, time.perf_counter() - start)
    return {
        "deck": "uno, 108 labels, A4, en-ueb-g1, BRF + PEF + PDF",
        "bytes": size,
        "cold_seconds": round(cold, 4),
        "deck_seconds": round(best, 4),
        "time_anchor_seconds": TIME_ANCHOR,
        "time_ratio_to_anchor": round(best / TIME_ANCHOR, 4),
        "sheets": sheets(),
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5), indent=1))
