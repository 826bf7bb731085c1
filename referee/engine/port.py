"""The ruleset port: everything ruleset-specific that the sessions, the app and the
command line consult. Each ruleset is one package (`referee/rulesets/<name>/`) whose
class overrides the hooks it needs; every hook has a do-nothing (or generic) default.

Nothing above the engine tests a ruleset's id: it asks the ruleset through these hooks
and renders the specs (`Form`, `Column`, `Cell`, `Act`) they return.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from . import events as ev
from .dice import DiceError, Roll, from_values
from .dice import roll as roll_dice
from .errors import FormatError, IllegalDeclaration, IllegalEvent
from .reading import Fields
from .specs import Act, ActionKind, Cell, Column, Field, Form, actor_act

if TYPE_CHECKING:
    from .fight import Fight, Status
    from .model import Combatant, Encounter, Schemas
    from .plan import Plan


S = TypeVar("S")

# a ruleset with no groups: one mapping, the same every time (a tracker keeps its rows)
NO_GROUPS: Mapping[str, tuple[str, str]] = MappingProxyType({})


class Ruleset(Generic[S]):
    """A ruleset's logic; `config` holds what a referee may house-rule (its
    `rulesets/<id>.toml`, read by the sessions layer and passed in as plain data). `S` is
    the type of its own part of the fold (immutable; `start`, `apply`, `new_round`)."""

    id: ClassVar[str] = ""
    RULES: ClassVar[Mapping[str, str]] = {}  # every rule id of its spec -> where it lives
    # The keys it adds to the roster, and its own events: declared as data (the hooks
    # below return them; override a hook when they depend on the house rules).
    COMBATANT_FIELDS: ClassVar[tuple[Field, ...]] = ()
    WEAPON_FIELDS: ClassVar[tuple[Field, ...]] = ()
    SPELL_FIELDS: ClassVar[tuple[Field, ...]] = ()
    SIDE_FIELDS: ClassVar[tuple[Field, ...]] = ()
    ENCOUNTER_FIELDS: ClassVar[tuple[Field, ...]] = ()
    # the gear lists its combatants carry: set-up offers only these (a file may hold more)
    GEAR: ClassVar[tuple[str, ...]] = ("weapons", "spells")
    EVENTS: ClassVar[tuple[type[ev.Event], ...]] = ()

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.config = dict(config)
        f = Fields(self.config)
        for key in ("format", "version", "id", "logic", "source"):
            f.raw(key, None)
        self.file_id = f.str("id", self.id)  # a house copy's own id
        self.name = f.str("name", self.id)
        # What the players' view shows of the players' own side: words (as for the enemy),
        # or their hit points. Exact enemy hit points are never shown.
        self.players_see_own = f.str("players_see_own", "words")
        if self.players_see_own not in ("words", "hit points"):
            raise FormatError(f"expected \"words\" or \"hit points\", found "
                              f"{self.players_see_own!r}", ("players_see_own",))
        self.read(f)
        f.done()
        self._schemas: Schemas | None = None
        self._reader: ev.EventReader | None = None

    # -- house rules -------------------------------------------------------------------

    def read(self, f: Fields) -> None:
        """Read this ruleset's house-rulable numbers and tables from its file."""

    def switches(self) -> list[str]:
        """One line per house rule in force, for `referee check` of a ruleset file."""
        return []

    # -- stats: the keys it adds to the roster ------------------------------------------

    def combatant_fields(self) -> tuple[Field, ...]:
        return self.COMBATANT_FIELDS

    def weapon_fields(self) -> tuple[Field, ...]:
        return self.WEAPON_FIELDS

    def spell_fields(self) -> tuple[Field, ...]:
        return self.SPELL_FIELDS

    def side_fields(self) -> tuple[Field, ...]:
        return self.SIDE_FIELDS

    def encounter_fields(self) -> tuple[Field, ...]:
        """Top-level keys of a save (squads, groups ...)."""
        return self.ENCOUNTER_FIELDS

    @property
    def schemas(self) -> Schemas:
        if self._schemas is None:
            from .model import Schemas

            self._schemas = Schemas(self)
        return self._schemas

    def check_encounter(self, encounter: Encounter) -> None:
        """Rules over the whole roster (squad sizes, groups of one side ...)."""

    def new_item(self, encounter: Encounter, key: str, item_id: str,
                 combatant: Combatant) -> dict[str, Any] | None:
        """In set-up, a combatant names an entry of the encounter's list `key` (a group)
        that is not there yet: the entry to make for it, or None to refuse."""
        return None

    # -- events -------------------------------------------------------------------------

    def events(self) -> tuple[type[ev.Event], ...]:
        """Its own event types; one with a core type's name takes the core's place."""
        return self.EVENTS

    @property
    def reader(self) -> ev.EventReader:
        if self._reader is None:
            from .model import read_combatant

            schemas = self.schemas
            self._reader = ev.EventReader(ev.event_types(self.events()),
                                          lambda data, path: read_combatant(data, path, schemas))
        return self._reader

    def event(self, kind: str, **values: Any) -> ev.Event:
        """An event of this ruleset's class for `kind` (its own declare, initiative ...)."""
        return self.reader.types[kind](**values)

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        """One log line for an event of its own (None: the core tells it)."""
        return None

    # -- state: its part of the fold ---------------------------------------------------

    def start(self, fight: Fight) -> S:
        """The ruleset's state before any event (immutable; `apply` returns a new one)."""
        return cast(S, None)

    def apply(self, fight: Fight, state: S, event: ev.Event) -> S:
        """The state after `event`; never changes `state` itself."""
        return state

    def state(self, fight: Fight) -> S:
        """Its state as the fight's fold has it now (the fold holds it untyped)."""
        return cast(S, fight.rs)

    def marks(self, combatant: Combatant) -> dict[str, Any]:
        """Per-combatant values it keeps beside hit points (Stress, wounds ...)."""
        return {}

    def new_round(self, fight: Fight, state: S) -> S:
        """The fold enters a new round: the state for it (statuses may change in place:
        they are the fold's own copies)."""
        return state

    SHAPING: ClassVar[frozenset[str]] = frozenset({
        "declare", "initiative", "join", "surprise", "morale", "end", "death", "damage",
        "heal"})

    def shapes_plan(self, event: ev.Event) -> bool:
        """Whether `event` can change a plan (a new plan is worked out after it)."""
        return event.TYPE in self.SHAPING

    # -- checks -------------------------------------------------------------------------

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        if isinstance(event, ev.Declare) and self.declarations is None:
            raise IllegalDeclaration(f"{self.id} takes no declarations: its combatants act "
                                     "through its acts", ("action",))

    @property
    def declarations(self) -> Declaring[S] | None:
        """Its declarations role (demon-idol's A–G, count-up's actions), or None: a
        ruleset whose combatants act through its acts alone."""
        return self if isinstance(self, Declaring) else None

    @property
    def initiative(self) -> Rolling[S] | None:
        """Its initiative role (what is rolled, or typed from real dice, before a round is
        resolved), or None: a ruleset whose order needs no roll (phases, sanctum)."""
        return self if isinstance(self, Rolling) else None

    @property
    def grouping(self) -> Grouping[S] | None:
        """Its tracker groups role (phases' squads), or None: every row stands alone."""
        return self if isinstance(self, Grouping) else None

    @property
    def replaying(self) -> Runs[S] | None:
        """Its runs role (sanctum's odds, each run replayable), or None."""
        return self if isinstance(self, Runs) else None

    # -- consequences -------------------------------------------------------------------

    def apply_damage(self, fight: Fight, status: Status, event: ev.Damage) -> None:
        status.hp -= event.amount

    def apply_heal(self, fight: Fight, status: Status, event: ev.Heal) -> None:
        status.hp = min(status.max_hp, status.hp + event.amount)

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        """Events the rules add once `event` is in the log (spells lost, deaths)."""
        return []

    def end_of_round(self, fight: Fight) -> list[ev.Event]:
        """Events the rules add when the current round ends (bleeding, lapses)."""
        return []

    # -- the plan -----------------------------------------------------------------------

    def plan(self, fight: Fight, round_: int) -> Plan:
        from .plan import Plan

        return Plan(self.id, round_, [])

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
        """The plan with every action not yet done whose actor can no longer act marked
        skipped (`"skipped"` on the action and a line in `plan.skipped`, with the rule)."""
        from .plan import action_key

        if plan.round != max(fight.round, 1):
            return plan  # a round gone by: its plan is what happened
        done = fight.resolved.get(plan.round, set())
        for number, beat in enumerate(plan.beats, start=1):
            for index, action in enumerate(beat.actions):
                if action_key(beat, action) in done or action.flag("skipped"):
                    continue
                found = self.unable(fight, action.actor, number)
                if found is None:
                    continue
                rule, why = found
                beat.actions[index] = action.with_extra(skipped=why)
                entry = {"actor": action.actor, "action": action.action, "why": why}
                plan.skipped.append({**entry, "rule": rule} if rule else entry)
        return plan

    # -- joining and set-up -------------------------------------------------------------

    def join_fields(self, fight: Fight) -> tuple[Field, ...]:
        """What a join asks beyond the combatant itself (a count reached, a base)."""
        return ()

    def join_event(self, fight: Fight, combatant: Combatant,
                   values: Mapping[str, Any]) -> ev.Event:
        return self.event("join", round=max(fight.round, 1), combatant=combatant)

    # -- the tracker --------------------------------------------------------------------

    def columns(self) -> tuple[Column, ...]:
        return (Column("hp", "hp"),)

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        status = fight.status[cid]
        return {"hp": Cell(f"{status.hp}/{status.max_hp}")}

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

    # -- acts -----------------------------------------------------------------------------

    def acts(self, fight: Fight) -> list[Act]:
        """Its table operations (morale, fire, stand up, the odds ...), each whole: its key,
        when it is allowed, its form, and the events or the report it makes (`Act`)."""
        return []

    def announced(self) -> tuple[str, ...]:
        """The event types the rules add that the referee is told of as they happen
        (a death, a spell lost), beyond the log."""
        return ("death",)

    def notices(self, fight: Fight) -> list[tuple[str, str]]:
        """What the referee must be told now: (title, text), e.g. morale checks due."""
        return []

    def damage_default(self, fight: Fight, source: str | None) -> str:
        """What the damage form offers: the acting weapon's damage."""
        from .forms import weapon_damage

        return weapon_damage(fight, source) or "1d6"

    def damage_fields(self, fight: Fight) -> tuple[Field, ...]:
        """Extra fields of the damage form (critical ...)."""
        return ()

    def heal_fields(self, fight: Fight, target: str | None) -> tuple[Field, ...]:
        """Extra fields of the heal form (count-up's Heal check with its TN)."""
        return ()

    def heal_events(self, fight: Fight, heal: ev.Heal,
                    values: Mapping[str, Any]) -> list[ev.Event]:
        """The events a healing from the heal form is entered as, given the answers to
        `heal_fields`: by default the heal event itself."""
        return [heal]

    def damage_events(self, fight: Fight, hit: ev.Damage,
                      values: Mapping[str, Any]) -> list[ev.Event]:
        """The events a hit from the damage form is entered as, given the answers to
        `damage_fields` (phases' subdual damage is Fatigue, not Hits): by default the
        damage event itself."""
        return [hit]


