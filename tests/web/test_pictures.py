"""Every game's web picture, at a room held in this process (no browser): a player who knows
only the page plays whole games by clicking what the pictures offer, and no string a
picture shows is the game's notation; what each game draws is checked against the game
(Domino's lit squares earn what the places line says, Uno's marked cards are the legal ones,
Rummikub's hint lays what it said, Elevens' rows hold their cards in their columns)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.domino.grid import bounds
from games.domino.notation import anchor_of, column_of, row_of
from games.elements.engine import KEEP
from games.rummikub.tiles import is_joker
from games.uno.notation import PLAY, Move
from layouts.domino.paper import face as domino_face
from layouts.domino.picture import places_of
from layouts.domino.screen import best_first, options_of
from layouts.picture import words_of
from layouts.registry import GAMES, kit
from layouts.rummikub.paper import face as tile_face
from layouts.rummikub.screen import turn_work
from layouts.uno.paper import face as uno_face
from tests.page_player import (
    Notation,
    PagePlayer,
    RoomPage,
    controls_of,
    question_of,
    visible_strings,
)

SETUP = {"uno": (2, {"match_target": 0}), "domino": (2, {}), "rummikub": (2, {"turn_times": 0}),
         "elevens": (2, {}), "elements": (3, {})}


def shown_notation(page: RoomPage, notation: Notation) -> list[str]:
    """The strings of the page's picture that its game's notation reads."""
    return [text for text in visible_strings(page.page.frame["table"]) if notation.reads(text)]


def turns_in(game: str, players: int, seed: int, turns: int) -> RoomPage:
    """A page of ``game`` after the player's first ``turns`` turns, picked as a person at the
    page would, the bots having played after each; it is the player's turn again."""
    page = RoomPage(game, players, seed, {})
    player = PagePlayer(game)
    for _ in range(turns):
        page.run_bots()
        page.play_turn(player)
    page.run_bots()
    return page


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_is_played_by_clicking_the_picture_alone(game):
    players, options = SETUP[game]
    page = RoomPage(game, players, seed=1, options=options)
    player, notation = PagePlayer(game), Notation(game)
    turns = 0
    while not page.game.is_over():
        page.run_bots()
        assert shown_notation(page, notation) == []
        if page.game.is_over():
            break
        page.play_turn(player)
        turns += 1
        assert turns < 300, "the game did not end"
    assert turns > 3
    assert page.page.frame["over"]
    assert shown_notation(page, notation) == []


@pytest.mark.parametrize("game", GAMES)
def test_the_pictures_are_in_french_and_show_no_notation(game):
    players, options = SETUP[game]
    page = RoomPage(game, players, seed=2, options=options, lang="fr")
    player, notation = PagePlayer(game, "fr"), Notation(game)
    english = set(words_of(kit(game).catalog("en")).values())
    for _ in range(4):
        page.run_bots()
        if page.game.is_over():
            break
        shown = list(visible_strings(page.page.frame["table"]))
        assert not english & set(shown) - set(words_of(kit(game).catalog("fr")).values())
        assert [text for text in shown if notation.reads(text)] == []
        page.play_turn(player)


def test_notation_is_caught_where_it_would_show():
    assert Notation("uno").reads("r7") and Notation("uno").reads("Draw")
    assert Notation("domino").reads("6/0@c4>") and Notation("rummikub").reads("K1 K2 K3")
    assert Notation("elevens").reads("red 5, r12") and Notation("elements").reads("pass")
    assert not Notation("uno").reads("red 7") and not Notation("uno").reads("Draw a card")


