"""Rummikub as people read it: words, the display screen, tile faces, the score pad and the
turn clock (its rule, RUM-7).

    KIT.label("Y12", KIT.catalog("fr"))
"""

from games.rummikub import BOTS, CLOCK, GAME, OPTIONS, SELFPLAY_OPTIONS
from games.rummikub.book import blank_book
from layouts.kit import Deck, GameKit, KeptPad
from layouts.padscreen import RoundsPadScreen
from layouts.rummikub import paper
from layouts.rummikub.board import BOARD
from layouts.rummikub.picture import PICTURE
from layouts.rummikub.screen import SCREEN
from layouts.rummikub.words import label

KIT = GameKit(name="rummikub", game=GAME, bots=BOTS, label=label, options=OPTIONS,
              selfplay_options=SELFPLAY_OPTIONS, screen=SCREEN, board=BOARD,
              deck=Deck(paper.deck_cards, paper.face, paper.read_card), pad=paper.pad,
              picture=PICTURE,
              kept_pad=KeptPad(blank_book, RoundsPadScreen("rummikub")),
              clock=CLOCK)
