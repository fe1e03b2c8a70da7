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


def test_catalog_fills_placeholders_from_the_game_then_the_common_words():
    cat = Catalog.load("uno", "en")
    assert cat.text("uno_play") == "play"
    assert cat.text("refused", why="no") == "Refused: no"


def test_seat_secret_shows_its_cards_to_its_seat_only():
    from dataclasses import dataclass

    from games.core import SeatSecret

    @dataclass(frozen=True)
    class Drew(SeatSecret):
        seat: int
        count: int
        cards: tuple[str, ...] | None

    drew = Drew(1, 2, ("r5", "b7"))
    assert events_for([drew], 1) == [drew]
    assert events_for([drew], 0) == [Drew(1, 2, None)]


def test_random_state_in_a_position_is_seed_and_words_or_the_whole_state():
    import pytest

    from games.core import BadState, rng_from_text, rng_text

    rng = random.Random(7)
    rng.random()
    rng.shuffle(list(range(50)))
    text = rng_text(rng, seed=7)
    assert text.startswith("7+")
    again, seed = rng_from_text(text)
    assert seed == 7 and again.getstate() == rng.getstate()
    whole = rng_text(rng)  # no seed known: the whole state
    assert whole.startswith("mt:") and rng_from_text(whole)[0].getstate() == rng.getstate()
    assert rng_text(rng, seed=8).startswith("mt:")  # not where seed 8 leads
    for bad in ("x", "7+", "7+-1", "mt:1:abc", "1+" + "9" * 9, "٧+3"):
        with pytest.raises(BadState):
            rng_from_text(bad)


def test_box_data_is_a_fresh_copy_and_a_game_without_a_box_is_refused():
    import pytest

    from games.core import DataProblem, box_data

    first = box_data("uno")
    first["deck"]["0"] = 99
    assert box_data("uno")["deck"]["0"] == 1
    for name in ("chess", "../uno", ""):
        with pytest.raises(DataProblem):
            box_data(name)
