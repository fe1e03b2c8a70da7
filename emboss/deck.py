"""Card labels at the real card size, packed onto sheets, with cut marks and ink captions.

A game offers its deck with :func:`register_deck`: a function listing the whole deck in the
game's notation (from ``layouts/<game>/rules.toml``) and a *face* function giving the lines
embossed on one card and its ink caption (from ``layouts/<game>/<lang>.toml``). The card size
and the explanation of the notation are in ``layouts/<game>/deck.toml``.

    faces = deck_faces("uno", "en", cards="r7,r7,b+2,wi")
    document = deck_document(faces, Geometry(paper("a4")), CardSize(56, 87), translator(...))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from brailledev.braille import Translator
from emboss.page import Caption, Cut, Document, Geometry, Page, Paper
from games.core import NotationError
from games.domino.game import parse_card as parse_domino_card
from games.domino.grid import card_text as domino_card_text
from games.elements.cards import Card as ElementsCard
from games.rummikub import tiles as rummikub_tiles
from games.uno import notation as uno_notation
from layouts.catalog import HERE as LAYOUTS
from layouts.catalog import Catalog, load_toml, rules_data
from layouts.elements.words import Words
from layouts.elements.words import label as elements_label
from layouts.errors import PaperError

# Room kept between a card's edge and its dots (mm), so a cut never grazes braille.
EDGE = 3.0


@dataclass(frozen=True)
class Face:
    """What goes on one card: its notation, the print lines embossed, the ink caption."""

    card: str
    lines: tuple[str, ...]
    caption: str


# A deck: the whole deck in notation from the box data; a face from a card and the words;
# the game's own reading of a card's text (canonical card, or NotationError).
DeckCards = Callable[[Mapping[str, Any]], list[str]]
FaceOf = Callable[[str, Catalog], Face]
ReadCard = Callable[[str, Mapping[str, Any]], str]


@dataclass(frozen=True)
class DeckKind:
    cards: DeckCards
    face: FaceOf
    read: ReadCard


DECKS: dict[str, DeckKind] = {}


def register_deck(game: str, cards: DeckCards, face: FaceOf,
                  read: ReadCard = lambda text, rules: text.strip()) -> None:
    """Offer ``game``'s deck for embossing: ``register_deck("uno", uno_cards, uno_face)``."""
    DECKS[game] = DeckKind(cards, face, read)


@dataclass(frozen=True)
class CardSize:
    """A card's width and height in mm, as held for reading: ``CardSize(56, 87)``."""

    width: float
    height: float


def deck_data(game: str) -> Mapping[str, Any]:
    return load_toml(LAYOUTS / game / "deck.toml")


def card_size(game: str) -> CardSize:
    """The default card size of ``game`` from ``layouts/<game>/deck.toml``."""
    data = deck_data(game)
    return CardSize(float(data["card_width"]), float(data["card_height"]))


def whole_deck(game: str) -> list[str]:
    """Every card of ``game``'s box in notation, duplicates included."""
    return _kind(game).cards(rules_data(game))


def _kind(game: str) -> DeckKind:
    if game not in DECKS:
        raise PaperError("no_deck", game=game, choices=", ".join(sorted(DECKS)))
    return DECKS[game]


def parse_cards(game: str, text: str, lang: str) -> list[str]:
    """A replacement set ``"r7,r7,b+2,wi"`` checked against the deck's notation."""
    kind, rules = _kind(game), rules_data(game)
    known = set(kind.cards(rules))
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise PaperError("cards_empty")
    chosen = []
    for item in items:
        try:
            card = kind.read(item, rules)
        except NotationError:
            card = ""
        if card not in known:
            notation = deck_data(game).get("notation", {}).get(lang, "")
            raise PaperError("card_unknown", game=game, card=item, notation=notation)
        chosen.append(card)
    return chosen


def deck_faces(game: str, lang: str, cards: str | None = None) -> list[Face]:
    """The faces of the whole deck, or of the cards listed in ``cards``."""
    kind = _kind(game)
    chosen = whole_deck(game) if cards is None else parse_cards(game, cards, lang)
    catalog = Catalog.load(game, lang)
    return [kind.face(card, catalog) for card in chosen]


