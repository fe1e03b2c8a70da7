"""Elevens on a display: status, the four rows, the hand, the places of the chosen card, the
steps of the turn, commands, messages and help, as lines of regions.

Each row is one compact line: its colour letter, then its segments (``r 5-16``,
``b 3-4 8-13 *10``: a joker stands at b10, inside the segment before it; ``y 5 lig5 11``: a
link card joins y5 to g5 in the neighbouring row). Routing a card of
the hand plays it when it has one place, else offers its places in words on the choice line
(``r12 to r12 r12 by link from y12 for the joker on r12``; a joker's ``* to b7 b9``).
Routing a joker lying in a row exchanges it for the player's card. Messages and lines name
cards by their labels and steps in words; notation is for typing only. Words come from
``layouts/elevens/{en,fr}.toml``.

    lines = SCREEN.screen(game.view(0), context)
    [line.key for line in lines]
    # ['messages', 'status', 'row_r', 'row_y', 'row_g', 'row_b', 'hand', 'commands', 'links',
    #  'help']
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from games.core import Event, Json, Reason
from games.elevens.engine import (
    DISCARD,
    DRAW,
    END,
    JOKER,
    UNDO,
    Discarded,
    ElevensView,
    Exchanged,
    Placed,
    Step,
    TurnEnded,
    Undone,
    place,
    segments,
)
from games.saved import field, need_dict, text
from layouts.catalog import Catalog
from layouts.elevens.words import (
    choice_words,
    event_text,
    label,
    reason_text,
    row_label,
    step_words,
)
from layouts.screen import (
    CHOICE_LINE,
    COMMAND_LINE,
    HAND_LINE,
    STATUS_LINE,
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
)

# The lines of the steps of the turn so far and of every player's link cards and bonus cards;
# one line per row.
TURN_LINE = "turn"
LINKS_LINE = "links"


def row_key(row: str) -> str:
    """The line of a row by its colour: ``row_key("y") == "row_y"``."""
    return f"row_{row}"


@dataclass(frozen=True)
class Chosen:
    """The card of the hand whose places the choice line offers; ``row`` narrows a long
    list (a joker's) to the places in one row."""

    card: str
    row: str = ""


# More places than this are first offered row by row, so a finger never pans through dozens.
GROUP_ABOVE = 8


def row_line(view: ElevensView, row: str, catalog: Catalog) -> Line:
    """``r 5-16``; after its segment, a joker is a region ``*10``, routable to exchange it
    when the seat holds the card it stands for, and a laid link card is a region ``lig5``
    naming the card it joins in the neighbouring row (``y 5 lig5 11``), for reading only."""
    cells = view.rows[row]
    joker = label(JOKER, catalog)
    link = str(catalog.section("screen")["row_link"])
    links = view.links_at(row)
    regions = [Region(row_label(catalog, row))]
    for low, high in segments(cells):
        regions.append(Region(str(low) if low == high else f"{low}-{high}"))
        for pos in range(low, high + 1):
            if cells[pos] == JOKER:
                exchange = Step("exchange", f"{row}{pos}", row, pos)
                target = PlayMove(exchange) if exchange.card in view.hand else None
                regions.append(Region(f"{joker}{pos}", target=target, label=True))
            regions += [Region(link.format(card=label(f"{other}{pos}", catalog)), label=True)
                        for at, other in links if at == pos]
    return Line(row_key(row), tuple(regions))


def options(legal: Sequence[Hashable], card: str) -> list[Step]:
    """The legal steps that put ``card`` of the hand somewhere (or discard a joker)."""
    kinds = ("place", "link", "exchange", "discard")  # discarding, the last resort, last
    found = [step for step in legal
             if isinstance(step, Step) and step.card == card and step.kind in kinds]
    return sorted(found, key=lambda step: kinds.index(step.kind))


def _chosen(view: ElevensView, context: Context) -> Chosen | None:
    mine = view.turn == view.seat
    pending = context.pending
    if mine and isinstance(pending, Chosen) and pending.card in view.hand:
        return pending
    return None


class ElevensScreen:
    """The :class:`layouts.screen.GameScreen` of Elevens."""

    def screen(self, view: ElevensView, context: Context) -> tuple[Line, ...]:
        cat = context.catalog
        legal = context.legal_moves
        lines = [message_line(context.messages, cat), self.status(view, context)]
        lines += [row_line(view, row, cat) for row in view.order]
        lines.append(self.hand(view, context, legal))
        choice = self.choice(view, context, legal)
        if choice is not None:
            lines.append(choice)
        if view.steps:
            lines.append(self.turn(view, context))
        lines.append(self.commands(view, context, legal))
        if not view.beginner:  # to read: after the commands, which the hand is nearer
            lines.append(self.links(view, context))
        game_help = "elevens_help_beginner" if view.beginner else "elevens_help"
        lines.append(help_line(cat, cat.text(game_help, limit=view.limit)))
        return tuple(lines)

    def home(self, view: ElevensView, context: Context) -> str:
        return CHOICE_LINE if _chosen(view, context) is not None else HAND_LINE

    def status(self, view: ElevensView, context: Context) -> Line:
        """Whose turn, then the stock and each other hand as a word and a number (``you,
        stock 24 Bo 15 Cy 15 Di 15``): one 40-cell window up to four players; the cards
        played this turn are on the turn line, link cards and bonuses on their own line."""
        words = context.catalog.section("screen")
        if view.over:
            turn = str(words["over"])
        elif view.turn == view.seat:
            turn = str(words["your_turn"])
        elif view.turn is not None:
            turn = context.names[view.turn]
        else:
            turn = ""
        counts = [str(words["stock"]).format(count=view.stock_size)]
        for step in range(1, view.players):
            seat = (view.seat + step) % view.players
            counts.append(str(words["other"]).format(player=context.names[seat],
                                                     count=view.hand_sizes[seat]))
        head = (Region(f"{turn},"),) if turn else ()
        return Line(STATUS_LINE, (*head, *(Region(text) for text in counts)))

    def links(self, view: ElevensView, context: Context) -> Line:
        """Every player's link cards, the seat's bonus cards and those left to take."""
        words = context.catalog.section("screen")
        held = [str(words["links_of"]).format(player=context.names[seat],
                                              count=view.link_cards[seat])
                for seat in range(view.players)]
        bonuses = str(words["bonuses"]).format(count=view.bonuses[view.seat],
                                               left=view.bonus_left)
        held[-1] += str(words["links_end"])
        return Line(LINKS_LINE, (Region(str(words["links"])), *listed(held),
                                 Region(bonuses, atomic=False)))

    def hand(self, view: ElevensView, context: Context, legal: Sequence[Hashable]) -> Line:
        """One region per card: routing plays a card with one place, else offers its places."""
        cat = context.catalog
        regions = [Region(str(cat.section("screen")["hand"]))]
        for card in view.hand:
            target: PlayMove | Ask
            found = options(legal, card)
            if len(found) == 1:
                target = PlayMove(found[0])
            elif found or card == JOKER:
                target = Ask(Chosen(card), then=CHOICE_LINE)
            else:
                target = PlayMove(place(card))  # refused with its reason, said to the player
            regions.append(Region(label(card, cat), target=target, label=True))
        return Line(HAND_LINE, tuple(regions))

    def choice(self, view: ElevensView, context: Context, legal: Sequence[Hashable]) -> Line | None:
        """The places of the chosen card (row by row when they are many), then cancel."""
        chosen = _chosen(view, context)
        if chosen is None:
            return None
        cat = context.catalog
        words = cat.section("screen")
        card = chosen.card
        regions = [Region(f"{label(card, cat)} {words['places']}")]
        found = options(legal, card)
        if chosen.row:
            found = [step for step in found if step.row == chosen.row]
        placed = [step for step in found if step.kind != "discard"]
        if not chosen.row and len(placed) > GROUP_ABOVE:
            for row in view.order:
                count = sum(1 for step in placed if step.row == row)
                if count:
                    text = str(words["row_group"]).format(row=row_label(cat, row), count=count)
                    regions.append(Region(text, target=Ask(Chosen(card, row))))
            found = [step for step in found if step.kind == "discard"]
        # a place alone is written as the card that belongs there is labelled
        regions += [Region(choice_words(cat, step), target=PlayMove(step),
                           label=step.kind == "place") for step in found]
        if len(regions) == 1:
            regions.append(Region(str(words["nowhere"])))
        if chosen.row:
            regions.append(Region(str(words["back"]), target=Ask(Chosen(card))))
        regions.append(Region(str(words["cancel"]), target=Ask(None)))
        return Line(CHOICE_LINE, tuple(regions))

    def turn(self, view: ElevensView, context: Context) -> Line:
        """The steps of the turn so far, with the count against the limit."""
        cat = context.catalog
        words = cat.section("screen")
        head = str(words["this_turn"]).format(count=view.played, limit=view.limit)
        return Line(TURN_LINE, (Region(head),
                             *listed(step_words(cat, step) for step in view.steps)))

    def commands(self, view: ElevensView, context: Context, legal: Sequence[Hashable]) -> Line:
        """End the turn (or pass), draw, undo, discard a joker, help, quit."""
        cat = context.catalog
        words = cat.section("screen")
        regions = []
        if view.turn == view.seat and not view.over:
            if not view.played and view.stock_size:
                regions.append(Region(str(words["draw"]), target=PlayMove(DRAW)))
            else:
                name = "end" if view.played else "pass"
                regions.append(Region(str(words[name]), target=PlayMove(END)))
            if view.played:
                regions.append(Region(str(words["undo"]), target=PlayMove(UNDO)))
            if DISCARD in legal:
                regions.append(Region(str(words["discard"]), target=PlayMove(DISCARD)))
        regions += help_and_quit(cat)
        return Line(COMMAND_LINE, tuple(regions))

    def prompt(self, view: ElevensView, context: Context) -> str | None:
        if view.over or view.turn != view.seat or view.played:
            return None
        return context.catalog.text("must_play_now" if not view.stock_size else "your_turn")

    def explain(self, reason: Reason, context: Context) -> str:
        """A refusal with the cards and rows in the reader's labels (``j9`` in French)."""
        return reason_text(context.catalog, reason)

    def echoes(self, event: Event, context: Context) -> bool:
        """The seat's own steps (a card placed, a joker exchanged or discarded, a step taken
        back, a pass): the rows and the hand show them."""
        return own_step(event, context, (Placed, Exchanged, Discarded, Undone, TurnEnded))

    def describe(self, event: Event, context: Context) -> str | None:
        """An event as the display's seat learns it, in words."""
        return event_text(context.catalog, event, me=context.seat, names=context.names)

    def save_input(self, pending: Hashable) -> Json:
        """``{"card": "r12", "row": "b"}``; ``None`` when no card is chosen."""
        if not isinstance(pending, Chosen):
            return None
        return {"card": pending.card, "row": pending.row}

    def load_input(self, data: Json, view: ElevensView) -> Hashable:
        """The saved choice: a card of the seat's hand, and a row of the table or none."""
        if data is None:
            return None
        saved = need_dict(data, "pending")
        card = saved_card(field(saved, "card", "pending"), "pending.card", view.hand)
        row = text(field(saved, "row", "pending"), "pending.row", ("", *view.rows))
        return Chosen(card, row)


SCREEN = ElevensScreen()