def test_uno_marks_exactly_the_cards_that_can_be_played_and_asks_the_drawn_card_beside_it():
    words = words_of(kit("uno").catalog("en"))
    player = PagePlayer("uno")
    page = RoomPage("uno", 2, 3, {"match_target": 0})
    for _ in range(60):
        page.run_bots()
        if page.game.is_over():
            page = RoomPage("uno", 2, page.room.settings.seed + 1, {"match_target": 0})
            continue
        legal = {move.card for move in page.game.legal_moves(0)
                 if isinstance(move, Move) and move.kind == PLAY}
        hand = [control for control in page.controls() if control["area"] == "hand"]
        marked = {control["text"] for control in hand if words["can_play"] in control["marks"]}
        assert marked == {uno_face(card, kit("uno").catalog("en")).caption for card in legal}
        assert all(control["lifted"] == (control["text"] in marked) for control in hand)
        if legal:
            page.play_turn(player)
            continue
        page.click(next(c for c in page.controls() if c["text"] == words["draw"]))
        if page.game.view(0).phase == "drawn":
            drawn = page.page.frame["table"]["hand"][-1]
            assert drawn["name"] == words["drawn"] and drawn["items"][0]["kind"] == "card"
            assert words["keep_drawn"] in [item.get("text") for item in drawn["items"]]
            return
    raise AssertionError("no turn began without a card to play")


def test_domino_lights_where_the_chosen_card_goes_with_the_points_the_places_line_ranks():
    page = turns_in("domino", 2, 5, 6)  # past the opening, onto a table with cards
    view = page.game.view(0)
    options = best_first(view, options_of(view))
    frame = page.page.frame["table"]
    board = frame["table"][0]
    lit = [square for row in board["rows"] for square in row["squares"]
           if square.get("target") or square.get("choices")]
    assert lit, "no square lit"
    chosen = next(card for card in frame["hand"][0]["items"] if card["chosen"])
    mine = [option for option in options if tuple(chosen["halves"]) in
            [place.card for place in places_of(option.move)]]
    best = max(view.gain(option) for option in mine)
    assert max(int(square["text"][1:]) for square in lit) == best
    x0, _, x1, _ = bounds(view.grid)
    assert len(board["columns"]) >= x1 - x0 + 1
    listed = frame["actions"][0]["items"]
    assert [item["text"].rsplit(" ", 1)[-1] for item in listed] == \
        [str(view.gain(option)) for option in mine]
    sheet = frame["below"][0]
    assert sheet["foot"][0][-1] == str(view.pads[0].total())
    assert sheet["head"][1:4] == ["10", "11", "12"] and len(sheet["rows"]) == 20


def test_domino_draws_the_two_halves_of_each_card_laid_as_one_card_and_names_it():
    page = turns_in("domino", 2, 7, 5)
    view = page.game.view(0)
    board = page.page.frame["table"]["table"][0]
    anchor = anchor_of(view.table)
    columns = {name: index for index, name in enumerate(board["columns"])}
    rows = {line["name"]: line["squares"] for line in board["rows"]}

    def square(at: tuple[int, int]) -> dict[str, str]:
        return rows[str(row_of(anchor, at[1]))][columns[column_of(anchor, at[0])]]

    steps = {"right": (1, 0), "left": (-1, 0), "down": (0, 1), "up": (0, -1)}
    opposite = {"right": "left", "left": "right", "down": "up", "up": "down"}
    catalog = kit("domino").catalog("en")
    assert len(view.table) > 5
    for place in view.table:
        (one, first), (two, second) = place.cells()
        half, other = square(one), square(two)
        assert (half["text"], other["text"]) == (str(first), str(second))
        assert steps[half["joins"]] == (two[0] - one[0], two[1] - one[1])
        assert other["joins"] == opposite[half["joins"]]
        card_name = domino_face(f"{place.card[0]}/{place.card[1]}", catalog).caption
        assert card_name in half["name"] and card_name in other["name"]


def test_a_lit_square_with_several_ways_asks_which_before_laying():
    for seed in range(12):
        page = RoomPage("domino", 2, seed, {})
        page.run_bots()
        asking = [control for control in page.controls() if control["square"]
                  and control["asks"]]
        if asking:
            answers = question_of(asking[0])
            assert len(answers) > 1 and all(answer["target"] for answer in answers)
            before = page.game.view(0).pads[0].total()
            page.click(answers[0])
            page.run_bots()
            assert page.game.view(0).pads[0].total() >= before
            return
    raise AssertionError("no lit square asked which way")


