"""One contract, every game of the registry: what must hold for each engine and its bots
(see ``games/core.py``), checked the same way over random seeds and random or heuristic
bots, with what each game declares the checks need (``games/<game>/trial.py``; a game
without it fails here, as OpenSpiel's simulation test runs every registered game).

- cards are never created or lost;
- a seat's view and events never hold another seat's hidden cards;
- a game and its bots saved at any move and restored play on exactly as if never stopped;
- an illegal move (or a seat that does not exist) changes nothing and says why;
- ``position()`` and ``str(move)`` read back to the same game and the same move.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import (
    DataProblem,
    IllegalMove,
    NoSuchSeat,
    Reason,
    SeatSecret,
    events_for,
)
from layouts.registry import GAMES, kit
from tests.games.cases import Case, case_of, play_moves

FEW = settings(max_examples=4, deadline=None)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_what_the_suite_needs(name):
    """Its trial: player counts the engine takes, bots it has (the first its random one),
    options it accepts, moves to play, box data to refuse, readers and positions."""
    case = case_of(name)
    trial, engine = case.trial, case.engine
    assert trial.players and all(engine.min_players <= players <= engine.max_players
                                 for players in trial.players)
    assert trial.bots and set(trial.bots) <= set(kit(name).bots) and "random" in trial.bots[0]
    assert trial.moves > 0 and trial.damaged
    assert case.new(trial.players[0], seed=1).players == trial.players[0]
    for line in trial.positions:
        game = engine.from_position(line)
        assert engine.from_position(game.position()).to_dict() == game.to_dict()


def drawn(case: Case, data: st.DataObject) -> tuple[Any, dict[int, Any], random.Random]:
    """A fresh game of ``case``, its bots and a generator, all chosen by hypothesis."""
    players = data.draw(st.sampled_from(case.players), label="players")
    seed = data.draw(st.integers(0, 10**6), label="seed")
    names = data.draw(st.sampled_from([case.bot_names[:1], case.bot_names[::-1]]),
                      label="bots")
    game = case.new(players, seed)
    return game, case.bots(game, seed, names), random.Random(seed)


def saved(game: Any) -> str:
    return json.dumps(game.to_dict())


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(data=st.data())
def test_cards_are_never_created_or_lost(name, data):
    game, bots, _ = drawn(case_of(name), data)
    box = game.box_cards()
    assert sum(box.values()) > 0 and game.census() == box
    for _ in play_moves(game, bots, case_of(name).moves):
        assert game.census() == box


def assert_events_private(events: list, players: int) -> None:
    for seat in range(players):
        for event in events_for(events, seat):
            if isinstance(event, SeatSecret) and event.seat != seat:
                assert event.cards is None, (seat, event)


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(data=st.data())
def test_views_and_events_never_hold_another_seats_hidden_cards(name, data):
    """Deal the cards a seat cannot see differently: its view (and its legal moves, which
    depend on what it knows) must not change. Secret events reach their own seat only."""
    case = case_of(name)
    game, bots, rng = drawn(case, data)
    assert_events_private(game.start_events, game.players)
    compared = 0
    for count, (_, _, events) in enumerate(play_moves(game, bots, case.moves)):
        assert_events_private(events, game.players)
        if count % 7:
            continue
        seat = rng.randrange(game.players)
        state = case.redeal(game.to_dict(), seat, rng)
        if state is None:
            continue
        twin = case.engine.from_dict(state)
        assert twin.view(seat) == game.view(seat)
        assert twin.legal_moves(seat) == game.legal_moves(seat)
        compared += 1
    assert compared or game.is_over()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=5, deadline=None)
@given(data=st.data(), stop=st.floats(0, 1))
def test_game_and_bots_saved_at_any_move_play_on_identically(name, data, stop):
    case = case_of(name)
    game, bots, _ = drawn(case, data)
    twin = case.engine.from_dict(json.loads(saved(game)))
    twin_bots = {seat: type(bot).from_dict(bot.to_dict()) for seat, bot in bots.items()}
    moves = case_of(name).moves
    stop_at = int(stop * moves)
    played = 0
    for _ in play_moves(twin, twin_bots, stop_at):
        played += 1
    # the save holds the game and every bot, as plain JSON
    table = json.dumps({"game": twin.to_dict(),
                        "bots": {seat: bot.to_dict() for seat, bot in twin_bots.items()}})
    loaded = json.loads(table)
    resumed = case.engine.from_dict(loaded["game"])
    # a bot comes back from its class (even seats), or a fresh one takes the saved state
    kinds = {seat: type(bot) for seat, bot in twin_bots.items()}
    resumed_bots = {seat: kind.from_dict(loaded["bots"][str(seat)])
                    for seat, kind in kinds.items()}
    for seat, kind in kinds.items():
        if seat % 2:
            resumed_bots[seat] = kind(seed=123)
            resumed_bots[seat].restore(loaded["bots"][str(seat)])
    for _ in play_moves(resumed, resumed_bots, moves - played):
        pass
    for _ in play_moves(game, bots, moves):
        pass
    assert saved(resumed) == saved(game)  # byte for byte
    assert {seat: bot.to_dict() for seat, bot in resumed_bots.items()} == \
        {seat: bot.to_dict() for seat, bot in bots.items()}


JUNK: list[Any] = [None, "draw", 0, object(), ("play", "r5"), Reason("x")]
NOT_SEATS: list[Any] = [-1, 99, 10**8, None, "0", 1.5, True]


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(data=st.data())
def test_an_illegal_move_changes_nothing_and_says_why(name, data):
    """Moves met elsewhere in the game, tried by any seat: refused ones change nothing and
    raise the reason ``check`` gives; accepted ones are legal moves."""
    case = case_of(name)
    game, bots, rng = drawn(case, data)
    met: list[Any] = list(JUNK)
    refused = 0
    for _, move, _ in play_moves(game, bots, case_of(name).moves):
        met.append(move)
        if game.is_over():
            break
        for _ in range(3):
            tried = rng.choice(met)
            who = rng.choice([*range(game.players), rng.choice(NOT_SEATS)])
            reason = game.check(who, tried)
            if reason is None:
                assert not case.lists_moves or tried in game.legal_moves(who)
                continue
            assert isinstance(reason, Reason) and reason.code
            before = saved(game)
            with pytest.raises(IllegalMove) as error:
                game.play(who, tried)
            assert error.value.reason == reason
            assert saved(game) == before
            refused += 1
    assert refused


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(data=st.data())
def test_seats_that_do_not_exist_get_a_reason_not_an_index_error(name, data):
    case = case_of(name)
    game, bots, _ = drawn(case, data)
    for _ in play_moves(game, bots, data.draw(st.integers(0, 30), label="moves")):
        pass
    move = next(iter(game.legal_moves(game.actors()[0])), None) if game.actors() else None
    for seat in NOT_SEATS:
        if seat is True:  # a bool is an int: True is seat 1, which exists
            continue
        assert game.legal_moves(seat) == []
        assert isinstance(game.check(seat, move), Reason)
        with pytest.raises(NoSuchSeat):
            game.view(seat)


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(data=st.data())
def test_position_line_reads_back_to_the_same_game(name, data):
    case = case_of(name)
    game, bots, _ = drawn(case, data)
    checked = 0
    for count, _ in enumerate(play_moves(game, bots, case_of(name).moves)):
        if count % 9:
            continue
        line = game.position()
        assert "\n" not in line and line.split()[0] == name
        again = case.engine.from_position(line)
        assert again.to_dict() == game.to_dict()
        assert again.position() == line
        checked += 1
    # a game read back from a save has no seed: its position holds the whole random state
    resumed = case.engine.from_dict(json.loads(saved(game)))
    assert case.engine.from_position(resumed.position()).to_dict() == game.to_dict()
    assert checked


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(data=st.data())
def test_a_moves_text_is_its_notation_and_reads_back(name, data):
    """``str(move) == game.format_move(move)`` and ``parse_move`` gives the move back, for
    every legal move met (a sample of them where there are thousands) and every bot move."""
    case = case_of(name)
    game, bots, rng = drawn(case, data)
    checked = 0

    def round_trip(seat: int, move: Any) -> None:
        nonlocal checked
        text = str(move)
        assert text == game.format_move(move)
        assert game.parse_move(seat, text) == move
        checked += 1

    for seat in game.actors():
        for move in game.legal_moves(seat):
            round_trip(seat, move)
    for seat, move, _ in play_moves(game, bots, case_of(name).moves):
        round_trip(seat, move)  # the notation reads alike on any table
        for actor in game.actors():
            legal = game.legal_moves(actor)
            for each in rng.sample(legal, min(len(legal), 12)):
                round_trip(actor, each)
    assert checked


@pytest.mark.parametrize("name", GAMES)
def test_new_takes_the_box_and_a_player_count_that_fits_by_default(name):
    case = case_of(name)
    game = case.engine.new()
    assert game.players == case.engine.default_players
    assert case.engine.min_players <= game.players <= case.engine.max_players
    assert game.census() == game.box_cards()
    # every game deals at creation, and says so to each seat (its own cards only)
    dealt = {event.seat for event in game.start_events if isinstance(event, SeatSecret)}
    assert dealt == set(range(game.players))
    too_few, too_many = case.engine.min_players - 1, case.engine.max_players + 1
    wrong: list[Any] = [too_few, too_many, 10**8, "3", 3.0]
    for players in wrong:
        with pytest.raises(DataProblem):
            case.engine.new(players=players)


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(data=st.data())
def test_views_name_the_same_things_alike(name, data):
    """Every view calls a hand's size, whose turn it is and the scores the same: ``hand_sizes``
    (the seat's own is its hand's), ``turn`` (``None`` once the game is over) and, where a
    view shows the scores, ``scores`` (the game's ``scores()``)."""
    game, bots, _ = drawn(case_of(name), data)
    for _ in play_moves(game, bots, case_of(name).moves):
        for seat in range(game.players):
            view = game.view(seat)
            assert len(view.hand_sizes) == game.players
            assert view.hand_sizes[seat] == len(view.hand)
            assert (view.turn is None) == game.is_over()
            assert view.turn is None or 0 <= view.turn < game.players
            if hasattr(view, "scores"):
                assert tuple(view.scores) == tuple(game.scores())
