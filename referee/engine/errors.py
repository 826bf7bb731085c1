"""Precise exceptions: each carries the path of the field at fault and the reason."""

from __future__ import annotations

Path = tuple[str | int, ...]

# why an ended fight refuses what would move it on (an event, an act): one message for all
OVER = "the fight is over: an undo (ctrl+z) takes the end back"


def format_path(path: Path) -> str:
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


class RefereeError(Exception):
    """Base class: something in an encounter, a ruleset or an event is wrong."""

    def __init__(self, reason: str, path: Path = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path = tuple(path)

    @property
    def field(self) -> str:
        return format_path(self.path)

    def at(self, *prefix: str | int) -> RefereeError:
        """The same error, with its path placed under ``prefix``."""
        self.path = tuple(prefix) + self.path
        return self

    def __str__(self) -> str:
        return f"{self.field}: {self.reason}" if self.path else self.reason


class FormatError(RefereeError):
    """A field is missing, mistyped, unknown or out of range."""


class UnknownId(RefereeError):
    """A reference names something that does not exist."""


class UnknownCombatant(UnknownId):
    pass


class UnknownSide(UnknownId):
    pass


class UnknownWeapon(UnknownId):
    pass


class UnknownSpell(UnknownId):
    pass


class DuplicateId(RefereeError):
    pass


class IllegalDeclaration(RefereeError):
    """A declaration the rules do not allow (a dead actor, an unknown letter, ...)."""


class IllegalEvent(RefereeError):
    """An event that cannot happen in the state the fight is in."""
