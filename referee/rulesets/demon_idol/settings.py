"""What a demon-idol ruleset file sets: the initiative die, death and bleeding (DI-2,
DI-19), the letters and the role each stands for, and the by-the-book switches."""

from __future__ import annotations

from referee.engine import roles
from referee.engine.errors import FormatError
from referee.engine.port import unique_keys
from referee.engine.reading import Fields
from referee.engine.record import record
from referee.hints import TYPE_CHECKING

from . import ranges

if TYPE_CHECKING:
    from typing import Any, TypeVar
else:
    from referee.hints import Any, TypeVar

S = TypeVar("S")
ID = "demon-idol"  # the ruleset's own id (a house copy's file may call itself otherwise)

# The by-the-book switches: key -> (rule id, on, off). Off is the Demon Idol procedure.
BOOK: dict[str, tuple[str, str, str]] = {
    "weapon_speed_blows": (
        "DMG-66", "tied rounds: a weapon twice as fast or 5 factors faster strikes twice "
                  "before the slower one, 10 faster a third time with it (DMG-66)",
        "tied rounds: one blow each, by speed factor (DI-11; not DMG-66)"),
    "caster_speed_less_die": (
        "DMG-67", "melee against a caster: the attacker's side lost, speed factor less its "
                  "die (negative counts as positive); tied, nothing off; the caster's side "
                  "lost, the blow first (DMG-67)",
        "melee against a caster: speed factor against casting time (DI-10; not DMG-67)"),
    "missiles_on_die_segment": (
        "DMG-65", "missiles against a caster whose side won land on the segment of the "
                  "caster's side's die (DMG-65)",
        "missiles against a caster by die only in tied rounds (DI-12; not DMG-65)"),
    "routines_first_and_last": (
        "DMG-62", "multiple attack routines (G) strike first and last, whichever side won; "
                  "several on both sides, routine by routine in initiative order (DMG-62)",
        "multiple routines slot in before the winner's first attack (DI-7; not DMG-62)"),
    "volley_shots_in_turn": (
        "DMG-63", "a volley's shots one after another; a charge's contact stops them (DMG-63)",
        "a volley's shots in one beat (DI-7; not DMG-63)"),
    "devices_by_usage_time": (
        "DMG-64", "devices go off on their usage time's segment against the enemy's die "
                  "(DMG-64)",
        "devices at the D place (DI-3; not DMG-64)"),
}

# the role each letter stands for, in the letter order of the book (P, A ... G)
LETTER_ROLES = ("psionic", "avoid", "parley", "await", "discharge", "move", "set", "strike")


@record(frozen=True)
class Settings:
    die: int  # the initiative die, one per side (DI-2)
    death_at: int  # dead at this many hit points (DI-19)
    bleed: int  # hit points lost a round below 0 (DI-19)
    letters: list[tuple[str, str, str]]  # (key, name, role), in the file's order
    role_of: dict[str, str]  # letter -> role
    letter_of: dict[str, str]  # role -> letter
    order: list[str]  # the letters in order, psionics (at the top of every segment) aside
    # By the book: where the DMG differs from the Demon Idol procedure (all off: DI)
    book: dict[str, bool]


def settings_of(rs: object) -> Settings:
    """The record a ruleset read from its file (a ruleset that read none is refused)."""
    return roles.settings_of(rs, Settings)


class Settled(roles.Settled[S, Settings]):
    """A role that reads the house rules: the ruleset's record, taken once as the ruleset
    builds its roles, never the ruleset itself."""

    SETTINGS = Settings


def read(f: Fields) -> Settings:
    die = f.int("initiative_die", 6, minimum=2)
    death_at = f.int("death_at", -10)
    bleed = f.int("bleed", 1, minimum=0)
    ranges.check({"initiative_die": die, "death_at": death_at, "bleed": bleed},
                 ranges.RULESET, f.path)
    letters = read_letters(f.list("letters", None))
    return Settings(die, death_at, bleed, letters,
                    role_of={key: role for key, _, role in letters},
                    letter_of={role: key for key, _, role in letters},
                    order=[key for key, _, role in letters if role != "psionic"],
                    book={key: bool(f.bool(key, False)) for key in BOOK})


def read_letters(items: list[Any] | None) -> list[tuple[str, str, str]]:
    if items is None:
        return [(key, role, role) for key, role in zip("PABCDEFG", LETTER_ROLES, strict=True)]
    letters = []
    for index, item in enumerate(items):
        f = Fields(item, ("letters", index))
        key, name = f.str("key"), f.str("name", "")
        role = f.str("role")
        if role not in LETTER_ROLES:
            raise FormatError(f"unknown role {role!r} (roles: {', '.join(LETTER_ROLES)})",
                              f.sub("role"))
        f.done()
        letters.append((key, name or role, role))
    unique_keys([key for key, _, _ in letters], "letter", ("letters",))
    missing = [role for role in LETTER_ROLES if role not in {r for _, _, r in letters}]
    if missing:
        raise FormatError(f"no letter for {', '.join(missing)}", ("letters",))
    return letters
