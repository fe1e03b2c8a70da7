"""Uno on a web page: the hand's cards in their colours with their value, those that can be
played now marked in words; the discard pile with the colour in play, the stock and the
direction; the question due (a Wild's colour, a +4 to challenge, the drawn card to play or
keep, beside that card); draw, UNO and catch in words.

    PICTURE.draw(view, lines, context)    # {"hand": [...], "table": [...], "actions": [...]}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from games.uno.engine import UnoView
from games.uno.notation import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    CHOOSE,
    DRAW,
    KEEP,
    PLAY,
    WILDS,
    Move,
    colour_of,
)
from layouts.catalog import Catalog
from layouts.picture import Json, Picture, Targets, button, card, group, text, words_of
from layouts.screen import CHOICE_LINE, COMMAND_LINE, HAND_LINE, Ask, Context, Line, PlayMove
from layouts.uno.paper import face
from layouts.uno.screen import UnoInput, sort_hand
from layouts.uno.words import colour_name

# The page's card colour of each colour letter (a wild card is drawn black).
TONES = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "w": "black"}
# What an action card shows big, for its value.
SYMBOLS = {"wi": "W", "wi+4": "+4", "sk": "⊘", "rv": "⇄"}


def uno_card(card_text: str, catalog: Catalog, target: str | None = None,
             marks: Sequence[str] = (), chosen: bool = False, lifted: bool = False) -> Json:
    """A card with its tone and the value it shows big: ``uno_card("rsk", catalog)``."""
    colour = colour_of(card_text)
    value = card_text if card_text in WILDS else card_text[len(colour):]
    return card(face(card_text, catalog), big=SYMBOLS.get(value, value),
                tone=TONES[colour or "w"], target=target, marks=marks, chosen=chosen,
                lifted=lifted)


def _input(context: Context) -> UnoInput:
    return context.pending if isinstance(context.pending, UnoInput) else UnoInput()


class UnoPicture(Picture):
    """The :class:`layouts.picture.Picture` of Uno."""

    tones = tuple(TONES.values())

    def draw(self, view: UnoView, lines: tuple[Line, ...], context: Context) -> Json:
        cat = context.catalog
        words = words_of(cat)
        targets = Targets(lines)
        said = _input(context)
        playable = {move.card for move in context.legal_moves
                    if isinstance(move, Move) and move.kind == PLAY}
        cards = []
        for target, each in zip(targets.labels(HAND_LINE), sort_hand(view.hand, view.colours),
                                strict=True):
            marks = [words["can_play"]] if each in playable else []
            chosen = each == said.wild
            if chosen:
                marks.append(words["chosen"])
            cards.append(uno_card(each, cat, target=target, marks=marks, chosen=chosen,
                                  lifted=each in playable))
        hand = [group("", cards)]
        drawn = self._drawn(view, targets, context)
        if drawn is not None:
            hand.append(drawn)
        return {"status": self._status(view, context), "table": [self._pile(view, cat)],
                "hand": hand, "actions": self._actions(view, targets, context),
                "help": words["help"]}

    @staticmethod
    def _status(view: UnoView, context: Context) -> list[str]:
        words = words_of(context.catalog)
        found = []
        if view.turn == view.seat:
            found.append(words["your_turn"])
        elif view.turn is not None:
            found.append(words["turn_of"].format(name=context.names[view.turn]))
        if view.players > 2:
            found.append(words["left" if view.direction > 0 else "right"])
        return found

    @staticmethod
    def _pile(view: UnoView, cat: Catalog) -> Json:
        words = words_of(cat)
        items = [uno_card(view.top, cat)] if view.top else []
        colour = (words["colour_in_play"].format(colour=colour_name(view.colour, cat))
                  if view.colour else words["no_colour"])
        stock = cat.count("picture.stock", view.stock_size, count=view.stock_size)
        return group(words["pile"], items, note=f"{colour}. {stock}")

    @staticmethod
    def _drawn(view: UnoView, targets: Targets, context: Context) -> Json | None:
        """The drawn card's question, beside that card: play it or keep it."""
        if view.phase != "drawn" or not view.drawn or view.turn != view.seat:
            return None
        cat = context.catalog
        words = words_of(cat)
        said = _input(context)
        if said.wild:  # its colour is asked now
            return None
        play = targets.find(CHOICE_LINE, lambda target: isinstance(target, (PlayMove, Ask))
                            and target != PlayMove(Move(KEEP)))
        items = [uno_card(view.drawn, cat)]
        if play is not None:
            items.append(button(words["play_drawn"], play))
        items.append(button(words["keep_drawn"], targets.of(CHOICE_LINE, PlayMove(Move(KEEP)))))
        return group(words["drawn"], items, kind="column")

    @staticmethod
    def _actions(view: UnoView, targets: Targets, context: Context) -> list[Json]:
        cat = context.catalog
        words = words_of(cat)
        said = _input(context)
        found: list[Json] = []
        mine = view.turn == view.seat
        if said.wild and mine:
            colours = [button(colour_name(colour, cat), targets.of(
                CHOICE_LINE, PlayMove(Move(PLAY, said.wild, colour, said.uno))))
                for colour in view.colours]
            colours.append(button(words["cancel"], targets.of(CHOICE_LINE,
                                                              Ask(replace(said, wild="")))))
            name = face(said.wild, cat).caption
            found.append(group(words["ask_colour"].format(card=name), colours, kind="column"))
        elif mine and view.phase == "choose":
            colours = [button(colour_name(colour, cat),
                              targets.of(CHOICE_LINE, PlayMove(Move(CHOOSE, colour=colour))))
                       for colour in view.colours]
            found.append(group(words["ask_first_colour"].format(
                card=face(view.top, cat).caption), colours, kind="column"))
        elif mine and view.phase == "challenge" and view.challenge_from >= 0:
            found.append(group(
                words["ask_challenge"].format(name=context.names[view.challenge_from]),
                [button(words["challenge"], targets.of(CHOICE_LINE,
                                                       PlayMove(Move(CHALLENGE)))),
                 button(words["accept"], targets.of(CHOICE_LINE, PlayMove(Move(ACCEPT))))],
                kind="column"))
        draw = targets.of(COMMAND_LINE, PlayMove(Move(DRAW)))
        if draw is not None:
            found.append(button(words["draw"], draw))
        uno = targets.find(COMMAND_LINE, lambda target: isinstance(target, Ask))
        if uno is not None:
            found.append(button(words["say_uno"], uno, pressed=said.uno))
        if view.catchable >= 0 and view.catchable != view.seat:
            catch = targets.of(COMMAND_LINE, PlayMove(Move(CATCH, target=view.catchable)))
            found.append(button(words["catch"].format(name=context.names[view.catchable]),
                                catch))
        if not found and not mine and view.turn is not None:
            found.append(text(words["wait"]))
        return found


PICTURE = UnoPicture()
