import random

from games.core import Event, Reason, events_for, rng_from_json, rng_state_to_json
from layouts.catalog import Catalog


def test_reason_params_round_trip():
    reason = Reason.of("card_not_in_hand", card="r7")
    assert reason.params == {"card": "r7"}
    assert str(reason) == "card_not_in_hand(card=r7)"


def test_rng_state_survives_json():
    rng = random.Random(42)
    rng.random()
    copy = rng_from_json(rng_state_to_json(rng))
    assert [copy.random() for _ in range(5)] == [rng.random() for _ in range(5)]


class Secret(Event):
    def seen_by(self, seat):
        return self if seat == 0 else None


def test_events_for_drops_what_a_seat_may_not_learn():
    public, secret = Event(), Secret()
    assert events_for([public, secret], 0) == [public, secret]
    assert events_for([public, secret], 1) == [public]


def test_common_messages_exist_in_both_languages():
    from layouts.catalog import HERE, load_toml

    en = load_toml(HERE / "common" / "en.toml")["messages"]
    fr = load_toml(HERE / "common" / "fr.toml")["messages"]
    assert set(en) == set(fr)


def test_catalog_fills_placeholders():
    cat = Catalog("x", "en", {"messages": {"a": "A {n}"}}, {"messages": {"b": "B"}})
    assert cat.text("a", n=3) == "A 3"
    assert cat.text("b") == "B"


def test_seat_secret_shows_its_cards_to_its_seat_only():
    from dataclasses import dataclass
    from typing import ClassVar

    from games.core import SeatSecret

    @dataclass(frozen=True)
    class Drew(SeatSecret):
        seat: int
        count: int
        cards: tuple[str, ...] | None
        hidden: ClassVar = {"cards": None}

    drew = Drew(1, 2, ("r5", "b7"))
    assert events_for([drew], 1) == [drew]
    assert events_for([drew], 0) == [Drew(1, 2, None)]
