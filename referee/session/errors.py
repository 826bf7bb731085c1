"""The session's one error of its own: a save that could not be written. Below the store
and its lock, which both raise it."""

from __future__ import annotations


class SaveError(Exception):
    """A save could not be written; the message says what is intact (`why`: the
    system's reason, where there is one)."""

    def __init__(self, message: str, why: str = "") -> None:
        super().__init__(message)
        self.why = why


__all__ = ["SaveError"]
