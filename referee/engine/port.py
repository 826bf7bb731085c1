"""The ruleset port: everything ruleset-specific that the sessions, the app and the
command line consult. Each ruleset is one package (`referee/rulesets/<name>/`) whose
`Ruleset` subclass names the roles it fills (`ROLES`): the roster schema, the fold, the
planner, the tracker view and the damage form always (each with a working default,
`roles.py`), and the optional ones it has (declarations, initiative, acts ...,
`options.py`), which are absent otherwise. A role named by where its class is (`Later`)
is imported and made the first time it is asked for: a plan asks for a few of a
ruleset's roles, and its start-up is its speed.

Nothing above the engine tests a ruleset's id: it asks the ruleset for a role and renders
the specs (`Form`, `Column`, `Cell`, `Act`) the role returns.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from types import MappingProxyType

from referee.hints import TYPE_CHECKING

from . import events as ev
from .dice import DiceError, Roll, from_values
from .dice import roll as roll_dice
from .errors import FormatError, IllegalEvent
from .options import (
    Acting,
    Carrying,
    Declaring,
    Ending,
    Entries,
    Grouping,
    Healing,
    Joining,
    Rolling,
    Runs,
)
from .reading import Fields
from .roles import Damage, Fold, Planner, Role, RosterSchema, Tracker

if TYPE_CHECKING:
    import random  # annotations only: a plan rolls nothing (start-up)
    from typing import Any, ClassVar, Generic, TypeVar, cast
else:
    from referee.hints import Any, ClassVar, Generic, TypeVar, cast

__all__ = ["Acting", "Carrying", "Damage", "Declaring", "Ending", "Entries", "Fold", "Grouping",
           "Healing", "Joining", "KINDS", "Later", "NO_GROUPS", "Planner", "Role", "Rolling",
           "RosterSchema", "Ruleset", "Runs", "Tracker", "dice_roll", "roll_event",
           "unique_keys"]

S = TypeVar("S")
R = TypeVar("R", bound=Role[Any])

# a ruleset with no groups: one mapping, the same every time (a tracker keeps its rows)
NO_GROUPS: Mapping[str, tuple[str, str]] = MappingProxyType({})


# the kinds of role (roles.py and options.py): a role's class fills exactly one of them
KINDS: tuple[type[Role[Any]], ...] = (RosterSchema, Fold, Planner, Tracker, Damage, Declaring,
                                      Rolling, Grouping, Runs, Acting, Healing, Joining,
                                      Entries, Carrying, Ending)


# each kind asked for -> the KINDS it is (a subclass of): a ruleset is asked for its roles
# by kind at each load, and a class's bases do not change
_KINDS_OF: dict[type, frozenset[type[Role[Any]]]] = {}


class Later:
    """A role named by where its class is, not imported: `Later(Declaring,
    ".declaring:DemonIdolDeclaring")`, its module relative to the package of the ruleset
    that names it. The module is imported and the role made the first time the ruleset is
    asked for a role it may be (its kind, a subclass of that, or `Role` itself); its class
    must fill `kind` and no other of KINDS. (A plain class: a NamedTuple's is built with
    exec at start-up.)"""

    __slots__ = ("kind", "where", "found")

    def __init__(self, kind: type[Role[Any]], where: str) -> None:
        if kind not in KINDS or where.count(":") != 1:
            raise TypeError(f"Later({kind.__name__}, {where!r}): a kind of role and "
                            "'module:Class'")
        self.kind, self.where = kind, where
        # (the package, its class found there): a ruleset's roles are made at each load
        # of it, each from the class found the first time, not imported and checked again
        self.found: tuple[str | None, type[Role[Any]]] | None = None

    def role_class(self, package: str | None) -> type[Role[Any]]:
        """Its class, imported (relative to `package`) and checked."""
        found = self.found
        if found is not None and found[0] == package:
            return found[1]
        from importlib import import_module  # loaded by then: the ruleset was found by it

        module, _, name = self.where.partition(":")
        cls = getattr(import_module(module, package), name)
        filled = [k for k in KINDS if isinstance(cls, type) and issubclass(cls, k)]
        if filled != [self.kind]:
            raise TypeError(f"{self.where} fills {[k.__name__ for k in filled]}, "
                            f"not {self.kind.__name__} alone")
        self.found = (package, cls)
        return cast("type[Role[Any]]", cls)

    def __repr__(self) -> str:
        return f"Later({self.kind.__name__}, {self.where!r})"


class Filled(Generic[R]):
    """A role every ruleset has (`rs.schema`, `rs.fold` ...): its own, else the default,
    made the first time it is asked for and kept on the ruleset as a plain attribute (no
    call on a hot path from then on)."""

    def __init__(self, kind: type[R], default: bool = True) -> None:
        self.kind, self.default, self.name = kind, default, ""

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.name = name

    def __get__(self, rs: Ruleset[Any] | None, owner: type[Any] | None = None) -> Any:
        if rs is None:
            return self
        found = rs.role(self.kind)
        if found is None and self.default:
            found = self.kind(rs)
        # (setdefault: two threads asking at once keep one and the same role)
        return rs.__dict__.setdefault(self.name, found)


class Ruleset(Generic[S]):
    """A ruleset: its id and house rules, and the roles it fills. `config` holds what a
    referee may house-rule (its `rulesets/<id>.toml`, read by the sessions layer and
    passed in as plain data). `S` is the type of its own part of the fold."""

    id: ClassVar[str] = ""
    # the roles it fills: its own subclass of a role every ruleset has (a default
    # instance stands in for one not named), and each optional role it has; each a class
    # (made with the ruleset) or a `Later` (made the first time it is asked for)
    ROLES: ClassVar[tuple[type[Role[Any]] | Later, ...]] = ()

    # made the first time each is asked for (see Filled); a role named by its class is
    # made with the ruleset, and so are these when no Later names their kind
    schema: RosterSchema[S] = cast(Any, Filled(RosterSchema))
    fold: Fold[S] = cast(Any, Filled(Fold))
    planner: Planner[S] = cast(Any, Filled(Planner))
    tracker: Tracker[S] = cast(Any, Filled(Tracker))
    damage: Damage[S] = cast(Any, Filled(Damage))
    # asked by the roster schema's check of every declare event (None: it takes none)
    _declaring: Declaring[S] | None = cast(Any, Filled(Declaring, default=False))

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
        # each of ROLES: the role, or its Later until the role is first asked for
        self._roles: list[Role[S] | Later] = [
            kind if isinstance(kind, Later) else kind(self) for kind in self.ROLES]
        self._by_kind: dict[type[Role[Any]], Role[S] | None] = {}
        later = {held.kind for held in self._roles if isinstance(held, Later)}
        for name in ("schema", "fold", "planner", "tracker", "damage", "_declaring"):
            filled: Filled[Any] = vars(Ruleset)[name]
            if filled.kind not in later:  # nothing to import: made now, as before
                getattr(self, name)

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
            found = self._find(kind)
            # (setdefault: two threads asking at once keep one and the same role)
            return cast("R | None", self._by_kind.setdefault(kind, found))

    def _find(self, kind: type[R]) -> R | None:
        """The first of its roles that is a `kind`, each Later that may be one made on the
        way (one whose kind is not among those `kind` is can be no `kind`)."""
        kinds = _KINDS_OF.get(kind)
        if kinds is None:  # none for Role itself
            kinds = _KINDS_OF[kind] = frozenset(k for k in KINDS if issubclass(kind, k))
        for index, held in enumerate(self._roles):
            if isinstance(held, Later):
                if not kinds <= {held.kind}:
                    continue
                held = self._made(index, held)
            if isinstance(held, kind):
                return held
        return None

    def _made(self, index: int, later: Later) -> Role[S]:
        """The role `later` names, made once (its module imported on the way)."""
        owner = next(c for c in type(self).__mro__ if "ROLES" in vars(c))
        made = later.role_class(sys.modules[owner.__module__].__package__)(self)
        roles = self._roles
        if roles[index] is later:  # (two threads made it at once: the first one kept)
            roles[index] = made
        return cast("Role[S]", roles[index])


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
