"""Save files: written after every change by one policy (:class:`SaveFile`, for ``play``,
``pad`` and ``join``); the save file of a one-person game, read strictly; and a file that
cannot be resumed, set aside rather than written over.

A save is JSON: ``{"format": "brailledev-save", "version": 2, "table": Table.to_dict(),
"reader": SeatClient.to_dict()}``; version 1 (brailledev 0.1, the game and the reader in one
object) is still read. Reading trusts nothing: the file must be a regular file of at most
32 MB, UTF-8 JSON without NaN, nesting or numbers beyond what a save holds; then every field
of the table and the reader is checked as it is used (:meth:`brailledev.table.core.Table.from_dict`,
the engines' ``from_dict``, the screens' ``load_input``). Whatever is wrong is an
:class:`Unreadable` carrying the reason in words (:func:`damage`), never a Python error.

    saving = SaveFile(Path("uno.json"))
    saving.write(session.to_dict, session.seat)   # told to the seat when it fails
    data = read_save(Path("uno.json"))    # the save as version 2, or Unreadable
    kept = set_aside(Path("uno.json"))    # uno.broken-20250101-120000.json
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from brailledev.files import NotAFile, TooBig, private_folder, read_file, write_atomically
from brailledev.table.seat import SeatClient
from games.core import BadState, Reason
from games.saved import field, integer, need_dict, text
from layouts.errors import Problem, UserError, system_reason

SAVE_FORMAT = "brailledev-save"
SAVE_VERSION = 2
MOST_BYTES = 32 * 2**20
# The words of a refused field by its ``why`` (a code of [errors]) and the parameters they
# need; other reasons are told in general words (``damage_other``).
DAMAGE_WORDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "missing": ("damage_missing", ()), "wrong_type": ("damage_wrong_type", ()),
    "too_long": ("damage_too_long", ()), "too_short": ("damage_too_short", ()),
    "too_deep": ("damage_too_deep", ()), "not_finite": ("damage_not_finite", ()),
    "not_a_random_state": ("damage_not_a_random_state", ()),
    "not_a_dict": ("damage_not_a_dict", ()), "wrong_seats": ("damage_wrong_seats", ()),
    "not_a_bot": ("damage_not_a_bot", ()),
    "out_of_range": ("damage_out_of_range", ("low", "high")),
    "unknown_card": ("damage_unknown_card", ("card",)),
    "unknown_value": ("damage_unknown_value", ("value",)),
    "card_twice": ("damage_card_twice", ("card",)),
    "card_lost": ("damage_card_lost", ("card",)), "twice": ("damage_twice", ("value",)),
}

class SaveFile:
    """Where a program keeps what it must not lose, written after every change by one policy:
    atomically (the old file or the new one, never half), readable by its owner only, in a
    folder that is too. A write that fails leaves the program going on in memory: the seat
    is told once that saving fails and why (``failing``, a sentence of its catalog, in its
    language), every change tries again, and once a write works the seat is told so, once.
    ``path`` ``None``: nothing is written.

        saving = SaveFile(Path("pad.json"), failing="pad_save_failing")
        saving.write(pad.to_dict, pad.seat)
        saving.check_lost("pad_save_failed_at_end")   # at the end: one sentence if it failed
    """

    def __init__(self, path: Path | None, failing: str = "save_failing") -> None:
        self.path = path
        self.failing = failing
        # The error of the last write when it failed (the seat was told), else None.
        self.failure: OSError | None = None

    def write(self, data: Callable[[], Mapping[str, Any]], seat: SeatClient) -> None:
        """Write what ``data`` gives (asked only when there is a file to write), telling
        ``seat`` when saving starts failing and when it works again."""
        if self.path is None:
            return
        encoded = json.dumps(data(), ensure_ascii=False).encode("utf-8")
        try:
            private_folder(self.path.parent)
            write_atomically(self.path, encoded, mode=0o600)
        except OSError as error:
            if self.failure is None:
                seat.tell(seat.catalog.text(self.failing, path=self.path,
                                            reason=system_reason(error).text(seat.lang)))
            self.failure = error
            return
        if self.failure is not None:
            self.failure = None
            seat.tell(seat.catalog.text("save_works_again", path=self.path))

    def check_lost(self, code: str) -> None:
        """At the end: when the last write failed, what changed since the last one that
        worked is lost, said in one sentence (UserError ``code`` with the path and why)."""
        if self.failure is not None:
            raise UserError(code, path=self.path, reason=system_reason(self.failure))


class Unreadable(Exception):
    """A file that cannot be resumed: ``detail`` says why, in words (a :class:`Problem`);
    ``newer`` is the version of a save written by a newer brailledev:
    ``Unreadable(Problem("damage_not_json", line=1, column=2))``."""

    def __init__(self, detail: Problem, newer: int | None = None) -> None:
        super().__init__(detail.text("en"))
        self.detail = detail
        self.newer = newer


def damage(error: BadState, within: str = "") -> Problem:
    """A refused field in words: where (``within`` + its ``at``) and what is wrong with it:
    ``damage(bad_state("hands.1", "unknown_card", card="z9"), "table.state")``."""
    params = error.reason.params
    inner = str(params.get("at", ""))
    at = f"{within}.{inner}" if within and inner else within or inner or "?"
    code, needs = DAMAGE_WORDS.get(str(params.get("why", "")), ("damage_other", ()))
    if any(name not in params for name in needs):
        code, needs = "damage_other", ()
    return Problem(code, at=at, **{name: params[name] for name in needs})


def read_save(path: Path) -> dict[str, Any]:
    """The save in ``path`` as version 2 (format and version checked, version 1 turned into
    2; the table and the reader are checked by those who use them). ``FileNotFoundError``
    when there is no file, else :class:`Unreadable`: ``read_save(Path("uno.json"))``."""
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise Unreadable(Problem("damage_not_a_save"))
    version = data.get("version")
    if type(version) is int and version > SAVE_VERSION:
        raise Unreadable(Problem("damage_newer", version=min(version, 10**9)),
                         newer=min(version, 10**9))
    try:
        if version == 1:
            return _from_version_1(data)
        if version != SAVE_VERSION:
            raise BadState(Reason.of("bad_state", at="version", why="unknown_value",
                                     value=str(version)[:20]))
        need_dict(field(data, "table"), "table")
        need_dict(field(data, "reader"), "reader")
    except BadState as error:
        raise Unreadable(damage(error)) from None
    return data


def read_json(path: Path, most: int = MOST_BYTES) -> Any:
    """The JSON of the regular file ``path`` (at most ``most`` bytes), read strictly:
    ``FileNotFoundError`` when there is none, else :class:`Unreadable` with the reason in
    words: ``read_json(Path("tables/server-tkrzvm.json"))``."""
    try:
        raw = read_file(path, most)
    except FileNotFoundError:
        raise
    except NotADirectoryError:  # a folder on the way is a file: no file can be there
        raise FileNotFoundError(path) from None
    except IsADirectoryError:
        raise Unreadable(Problem("damage_folder")) from None
    except NotAFile:
        raise Unreadable(Problem("damage_not_file")) from None
    except TooBig:
        raise Unreadable(Problem("damage_too_big", most=most // 2**20)) from None
    except OSError as error:
        raise Unreadable(Problem("damage_cannot_read",
                                 reason=error.strerror or type(error).__name__)) from None
    return parse_json(raw)


def parse_json(raw: bytes) -> Any:
    """The JSON in ``raw``: text, well formed, no NaN or Infinity, not too deep; else
    :class:`Unreadable`: ``parse_json(b'{"a": 1}')``."""
    try:
        words = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable(Problem("damage_not_text")) from None
    try:
        return json.loads(words, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as error:
        raise Unreadable(Problem("damage_not_json", line=error.lineno,
                                 column=error.colno)) from None
    except RecursionError:
        raise Unreadable(Problem("damage_too_deep_file")) from None
    except ValueError:  # an integer longer than Python reads (4,300 digits), or NaN
        raise Unreadable(Problem("damage_number")) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a save holds")


def _finite(literal: str) -> float:
    number = float(literal)
    if not math.isfinite(number):
        raise ValueError(f"{literal} is not a finite number")
    return number


def _from_version_1(data: Mapping[str, Any]) -> dict[str, Any]:
    """A save of brailledev 0.1 (one object holding the game and the reader together)."""
    seat = integer(field(data, "seat"), "seat", 0, 99)
    table = data.get("table")
    return {"format": SAVE_FORMAT, "version": SAVE_VERSION,
            "table": {"game": field(data, "game"), "state": field(data, "state"),
                      "people": [seat], "bots": field(data, "bots"),
                      "bot_seed": field(data, "bot_seed"), "moves": data.get("moves", 0)},
            "reader": {"seat": seat, "lang": field(data, "lang"),
                       "braille_table": None if table is None else text(table, "table"),
                       "history": field(data, "history")}}


def set_aside(path: Path, kind: str = "broken") -> Path:
    """Rename the file at ``path`` beside it as ``NAME.KIND-DATE.json`` (``broken``, or
    ``unfinished`` for a game a new one replaces; a number added if that is taken) and
    return the new name; raises ``OSError``: ``set_aside(Path("uno.json"))``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for number in range(100):
        suffix = f"-{number}" if number else ""
        kept = path.with_name(f"{path.stem}.{kind}-{stamp}{suffix}{path.suffix or '.json'}")
        if not kept.exists() and not kept.is_symlink():
            os.rename(path, kept)
            return kept
    raise FileExistsError(f"no free name beside {path}")
