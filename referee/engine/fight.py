"""A fight: the starting encounter plus its event log, folded into the state.

Shaped like python-chess's Board: `push(event)` validates and applies, `pop()` takes
the last event back, `copy()` gives an independent fight. State is only ever the fold
of the events over the encounter, so undo, resume and replay cannot drift.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import events as ev
from .errors import (
    DuplicateId,
    IllegalDeclaration,
    IllegalEvent,
    UnknownCombatant,
    UnknownSpell,
    UnknownWeapon,
)
from .model import Combatant, Encounter, check_side
from .record import field, record, replace

if TYPE_CHECKING:
    from .plan import Plan
    from .rulesets.base import Ruleset


@record
class Status:
    """What changes about a combatant as the fight goes on."""

    hp: int
    max_hp: int
    stress: int = 0
    wounds: int = 0
    conditions: dict[str, int | None] = field(default_factory=dict)
    dead: bool = False
    died_at: tuple[int, int] | None = None  # (round, beats resolved when it died)
    hp_at_round_start: int = 0
    stable: bool = False
    big_hit_round: int = 0  # count-up: last round a single hit took over half its Wound Points

    @classmethod
    def of(cls, c: Combatant) -> Status:
        return cls(hp=c.hp, max_hp=c.max_hp, stress=c.stress, wounds=c.wound_points,
                   hp_at_round_start=c.hp)


class Fight:
    def __init__(self, encounter: Encounter, ruleset: Ruleset) -> None:
        self.encounter = encounter
        self.ruleset = ruleset
        self.log: list[ev.Event] = []  # every event, undo and redo too: the save's [[events]]
        # told of each event just before it is applied (the app writes its log from them)
        self.observers: list[Callable[[Fight, ev.Event], None]] = []
        self.later: set[str] = set()  # ids that join later in a loaded log: valid targets
        self._reset()

    def _reset(self) -> None:
        self.events: list[ev.Event] = []  # the events in effect, in order
        self.positions: list[int] = []  # each effective event's index in the log
        self.batches: list[int] = []  # where each batch (undone together) starts in `events`
        self.undone: list[list[tuple[int, ev.Event]]] = []  # batches that redo brings back
        self.checkpoints: dict[int, dict[str, Any]] = {}  # events in effect -> state then
        self._start()

    def _start(self) -> None:
        self.roster: dict[str, Combatant] = {c.id: c for c in self.encounter.combatants}
        self.status: dict[str, Status] = {c.id: Status.of(c) for c in self.encounter.combatants}
        self.round = 0
        self.phase = "declarations"
        self.initiatives: dict[int, ev.Initiative] = {}
        self.initiative_at: dict[int, int] = {}  # round -> index of its initiative event
        self.base: dict[str, int] = {}
        self.declarations: dict[int, list[tuple[int, ev.Declare]]] = {}
        self.declared_by: dict[tuple[int, int | None, str], int] = {}
        self.ranks: dict[str, int] = {cid: n for n, cid in enumerate(self.roster)}
        self.sides = {s.id for s in self.encounter.sides}
        self.joins: dict[str, tuple[int, ev.Join]] = {}
        self.surprise: ev.Surprise | None = None
        self.resolved: dict[int, int] = {}
        self.lost_spells: dict[tuple[int, str], ev.SpellLost] = {}
        self.morale: dict[int, list[ev.Morale]] = {}
        self.fired: dict[tuple[int, str], ev.Fire] = {}
        self.ended = False
        self.plan_revision = next(_REVISIONS)

    # -- the log -------------------------------------------------------------------

    def push(self, event: ev.Event) -> None:
        """Validate `event` against the state and apply it; the state is untouched on error."""
        self.check(event)
        for observe in self.observers:
            observe(self, event)
        self.log.append(event)
        self._take(len(self.log) - 1, event)

    def enter(self, event: ev.Event) -> list[ev.Event]:
        """Push `event` with the consequences the rules add, and return all that was pushed.

        A new round first closes the old one (bleeding, lapsed preparations); damage may
        lose a spell or kill. They form one batch: one undo takes them all back.
        """
        self.check(event)
        before: list[ev.Event] = []
        if isinstance(event, (ev.NewRound, ev.End)) and self.round >= 1 and not self.ended:
            before = self.ruleset.end_of_round(self)
        pushed = self._push_batch(before + [event])
        if isinstance(event, ev.Damage):
            pushed += self._push_batch(self.ruleset.after_damage(self, event), follows=True)
        return pushed

    def _push_batch(self, events: list[ev.Event], follows: bool = False) -> list[ev.Event]:
        pushed = []
        for number, event in enumerate(events):
            event = replace(event, follows=follows or number > 0)
            self.push(event)
            pushed.append(event)
        return pushed

    def _take(self, index: int, event: ev.Event) -> None:
        if type(event) is ev.Undo:
            start = self.batches.pop()
            self.undone.append(list(zip(self.positions[start:], self.events[start:],
                                        strict=True)))
            del self.events[start:], self.positions[start:]
            self._replay_effective()
        elif type(event) is ev.Redo:
            self.batches.append(len(self.events))
            for position, again in self.undone.pop():
                self._keep(position, again)
        else:
            if not event.follows or not self.batches:
                self.batches.append(len(self.events))
                if self.undone:
                    self.undone.clear()
            self.events.append(event)
            self.positions.append(index)
            self._apply(index, event)

    def _keep(self, index: int, event: ev.Event) -> None:
        self.events.append(event)
        self.positions.append(index)
        self._apply(index, event)

    def _replay_effective(self) -> None:
        """After an undo: the state folded again from the nearest checkpoint, not from the
        start, so taking back an event in a long fight stays quick."""
        count = len(self.events)
        for mark in [k for k in self.checkpoints if k > count]:
            del self.checkpoints[mark]
        start = max(self.checkpoints, default=0)
        if start:
            self._restore(self.checkpoints[start])
        else:
            self._start()
        for number in range(start, count):
            self._apply(self.positions[number], self.events[number])
            if (number + 1) % CHECKPOINT_EVERY == 0:
                self.checkpoints[number + 1] = self._snapshot()
        self.plan_revision = next(_REVISIONS)

    def _snapshot(self) -> dict[str, Any]:
        return {name: _copied(name, getattr(self, name)) for name in _STATE}

    def _restore(self, snapshot: dict[str, Any]) -> None:
        for name, value in snapshot.items():
            setattr(self, name, _copied(name, value))

    def pop(self) -> ev.Event:
        """Take the last event off the log (a programmer's undo; referees push Undo)."""
        event = self.log.pop()
        self.refold()
        return event

    def refold(self) -> None:
        log = self.log
        self._reset()
        for index, event in enumerate(log):
            self._take(index, event)

    def copy(self) -> Fight:
        other = Fight(self.encounter, self.ruleset)
        other.later = set(self.later)
        other.log = list(self.log)
        other.refold()
        return other

    def at(self, count: int) -> Fight:
        """The fight as it stood after the first `count` events of the log."""
        other = Fight(self.encounter, self.ruleset)
        other.later = set(self.later)
        other.log = self.log[:count]
        other.refold()
        return other

    def plan(self, round_: int | None = None) -> Plan:
        return self.ruleset.plan(self, self.plan_round() if round_ is None else round_)

    def plan_round(self) -> int:
        """The latest round that has declarations (else the current round)."""
        rounds = [r for r, items in self.declarations.items() if items]
        return max(rounds) if rounds else max(self.round, 1)

    # -- queries -------------------------------------------------------------------

    def combatant(self, cid: str) -> Combatant:
        if cid not in self.roster:
            known = ", ".join(self.roster) or "none"
            raise UnknownCombatant(f"unknown combatant {cid!r} (combatants: {known})")
        return self.roster[cid]

    def side_ids(self) -> set[str]:
        return self.sides

    def alive(self, cid: str) -> bool:
        return not self.status[cid].dead

    def declared(self, round_: int) -> list[tuple[int, ev.Declare]]:
        return self.declarations.get(round_, [])

    def acts_in(self, cid: str, beat: int) -> bool:
        """DI-21: an actor slain in a beat still acts in it; one slain earlier does not."""
        died = self.status[cid].died_at
        if died is None:
            return True
        round_, resolved = died
        return round_ == self.round and resolved >= beat - 1

    def roster_index(self, cid: str) -> int:
        return self.ranks[cid]

    # -- validation ----------------------------------------------------------------

    def check(self, event: ev.Event) -> None:
        kind = event.TYPE
        if kind == "undo" and not self.batches:
            raise IllegalEvent("nothing to undo")
        if kind == "redo" and not self.undone:
            raise IllegalEvent("nothing to redo: no undo since the last new event")
        checker = CHECKS.get(kind)
        if checker is not None:
            checker(self, event)
        self.ruleset.check_event(self, event)

    def _check_target(self, cid: str, field_name: str = "target") -> None:
        try:
            self.combatant(cid)
        except UnknownCombatant as error:
            raise error.at(field_name) from None

    def _check_declare(self, e: ev.Declare) -> None:
        if e.round < self.round:
            raise IllegalEvent(
                f"round {e.round} is over: the fight is in round {self.round}", ("round",)
            )
        self._check_target(e.actor, "actor")
        if self.status[e.actor].dead:
            raise IllegalDeclaration(f"{e.actor} is dead and cannot act", ("actor",))
        for index, target in enumerate(e.target):
            if target not in self.roster and target not in self.sides and target not in self.later:
                known = ", ".join(self.roster)
                raise UnknownCombatant(
                    f"unknown target {target!r} (combatants: {known})",
                    ("target", index) if len(e.target) > 1 else ("target",),
                )
        actor = self.roster[e.actor]
        if e.weapon is not None and actor.weapon(e.weapon) is None:
            known = ", ".join(w.name for w in actor.weapons) or "none"
            raise UnknownWeapon(
                f"{e.actor} has no weapon {e.weapon!r} (weapons: {known})", ("weapon",)
            )
        if e.spell is not None and actor.spell(e.spell) is None:
            known = ", ".join(s.name for s in actor.spells) or "none"
            raise UnknownSpell(f"{e.actor} has no spell {e.spell!r} (spells: {known})", ("spell",))
        earlier = self.declared_by.get((e.round, e.segment, e.actor))
        if earlier is not None:
            raise IllegalDeclaration(
                f"{e.actor} has already declared in round {e.round} (events[{earlier}])",
                ("actor",),
            )

    def _check_join(self, e: ev.Join) -> None:
        if e.combatant is None:
            raise IllegalEvent("a join needs its combatant", ("combatant",))
        if e.combatant.id in self.roster or e.combatant.id in self.side_ids():
            raise DuplicateId(f"duplicate id {e.combatant.id!r}", ("combatant", "id"))
        check_side(e.combatant.side, self.side_ids(), ("combatant", "side"))

    def _check_surprise(self, e: ev.Surprise) -> None:
        for index, cid in enumerate(e.surprised):
            if cid not in self.roster and cid not in self.side_ids():
                raise UnknownCombatant(
                    f"unknown side or combatant {cid!r}", ("surprised", index)
                )

    def _check_damage(self, e: ev.Damage) -> None:
        self._check_target(e.target)

    _check_heal = _check_damage
    _check_condition = _check_damage
    _check_death = _check_damage
    _check_injury = _check_damage

    def _check_spell_lost(self, e: ev.SpellLost) -> None:
        self._check_target(e.actor, "actor")

    def _check_fire(self, e: ev.Fire) -> None:
        self._check_target(e.actor, "actor")
        if not any(d.actor == e.actor and d.prepared for _, d in self.declared(e.round)):
            raise IllegalEvent(f"{e.actor} has no prepared action in round {e.round}", ("actor",))

    def _check_morale(self, e: ev.Morale) -> None:
        for index, cid in enumerate(e.group):
            if cid not in self.roster and cid not in self.side_ids():
                raise UnknownCombatant(f"unknown side or combatant {cid!r}", ("group", index))

    # -- the fold ------------------------------------------------------------------

    def _apply(self, index: int, event: ev.Event) -> None:
        if event.TYPE in _SHAPES_PLANS:
            self.plan_revision = next(_REVISIONS)
        if event.round > self.round:
            self._enter_round(event.round)
        applier = APPLIES.get(event.TYPE)
        if applier is not None:
            applier(self, index, event)

    def _enter_round(self, round_: int) -> None:
        self.round = round_
        self.phase = "declarations"
        for status in self.status.values():
            status.hp_at_round_start = status.hp
            status.conditions = {
                name: (left - 1 if left is not None else None)
                for name, left in status.conditions.items()
                if left is None or left > 1
            }

    def _apply_initiative(self, index: int, e: ev.Initiative) -> None:
        self.initiatives[e.round] = e
        self.initiative_at[e.round] = index
        self.base.update(self.ruleset.base_initiative(self, e))
        self.phase = "initiative"

    def _apply_declare(self, index: int, e: ev.Declare) -> None:
        self.declarations.setdefault(e.round, []).append((index, e))
        self.declared_by[(e.round, e.segment, e.actor)] = index
        self.phase = "surprise" if e.segment else "declarations"

    def _apply_join(self, index: int, e: ev.Join) -> None:
        assert e.combatant is not None
        self.roster[e.combatant.id] = e.combatant
        self.ranks[e.combatant.id] = len(self.ranks)
        self.status[e.combatant.id] = Status.of(e.combatant)
        self.joins[e.combatant.id] = (e.round, e)
        if e.base is not None:
            self.base[e.combatant.id] = e.base

    def _apply_surprise(self, index: int, e: ev.Surprise) -> None:
        self.surprise = e

    def _apply_damage(self, index: int, e: ev.Damage) -> None:
        self.ruleset.apply_damage(self.status[e.target], e)

    def _apply_heal(self, index: int, e: ev.Heal) -> None:
        self.ruleset.apply_heal(self.status[e.target], e)

    def _apply_condition(self, index: int, e: ev.Condition) -> None:
        conditions = self.status[e.target].conditions
        if e.on:
            conditions[e.name] = e.duration
        else:
            conditions.pop(e.name, None)

    def _apply_spell_lost(self, index: int, e: ev.SpellLost) -> None:
        self.lost_spells[(e.round, e.actor)] = e

    def _apply_morale(self, index: int, e: ev.Morale) -> None:
        self.morale.setdefault(e.round, []).append(e)

    def _apply_death(self, index: int, e: ev.Death) -> None:
        status = self.status[e.target]
        status.dead = True
        status.died_at = (e.round, self.resolved.get(e.round, 0))

    def _apply_phase(self, index: int, e: ev.Phase) -> None:
        self.phase = e.phase

    def _apply_resolve(self, index: int, e: ev.Resolve) -> None:
        self.resolved[e.round] = max(self.resolved.get(e.round, 0), e.beat)
        self.phase = "resolution"

    def _apply_fire(self, index: int, e: ev.Fire) -> None:
        self.fired[(e.round, e.actor)] = e

    def _apply_end(self, index: int, e: ev.End) -> None:
        self.ended = True
        self.phase = "recovery"
        self.base = {}

    def is_member(self, cid: str, ids: tuple[str, ...]) -> bool:
        """Whether `ids` names `cid` directly or through its side or group."""
        c = self.roster[cid]
        return cid in ids or c.side in ids or bool(c.group and c.group in ids)

    def members(self, ids: tuple[str, ...]) -> list[str]:
        """Combatant ids named directly or through their side or group."""
        if all(cid in self.roster for cid in ids):
            return list(dict.fromkeys(ids))
        wanted = set(ids)
        return [
            cid for cid, c in self.roster.items()
            if cid in wanted or c.side in wanted or (c.group and c.group in wanted)
        ]


# What a plan is worked out from: an event of these types makes any plan of before stale.
# (Every fold of the log starts afresh too, so an undo never brings back an old number.)
_SHAPES_PLANS = {"declare", "initiative", "join", "surprise", "morale", "fire", "spell_lost",
                 "end"}
_REVISIONS = itertools.count(1)

# Each event type's check and fold step, looked up once rather than per event.
CHECKS = {name[len("_check_"):]: getattr(Fight, name) for name in dir(Fight)
          if name.startswith("_check_") and name != "_check_target"}
APPLIES = {name[len("_apply_"):]: getattr(Fight, name) for name in dir(Fight)
           if name.startswith("_apply_")}


# The state a checkpoint keeps (everything `_start` sets), and how to copy it: statuses
# are changed in place by the fold, the events themselves never.
_STATE = ("roster", "status", "round", "phase", "initiatives", "initiative_at", "base",
          "declarations", "declared_by", "ranks", "sides", "joins", "surprise", "resolved",
          "lost_spells", "morale", "fired", "ended")
CHECKPOINT_EVERY = 200


def _copied(name: str, value: Any) -> Any:
    if name == "status":
        return {k: replace(v, conditions=dict(v.conditions)) for k, v in value.items()}
    if name in ("declarations", "morale"):
        return {k: list(v) for k, v in value.items()}
    if isinstance(value, (dict, set)):
        return type(value)(value)  # what they hold is never changed in place
    return value
