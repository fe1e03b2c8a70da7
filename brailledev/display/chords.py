"""Typing commands on the braille keyboard: letters pick the screen's commands by name.

A chord is read as a letter through the player's braille table (French tables give French
letters), and the letters typed so far pick the command of the screen whose name starts with
them: the words of the choice and command lines, in the player's language. One letter is
enough when one command starts with it; when several do, the player types on until one is
left (``d`` is ``done`` or ``draw``, ``do`` is ``done``). Nothing runs on a guess.

    typist = Typist()
    typed = typist.type("d", seat.lines())      # Ran(region), Several(...) or NoCommand(...)

Space with one dot moves like the display's keys (dot 1 line up, dot 4 line down, dot 3 pan
left, dot 6 pan right, as BRLTTY's own braille keyboard chords); space with dots 1 3 4 (m, for
message) shows the newest message and space with dots 1 3 5 (o, for origin) returns to where
the reader was (chords BRLTTY's own chords table leaves free); space alone speaks the line.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from brailledev.display.braille import Translator, dots_to_cell
from brailledev.display.keys import (
    BACK,
    NEWEST,
    Chord,
    Key,
    LineDown,
    LineUp,
    Named,
    PanLeft,
    PanRight,
)
from layouts.screen import CHOICE_LINE, COMMAND_LINE, Line, Region

# The lines whose words are commands: what is due now first, then the standing commands.
COMMAND_LINES = (CHOICE_LINE, COMMAND_LINE)
SIX_DOTS = 0x3F  # letters are dots 1-6; dots 7-8 only capitalise in 8-dot tables
SPACE_MOVES: dict[int, Key] = {
    0b000001: LineUp(),
    0b001000: LineDown(),
    0b000100: PanLeft(),
    0b100000: PanRight(),
    0b001101: Named(NEWEST),
    0b010101: Named(BACK),
}


def fold(text: str) -> str:
    """Letters only, lower case, without accents: ``fold("Écarter 2") == "ecarter"``."""
    plain = unicodedata.normalize("NFD", text.casefold())
    return "".join(char for char in plain if char.isalpha() and char.isascii())


def command_name(region: Region) -> str | None:
    """The name a region's command is typed by, or ``None`` if it is no command word:
    a routable region whose first word is letters (``uno?`` counts), two at least, so
    card labels (``r5``, ``x j7``) are never typed by mistake."""
    if region.target is None or not region.text.strip():
        return None
    first = region.text.split()[0].rstrip("?!.:,;")
    if len(first) < 2 or not first.isalpha():
        return None
    return fold(region.text)


def commands(lines: Sequence[Line]) -> list[Region]:
    """The command regions of a screen, in the order they are shown."""
    return [region for line in lines if line.key in COMMAND_LINES
            for region in line.regions if command_name(region) is not None]


def shown_once(regions: Sequence[Region]) -> tuple[str, ...]:
    """The regions' texts in order, each once (a command may be on two lines)."""
    return tuple(dict.fromkeys(region.text for region in regions))


def chord_letter(chord: Chord, braille: Translator) -> str | None:
    """The letter a chord types in ``braille``'s table (``None``: not a letter, or space).

    >>> chord_letter(Chord(0b11001), translator("en-ueb-g1.ctb"))     # dots 1 4 5
    'd'
    """
    dots = chord.dots & SIX_DOTS
    if chord.space or not dots:
        return None
    return braille.letter(dots_to_cell(dots))


@dataclass(frozen=True)
class Ran:
    """One command is left for the letters typed: the front activates ``region``."""

    region: Region
    typed: str


@dataclass(frozen=True)
class Several:
    """Several commands start with the letters typed; the next letter decides."""

    names: tuple[str, ...]
    typed: str


@dataclass(frozen=True)
class NoCommand:
    """No command starts with the letters typed (they are forgotten); ``names`` lists the
    screen's commands, so the player learns what can be typed."""

    names: tuple[str, ...]
    typed: str


Typed = Ran | Several | NoCommand


class Typist:
    """The letters typed so far towards a command; see the module docstring."""

    def __init__(self) -> None:
        self.typed = ""  # the letters typed, in lower case, accents kept

    def clear(self) -> None:
        """Forget the letters typed (any other key, space, or a command run)."""
        self.typed = ""

    def type(self, letter: str, lines: Sequence[Line]) -> Typed:
        """Add ``letter`` and say what it picks among the commands of ``lines``."""
        # Kept as typed for the messages (é stays é); matched without accents.
        typed = self.typed + letter.casefold()
        key = fold(typed)
        found = commands(lines)
        names = shown_once(found)
        fitting = [region for region in found if str(command_name(region)).startswith(key)]
        exact = [region for region in fitting if command_name(region) == key]
        if len({command_name(region) for region in fitting}) == 1 or exact:
            self.clear()
            return Ran((exact or fitting)[0], typed)
        if not fitting:
            self.clear()
            return NoCommand(names, typed)
        self.typed = typed
        return Several(shown_once(fitting), typed)
