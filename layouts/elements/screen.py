"""Elements on a display: the colour order, the point cards, the bids, the hand, the scores.

Lines: ``messages``, ``status`` (hand number, whose turn), ``order`` (before the reveal the
element row with the face-down cards, then the colour order, strongest first), ``points``
(point cards still to win, the current one last), ``bids`` (the current point card and every
player's laid cards with their combination named), ``hand``, ``choice`` (what is due),
``commands`` (pass, help, quit), ``scores``, ``help``.

Routing a card of the hand: in phase 1 selects it, then an element of the choice line puts it
face down; when one card is due it is laid at once; in round 3 two cards are selected, then
``confirm`` on the choice line lays them; in phase 3 a card is marked for the stock (routing
again keeps it), then ``confirm`` keeps the rest.

    lines = SCREEN.screen(game.view(0), table)
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import Event
from games.elements.cards import Card, bid_key
from games.elements.engine import BID, KEEP, OVER, PLACE, ElementsView, Keep, Lay, Pass, Place
from layouts.common.screen import Ask, Move, Show, Table, Ui, help_line, message_line
from layouts.elements.words import Words
from layouts.screen import Line, Region


@dataclass(frozen=True)
class ElementsInput:
    """What the player has started: the card to place (phase 1), or the cards selected to
    lay (round 3) or to discard (phase 3)."""

    place: Card | None = None
    chosen: tuple[Card, ...] = ()

    def toggle(self, card: Card) -> ElementsInput:
        if card in self.chosen:
            return ElementsInput(chosen=tuple(c for c in self.chosen if c != card))
        return ElementsInput(chosen=(*self.chosen, card))


def words_of(table: Table) -> Words:
    return Words(table.catalog)


def _input(table: Table) -> ElementsInput:
    return table.pending if isinstance(table.pending, ElementsInput) else ElementsInput()


def sort_hand(view: ElementsView) -> list[Card]:
    """Strongest colour first once the order is known (the box's order before), then value."""
    colours = view.order or view.colours
    return sorted(view.hand, key=lambda card: (colours.index(card.colour), card.value))


def _mine(view: ElementsView) -> bool:
    return view.phase != OVER and view.turn == view.seat


class ElementsScreen:
    """The :class:`layouts.common.screen.GameScreen` of Elements."""

    def screen(self, view: ElementsView, table: Table) -> tuple[Line, ...]:
        lines = [message_line(table.messages, table.catalog), self.status(view, table),
                 self.order(view, table)]
        if view.phase == BID:
            lines += [self.points(view, table), self.bids(view, table)]
        lines.append(self.hand(view, table))
        choice = self.choice(view, table)
        if choice is not None:
            lines.append(choice)
        lines += [self.commands(view, table), self.scores(view, table),
                  help_line(table.catalog, table.catalog.text("game_help"))]
        return tuple(lines)

    def home(self, view: ElementsView, table: Table) -> str:
        return "choice" if self.choice(view, table) is not None else "hand"

    def status(self, view: ElementsView, table: Table) -> Line:
        text = table.catalog.text
        parts = [text("status_hand", number=view.hand_number + 1, hands=view.hands)]
        if view.phase == OVER:
            parts.append(text("status_over"))
        elif view.turn is not None:
            parts.append(text("status_turn_own") if _mine(view)
                         else text("status_turn", name=table.names[view.turn]))
        return Line("status", tuple(Region(part + ("," if index < len(parts) - 1 else ""))
                                    for index, part in enumerate(parts)))

    def order(self, view: ElementsView, table: Table) -> Line:
        """Phase 1: each element with its face-down card (``?``, or yours) or ``free``;
        afterwards the colour order, strongest first."""
        words, text = words_of(table), table.catalog.text
        if view.phase == PLACE:
            placed = {element: (seat, card) for element, seat, card in view.placements}
            regions = [Region(text("row_label"))]
            for element in view.row:
                if element not in placed:
                    shown = text("row_free")
                else:
                    seat, card = placed[element]
                    shown = (f"{table.names[seat]} "
                             f"{words.card(card) if card is not None else text('row_hidden')}")
                regions.append(Region(f"{words.element(element)} {shown},"))
            return Line("order", tuple(regions))
        return Line("order", (Region(text("order_label")),
                              *(Region(words.element(colour)) for colour in view.order)))

    def points(self, view: ElementsView, table: Table) -> Line:
        """The point cards still to win, left to right; the current one is the last."""
        words = words_of(table)
        return Line("points", (Region(table.catalog.text("points_label")),
                               *(Region(words.card(card)) for card in view.point_cards)))

    def bids(self, view: ElementsView, table: Table) -> Line:
        """The current point card, then each player's laid cards and combination."""
        words, text = words_of(table), table.catalog.text
        assert view.current is not None
        regions = [Region(text("bids_label", card=words.card(view.current)))]
        leader = self._leader(view)
        for step in range(view.players):
            seat = (view.first + step) % view.players
            regions.append(Region(text("bids_seat", name=table.names[seat])))
            regions += [Region(words.card(card)) for card in view.laid[seat]]
            combination = view.combination(seat)
            notes = []
            if combination is not None:
                notes.append(words.combination(combination))
            else:
                notes.append(text("bids_nothing"))
            if seat == leader:
                notes.append(text("bids_leads"))
            if view.passed[seat]:
                notes.append(text("bids_passed"))
            regions.append(Region(", ".join(notes) + ";", atomic=False))
        return Line("bids", tuple(regions))

    @staticmethod
    def _leader(view: ElementsView) -> int | None:
        """Who would win the point card now (ELE-6, laid first breaking full ties)."""
        keys = {seat: bid_key(key, rank) for rank, seat in enumerate(view.laid_order)
                for key in [view.combination(seat)] if key is not None}
        return max(keys, key=keys.__getitem__) if keys else None

    def hand(self, view: ElementsView, table: Table) -> Line:
        words, said = words_of(table), _input(table)
        mine = _mine(view)
        regions = []
        for card in sort_hand(view):
            target: Ask | Move | None = None
            if mine and view.phase == PLACE:
                target = Ask(ElementsInput(place=card))
            elif mine and view.phase == BID and view.need == 1:
                target = Move(Lay((card,)))
            elif mine and view.phase == BID and view.need == 2 and len(view.hand) >= 2:
                if card in said.chosen or len(said.chosen) < 2:
                    target = Ask(said.toggle(card))
            elif mine and view.phase == KEEP:
                target = Ask(said.toggle(card))
            marked = card == said.place or card in said.chosen
            regions.append(Region(words.card(card) + ("*" if marked else ""), target=target))
        if not regions:
            regions.append(Region(table.catalog.text("hand_empty")))
        return Line("hand", tuple(regions))

    def choice(self, view: ElementsView, table: Table) -> Line | None:
        """What is due: the element for the selected card, confirming two cards, keeping."""
        if not _mine(view):
            return None
        words, text, said = words_of(table), table.catalog.text, _input(table)
        cancel = Region(text("cancel"), target=Ask(None))
        if view.phase == PLACE and said.place is not None:
            taken = {element for element, _, _ in view.placements}
            return Line("choice", (
                Region(text("place_ask", card=words.card(said.place))),
                *(Region(words.element(element), target=Move(Place(said.place, element)))
                  for element in view.row if element not in taken),
                cancel))
        if view.phase == BID and view.need == 2 and said.chosen:
            if len(said.chosen) < 2:
                return Line("choice", (
                    Region(text("lay_pick", cards=words.cards(said.chosen)), atomic=False),
                    cancel))
            return Line("choice", (
                Region(text("lay_ask", cards=words.cards(said.chosen))),
                Region(text("confirm"), target=Move(Lay(tuple(said.chosen)))),
                cancel))
        if view.phase == KEEP:
            kept = tuple(card for card in sort_hand(view) if card not in said.chosen)
            return Line("choice", (
                Region(text("keep_ask", kept=words.cards(kept) or text("nothing"),
                            discarded=words.cards(said.chosen) or text("nothing")),
                       atomic=False),
                Region(text("confirm"), target=Move(Keep(kept))),
                Region(text("keep_all"), target=Move(Keep(tuple(sort_hand(view)))))))
        return None

    def commands(self, view: ElementsView, table: Table) -> Line:
        text = table.catalog.text
        regions = []
        if _mine(view) and view.phase == BID:
            regions.append(Region(text("pass"), target=Move(Pass())))
        regions += [Region(text("help"), target=Show("help")),
                    Region(text("quit"), target=Ui("quit"))]
        return Line("commands", tuple(regions))

    def scores(self, view: ElementsView, table: Table) -> Line:
        """Running scores: finished hands plus the point cards won in this hand."""
        text = table.catalog.text
        regions = [Region(text("scores_label"))]
        for seat in range(view.players):
            points = view.totals[seat] + sum(card.value for card in view.won[seat])
            regions.append(Region(f"{table.names[seat]} {points}"
                                  + ("," if seat < view.players - 1 else "")))
        return Line("scores", tuple(regions))

    def prompt(self, view: ElementsView, table: Table) -> str | None:
        if not _mine(view):
            return None
        text, words = table.catalog.text, words_of(table)
        if view.phase == PLACE:
            return text("prompt_place")
        if view.phase == KEEP:
            return text("prompt_keep")
        assert view.current is not None
        card = words.card(view.current)
        if view.need == 0 or len(view.hand) < view.need:
            return text("prompt_pass", card=card)
        return text("prompt_lay_one" if view.need == 1 else "prompt_lay_two", card=card)

    def describe(self, event: Event, table: Table) -> str | None:
        return words_of(table).event(event, table.seat, table.names)


SCREEN = ElementsScreen()
