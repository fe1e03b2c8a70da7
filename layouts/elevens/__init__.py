"""Elevens as people read it: words, the display screen, card faces and the score pad.

    KIT.label("y12", KIT.catalog("fr"))
"""

from games.elevens import BOTS, GAME, OPTIONS, SELFPLAY_OPTIONS
from games.elevens.book import blank_book
from layouts.elevens import paper
from layouts.elevens.board import BOARD
from layouts.elevens.picture import PICTURE
from layouts.elevens.screen import SCREEN
from layouts.elevens.words import label
from layouts.kit import Deck, GameKit, KeptPad
from layouts.padscreen import RoundsPadScreen

KIT = GameKit(name="elevens", game=GAME, bots=BOTS, label=label, options=OPTIONS,
              selfplay_options=SELFPLAY_OPTIONS, screen=SCREEN, board=BOARD, picture=PICTURE,
              deck=Deck(paper.deck_cards, paper.face), pad=paper.pad,
              kept_pad=KeptPad(blank_book, RoundsPadScreen("elevens")))
