"""Every routing target answers on every cell of its region (issue 37, item 2): over whole
games of every game of the registry, in both languages, each screen a player meets is laid out
as the display lays it (the language's uncontracted or contracted table, at 12 or 40 cells:
each new screen one of the four ways, in turn), and the routing key over each cell of a
region with a target must find that region (not a blank, not a marker that pans, not its
neighbour); a region with a target is shown in some window. The player's own routings press
a different cell of the region each turn, so a region's last cells act as its first through
the key loop too."""

from __future__ import annotations

import pytest

from brailledev.display.braille import Translator, table_for, translator
from brailledev.display.keys import Route
from brailledev.display.window import Viewport
from brailledev.programs.session import Session
from layouts.catalog import LANGUAGES
from layouts.registry import GAMES, kit
from layouts.screen import Line, Region, Screen
from tests.games.cases import case_of
from tests.screen_player import MemoryFingers, choose, my_turn

WIDTHS = (12, 40)


def misrouted(lines: tuple[Line, ...], braille: Translator, columns: int) -> list[str]:
    """Where a routing key over a cell of a region with a target does not find that region,
    and the regions with a target no window shows: ``["hand 5 cell 3", ...]``."""
    viewport = Viewport(braille, columns)
    viewport.show(Screen(lines))
    found = []
    for number, laid in enumerate(viewport.lines):
        regions = laid.line.regions
        shown = set()
        for window_number, window in enumerate(laid.windows):
            for piece in window.pieces:
                shown.add(piece.region)
                if regions[piece.region].target is None:
                    continue
                for column in range(piece.column, piece.column + piece.stop - piece.start):
                    viewport.top, viewport.window = number, window_number
                    hit = viewport.handle(Route(column))
                    if hit is None or hit.line != number or hit.region != piece.region:
                        found.append(f"{laid.line.key} {regions[piece.region].text!r} "
                                     f"cell {column} of window {window_number}")
        found += [f"{laid.line.key} {region.text!r} never shown"
                  for index, region in enumerate(regions)
                  if region.target is not None and index not in shown]
    return found


def layout(lines: tuple[Line, ...]) -> tuple[object, ...]:
    """What routing on a screen depends on: each line's regions, their words and whether
    they have a target."""
    return tuple((line.key, tuple((region.text, region.target is not None)
                                  for region in line.regions)) for line in lines)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_cell_of_a_region_with_a_target_routes_it(game, lang):
    trial = case_of(game).trial
    session = Session.start(game, players=kit(game).default_players, seed=5, lang=lang,
                            pace=0, bots=trial.bots[-1], options=trial.options)
    fingers = MemoryFingers(session)
    # each new screen laid out one way, the ways in turn: a game meets each many times
    ways = [(translator(table), columns) for table in (table_for(lang),
                                                       table_for(lang, contracted=True))
            for columns in WIDTHS]
    laid_out: set[tuple[object, ...]] = set()  # a screen met again is laid out once
    for turn in range(600):
        session.table.run_bots()
        fingers.front.redraw()
        fingers.read_news()
        lines = session.seat.lines()
        if (seen := layout(lines)) not in laid_out:
            braille, columns = ways[len(laid_out) % len(ways)]
            laid_out.add(seen)
            assert not misrouted(lines, braille, columns), (braille.table, columns)
        if session.table.game.is_over() or not my_turn(session):
            break
        key, index = choose(session)
        fingers.route(key, index, cell=turn)
    assert session.table.game.is_over() and len(laid_out) > len(ways)


def test_the_check_finds_a_cell_that_does_not_route():
    session = Session.start("elevens", players=2, seed=1, lang="fr", pace=0)
    lines = session.seat.lines()
    braille = translator(table_for("fr"))
    assert misrouted(lines, braille, 40) == []
    # a region with a target and no cells (a label the table cannot write) is never shown
    hand = next(line for line in lines if line.key == "hand")
    empty = Region("", target=hand.regions[1].target)
    broken = tuple(Line(hand.key, (*hand.regions, empty)) if line is hand else line
                   for line in lines)
    assert misrouted(broken, braille, 40) == ["hand '' never shown"]
