"""Computer opponents for Rummikub, from a seat's view to a move.

- ``random``: lays some sets it can make from its rack (and, once melded, adds tiles to the
  ends of table sets) at random, or draws;
- ``greedy``: lays the first sets it finds and adds what it can to table sets, no
  rearranging;
- ``solver`` (also ``heuristic``, the default opponent's name in every game): the exact best
  move (RUM-10), keeping its jokers back while nobody is near the end and it can play
  without them.

    bot = BOTS["solver"](seed=3)
    move = bot.choose(game.view(seat), [])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from games.core import BotMaker, Reason, SeededBot
from games.rummikub.engine import Draw, Move, RummikubView, Table
from games.rummikub.solver import solve
from games.rummikub.tiles import (
    COLOURS,
    JOKER,
    TileSet,
    arrange,
    is_joker,
)


def rack_sets(rack: Sequence[str]) -> list[TileSet]:
    """Every run of 3-5 and group of 3-4 that the rack's number tiles can make, in rack
    order (runs by colour, then groups by number)."""
    have = Counter(rack)
    found: list[TileSet] = []
    for colour in COLOURS:
        for low in range(1, 12):
            for length in (3, 4, 5):
                run = tuple(f"{colour}{n}" for n in range(low, low + length))
                if low + length - 1 <= 13 and all(have[t] for t in run):
                    found.append(run)
    for number in range(1, 14):
        present = [f"{c}{number}" for c in COLOURS if have[f"{c}{number}"]]
        if len(present) >= 3:
            found.append(tuple(present))
            if len(present) == 4:
                found.extend(tuple(p for p in present if p != skip) for skip in present)
    return found


def _pick_sets(rack: Sequence[str], candidates: list[TileSet]) -> list[TileSet]:
    """Take candidate sets in order while the rack still holds their tiles."""
    left = Counter(rack)
    chosen = []
    for tile_set in candidates:
        need = Counter(tile_set)
        if all(left[t] >= k for t, k in need.items()):
            left -= need
            chosen.append(tile_set)
    return chosen


def _add_to_table(table: list[TileSet], rack: list[str],
                  order: Callable[[list[int]], list[int]]) -> list[str]:
    """Put rack tiles at the ends of table runs or into groups of 3, one at a time; returns
    what is left of the rack."""
    left = list(rack)
    progress = True
    while progress:
        progress = False
        for index in order(list(range(len(table)))):
            for tile in list(left):
                if is_joker(tile):
                    continue
                for grown in ((*table[index], tile), (tile, *table[index])):
                    arranged = arrange(grown)
                    if not isinstance(arranged, Reason):
                        table[index] = arranged.tiles
                        left.remove(tile)
                        progress = True
                        break
                if progress:
                    break
            if progress:
                break
    return left


def _meld_value(sets: Sequence[TileSet]) -> int:
    total = 0
    for tile_set in sets:
        arranged = arrange(tile_set)
        if not isinstance(arranged, Reason):
            total += arranged.value
    return total


class SimpleBot(SeededBot):
    """``random`` (shuffled choices) and ``greedy`` (first found) share this logic."""

    shuffle = False

    def order(self, items: list[int]) -> list[int]:
        if self.shuffle:
            self.rng.shuffle(items)
        return items

    def choose(self, view: RummikubView, legal: Sequence[Move]) -> Move | None:
        rack = list(view.hand)
        candidates = rack_sets(rack)
        if self.shuffle:
            self.rng.shuffle(candidates)
        sets = _pick_sets(rack, candidates)
        melded = view.melded[view.seat]
        if not melded:
            if _meld_value(sets) < view.initial_meld:
                return Draw()
            return Table((*view.table, *sets))
        left = Counter(rack)
        for tile_set in sets:
            left -= Counter(tile_set)
        table = [*view.table, *sets]
        rest = _add_to_table(table, list(left.elements()), self.order)
        if len(rest) == len(rack):
            return Draw()
        if self.shuffle and self.rng.random() < 0.1:
            return Draw()
        return Table(tuple(table))


class RandomBot(SimpleBot):
    """Lays some sets it can make at random, or draws: ``RandomBot(1).choose(view, [])``."""

    shuffle = True


class GreedyBot(SimpleBot):
    """Lays the first sets it finds and adds what it can to table sets, no rearranging."""


class SolverBot(SeededBot):
    """The exact solver; jokers wait on the rack while every opponent holds more than
    ``near`` tiles and the rest of the rack can be played without them."""

    near = 6

    def choose(self, view: RummikubView, legal: Sequence[Move]) -> Move | None:
        initial = not view.melded[view.seat]
        best = solve(view.table, view.hand, initial=initial, initial_meld=view.initial_meld,
                     joker_penalty=view.joker_penalty)
        if not best.count:
            return Draw()
        others = [n for seat, n in enumerate(view.hand_sizes) if seat != view.seat]
        jokers = view.hand.count(JOKER)
        if (jokers and not initial and best.count < len(view.hand) and view.stock_size
                and min(others) > self.near):
            without = [t for t in view.hand if t != JOKER]
            held = solve(view.table, without, joker_penalty=view.joker_penalty)
            if held.count:
                return Table(held.table)
        return Table(best.table)


BOTS: Mapping[str, BotMaker[RummikubView, Move]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "solver": SolverBot,
    "heuristic": SolverBot,  # the name every game's default opponent goes by
}
