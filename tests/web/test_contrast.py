"""WCAG 2.2 AA contrast, computed from the style sheet the page ships: every text colour
on its background at least 4.5:1, card edges, focus rings and grid squares at least 3:1
on the page, each card colour (tone) a game's picture may give included."""

from __future__ import annotations

import re

import pytest

from brailledev.network.web.page import STATIC, game_style
from layouts.registry import GAMES, kit

# The page's style sheet and every game's own (its tiles' colours).
CSS = "\n".join([(STATIC / "page.css").read_text(encoding="utf-8"),
                  *(found for game in GAMES if (found := game_style(game)) is not None)])
COLOURS = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", CSS))
# The card colours the page styles (--tone-NAME-bg), and those the games' pictures give.
TONES = sorted(set(re.findall(r"--tone-([\w-]+)-bg:", CSS)))
GIVEN = {tone for game in GAMES for tone in kit(game).picture.tones}
TEXT = [("page-fg", "page-bg"), ("muted-fg", "page-bg"), ("focus", "page-bg"),
        ("alert-fg", "alert-bg"), ("page-fg", "accent-bg"), ("braille-fg", "braille-bg"),
        ("square-fg", "square-bg"), *[(f"tone-{tone}-fg", f"tone-{tone}-bg") for tone in TONES]]
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


def test_every_card_colour_a_picture_gives_has_its_colours_and_an_edge():
    assert {"red", "yellow", "green", "blue", "black"} <= GIVEN  # Uno's faces at least
    assert set(TONES) >= GIVEN, sorted(GIVEN - set(TONES))
    for tone in TONES:
        assert f".card.tone-{tone} {{ background: var(--tone-{tone}-bg); " \
               f"color: var(--tone-{tone}-fg); }}" in CSS
    assert re.search(r"\.card \{[^}]*border: 3px solid var\(--edge\)", CSS)