def grid(paper: Paper, size: CardSize) -> tuple[int, int]:
    """Columns and rows of cards that fit the sheet in reading orientation."""
    return (math.floor(paper.width / size.width + 1e-9),
            math.floor(paper.height / size.height + 1e-9))


@dataclass(frozen=True)
class Slot:
    """Where one label goes on the sheet (mm); ``turned`` when it lies on its long side."""

    x: float
    y: float
    width: float
    height: float
    turned: bool


def _block(x: float, y: float, width: float, height: float, size: CardSize,
           turned: bool) -> list[Slot]:
    w, h = (size.height, size.width) if turned else (size.width, size.height)
    columns = math.floor(width / w + 1e-9)
    rows = math.floor(height / h + 1e-9)
    return [Slot(x + c * w, y + r * h, w, h, turned) for r in range(rows) for c in range(columns)]


def slots(paper: Paper, size: CardSize, rotate: bool = False) -> list[Slot]:
    """The most labels a sheet holds edge to edge, centred on it.

    In reading orientation this is a plain grid. With ``rotate`` the sheet may also be cut in
    two (a band across or down), each part a grid of upright or turned cards, the best of all.
    """
    candidates = [_block(0, 0, paper.width, paper.height, size, False)]
    if rotate:
        candidates.append(_block(0, 0, paper.width, paper.height, size, True))
        for first in (False, True):
            w, h = (size.height, size.width) if first else (size.width, size.height)
            for rows in range(1, math.floor(paper.height / h + 1e-9)):
                band = rows * h
                candidates.append(_block(0, 0, paper.width, band, size, first)
                                  + _block(0, band, paper.width, paper.height - band, size,
                                           not first))
            for columns in range(1, math.floor(paper.width / w + 1e-9)):
                band = columns * w
                candidates.append(_block(0, 0, band, paper.height, size, first)
                                  + _block(band, 0, paper.width - band, paper.height, size,
                                           not first))
    best = max(candidates, key=len)
    if not best:
        return []
    # Centre the packing so the leftover paper is shared by opposite edges.
    dx = (paper.width - max(slot.x + slot.width for slot in best)) / 2
    dy = (paper.height - max(slot.y + slot.height for slot in best)) / 2
    return [Slot(slot.x + dx, slot.y + dy, slot.width, slot.height, slot.turned)
            for slot in best]


def physical_maximum(paper: Paper, size: CardSize, rotated: bool = False) -> int:
    """The most cards of ``size`` a sheet holds edge to edge (optionally turned 90°)."""
    return len(slots(paper, size, rotated))


def area_bound(paper: Paper, size: CardSize) -> int:
    """No packing at all can beat the sheet's area over the card's."""
    return math.floor(paper.width * paper.height / (size.width * size.height) + 1e-9)


def card_cells(translator: Translator, face: Face) -> list[str]:
    """The cells of each line of a face; a label liblouis cannot render is an error."""
    lines = []
    for text in face.lines:
        cells = translator.translate(text).cells
        if text.strip() and (not cells.strip("\u2800")
                             or any(ord(cell) > 0x283F for cell in cells)):
            raise PaperError("label_not_six_dot", text=text, card=face.card,
                              table=translator.table)
        lines.append(cells)
    return lines


def deck_document(faces: list[Face], geometry: Geometry, size: CardSize,
                  translator: Translator, title: str, lang: str,
                  rotate: bool = False) -> Document:
    """Sheets of labels, as many per sheet as fit, each label's cells inside its card.

    With ``rotate`` labels may lie on their long side, the braille then running along it.
    """
    if geometry.duplex:
        raise PaperError("labels_one_side")
    places = slots(geometry.paper, size, rotate)
    if not places:
        raise PaperError("card_too_big", width=size.width, height=size.height,
                          paper=geometry.paper.name)
    cuts = _cut_marks(geometry.paper, places)
    pages = []
    for start in range(0, len(faces), len(places)):
        page = Page.blank(geometry)
        for slot, face in zip(places, faces[start:start + len(places)], strict=False):
            _place(page, geometry, face, translator, slot)
        page.cuts.extend(cuts)
        pages.append(page)
    return Document(geometry, pages, title, lang)


