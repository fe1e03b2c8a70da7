"""The message history: everything told, in order, readable backwards; nothing vanishes.

Three kinds of message:

- *news*: what the player could not see coming (the others' moves, the card drawn, a score).
  News gathers into one message, the summary of everything since the player's last move,
  which grows while the others play; the player's next move (or refusal) closes it.
- a *step*: the player's own step ("You play b13."). The line it changed shows it (the card
  left the hand), so it is kept for reading back but never queued as unread.
- a *refusal*: shown at once where the player is (by the seat), and kept.

The message line shows the newest message; reading back (panning left on it) shows older ones,
then reading on comes back to the newest. A history held for someone else (the server's, for
a web seat, never saved) may keep only its ``most`` newest sentences: the older go first,
counted in ``dropped``, so a reader elsewhere still counts every sentence ever told.

    history = History()
    history.news("Bo plays r5.")
    history.news("Cy draws a card.")
    history.shown()                   # ('Bo plays r5. Cy draws a card.', 0)
    history.step("You play r7.")      # closes the summary; the next news starts a new one
    history.fresh                     # True: the summary was never read to its end
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from games import saved as check
from games.core import bad_state
from layouts.screen import Messages

NEWS, STEP, REFUSAL = "news", "step", "refusal"
KINDS = (NEWS, STEP, REFUSAL)
# The most messages (and sentences) a saved history holds, and the longest sentence.
MOST_MESSAGES = 200_000
LONGEST_MESSAGE = 10_000


@dataclass
class Message:
    """One message: its sentences (``parts``; a summary has several) and its kind:
    ``Message(["Bo plays r5.", "Cy draws a card."], NEWS)``."""

    parts: list[str]
    kind: str = NEWS
    # News still gathering (the player has not acted since it began).
    open: bool = False

    @property
    def text(self) -> str:
        return " ".join(self.parts)


@dataclass
class History:
    """The messages, the one being read back (``cursor``; ``None``: the newest) and how much
    of the newest the player read to its end (``read``: its parts then); at most ``most``
    sentences kept (``None``: all), ``dropped`` the older ones gone:
    ``History(most=400)``."""

    messages: list[Message] = field(default_factory=list)
    cursor: int | None = None
    read: int = 0
    most: int | None = None
    dropped: int = 0

    # ---- telling ----------------------------------------------------------------------

    def news(self, text: str) -> None:
        """Add ``text`` to the summary being gathered (or start one)."""
        last = self.messages[-1] if self.messages else None
        if last is not None and last.kind == NEWS and last.open:
            last.parts.append(text)
            self._trim()
            return
        self._add(Message([text], NEWS, open=True))

    def step(self, text: str) -> None:
        """The player's own step: kept, read, and the summary before it closed."""
        self._add(Message([text], STEP))
        self.read = 1

    def refusal(self, text: str) -> None:
        """A refusal (the seat shows it at once): kept, read, the summary closed."""
        self._add(Message([text], REFUSAL))
        self.read = 1

    def close(self) -> None:
        """The player acts: the summary gathered so far is complete (news after it starts
        the next one)."""
        for each in self.messages[-1:]:
            each.open = False

    def _add(self, message: Message) -> None:
        for each in self.messages:
            each.open = False
        self.messages.append(message)
        self.read = 0
        self._trim()

    def _trim(self) -> None:
        """Drop the oldest sentences beyond ``most``: whole messages first, then the first
        sentences of the oldest one left (a summary that grew alone)."""
        if self.most is None:
            return
        extra = sum(len(message.parts) for message in self.messages) - self.most
        while extra > 0:
            oldest = self.messages[0]
            if len(self.messages) > 1 and len(oldest.parts) <= extra:
                self.messages.pop(0)
                cut = len(oldest.parts)
                if self.cursor is not None:
                    self.cursor = max(0, self.cursor - 1)
                    if self.cursor >= len(self.messages) - 1:
                        self.cursor = None
            else:
                cut = extra
                del oldest.parts[:cut]
                if oldest is self.messages[-1]:
                    self.read = max(0, self.read - cut)
            self.dropped += cut
            extra -= cut

    # ---- reading ----------------------------------------------------------------------

    @property
    def newest(self) -> Message | None:
        return self.messages[-1] if self.messages else None

    @property
    def fresh(self) -> bool:
        """Whether the newest message is news the player has not read to its end."""
        newest = self.newest
        return newest is not None and newest.kind == NEWS and self.read < len(newest.parts)

    @property
    def index(self) -> int:
        """The index of the message shown (-1 when there is none)."""
        return len(self.messages) - 1 if self.cursor is None else self.cursor

    def shown(self) -> tuple[str, int]:
        """The text of the message shown and how many newer messages follow it."""
        if not self.messages:
            return "", 0
        index = self.index
        return self.messages[index].text, len(self.messages) - 1 - index

    def to_newest(self) -> None:
        """Show the newest message."""
        self.cursor = None

    def read_on(self) -> bool:
        """The player read past the message shown: show the next one; False when it was
        the newest (then it counts as read)."""
        if self.cursor is None:
            newest = self.newest
            self.read = len(newest.parts) if newest is not None else 0
            return False
        self.cursor += 1
        if self.cursor >= len(self.messages) - 1:
            self.cursor = None
        return True

    def read_all(self) -> None:
        """The newest message was shown whole (a display of several rows has room for it):
        it counts as read."""
        newest = self.newest
        self.read = len(newest.parts) if newest is not None else 0

    def read_back(self) -> bool:
        """Show the message before the one shown; False at the first."""
        index = self.index
        if index <= 0:
            return False
        self.cursor = index - 1
        return True

    def messages_shown(self) -> Messages:
        """What a screen shows of the history."""
        text, newer = self.shown()
        return Messages(text, newer)

    @property
    def texts(self) -> list[str]:
        """Every message's text, oldest first."""
        return [message.text for message in self.messages]

    @property
    def sentences(self) -> list[str]:
        """Every sentence kept, oldest first: sentence number ``dropped + i`` of all told is
        ``sentences[i]``, a numbering that only grows (a summary grows by its last
        sentences), so a reader elsewhere (a web page) is sent what follows the count it
        has."""
        return [part for message in self.messages for part in message.parts]

    @property
    def told(self) -> int:
        """How many sentences were ever told, the dropped ones with them."""
        return self.dropped + sum(len(message.parts) for message in self.messages)

    # ---- saving -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        return {"messages": [{"parts": list(message.parts), "kind": message.kind,
                              "open": message.open} for message in self.messages],
                "cursor": self.cursor, "read": self.read}

    @classmethod
    def from_dict(cls, data: object, at: str = "history") -> History:
        """A history saved by :meth:`to_dict`, or by brailledev 0.1 (``texts``: each its own
        message, read up to ``read``), every field checked: :class:`games.core.BadState`
        names the one at fault (``history.messages.3.kind``):
        ``History.from_dict({"messages": [], "cursor": None, "read": 0})``."""
        saved = check.need_dict(data, at)
        if "texts" in saved:
            return cls._from_texts(saved, at)
        found = check.items(check.field(saved, "messages", at), f"{at}.messages", MOST_MESSAGES)
        messages = [_message(each, f"{at}.messages.{index}", index == len(found) - 1)
                    for index, each in enumerate(found)]
        if sum(len(message.parts) for message in messages) > MOST_MESSAGES:
            raise bad_state(f"{at}.messages", "too_long", most=MOST_MESSAGES)
        cursor = saved.get("cursor")
        if cursor is not None:  # reading back stops short of the newest (then None)
            cursor = check.integer(cursor, f"{at}.cursor", 0, len(messages) - 2)
        newest = len(messages[-1].parts) if messages else 0
        read = check.integer(saved.get("read", 0), f"{at}.read", 0, newest)
        return cls(messages, cursor, read)

    @classmethod
    def _from_texts(cls, data: Mapping[str, object], at: str) -> History:
        texts = check.each(data["texts"], f"{at}.texts", MOST_MESSAGES, _part)
        read = check.integer(data.get("read", 0), f"{at}.read", 0, len(texts))
        history = cls([Message([text], NEWS) for text in texts])
        history.read = 1 if texts and read >= len(texts) else 0
        return history


def _message(data: object, at: str, newest: bool) -> Message:
    """One saved message; only the newest may still be gathering news."""
    saved = check.need_dict(data, at)
    parts = check.each(check.field(saved, "parts", at), f"{at}.parts", MOST_MESSAGES, _part,
                       least=1)
    kind = check.text(check.field(saved, "kind", at), f"{at}.kind", KINDS)
    gathering = check.flag(saved.get("open", False), f"{at}.open")
    check.ensure(not gathering or (newest and kind == NEWS), f"{at}.open", "not_newest_news")
    return Message(parts, kind, gathering)


def _part(value: object, at: str) -> str:
    if type(value) is not str:
        raise bad_state(at, "wrong_type", need="str")
    if len(value) > LONGEST_MESSAGE:
        raise bad_state(at, "too_long", most=LONGEST_MESSAGE)
    return value
