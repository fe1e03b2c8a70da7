"""A game's random generator, saved and restored exactly: as JSON in a saved state, and as a
short text in a position line (``seed+words``, or the whole state).

    rng = random.Random(7)
    rng_from_json(rng_state_to_json(rng)).getstate() == rng.getstate()
    rng_from_text(rng_text(rng, seed=7))[1] == 7
"""

from __future__ import annotations

import base64
import math
import random
import re
import struct
from typing import Any

from games.errors import bad_state

_MT_WORDS = 624  # the Mersenne Twister's state: 624 words of 32 bits and a position
_MAX_SEARCH = 4_000  # blocks of 624 words tried when looking for a seed's position
_SEED_DIGITS = 40  # a longer seed is written as the whole state


def rng_state_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: object, at: str = "rng") -> random.Random:
    """The generator saved by :func:`rng_state_to_json`; anything else is :class:`BadState`."""
    if not isinstance(data, list) or len(data) != 3:
        raise bad_state(at, "not_a_random_state")
    version, internal, gauss = data
    if (version != 3 or not isinstance(internal, list) or len(internal) != _MT_WORDS + 1
            or not (gauss is None or (type(gauss) is float and math.isfinite(gauss)))):
        raise bad_state(at, "not_a_random_state")
    for word in internal:
        if type(word) is not int or not 0 <= word < 2**32:
            raise bad_state(at, "not_a_random_state")
    if not 1 <= internal[-1] <= _MT_WORDS:
        raise bad_state(at, "not_a_random_state")
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    return rng


def rng_text(rng: random.Random, seed: int | None = None) -> str:
    """The generator in a position line: ``"7+1234"`` when it is ``Random(7)`` after 1,234
    words of 32 bits, else its whole state (``"mt:<position>:<base64>"``, about 3 kB)."""
    _, internal, gauss = rng.getstate()
    if seed is not None and gauss is None and len(str(seed)) <= _SEED_DIGITS:
        used = _words_used(seed, internal)
        if used is not None:
            return f"{seed}+{used}"
    words = base64.urlsafe_b64encode(struct.pack(f"<{_MT_WORDS}I", *internal[:-1]))
    text = f"mt:{internal[-1]}:{words.decode('ascii').rstrip('=')}"
    return text if gauss is None else f"{text}:{gauss!r}"


def rng_from_text(text: str) -> tuple[random.Random, int | None]:
    """The generator and the seed it came from (``None`` for a whole state) of
    :func:`rng_text`; raises :class:`BadState` for anything else."""
    try:
        if text.startswith("mt:"):
            parts = text.split(":")
            words = base64.urlsafe_b64decode(parts[2] + "=" * (-len(parts[2]) % 4))
            internal = [*struct.unpack(f"<{_MT_WORDS}I", words), int(parts[1])]
            gauss = float(parts[3]) if len(parts) == 4 else None
            return rng_from_json([3, internal, gauss]), None
        found = re.fullmatch(rf"(-?[0-9]{{1,{_SEED_DIGITS}}})(?:\+([0-9]{{1,9}}))?", text)
        if found is None:
            raise bad_state("rng", "unreadable")
        seed, used = int(found.group(1)), int(found.group(2) or 0)
        if used > _MAX_SEARCH * _MT_WORDS:
            raise bad_state("rng", "too_far")
        rng = random.Random(seed)
        if used:
            rng.getrandbits(32 * used)
        return rng, seed
    except (ValueError, IndexError, struct.error):  # base64, struct and float refusals
        raise bad_state("rng", "unreadable") from None


def _words_used(seed: int, internal: tuple[int, ...]) -> int | None:
    """How many words ``Random(seed)`` gave to reach ``internal``, or ``None``. The array
    only changes every 624 words, so whole blocks are compared."""
    rng = random.Random(seed)
    if rng.getstate()[1] == internal:
        return 0
    array, position = internal[:-1], internal[-1]
    for block in range(_MAX_SEARCH):
        rng.getrandbits(32 * _MT_WORDS)
        if rng.getstate()[1][:-1] == array:
            return block * _MT_WORDS + position
    return None
