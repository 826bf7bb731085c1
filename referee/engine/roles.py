"""The roles every ruleset fills: its roster schema, its fold, its planner, its tracker
view and its damage form. Each is a small class with a working default; a ruleset names
its own subclass of a role in `Ruleset.ROLES` and overrides the few hooks it needs.

A role reaches the rest of its ruleset through `self.rs` (`self.rs.tracker`,
`self.rs.fold` ...) and the ruleset's state of a fight through `self.state(fight)`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from referee.hints import TYPE_CHECKING

from . import events as ev
from .errors import IllegalDeclaration
from .plan import Plan, action_key
from .specs import Cell, Column, Field

if TYPE_CHECKING:
    from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

    from .model import Combatant, Encounter, Schemas
    from .view import Effects, Fight, Status
else:
    from referee.hints import Any, ClassVar, Generic, Protocol, TypeVar, cast


S = TypeVar("S")


class Checks(Protocol):
    """The declarations role as the roster schema's check of a declare event asks it."""

    def check_declaration(self, fight: Fight, event: ev.Declare) -> None: ...


class Kit(Protocol[S]):
    """A ruleset as its roles reach it (`port.Ruleset` fills it): its names, the roles
    every ruleset has, the declarations role when it has one, and any role by kind."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def _players_see_own(self) -> str: ...
    @property
    def schema(self) -> RosterSchema[S]: ...
    @property
    def fold(self) -> Fold[S]: ...
    @property
    def planner(self) -> Planner[S]: ...
    @property
    def tracker(self) -> Tracker[S]: ...
    @property
    def damage(self) -> Damage[S]: ...
    @property
    def _declaring(self) -> Checks | None: ...
    def role(self, kind: type[R]) -> R | None: ...


class Role(Generic[S]):
    """One part of a ruleset, asked for by what it does."""

    def __init__(self, rs: Kit[S]) -> None:
        self.rs = rs

    def state(self, fight: Fight) -> S:
        """The ruleset's state as the fight's fold has it now (held untyped there)."""
        return cast(S, fight.rs)


# bound by the class itself: a bound given by name is compiled when the module is imported,
# and Python's first compile() makes every class of its syntax tree (a few milliseconds of
# every command's start)
R = TypeVar("R", bound=Role[Any])


C = TypeVar("C")


def settings_of(rs: object, kind: type[C]) -> C:
    """The record of house rules a ruleset read from its file, of its own `kind` (a
    ruleset that read none is refused)."""
    found = getattr(rs, "settings", None)
    if not isinstance(found, kind):
        raise TypeError(f"{type(rs).__name__} has read no {kind.__module__}.{kind.__name__}")
    return found


class Settled(Role[S], Generic[S, C]):
    """A role that reads the house rules: the ruleset's record (`settings`, of the kind its
    SETTINGS names), taken once as the ruleset builds its roles, never the ruleset."""

    SETTINGS: ClassVar[type[Any]]
    settings: C

    def __init__(self, rs: Kit[S]) -> None:
        super().__init__(rs)
        self.settings = settings_of(rs, self.SETTINGS)


CheckEvent = TypeVar("CheckEvent", bound=Callable[..., None])


def checks_only(*kinds: type[ev.Event]) -> Callable[[CheckEvent], CheckEvent]:
    """Marks a schema's `check_event` as saying something of events of `kinds` (and their
    subclasses) alone, so that the fold asks it of no other (its checks, once a class)."""
    def mark(method: CheckEvent) -> CheckEvent:
        method.only = kinds  # type: ignore[attr-defined]
        return method
    return mark


Hook = TypeVar("Hook", bound=Callable[..., Any])


def by_class(table: Mapping[type, Callable[..., Any]],
             bound: bool = False) -> Callable[[Hook], Hook]:
    """Marks a hook (a schema's `check_event`, a fold's `apply`) that does nothing but
    call `table[type(event)]` with its own arguments (`bound`: its object's too, first;
    else without it), and nothing for a class not in it: the fold then calls the entry
    for each class itself, a call fewer each event. A hook replaced (in a subclass, a
    test) is not marked: it is called as it is."""
    def mark(method: Hook) -> Hook:
        method.table, method.bound = table, bound  # type: ignore[attr-defined]
        return method
    return mark


def event_check(schema: RosterSchema[Any],
                kind: type[ev.Event]) -> Callable[[Fight, Any], None] | None:
    """What checks the events of class `kind` (the fold asks once a class and fight):
    the schema's `check_event`, or None where it says it has nothing to say of them."""
    only = getattr(type(schema).check_event, "only", None)
    if only is not None and not issubclass(kind, only):
        return None
    return schema.check_event


