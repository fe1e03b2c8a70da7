"""Errors meant for people: one sentence saying what is wrong and what to do."""


class UserError(Exception):
    """Shown as its message alone, no traceback (unless ``--debug``), exit status 2."""
