"""A web seat never receives another seat's hidden cards: every byte the room sends a web
seat during whole games of all five games is recorded the moment it is sent, and checked
against the table as it is at that moment: only words and the seat's own picture, never a
view, an event or a legal move; the hand drawn on the page is exactly the seat's own; no
other seat's hidden card (held by them, not on the table, not in the seat's own hand) shows
as a card anywhere on the page; every count is the public one."""

from __future__ import annotations

import functools
import json
from collections import Counter
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


# The games whose page draws cards of its own (the others show the screen's lines, which
# the braille seats' privacy tests cover): their public cards are known here.
DRAWN = ("uno", "domino")


def hand_of(view: Any) -> list[str]:
    """A seat's own cards in the game's notation (Uno, Domino)."""
    return [card_text(card) if isinstance(card, tuple) else str(card) for card in view.hand]


def public(room: Room) -> Counter[str]:
    """Cards anyone at the table has seen face up (Uno's discard pile, Domino's laid and
    shown cards)."""
    game: Any = room.table.game  # the engine itself: its discard, its laid cards
    if room.settings.game == "uno":
        return Counter(game.discard)
    if room.settings.game == "domino":
        return Counter([card_text(place.card) for place in game.table]
                       + [card_text(card) for card in game.shown])
    return Counter()


class RecordingPeer:
    """A web page as the room sees it, checking each frame as it is sent."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.seat = -1
        self.web = True
        self.screen: tuple[int, tuple[Line, ...], str] | None = None
        self.drawn: Any = None
        self.told = 0
        self.frames = 0
        self.cards_checked = 0

    def send(self, text: str) -> None:
        self.frames += 1
        frame = json.loads(text)
        assert frame["type"] in ("welcome", "screen", "messages"), frame["type"]
        for secret in ('"view"', '"events"', '"state"', '"legal"'):
            assert secret not in text
        if frame["type"] == "screen":
            self.check(frame)

    def check(self, frame: dict[str, Any]) -> None:
        room, game = self.room, self.room.settings.game
        table = room.table
        picture = frame["table"]
        counts = [player["count"] for player in picture["players"]]
        assert counts == [len(table.view(seat).hand) for seat in range(table.players)]
        if game not in DRAWN:
            assert "cards" not in picture
            return
        own = Counter(hand_of(table.view(WEB_SEAT)))
        drawn = Counter(card["card"] for card in picture["cards"].values())
        assert drawn == own, (drawn, own)
        hidden: Counter[str] = Counter()
        for seat in range(table.players):
            if seat != WEB_SEAT:
                hidden += Counter(hand_of(table.view(seat)))
        hidden = hidden - own - public(room)
        catalog = kit(game).catalog(room.seats[WEB_SEAT].lang)
        deck = kit(game).deck
        assert deck is not None
        hidden_labels = {" ".join(deck.face(card, catalog).lines) for card in hidden}
        shown_labels = {region["text"].strip("[]") for line in frame["lines"]
                        for region in line["regions"] if "braille" in region}
        shown_labels |= {card["label"] for card in picture.get("cards", {}).values()}
        if picture.get("top"):
            shown_labels.add(picture["top"]["label"])
        leaked = shown_labels & hidden_labels - {" ".join(deck.face(card, catalog).lines)
                                                 for card in own + public(room)}
        assert not leaked, leaked
        self.cards_checked += len(shown_labels)


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
    assert peer.frames > 10 and (peer.cards_checked > 0 or game not in DRAWN)