class RosterSchema(Role[S]):
    """What a save of this ruleset may hold: the keys it adds to the roster, the gear
    its combatants carry, its own events, and its checks of both."""

    # the gear lists its combatants carry: set-up offers only these (a file may hold more)
    GEAR: ClassVar[tuple[str, ...]] = ("weapons", "spells")

    def combatant_fields(self) -> tuple[Field, ...]:
        return ()

    def weapon_fields(self) -> tuple[Field, ...]:
        return ()

    def spell_fields(self) -> tuple[Field, ...]:
        return ()

    def side_fields(self) -> tuple[Field, ...]:
        return ()

    def encounter_fields(self) -> tuple[Field, ...]:
        """Top-level keys of a save (squads, groups ...)."""
        return ()

    def events(self) -> tuple[type[ev.Event], ...]:
        """Its own event types; one with a core type's name takes the core's place."""
        return ()

    @property
    def schemas(self) -> Schemas:
        found: Schemas | None = self.__dict__.get("_schemas")
        if found is None:
            from .model import Schemas

            found = self.__dict__["_schemas"] = Schemas(self)
        return found

    @property
    def reader(self) -> ev.EventReader:
        found: ev.EventReader | None = self.__dict__.get("_reader")
        if found is None:
            from .model import read_combatant

            schemas = self.schemas
            found = self.__dict__["_reader"] = ev.EventReader(
                ev.event_types(self.events()),
                lambda data, path: read_combatant(data, path, schemas))
        return found

    def event(self, kind: str, **values: Any) -> ev.Event:
        """An event of this ruleset's class for `kind` (its own declare, initiative ...)."""
        return self.reader.types[kind](**values)

    def check_encounter(self, encounter: Encounter) -> None:
        """Rules over the whole roster (squad sizes, groups of one side ...)."""

    @checks_only(ev.Declare)
    def check_event(self, fight: Fight, event: ev.Event) -> None:
        """Refuse an event the rules do not allow now (`IllegalEvent`). A ruleset whose
        check has nothing to say of most event classes names those it checks
        (`checks_only`): the fold calls it for theirs alone."""
        if isinstance(event, ev.Declare):
            declaring = self.rs._declaring
            if declaring is None:
                raise IllegalDeclaration(f"{self.rs.id} takes no declarations: its "
                                         "combatants act through its acts", ("action",))
            declaring.check_declaration(fight, event)


