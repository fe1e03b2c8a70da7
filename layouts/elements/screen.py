"""Elements on a display: the colour order, the point cards, the bids, the hand, the scores.

Lines: ``messages``, ``status`` (hand number, whose turn), ``order`` (before the reveal the
element row with the face-down cards, then the colour order, strongest first), ``points``
(point cards still to win, the current one last), ``bids`` (the current point card and every
player's laid cards with their combination named), ``hand``, ``choice`` (what is due),
``commands`` (pass, help, quit), ``scores``, ``help``.

Routing a card of the hand: in phase 1 selects it, then an element of the choice line puts it
face down; when one card is due it is laid at once; in round 3 two cards are selected, then
``confirm`` on the choice line lays them; in phase 3 a card is marked for the stock (routing
again keeps it), as on the choice line, which lists the cards kept and discarded (each
routed changes sides), then ``confirm`` keeps the rest.

    lines = SCREEN.screen(game.view(0), context)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from games.core import Event, Json, Reason
from games.elements.cards import Card, bid_key, element_label
from games.elements.engine import (
    BID,
    KEEP,
    OVER,
    PLACE,
    ElementsView,
    Keep,
    Kept,
    Laid,
    Lay,
    Pass,
    Passed,
    Place,
    Placed,
)
from games.saved import distinct, each, field, need_dict
from layouts.elements.words import Words, label, name
from layouts.screen import (
    CHOICE_LINE,
    COMMAND_LINE,
    HAND_LINE,
    Ask,
    Context,
    Line,
    PlayMove,
    Region,
    help_and_quit,
    help_line,
    listed,
    message_line,
    own_step,
    saved_card,
    status_line,
)

# The lines of the colour order (or the element row), the point cards, the bids, the scores.
ORDER_LINE = "order"
POINTS_LINE = "points"
BIDS_LINE = "bids"
SCORES_LINE = "scores"


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


def words_of(context: Context) -> Words:
    return Words(context.catalog)


def _input(context: Context) -> ElementsInput:
    return context.pending if isinstance(context.pending, ElementsInput) else ElementsInput()


def sort_hand(view: ElementsView) -> list[Card]:
    """Strongest colour first once the order is known (the box's order before), then value."""
    colours = view.order or view.colours
    return sorted(view.hand, key=lambda card: (colours.index(card.colour), card.value))


def _mine(view: ElementsView) -> bool:
    return view.phase != OVER and view.turn == view.seat


class ElementsScreen:
    """The :class:`layouts.screen.GameScreen` of Elements."""

    def screen(self, view: ElementsView, context: Context) -> tuple[Line, ...]:
        lines = [message_line(context.messages, context.catalog), self.status(view, context),
                 self.order(view, context)]
        if view.phase == BID:
            lines += [self.points(view, context), self.bids(view, context)]
        lines.append(self.hand(view, context))
        choice = self.choice(view, context)
        if choice is not None:
            lines.append(choice)
        lines += [self.commands(view, context), self.scores(view, context),
                  help_line(context.catalog, context.catalog.text("game_help"))]
        return tuple(lines)

    def home(self, view: ElementsView, context: Context) -> str:
        """The choice line when it asks something; the hand while cards are still to
        choose there (round 3 with one card chosen)."""
        said = _input(context)
        if view.phase == BID and len(said.chosen) == 1:
            return HAND_LINE
        return CHOICE_LINE if self.choice(view, context) is not None else HAND_LINE

    def status(self, view: ElementsView, context: Context) -> Line:
        text = context.catalog.text
        parts = [text("status_hand", number=view.hand_number + 1, hands=view.hands)]
        if view.phase == OVER:
            parts.append(text("status_over"))
        elif view.turn is not None:
            parts.append(text("status_turn_own") if _mine(view)
                         else text("status_turn", name=context.names[view.turn]))
        return status_line(parts)

    def order(self, view: ElementsView, context: Context) -> Line:
        """Phase 1: each element with its face-down card (``?``, or yours) or ``free``;
        afterwards the colour order, strongest first."""
        cat, text = context.catalog, context.catalog.text
        if view.phase == PLACE:
            placed = {element: (seat, card) for element, seat, card in view.placements}
            shown = []
            for element in view.row:
                if element not in placed:
                    face = text("row_free")
                else:
                    seat, card = placed[element]
                    face = (f"{context.names[seat]} "
                            f"{label(card, cat) if card is not None else text('row_hidden')}")
                shown.append(f"{label(element_label(element), cat)} {face}")
            return Line(ORDER_LINE, (Region(text("row_label")), *listed(shown)))
        return Line(ORDER_LINE, (Region(text("order_label")),
                                 *(Region(label(element_label(colour), cat), label=True)
                                   for colour in view.order)))

    def points(self, view: ElementsView, context: Context) -> Line:
        """The points of the point cards still to win (each is worth its number), left to
        right; the current one is the last."""
        cat = context.catalog
        return Line(POINTS_LINE, (Region(cat.text("points_label")),
                                  *(Region(str(card.value)) for card in view.point_cards)))

    def bids(self, view: ElementsView, context: Context) -> Line:
        """The current point card, then each player's laid cards and combination."""
        words, text = words_of(context), context.catalog.text
        assert view.current is not None
        regions = [Region(text("bids_label", card=label(view.current, context.catalog)))]
        leader = self.leader(view)
        apart = text("bids_apart")
        for step in range(view.players):
            seat = (view.first + step) % view.players
            regions.append(Region(text("bids_seat", name=context.names[seat])))
            regions += [Region(label(card, context.catalog), label=True)
                        for card in view.laid[seat]]
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
            last = step == view.players - 1
            regions.append(Region(", ".join(notes) + ("" if last else apart), atomic=False))
        return Line(BIDS_LINE, tuple(regions))

    @staticmethod
    def leader(view: ElementsView) -> int | None:
        """Who would win the point card now (ELE-6, laid first breaking full ties)."""
        keys = {seat: bid_key(key, rank) for rank, seat in enumerate(view.laid_order)
                for key in [view.combination(seat)] if key is not None}
        return max(keys, key=keys.__getitem__) if keys else None

    def hand(self, view: ElementsView, context: Context) -> Line:
        said = _input(context)
        mine = _mine(view)
        regions = []
        for card in sort_hand(view):
            target: Ask | PlayMove | None = None
            if mine and view.phase == PLACE:
                target = Ask(ElementsInput(place=card), then=CHOICE_LINE)
            elif mine and view.phase == BID and view.need == 1:
                target = PlayMove(Lay((card,)))
            elif mine and view.phase == BID and view.need == 2 and len(view.hand) >= 2:
                if card in said.chosen or len(said.chosen) < 2:
                    toggled = said.toggle(card)
                    # the second card chosen: confirm is on the choice line
                    then = CHOICE_LINE if len(toggled.chosen) == 2 else None
                    target = Ask(toggled, then=then)
            elif mine and view.phase == KEEP:
                target = Ask(said.toggle(card))
            marked = card == said.place or card in said.chosen
            regions.append(Region(label(card, context.catalog) + ("*" if marked else ""),
                                  target=target, label=True))
        if not regions:
            regions.append(Region(context.catalog.text("hand_empty")))
        return Line(HAND_LINE, (Region(context.catalog.text("hand_label")), *regions))

    def choice(self, view: ElementsView, context: Context) -> Line | None:
        """What is due: the element for the selected card, confirming two cards, keeping."""
        if not _mine(view):
            return None
        words, text, said = words_of(context), context.catalog.text, _input(context)
        cat = context.catalog
        cancel = Region(text("cancel"), target=Ask(None))
        if view.phase == PLACE and said.place is not None:
            taken = {element for element, _, _ in view.placements}
            return Line(CHOICE_LINE, (
                Region(text("place_ask", card=label(said.place, cat))),
                *(Region(label(element_label(element), cat),
                         target=PlayMove(Place(said.place, element)), label=True)
                  for element in view.row if element not in taken),
                cancel))
        if view.phase == BID and view.need == 2 and said.chosen:
            if len(said.chosen) < 2:
                return Line(CHOICE_LINE, (
                    Region(text("lay_pick", cards=words.cards(said.chosen)), atomic=False),
                    cancel))
            return Line(CHOICE_LINE, (
                Region(text("lay_ask", cards=words.cards(said.chosen))),
                Region(text("confirm"), target=PlayMove(Lay(tuple(said.chosen)))),
                cancel))
        if view.phase == KEEP:
            hand = sort_hand(view)
            kept = tuple(card for card in hand if card not in said.chosen)
            discarded = [card for card in hand if card in said.chosen]
            return Line(CHOICE_LINE, (
                Region(text("keep_label")), *self._toggles(kept, said, context),
                Region(text("discard_label")), *self._toggles(discarded, said, context),
                Region(text("confirm"), target=PlayMove(Keep(kept))),
                Region(text("keep_all"), target=PlayMove(Keep(tuple(hand))))))
        return None

    @staticmethod
    def _toggles(cards: Sequence[Card], said: ElementsInput,
                 context: Context) -> tuple[Region, ...]:
        """Phase 3: the cards kept (or discarded), each routed to change sides; ``nothing``
        when there are none."""
        if not cards:
            return (Region(context.catalog.text("nothing")),)
        return tuple(Region(label(card, context.catalog), target=Ask(said.toggle(card)),
                            label=True) for card in cards)

    def commands(self, view: ElementsView, context: Context) -> Line:
        text = context.catalog.text
        regions = []
        if _mine(view) and view.phase == BID:
            regions.append(Region(text("pass"), target=PlayMove(Pass())))
        regions += help_and_quit(context.catalog)
        return Line(COMMAND_LINE, tuple(regions))

    def scores(self, view: ElementsView, context: Context) -> Line:
        """Running scores: finished hands plus the point cards won in this hand."""
        text = context.catalog.text
        return Line(SCORES_LINE, (Region(text("scores_label")),
                                  *listed(f"{context.names[seat]} {view.scores[seat]}"
                                          for seat in range(view.players))))

    def prompt(self, view: ElementsView, context: Context) -> str | None:
        if not _mine(view):
            return None
        text = context.catalog.text
        if view.phase == PLACE:
            return text("prompt_place")
        if view.phase == KEEP:
            return text("prompt_keep")
        assert view.current is not None
        card = label(view.current, context.catalog)
        if view.need == 0 or len(view.hand) < view.need:
            return text("prompt_pass", card=card)
        return text("prompt_lay_one" if view.need == 1 else "prompt_lay_two", card=card)

    def explain(self, reason: Reason, context: Context) -> str:
        """A refusal in words, its card and element named for the reader (``j7``, ``ej``; on
        a web page ``yellow 7``, ``yellow element``), the move it names in the reader's
        words."""
        args = dict(reason.params)
        if "card" in args:
            card = str(args["card"])
            args["card"] = name(Card(card[0], int(card[1:])), context.catalog)
        if "element" in args:
            args["element"] = name(str(args["element"]), context.catalog)
        if reason.code == "not_now":
            args["move"] = context.catalog.text(f"move_{args['move']}")
        return context.catalog.text(reason.code, **args)

    def echoes(self, event: Event, context: Context) -> bool:
        """The seat's card placed, cards laid, pass and cards kept: its lines show them."""
        return own_step(event, context, (Placed, Laid, Passed, Kept))

    def describe(self, event: Event, context: Context) -> str | None:
        return words_of(context).event(event, context.seat, context.names)

    def save_input(self, pending: Hashable) -> Json:
        """``{"place": "r7", "chosen": ["b3", "k10"]}``; ``None`` when nothing is chosen."""
        said = pending if isinstance(pending, ElementsInput) else ElementsInput()
        if said == ElementsInput():
            return None
        return {"place": None if said.place is None else str(said.place),
                "chosen": [str(card) for card in said.chosen]}

    def load_input(self, data: Json, view: ElementsView) -> Hashable:
        """The saved choice: cards of the seat's hand, each chosen once."""
        if data is None:
            return None
        saved = need_dict(data, "pending")
        place = field(saved, "place", "pending")
        chosen = each(field(saved, "chosen", "pending"), "pending.chosen", len(view.hand),
                      lambda card, at: saved_card(card, at, view.hand))
        distinct(chosen, "pending.chosen")
        return ElementsInput(None if place is None else
                             saved_card(place, "pending.place", view.hand), tuple(chosen))


SCREEN = ElementsScreen()
