"""Domino 10-11-12 on a display: the lines a player reads and what routing does."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brailledev.programs.session import Session
from games.domino import BOTS
from games.domino.bots import HeuristicBot
from games.domino.engine import Domino, Placed
from games.domino.grid import Opening, Place, card_text
from layouts.catalog import Catalog, rules_data
from layouts.domino.screen import SCREEN, DominoInput, options_of
from layouts.screen import Ask, Context, Messages, PlayMove

DATA = rules_data("domino")


def context_for(seat=0, pending=None, lang="en"):
    catalog = Catalog.load("domino", lang)
    return Context(seat, ("you", "Bo", "Cy"), Messages(), pending, catalog)


def line(lines, key):
    return next(each for each in lines if each.key == key)


def place_of(region):
    """The single-card move a places region plays."""
    assert isinstance(region.target, PlayMove) and isinstance(region.target.move, Place)
    return region.target.move


def middle_game(seed=4, moves=6):
    game = Domino.new(2, seed, DATA)
    for _ in range(moves):
        seat = game.actors()[0]
        best = max(game.options(seat), key=lambda o: o.points)
        game.play(seat, best.move)
    return game


def test_places_line_lists_the_selected_cards_placements_best_first_and_plays_them():
    game = middle_game()
    seat = game.actors()[0]
    view = game.view(seat)
    card = view.hand[0]
    lines = SCREEN.screen(view, context_for(seat, DominoInput(card)))
    regions = line(lines, "places").regions
    options = [o for o in options_of(view) if isinstance(o.move, Place) and o.move.card == card]
    assert len(regions) == len(options) > 0
    points = [int(region.text.split()[-1]) for region in regions]
    assert points == sorted(points, reverse=True)
    first = regions[0]
    place = place_of(first)
    assert game.check(seat, place) is None
    square, way_half = first.text.split()[0][:-2], first.text.split()[0][-2:]
    assert way_half == (">" if not place.vertical else "v") + str(place.first)
    assert square == game.name_move(place).split("@")[1][:-1]


def test_hand_line_selects_a_card_by_routing():
    game = middle_game()
    seat = game.actors()[0]
    view = game.view(seat)
    hand = line(SCREEN.screen(view, context_for(seat)), "hand")
    labels = sorted((card_text(c) for c in view.hand), reverse=True)
    assert [r.text.strip("[]") for r in hand.regions] == labels
    assert sum(r.text.startswith("[") for r in hand.regions) == 1
    target = hand.regions[-1].target
    assert isinstance(target, Ask) and isinstance(target.pending, DominoInput)
    chosen = line(SCREEN.screen(view, context_for(seat, target.pending)), "hand")
    assert chosen.regions[-1].text.startswith("[")


def test_grid_has_one_line_per_row_and_tells_blank_from_empty():
    game = middle_game()
    view = game.view(0)
    catalog = Catalog.load("domino", "en")
    lines = SCREEN.screen(view, context_for())
    grid = [each for each in lines if each.key.startswith("grid")]
    ys = sorted({y for _, y in view.grid})
    assert len(grid) == ys[-1] - ys[0] + 1 + 4  # the layout and two rows of margin each side
    halves = catalog.section("grid")["halves"]
    empty = catalog.section("grid")["empty"]
    assert empty not in halves and len(set(halves)) == 7
    header = line(lines, "columns")
    width = len(header.regions) - 1
    assert all(len(row.regions) == width + 1 for row in grid)
    # the row numbers are as wide as the corner above them: squares line up row under row
    assert all(len(row.regions[0].text) == len(header.regions[0].text) for row in grid)
    # the round's first card lies on c3, the column headed by c and the line of row 3
    first = view.table[0]
    x0 = min(x for x, _ in view.grid) - 2
    assert header.regions[1 + first.x - x0].text == "⠉"
    assert header.regions[first.x - x0].text == "⠃"
    assert line(lines, "grid3").regions[1 + first.x - x0].text == halves[first.first]
    cells = [r.text for row in grid for r in row.regions[1:]]
    assert cells.count(empty) == len(cells) - len(view.grid)
    assert all(len(text) == 1 for text in cells)  # one cell per square


def test_routing_an_empty_square_keeps_only_placements_covering_it():
    game = middle_game()
    seat = game.actors()[0]
    view = game.view(seat)
    chosen = next(o.move for o in options_of(view) if isinstance(o.move, Place))
    assert isinstance(chosen, Place)
    target = chosen.squares[1]
    pending = DominoInput(chosen.card, target)
    places = line(SCREEN.screen(view, context_for(seat, pending)), "places").regions
    assert places[0].target == Ask(DominoInput(chosen.card))  # back to all
    assert all(target in place_of(r).squares for r in places[1:])
    assert chosen in [place_of(r) for r in places[1:]]


def test_pad_line_and_status_show_own_pad_and_every_total():
    game = middle_game(moves=8)
    view = game.view(0)
    lines = SCREEN.screen(view, context_for())
    pad = line(lines, "pad").text
    assert pad.startswith("10:") and pad.endswith(f"Grand Total {game.scores()[0]}")
    status = line(lines, "status").text
    assert f"you {game.scores()[0]}" in status and f"Bo {game.scores()[1]}" in status


def test_opponents_placements_are_told_with_their_points():
    game = middle_game(moves=1)
    events = game.play(1, max(game.options(1), key=lambda o: o.points).move)
    placed = next(e for e in events if isinstance(e, Placed))
    text = SCREEN.describe(placed, context_for(0))
    assert text is not None and f"{placed.entry.points} points" in text
    french = SCREEN.describe(placed, context_for(0, lang="fr"))
    assert french is not None and french.startswith("Bo pose ")


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "You lay 6/2 (6 on c3, 2 on d3) and 5/1 (5 on c1, 1 on c2): 12, 5 points."),
    ("fr", "Vous posez 6/2 (6 en c3, 2 en d3) et 5/1 (5 en c1, 1 en c2) : 12, 5 points.")])
def test_a_card_laid_is_told_by_its_label_and_the_squares_of_its_halves(lang, said):
    game = Domino.new(2, 8, DATA)
    option = line(SCREEN.screen(game.view(0), context_for()), "places").regions[0]
    assert option.text == "6/2 c3>6 5/1 c1v5 12 5"   # the round's opening, both cards named
    placed = next(e for e in game.play(0, option.target.move) if isinstance(e, Placed))
    assert placed.notation == "6/2@c3> 5/1@c1v"     # what a player would type
    assert SCREEN.describe(placed, context_for(0, lang=lang)) == said


def test_screen_never_shows_another_seats_hand():
    game = middle_game(moves=3)
    for seat in range(2):
        for event in game.start_events:
            text = SCREEN.describe(event.seen_by(seat), context_for(seat))
            other = game.hands[1 - seat]
            if text and "get" in text:
                assert text.startswith("You get")
                assert all(card_text(c) not in text for c in other if c not in game.hands[seat])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_whole_game_by_routing_places_alone(tmp_path, lang):
    session = Session.start("domino", players=2, seed=5, lang=lang, bots="heuristic",
                            save=tmp_path / "domino.json", pace=0)
    session.table.run_bots()
    turns = 0
    while not session.table.game.is_over():
        lines = session.seat.lines()
        assert session.seat.home() == "places"
        places = line(lines, "places").regions
        assert session.seat.route(places[0].target)
        session.table.run_bots()
        turns += 1
        assert turns < 200
    assert session.table.game.is_over()
    resumed = Session.resume(tmp_path / "domino.json")
    assert resumed.table.game.scores() == session.table.game.scores()
    last = session.seat.history.texts[-1]
    assert ("win" in last) if lang == "en" else ("gagne" in last)


def test_opening_places_show_both_cards():
    game = Domino.new(2, 8, DATA)
    view = game.view(0)
    places = line(SCREEN.screen(view, context_for()), "places").regions
    assert all(isinstance(r.target.move, Opening) for r in places)
    first, second = places[0].target.move.first, places[0].target.move.second
    assert places[0].text.startswith("{}/{} ".format(*first.card))
    assert " {}/{} ".format(*second.card) in places[0].text


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 30), st.integers(0, 3))
def test_every_place_on_screen_is_legal_and_every_legal_place_is_on_screen(seed, moves, pick):
    game = Domino.new(2, seed, DATA)
    bots = {seat: BOTS["random"](seed + seat) for seat in range(2)}
    for _ in range(moves):
        if game.is_over():
            return
        seat = game.actors()[0]
        move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
        assert move is not None
        game.play(seat, move)
    if game.is_over():
        return
    seat = game.actors()[0]
    view = game.view(seat)
    card = sorted(view.hand)[pick % len(view.hand)]
    places = line(SCREEN.screen(view, context_for(seat, DominoInput(card))), "places").regions
    shown = [r.target.move for r in places
             if isinstance(r.target, PlayMove) and isinstance(r.target.move, Place | Opening)]
    assert all(game.check(seat, move) is None for move in shown)
    wanted = [m for m in game.legal_moves(seat)
              if card in ([m.first.card, m.second.card] if isinstance(m, Opening) else [m.card])]
    assert sorted(map(repr, shown)) == sorted(map(repr, wanted))


def test_a_refused_placement_is_told_with_its_reason(tmp_path):
    session = Session.start("domino", players=2, seed=5, lang="fr", bots="heuristic",
                            save=tmp_path / "domino.json", pace=0)
    before = session.table.game.to_dict()
    assert not session.seat.play(Place(1, 1, 0, 0, False))
    assert session.seat.history.texts[-1] == (
        "Refusé : le premier tour d'une manche pose deux cartes ensemble ; "
        "choisissez une deuxième carte.")
    assert session.table.game.to_dict() == before


def test_a_multi_row_display_shows_grid_rows_lined_up_cell_under_cell():
    from brailledev.display.braille import translator
    from brailledev.display.keys import Route
    from brailledev.display.window import Viewport
    from layouts.screen import Screen

    game = middle_game(moves=8)
    view = game.view(0)
    catalog = Catalog.load("domino", "en")
    glyphs = catalog.section("grid")
    halves, empty, letters = glyphs["halves"], glyphs["empty"], glyphs["letters"]
    for table in ("en-ueb-g1.ctb", "fr-bfu-comp6.utb"):
        viewport = Viewport(translator(table), 40, 4)
        lines = SCREEN.screen(view, context_for())
        viewport.show(Screen(lines))
        viewport.goto("columns")
        rows = viewport.rows()
        grid = [each for each in lines if each.key.startswith("grid")][:3]
        squares = len(grid[0].regions) - 1
        first = len(grid[0].regions[0].text)  # the row number and one blank cell
        assert rows[0][:first] == "\u2800" * first
        # the letters stand exactly above their squares, one cell each, no gap
        header = line(lines, "columns")
        assert rows[0][first:first + squares] == "".join(r.text for r in header.regions[1:])
        assert all(chr(ord(cell) & 0x283F) in letters for cell in rows[0][first:first + squares])
        for number, row in enumerate(rows[1:]):
            assert row[first - 1] == "\u2800"  # the blank after the row number
            assert row[first:first + squares] == "".join(r.text for r in grid[number].regions[1:])
            assert all(cell in halves or cell == empty for cell in row[first:first + squares])
            # each cell routes to exactly its square
            for column in range(squares):
                hit = viewport.handle(Route(first + column, number + 1))
                assert hit is not None and hit.region == column + 1
                assert hit.item is grid[number].regions[column + 1]
        assert viewport.route(first + squares, 0) is None




FULL_12 = ",".join(["5"] * 20)  # twenty boxes: column 12 of the pad is full (DOM-8)


def test_dom_8_places_rank_by_what_the_pad_takes_when_column_12_is_full():
    # 2/0 after 6/4 makes a 12 (face value 5, but the full column takes nothing); 3/1 down
    # from the 6/4's end makes an 11 (3 points)
    game = Domino.from_position(f"domino players=2 table=6/4@0,0> hands=2/0,3/1;5/5 "
                                f"pads=-:-:{FULL_12}:-;-:-:-:-")
    view = game.view(0)
    lines = SCREEN.screen(view, context_for(0))
    hand = line(lines, "hand").regions
    # the card of the move that scores most on this pad is chosen, not the 12's
    assert [r.text for r in hand] == ["[3/1]", "2/0"]
    for card in (None, (2, 0), (3, 1)):
        shown = line(SCREEN.screen(view, context_for(0, DominoInput(card))), "places").regions
        said = [int(region.text.split()[-1]) for region in shown]
        assert said == sorted(said, reverse=True)
        for region, points in zip(shown, said, strict=True):
            # what the line promises is what the engine writes on the pad
            twin = Domino.from_dict(game.to_dict())
            placed = twin.play(0, place_of(region))[0]
            assert isinstance(placed, Placed) and placed.entry.points == points
    best = line(lines, "places").regions[0]
    assert best.text.endswith(" 11 3")
    # the heuristic bot weighs the same value: with nothing else to weigh it takes an 11
    move = HeuristicBot(1, caution=0).choose(view, game.legal_moves(0))
    assert next(o for o in game.options(0) if o.move == move).lines == (11,)


def test_two_copies_of_a_card_show_one_selected():
    game = Domino.from_position("domino players=2 table=6/4@0,0> hands=3/3,3/3,2/1;5/5")
    view = game.view(0)
    for pending in (None, DominoInput((3, 3))):
        hand = line(SCREEN.screen(view, context_for(0, pending)), "hand").regions
        assert [r.text for r in hand].count("[3/3]") + [r.text for r in hand].count("[2/1]") == 1


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_after_the_game_the_screen_gives_the_grand_totals_not_a_wait(lang):
    game = Domino.new(2, 6, DATA)
    bots = {seat: BOTS["random"](seat) for seat in range(2)}
    last: list = []
    while not game.is_over():
        seat = game.actors()[0]
        move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
        assert move is not None
        last = game.play(seat, move)
    catalog = Catalog.load("domino", lang)
    totals = [pad.total() for pad in game.pads]
    for seat in range(2):
        view = game.view(seat)
        context = context_for(seat, lang=lang)
        lines = SCREEN.screen(view, context)
        places = line(lines, "places").text
        assert catalog.text("dom_wait") not in places
        assert places.startswith(catalog.text("dom_game_over"))
        names = context.names
        word = "Total général" if lang == "fr" else "Grand Total"
        assert f"{word}{' :' if lang == 'fr' else ':'} {names[0]} {totals[0]}, " \
               f"{names[1]} {totals[1]}." in places
        assert catalog.text("dom_game_over") in line(lines, "status").text
        assert SCREEN.home(view, context) == "places"
        ended = SCREEN.describe(last[-2].seen_by(seat), context)  # the last round's end
        assert ended is not None and f"{names[1]} {totals[1]}" in ended
        assert line(lines, "pad").text.endswith(f"{word} {totals[seat]}")
