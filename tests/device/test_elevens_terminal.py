"""`brailledev play elevens` in a real pseudo-terminal, with no braille display."""

from __future__ import annotations

import re

import pexpect

from brailledev.programs.session import Session
from layouts.screen import PlayMove
from tests.device.test_play_terminal import Terminal


def test_elevens_in_the_terminal_plays_a_card_from_the_hand_line(tmp_path):
    save = tmp_path / "elevens.json"
    terminal = Terminal(["play", "elevens", "--display", "terminal", "--no-speech", "--seed",
                         "2", "--pace", "0", "--lang", "fr", "--save", str(save)], save)
    try:
        terminal.settle()
        terminal.wait_text(r"Elevens +à +2 +joueurs")
        terminal.wait_text(r"^main ")  # read on past the news: home is the hand line
        session = Session.resume(save, pace=0)
        legal = session.table.game.legal_moves(0)
        hand = next(line for line in session.seat.lines() if line.key == "hand")
        card = next(region.text for region in hand.regions
                    if isinstance(region.target, PlayMove) and region.target.move in legal)
        for _ in range(20):
            if terminal.route_word(card):
                break
            terminal.send("]")
        assert terminal.told()[-1] == f"Vous posez {card}."
        assert re.search(r"^main ", terminal.text())  # the hand the card left: no echo shown
        terminal.child.send("qq")  # quit, and yes to its question
        terminal.child.expect(pexpect.EOF)
        terminal.child.close()
        assert terminal.child.exitstatus == 0
    finally:
        terminal.child.terminate(force=True)
