"""Domino 10-11-12 as people read it: words, the display screen, card faces and the pad.

    KIT.label((6, 0), KIT.catalog("fr"))
"""

from games.domino import BOTS, GAME, OPTIONS, SELFPLAY_OPTIONS
from games.domino.book import DominoBook
from layouts.domino import paper
from layouts.domino.board import BOARD
from layouts.domino.padscreen import DominoPadScreen
from layouts.domino.picture import PICTURE
from layouts.domino.screen import SCREEN
from layouts.domino.words import label
from layouts.kit import Deck, GameKit, KeptPad

KIT = GameKit(name="domino", game=GAME, bots=BOTS, label=label, options=OPTIONS,
              selfplay_options=SELFPLAY_OPTIONS, screen=SCREEN, board=BOARD,
              deck=Deck(paper.deck_cards, paper.face, paper.read_card), pad=paper.pad,
              picture=PICTURE,
              kept_pad=KeptPad(DominoBook.blank, DominoPadScreen("domino")))
