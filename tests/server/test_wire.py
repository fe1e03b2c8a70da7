"""The wire's codec: every view, event, legal move and reason of every game goes over plain
JSON and comes back equal, over whole games of random play; what is not a value of the wire
is refused, never built."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brailledev.network.protocol import lay_over, to_json, write_frame, write_news
from brailledev.network.store import dump, pack
from brailledev.network.wire import Codec, WireError, codec_for
from brailledev.table.core import Table, TimeLeft
from brailledev.table.presence import Said, SatDown, SeatState
from games.core import Reason, events_for
from layouts.registry import GAMES, kit


def through_json(codec: Codec, value: Any) -> Any:
    return codec.decode(json.loads(json.dumps(codec.encode(value))))


def bot_table(game: str, players: int, seed: int) -> Table:
    bots = ",".join(name for name in ("heuristic", "random") if name in kit(game).bots)
    return Table.new(game, players, seed, people=(), bots=bots)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_views_events_and_legal_moves_of_whole_games_round_trip(game, seed, players):
    codec = codec_for(game)
    engine = kit(game).game
    table = bot_table(game, max(engine.min_players, min(players, engine.max_players)), seed)
    heard: list[tuple[int, list]] = []
    table.listen(lambda seat, events: heard.append((seat, list(events))))
    for seat in range(table.players):
        start = tuple(events_for(table.start_events, seat))
        assert through_json(codec, start) == start
    moves = 0
    while not table.game.is_over() and moves < 400:
        for seat in range(table.players):
            view = table.view(seat)
            assert through_json(codec, view) == view
            legal = tuple(table.legal(seat))
            assert through_json(codec, legal) == legal
            for move in legal[:10]:
                again = through_json(codec, move)
                text = table.game.format_move(again)
                assert table.game.parse_move(seat, text) == move
        table.bot_move()
        moves += 1
        for _, events in heard:
            assert through_json(codec, tuple(events)) == tuple(events)
        heard.clear()
    assert table.game.is_over()


def test_table_and_presence_values_round_trip_in_every_game():
    values = (TimeLeft(1, 60), SatDown(0, "Zoé", 1), Said(2, "Ann", "bien joué !"),
              (SeatState("Ann", "person", True, False), SeatState("", "bot")))
    for game in GAMES:
        codec = codec_for(game)
        for value in values:
            assert through_json(codec, value) == value


def test_shapes_that_json_would_lose_come_back_as_they_were():
    codec = codec_for("domino")
    value = ({(0, 1): 5, (2, 3): 6}, [1, 2], frozenset({"a"}), {"r": {3: "x"}}, 1.5, None)
    assert through_json(codec, value) == value
    assert type(through_json(codec, [1])) is list


def test_reasons_travel_as_code_and_arguments():
    codec = codec_for("uno")
    reason = Reason.of("card_not_in_hand", card="r7", seats=(1, 2))
    data = json.loads(json.dumps(codec.encode_reason(reason)))
    assert data == {"code": "card_not_in_hand", "args": {"card": "r7", "seats": [1, 2]}}
    assert codec.decode_reason(data) == reason


@pytest.mark.parametrize("data", [
    {"$": "Popen", "args": "rm -rf /"},          # a class of no game
    {"$": "Played", "seat": 1, "evil": 2},       # a field the class has not
    {"$": "Played"},                             # fields missing
    {"$enum": "Played", "value": 1},             # a record is no enumeration
    {"$map": [[[1, 2], 3, 4]]},                  # a map entry that is no pair
    {"$map": [[{"$list": []}, 1]]},              # a key that cannot be a key
    {"unknown": 1},
])
def test_what_the_codec_never_writes_is_refused(data):
    with pytest.raises(WireError):
        codec_for("uno").decode(data)


def test_nesting_deeper_than_any_view_is_refused():
    deep: Any = 1
    for _ in range(100):
        deep = [deep]
    with pytest.raises(WireError):
        codec_for("uno").decode(deep)


def test_another_games_class_is_not_written_on_this_games_wire():
    domino_view = bot_table("domino", 2, 1).view(0)
    with pytest.raises(WireError):
        codec_for("uno").encode(domino_view)


@given(seq=st.integers(0, 10**9), events=st.lists(st.text()), seats=st.lists(st.integers()),
       state=st.dictionaries(st.text(), st.integers() | st.text() | st.none()))
def test_news_from_parts_encoded_once_is_the_frame_written_whole(seq, events, seats, state):
    state.pop("seats", None)
    assert write_news(seq, dump(events), state, dump(seats)) == write_frame(
        "news", seq=seq, events=events, state={**state, "seats": seats})
    # Protocol 2: the seats left out, an answer carried.
    assert write_news(seq, dump(events), state, None) == write_frame(
        "news", seq=seq, events=events, state=state)
    assert json.loads(write_news(seq, dump(events), state, None, "c7-1")) == {
        "type": "news", "seq": seq, "answer": "c7-1", "events": events, "state": state}


def standard(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("game", GAMES)
def test_the_servers_json_is_the_standard_librarys_text_for_every_games_values(game):
    codec = codec_for(game)
    engine = kit(game).game
    table = bot_table(game, max(engine.min_players, 3), seed=5)
    heard: list[list] = []
    table.listen(lambda seat, events: heard.append(list(events)))
    for _ in range(40):
        if table.game.is_over():
            break
        for seat in range(table.players):
            for value in (table.view(seat), tuple(table.legal(seat))):
                assert to_json(codec.encode(value)) == standard(codec.encode(value))
        table.bot_move()
    events = [codec.encode(tuple(each)) for each in heard]
    assert events and to_json(events) == standard(events)
    state = pack(table.to_dict())
    assert to_json(state) == standard(state)
    # Past 64 bits orjson writes no integer: json does, and the text is the same.
    assert to_json({"n": -(2**70), "é": 0.1}) == standard({"n": -(2**70), "é": 0.1})


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=2)
@given(seed=st.integers(0, 10_000))
def test_a_view_told_as_its_changes_laid_over_the_last_is_the_view_told_whole(game, seed):
    """Protocol 2's news: each seat's view after every move of a whole game, written as
    what changed since the seat's last view and laid over that one as written, is the view
    written whole; and smaller (a tenth of it in Uno; two thirds in Domino and Elevens,
    whose grid and rows, dicts, are written whole every time)."""
    codec = codec_for(game)
    table = bot_table(game, max(2, kit(game).game.min_players), seed)
    told = [codec.encode(table.view(seat)) for seat in range(table.players)]
    last = [table.view(seat) for seat in range(table.players)]
    whole = changed = 0
    while not table.game.is_over():
        table.bot_move()
        for seat in range(table.players):
            view = table.view(seat)
            changes = codec.encode_changes(view, last[seat])
            assert changes is not None and "$" not in changes
            told[seat] = lay_over(told[seat], json.loads(dump(changes)))
            assert told[seat] == codec.encode(view), f"{game}: seat {seat}"
            whole += len(dump(codec.encode(view)))
            changed += len(dump(changes))
            last[seat] = view
    assert changed < whole * 0.7, (changed, whole)


def test_changes_leave_out_only_equal_values_that_cannot_change_in_place():
    codec = codec_for("uno")
    before = SeatState("Ann", "person", True, False)
    assert codec.encode_changes(SeatState("Ann", "person", False, False), before) == {
        "connected": False}
    assert codec.encode_changes(before, before) == {}
    # Not records, or records of two classes: written whole.
    assert codec.encode_changes((1, 2), (1, 2)) is None
    assert codec.encode_changes(before, TimeLeft(1, 5)) is None
    # A list or a dict may be the engine's own, changed in place since: always written.
    shared: list[str] = ["r1"]

    @dataclasses.dataclass(frozen=True)
    class Holding:
        cards: list[str]
        rows: dict[str, int]
        count: int

    kept = Codec([Holding])
    old = Holding(shared, {"a": 1}, 3)
    shared.append("r2")
    new = Holding(shared, {"a": 1}, 3)
    assert kept.encode_changes(new, old) == {"cards": {"$list": ["r1", "r2"]},
                                             "rows": {"$map": [["a", 1]]}}
    # A value equal but of another type (1 and True) is told.
    equal_not_same = kept.encode_changes(Holding([], {}, True), Holding([], {}, 1))
    assert equal_not_same is not None and equal_not_same["count"] is True


    @dataclasses.dataclass(frozen=True)
    class One:
        count: int

    alone = Codec([One])
    assert alone.encode_changes(One(2), One(1)) == {"count": 2}
    assert alone.encode_changes(One(2), One(2)) == {}
