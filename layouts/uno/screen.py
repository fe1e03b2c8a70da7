"""Uno on a display: status, hand, choice, commands, messages and help as lines of regions.

Routing a card plays it (a Wild first asks its colour on the choice line); the choice line
offers what is due (the colour, challenge or accept a +4, play or keep the drawn card); the
command line offers draw, UNO, catch, help and quit. Words and card labels (UNO-12) come from
``layouts/uno/{en,fr}.toml``.

    lines = SCREEN.screen(game.view(0), context)
    [line.key for line in lines]   # ['messages', 'status', 'hand', 'commands', 'help']
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Any

from games.core import Event, Json, Reason, Seat
from games.saved import ensure, field, flag, need_dict, text
from games.uno.engine import (
    Caught,
    Challenged,
    ColourChosen,
    Drew,
    FirstCard,
    HandShown,
    Kept,
    MatchOver,
    Played,
    Reshuffled,
    Reversed,
    RoundOver,
    RoundStarted,
    Skipped,
    UnoView,
)
from games.uno.notation import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    CHOOSE,
    DRAW,
    KEEP,
    PLAY,
    WILD_DRAW_FOUR,
    WILDS,
    Move,
)
from layouts.catalog import Catalog
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
    message_line,
    own_step,
    status_line,
)
from layouts.uno.words import colour_name, label, name

# The order of values within a colour on the hand line: numbers, then the action cards.
VALUE_ORDER = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "sk", "rv", "+2")
COLOURS = ("r", "y", "g", "b")
_CARDS = frozenset([*WILDS, *(colour + value for colour in COLOURS for value in VALUE_ORDER)])


@dataclass(frozen=True)
class UnoInput:
    """What the player has started but not finished: a Wild waiting for its colour, and
    whether the next card played says UNO."""

    wild: str = ""
    uno: bool = False


def top_text(view: UnoView, catalog: Catalog) -> str:
    """The top card and the colour in play (none yet on a first Wild, UNO-3)."""
    card = label(view.top, catalog)
    if not view.colour:
        return catalog.text("uno_top_no_colour", card=card)
    return catalog.text("uno_top", card=card, colour=colour_name(view.colour, catalog))


def sort_hand(hand: tuple[str, ...], colours: tuple[str, ...]) -> list[str]:
    """Cards by colour (the box's order), then by value; Wilds last."""
    def key(card: str) -> tuple[int, int]:
        if card in WILDS:
            return len(colours), WILDS.index(card)
        return colours.index(card[0]), VALUE_ORDER.index(card[1:])
    return sorted(hand, key=key)


def _input(context: Context) -> UnoInput:
    return context.pending if isinstance(context.pending, UnoInput) else UnoInput()


def _playable(card: str, context: Context) -> bool:
    """Whether the seat may play ``card`` now (UNO-4), as the game's legal moves say."""
    return any(isinstance(move, Move) and move.kind == PLAY and move.card == card
               for move in context.legal_moves)


class UnoScreen:
    """The :class:`layouts.screen.GameScreen` of Uno."""

    def screen(self, view: UnoView, context: Context) -> tuple[Line, ...]:
        lines = [message_line(context.messages, context.catalog), self.status(view, context),
                 self.hand(view, context)]
        choice = self.choice(view, context)
        if choice is not None:
            lines.append(choice)
        lines.append(self.commands(view, context))
        lines.append(help_line(context.catalog, context.catalog.text("uno_help")))
        return tuple(lines)

    def home(self, view: UnoView, context: Context) -> str:
        return CHOICE_LINE if self.choice(view, context) is not None else HAND_LINE

    def status(self, view: UnoView, context: Context) -> Line:
        """Top card and colour in play, whose turn, each opponent's card count, direction."""
        cat = context.catalog
        texts = [top_text(view, cat)]
        if view.turn is not None:
            texts.append(cat.text("uno_turn", name=context.names[view.turn]))
        else:
            texts.append(cat.text("uno_over"))
        for step in range(1, view.players):
            seat = (view.seat + step * view.direction) % view.players
            count = view.hand_sizes[seat]
            texts.append(cat.count("uno_count", count, name=context.names[seat], count=count))
        if view.players > 2:
            texts.append(cat.text("uno_direction_left" if view.direction > 0
                                  else "uno_direction_right"))
        return status_line(texts)

    def hand(self, view: UnoView, context: Context) -> Line:
        """One region per card; routing plays it (a Wild asks its colour first). With UNO
        armed the line starts by saying so (routing that disarms it): the player lands here
        after arming it, and reads the confirmation where the card is routed."""
        said = _input(context)
        regions = []
        if said.uno:
            regions.append(Region(context.catalog.text("uno_armed"),
                                  target=Ask(replace(said, uno=False),
                                             said=context.catalog.text("uno_off_said"))))
        for card in sort_hand(view.hand, view.colours):
            target: Ask | PlayMove
            if card in WILDS:
                target = Ask(replace(said, wild=card), then=CHOICE_LINE)
            else:
                target = PlayMove(Move(PLAY, card, "", said.uno))
            regions.append(Region(label(card, context.catalog), target=target, label=True))
        if not view.hand:
            regions.append(Region(context.catalog.text("uno_no_cards")))
        return Line(HAND_LINE, tuple(regions))

    def choice(self, view: UnoView, context: Context) -> Line | None:
        """What is due now, if anything: a colour, challenge or accept, play or keep."""
        cat = context.catalog
        said = _input(context)
        mine = view.turn == view.seat
        if said.wild and mine:
            regions = [Region(cat.text("uno_ask_colour", card=label(said.wild, cat)))]
            regions += [Region(colour_name(colour, cat),
                               target=PlayMove(Move(PLAY, said.wild, colour, said.uno)))
                        for colour in view.colours]
            regions.append(Region(cat.text("uno_cancel"), target=Ask(replace(said, wild=""))))
            return Line(CHOICE_LINE, tuple(regions))
        if not mine:
            return None
        if view.phase == "choose":
            regions = [Region(cat.text("uno_ask_first_colour", card=label(view.top, cat)))]
            regions += [Region(colour_name(colour, cat),
                               target=PlayMove(Move(CHOOSE, colour=colour)))
                        for colour in view.colours]
            return Line(CHOICE_LINE, tuple(regions))
        if view.phase == "challenge" and view.challenge_from >= 0:
            return Line(CHOICE_LINE, (
                Region(cat.text("uno_ask_challenge", name=context.names[view.challenge_from])),
                Region(cat.text("uno_challenge"), target=PlayMove(Move(CHALLENGE))),
                Region(cat.text("uno_accept"), target=PlayMove(Move(ACCEPT)))))
        if view.phase == "drawn" and view.drawn:
            regions = [Region(cat.text("uno_ask_drawn", card=label(view.drawn, cat)))]
            if _playable(view.drawn, context):
                play: Ask | PlayMove = (Ask(replace(said, wild=view.drawn), then=CHOICE_LINE)
                                        if view.drawn in WILDS
                                        else PlayMove(Move(PLAY, view.drawn, "", said.uno)))
                regions.append(Region(cat.text("uno_play"), target=play))
            regions.append(Region(cat.text("uno_keep"), target=PlayMove(Move(KEEP))))
            return Line(CHOICE_LINE, tuple(regions))
        return None

    def commands(self, view: UnoView, context: Context) -> Line:
        """Draw, UNO (armed or not), catch a forgetful opponent, help, quit."""
        cat = context.catalog
        said = _input(context)
        regions = []
        mine = view.turn == view.seat
        if mine and view.phase == "play":
            regions.append(Region(cat.text("uno_draw"), target=PlayMove(Move(DRAW))))
        if mine and len(view.hand) == 2 and view.phase in ("play", "drawn"):
            regions.append(Region(cat.text("uno_say_on" if said.uno else "uno_say_off"),
                                  target=Ask(replace(said, uno=not said.uno),
                                             said=cat.text("uno_off_said" if said.uno
                                                           else "uno_on_said"))))
        # A partner cannot be caught (UNO-11): the engine says so if the player tries.
        if view.catchable >= 0 and view.catchable != view.seat:
            regions.append(Region(cat.text("uno_catch", name=context.names[view.catchable]),
                                  target=PlayMove(Move(CATCH, target=view.catchable))))
        regions += help_and_quit(cat)
        return Line(COMMAND_LINE, tuple(regions))

    def prompt(self, view: UnoView, context: Context) -> str | None:
        if view.turn != view.seat:
            return None
        code = "uno_your_turn_two" if len(view.hand) == 2 else "uno_your_turn"
        return context.catalog.text(code, top=top_text(view, context.catalog))

    def explain(self, reason: Reason, context: Context) -> str:
        """The engine's reason with cards named (:func:`layouts.uno.words.name`), colour names
        and seat names in place of codes."""
        args = dict(reason.params)
        for key in ("card", "top"):
            if isinstance(args.get(key), str) and args[key] in _CARDS:
                args[key] = name(args[key], context.catalog)
        if args.get("colour") in COLOURS:
            args["colour"] = colour_name(str(args["colour"]), context.catalog)
        seat = args.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(context.names):
            args["seat"] = context.names[seat]
        return context.catalog.text(reason.code, **args)

    def echoes(self, event: Event, context: Context) -> bool:
        """The seat's card played, colour chosen, drawn card kept: its lines show them."""
        return own_step(event, context, (Played, ColourChosen, Kept))

    def describe(self, event: Event, context: Context) -> str | None:
        """An event as the display's seat learns it, in words."""
        cat = context.catalog

        def say(code: str, seat: Seat, **args: Any) -> str:
            own = seat == context.seat
            return cat.text(f"{code}_you" if own else code, name=context.names[seat], **args)

        def against(code: str, seat: Seat, other: Seat, **args: Any) -> str:
            """``seat`` acting on ``other``: the ``_yours`` form when that is the display's."""
            if other == context.seat:
                return cat.text(f"{code}_yours", name=context.names[seat], **args)
            return say(code, seat, other=context.names[other], **args)

        def cards(hand: tuple[str, ...]) -> str:
            return cat.series(name(card, cat) for card in hand)

        if isinstance(event, RoundStarted):
            return say("uno_round", event.dealer, round=event.round)
        if isinstance(event, Drew):
            if event.why == "deal":
                dealt = tuple(sort_hand(event.cards or (), COLOURS))
                return say("uno_dealt", event.seat, cards=cards(dealt))\
                    if event.seat == context.seat else None
            if event.count == 0:
                return say("uno_drew_none", event.seat)
            if event.cards:
                return say("uno_drew_cards", event.seat, cards=cards(event.cards))
            return say("uno_drew", event.seat, count=event.count)
        if isinstance(event, FirstCard):
            code = "uno_first_returned" if event.returned else "uno_first"
            return cat.text(code, card=name(event.card, cat))
        if isinstance(event, Reshuffled):
            return cat.text("uno_reshuffled", count=event.count)
        if isinstance(event, Played):
            text = say("uno_played", event.seat, card=name(event.card, cat))
            if event.card in WILDS:
                text = say("uno_played_wild", event.seat, card=name(event.card, cat),
                           colour=colour_name(event.colour, cat))
            if event.uno:
                text += " " + say("uno_said", event.seat)
            return text
        if isinstance(event, ColourChosen):
            return say("uno_chose", event.seat, colour=colour_name(event.colour, cat))
        if isinstance(event, Skipped):
            return say("uno_skipped", event.seat)
        if isinstance(event, Reversed):
            return cat.text("uno_reversed_left" if event.direction > 0 else "uno_reversed_right")
        if isinstance(event, Kept):
            return say("uno_kept", event.seat)
        if isinstance(event, Caught):
            return against("uno_caught", event.by, event.seat)
        if isinstance(event, Challenged):
            # won, the Wild Draw Four goes back to the hand it came from (UNO-6)
            code = "uno_challenged_guilty" if event.guilty else "uno_challenged_fair"
            return against(code, event.by, event.seat, card=name(WILD_DRAW_FOUR, cat))
        if isinstance(event, HandShown):
            return cat.text("uno_hand_shown", name=context.names[event.seat],
                            cards=cards(event.cards))
        if isinstance(event, RoundOver):
            scores = ", ".join(f"{context.names[seat]} {points}"
                               for seat, points in enumerate(event.scores))
            return say("uno_round_won", event.winner, count=event.points, scores=scores)
        if isinstance(event, MatchOver):
            if context.seat in event.winners:
                return cat.text("uno_match_won_you")
            return cat.count("uno_match_won", len(event.winners),
                             name=", ".join(context.names[seat] for seat in event.winners))
        return None

    def save_input(self, pending: Hashable) -> Json:
        """``{"wild": "wi", "uno": true}``; ``None`` when nothing is half made."""
        said = pending if isinstance(pending, UnoInput) else UnoInput()
        return None if said == UnoInput() else {"wild": said.wild, "uno": said.uno}

    def load_input(self, data: Json, view: UnoView) -> Hashable:
        """The saved input, its Wild one of the seat's cards."""
        if data is None:
            return None
        saved = need_dict(data, "pending")
        wild = text(field(saved, "wild", "pending"), "pending.wild", ("", *WILDS))
        ensure(not wild or wild in view.hand, "pending.wild", "not_in_hand")
        return UnoInput(wild, flag(field(saved, "uno", "pending"), "pending.uno"))


SCREEN = UnoScreen()
