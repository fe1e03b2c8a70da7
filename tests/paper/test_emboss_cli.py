"""The emboss commands end to end: files, previews, one-sentence errors, nothing half-written."""

from __future__ import annotations

import os
import pty
import select
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

import layouts.uno
from brailledev.display.braille import translator
from brailledev.programs import cli
from brailledev.programs.cli import main
from emboss import brf
from emboss.deck import deck_document
from emboss.embossers import profile_named
from emboss.page import Geometry, paper
from layouts.domino.paper import face as domino_face
from layouts.registry import GAMES, kit
from tests.paper.test_emboss_transport import Embosser


def test_deck_to_brf_and_preview(tmp_path: Path, capsys):
    out, preview = tmp_path / "uno.brf", tmp_path / "uno.pdf"
    status = main(["emboss", "deck", "uno", "--lang", "fr", "--out", str(out),
                   "--preview", str(preview)])
    assert status == 0
    expected = deck_document(kit("uno").deck_faces("fr"), Geometry(paper("a4")),
                             kit("uno").card_size(), translator("fr-bfu-comp6.utb"),
                             "uno card labels", "fr")
    assert out.read_bytes() == brf.document_bytes(expected)
    assert preview.read_bytes().startswith(b"%PDF-")
    assert "108 étiquettes, 9 par feuille" in capsys.readouterr().out


