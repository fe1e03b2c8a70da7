"""Line keys go the way they are pressed (issue 32, item 3), on a real BRLTTY (Virtual
driver). A tester read ``lnup lnup lnup lndn lndn lndn`` from the help line as commands,
question, hand, players, hand, question: the first key after a change of direction acted
like the one before it. The second test shows where that comes from: BRLTTY 6.5's Virtual
driver takes one line of its socket each time data arrives, so of two lines that arrive in
one write the second waits, and runs when the next key arrives, one key late. Our key loop
acts on each key BrlAPI gives it, in order."""

from __future__ import annotations

import time

from brailledev.display.braille import translator
from brailledev.programs.session import Session
from tests.brltty.harness import Fingers, VirtualBrltty


def _keys(fingers: Fingers) -> list[str]:
    return [str(laid.line.key) for laid in fingers.front.viewport.lines]


def _start(brltty: VirtualBrltty) -> Fingers:
    session = Session.start("uno", players=3, seed=4, lang="en", pace=0)
    fingers = Fingers(brltty, session, translator("en-ueb-g1.ctb"))
    fingers.thread.start()
    fingers.settle()
    return fingers


def _stop(fingers: Fingers) -> None:
    fingers.front.stop()
    fingers.thread.join(10)
    fingers.display.close()


def test_line_keys_up_then_down_visit_the_lines_in_the_order_pressed() -> None:
    with VirtualBrltty(columns=40) as brltty:
        fingers = _start(brltty)
        try:
            keys = _keys(fingers)
            fingers.go_to(keys[-1])  # the help line, at the bottom
            read = []
            for action in ["line_up"] * 3 + ["line_down"] * 3:
                fingers.press(action)
                read.append(fingers.front.viewport.line_key)
            bottom = len(keys) - 1
            assert read == [keys[bottom - 1], keys[bottom - 2], keys[bottom - 3],
                            keys[bottom - 2], keys[bottom - 1], keys[bottom]]
        finally:
            _stop(fingers)


def test_brltty_runs_the_second_of_two_lines_sent_together_one_key_late() -> None:
    with VirtualBrltty(columns=40, pump=False) as brltty:
        fingers = _start(brltty)
        try:
            keys = _keys(fingers)
            fingers.go_to(keys[-1])
            bottom = len(keys) - 1
            brltty.send_together("lnup", "lnup")  # two keys in one write
            fingers.keys += 1
            fingers.settle()
            time.sleep(1.0)  # the second line had all the time it needs: it waits still
            assert fingers.front.handled == fingers.keys
            assert fingers.front.viewport.line_key == keys[bottom - 1]
            brltty.send("lndn")  # down, but BRLTTY runs the waiting lnup: the trap
            fingers.keys += 1
            fingers.settle()
            assert fingers.front.viewport.line_key == keys[bottom - 2]
            brltty.send("")  # an empty line arrives: the waiting lndn runs at last
            fingers.keys += 1
            fingers.settle()
            assert fingers.front.viewport.line_key == keys[bottom - 1]
        finally:
            _stop(fingers)