def test_rummikub_hint_says_what_it_lays_then_lays_it_marked_until_done():
    for seed in range(10):
        page = RoomPage("rummikub", 2, seed, {"turn_times": 0})
        page.run_bots()
        words = words_of(kit("rummikub").catalog("en"))
        hint = next((c for c in page.controls() if c["text"] == words["hint"]), None)
        if hint is None:
            continue
        reader = page.room.web_seats[0]
        work = turn_work(reader.view(), reader.context())
        assert work is not None
        solution = work.hint(reader.view())
        catalog = kit("rummikub").catalog("en")
        said = hint["choices"]["prompt"]
        for tile in solution.played:
            assert tile_face(tile, catalog).caption in said
        page.click(question_of(hint)[0])
        marked = [card for piece in page.page.frame["table"]["table"]
                  for card in piece.get("items", []) if words["new_tile"] in card["marks"]]
        names = Counter(card["name"] for card in marked)
        expected = Counter(tile_face(tile, catalog).caption for tile in solution.played
                           if not is_joker(tile))
        assert expected <= names
        status = page.page.frame["table"]["status"]
        if not page.game.view(0).melded[0]:
            assert any(str(solution.value) in part for part in status), status
        done = next(c for c in page.controls() if c["text"] == words["done"])
        page.click(done)
        assert page.game.view(0).hand_sizes[0] == 14 - solution.count
        return
    raise AssertionError("no seed gave a hint")


def test_elevens_rows_hold_their_cards_in_their_columns_and_a_card_with_places_asks():
    page = turns_in("elevens", 2, 3, 4)
    view = page.game.view(0)
    rows = page.page.frame["table"]["table"]
    for row, drawn in zip(view.order, rows, strict=True):
        assert len(drawn["items"]) == view.highest - view.lowest + 1
        for pos, item in enumerate(drawn["items"], start=view.lowest):
            laid = view.rows[row].get(pos)
            assert (item["kind"] == "empty") == (laid is None)
    words = words_of(kit("elevens").catalog("en"))
    joker = next((c for c in page.controls() if c["area"] == "hand" and c["text"] == "joker"
                  and c["lifted"]), None)
    if joker is not None:
        page.click(joker)
        asked = page.page.frame["table"]["actions"][0]
        assert asked["name"].startswith(words["where"].split("{")[0])
        assert len([item for item in asked["items"] if item["target"]]) > 2


def test_elements_draws_the_element_cards_with_what_lies_before_each():
    page = RoomPage("elements", 3, 4, {})
    player = PagePlayer("elements")
    page.run_bots()
    words = words_of(kit("elements").catalog("en"))
    elements = page.page.frame["table"]["table"][0]
    assert elements["name"] == words["elements"] and len(elements["items"]) == 5
    page.play_turn(player)
    page.run_bots()
    view = page.game.view(0)
    elements = page.page.frame["table"]["table"][0]
    if view.phase == "place":
        marks = [card["marks"][0] for card in elements["items"]]
        assert sum(mark != words["free"] for mark in marks) == len(view.placements)
        assert any(mark.startswith("you: ") for mark in marks)


def test_every_control_a_picture_gives_points_at_a_region_of_the_screen():
    for game in GAMES:
        players, options = SETUP[game]
        page = RoomPage(game, players, 3, options)
        page.run_bots()
        lines = page.page.screen[1]
        for control in controls_of(page.page.frame["table"]):
            targets = [control["target"]] if control["target"] else \
                [answer["target"] for answer in question_of(control)]
            for target in targets:
                row, column = map(int, target.split("."))
                assert lines[row].regions[column].target is not None, (game, control)


def test_elements_keeping_asks_only_which_cards_to_keep():
    """Phase 3's choice line routes each card kept or discarded (issue 37, item 7): on the
    page those cards are the hand's, clicked there, and the question offers the two ways to
    keep, never a cancel for each card."""
    page = RoomPage("elements", 3, 4, {})
    player = PagePlayer("elements")
    words = words_of(kit("elements").catalog("en"))
    while not page.game.is_over():
        page.run_bots()
        if page.my_turn() and page.game.view(page.page.seat).phase == KEEP:
            break
        page.play_turn(player)
    hand = [control for control in page.controls() if control["area"] == "hand"]
    page.click(hand[0])
    [asked] = [piece for piece in page.page.frame["table"]["actions"] if piece.get("items")]
    assert [item["text"] for item in asked["items"]] == [words["keep"], words["keep_all"]]
    assert asked["name"] == words["ask_keep"].format(cards=hand[0]["text"])
