"""Commands for paper: ``emboss deck``, ``emboss scorepad``, ``embossers``, ``udev``.

    brailledev emboss deck uno --cards 'r7,r7,b+2,wi' --lang fr --out labels.brf
    brailledev emboss deck domino --deck our-deck.toml --out labels.brf --preview labels.pdf
    brailledev emboss scorepad domino --players 3 --device /dev/embosser0 --embosser romeo
    brailledev embossers
    brailledev udev install
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from brailledev.display.braille import Translator, table_for, translator
from brailledev.errors import env_lang, error_lang
from brailledev.helptext import say
from brailledev.table.options import check_deck, read_cards
from emboss import deck, scorepad
from emboss.embossers import PROFILES, profile_named
from emboss.page import CELL_SIZES, PAPERS, Document, Geometry, Margins, paper
from emboss.pef import document_pef
from emboss.preview import KINDS as PREVIEW_KINDS
from emboss.preview import preview_data
from emboss.scorepad import MOST_COPIES
from emboss.transport import (
    BAUD_RANGE,
    FLOW_CONTROLS,
    WRITE_TIMEOUT_RANGE,
    CupsTransport,
    Progress,
    SerialTransport,
    cups_queues,
    serial_ports,
    write_files,
)
from emboss.udev import install, rules_text
from layouts.catalog import LANGUAGES, output_text
from layouts.errors import PaperError, TransportError, UserError
from layouts.kit import GameKit
from layouts.paper import CardSize, Face
from layouts.registry import GAMES, kit


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``emboss``, ``embossers`` and ``udev`` to the ``brailledev`` command."""
    emboss = sub.add_parser("emboss", help=say("emboss.command"),
                            description=say("emboss.command"))
    kinds = emboss.add_subparsers(dest="kind", required=True, metavar=say("metavar.what"))
    deck_parser = kinds.add_parser("deck", help=say("deck.command"),
                                   description=say("deck.command"))
    deck_parser.add_argument("game", choices=_games_with(lambda each: each.deck is not None),
                             help=say("deck.game"))
    which = deck_parser.add_mutually_exclusive_group()
    which.add_argument("--cards", metavar=say("metavar.cards"), help=say("deck.cards"))
    which.add_argument("--deck", type=Path, metavar=say("metavar.deck_file"),
                       help=say("deck.deck"))
    deck_parser.add_argument("--card-size", metavar=say("metavar.size"),
                             help=say("deck.card_size"))
    deck_parser.add_argument("--rotate", action="store_true", help=say("deck.rotate"))
    _output_options(deck_parser)
    deck_parser.set_defaults(run=_run_deck)
    pad_parser = kinds.add_parser("scorepad", help=say("scorepad.command"),
                                  description=say("scorepad.command"))
    pad_parser.add_argument("game", choices=_games_with(lambda each: each.pad is not None),
                            help=say("scorepad.game"))
    pad_parser.add_argument("--players", type=int, default=None, metavar="N",
                            help=say("scorepad.players"))
    pad_parser.add_argument("--sheets", type=int, default=1, metavar="N",
                            help=say("scorepad.sheets"))
    pad_parser.add_argument("--interpoint", action="store_true", help=say("scorepad.interpoint"))
    _output_options(pad_parser)
    pad_parser.set_defaults(run=_run_pad)

    lister = sub.add_parser("embossers", help=say("embossers.command"),
                            description=say("embossers.command"))
    lister.add_argument("--lang", choices=LANGUAGES, default=None, help=say("lang"))
    lister.set_defaults(run=_run_embossers)

    udev = sub.add_parser("udev", help=say("udev.command"), description=say("udev.command"))
    udev.add_argument("action", choices=("show", "install"), help=say("udev.action"))
    udev.add_argument("--adapters", action="store_true", help=say("udev.adapters"))
    udev.add_argument("--force", action="store_true", help=say("udev.force"))
    udev.add_argument("--lang", choices=LANGUAGES, default=None, help=say("lang"))
    udev.set_defaults(run=_run_udev)


def _games_with(offers: Callable[[GameKit], bool]) -> list[str]:
    """The games whose kit offers this kind of paper, by name."""
    return sorted(name for name in GAMES if offers(kit(name)))


