"""The terminal display driven through a real pseudo-terminal, and the memory display."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pexpect

from brailledev.display import open_display
from brailledev.display.braille import translator
from brailledev.display.keys import LineDown, Named, PanRight, Route
from brailledev.display.memory import MemoryDisplay

ROOT = Path(__file__).resolve().parents[2]
# A tiny game: a status line and a hand; routing a card "plays" it into the status line.
CHILD = textwrap.dedent("""
    from brailledev.display.braille import translator
    from brailledev.display.terminal import TerminalDisplay
    from brailledev.display.keys import Named
    from brailledev.display.window import Viewport
    from layouts.screen import Line, Region, Screen

    display = TerminalDisplay(columns=20)
    viewport = Viewport(translator("en-ueb-g1.ctb"), 20)
    hand = Line("hand", tuple(Region(label, target=label)
                              for label in "r5 r+2 b7 g9 wi+4 y0 ysk".split()))
    played = "none"
    while True:
        viewport.show(Screen((Line("status", (Region("played " + played),)), hand)))
        display.write(viewport.rows(), text=viewport.texts())
        key = display.read_key()
        if key == Named("quit"):
            break
        if key == Named("help"):
            played = "help"
        hit = viewport.handle(key)
        if hit is not None:
            played = str(hit.target)
    display.close()
    print("bye")
""")


def spawn() -> pexpect.spawn:
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm")
    return pexpect.spawn(sys.executable, ["-c", CHILD], env=env, encoding="utf-8",
                         timeout=10, dimensions=(24, 80))


def test_terminal_shows_braille_with_print_and_routes_per_cell() -> None:
    child = spawn()
    cells = translator("en-ueb-g1.ctb").translate("played none").cells
    child.expect_exact(cells)
    child.expect_exact("played none")
    child.expect_exact("^")
    child.send("\x1b[B")  # Down: the hand line
    child.expect_exact("r5  r+2")
    child.send("5\r")  # cell 5 (counted from 1) is the first cell of r+2
    child.send("\x1b[A")  # Up: the status line shows what was played
    child.expect_exact("played r+2")
    child.send("\x1b[B")
    child.expect_exact("r5  r+2")
    child.send("\r")  # the caret stayed on cell 5
    child.send("\x1b[A")
    child.expect_exact("played r+2")
    child.send("q")
    child.expect_exact("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_terminal_caret_panning_help_and_keys_list() -> None:
    child = spawn()
    child.expect_exact("played none")
    child.send("\x1b[B")
    child.expect_exact("r5  r+2")
    child.send("\x1b[C" * 10)  # Right x10: caret on cell 11, the first cell of b7
    child.expect_exact("cell 11")
    child.send(" ")
    child.send("\x1b[A")
    child.expect_exact("played b7")
    child.send("\x1b[B]")  # Down, then pan right
    child.expect_exact("< wi+4")
    child.send("3\r")  # the marker, a blank, then wi+4 from the third cell
    child.send("[\x1b[A")
    child.expect_exact("played wi+4")
    child.send("?")
    child.expect_exact("number Enter: routing key at that cell")
    child.send("?h")
    child.expect_exact("played help")
    child.send("\x1b[Z")  # an escape sequence we do not use changes nothing
    child.send("99\r")  # no such cell: nothing happens
    child.send("q")
    child.expect_exact("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_memory_display_records_writes_and_queues_keys() -> None:
    display = open_display("memory", columns=12, rows=2)
    assert isinstance(display, MemoryDisplay)
    assert display.shown == ["\u2800" * 12] * 2
    display.write(["⠁⠃"], cursor=1, text=["ab"])
    assert display.shown == ["⠁⠃" + "\u2800" * 10, "\u2800" * 12]
    assert display.writes[-1].cursor == 1 and display.writes[-1].text == ("ab",)
    display.press(Route(3), PanRight(), LineDown(), Named("help"))
    assert [display.read_key(0) for _ in range(5)] == [
        Route(3), PanRight(), LineDown(), Named("help"), None]
    assert display.read_key(0.05) is None
    display.close()
    assert display.closed


def test_terminal_shows_dots_7_and_8_of_a_marked_region() -> None:
    child_code = textwrap.dedent("""
        from brailledev.display.braille import translator
        from brailledev.display.terminal import TerminalDisplay
        from brailledev.display.window import Viewport
        from layouts.screen import Line, Region, Screen

        display = TerminalDisplay(columns=20)
        viewport = Viewport(translator("en-ueb-g1.ctb"), 20)
        viewport.show(Screen((Line("set_1", (Region("1", mark=True),
                                             Region("k4", mark=True), Region("r5"))),)))
        display.write(viewport.rows(), text=viewport.texts())
        display.read_key()
        display.close()
        print("bye")
    """)
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm")
    child = pexpect.spawn(sys.executable, ["-c", child_code], env=env, encoding="utf-8",
                          timeout=10, dimensions=(24, 80))
    child.expect_exact("⣼⣁⠀⣅⣼⣙⠀⠗⠼⠑")  # number sign 1 and k4 marked, r5 not
    child.send("q")
    child.expect_exact("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_terminal_leaves_the_cursor_below_the_game_when_it_closes() -> None:
    child = spawn()
    try:
        child.expect("played none")
        child.send("q")
        child.expect("bye")
        # One braille row: cells, print, caret and status lines; the cursor goes to line 5.
        assert "\x1b[5;1H\r" in child.before  # the pty adds its own \r before \n
        child.expect(pexpect.EOF)
    finally:
        child.terminate(force=True)


def test_the_terminal_speaks_the_players_language() -> None:
    import io

    from brailledev.display.terminal import TerminalDisplay

    read, write = os.pipe()
    with os.fdopen(read) as stdin:
        out = io.StringIO()
        display = TerminalDisplay(columns=12, stdin=stdin, stdout=out, lang="fr")
        display.write(["⠁"])
        assert "cellule 1" in out.getvalue() and "? : touches" in out.getvalue()
        os.write(write, b"?")
        assert display.read_key(0.2) is None  # the list of keys, in French
        assert "m : dernier message" in out.getvalue()
        os.write(write, b"m")
        assert display.read_key(0.2) == Named("newest")
        os.close(write)
        display.close()
