"""Uno as people read it: words, the display screen, card faces and the score pad.

    KIT.label("r+2", KIT.catalog("fr"))
"""

from games.uno import BOTS, GAME, OPTIONS, SELFPLAY_OPTIONS
from layouts.kit import Deck, GameKit
from layouts.uno import paper
from layouts.uno.board import BOARD
from layouts.uno.screen import SCREEN
from layouts.uno.words import label

KIT = GameKit(name="uno", game=GAME, bots=BOTS, label=label, options=OPTIONS,
              selfplay_options=SELFPLAY_OPTIONS, screen=SCREEN, board=BOARD,
              deck=Deck(paper.deck_cards, paper.face, paper.read_card), pad=paper.pad)
