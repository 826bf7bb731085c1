"""What an agility-order ruleset file sets: how ties are broken (AO-1), the wound and
healing thresholds and a fatal wound's bonus (AO-11), the movement (AO-5) and the chain
dice (AO-8, AO-9), each within the range the rules make sense in (ranges.py)."""

from __future__ import annotations

from referee.engine import roles
from referee.engine.errors import FormatError
from referee.engine.reading import Fields
from referee.engine.record import record
from referee.hints import TYPE_CHECKING

from . import ranges as rg
from .ranges import within

if TYPE_CHECKING:
    from typing import TypeVar
else:
    from referee.hints import TypeVar

S = TypeVar("S")
ID = "agility-order"  # the ruleset's own id (a house copy's file may call itself otherwise)

TIE_MODES = ("d20", "players", "referee")


@record(frozen=True)
class Settings:
    tie_mode: str  # ties: "d20" rolls kept for the battle, "players" first, or "referee"
    wound_at: int  # a wound at this much net damage (AO-11)
    heal_removes: int  # a healing of this much removes a wound (AO-11)
    movement: int  # spaces a move covers (AO-5)
    fatal_bonus: int  # a fatal wound's damage on a 4 on its d4 (AO-11)
    chain_dice: tuple[int, ...]  # the crit and fumble chain's dice (AO-8, AO-9)


def settings_of(rs: object) -> Settings:
    """The record a ruleset read from its file (a ruleset that read none is refused)."""
    return roles.settings_of(rs, Settings)


class Settled(roles.Settled[S, Settings]):
    """A role that reads the house rules: the ruleset's record, taken once as the ruleset
    builds its roles, never the ruleset itself."""

    SETTINGS = Settings


def read(f: Fields) -> Settings:
    tie_mode: str = f.str("ties", "d20")
    if tie_mode not in TIE_MODES:
        raise FormatError(f"expected one of {', '.join(TIE_MODES)}, found {tie_mode!r}",
                          ("ties",))
    wound_at: int = f.int("wound_at", 6, *rg.WOUND_AT)
    heal_removes: int = f.int("heal_removes_wound", 6, *rg.HEAL_REMOVES)
    movement: int = f.int("movement", 6, *rg.MOVEMENT)
    fatal_bonus: int = f.int("fatal_bonus", 16, *rg.FATAL_BONUS)
    chain = f.list("chain_dice", [4, 6])
    if not chain or not all(isinstance(x, int) and not isinstance(x, bool) for x in chain):
        raise FormatError("expected a list of die sizes (2 or more), e.g. [4, 6]",
                          ("chain_dice",))
    for index, size in enumerate(chain):
        within(size, rg.DIE, ("chain_dice", index), "a die's size")
    return Settings(tie_mode, wound_at, heal_removes, movement, fatal_bonus, tuple(chain))
