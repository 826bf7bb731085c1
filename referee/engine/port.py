"""The ruleset port: everything ruleset-specific that the sessions, the app and the
command line consult. Each ruleset is one package (`referee/rulesets/<name>/`) whose
`Ruleset` subclass names the roles it fills (`ROLES`): the roster schema, the fold, the
planner, the tracker view and the damage form always (each with a working default,
`roles.py`), and the optional ones it has (declarations, initiative, acts ...,
`options.py`), which are absent otherwise.

Nothing above the engine tests a ruleset's id: it asks the ruleset for a role and renders
the specs (`Form`, `Column`, `Cell`, `Act`) the role returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from . import events as ev
from .dice import DiceError, Roll, from_values
from .dice import roll as roll_dice
from .errors import FormatError, IllegalEvent
from .options import Acting, Declaring, Entries, Grouping, Healing, Joining, Rolling, Runs
from .reading import Fields
from .roles import Damage, Fold, Planner, Role, RosterSchema, Tracker

if TYPE_CHECKING:
    import random  # annotations only: a plan rolls nothing (start-up)

__all__ = ["Acting", "Damage", "Declaring", "Entries", "Fold", "Grouping", "Healing",
           "Joining", "NO_GROUPS", "Planner", "Role", "Rolling", "RosterSchema", "Ruleset",
           "Runs", "Tracker", "dice_roll", "roll_event", "unique_keys"]

S = TypeVar("S")
R = TypeVar("R", bound=Role[Any])

# a ruleset with no groups: one mapping, the same every time (a tracker keeps its rows)
NO_GROUPS: Mapping[str, tuple[str, str]] = MappingProxyType({})


class Ruleset(Generic[S]):
    """A ruleset: its id and house rules, and the roles it fills. `config` holds what a
    referee may house-rule (its `rulesets/<id>.toml`, read by the sessions layer and
    passed in as plain data). `S` is the type of its own part of the fold."""

    id: ClassVar[str] = ""
    # the role classes it fills: its own subclass of a role every ruleset has (a default
    # instance stands in for one not named), and each optional role it has
    ROLES: ClassVar[tuple[type[Role[Any]], ...]] = ()

    def __init__(self, config: Mapping[str, Any]) -> None:
        self._config = dict(config)
        f = Fields(self._config)
        for key in ("format", "version", "id", "logic", "source"):
            f.raw(key, None)
        self.file_id = f.str("id", self.id)  # a house copy's own id
        self.name = f.str("name", self.id)
        self._players_see_own = f.str("players_see_own", "words")
        if self._players_see_own not in ("words", "hit points"):
            raise FormatError(f"expected \"words\" or \"hit points\", found "
                              f"{self._players_see_own!r}", ("players_see_own",))
        self.read(f)
        f.done()
        self._roles: list[Role[S]] = [kind(self) for kind in self.ROLES]
        self._by_kind: dict[type[Role[Any]], Role[S] | None] = {}
        self.schema: RosterSchema[S] = self._filled(RosterSchema)
        self.fold: Fold[S] = self._filled(Fold)
        self.planner: Planner[S] = self._filled(Planner)
        self.tracker: Tracker[S] = self._filled(Tracker)
        self.damage: Damage[S] = self._filled(Damage)
        # asked by the roster schema's check of every declare event (None: it takes none)
        self._declaring: Declaring[S] | None = self.role(Declaring)

    def read(self, f: Fields) -> None:
        """Read this ruleset's house-rulable numbers and tables from its file."""

    def switches(self) -> list[str]:
        """One line per house rule in force, for `referee check` of a ruleset file."""
        return []

    def role(self, kind: type[R]) -> R | None:
        """Its role of this kind (`Declaring`, `Rolling` ...), or None when it has none."""
        try:
            return cast("R | None", self._by_kind[kind])  # (a string: no union made a call)
        except KeyError:  # asked once per kind: an ABC's isinstance is slow on a hot path
            found = next((r for r in self._roles if isinstance(r, kind)), None)
            self._by_kind[kind] = found
            return found

    def _filled(self, kind: type[R]) -> R:
        return self.role(kind) or kind(self)


# -- shared helpers for rulesets ----------------------------------------------------------


def unique_keys(items: list[Any], what: str, path: tuple[str, ...]) -> None:
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        if item in seen:
            raise FormatError(f"duplicate {what} {item!r} ({path[0]}[{seen[item]}] has it)",
                              path + (index, "key"))
        seen[item] = index


def dice_roll(expr: str, rng: random.Random, real: list[int] | None = None) -> Roll:
    """A roll by the program, or the dice a person typed in."""
    try:
        return from_values(expr, real) if real is not None else roll_dice(expr, rng)
    except DiceError as error:
        raise IllegalEvent(str(error)) from None


def roll_event(round_: int, result: Roll, purpose: str, actor: str | None = None,
               real: bool = False) -> ev.Roll:
    return ev.Roll(round=round_, expr=result.expression, dice=tuple(result.rolls),
                   total=result.total, purpose=purpose, actor=actor, real=real)
