"""Panning reads whole words on a real BRLTTY (Virtual driver), issues 32.4 and 37.8: on a
display of 12 and 14 cells, in French (uncontracted) and English (contracted), every window
of the status line and of the news back-translates to words of the line, never to a piece
of one ("7 car" / "ds", "tr" / "ou"); only a word longer than a window is read in pieces."""

from __future__ import annotations

import pytest

from brailledev.display.braille import translator
from brailledev.display.window import MARKER_CELLS
from brailledev.programs.session import Session
from layouts.screen import MESSAGE_LINE, STATUS_LINE
from tests.brltty.harness import Fingers, fingers_on


@pytest.mark.parametrize(("lang", "table", "columns"), [("fr", "fr-bfu-comp6.utb", 12),
                                                        ("en", "en-ueb-g2.ctb", 14)])
def test_every_window_of_the_status_and_the_news_holds_whole_words(tmp_path, lang, table,
                                                                   columns):
    session = Session.start("uno", players=3, seed=4, lang=lang, pace=0)
    braille = translator(table)
    with fingers_on(session, braille, Fingers, columns=columns) as fingers:
        for key in (MESSAGE_LINE, STATUS_LINE):
            fingers.go_to(key)
            while fingers.front.viewport.window > 0:
                fingers.press("pan_left")
            line = next(line for line in session.seat.lines() if line.key == key)
            allowed = set(line.text.split())
            too_long = [word for word in allowed
                        if len(braille.translate(word).cells) > columns - 2 * MARKER_CELLS]
            windows = 0
            while fingers.front.viewport.line_key == key and windows < 60:
                read = [word for _, word in fingers.words()]
                pieces = [word for word in read if word not in allowed]
                assert read and all(any(piece in word for word in too_long)
                                    for piece in pieces), (read, line.text)
                windows += 1
                fingers.press("pan_right")
            assert windows > 2
