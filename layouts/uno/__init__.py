"""Uno as people read it: words, the display screen, card faces and the score pad.

    KIT.label("r+2", KIT.catalog("fr"))
"""

from games.uno import BOTS, GAME, OPTIONS, SELFPLAY_OPTIONS
from games.uno.book import blank_book
from layouts.kit import Deck, GameKit, KeptPad
from layouts.padscreen import RoundsPadScreen
from layouts.uno import paper
from layouts.uno.board import BOARD
from layouts.uno.picture import PICTURE
from layouts.uno.screen import SCREEN
from layouts.uno.words import label

KIT = GameKit(name="uno", game=GAME, bots=BOTS, label=label, options=OPTIONS,
              selfplay_options=SELFPLAY_OPTIONS, screen=SCREEN, board=BOARD,
              deck=Deck(paper.deck_cards, paper.face, paper.read_card), pad=paper.pad,
              picture=PICTURE,
              kept_pad=KeptPad(blank_book, RoundsPadScreen("uno")),
              refusals={"uno_teams_players": ("refused_teams_players", ("players",))})