def _output_options(parser: argparse.ArgumentParser) -> None:
    file = say("metavar.file")
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=say("paper.lang"))
    parser.add_argument("--table", metavar=say("metavar.table"), help=say("paper.table"))
    parser.add_argument("--format", choices=("brf", "pef"), help=say("paper.format"))
    paper_options(parser)
    parser.add_argument("--out", type=Path, metavar=file, help=say("paper.out"))
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--device", metavar=say("metavar.port"), help=say("paper.device"))
    where.add_argument("--printer", metavar=say("metavar.queue"), help=say("paper.printer"))
    parser.add_argument("--baud", type=int, default=9600, metavar="N", help=say("paper.baud"))
    parser.add_argument("--flow", choices=FLOW_CONTROLS, default="rtscts",
                        help=say("paper.flow"))
    parser.add_argument("--write-timeout", type=float, default=30.0,
                        metavar=say("metavar.seconds"), help=say("paper.write_timeout"))
    parser.add_argument("--from-page", type=int, default=1, metavar="N",
                        help=say("paper.from_page"))
    parser.add_argument("--preview", type=Path, metavar=file, help=say("paper.preview"))


def paper_options(parser: argparse.ArgumentParser) -> None:
    """The machine and the paper (``--embosser``, ``--paper``, ``--cell``, ``--margin``), for
    ``emboss`` and for the filled pad of ``brailledev pad``."""
    parser.add_argument("--embosser", default="generic", choices=sorted(PROFILES),
                        help=say("paper.embosser"))
    parser.add_argument("--paper", default="a4", metavar=say("metavar.paper"),
                        help=say("paper.paper", papers=", ".join(PAPERS)))
    parser.add_argument("--cell", default="marburg", choices=sorted(CELL_SIZES),
                        help=say("paper.cell"))
    parser.add_argument("--margin", type=float, default=10.0, metavar="MM",
                        help=say("paper.margin"))


def pad_out(args: argparse.Namespace, players: int, book: object = None,
            check_only: bool = False) -> None:
    """The pad of ``brailledev pad``, filled from ``book``, laid out as the blank pad: to
    ``--out`` (BRF, or PEF by the suffix) and to ``--emboss`` (a serial device, a path, or
    else a CUPS queue). ``check_only``: refuse now what would be refused at the end (paper,
    embosser, file), before the game: ``pad_out(args, 3, session.book)``."""
    if args.out is None and args.emboss is None:
        return
    if args.out is not None:
        if args.out.suffix.lower() not in (".brf", ".pef"):
            raise PaperError("pad_out_kind", name=args.out.name)
        if not args.out.parent.is_dir():
            raise TransportError("out_folder_missing", folder=args.out.parent)
    sheets = kit(args.game).pad_sheets(args.lang, players, book)
    title = output_text("emboss.pad_title", args.lang, game=_game_name(args))
    document = scorepad.pad_document(sheets, _geometry(args), _translator(args), title,
                                     args.lang)
    job = profile_named(args.embosser).job(document)
    if check_only:
        return
    what = _pads(args.lang, 1, len(sheets))
    pages = len(document.pages)
    if args.out is not None:
        if args.out.suffix.lower() == ".pef":
            write_files([(args.out, document_pef(
                document, f"org.brailledev.{args.game}.scorepad.{args.lang}"))])
        else:
            write_files([(args.out, job.data())])
        print(output_text("emboss.wrote", args.lang, path=args.out, pages=pages, what=what,
                          count=pages))
    if args.emboss is not None:
        if args.emboss.startswith("/"):
            SerialTransport(args.emboss).send(job, progress=_progress_bar(args.lang))
            print(output_text("emboss.sent", args.lang, pages=pages, device=args.emboss,
                              what=what, count=pages))
        else:
            cups = CupsTransport(args.emboss)
            cups.send(job, progress=_progress_bar(args.lang))
            print(output_text("emboss.queued", args.lang, pages=pages, printer=args.emboss,
                              job=cups.job, what=what, count=pages))


def _geometry(args: argparse.Namespace, duplex: bool = False) -> Geometry:
    if not 0 <= args.margin <= 50:
        raise PaperError("margin_range", margin=args.margin)
    # Lay out where the chosen embosser will really put the cells, so labels stay in cards.
    return profile_named(args.embosser).placed(
        Geometry(paper(args.paper), CELL_SIZES[args.cell], Margins(*[args.margin] * 4), duplex))


def _translator(args: argparse.Namespace) -> Translator:
    return translator(args.table or table_for(args.lang))


def _card_size(args: argparse.Namespace) -> CardSize:
    if args.card_size is None:
        return kit(args.game).card_size()
    try:
        width, height = (float(part) for part in args.card_size.lower().split("x"))
    except ValueError:
        raise PaperError("card_size_syntax", size=args.card_size) from None
    if not (20 <= width <= 300 and 20 <= height <= 300):
        raise PaperError("card_size_range", size=args.card_size)
    return CardSize(width, height)