def _place(page: Page, geometry: Geometry, face: Face, translator: Translator,
           slot: Slot) -> None:
    cols = geometry.cols_within(slot.x + EDGE, slot.x + slot.width - EDGE)
    lines = geometry.lines_within(slot.y + EDGE, slot.y + slot.height - EDGE)
    cells = card_cells(translator, face)
    if len(cells) > len(lines) or any(len(line) > len(cols) for line in cells):
        raise PaperError("label_too_big", card=face.card, cells=max(map(len, cells)),
                          lines=len(cells), room_cells=len(cols), room_lines=len(lines))
    for offset, line in enumerate(cells):
        page.put(lines[offset], cols.start, line)
    below = geometry.cell_origin(lines.start + len(cells), cols.start)[1]
    page.captions.append(Caption(slot.x + EDGE, min(below + 2, slot.y + slot.height - EDGE),
                                 face.caption))


def _cut_marks(paper: Paper, places: list[Slot]) -> list[Cut]:
    # Every card edge once, reaching a little past the cards so a ruler finds it.
    reach = 4.0
    edges: set[Cut] = set()
    for slot in places:
        x1, y1 = slot.x + slot.width, slot.y + slot.height
        top, bottom = max(0.0, slot.y - reach), min(paper.height, y1 + reach)
        left, right = max(0.0, slot.x - reach), min(paper.width, x1 + reach)
        edges.update({Cut(round(slot.x, 2), round(top, 2), round(slot.x, 2), round(bottom, 2)),
                      Cut(round(x1, 2), round(top, 2), round(x1, 2), round(bottom, 2)),
                      Cut(round(left, 2), round(slot.y, 2), round(right, 2), round(slot.y, 2)),
                      Cut(round(left, 2), round(y1, 2), round(right, 2), round(y1, 2))})
    return sorted(edges, key=lambda cut: (cut.x1, cut.y1, cut.x2, cut.y2))


def uno_cards(rules: Mapping[str, Any]) -> list[str]:
    """The Uno deck (UNO-1) in canonical notation: ``r0``, ``r1``, ``r1``, ... ``wi+4``."""
    cards = [colour + value for colour in rules["colours"]
             for value, copies in rules["deck"].items() for _ in range(int(copies))]
    cards += [wild for wild, copies in rules["wilds"].items() for _ in range(int(copies))]
    return cards


def uno_face(card: str, catalog: Catalog) -> Face:
    """An Uno label (UNO-12): colour letter + value, a wild alone: ``r5``, ``jk+4``."""
    labels = catalog.table("cards")
    colour, value = uno_notation.colour_of(card), uno_notation.value_of(card)
    if not colour:
        return Face(card, (str(labels[value]),), str(labels[value]))
    label = str(labels["colour_prefix"][colour]) + str(labels[value])
    colour_name = catalog.table("names")["colours"][colour]
    return Face(card, (label,), f"{label} ({colour_name})")


def read_uno_card(text: str, rules: Mapping[str, Any]) -> str:
    """A card in Uno's own notation (case and spaces ignored): ``read_uno_card(" R7", rules)``."""
    return uno_notation.parse_card(text, rules["colours"])


register_deck("uno", uno_cards, uno_face, read_uno_card)


# Elevens cards that are not number cards, in the notation of a --cards list.
ELEVENS_SPECIAL = {"*": "joker", "L": "link", "bonus": "bonus"}


def elevens_cards(rules: Mapping[str, Any]) -> list[str]:
    """The Elevens box (ELV-1): ``r1`` .. ``b21``, then ``*`` jokers, ``L`` link cards and
    ``bonus`` cards, as many as ``layouts/elevens/rules.toml`` says."""
    cards = [f"{colour}{value}" for colour in rules["colours"]
             for value in range(int(rules["lowest"]), int(rules["highest"]) + 1)]
    counts = {"*": rules["jokers"], "L": rules["link_cards"], "bonus": rules["bonus_cards"]}
    return cards + [card for card, count in counts.items() for _ in range(int(count))]


