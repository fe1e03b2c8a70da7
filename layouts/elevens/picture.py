"""Elevens on a web page: the four colour rows laid out from 1 to 21 around their 11s, each
card in its column, jokers as jokers (one that can be exchanged for a card of the hand is a
button), link cards marked where they lie; the hand's cards, those that can be played now
marked; pointing at a card plays it where it can go, or asks which place (which row) when
more than one fits; the player's link and bonus cards as cards; end, draw, undo and discard in
words.

    PICTURE.draw(view, lines, context)    # {"table": [rows...], "hand": [...], ...}
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from games.elevens.engine import JOKER, ElevensView, Step, segments
from layouts.catalog import Catalog
from layouts.elevens.paper import face
from layouts.elevens.screen import Chosen, options, row_key
from layouts.elevens.words import BONUS_CARD, LINK_CARD
from layouts.picture import Json, Picture, Targets, button, card, group, text, words_of
from layouts.screen import CHOICE_LINE, COMMAND_LINE, HAND_LINE, Ask, Context, Line, PlayMove

# The page's card colour of each row; jokers, link and bonus cards are drawn black.
TONES = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
SPECIAL = {JOKER: "★", LINK_CARD: "⇅", BONUS_CARD: "11"}


def colour(row: str, catalog: Catalog) -> str:
    """A row's colour in words: ``colour("y", catalog) == "yellow"``."""
    return str(catalog.section("names")["colours"][row])


def elevens_card(card_text: str, catalog: Catalog, target: str | None = None,
                 marks: Sequence[str] = (), name: str | None = None) -> Json:
    """A card with its colour and number, a joker, link or bonus card with its sign, lifted
    when it is marked playable: ``elevens_card("y12", catalog)``."""
    lifted = words_of(catalog)["can_play"] in marks
    if card_text in SPECIAL:
        return card(face(card_text, catalog), big=SPECIAL[card_text], tone="black",
                    target=target, marks=marks, name=name, lifted=lifted)
    return card(face(card_text, catalog), big=card_text[1:], tone=TONES[card_text[0]],
                target=target, marks=marks, name=name, lifted=lifted)


def step_words(step: Step, catalog: Catalog) -> str:
    """Where a step puts a card, in words: ``red 12 in its row``, ``joker as blue 7``,
    ``blue 12 on a link card from red 12``, ``exchange the joker at blue 7``."""
    words = words_of(catalog)
    if step.kind == "discard":
        return words["discard"]
    if step.kind == "exchange":
        return words["exchange"].format(row=colour(step.row, catalog), pos=step.pos)
    if step.card == JOKER:
        laid = words["joker_as"].format(row=colour(step.row, catalog), pos=step.pos)
    else:
        laid = words["own_place"].format(card=face(step.card, catalog).caption)
    if step.kind == "link":
        return words["linked"].format(laid=laid, source=colour(step.source, catalog),
                                      pos=step.pos)
    return laid