def test_replacement_cards_to_pef_for_an_embosser_profile(tmp_path: Path):
    out = tmp_path / "labels.pef"
    assert main(["emboss", "deck", "uno", "--cards", "r7,r7,b+2,wi", "--out", str(out),
                 "--table", "en-ueb-g2.ctb"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("<page>") == 1 and 'xmlns="http://www.daisy.org/ns/2008/pef"' in text


def test_index_job_file_starts_with_its_header(tmp_path: Path):
    out = tmp_path / "pad.brf"
    assert main(["emboss", "scorepad", "domino", "--players", "2", "--embosser",
                 "index-everest-d", "--interpoint", "--out", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(b"\x1bDBT0,LS50,TD0,PN0,MC1,DP2,BI2,CH31,TM1,LP28;")
    assert data.endswith(b"\x1a") and data.count(b"\x0c") == 4


def test_unknown_card_one_sentence_and_no_file(tmp_path: Path, capsys):
    out = tmp_path / "x.brf"
    assert main(["emboss", "deck", "uno", "--cards", "r7,x9", "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("brailledev: unknown uno card 'x9'") and error.count("\n") == 1
    assert "Traceback" not in error and not out.exists()


def test_job_refused_by_the_embosser_writes_nothing(tmp_path: Path, capsys):
    out, preview = tmp_path / "x.brf", tmp_path / "x.svg"
    assert main(["emboss", "deck", "uno", "--embosser", "romeo", "--paper", "11x11.5in",
                 "--out", str(out), "--preview", str(preview)]) == 2
    assert "at most 40 cells" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_where_the_braille_goes_must_be_said(capsys):
    assert main(["emboss", "scorepad", "uno"]) == 2
    assert "--out FILE, --device PORT or --printer QUEUE" in capsys.readouterr().err
    assert main(["emboss", "scorepad", "uno", "--format", "pef", "--device", "/dev/null"]) == 2
    assert "PEF is a file format" in capsys.readouterr().err


@pytest.mark.parametrize(("command", "without"), [
    ("deck", replace(kit("uno"), deck=None)), ("scorepad", replace(kit("uno"), pad=None))])
def test_a_game_without_that_paper_is_refused_naming_those_that_have_it(monkeypatch, capsys,
                                                                        command, without,
                                                                        request):
    """The games a command offers are those whose kit has its paper (from the registry)."""
    monkeypatch.setattr(layouts.uno, "KIT", without)
    # the command line is built once a process: built again here, and after, without it
    cli._parser.cache_clear()
    request.addfinalizer(cli._parser.cache_clear)
    with pytest.raises(SystemExit) as refused:
        main(["emboss", command, "uno"])
    assert refused.value.code == 2
    assert "game cannot be 'uno'; choose one of 'domino', 'elements', 'elevens', " \
           "'rummikub'" in capsys.readouterr().err


def test_deck_to_a_serial_device_resumed_from_a_page():
    master, slave = pty.openpty()
    try:
        document = deck_document(kit("uno").deck_faces("en"), Geometry(paper("a4")),
                                 kit("uno").card_size(), translator("en-ueb-g1.ctb"),
                                 "uno card labels", "en")
        expected = profile_named("generic").job(document).data(from_page=11)
        received = bytearray()

        def read() -> None:
            while len(received) < len(expected):
                received.extend(os.read(master, 4096))

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        assert main(["emboss", "deck", "uno", "--device", os.ttyname(slave), "--baud",
                     "19200", "--flow", "xonxoff", "--from-page", "11"]) == 0
        reader.join(10)
        assert bytes(received) == expected
    finally:
        os.close(master)
        os.close(slave)


def test_embossers_lists_profiles_ports_and_queues(capsys):
    assert main(["embossers"]) == 0
    out = capsys.readouterr().out
    for name in ("generic", "index-basic-d", "index-everest-d", "index-braillebox",
                 "index-fanfold-d", "juliet-120", "romeo-60", "romeo", "juliet", "juliet-pro60",
                 "romeo-attache", "romeo-attache-pro", "braillo-200", "braillo-400s",
                 "braillo-400sr", "braillo-600", "braillo-600sr"):
        assert f"  {name}: " in out
    assert "Serial ports (--device)" in out and "CUPS queues (--printer)" in out


def test_progress_bar_only_on_a_terminal(monkeypatch):
    import io
    import sys

    from emboss.cli import _progress_bar

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert _progress_bar("en") is None
    master, slave = pty.openpty()
    try:
        with os.fdopen(slave, "w", closefd=False) as terminal:
            monkeypatch.setattr(sys, "stderr", terminal)
            show = _progress_bar("en")
            assert show is not None
            show(3, 12)
            show(12, 12)
        # the pty may hand the bar over in pieces: read up to the final newline, however late
        seen, deadline = "", time.monotonic() + 30
        while not seen.endswith("\n") and time.monotonic() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                seen += os.read(master, 4096).decode()
        assert "page 3/12 [#####...............]" in seen
        assert "page 12/12 [####################]" in seen
    finally:
        os.close(master)
        os.close(slave)


def test_unknown_table_and_resume_point_are_one_sentence(tmp_path: Path, capsys):
    out = tmp_path / "x.brf"
    assert main(["emboss", "deck", "uno", "--table", "nope.ctb", "--out", str(out)]) == 2
    assert "'nope.ctb' cannot be found" in capsys.readouterr().err
    assert main(["emboss", "deck", "uno", "--from-page", "13", "--out", str(out)]) == 2
    assert "outside this job of 12 pages" in capsys.readouterr().err
    assert not out.exists()


def test_the_document_title_is_in_the_chosen_language(tmp_path: Path):
    # the title a preview shows a sighted helper, and the PEF's dc:title
    for lang, title in (("fr", "étiquettes des cartes de Uno"), ("en", "Uno card labels")):
        out = tmp_path / f"labels-{lang}.pef"
        assert main(["emboss", "deck", "uno", "--cards", "r7", "--lang", lang,
                     "--out", str(out)]) == 0
        assert f"<dc:title>{title}</dc:title>" in out.read_text(encoding="utf-8")
    pad = tmp_path / "pad.pef"
    assert main(["emboss", "scorepad", "domino", "--lang", "fr", "--out", str(pad)]) == 0
    assert "<dc:title>feuille de marque de " in pad.read_text(encoding="utf-8")


def test_the_german_uno_deck_and_domino_pad_on_paper(tmp_path: Path, capsys):
    # German labels in Basisschrift (de-g0.utb), German words, a preview of each sheet
    deck, pad = tmp_path / "uno.brf", tmp_path / "pad.pef"
    assert main(["emboss", "deck", "uno", "--lang", "de", "--out", str(deck),
                 "--preview", str(tmp_path / "uno.png")]) == 0
    assert main(["emboss", "scorepad", "domino", "--lang", "de", "--players", "3",
                 "--out", str(pad), "--preview", str(tmp_path / "pad.png")]) == 0
    said = capsys.readouterr().out
    assert f"{deck} geschrieben: 12 Seiten, 108 Etiketten, 9 je Blatt" in said
    assert f"{pad} geschrieben: 3 Seiten, 1 Block zu je 3 Blättern" in said
    expected = deck_document(kit("uno").deck_faces("de"), Geometry(paper("a4")),
                             kit("uno").card_size(), translator("de-g0.utb"),
                             "uno card labels", "de")
    assert deck.read_bytes() == brf.document_bytes(expected)
    assert deck.read_bytes().startswith(b"\r\n  R#J       R#A       R#A\r\n")  # rot 0, 1, 1
    assert "<dc:title>Spielblock Domino 10-11-12" in pad.read_text(encoding="utf-8")
    for preview in ("uno.png", "pad.png"):
        assert (tmp_path / preview).read_bytes().startswith(b"\x89PNG")


def test_a_preview_is_never_written_when_the_braille_file_is_not(tmp_path: Path, capsys):
    preview = tmp_path / "pad.pdf"
    assert main(["emboss", "scorepad", "uno", "--out", str(tmp_path / "nowhere" / "pad.brf"),
                 "--preview", str(preview)]) == 2
    assert capsys.readouterr().err.startswith(
        f"brailledev: there is no folder {tmp_path / 'nowhere'}")
    (tmp_path / "taken.brf").mkdir()  # the rename of the braille file fails, after writing
    assert main(["emboss", "scorepad", "uno", "--out", str(tmp_path / "taken.brf"),
                 "--preview", str(preview)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"brailledev: cannot write {tmp_path / 'taken.brf'}: that name is "
                            "a folder") and error.count("\n") == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["taken.brf"]


def test_a_preview_that_cannot_be_written_takes_the_braille_file_with_it(tmp_path: Path,
                                                                        capsys):
    out = tmp_path / "pad.brf"
    out.write_bytes(b"old")
    assert main(["emboss", "scorepad", "uno", "--out", str(out), "--preview",
                 str(tmp_path / "nowhere" / "pad.svg"), "--lang", "fr"]) == 2
    assert capsys.readouterr().err == (
        f"brailledev: il n'y a pas de dossier {tmp_path / 'nowhere'} ; créez-le ou "
        "choisissez un autre --preview\n")
    assert out.read_bytes() == b"old"
    (tmp_path / "pad.svg").mkdir()
    assert main(["emboss", "scorepad", "uno", "--out", str(out), "--preview",
                 str(tmp_path / "pad.svg")]) == 2
    assert out.read_bytes() == b"old"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["pad.brf", "pad.svg"]


def test_braille_file_and_preview_are_written_together_for_everyone_to_read(tmp_path: Path):
    out, preview = tmp_path / "pad.brf", tmp_path / "pad.svg"
    assert main(["emboss", "scorepad", "domino", "--out", str(out), "--preview",
                 str(preview)]) == 0
    for path in (out, preview):
        assert os.stat(path).st_mode & 0o777 == 0o644
    assert sorted(path.name for path in tmp_path.iterdir()) == ["pad.brf", "pad.svg"]


def test_a_stopped_serial_job_writes_no_preview(tmp_path: Path, capsys):
    preview = tmp_path / "pad.pdf"
    assert main(["emboss", "scorepad", "uno", "--device", str(tmp_path / "ttyNone"),
                 "--preview", str(preview)]) == 2
    assert capsys.readouterr().err.startswith(f"brailledev: cannot open {tmp_path / 'ttyNone'}")
    assert not preview.exists()


def test_serial_numbers_and_sheets_out_of_range_are_one_sentence(tmp_path: Path, capsys):
    out = tmp_path / "pad.brf"
    cases = {
        ("--baud", "-1"): "--baud -1 is not a serial speed; give one from 50 to 4000000",
        ("--baud", "0"): "--baud 0 is not a serial speed",
        ("--write-timeout", "nan"): "--write-timeout nan is not 0.1 to 3600 seconds",
        ("--write-timeout", "inf"): "--write-timeout inf is not 0.1 to 3600 seconds",
        ("--write-timeout", "-1"): "--write-timeout -1.0 is not 0.1 to 3600 seconds",
        ("--sheets", "0"): "--sheets 0 is not 1 to 500",
        ("--sheets", "100000000"): "--sheets 100000000 is not 1 to 500",
    }
    for (option, value), said in cases.items():
        assert main(["emboss", "scorepad", "uno", "--out", str(out), option, value]) == 2
        error = capsys.readouterr().err
        assert error.startswith(f"brailledev: {said}") and error.count("\n") == 1, error
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "wrote {path}, a preview for sighted helpers, not braille to emboss: 1 page, "
           "2 labels, 9 a sheet"),
    ("fr", "{path} écrit, un aperçu pour les aides voyants, pas du braille à embosser : "
           "1 page, 2 étiquettes, 9 par feuille"),
])
def test_issue_32_15_out_follows_its_extension_and_a_picture_says_so(tmp_path: Path, capsys,
                                                                     lang, said):
    magic = {"pdf": b"%PDF-", "svg": b"<?xml", "png": b"\x89PNG", "brf": b"\r\n  R#G",
             "pef": b"<?xml"}
    for extension, starts in magic.items():
        out = tmp_path / f"labels.{extension.upper() if extension == 'brf' else extension}"
        assert main(["emboss", "deck", "uno", "--cards", "r7,b7", "--lang", lang,
                     "--table", "en-ueb-g1.ctb", "--out", str(out)]) == 0
        data = out.read_bytes()
        assert data.startswith(starts), extension
        printed = capsys.readouterr().out
        if extension in ("pdf", "svg", "png"):
            assert printed == said.format(path=out) + "\n"
            assert b"R#G" not in data
        else:
            assert "preview" not in printed and "aperçu" not in printed
    assert b"<svg" in (tmp_path / "labels.svg").read_bytes()
    assert b"http://www.daisy.org/ns/2008/pef" in (tmp_path / "labels.pef").read_bytes()


@pytest.mark.parametrize(("lang", "args", "said"), [
    ("en", ["--out", "{tmp}/x.txt"], "--out 'x.txt' has no kind brailledev writes; name it "
     ".brf or .pef for braille, or .pdf, .svg or .png for a preview (or give --format brf or "
     "pef)"),
    ("fr", ["--out", "{tmp}/x"], "--out 'x' n'est d'aucun type que brailledev écrit ; "
     "nommez-le .brf ou .pef pour du braille"),
    ("en", ["--out", "{tmp}/x.pef", "--format", "brf"], "--format brf does not go with --out "
     "'x.pef', whose extension says what it holds; leave out --format or rename --out"),
    ("fr", ["--out", "{tmp}/x.pdf", "--format", "pef"], "--format pef ne va pas avec --out "
     "'x.pdf', dont l'extension dit ce qu'il contient"),
])
def test_issue_32_15_an_out_of_no_kind_or_against_format_is_refused(tmp_path: Path, capsys,
                                                                    lang, args, said):
    command = ["emboss", "scorepad", "uno", "--lang", lang,
               *[arg.format(tmp=tmp_path) for arg in args]]
    assert main(command) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"brailledev: {said}") and error.count("\n") == 1, error
    assert "Traceback" not in error and list(tmp_path.iterdir()) == []


def test_an_out_name_without_extension_takes_the_format_given(tmp_path: Path):
    out = tmp_path / "pad-for-the-embosser"
    assert main(["emboss", "scorepad", "domino", "--out", str(out), "--format", "brf",
                 "--embosser", "index-everest-d"]) == 0
    assert out.read_bytes().startswith(b"\x1bDBT0,")


@pytest.mark.parametrize(("lang", "copied"), [("en", "wrote {path}: a copy of the {size} "
                                                     "bytes sent"),
                                              ("fr", "{path} écrit : une copie des {size} "
                                                     "octets envoyés")])
def test_issue_33_out_with_a_device_is_a_copy_of_the_exact_bytes_sent(tmp_path: Path, capsys,
                                                                       lang, copied):
    master, slave = pty.openpty()
    try:
        copy = tmp_path / "sent.brf"
        embosser = Embosser(master)
        # What the embosser reads is what the copy holds: the Juliet's header, pages 2 and
        # 3 of the three-player pad, its job end.
        reader = embosser.read_until(1_000_000, limit=3)
        assert main(["emboss", "scorepad", "domino", "--players", "3", "--lang", lang,
                     "--embosser", "juliet", "--paper", "letter", "--device",
                     os.ttyname(slave), "--from-page", "2", "--out", str(copy)]) == 0
        reader.join(10)
        embosser.drain()
        data = copy.read_bytes()
        assert bytes(embosser.received) == data
        said = capsys.readouterr().out.splitlines()
        assert said[-1] == copied.format(path=copy, size=len(data))
        assert len(said) == 2 and os.ttyname(slave) in said[0]
        # The whole job as a file: the same 28-byte header, then pages 1 to 3; the copy has
        # the header and the pages from 2 on.
        whole = tmp_path / "whole.brf"
        assert main(["emboss", "scorepad", "domino", "--players", "3", "--lang", lang,
                     "--embosser", "juliet", "--paper", "letter", "--out", str(whole)]) == 0
        header = whole.read_bytes()[:28]
        assert header.startswith(b"\x1bA@@\x1bK@\x1bW@") and header.endswith(b"\x1bQ[")
        assert data.startswith(header) and whole.read_bytes().endswith(data[28:])
        assert len(data) < len(whole.read_bytes())
    finally:
        os.close(master)
        os.close(slave)


def test_a_copy_is_braille_bytes_and_is_not_written_when_the_job_stops(tmp_path: Path,
                                                                        capsys):
    copy = tmp_path / "sent.pef"
    assert main(["emboss", "scorepad", "uno", "--device", str(tmp_path / "ttyNone"),
                 "--out", str(copy)]) == 2
    error = capsys.readouterr().err
    # Refused before any port is opened (else the sentence would be the port's).
    assert error == ("brailledev: with --device or --printer, --out gets a copy of the bytes "
                     "sent to the embosser, so name it .brf, not 'sent.pef'\n")
    copy = tmp_path / "sent.brf"
    assert main(["emboss", "scorepad", "uno", "--device", str(tmp_path / "ttyNone"),
                 "--out", str(copy), "--preview", str(tmp_path / "pad.svg")]) == 2
    assert capsys.readouterr().err.startswith(f"brailledev: cannot open {tmp_path / 'ttyNone'}")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_issue_32_15_a_pad_for_more_players_than_the_game_takes_is_refused(tmp_path: Path,
                                                                           capsys, game):
    # The range is the engine's own; the pad's default is as many as the game starts with.
    engine = kit(game).game
    out = tmp_path / "pad.brf"
    for players in (engine.min_players - 1, engine.max_players + 1):
        assert main(["emboss", "scorepad", game, "--players", str(players), "--lang", "en",
                     "--out", str(out)]) == 2
        error = capsys.readouterr().err
        assert error == (f"brailledev: {game.capitalize()} is for {engine.min_players} to "
                         f"{engine.max_players} players, not {players}; give --players "
                         f"{engine.min_players} to {engine.max_players}, or leave it out for "
                         f"{kit(game).default_players}.\n")
        assert not out.exists()
    # The most players on the widest paper (six Elevens columns need 34 cells).
    assert main(["emboss", "scorepad", game, "--players", str(engine.max_players),
                 "--paper", "11x12in", "--out", str(out)]) == 0
    assert main(["emboss", "scorepad", game, "--out", str(out), "--lang", "fr"]) == 0
    assert " 1 bloc de " in capsys.readouterr().out


def test_the_domino_pad_refused_for_7_players_in_french(tmp_path: Path, capsys):
    assert main(["emboss", "scorepad", "domino", "--players", "7", "--lang", "fr", "--out",
                 str(tmp_path / "pad.brf")]) == 2
    assert capsys.readouterr().err == ("brailledev: Domino se joue de 2 à 4 joueurs, pas 7 ; "
                                       "donnez --players de 2 à 4, ou omettez-le pour 2.\n")
    assert list(tmp_path.iterdir()) == []


def test_issue_32_15_domino_labels_for_the_deck_file_play_takes(tmp_path: Path, capsys):
    # A toy library's deck: the box's, with a double blank (a card the box has not) in place
    # of its first card.
    cards = kit("domino").whole_deck()
    cards[0] = "0/0"
    deck = tmp_path / "our-deck.toml"
    deck.write_text("cards = [" + ", ".join(f'"{card}"' for card in cards) + "]\n")
    out = tmp_path / "labels.brf"
    assert main(["emboss", "deck", "domino", "--deck", str(deck), "--lang", "en",
                 "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}: 6 pages, 50 labels, 9 a sheet\n"
    catalog = kit("domino").catalog("en")
    faces = [domino_face(card, catalog) for card in cards]
    assert faces[0].caption == "blank and blank"
    expected = deck_document(faces, Geometry(paper("a4")), kit("domino").card_size(),
                             translator("en-ueb-g1.ctb"), "labels", "en")
    assert out.read_bytes() == brf.document_bytes(expected)
    # The same file play refuses is refused here, in its words and nothing is written.
    deck.write_text('cards = ["6/0", "1/1"]\n')
    assert main(["emboss", "deck", "domino", "--deck", str(deck), "--lang", "en",
                 "--out", str(tmp_path / "short.brf")]) == 2
    assert capsys.readouterr().err.startswith(f"brailledev: The deck file {deck} cannot be "
                                              "played (")
    assert not (tmp_path / "short.brf").exists()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Uno is played with the box's cards only, so it takes no deck file; use --cards "
           "for replacement labels, or --deck with domino"),
    ("fr", "Uno se joue avec les seules cartes de la boîte : il ne prend pas de fichier de "
           "cartes ; utilisez --cards pour des étiquettes de remplacement, ou --deck avec "
           "domino"),
])
def test_a_deck_file_for_a_game_that_takes_none_is_one_sentence(tmp_path: Path, capsys, lang,
                                                                said):
    deck = tmp_path / "deck.toml"
    deck.write_text('cards = ["r7"]\n')
    assert main(["emboss", "deck", "uno", "--deck", str(deck), "--lang", lang, "--out",
                 str(tmp_path / "x.brf")]) == 2
    assert capsys.readouterr().err == f"brailledev: {said}\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["deck.toml"]


def test_issue_33_basic_d_counts_the_binding_margin_in_its_49_columns(tmp_path: Path, capsys):
    # --paper 325x300 --margin 17 gives BI3 and CH48: 51 columns, past the Basic-D's 49.
    out = tmp_path / "pad.brf"
    command = ["emboss", "scorepad", "uno", "--embosser", "index-basic-d", "--paper",
               "325x300", "--out", str(out)]
    assert main([*command, "--margin", "17"]) == 2
    assert capsys.readouterr().err == (
        "brailledev: Index Basic-D (V4/V5) embosses at most 49 cells a line counting its left "
        "margin, and 325x300mm with these margins needs 51 (3 of margin and 48 of braille); "
        "choose narrower paper or wider margins\n")
    assert not out.exists()
    assert main([*command, "--margin", "30"]) == 0
    assert out.read_bytes().startswith(b"\x1bDBT0,LS50,TD0,PN0,MC1,DP1,BI5,CH44,TM3,LP24;")