def _run_deck(args: argparse.Namespace) -> int:
    args.lang = args.lang or env_lang()
    _check_numbers(args)
    faces = _faces(args)
    size = _card_size(args)
    title = output_text("emboss.deck_title", args.lang, game=_game_name(args))
    geometry, louis = _geometry(args), _translator(args)
    document = deck.deck_document(faces, geometry, size, louis, title, args.lang, args.rotate)
    per_sheet = len(deck.deck_layout(faces, geometry, size, louis, args.rotate).slots)
    _deliver(document, args, f"org.brailledev.{args.game}.deck.{args.lang}",
             output_text("emboss.deck", args.lang, labels=len(faces), per_sheet=per_sheet,
                         count=len(faces)))
    return 0


def _faces(args: argparse.Namespace) -> list[Face]:
    """The labels to emboss: the box's deck, the ``--cards`` listed, or every card of the
    ``--deck`` file a game plays with instead of the box's (the file ``play --deck`` takes,
    refused as ``play`` refuses it)."""
    the_kit = kit(args.game)
    if args.deck is None:
        return the_kit.deck_faces(args.lang, args.cards)
    keyword = next((option.keyword or name for name, option in the_kit.options.items()
                    if option.kind == "cards"), None)
    if keyword is None or the_kit.deck is None:
        raise PaperError("deck_file_not_for", game=args.game.capitalize(), choices=", ".join(
            _games_with(lambda each: any(option.kind == "cards"
                                         for option in each.options.values()))))
    cards = read_cards(args.deck)
    check_deck(args.game, keyword, args.deck, cards, the_kit.default_players)
    deck, rules, catalog = the_kit.deck, the_kit.rules(), the_kit.catalog(args.lang)
    # Not the box's cards only: a toy library's deck may hold cards the box has not.
    return [deck.face(deck.read(card, rules), catalog) for card in cards]


def _pads(lang: str, pads: int, sheets: int) -> str:
    """What a score pad job holds: "2 pads of 3 sheets", each count in its plural form."""
    return output_text("emboss.pad", lang, pads=output_text("emboss.pads", lang, count=pads),
                       sheets=output_text("emboss.sheets", lang, count=sheets))


def _game_name(args: argparse.Namespace) -> str:
    """The game's name in the document's language (the title a preview shows)."""
    return str(kit(args.game).catalog(args.lang).section("names")["game"])


def _run_pad(args: argparse.Namespace) -> int:
    args.lang = args.lang or env_lang()
    _check_numbers(args)
    if not 1 <= args.sheets <= MOST_COPIES:
        raise PaperError("sheets_range", copies=args.sheets, most=MOST_COPIES)
    # The game's own range, from its engine: a pad for a table the game cannot seat is a trap.
    the_kit = kit(args.game)
    players = the_kit.default_players if args.players is None else args.players
    the_kit.check_players(players)
    sheets = the_kit.pad_sheets(args.lang, players)
    title = output_text("emboss.pad_title", args.lang, game=_game_name(args))
    document = scorepad.pad_document(sheets, _geometry(args, args.interpoint),
                                     _translator(args), title, args.lang, args.sheets)
    _deliver(document, args, f"org.brailledev.{args.game}.scorepad.{args.lang}",
             _pads(args.lang, args.sheets, len(sheets)))
    return 0


# What --out writes, by its extension: braille to emboss, or a picture for sighted helpers.
OUT_KINDS = {".brf": "brf", ".pef": "pef", **{suffix: "preview" for suffix in PREVIEW_KINDS}}


def out_kind(out: Path | None, given: str | None) -> str | None:
    """What ``--out`` gets: ``"brf"``, ``"pef"`` or ``"preview"``, from its extension, or
    ``--format`` for a name without one of ours; ``--format`` against the extension, or a
    name of no kind, is one sentence: ``out_kind(Path("uno.pdf"), None) == "preview"``."""
    if out is None:
        return None
    by_name = OUT_KINDS.get(out.suffix.lower())
    if by_name is None:
        if given is None:
            raise PaperError("out_kind", name=out.name)
        return given
    if given is not None and given != by_name:
        raise PaperError("format_clash", format=given, name=out.name)
    return by_name


