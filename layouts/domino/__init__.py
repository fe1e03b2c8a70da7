"""Domino 10-11-12 as people read it: words, the display screen, card faces and the pad.

    KIT.label((6, 0), KIT.catalog("fr"))
"""

from games.domino import BOTS, GAME, OPTIONS, SELFPLAY_OPTIONS
from layouts.domino import paper
from layouts.domino.board import BOARD
from layouts.domino.screen import SCREEN
from layouts.domino.words import label
from layouts.kit import Deck, GameKit

KIT = GameKit(name="domino", game=GAME, bots=BOTS, label=label, options=OPTIONS,
              selfplay_options=SELFPLAY_OPTIONS, screen=SCREEN, board=BOARD,
              deck=Deck(paper.deck_cards, paper.face, paper.read_card), pad=paper.pad)