class ElevensPicture(Picture):
    """The :class:`layouts.picture.Picture` of Elevens."""

    tones = (*TONES.values(), "black")

    def draw(self, view: ElevensView, lines: tuple[Line, ...], context: Context) -> Json:
        cat = context.catalog
        words = words_of(cat)
        targets = Targets(lines)
        legal = context.legal_moves
        mine = view.turn == view.seat and not view.over
        chosen = context.pending.card if isinstance(context.pending, Chosen) else None
        cards = []
        for target, each in zip(targets.labels(HAND_LINE), view.hand, strict=True):
            marks = [words["can_play"]] if mine and options(legal, each) else []
            cards.append(elevens_card(each, cat, target, marks))
        hand = [group("", cards)]
        held = self._held(view, cat)
        if held is not None:
            hand.append(held)
        actions: list[Json] = []
        if chosen is not None:
            actions.append(self._places(chosen, legal, targets, cat))
        actions += self._commands(targets, cat)
        if not actions and not view.over:
            actions.append(text(words["wait"]))
        return {"status": self._status(view, context),
                "table": [self._row(view, row, targets, cat) for row in view.order],
                "hand": hand, "actions": actions,
                "help": words["help_beginner" if view.beginner else "help"].format(
                    limit=view.limit)}

    @staticmethod
    def _status(view: ElevensView, context: Context) -> list[str]:
        words = words_of(context.catalog)
        found = []
        if view.over:
            found.append(words["over"])
        elif view.turn == view.seat:
            found.append(words["your_turn"])
            found.append(context.catalog.count("picture.played", view.played,
                                               count=view.played, limit=view.limit))
        elif view.turn is not None:
            found.append(words["turn_of"].format(name=context.names[view.turn]))
        found.append(context.catalog.count("picture.stock", view.stock_size,
                                           count=view.stock_size))
        if not view.beginner:
            links = ", ".join(f"{context.names[seat]} {count}"
                              for seat, count in enumerate(view.link_cards))
            found.append(words["links"].format(links=links))
        return found

    @staticmethod
    def _row(view: ElevensView, row: str, targets: Targets, cat: Catalog) -> Json:
        """A row as its places from the lowest to the highest, the 11 in the middle; its
        name says what lies in it, as a reader pans it."""
        words = words_of(cat)
        cells = view.rows[row]
        links = dict(view.links_at(row))
        items: list[Json] = []
        for pos in range(view.lowest, view.highest + 1):
            laid = cells.get(pos)
            if laid is None:
                items.append({"kind": "empty", "text": str(pos)})
                continue
            marks = [words["link_to"].format(row=colour(links[pos], cat))] if pos in links else []
            if laid == JOKER:
                exchange: Hashable = PlayMove(Step("exchange", f"{row}{pos}", row, pos))
                target = targets.of(row_key(row), exchange)
                items.append(elevens_card(JOKER, cat, target, marks, words["joker_at"].format(
                    row=colour(row, cat), pos=pos)))
            else:
                items.append(elevens_card(laid, cat, None, marks))
        parts = [str(low) if low == high else words["span"].format(low=low, high=high)
                 for low, high in segments(cells)]
        jokers = [str(pos) for pos, laid in sorted(cells.items()) if laid == JOKER]
        summary = ", ".join(parts) or words["row_empty"]
        if jokers:
            summary += words["jokers_at"].format(places=", ".join(jokers))
        name = words["row"].format(row=colour(row, cat), cards=summary)
        return group(name[:1].upper() + name[1:], items, kind="line")

    @staticmethod
    def _held(view: ElevensView, cat: Catalog) -> Json | None:
        """The player's link cards and bonus cards, as cards."""
        words = words_of(cat)
        if view.beginner:
            return None
        items = [elevens_card(LINK_CARD, cat) for _ in range(view.link_cards[view.seat])]
        items += [elevens_card(BONUS_CARD, cat) for _ in range(view.bonuses[view.seat])]
        return group(words["held"], items, note=cat.count("picture.bonus_left",
                                                          view.bonus_left,
                                                          count=view.bonus_left))

    @staticmethod
    def _places(chosen: str, legal: Sequence[Hashable], targets: Targets,
                cat: Catalog) -> Json:
        """Where the chosen card can go: its places (row by row for a joker's many), back,
        cancel: the choice line in words."""
        words = words_of(cat)
        items = []
        for row, line in targets.rows(CHOICE_LINE):
            for column, region in enumerate(line.regions):
                routed, target = region.target, f"{row}.{column}"
                if isinstance(routed, PlayMove) and isinstance(routed.move, Step):
                    items.append(button(step_words(routed.move, cat), target))
                elif isinstance(routed, Ask) and isinstance(routed.pending, Chosen):
                    wanted = routed.pending.row
                    count = sum(1 for step in options(legal, chosen) if step.row == wanted)
                    items.append(button(cat.count("picture.in_row", count,
                                                  row=colour(wanted, cat), count=count)
                                        if wanted else words["all_rows"], target))
                elif routed is not None:
                    items.append(button(words["cancel"], target))
        return group(words["where"].format(card=face(chosen, cat).caption), items,
                     kind="column")

    @staticmethod
    def _commands(targets: Targets, cat: Catalog) -> list[Json]:
        words = words_of(cat)
        screen = cat.section("screen")
        found = []
        for target, region in targets.each(COMMAND_LINE):
            for name in ("end", "pass", "draw", "undo", "discard"):
                if target is not None and region.text == str(screen[name]):
                    found.append(button(words[f"do_{name}"], target))
        return found


PICTURE = ElevensPicture()