def elevens_face(card: str, catalog: Catalog) -> Face:
    """An Elevens label: colour letter + value (``j12`` in French), ``*``, ``L``, ``11``."""
    labels, names = catalog.table("cards"), catalog.table("names")
    if card in ELEVENS_SPECIAL:
        label = str(labels[ELEVENS_SPECIAL[card]])
        return Face(card, (label,), f"{label} ({names[ELEVENS_SPECIAL[card]]})")
    colour, value = card[0], card[1:]
    label = str(labels["colour_prefix"][colour]) + value
    return Face(card, (label,), f"{label} ({names['colours'][colour]})")


register_deck("elevens", elevens_cards, elevens_face)


def elements_cards(rules: Mapping[str, Any]) -> list[str]:
    """The Elements box (ELE-1): ``r0`` .. ``k10`` then the element cards ``Er`` .. ``Ek``."""
    values = range(int(rules["min_value"]), int(rules["max_value"]) + 1)
    return ([f"{colour}{value}" for colour in rules["colours"] for value in values]
            + [f"E{colour}" for colour in rules["colours"]])


def elements_face(card: str, catalog: Catalog) -> Face:
    """An Elements label, the display's own: ``j7``, ``Ej`` in French; caption with the colour."""
    words = Words(catalog)
    if card.startswith("E"):
        colour = card[1:]
        label = elements_label(card, catalog)
        caption = words.text("element_caption", colour=words.colour(colour))
        return Face(card, (label,), f"{label} ({caption})")
    label = elements_label(ElementsCard(card[0], int(card[1:])), catalog)
    return Face(card, (label,), f"{label} ({words.colour(card[0])})")


register_deck("elements", elements_cards, elements_face)


def domino_cards(rules: Mapping[str, Any]) -> list[str]:
    """The Domino 10-11-12 box (DOM-1) from ``layouts/domino/rules.toml``, each card higher
    half first: ``1/1``, ``1/1``, ``2/1`` ... ``6/0``."""
    return [domino_card_text(parse_domino_card(text)) for text in rules["cards"]]


def domino_face(card: str, catalog: Catalog) -> Face:
    """A Domino label: both halves' pips, higher first, 0 a blank half (``6/0``), the same
    label as on the display."""
    label = str(catalog.table("cards")[card])
    blank = catalog.table("names")["blank"]
    return Face(card, (label,), f"{label} ({blank})" if card.endswith("/0") else label)


def read_domino_card(text: str, rules: Mapping[str, Any]) -> str:
    """A card with its halves in either order: ``read_domino_card("0/6", rules) == "6/0"``."""
    return domino_card_text(parse_domino_card(text))


register_deck("domino", domino_cards, domino_face, read_domino_card)


def rummikub_cards(rules: Mapping[str, Any]) -> list[str]:
    """The Rummikub box (RUM-1): ``K1`` .. ``Y13`` twice each, then the jokers ``J``."""
    return rummikub_tiles.full_box(int(rules["copies"]), int(rules["jokers"]),
                                   rules["colours"], int(rules["top"]))


def rummikub_face(card: str, catalog: Catalog) -> Face:
    """A Rummikub tile label, the display's own: colour letter + number (``j12`` in French
    for yellow 12), the joker ``jo`` (French) or ``jk`` (English)."""
    labels, names = catalog.table("cards"), catalog.table("names")
    if rummikub_tiles.is_joker(card):
        label = str(labels["joker"])
        return Face(card, (label,), f"{label} ({names['joker']})")
    colour = rummikub_tiles.colour_of(card)
    label = str(labels["colour_prefix"][colour]) + str(rummikub_tiles.number_of(card))
    return Face(card, (label,), f"{label} ({names['colours'][colour]})")


def read_rummikub_card(text: str, rules: Mapping[str, Any]) -> str:
    """A tile in the canonical notation, case ignored: ``read_rummikub_card("y12", rules)``."""
    return rummikub_tiles.parse_tile(text)


register_deck("rummikub", rummikub_cards, rummikub_face, read_rummikub_card)