def _deliver(document: Document, args: argparse.Namespace, identifier: str,
             what: str) -> None:
    """Send the job where the command says; every file is written whole or not at all, the
    preview only with the braille (both files together, or after the job was sent). With a
    device or a queue, ``--out`` gets a copy of the exact bytes sent, once they went out."""
    sending = args.device is not None or args.printer is not None
    if args.out is None and not sending and args.preview is None:
        raise UserError("no_destination")
    kind = out_kind(args.out, args.format)
    if sending and args.out is not None and kind != "brf":
        raise PaperError("copy_kind", name=args.out.name)
    if args.format == "pef" and args.out is None:
        raise UserError("pef_needs_file")
    profile = profile_named(args.embosser)
    job = profile.job(document)
    job.check_start(args.from_page, document.geometry.duplex)
    files: list[tuple[Path, bytes]] = []
    if args.out is not None:
        _folder_exists(args.out, "out_folder_missing")
        if kind == "pef":
            files.append((args.out, document_pef(document, identifier)))
        elif kind == "preview":
            files.append((args.out, preview_data(document, args.out)))
        else:
            files.append((args.out, job.data(args.from_page)))
    if args.preview is not None:
        _folder_exists(args.preview, "preview_folder_missing")
        preview = (args.preview, preview_data(document, args.preview))
    pages = len(document.pages)
    if args.device is not None:
        SerialTransport(args.device, args.baud, args.flow, args.write_timeout).send(
            job, args.from_page, _progress_bar(args.lang))
    elif args.printer is not None:
        cups = CupsTransport(args.printer)
        cups.send(job, args.from_page, _progress_bar(args.lang))
    if args.preview is not None:
        files.append(preview)
    write_files(files)
    if args.device is not None:
        sent = pages - args.from_page + 1
        print(output_text("emboss.sent", args.lang, pages=sent, device=args.device, what=what,
                          count=sent))
    elif args.printer is not None:
        sent = pages - args.from_page + 1
        print(output_text("emboss.queued", args.lang, pages=sent, printer=args.printer,
                          job=cups.job, what=what, count=sent))
    if args.out is not None and sending:
        print(output_text("emboss.copied", args.lang, path=args.out,
                          size=len(job.data(args.from_page))))
    elif args.out is not None:
        print(output_text("emboss.wrote_preview" if kind == "preview" else "emboss.wrote",
                          args.lang, path=args.out, pages=pages, what=what, count=pages))
    if args.preview is not None:
        print(output_text("emboss.preview", args.lang, path=args.preview))


def _folder_exists(path: Path, code: str) -> None:
    if not path.parent.is_dir():
        raise TransportError(code, folder=path.parent)


def _check_numbers(args: argparse.Namespace) -> None:
    """The serial options, before any work: a speed and a wait the port can take."""
    if not BAUD_RANGE[0] <= args.baud <= BAUD_RANGE[1]:
        raise UserError("baud_range", baud=args.baud, low=BAUD_RANGE[0], high=BAUD_RANGE[1])
    if not WRITE_TIMEOUT_RANGE[0] <= args.write_timeout <= WRITE_TIMEOUT_RANGE[1]:
        raise UserError("write_timeout_range", seconds=args.write_timeout,
                        low=WRITE_TIMEOUT_RANGE[0], high=WRITE_TIMEOUT_RANGE[1])


def _progress_bar(lang: str) -> Progress | None:
    """A bar on standard error in ``lang``, only when a person watches it (a terminal)."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        filled = round(20 * done / total) if total else 20
        end = "\n" if done >= total else ""
        page = output_text("emboss.progress", lang, done=done, total=total)
        print(f"\r{page} [{'#' * filled}{'.' * (20 - filled)}]", end=end,
              file=sys.stderr, flush=True)

    return show


def embossers_report(lang: str) -> list[str]:
    """The embosser profiles, serial ports and CUPS queues, in ``lang``:
    ``embossers_report("fr")[0] == "Profils d'embosseuses (--embosser) :"``."""
    def say_out(key: str, **params: object) -> str:
        return output_text(f"embossers.{key}", lang, **params)

    lines = [say_out("profiles")]
    for profile in PROFILES.values():
        sides = say_out("interpoint" if profile.interpoint else "one_side")
        limits = say_out("any_paper") if profile.name == "generic" else say_out(
            "limits", min_width=profile.min_width, max_width=profile.max_width,
            min_height=profile.min_height, max_height=profile.max_height,
            cells=profile.max_line, sides=sides)
        lines.append(say_out("profile", name=profile.name,
                             description=say_out(f"described.{profile.name}"), limits=limits))
    ports = serial_ports()
    lines.append(say_out("ports" if ports else "ports_none"))
    lines.extend(say_out("port", device=device, description=description)
                 for device, description in ports)
    queues = cups_queues()
    lines.append(say_out("queues" if queues else "queues_none"))
    lines.extend(f"  {queue}" for queue in queues)
    return lines


def _run_embossers(args: argparse.Namespace) -> int:
    print("\n".join(embossers_report(error_lang(args.lang))))
    return 0


def _run_udev(args: argparse.Namespace) -> int:
    if args.action == "show":
        sys.stdout.write(rules_text(args.adapters))
    else:
        print(install(lang=error_lang(args.lang), adapters=args.adapters, force=args.force))
    return 0
