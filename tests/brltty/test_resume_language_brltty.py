"""A game saved in English goes on in French: ``brailledev play uno --lang fr`` (the same
command again resumes the unfinished game), on a real BRLTTY whose display side reads the
cells back with the French braille table, as a French reader's fingers would."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from brailledev.display.braille import Translator, table_for, translator
from brailledev.programs.cli import main
from brailledev.programs.session import Session
from tests.brltty.harness import VirtualBrltty, read_words
from tests.play_helpers import ONE_ROUND

FR = translator(table_for("fr"))
EN = translator(table_for("en"))


def english_save(path: Path) -> None:
    """An English game, read up to its last message, saved as the player leaves it."""
    session = Session.start("uno", players=2, seed=5, lang="en", options=ONE_ROUND, save=path,
                            pace=0)
    session.table.run_bots()
    while session.seat.history.read_on():
        pass
    session.save()


def text(rows: list[str], table: Translator = FR) -> str:
    return " ".join(word for _, word in read_words(rows[0], table.back))


def test_resuming_with_lang_fr_gives_french_words_french_braille_and_first_message(tmp_path):
    save = tmp_path / "uno.json"
    english_save(save)
    assert table_for("fr") != table_for("en")
    with VirtualBrltty(columns=40) as brltty:
        done: list[int] = []
        args = ["play", "uno", "--save", str(save), "--lang", "fr", "--display", "brlapi",
                "--brlapi-host", brltty.host, "--no-speech", "--pace", "0"]
        runner = threading.Thread(target=lambda: done.append(main(args)), daemon=True)
        runner.start()
        # the first message read is the French one, in French braille
        rows = brltty.wait_for(lambda rows: text(rows).startswith("Partie reprise"))
        assert text(rows).startswith("Partie reprise là où elle était.")
        assert not text(rows, EN).startswith("Partie reprise")  # not UEB cells
        seen = brltty.updates
        brltty.route(read_words(rows[0], FR.back)[0][0])  # read: home, the hand
        brltty.wait_for(lambda rows: not text(rows).startswith("Partie reprise"), after=seen)
        for _ in range(8):  # down to the commands, in French words and French braille
            seen = brltty.updates
            brltty.line_down()
            rows = brltty.wait_for(lambda rows: True, after=seen)
            if "quitter" in text(rows):
                break
        words = read_words(rows[0], FR.back)
        assert "aide" in [word for _, word in words]
        cell = next(cell for cell, word in words if word == "quitter")
        seen = brltty.updates
        brltty.route(cell)
        brltty.wait_for(lambda rows: text(rows).startswith("Quitter ?"), after=seen)
        brltty.route(cell)  # yes to the question
        runner.join(20)
    assert done == [0]
    reader = json.loads(save.read_text())["reader"]
    assert reader["lang"] == "fr" and reader["braille_table"] == table_for("fr")
    # one summary, begun at the resume: the notice of the saved game follows in it
    assert reader["history"]["messages"][-1]["parts"] == [
        "Partie reprise là où elle était.",
        f"Votre partie enregistrée continue ({save}) ; --new en commence une nouvelle."]
