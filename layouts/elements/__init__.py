"""Elements as people read it: words, the display screen, card faces and the score pad.

    KIT.label(Card("y", 7), KIT.catalog("fr"))
"""

from games.elements import BOTS, GAME, OPTIONS, SELFPLAY_OPTIONS
from games.elements.book import blank_book
from layouts.elements import paper
from layouts.elements.board import BOARD
from layouts.elements.picture import PICTURE
from layouts.elements.screen import SCREEN
from layouts.elements.words import label
from layouts.kit import Deck, GameKit, KeptPad
from layouts.padscreen import RoundsPadScreen

KIT = GameKit(name="elements", game=GAME, bots=BOTS, label=label, options=OPTIONS,
              selfplay_options=SELFPLAY_OPTIONS, screen=SCREEN, board=BOARD, picture=PICTURE,
              deck=Deck(paper.deck_cards, paper.face), pad=paper.pad,
              kept_pad=KeptPad(blank_book, RoundsPadScreen("elements")))
