"""Rummikub as people read it: words, the display screen, tile faces and the score pad.

    KIT.label("Y12", KIT.catalog("fr"))
"""

from games.rummikub import BOTS, GAME, OPTIONS, SELFPLAY_OPTIONS
from layouts.kit import Deck, GameKit
from layouts.rummikub import paper
from layouts.rummikub.board import BOARD
from layouts.rummikub.screen import SCREEN
from layouts.rummikub.words import label

KIT = GameKit(name="rummikub", game=GAME, bots=BOTS, label=label, options=OPTIONS,
              selfplay_options=SELFPLAY_OPTIONS, screen=SCREEN, board=BOARD,
              deck=Deck(paper.deck_cards, paper.face, paper.read_card), pad=paper.pad)
