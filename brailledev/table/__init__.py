"""The table: the table core (a game, its seats, bots, turn clock, filtered listeners), one
person's seat (screens, messages, focus, speech) behind a link, and the key loop that drives it."""
