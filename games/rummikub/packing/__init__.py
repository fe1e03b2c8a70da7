"""The exact core of the solver: cover tiles with runs and groups, dynamic programming.

The tiles are counts per colour and number (indexed from 13 down, see ``index_of``):
``table`` counts must all be used, ``rack`` counts may be; ``must_jokers`` must be placed,
``rack_jokers`` may be. Numbers are taken from 13 down to 1 (a move's points, most of them in
the high numbers, are settled first), and in a second search from 1 up, on the counts and
joker sets mirrored: ``pack`` races the two, as a direction that leaves the slack of a
position to its last numbers may walk a long plateau of states. The state after a number is,
per colour, the sorted lengths of the runs still open (capped at 3: a run of 3 or more may
close or go on), the jokers used so far and, for an initial meld, its value so far (capped at
the threshold). Within a number the colours are decided one after the other and the tiles
left for groups are counted, then grouped with any jokers. This is the shape of van Rijn,
Takes and Vis, "Computational complexity of Rummikub", written anew.

    best = pack(table, rack, must_jokers=0, rack_jokers=1, threshold=0, joker_points=30)
    best.score, best.sets

The score is lexicographic, packed into one integer: rack tiles played, then their points
(a number tile its number, a joker the rack penalty).

Two forms of one search. :class:`~reference.Search` is recursive and memoised, state by
state; it holds the rules of each step (the joker sets' too) and stays as the reference the
tests hold the other to. :class:`~layers.Layers` (and :class:`~joker_layers.JokerLayers` when
the table has joker sets) takes every state of a step at once, each state one integer: the
form ``pack`` uses.

- ``moves``: the shared state encoding and moves;
- ``layers``: the layered search;
- ``joker_layers``: the layers of a table with joker sets;
- ``reference``: the recursive reference;
- ``best``: ``pack``, the narrowed search then the whole one, the race of the two directions,
  and the spare jokers.
"""

from games.rummikub.packing.best import pack, pack_strict, split
from games.rummikub.packing.moves import NEG, WEIGHT, Counts, JokerSet, Packing, index_of

__all__ = ["NEG", "WEIGHT", "Counts", "JokerSet", "Packing", "index_of", "pack", "pack_strict",
           "split"]