class Grouping(Ruleset[S], ABC):
    """The tracker's groups: a large battle's rows fold and unfold by group."""

    @abstractmethod
    def row_groups(self, fight: Fight) -> Mapping[str, tuple[str, str]]:
        """The group each grouped tracker row belongs to (a squad) as combatant id ->
        (key, label); a row not in it has none. The tracker asks this on every change:
        keep it while the groups stay the same (the same mapping, by identity)."""

    def row_group(self, fight: Fight, cid: str) -> tuple[str, str] | None:
        """One row's group as (key, label), or None."""
        return self.row_groups(fight).get(cid)


class Runs(Ruleset[S], ABC):
    """Runs of a report (sanctum's odds), each one to be written out and replayed."""

    @abstractmethod
    def replay_run(self, fight: Fight, seed: int) -> tuple[Fight, list[ev.Event]]:
        """One run: the fight it starts from (its log kept) and the events the run adds,
        drawn from `seed`."""


class Rolling(Ruleset[S], ABC):
    """The initiative role: what is rolled by the program (or typed from real dice)
    before a round can be resolved; the plan orders the round by it."""

    def initiative_due(self, fight: Fight) -> bool:
        """Whether initiative is still to be rolled for the current round."""
        return max(fight.round, 1) not in fight.initiatives

    def initiative_blocks(self, fight: Fight) -> bool:
        """Whether nothing can be resolved until it is rolled (tie rolls may wait)."""
        return self.initiative_due(fight)

    @abstractmethod
    def roll_initiative(self, fight: Fight, rng: random.Random) -> list[ev.Event]:
        """The program's roll: its events (the dice in them)."""

    @abstractmethod
    def initiative_form(self, fight: Fight) -> Form:
        """The form for initiative typed from real dice."""

    @abstractmethod
    def initiative_from(self, fight: Fight, values: Mapping[str, Any]) -> list[ev.Event]:
        """The events of initiative typed from real dice, as the form asked for them."""


