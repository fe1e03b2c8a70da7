"""The turn built on the display: select, make and grow sets, take from the table, undo,
reset, hint; the result is one table move the engine judges."""

from brailledev.table.turntimer import announcements
from games.core import Reason
from games.rummikub.engine import Table
from layouts.catalog import Catalog
from layouts.rummikub.work import Work
from tests.games.test_rummikub_engine import rigged


def test_rum_4_initial_meld_built_tile_by_tile():
    game = rigged("", ["K10 K11 K12 R1", "B2"], melded=(False, True))
    work = Work.start(game.view(0))
    for _ in range(3):
        work = work.select_rack(0)
    work = work.new_set()
    move = work.done()
    assert move == Table((("K10", "K11", "K12"),))
    game.play(0, move)
    assert game.racks[0] == ["R1"]


def test_rum_5_split_a_run_by_taking_its_tiles():
    game = rigged("R4 R5 R6 R7 R8", ["R6 K1", "Y1"])
    work = Work.start(game.view(0))
    work = work.take(0, 4)   # R8
    work = work.take(0, 3)   # R7
    work = work.select_rack(work.rack.index("R6"))
    work = work.new_set()
    assert work.sets == (("R4", "R5", "R6"), ("R6", "R7", "R8"))
    game.play(0, work.done())
    assert sorted(game.table) == [("R4", "R5", "R6"), ("R6", "R7", "R8")]


def test_rum_6_joker_exchange_by_routing():
    game = rigged("K4 J K6", ["K5 R9 B9", "Y2"])
    work = Work.start(game.view(0))
    work = work.take(0, 1)                       # the joker leaves its set
    work = work.select_rack(work.rack.index("R9"))
    work = work.select_rack(work.rack.index("B9"))
    work = work.new_set()                        # J R9 B9
    work = work.select_rack(work.rack.index("K5"))
    work = work.add_to(0)                        # K4 K5 K6
    game.play(0, work.done())
    assert ("K4", "K5", "K6") in game.table and game.racks[0] == []


def test_invalid_sets_are_marked_with_their_reason_and_undo_reset():
    game = rigged("B4 B5 B6", ["B3 K8", "Y1"])
    work = Work.start(game.view(0))
    work = work.select_rack(work.rack.index("K8"))
    work = work.add_to(0)
    assert set(work.problems()) == {0}
    reason = work.done()
    assert isinstance(reason, Reason) and reason.code == "invalid_set"
    assert "Set 1" in Catalog.load("rummikub", "en").reason(reason)
    undone = work.undo()
    assert undone is not None
    work = undone
    assert work.sets == (("B4", "B5", "B6"),) and work.selection
    work = work.select_rack(0)
    not_placed = work.done()
    assert isinstance(not_placed, Reason) and not_placed.code == "selection_not_placed"
    work = work.reset()
    assert work.sets == (("B4", "B5", "B6"),) and work.rack == ("K8", "B3")
    assert work.undo() is None


def test_deselect_returns_a_tile_where_it_came_from():
    game = rigged("B4 B5 B6 B7", ["B3", "Y1"])
    work = Work.start(game.view(0))
    work = work.take(0, 3)
    work = work.select_rack(0)
    work = work.deselect(0)
    work = work.deselect(0)
    assert work.sets == (("B4", "B5", "B6", "B7"),) and work.rack == ("B3",)


def test_rum_10_hint_applied_is_a_legal_move():
    game = rigged("K1 K2 K3 | R7 B7 Y7", ["K4 K7 Y1 Y2 Y3", "B1"])
    view = game.view(0)
    work = Work.start(view)
    hint = work.hint(view)
    work = work.apply_hint(hint)
    assert hint.count == 5
    game.play(0, work.done())
    assert game.is_over()


def test_every_action_leaves_the_state_it_came_from_unchanged():
    game = rigged("B4 B5 B6", ["B3 K8", "Y1"])
    start = Work.start(game.view(0))
    chosen = start.select_rack(0)
    grown = chosen.add_to(0)
    assert (start.rack, start.selection, start.sets) == (("K8", "B3"), (), (("B4", "B5", "B6"),))
    assert chosen.selection and chosen.sets == start.sets
    assert grown.undo() == chosen and chosen.undo() == start
    assert start.new_set() is start and start.add_to(0) is start   # nothing selected: no step


def test_rum_7_time_announced_at_one_minute_and_fifteen_seconds():
    assert announcements(61.0, 59.9) == [60]
    assert announcements(59.0, 30.0) == []
    assert announcements(16.0, 14.0) == [15]
    assert announcements(70.0, 10.0) == [60, 15]
    assert Catalog.load("rummikub", "fr").count("time_left", 15, count=15) == \
        "Plus que 15 secondes."
    assert Catalog.load("rummikub", "fr").count("time_left", 1, count=1) == \
        "Plus que 1 seconde."