class Fold(Role[S]):
    """The ruleset's part of the fold of the log: its own state (immutable, typed `S`)
    and what each event does to it and to the combatants (new `Status` records the hooks
    return: `entering`, `apply_damage`, `effects`; none changes the fight)."""

    SHAPING: ClassVar[frozenset[str]] = frozenset({
        "declare", "initiative", "join", "end", "death", "damage", "heal"})

    def start(self, fight: Fight) -> S:
        """The ruleset's state before any event (immutable; `apply` returns a new one)."""
        return cast(S, None)

    def apply(self, fight: Fight, state: S, event: ev.Event) -> S:
        """The state after `event`; never changes `state` itself."""
        return state

    def steps(self, kind: type[ev.Event]) -> bool:
        """Whether `apply` may change the state for an event of class `kind` (asked once
        a class and fight: the fold calls `apply` only for the classes it steps)."""
        return True

    def new_round(self, fight: Fight, state: S) -> S:
        """The fold enters a new round (before the event that opens it is applied): the
        state for it (the core has worked out the statuses for it: conditions run down)."""
        return state

    def entering(self, combatant: Combatant, status: Status) -> Status:
        """A combatant's status as it enters the fight (at the start, or joining), given
        the core's (its hit points and conditions): with the values the ruleset keeps
        beside hit points (`marks`: Stress, wounds ...) or its rules (Elite Hits), a new
        record (`status.changed(...)`)."""
        return status

    def shapes_plan(self, event: ev.Event) -> bool:
        """Whether `event` can change a plan (a new plan is worked out after it)."""
        return event.TYPE in self.SHAPING

    def apply_damage(self, fight: Fight, status: Status, event: ev.Damage) -> Status:
        """The combatant's status after `event` (a new one: `status.changed(...)`;
        `status` itself, and its tables, stay as they are)."""
        return status.changed(hp=status.hp - event.amount)

    def effects(self, fight: Fight, event: ev.Event) -> Effects | None:
        """What `event` does to the fight by the ruleset's rules beyond the core's own
        step (None: nothing): the new statuses of the combatants it changes, the planned
        actions it marks done. The core stores them after its step and before `apply`,
        which reads them; no hook changes a status or the fight itself."""
        return None

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        """Events the rules add once `event` is in the log (spells lost, deaths)."""
        return []

    def end_of_round(self, fight: Fight) -> list[ev.Event]:
        """Events the rules add when the current round ends (bleeding, lapses)."""
        return []


class Planner(Role[S]):
    """Who acts when: the plan of a round, and who can no longer act in it."""

    def plan(self, fight: Fight, round_: int) -> Plan:
        return Plan(self.rs.id, round_, [])

    def plan_round(self, fight: Fight) -> int:
        """The round `referee plan` shows: the latest with declarations by default."""
        rounds = [r for r, items in fight.declarations.items() if items]
        return max(rounds) if rounds else max(fight.round, 1)

    def can_act(self, fight: Fight, cid: str) -> str:
        """Why `cid` cannot act now ("" when it can): dead, dying, down, surprised."""
        return "dead" if fight.status[cid].dead else ""

    def unable(self, fight: Fight, cid: str, beat: int) -> tuple[str, str] | None:
        """(rule, why) when `cid` can no longer take its action in beat `beat` of the
        current round's plan; None when it can."""
        why = self.can_act(fight, cid)
        return ("", why) if why else None

    def mark_unable(self, fight: Fight, plan: Plan) -> Plan:
        """The plan with every action not yet done whose actor can no longer act
        (`unable`: the (rule, why), or None) marked skipped (`"skipped"` on the action
        and a line in `plan.skipped`, with the rule); a planner whose plan leaves them
        out keeps it as it is."""
        return marked_unable(self, fight, plan)


def marked_unable(planner: Planner[Any], fight: Fight, plan: Plan,
                  among: set[str] | None = None) -> Plan:
    """`Planner.mark_unable`, asking `unable` only of the actions of `among` when given
    (a planner that knows who alone can be unable: a big round has thousands of
    actions)."""
    if plan.round != max(fight.round, 1):
        return plan  # a round gone by: its plan is what happened
    done = fight.resolved.get(plan.round, set())
    unable = planner.unable
    for number, beat in enumerate(plan.beats, start=1):
        for index, action in enumerate(beat.actions):
            if (among is not None and action.actor not in among) \
                    or action_key(beat, action) in done or action.flag("skipped"):
                continue
            found = unable(fight, action.actor, number)
            if found is None:
                continue
            rule, why = found
            beat.actions[index] = action.with_extra(skipped=why)
            entry = {"actor": action.actor, "action": action.action, "why": why}
            plan.skipped.append({**entry, "rule": rule} if rule else entry)
    return plan