class Declaring(Ruleset[S], ABC):
    """The declarations role: before the round, each combatant declares one of the
    ruleset's actions (its catalogue), through a form; the plan orders what was declared.
    A declaration is this role's act. A ruleset without it has `declarations` None."""

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        if isinstance(event, ev.Declare) and event.action not in self._kinds():
            known = ", ".join(self._kinds())
            raise IllegalDeclaration(
                f"unknown action {event.action!r} for {self.id} (actions: {known})",
                ("action",))

    @abstractmethod
    def actions(self) -> list[ActionKind]:
        """Its declaration catalogue: what a combatant may declare, each with its key."""

    def action_keys(self) -> list[str]:
        return list(self._kinds())

    def kind(self, action: str) -> ActionKind | None:
        return self._kinds().get(action)

    def _kinds(self) -> dict[str, ActionKind]:
        """The catalogue by key, worked out once: it comes from the ruleset file."""
        found: dict[str, ActionKind] | None = self.__dict__.get("_kind_table")
        if found is None:
            found = {kind.key: kind for kind in self.actions()}
            self.__dict__["_kind_table"] = found
        return found

    def can_declare(self, fight: Fight, actor: str, action: str) -> str:
        """Why `actor` cannot declare `action` now ("" when it can)."""
        why = self.can_act(fight, actor)
        return f"{fight.roster[actor].name} is {why}" if why else ""

    def further(self, fight: Fight, actor: str, earlier: list[ev.Declare],
                action: str) -> str:
        """Why `actor`, having declared `earlier` this round, cannot add a further
        declaration of `action` ("" when it can: close, then strike)."""
        return (f"{actor} has already declared in round {max(fight.round, 1)}: "
                f"{self.id} takes one declaration a combatant a round")

    def declare_form(self, fight: Fight, actor: str, action: str,
                     prefill: Mapping[str, Any]) -> Form:
        from .forms import declare_fields

        kind = self.kind(action)
        name = kind.name if kind else action
        title = f"{fight.roster[actor].name} declares {action} — {name}"
        return Form(title, declare_fields(fight, actor, kind.fields if kind else (), prefill))

    def prefill(self, fight: Fight, actor: str, action: str) -> dict[str, Any]:
        from .forms import prefill

        kind = self.kind(action)
        return prefill(fight, actor, action, missile=False, needs=kind.fields if kind else ())

    def declaration(self, fight: Fight, actor: str, action: str,
                    values: Mapping[str, Any]) -> ev.Event:
        target = values.get("target")
        targets = (target,) if isinstance(target, str) else tuple(target or ())
        rest = {k: v for k, v in values.items() if k != "target" and v not in (None, False, "")}
        return self.event("declare", round=max(fight.round, 1), actor=actor, action=action,
                          target=targets, **rest)

    def declaration_acts(self) -> list[Act]:
        """Each action of the catalogue as an act (`declare-G`): a declaration is this
        role's act, and the command line declares through these as the app's keys do."""
        return [self._declaring(kind.key, kind.name, kind.hotkey) for kind in self.actions()]

    def _declaring(self, action: str, name: str, key: str) -> Act:
        def allowed(fight: Fight, actor: str) -> str:
            return self.can_declare(fight, actor, action)

        def form(fight: Fight, actor: str) -> Form:
            return self.declare_form(fight, actor, action, self.prefill(fight, actor, action))

        def run(fight: Fight, actor: str, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            given = {k: v for k, v in values.items() if k not in ("replaces", "then")}
            if any(d.actor == actor and d.step is None
                   for _, d in fight.declared(max(fight.round, 1))):
                given["replaces"] = True  # a new declaration takes the place of the old
            return [self.declaration(fight, actor, action, given)]

        return actor_act(f"declare-{action}", f"Declare {action}: {name}", key, "",
                         allowed, form, run, show=False, unselected="select who declares")

    def declared_text(self, fight: Fight, cid: str, decl: ev.Declare) -> str:
        """A declaration in the tracker's few columns."""
        text = decl.action
        if decl.target:
            text += f" → {', '.join(decl.target)}"
        return text


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
