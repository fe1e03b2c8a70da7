"""Braille translation with liblouis, and every cell encoding in one place.

A ``Translator`` turns print text into Unicode braille cells and keeps liblouis's position
maps, so that every cell maps back to the character it came from (and so to a region and a
target on screen); ``back`` back-translates cells to print for checks. A card label is never
contracted, whatever the reader's table: ``translate(text, label=True)`` writes it letter by
letter, through the uncontracted table a contracted one is built on, so the display shows the
same cells as the embossed card.

    >>> braille = translator("en-ueb-g1.ctb").translate("r+2")
    >>> braille.cells, braille.to_text
    ('⠗⠐⠖⠼⠃', (0, 1, 1, 2, 2))
    >>> cells_to_ascii(braille.cells)
    'R"6#B'
    >>> translator("fr-bfu-g2.ctb").translate("binv", label=True).cells
    '⠃⠊⠝⠧'

Encodings: a *dots* bitmask (bit n-1 = dot n, dots 1-8), a Unicode braille *cell*
(U+2800 + dots), North American braille ASCII (BRF, dots 1-6 only, through liblouis's own
``en-us-brf.dis`` display table), and dot numbers as the Virtual driver writes them (``"125"``).
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass

import louis

from layouts.errors import UnknownBrailleTable, UserError

BLANK = "\u2800"
_BRAILLE_BASE = 0x2800
# The display table liblouis ships for North American braille ASCII (BRF).
BRF_DISPLAY_TABLE = "en-us-brf.dis"
# dotsIO|ucBrl: cells come out as Unicode braille, whatever the table's display mapping is.
_MODE = louis.dotsIO | louis.ucBrl
# liblouis is not thread-safe: a table server and a display's key loop in one process (the
# web seat's tests) crashed in it at once; every call holds this lock.
_LOUIS = threading.RLock()
# A label: no contraction, even through a table that has some.
_LABEL_MODE = _MODE | louis.noContractions


@dataclass(frozen=True)
class BrailleTable:
    """A liblouis table offered to players: file name, language, contracted or not, and for a
    contracted table the uncontracted one it is built on (its labels' table); what it is, in
    words, is ``common|output.tables.names.<name>`` of the catalogs."""

    name: str
    lang: str
    contracted: bool
    uncontracted: str | None = None


TABLES: tuple[BrailleTable, ...] = (
    BrailleTable("fr-bfu-comp6.utb", "fr", False),
    BrailleTable("fr-bfu-comp8.utb", "fr", False),
    BrailleTable("fr-bfu-g2.ctb", "fr", True, "fr-bfu-comp6.utb"),
    BrailleTable("en-ueb-g1.ctb", "en", False),
    BrailleTable("en-ueb-g2.ctb", "en", True, "en-ueb-g1.ctb"),
    BrailleTable("en-us-comp6.ctb", "en", False),
    BrailleTable("en-us-comp8.ctb", "en", False),
    BrailleTable("en-us-g2.ctb", "en", True, "en-us-g1.ctb"),
    BrailleTable("de-g0.utb", "de", False),
    BrailleTable("de-g1.ctb", "de", True, "de-g0.utb"),
    BrailleTable("de-g2.ctb", "de", True, "de-g0.utb"),
    BrailleTable("de-de-comp8.ctb", "de", False),
)

# German: Basisschrift, which every German reader learns first and reads unambiguously on a
# display, as the embossed labels are written (README, "Deutsch"); Kurzschrift on request.
DEFAULT_TABLES: dict[str, str] = {"fr": "fr-bfu-comp6.utb", "en": "en-ueb-g1.ctb",
                                  "de": "de-g0.utb"}
CONTRACTED_TABLES: dict[str, str] = {"fr": "fr-bfu-g2.ctb", "en": "en-ueb-g2.ctb",
                                     "de": "de-g2.ctb"}


def available_tables() -> tuple[BrailleTable, ...]:
    """The tables offered to players, defaults first for each language.

    >>> available_tables()[0].name
    'fr-bfu-comp6.utb'
    """
    return TABLES


def label_table(table: str) -> str:
    """The table a label is written with when the reader reads ``table``: the uncontracted
    table a contracted one is built on (its grade 1 indicators mean nothing on a card), else
    ``table`` itself: ``label_table("fr-bfu-g2.ctb") == "fr-bfu-comp6.utb"``."""
    for known in TABLES:
        if known.name == table and known.uncontracted is not None:
            return known.uncontracted
    return table


def table_for(lang: str, contracted: bool = False) -> str:
    """The default table of a language: ``table_for("fr") == "fr-bfu-comp6.utb"``."""
    choices = CONTRACTED_TABLES if contracted else DEFAULT_TABLES
    try:
        return choices[lang]
    except KeyError:
        raise UserError("no_table_for_lang", lang=lang,
                        choices=", ".join(sorted(choices))) from None


def _uncontracted(name: str) -> bool:
    return any(known.name == name and not known.contracted for known in TABLES)


@functools.cache
def check_table(name: str) -> str:
    """``name`` if liblouis can compile it (any installed table), else ``UnknownBrailleTable``.

    >>> check_table("en-ueb-g2.ctb")
    'en-ueb-g2.ctb'
    """
    # liblouis would print its own compile errors on stderr; our one sentence is enough.
    try:
        with _LOUIS:
            louis.setLogLevel(louis.LOG_OFF)
            louis.checkTable([name])
    except RuntimeError:
        known = ", ".join(table.name for table in TABLES)
        raise UnknownBrailleTable("table_unknown", name=name, choices=known) from None
    return name


@dataclass(frozen=True)
class Braille:
    """Cells translated from a text, with the maps between them.

    ``to_text[i]`` is the index of the character cell ``i`` comes from; ``to_cells[j]`` the
    index of the first cell of character ``j``. Both have the lengths of what they index.
    """

    text: str
    cells: str
    to_text: tuple[int, ...]
    to_cells: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.cells)


class Translator:
    """One liblouis table, ready to translate: ``Translator("fr-bfu-comp6.utb")``."""

    def __init__(self, table: str) -> None:
        self.table = check_table(table)
        self._tables = [self.table]

    def __repr__(self) -> str:
        return f"Translator({self.table!r})"

    def translate(self, text: str, label: bool = False) -> Braille:
        """Cells for ``text`` with both position maps; a ``label`` (a card's) letter by
        letter, never contracted (see :func:`label_table`).

        >>> Translator("fr-bfu-comp6.utb").translate("r5").cells
        '⠗⠠⠱'
        """
        if label:
            table = check_table(label_table(self.table))
            # Ours uncontracted write a label as it is; noContractions would cut a sign short
            # there (de-g0's asterisk loses its dot 6).
            return _translate(table, text, _MODE if _uncontracted(table) else _LABEL_MODE)
        return _translate(self.table, text, _MODE)

    def back(self, cells: str) -> str:
        """Print text back-translated from Unicode braille ``cells`` (for checks).

        >>> Translator("en-ueb-g1.ctb").back("⠗⠐⠖⠼⠃")
        'r+2'
        """
        if not cells:
            return ""
        with _LOUIS:
            result: str = louis.backTranslateString(self._tables, cells, mode=louis.ucBrl)
        return result

    def letter(self, cell: str) -> str | None:
        """The letter one cell types in this table, or ``None`` if it is no letter.

        The cell's back-translation when that is one letter; a contracted table reads a
        lone letter cell as a whole word, so then the letter its display mapping gives.

        >>> Translator("en-ueb-g2.ctb").letter("⠭"), Translator("fr-bfu-comp6.utb").letter("⠿")
        ('x', 'é')
        """
        with _LOUIS:
            shown = louis.dotsToChar(self._tables, cell)
        for text in (self.back(cell), shown):
            if len(text) == 1 and text.isalpha():
                return text
        return None


@functools.lru_cache(maxsize=64)
def translator(table: str) -> Translator:
    """A shared ``Translator`` per table (liblouis compiles each table once anyway)."""
    return Translator(table)


@functools.lru_cache(maxsize=4096)
def _translate(table: str, text: str, mode: int) -> Braille:
    # Card labels repeat on every redraw: caching the translation keeps redraws cheap.
    if not text:
        return Braille(text, "", (), ())
    with _LOUIS:
        cells, to_text, to_cells, _cursor = louis.translate([table], text, mode=mode)
    return Braille(text, cells, tuple(to_text[:len(cells)]), tuple(to_cells[:len(text)]))


def dots_to_cell(dots: int) -> str:
    """The Unicode braille cell of a dots bitmask: ``dots_to_cell(0b101) == "⠅"``."""
    if not 0 <= dots <= 0xFF:
        raise ValueError(f"dots bitmask out of range 0-255: {dots}")
    return chr(_BRAILLE_BASE + dots)


def cell_to_dots(cell: str) -> int:
    """The dots bitmask of a Unicode braille cell: ``cell_to_dots("⠅") == 0b101``."""
    code = ord(cell) - _BRAILLE_BASE
    if len(cell) != 1 or not 0 <= code <= 0xFF:
        raise ValueError(f"not a Unicode braille cell: {cell!r}")
    return code


def numbers_to_dots(numbers: str) -> int:
    """Dot numbers to a bitmask: ``numbers_to_dots("125") == 0b10011``; ``""`` is blank."""
    dots = 0
    for digit in numbers:
        if digit not in "12345678":
            raise ValueError(f"not a dot number 1-8: {digit!r} in {numbers!r}")
        dots |= 1 << (int(digit) - 1)
    return dots


def dots_to_numbers(dots: int) -> str:
    """A bitmask as dot numbers: ``dots_to_numbers(0b10011) == "125"``; blank is ``""``."""
    return "".join(str(dot) for dot in range(1, 9) if dots & (1 << (dot - 1)))


def cells_to_ascii(cells: str) -> str:
    """Six-dot Unicode braille as North American braille ASCII (BRF).

    >>> cells_to_ascii("⠗⠐⠖⠼⠃")
    'R"6#B'
    """
    for cell in cells:
        if cell_to_dots(cell) > 0x3F:
            raise ValueError(f"cell {cell!r} has dots 7-8, which braille ASCII cannot hold")
    if not cells:
        return ""
    with _LOUIS:
        result: str = louis.dotsToChar([BRF_DISPLAY_TABLE], cells)
    return result


def ascii_to_cells(text: str) -> str:
    """North American braille ASCII (BRF) as Unicode braille; lower case reads as upper.

    >>> ascii_to_cells('R"6#B')
    '⠗⠐⠖⠼⠃'
    """
    upper = text.upper()
    for char in upper:
        if not " " <= char <= "_":
            raise ValueError(f"character {char!r} is not braille ASCII (0x20-0x5F)")
    if not upper:
        return ""
    with _LOUIS:
        result: str = louis.charToDots([BRF_DISPLAY_TABLE], upper, mode=louis.ucBrl)
    return result
