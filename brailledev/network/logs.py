"""A log that stays readable under attack: one line per subject a minute.

A client breaking the protocol on 250 connections, a full disk failing every commit, a
damaged table asked for again and again: each is one line a minute, which says how many
were left out since.

    quiet = QuietLog(logging.getLogger("brailledev.network.server"))
    quiet.tell("client 203.0.113.7", "frame_not_json")    # True: logged
    quiet.tell("client 203.0.113.7", "too_fast")          # False: within the minute
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable

QUIET = 60.0  # seconds between two log lines about one subject
MOST_SUBJECTS = 65_536  # subjects remembered at once; beyond, the quiet ones are forgotten


class QuietLog:
    """One log line per subject (a client's address, a table, the store) a minute, however
    many times it is told; the line says how many were left out since its last."""

    def __init__(self, logger: logging.Logger,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log = logger
        self.clock = clock
        self.last: dict[str, tuple[float, int]] = {}

    def tell(self, subject: str, what: str, level: int = logging.WARNING) -> bool:
        """Log ``what`` of ``subject`` unless it was logged less than a minute ago;
        whether it was."""
        now = self.clock()
        when, since = self.last.get(subject, (-math.inf, 0))
        if now - when < QUIET:
            self.last[subject] = (when, since + 1)
            return False
        if len(self.last) >= MOST_SUBJECTS:
            self.last = {key: value for key, value in self.last.items()
                         if now - value[0] < QUIET}
            if len(self.last) >= MOST_SUBJECTS // 2:  # a flood of subjects: start again
                self.last.clear()
        self.last[subject] = (now, 0)
        more = f" ({since} more since its last line)" if since else ""
        self.log.log(level, "%s: %s%s", subject, what, more)
        return True
