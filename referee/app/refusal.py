"""A form's answer refused when it is applied (the form stays open): kept apart from the
forms module, which is imported only when a form first opens."""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """An answer that fits the form but that applying it refused; `field` is the name of
    the field at fault, where one is."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message, self.field = message, field


def refused(error: Exception) -> Refused:
    """A refusal from an error of the rules or the files: its field is the last name on
    the error's path (an event's field: target, amount ...), which a form names alike."""
    path: tuple[Any, ...] = getattr(error, "path", ()) or ()
    field = next((part for part in reversed(path) if isinstance(part, str)), None)
    return Refused(str(error), field)
