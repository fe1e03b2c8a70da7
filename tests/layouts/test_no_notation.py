"""No player reads move notation: over whole games of every game of the registry, in every
language, every message and every line of the display's screen but the help (the choice
lines among them, with the question each region opens, once a game) is read, once, through the
game's own move parser, word by word and phrase by phrase: none may be a move that puts a card
at a place (``*@r10``, ``L r12>b``, ``4/4@c3>``, as the game's trial says, ``Trial.places``).
A card's label as embossed is a word: a phrase made of labels alone is no notation, and a
label inside a phrase is read as its card (French ``j12`` is ``y12``, ``li`` the link card
``L``), so notation written with the reader's letters is found too. On the way, no list a
player reads ends with a stray separator (``ey free,``, ``Di: no card;``)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from brailledev.programs.session import Session
from games.core import NotationError
from games.trial import Trial
from layouts.catalog import LANGUAGES
from layouts.registry import GAMES, kit
from layouts.screen import HELP_LINE, Ask, Line
from tests.games.cases import case_of
from tests.screen_player import choose, my_turn

# A move written in notation takes at most this many words (a Rummikub table, more, starts
# with its first set's tiles: ``table k1 k2 k3``).
LONGEST = 4
# What ends or opens a word in a sentence, not part of it.
PUNCTUATION = ".,;:!?()«»\"'"
# What ends an item of a list, never the list.
STRAY = (",", ";")
# A label or a card of a colour letter and a number: ``j12``, ``K5``.
NUMBERED = re.compile(r"([^\W\d]+)(\d+)")


def labels(game: str, lang: str) -> dict[str, str]:
    """Every card's label as embossed in ``lang`` -> its card in the game's notation, and
    each colour letter of the labels -> the notation's (French ``j`` -> ``y``), so that
    notation written with the reader's letters (``li j12>r``) reads as the game's."""
    cards = {" ".join(face.lines): face.card for face in kit(game).deck_faces(lang)}
    found = dict(cards)
    for label, card in cards.items():
        shown, meant = NUMBERED.fullmatch(label), NUMBERED.fullmatch(card)
        if shown and meant and shown.group(2) == meant.group(2):
            found.setdefault(shown.group(1), meant.group(1))
    return found


def as_notation(word: str, cards: Mapping[str, str]) -> str:
    """A word with every label in it read as the game's notation: ``li`` -> ``L``,
    ``j12>r`` -> ``y12>r``."""
    if word in cards:
        return cards[word]
    return "".join(cards.get(part, part) for part in re.split(r"(\w+)", word))


def phrases(text: str) -> Iterator[list[str]]:
    """Every run of one to :data:`LONGEST` words of ``text``, punctuation stripped."""
    found = [word.strip(PUNCTUATION) for word in text.split()]
    found = [word for word in found if word]
    for start in range(len(found)):
        for end in range(start + 1, min(start + LONGEST, len(found)) + 1):
            yield found[start:end]


def notation_in(text: str, game: Any, trial: Trial, cards: Mapping[str, str]) -> list[str]:
    """The phrases of ``text`` the game reads as a move that puts a card at a place."""
    found = []
    for words in phrases(text):
        if all(word in cards for word in words):
            continue  # labels as embossed are words (and so are colour letters)
        read = " ".join(as_notation(word, cards) for word in words)
        try:
            move = game.parse_move(0, read)
        except (NotationError, ValueError):
            continue
        if trial.places(move):
            found.append(" ".join(words))
    return found


def read_by_the_player(session: Session, asked: set[tuple[str, str]]) -> Iterator[str]:
    """Every line of the screen but the help, and each choice line a routing on the hand or
    the command line would open now (a card's places, a Wild's colours), unless the region
    (its line and words) is in ``asked``: each is opened once a game, since every opened
    question costs a whole screen (a Domino grid, a Rummikub table worked out again)."""
    seat = session.seat
    shown: list[Line] = list(seat.lines())
    pending = seat.pending
    for line in list(shown):
        for region in line.regions:
            if line.key != HELP_LINE and isinstance(region.target, Ask) \
                    and (line.key, region.text) not in asked:
                asked.add((line.key, region.text))
                seat.pending = region.target.pending  # the question it opens, then back
                shown += seat.lines()
                seat.pending = pending
    for line in shown:
        if line.key != HELP_LINE:
            yield line.text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_no_message_or_line_a_player_reads_holds_move_notation_or_a_stray_separator(game, lang):
    trial = case_of(game).trial
    cards = labels(game, lang) if kit(game).deck is not None else {}
    session = Session.start(game, players=kit(game).default_players, seed=3, lang=lang,
                            pace=0, bots=trial.bots[-1], options=trial.options)
    found: dict[str, list[str]] = {}
    stray: set[str] = set()
    read: set[str] = set()  # a line met again is read once: most of a game's lines repeat
    asked: set[tuple[str, str]] = set()

    def check(text: str) -> None:
        if text in read:
            return
        read.add(text)
        if hit := notation_in(text, session.table.game, trial, cards):
            found[text] = hit
        if text.rstrip().endswith(STRAY):
            stray.add(text)

    for _ in range(600):
        session.table.run_bots()
        for text in read_by_the_player(session, asked):
            check(text)
        if session.table.game.is_over() or not my_turn(session):
            break
        key, index = choose(session)
        session.seat.route(next(line for line in session.seat.lines()
                                if line.key == key).regions[index].target)
    for message in session.seat.history.messages:
        for text in message.parts:
            check(text)
    assert session.table.game.is_over()
    assert not found, found
    assert not stray, stray


def test_the_check_finds_notation_in_either_language():
    trial = case_of("elevens").trial
    game = Session.start("elevens", players=2, seed=1, lang="en", pace=0).table.game
    french = labels("elevens", "fr")
    assert notation_in("Vous posez *@r10.", game, trial, french) == ["*@r10"]
    assert notation_in("* vers li j12>r *", game, trial, french) == ["li j12>r", "li j12>r *"]
    assert notation_in("Fanny reprend x r10.", game, trial, french) == ["x r10"]
    assert notation_in("Vous posez le joker en r10 ; j12 r10.", game, trial, french) == []
    domino = case_of("domino").trial
    board = Session.start("domino", players=2, seed=1, lang="en", pace=0).table.game
    assert notation_in("Bo lays 4/4@c3>: 8, 1 point.", board, domino, {}) == ["4/4@c3>"]
    assert notation_in("6/2 c3>6 5/1 c1v5 12 5", board, domino, labels("domino", "en")) == []
