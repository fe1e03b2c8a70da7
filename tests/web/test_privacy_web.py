"""A web seat never receives another seat's hidden cards: every byte the room sends a web
seat during whole games of all five games is recorded the moment it is sent, and checked
against the table as it is at that moment: only words and the seat's own picture, never a
view, an event or a legal move; the hand drawn on the page is exactly the seat's own; no
other seat's hidden card (held by them and nowhere in the seat's own view) shows as a card
anywhere on the page; every count is the public one."""

from __future__ import annotations

import functools
import json
from collections import Counter
from dataclasses import fields, is_dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brailledev.network.protocol import Hello
from brailledev.network.server.room import Room, Settings
from brailledev.network.stores import open_store
from games.domino.grid import card_text
from layouts.registry import GAMES, kit
from layouts.screen import Line

WEB_SEAT = 0


def cards_in(value: Any) -> set[str]:
    """Every card a view holds anywhere, in the game's notation: its strings, Domino's
    pairs of pips, Elements' cards; whatever is not a card is dropped later."""
    if isinstance(value, str):
        return {value}
    if hasattr(value, "colour") and hasattr(value, "value"):  # an Elements card
        return {str(value)}
    if isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value):
        return {card_text(value)}
    if is_dataclass(value) and not isinstance(value, type):
        return set().union(*(cards_in(getattr(value, f.name)) for f in fields(value)))
    if isinstance(value, dict):
        return cards_in(list(value.keys())) | cards_in(list(value.values()))
    if isinstance(value, (list, tuple, set, frozenset)):
        return set().union(set(), *(cards_in(each) for each in value))
    return set()


def labels(cards: set[str], game: str, lang: str) -> set[str]:
    """The labels of those of ``cards`` that are cards of the game."""
    deck, catalog = kit(game).deck, kit(game).catalog(lang)
    assert deck is not None
    found = set()
    for card in cards:
        try:
            found.add(" ".join(deck.face(card, catalog).lines))
        except (KeyError, ValueError, IndexError, AttributeError):
            continue
    return found


def drawn_cards(picture: Any) -> list[dict[str, Any]]:
    """Every card the picture draws, wherever it lies."""
    if isinstance(picture, dict):
        own = [picture] if picture.get("kind") == "card" else []
        return own + [card for value in picture.values() for card in drawn_cards(value)]
    if isinstance(picture, list):
        return [card for each in picture for card in drawn_cards(each)]
    return []


class RecordingPeer:
    """A web page as the room sees it, checking each frame as it is sent."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.seat = -1
        self.web = True
        self.screen: tuple[int, tuple[Line, ...], str] | None = None
        self.drawn: Any = None
        self.said: tuple[int, int | None] | None = None
        self.told = 0
        self.protocol = 1
        self.view: Any = None
        self.seats = ""
        self.answered = ""
        self.frames = 0
        self.cards_checked = 0
        self.dropped = False

    def send(self, text: str) -> None:
        self.frames += 1
        frame = json.loads(text)
        assert frame["type"] in ("welcome", "screen", "messages"), frame["type"]
        for secret in ('"view"', '"events"', '"state"', '"legal"'):
            assert secret not in text
        if frame["type"] == "screen":
            self.check(frame)

    def drop(self) -> None:
        self.dropped = True

    def check(self, frame: dict[str, Any]) -> None:
        room, game = self.room, self.room.settings.game
        lang = room.seats[WEB_SEAT].lang
        table = room.table
        picture = frame["table"]
        counts = [player["count"] for player in picture["players"]]
        assert counts == [len(table.view(seat).hand) for seat in range(table.players)]
        own = table.view(WEB_SEAT)
        hand = Counter(card["label"] for card in drawn_cards(picture["hand"][:1]))
        assert hand == Counter(labels({card}, game, lang).pop() for card in cards_in_each(own.hand))
        known = labels(cards_in(own), game, lang)
        hidden: set[str] = set()
        for seat in range(table.players):
            if seat != WEB_SEAT:
                hidden |= labels(cards_in(table.view(seat).hand), game, lang)
        shown = {card["label"] for card in drawn_cards(picture)}
        leaked = shown & (hidden - known)
        assert not leaked, leaked
        self.cards_checked += len(shown)


def cards_in_each(hand: Any) -> list[str]:
    """A hand's cards one by one (copies kept), in the game's notation."""
    return [next(iter(cards_in(card))) for card in hand]


def play_watched(game: str, seed: int, lang: str) -> RecordingPeer:
    settings_ = Settings(game, 3, 1, "random", {"match_target": 0} if game == "uno" else {},
                         seed, pace=0)
    room = Room.create("watched", settings_, open_store(":memory:"))
    peer = RecordingPeer(room)
    room.sit(Hello("watched", name="Zoe", lang=lang, web=True), peer)
    # The seat's person lets a bot play for them: the page still hears every change.
    room._change(functools.partial(room._stand_in, WEB_SEAT))
    for _ in range(3000):
        if room.over:
            break
        room._change(room.table.bot_move)
    assert room.over
    return peer


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 10**6), lang=st.sampled_from(["en", "fr"]))
def test_a_web_seat_never_receives_another_seat_s_hidden_cards(game, seed, lang):
    peer = play_watched(game, seed, lang)
    assert peer.frames > 10 and peer.cards_checked > 0
    assert not peer.dropped  # one process: its rooms never let a page go
