"""WCAG 2.2 AA contrast, computed from the style sheet the page ships: every text colour
on its background at least 4.5:1, card edges, focus rings and grid squares at least 3:1
on the page, each Uno colour's card face included."""

from __future__ import annotations

import re

import pytest

from brailledev.network.web.page import STATIC

COLOURS = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})",
                          (STATIC / "page.css").read_text(encoding="utf-8")))
TEXT = [("page-fg", "page-bg"), ("muted-fg", "page-bg"), ("focus", "page-bg"),
        ("alert-fg", "alert-bg"), ("page-fg", "accent-bg"), ("braille-fg", "braille-bg"),
        ("square-fg", "square-bg"),
        *[(f"uno-{colour}-fg", f"uno-{colour}-bg") for colour in "rygbw"]]
EDGES = [("edge", "page-bg"), ("focus", "page-bg"), ("edge", "alert-bg"),
         ("edge", "square-bg"), ("focus", "accent-bg")]


def luminance(colour: str) -> float:
    """Relative luminance (WCAG 2.2, sRGB)."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ratio(first: str, second: str) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_formula_matches_known_pairs():
    assert ratio("#000000", "#ffffff") == pytest.approx(21)
    assert ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize(("fg", "bg"), TEXT)
def test_text_reaches_4_5_to_1(fg, bg):
    assert ratio(COLOURS[fg], COLOURS[bg]) >= 4.5


@pytest.mark.parametrize(("fg", "bg"), EDGES)
def test_edges_and_focus_reach_3_to_1(fg, bg):
    assert ratio(COLOURS[fg], COLOURS[bg]) >= 3


def test_every_uno_card_face_has_its_colours_and_an_edge():
    css = (STATIC / "page.css").read_text(encoding="utf-8")
    for colour in "rygbw":
        assert f".card.uno-{colour} {{ background: var(--uno-{colour}-bg); " \
               f"color: var(--uno-{colour}-fg); }}" in css
    assert re.search(r"\.card \{[^}]*border: 3px solid var\(--edge\)", css)
