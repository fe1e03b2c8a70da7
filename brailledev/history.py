"""The message history: everything that happened, kept until the player reads past it.

Nothing ever vanishes by itself: the message line shows the message being read, and only
the player moves on (panning past its end, or its routing key). Reading back is panning left.

    history = History()
    history.add("Bo plays r5.")
    history.read_on()        # False: nothing after it, the player is caught up
"""

from __future__ import annotations

from collections.abc import Iterable

from layouts.screen import Messages


class History:
    """Messages in order, the one being read, and how far the player has read."""

    def __init__(self, texts: Iterable[str] = (), cursor: int = -1, read: int = 0) -> None:
        self.texts: list[str] = list(texts)
        self.cursor = min(cursor, len(self.texts) - 1)
        self.read = min(read, len(self.texts))

    @property
    def unread(self) -> int:
        """Messages after the one being read that the player has not reached yet."""
        return max(0, len(self.texts) - max(self.read, self.cursor + 1))

    @property
    def caught_up(self) -> bool:
        return self.read >= len(self.texts)

    def add(self, text: str) -> bool:
        """Append ``text``; a player who had read everything now reads it. True if the
        player was caught up (the session then brings the message line into focus)."""
        was_caught_up = self.caught_up
        self.texts.append(text)
        if was_caught_up:
            self.cursor = len(self.texts) - 1
        return was_caught_up

    def read_on(self) -> bool:
        """The player read past the current message: show the next one. False when there is
        none (the player is caught up)."""
        self.read = max(self.read, self.cursor + 1)
        if self.cursor + 1 < len(self.texts):
            self.cursor += 1
            return True
        return False

    def read_back(self) -> bool:
        """Show the message before the current one; False at the first."""
        if self.cursor > 0:
            self.cursor -= 1
            return True
        return False

    def messages(self) -> Messages:
        """What a screen shows of the history."""
        return Messages(tuple(self.texts), self.cursor, self.unread)

    def to_dict(self) -> dict[str, object]:
        return {"texts": list(self.texts), "cursor": self.cursor, "read": self.read}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> History:
        texts = data.get("texts", [])
        cursor = data.get("cursor", -1)
        read = data.get("read", 0)
        if not (isinstance(texts, list) and all(isinstance(t, str) for t in texts)
                and isinstance(cursor, int) and isinstance(read, int)):
            raise ValueError("history is not a list of texts with a cursor and a read count")
        return cls(texts, cursor, read)