class Tracker(Role[S]):
    """What the tracker, the status line, the log and the players' view show of a
    fight, in the ruleset's own words."""

    @property
    def players_see_own(self) -> str:
        """What the players' view shows of the players' own side: "words" (as for the
        enemy) or "hit points". Exact enemy hit points are never shown."""
        seen: str = self.rs._players_see_own
        return seen

    def columns(self) -> tuple[Column, ...]:
        return (Column("hp", "hp"),)

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        status = fight.status[cid]
        return {"hp": Cell(f"{status.hp}/{status.max_hp}")}

    def row_basis(self, fight: Fight, cid: str) -> tuple[Any, ...]:
        """What the ruleset's cells and state word of `cid` are worked out from, beyond
        what the core's row is (its combatant, status, declaration, whether it acts): a
        tracker row whose basis is the same is not worked out again. By default the
        ruleset's whole state (held with its id, so the id is never another's): any
        change of it works out every row again. A ruleset whose rows read only a few
        things of a combatant names those, so an event works out again the rows it
        touched alone; every value must compare equal only when it reads the same."""
        state = fight.rs
        return (id(state), state)

    def state_word(self, fight: Fight, cid: str) -> str:
        """"" when fine; else dead, dying, down ... in the ruleset's own words."""
        status = fight.status[cid]
        if status.dead:
            return "dead"
        return "down" if status.hp <= 0 else ""

    def public_word(self, fight: Fight, cid: str) -> str:
        """A combatant's state as the players may see it: words, never exact hit points
        (unhurt, wounded, badly wounded, down, dead)."""
        status = fight.status[cid]
        if status.dead:
            return "dead"
        if self.state_word(fight, cid) or status.hp <= 0:
            return "down"
        if status.hp >= status.max_hp:
            return "unhurt"
        return "wounded" if status.hp * 2 > status.max_hp else "badly wounded"

    def facts(self, fight: Fight, cid: str) -> dict[str, Any]:
        """A combatant's state as plain data (JSON views, state scenarios)."""
        status = fight.status[cid]
        return {"hp": status.hp, "max_hp": status.max_hp, "dead": status.dead,
                "conditions": dict(status.conditions),
                "condition": self.state_word(fight, cid) or "fine"}

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        """The fight's ruleset state as plain data (JSON views, state scenarios)."""
        return {}

    def status_parts(self, fight: Fight) -> list[str]:
        """What the status line says of this round (the dice, counts ...)."""
        return []

    def phase_word(self, fight: Fight) -> str:
        """Where the round stands, in the status line: a ruleset with no declarations
        names its own steps."""
        return fight.phase

    def notices(self, fight: Fight) -> list[tuple[str, str]]:
        """What the referee must be told now: (title, text), e.g. morale checks due."""
        return []

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        """One log line for an event of its own (None: the core tells it)."""
        return None


class Damage(Role[S]):
    """The damage form: what it offers, what more it asks, and the events a hit is
    entered as."""

    def damage_default(self, fight: Fight, source: str | None,
                       target: str | None = None) -> str:
        """What the damage form offers: the acting weapon's damage (at `target`, which a
        ruleset may weigh: a large one)."""
        from .forms import weapon_damage

        return weapon_damage(fight, source) or "1d6"

    def damage_fields(self, fight: Fight) -> tuple[Field, ...]:
        """Extra fields of the damage form (critical ...)."""
        return ()

    def damage_events(self, fight: Fight, hit: ev.Damage,
                      values: Mapping[str, Any]) -> list[ev.Event]:
        """The events a hit from the damage form is entered as, given the answers to
        `damage_fields` (phases' subdual damage is Fatigue, not Hits): by default the
        damage event itself."""
        return [hit]
