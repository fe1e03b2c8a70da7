"""Elements on a web page: the five element cards with what lies before each (a card face
down, or the player's own), then the colour order they reveal; the point cards to win; every
player's laid cards with their combination named; the hand's cards; what is due as controls
in words: the element to put a card before, the two cards to lay, the cards to keep, pass.

    PICTURE.draw(view, lines, context)    # {"table": [...], "hand": [...], "actions": [...]}
"""

from __future__ import annotations

from games.elements.cards import Card, element_label
from games.elements.engine import BID, KEEP, OVER, PLACE, ElementsView, Keep, Lay, Pass, Place
from layouts.catalog import Catalog
from layouts.elements.paper import face
from layouts.elements.screen import ElementsInput, ElementsScreen, sort_hand
from layouts.elements.words import Words
from layouts.picture import Json, Picture, Targets, button, card, group, text, words_of
from layouts.screen import CHOICE_LINE, COMMAND_LINE, HAND_LINE, Ask, Context, Line, PlayMove

TONES = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "k": "black"}
ELEMENT_SIGN = "◆"
FACE_DOWN = "?"


def number_card(each: Card, catalog: Catalog, target: str | None = None,
                marks: list[str] | None = None, chosen: bool = False) -> Json:
    """A number card in its colour: ``number_card(Card("y", 7), catalog)``."""
    return card(face(str(each), catalog), big=str(each.value), tone=TONES[each.colour],
                target=target, marks=marks or [], chosen=chosen)


def element_card(colour: str, catalog: Catalog, target: str | None = None,
                 marks: list[str] | None = None) -> Json:
    """An element card: ``element_card("b", catalog)``."""
    return card(face(element_label(colour), catalog), big=ELEMENT_SIGN, tone=TONES[colour],
                target=target, marks=marks or [])


def _input(context: Context) -> ElementsInput:
    return context.pending if isinstance(context.pending, ElementsInput) else ElementsInput()


class ElementsPicture(Picture):
    """The :class:`layouts.picture.Picture` of Elements."""

    tones = tuple(TONES.values())

    def draw(self, view: ElementsView, lines: tuple[Line, ...], context: Context) -> Json:
        cat = context.catalog
        words = words_of(cat)
        targets = Targets(lines)
        said = _input(context)
        cards = []
        for target, each in zip(targets.labels(HAND_LINE), sort_hand(view), strict=True):
            chosen = each == said.place or each in said.chosen
            marks = [words["to_discard"] if view.phase == KEEP else words["chosen"]] \
                if chosen else []
            cards.append(number_card(each, cat, target, marks, chosen))
        table = [self._elements(view, context)]
        if view.phase == BID:
            table += [self._points(view, cat), *self._bids(view, context)]
        scores = ", ".join(f"{context.names[seat]} {points}"
                           for seat, points in enumerate(view.scores))
        return {"status": self._status(view, context), "table": table,
                "hand": [group("", cards)], "actions": self._actions(view, targets, context),
                "below": [text(words["scores"].format(scores=scores))], "help": words["help"]}

    @staticmethod
    def _status(view: ElementsView, context: Context) -> list[str]:
        words = words_of(context.catalog)
        found = [words["hand_number"].format(number=view.hand_number + 1, hands=view.hands)]
        if view.phase == OVER:
            found.append(words["over"])
        elif view.turn == view.seat:
            found.append(words["your_turn"])
        elif view.turn is not None:
            found.append(words["turn_of"].format(name=context.names[view.turn]))
        if view.phase != OVER:
            found.append(words[f"phase_{view.phase}"])
        return found

    @staticmethod
    def _elements(view: ElementsView, context: Context) -> Json:
        """Before the reveal, each element with what lies before it; after, the colour order
        the revealed cards give, strongest first."""
        cat = context.catalog
        words = words_of(cat)
        if view.phase != PLACE:
            return group(words["order"], [element_card(colour, cat) for colour in view.order])
        placed = {element: (seat, laid) for element, seat, laid in view.placements}
        items = []
        for element in view.row:
            if element not in placed:
                marks = [words["free"]]
            else:
                seat, laid = placed[element]
                shown = face(str(laid), cat).caption if laid is not None else words["face_down"]
                marks = [words["lies"].format(name=context.names[seat], card=shown)]
            items.append(element_card(element, cat, marks=marks))
        return group(words["elements"], items)

    @staticmethod
    def _points(view: ElementsView, cat: Catalog) -> Json:
        """The point cards still to win, the one played for now last and marked."""
        words = words_of(cat)
        items = [number_card(each, cat, marks=[words["now"]] if each == view.current else [])
                 for each in view.point_cards]
        return group(words["points"], items)

    @staticmethod
    def _bids(view: ElementsView, context: Context) -> list[Json]:
        """Every player's laid cards for the point card, with their combination named."""
        cat = context.catalog
        words = words_of(cat)
        leader = ElementsScreen.leader(view)
        found = []
        for step in range(view.players):
            seat = (view.first + step) % view.players
            combination = view.combination(seat)
            said = Words(cat).combination(combination) if combination is not None \
                else words["nothing_laid"]
            marks = [words["leads"]] if seat == leader else []
            if view.passed[seat]:
                marks.append(words["passed"])
            found.append(group(words["bid"].format(name=context.names[seat], combination=said),
                               [number_card(each, cat) for each in view.laid[seat]],
                               marks=marks))
        return found

    @staticmethod
    def _actions(view: ElementsView, targets: Targets, context: Context) -> list[Json]:
        """The choice line and the pass command, in words."""
        cat = context.catalog
        words = words_of(cat)
        said = _input(context)
        found: list[Json] = []
        choices = []
        for target, region in targets.each(CHOICE_LINE):
            routed = None if target is None else region.target
            if isinstance(routed, PlayMove) and isinstance(routed.move, Place):
                choices.append(button(words["before"].format(
                    element=face(element_label(routed.move.element), cat).caption), target))
            elif isinstance(routed, PlayMove) and isinstance(routed.move, Lay):
                laid = words["and"].join(face(str(each), cat).caption
                                         for each in routed.move.cards)
                choices.append(button(words["lay"].format(cards=laid), target))
            elif isinstance(routed, PlayMove) and isinstance(routed.move, Keep):
                kept = set(routed.move.cards)
                every = len(kept) == len(view.hand)
                choices.append(button(words["keep_all"] if every else words["keep"], target))
            # the keep line's cards change sides when clicked in the hand; Ask(None) cancels
            elif isinstance(routed, Ask) and routed.pending is None:
                choices.append(button(words["cancel"], target))
        if choices:
            found.append(group(_question(view, said, cat), choices, kind="column"))
        elif view.turn == view.seat and view.phase == BID and view.need == 2:
            found.append(text(words["pick_two"]))
        passing = targets.of(COMMAND_LINE, PlayMove(Pass()))
        if passing is not None:
            found.append(button(words["pass"], passing))
        if not found and view.phase != OVER:
            found.append(text(words["wait"] if view.turn != view.seat else words["pick"]))
        return found


def _question(view: ElementsView, said: ElementsInput, cat: Catalog) -> str:
    """What the choice asks, in words."""
    words = words_of(cat)
    if view.phase == PLACE and said.place is not None:
        return words["ask_place"].format(card=face(str(said.place), cat).caption)
    if view.phase == KEEP:
        discarded = ", ".join(face(str(each), cat).caption for each in said.chosen)
        return words["ask_keep"].format(cards=discarded or words["none"])
    if len(said.chosen) == 1:
        return words["one_more"].format(card=face(str(said.chosen[0]), cat).caption)
    return words["ask_lay"]


PICTURE = ElementsPicture()
