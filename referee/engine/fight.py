"""A fight: the starting encounter plus its event log, folded into the state.

Shaped like python-chess's Board: `push(event)` validates and applies, `pop()` takes
the last event back, `copy()` gives an independent fight. State is only ever the fold
of the events over the encounter, so undo, resume and replay cannot drift. The fold's
state is one `FightState` (the core's part) holding the ruleset's own part (`rs`), which
the ruleset folds immutably through its `apply` hook. No hook changes a combatant's
`Status` or the fight: each returns new records (`apply_damage`, `entering`, `effects`)
and the core stores them, so checkpoints share them. Each event class's check and fold
step here is registered for the class (`@checks`, `@applies`); the events only some
rulesets take (surprise, a morale check: events.py) are checked here for the ids they
name, and folded by those rulesets alone.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterable
from functools import partial
from operator import attrgetter

from referee.hints import TYPE_CHECKING

from . import events as ev
from .dice import DiceError, total_of
from .errors import (
    OVER,
    DuplicateId,
    IllegalDeclaration,
    IllegalEvent,
    UnknownCombatant,
    UnknownSpell,
    UnknownWeapon,
)
from .model import Combatant, Encounter, check_side
from .options import Declaring, Ending, Healing, apply_heal, healed
from .plan import Plan, action_key
from .record import replace
from .roles import Fold, event_check
from .view import Effects as Effects
from .view import Status as Status

if TYPE_CHECKING:
    from typing import Any, TypeVar, cast

    from .port import Ruleset
else:
    from referee.hints import Any, TypeVar, cast


class Handlers(dict[type, Any]):
    """Each event class's handler of one kind (its check, its step of the fold),
    registered for the class by a decorator (`@checks(ev.Damage)`, `@applies(...)`) and
    looked up by `type(event)`. A class registered for nothing takes its nearest base's
    handler (a ruleset's own declare, the core's), found once and kept; None: none."""

    def __init__(self) -> None:
        super().__init__()
        self.registered: dict[type, Any] = {}

    def handles(self, *classes: type[ev.Event]) -> Callable[[F], F]:
        def register(handler: F) -> F:
            for cls in classes:
                self.registered[cls] = handler
            self.clear()  # what was found for a subclass may have changed
            self.update(self.registered)
            return handler

        return register

    def __missing__(self, cls: type) -> Any:
        found = next((self.registered[base] for base in cls.__mro__
                      if base in self.registered), None)
        self[cls] = found
        return found


F = TypeVar("F", bound=Callable[..., None])
# each event class's check, `(fight, event)`, and its step of the core's fold,
# `(fight, index, event)`
CHECKS = Handlers()
APPLIES = Handlers()
checks = CHECKS.handles
applies = APPLIES.handles


class Route:
    """One event class's way through a fight's check and fold (`Fight._route`)."""

    __slots__ = ("moves_on", "check", "own_check", "roll", "undoing", "shapes", "apply",
                 "effects", "step")

    moves_on: bool  # it moves the fight on: refused once the fight has ended
    check: Callable[[Fight, Any], None] | None  # the core's check of it
    own_check: Callable[[Fight, Any], None] | None  # the ruleset's (its schema's) check
    roll: bool  # a roll: its total is held to its dice
    undoing: bool  # an undo or a redo: it takes events back or brings them back
    shapes: bool | None  # whether it shapes the plan (None: the ruleset says, each event)
    apply: Callable[[Fight, int, Any], None] | None  # the core's step of the fold
    effects: Callable[[Fight, Any], Effects | None] | None  # the ruleset's `effects`
    step: Callable[[Fight, Any, Any], Any] | None  # the ruleset's `apply`


class FightState:
    """The core's part of the fold, and the ruleset's (`rs`). A checkpoint is a copy."""

    def __init__(self, fight: Fight) -> None:
        encounter, ruleset = fight.encounter, fight.ruleset
        self.roster: dict[str, Combatant] = {c.id: c for c in encounter.combatants}
        self.status: dict[str, Status] = {c.id: _status(ruleset, c)
                                          for c in encounter.combatants}
        self.round = 0
        self.phase = "declarations"
        self.initiatives: dict[int, ev.Initiative] = {}
        self.initiative_at: dict[int, int] = {}  # round -> index of its initiative event
        self.declarations: dict[int, list[tuple[int, ev.Declare]]] = {}
        # round -> (surprise step, actor) -> index of the actor's declaration that round
        self.declared_by: dict[int, dict[tuple[Any, str], int]] = {}
        self.ranks: dict[str, int] = {cid: n for n, cid in enumerate(self.roster)}
        self.sides = {s.id for s in encounter.sides}
        self.joins: dict[str, tuple[int, ev.Join]] = {}
        self.resolved: dict[int, set[str]] = {}  # round -> keys of the planned actions done
        # the rounds whose `declarations` and `declared_by` entries (`own_declared`), and
        # whose `resolved` set (`own_resolved`), this state holds alone: it changes those
        # in place, and any other round's only once it has copied them (`declaring`,
        # `resolving`), since a copy shares them
        self.own_declared: set[int] = set()
        self.own_resolved: set[int] = set()
        self.ended = False
        # the ruleset's part: typed by its roles (`role.state(fight)`), held as it is here
        self.rs: object = None

    def copy(self) -> FightState:
        """An independent state. Each round's declarations and resolved keys are shared
        with the copy, not copied (a long fight's past rounds are most of it, and no
        later event changes them): neither holds them alone from then on, so the first
        change of a round in either copies that round alone."""
        other = object.__new__(FightState)
        other.__dict__.update(self.__dict__)
        other.roster = dict(self.roster)
        other.status = dict(self.status)  # the records are never changed: shared
        other.initiatives = dict(self.initiatives)
        other.initiative_at = dict(self.initiative_at)
        other.declarations = dict(self.declarations)
        other.declared_by = dict(self.declared_by)
        other.ranks = dict(self.ranks)
        other.sides = set(self.sides)
        other.joins = dict(self.joins)
        other.resolved = dict(self.resolved)
        other.own_declared, other.own_resolved = set(), set()
        self.own_declared, self.own_resolved = set(), set()
        return other  # `rs` is immutable: shared

    def declaring(self, round_: int) -> tuple[list[tuple[int, ev.Declare]],
                                              dict[tuple[Any, str], int]]:
        """The round's declarations and who declared, to change: this state's own."""
        if round_ in self.own_declared:
            return self.declarations[round_], self.declared_by[round_]
        items = self.declarations[round_] = list(self.declarations.get(round_, ()))
        by = self.declared_by[round_] = dict(self.declared_by.get(round_, ()))
        self.own_declared.add(round_)
        return items, by

    def resolving(self, round_: int) -> set[str]:
        """The round's resolved keys, to change: this state's own."""
        if round_ in self.own_resolved:
            return self.resolved[round_]
        keys = self.resolved[round_] = set(self.resolved.get(round_, ()))
        self.own_resolved.add(round_)
        return keys


def _status(ruleset: Ruleset[Any], c: Combatant) -> Status:
    return ruleset.fold.entering(c, Status(c.hp, c.max_hp, dict(c.conditions),
                                           hp_at_round_start=c.hp))


class Fight:
    def __init__(self, encounter: Encounter, ruleset: Ruleset[Any]) -> None:
        self.encounter = encounter
        self.ruleset = ruleset
        self.log: list[ev.Event] = []  # every event, undo and redo too: the save's [[events]]
        # told of each event just before it is applied (the session's log lines)
        self.observers: list[Callable[[Fight, ev.Event], None]] = []
        self.later: set[str] = set()  # ids that join later in a loaded log: valid targets
        self._reset()

    def _reset(self) -> None:
        self.events: list[ev.Event] = []  # the events in effect, in order
        self.positions: list[int] = []  # each effective event's index in the log
        self.batches: list[int] = []  # where each batch (undone together) starts in `events`
        self.undone: list[list[tuple[int, ev.Event]]] = []  # batches that redo brings back
        self._routes: dict[type, Route] = {}  # each event class's way through the fold
        self._start()
        # events in effect -> state then; the start too, since a large battle's start
        # costs more to build than to copy
        self.checkpoints: dict[int, FightState] = {0: self.state.copy()}
        # events in effect -> the plan revision then: the same events in effect give the
        # same plan, so an undo finds the plan it had (a redo brings back the same events)
        self.revisions: list[int] = [self.plan_revision]  # indexed by the count
        # (events in effect, the ruleset's state from then on) for its last few changes
        # (it is immutable; most events leave it as it was): an undo refolds the core's
        # state but takes back the ruleset's as it was, with what it had worked out and
        # kept (a large battle's units' rounds)
        self.kept_rs: deque[tuple[int, Any]] = deque([(0, self.state.rs)], maxlen=KEEP_RS)

    def _start(self) -> None:
        self.state = FightState(self)
        self.state.rs = self.ruleset.fold.start(self)
        self.plan_revision: int = next(_REVISIONS)

    # -- the state, read through ---------------------------------------------------------

    if TYPE_CHECKING:  # what they are to a type checker; below, what they run as
        @property
        def roster(self) -> dict[str, Combatant]: ...
        @property
        def status(self) -> dict[str, Status]: ...
        @property
        def round(self) -> int: ...
        @property
        def phase(self) -> str: ...
        @property
        def initiatives(self) -> dict[int, ev.Initiative]: ...
        @property
        def initiative_at(self) -> dict[int, int]: ...
        @property
        def declarations(self) -> dict[int, list[tuple[int, ev.Declare]]]: ...
        @property
        def joins(self) -> dict[str, tuple[int, ev.Join]]: ...
        @property
        def resolved(self) -> dict[int, set[str]]: ...
        @property
        def ended(self) -> bool: ...
        @property
        def rs(self) -> object:
            """The ruleset's part of the state (its roles read it typed: `state(fight)`)."""
    else:  # each read through the state without a Python call: the rules read them often
        roster = property(attrgetter("state.roster"))
        status = property(attrgetter("state.status"))
        round = property(attrgetter("state.round"))
        phase = property(attrgetter("state.phase"))
        initiatives = property(attrgetter("state.initiatives"))
        initiative_at = property(attrgetter("state.initiative_at"))
        declarations = property(attrgetter("state.declarations"))
        joins = property(attrgetter("state.joins"))
        resolved = property(attrgetter("state.resolved"))
        ended = property(attrgetter("state.ended"))
        rs = property(attrgetter("state.rs"),
                      doc="The ruleset's part of the state (its roles read it typed).")

    # -- the log -------------------------------------------------------------------

    def push(self, event: ev.Event, checked: bool = False) -> None:
        """Validate `event` against the state and apply it; the state is untouched on error.
        `checked`: `check` has just passed this very event against this very state."""
        # `check`, then `_take`'s step for a plain event, written out: a long save's load
        # runs this for each event
        route = self._routes.get(type(event)) or self._route(type(event))
        if not checked:
            if route.moves_on and self.state.ended:
                raise IllegalEvent(OVER, ("type",))
            check = route.check
            if check is not None:
                check(self, event)
            check = route.own_check
            if check is not None:
                check(self, event)
            if route.roll:  # after the ruleset's own word on it, which may say more
                self._roll_adds_up(event)
        if self.observers:
            for observe in self.observers:
                observe(self, event)
        log = self.log
        index = len(log)
        log.append(event)
        if route.undoing:
            self._take(index, event)
            return
        events = self.events
        if not event.follows or not self.batches:
            start = len(events)  # the log's own index when nothing was undone: one int
            self.batches.append(index if start == index else start)  # object, not two
            if self.undone:
                self.undone.clear()
        events.append(event)  # `_keep`, written out
        self.positions.append(index)
        self._apply(index, event)
        self.revisions.append(self.plan_revision)  # at len(events)
        if self.state.rs is not self.kept_rs[-1][1]:
            self.kept_rs.append((len(events), self.state.rs))

    def extend(self, events: Iterable[ev.Event]) -> None:
        """`push` each of `events` in turn (a loaded log): the same checks, the same
        state and the same errors, in one loop with the per-event look-ups made once
        (each class's way through the fold taken as one tuple). An event that fails its
        checks leaves the state as it was before it, the events before it pushed. An
        undo or a redo, or every event of a fight with observers, goes through `push`."""
        if self.observers:
            for event in events:
                self.push(event)
            return
        routes: dict[type, tuple[Any, ...]] = {}
        log = self.log
        effective, positions, batches = self.events, self.positions, self.batches
        revisions, kept, undone = self.revisions, self.kept_rs, self.undone
        shaping = self.ruleset.fold.shapes_plan
        enter_round, take_effects = self._enter_round, self._take_effects
        roll_adds_up = self._roll_adds_up
        state, revision, last_rs = self.state, self.plan_revision, kept[-1][1]
        index = len(log) - 1
        rolled: set[tuple[Any, ...]] = set()  # the rolls found to add up (expr, dice, total)
        for event in events:
            cls = type(event)
            way = routes.get(cls)
            if way is None:
                route = self._routes.get(cls) or self._route(cls)
                # the core's check of a target alone (a long log's damage and heals),
                # or of a resolve's actions, is written out below: the check is called
                # only where it may refuse the event
                written = _WRITTEN_OUT.get(route.check, 0)
                way = routes[cls] = (route.undoing, route.moves_on,
                                     None if written else route.check, written,
                                     route.own_check, route.roll, route.shapes,
                                     route.apply, route.effects, route.step)
            (undoing, moves_on, check, written, own_check, roll, shapes, apply, effects,
             step) = way
            if undoing:
                self.push(event)
                state, revision, last_rs = self.state, self.plan_revision, kept[-1][1]
                index = len(log) - 1
                continue
            if moves_on and state.ended:
                raise IllegalEvent(OVER, ("type",))
            if check is not None:
                check(self, event)
            elif written:
                if written == TARGETED:
                    if event.target not in state.roster:  # type: ignore[attr-defined]
                        self._check_targeted(event)  # type: ignore[arg-type]
                elif not event.actions and event.beat is None:  # type: ignore[attr-defined]
                    self._check_resolve(event)  # type: ignore[arg-type]
            if own_check is not None:
                own_check(self, event)
            if roll:  # after the ruleset's own word on it, which may say more; a roll
                expr, dice, total = event.expr, event.dice, event.total  # type: ignore[attr-defined]
                made = (expr, dice if type(dice) is tuple else tuple(dice), total)
                if made not in rolled:  # of the same dice and total is checked once (a
                    # long log's rolls are alike)
                    roll_adds_up(event)
                    rolled.add(made)
            index += 1
            log.append(event)
            if not event.follows or not batches:
                start = len(effective)  # the log's own index when nothing was undone
                batches.append(index if start == index else start)
                if undone:
                    undone.clear()
            effective.append(event)
            positions.append(index)
            # `_apply`, written out
            if shapes or (shapes is None and shaping(event)):
                revision = self.plan_revision = next(_REVISIONS)
            round_ = event.round
            if round_ > state.round:
                enter_round(round_)
            if apply is not None:
                apply(self, index, event)
            if effects is not None:
                effected = effects(self, event)
                if effected is not None:
                    take_effects(round_, effected)
            if step is not None:
                state.rs = step(self, state.rs, event)
            revisions.append(revision)  # at len(effective)
            if state.rs is not last_rs:
                last_rs = state.rs
                kept.append((len(effective), last_rs))

    def enter(self, event: ev.Event, follows: bool = False) -> list[ev.Event]:
        """Push `event` with the consequences the rules add, and return all that was pushed.

        A new round first closes the old one (bleeding, lapsed preparations); damage may
        lose a spell or kill. They form one batch: one undo takes them all back (with
        `follows`, the batch before it too: one act of several events).
        """
        if follows and not event.follows:
            event = replace(event, follows=True)
        self.check(event)
        before: list[ev.Event] = []
        if isinstance(event, (ev.NewRound, ev.End)) and self.round >= 1 and not self.ended:
            before = self.ruleset.fold.end_of_round(self)
        # checked once: pushed as it is, first, onto the state it was checked against
        checked = not before and event.follows == follows
        pushed = self._push_batch(before + [event], follows=follows, checked=checked)
        if not isinstance(event, (ev.Undo, ev.Redo)):
            pushed += self._push_batch(self.ruleset.fold.after(self, event), follows=True)
        return pushed

    def _push_batch(self, events: list[ev.Event], follows: bool = False,
                    checked: bool = False) -> list[ev.Event]:
        """`checked`: the first event has passed `check` as it is, on the state as it is."""
        pushed = []
        for number, event in enumerate(events):
            wanted = follows or number > 0
            if event.follows != wanted:  # events are frozen: one already right is kept
                event = replace(event, follows=wanted)
            self.push(event, checked and number == 0)
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
            self._keep(index, event)

    def _keep(self, index: int, event: ev.Event) -> None:
        events = self.events
        events.append(event)
        self.positions.append(index)
        self._apply(index, event)
        self.revisions.append(self.plan_revision)  # at len(events)
        if self.state.rs is not self.kept_rs[-1][1]:
            self.kept_rs.append((len(events), self.state.rs))

    def _replay_effective(self) -> None:
        """After an undo: the state folded again from the nearest checkpoint, not from the
        start, so taking back an event in a long fight stays quick."""
        count = len(self.events)
        for mark in [k for k in self.checkpoints if k > count]:
            del self.checkpoints[mark]
        start = max(self.checkpoints)
        self.state = self.checkpoints[start].copy()
        for number in range(start, count):
            self._apply(self.positions[number], self.events[number])
            if (number + 1) % CHECKPOINT_EVERY == 0:
                self.checkpoints[number + 1] = self.state.copy()
        del self.revisions[count + 1:]
        self.plan_revision = self.revisions[count]
        kept = self.kept_rs
        while kept and kept[-1][0] > count:  # taken back: no longer the state's past
            kept.pop()
        if kept:  # the state at `count` is the last change kept at or before it
            self.state.rs = kept[-1][1]
        else:  # its last change was further back than those kept: the one refolded stays
            kept.append((count, self.state.rs))

    def keep_state(self, every: int | None = None) -> None:
        """Keep the state as it stands as an undo's checkpoint, unless one is kept fewer
        than `every` events in effect before it: the table keeps one as it opens a fight
        and as the fight goes on, so an undo refolds the few events since, never the
        whole log (a load keeps none: most are never undone)."""
        count = len(self.events)
        if count - max(self.checkpoints) >= (every or CHECKPOINT_EVERY):
            self.checkpoints[count] = self.state.copy()

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
        return self.at(len(self.log))

    def at(self, count: int) -> Fight:
        """The fight as it stood after the first `count` events of the log."""
        other = Fight(self.encounter, self.ruleset)
        other.later = set(self.later)
        other.log = self.log[:count]
        other.refold()
        return other

    def plan(self, round_: int | None = None) -> Plan:
        """The round's order, with what can no longer happen (a dying actor's blow)
        marked skipped."""
        round_ = self.plan_round() if round_ is None else round_
        planner = self.ruleset.planner
        plan = planner.mark_unable(self, planner.plan(self, round_))
        plan.over = self.ended and round_ >= max(self.round, 1)
        return plan

    def plan_round(self) -> int:
        return self.ruleset.planner.plan_round(self)

    # -- queries -------------------------------------------------------------------

    def combatant(self, cid: str) -> Combatant:
        if cid not in self.state.roster:
            known = ", ".join(self.state.roster) or "none"
            raise UnknownCombatant(f"unknown combatant {cid!r} (combatants: {known})")
        return self.state.roster[cid]

    def side_ids(self) -> set[str]:
        return self.state.sides

    def alive(self, cid: str) -> bool:
        return not self.state.status[cid].dead

    def declared(self, round_: int) -> list[tuple[int, ev.Declare]]:
        return self.state.declarations.get(round_, [])

    def roster_index(self, cid: str) -> int:
        return self.state.ranks[cid]

    def is_member(self, cid: str, ids: tuple[str, ...]) -> bool:
        """Whether `ids` names `cid` directly or through its side or group."""
        c = self.state.roster[cid]
        group = c.stat("group")
        return cid in ids or c.side in ids or bool(group and group in ids)

    def members(self, ids: tuple[str, ...]) -> list[str]:
        """Combatant ids named directly or through their side or group."""
        roster = self.state.roster
        if all(cid in roster for cid in ids):
            return list(dict.fromkeys(ids))
        wanted = set(ids)
        return [cid for cid, c in roster.items()
                if cid in wanted or c.side in wanted or (c.stat("group") or None) in wanted]

    # -- validation ----------------------------------------------------------------

    def check(self, event: ev.Event) -> None:
        route = self._routes.get(type(event)) or self._route(type(event))
        if route.moves_on and self.state.ended:
            raise IllegalEvent(OVER, ("type",))
        if route.check is not None:
            route.check(self, event)
        if route.own_check is not None:
            route.own_check(self, event)
        if route.roll:  # after the ruleset's own word on it, which may say more
            self._roll_adds_up(event)

    @checks(ev.Undo)
    def _check_undo(self, e: ev.Undo) -> None:
        if not self.batches:
            raise IllegalEvent("nothing to undo")

    @checks(ev.Redo)
    def _check_redo(self, e: ev.Redo) -> None:
        if not self.undone:
            raise IllegalEvent("nothing to redo: no undo since the last new event")

    def _check_target(self, cid: str, field_name: str = "target") -> None:
        try:
            self.combatant(cid)
        except UnknownCombatant as error:
            raise error.at(field_name) from None

    def _roll_adds_up(self, event: ev.Event) -> None:
        """A roll's total is what its dice make: a save cannot say otherwise."""
        e = cast(ev.Roll, event)
        if not e.dice:
            return  # a total alone (typed from the table): nothing to hold it to
        try:
            made = total_of(e.expr, e.dice)
        except DiceError as error:
            raise IllegalEvent(str(error), ("dice",)) from None
        if made != e.total:
            raise IllegalEvent(f"{e.total} is not what the dice make: {e.expr} with "
                               f"{list(e.dice)} is {made}", ("total",))

    @checks(ev.Declare)
    def _check_declare(self, e: ev.Declare) -> None:
        state = self.state
        actor, round_ = e.actor, e.round
        if round_ < state.round:
            raise IllegalEvent(
                f"round {round_} is over: the fight is in round {state.round}", ("round",))
        roster, sides = state.roster, state.sides
        if actor not in roster:
            self._check_target(actor, "actor")
        if state.status[actor].dead:
            raise IllegalDeclaration(f"{actor} is dead and cannot act", ("actor",))
        for target in e.target:  # (the index is found for a fault alone: the first
            # unknown one's first place)
            if target not in roster and target not in sides and target not in self.later:
                known = ", ".join(roster)
                raise UnknownCombatant(
                    f"unknown target {target!r} (combatants: {known})",
                    ("target", e.target.index(target)) if len(e.target) > 1
                    else ("target",))
        if getattr(e, "weapon", None) is not None or getattr(e, "spell", None) is not None:
            self._check_gear(e)  # (most declarations name no gear: no call for them)
        by = state.declared_by.get(round_)
        earlier = None if by is None else by.get((e.step, actor))
        if e.then:
            self._check_further(e, earlier)
            return
        if earlier is not None:
            if not e.replaces:
                raise IllegalDeclaration(
                    f"{actor} has already declared in round {round_}, in event "
                    f"{earlier + 1}", ("actor",))
        elif e.replaces:
            raise IllegalDeclaration(f"{actor} has no declaration in round {round_} "
                                     "to replace", ("replaces",))

    def _check_further(self, e: ev.Declare, earlier: int | None) -> None:
        """A further declaration (`then`) follows the actor's own this round, as far as
        its ruleset allows (one declaration a round by default)."""
        if e.replaces:
            raise IllegalDeclaration("a further declaration adds to the actor's, it "
                                     "replaces nothing", ("then",))
        if earlier is None:
            raise IllegalDeclaration(f"{e.actor} has no declaration in round {e.round} "
                                     "to follow", ("then",))
        declaring = self.ruleset.role(Declaring)
        why = (declaring.further(self, e.actor, self.own_declarations(e), e.action)
               if declaring else f"{self.ruleset.id} takes no declarations")
        if why:
            raise IllegalDeclaration(why, ("then",))

    def own_declarations(self, e: ev.Declare) -> list[ev.Declare]:
        """The actor's declarations in `e`'s round (and surprise segment), in order."""
        key = _declare_key(e)
        return [d for _, d in self.declared(e.round) if _declare_key(d) == key]

    def _check_gear(self, e: ev.Declare) -> None:
        actor = self.state.roster[e.actor]
        weapon = getattr(e, "weapon", None)
        if weapon is not None and actor.weapon(weapon) is None:
            known = ", ".join(w.name for w in actor.weapons) or "none"
            raise UnknownWeapon(f"{e.actor} has no weapon {weapon!r} (weapons: {known})",
                                ("weapon",))
        spell = getattr(e, "spell", None)
        if spell is not None and actor.spell(spell) is None:
            known = ", ".join(s.name for s in actor.spells) or "none"
            raise UnknownSpell(f"{e.actor} has no spell {spell!r} (spells: {known})",
                               ("spell",))

    @checks(ev.Join)
    def _check_join(self, e: ev.Join) -> None:
        if e.combatant is None:
            raise IllegalEvent("a join needs its combatant", ("combatant",))
        if e.combatant.id in self.state.roster or e.combatant.id in self.side_ids():
            raise DuplicateId(f"duplicate id {e.combatant.id!r}", ("combatant", "id"))
        check_side(e.combatant.side, self.side_ids(), ("combatant", "side"))

    @checks(ev.Surprise)
    def _check_surprise(self, e: ev.Surprise) -> None:
        self._check_named(e.surprised, "surprised")

    def _check_named(self, ids: tuple[str, ...], name: str) -> None:
        groups = {c.stat("group") for c in self.state.roster.values()}
        for index, cid in enumerate(ids):
            if cid not in self.state.roster and cid not in self.side_ids() and cid not in groups:
                raise UnknownCombatant(f"unknown side or combatant {cid!r}", (name, index))

    @checks(ev.Damage, ev.Heal, ev.Condition, ev.Death)
    def _check_targeted(self, e: ev.Damage | ev.Heal | ev.Condition | ev.Death) -> None:
        if e.target not in self.state.roster:  # (the commonest check of a long log)
            self._check_target(e.target)

    @checks(ev.Morale)
    def _check_morale(self, e: ev.Morale) -> None:
        self._check_named(e.group, "group")

    @checks(ev.Resolve)
    def _check_resolve(self, e: ev.Resolve) -> None:
        if e.beat is None and not e.actions:
            raise IllegalEvent("a resolve names the actions it resolves", ("actions",))

    # -- the fold ------------------------------------------------------------------

    def _apply(self, index: int, event: ev.Event) -> None:
        route = self._routes.get(type(event)) or self._route(type(event))
        state = self.state
        shapes = route.shapes
        if shapes or (shapes is None and self.ruleset.fold.shapes_plan(event)):
            self.plan_revision = next(_REVISIONS)
        if event.round > state.round:
            self._enter_round(event.round)
        if route.apply is not None:
            route.apply(self, index, event)
        if route.effects is not None:
            effects = route.effects(self, event)
            if effects is not None:
                self._take_effects(event.round, effects)
        if route.step is not None:
            state.rs = route.step(self, state.rs, event)

    def _route(self, cls: type[ev.Event]) -> Route:
        """How events of class `cls` go through this fight's check and fold, worked out at
        its first: the core's check and step for it, the ruleset's check of it (none where
        its schema has nothing to say of the class), and which of the ruleset's fold hooks
        have anything to say of it (one it does not override, or whose `steps` leaves the
        class out, is not called)."""
        fold = self.ruleset.fold
        kind = type(fold)
        route = Route()
        route.moves_on = cls.MOVES_ON
        route.check = CHECKS[cls]
        route.own_check = _direct(event_check(self.ruleset.schema, cls), cls)
        route.roll = cls is ev.Roll
        route.undoing = cls is ev.Undo or cls is ev.Redo
        route.shapes = (cls.TYPE in fold.SHAPING if kind.shapes_plan is Fold.shapes_plan
                        else None)  # None: asked of each event
        route.apply = APPLIES[cls]
        if route.apply is Fight._apply_heal and self.ruleset.role(Healing) is None:
            route.apply = Fight._apply_plain_heal  # `apply_heal`'s default, its role
            # looked up once
        route.effects = None if kind.effects is Fold.effects else fold.effects
        route.step = _direct(fold.apply, cls) if fold.steps(cls) else None
        self._routes[cls] = route
        return route

    def _take_effects(self, round_: int, effects: Effects) -> None:
        """What the ruleset's rules say an event does beyond the core's step, stored
        before its state step (which reads them: who a decay croaked)."""
        if effects.status:
            self.state.status.update(effects.status)
        if effects.resolved:
            self.state.resolving(round_).update(effects.resolved)

    def _enter_round(self, round_: int) -> None:
        state = self.state
        state.round = round_
        state.phase = "declarations"
        statuses = state.status
        for cid, status in statuses.items():
            if status.conditions:
                statuses[cid] = status.changed(hp_at_round_start=status.hp, conditions={
                    name: (left - 1 if left is not None else None)
                    for name, left in status.conditions.items()
                    if left is None or left > 1
                })
            elif status.hp_at_round_start != status.hp:
                statuses[cid] = status.changed(hp_at_round_start=status.hp)
        state.rs = self.ruleset.fold.new_round(self, state.rs)

    @applies(ev.Initiative)
    def _apply_initiative(self, index: int, e: ev.Initiative) -> None:
        self.state.initiatives[e.round] = e
        self.state.initiative_at[e.round] = index
        self.state.phase = "initiative"

    @applies(ev.Declare)
    def _apply_declare(self, index: int, e: ev.Declare) -> None:
        state = self.state
        round_ = e.round
        if round_ in state.own_declared:  # `declaring`, written out: a long log's commonest
            items, by = state.declarations[round_], state.declared_by[round_]
        else:
            items, by = state.declaring(round_)
        step, actor = e.step, e.actor  # (a property of some rulesets' declare: read once)
        if e.replaces:  # every declaration of the actor's goes, further ones too
            key = (round_, step, actor)  # _declare_key
            items[:] = [(i, d) for i, d in items if _declare_key(d) != key]
        items.append((index, e))
        if not e.then:
            by[(step, actor)] = index
        state.phase = "surprise" if step else "declarations"

    @applies(ev.Join)
    def _apply_join(self, index: int, e: ev.Join) -> None:
        assert e.combatant is not None
        state = self.state
        state.roster[e.combatant.id] = e.combatant
        state.ranks[e.combatant.id] = len(state.ranks)
        state.status[e.combatant.id] = _status(self.ruleset, e.combatant)
        state.joins[e.combatant.id] = (e.round, e)

    @applies(ev.Damage)
    def _apply_damage(self, index: int, e: ev.Damage) -> None:
        statuses, target = self.state.status, e.target
        statuses[target] = self.ruleset.fold.apply_damage(self, statuses[target], e)

    @applies(ev.Heal)
    def _apply_heal(self, index: int, e: ev.Heal) -> None:
        statuses = self.state.status
        statuses[e.target] = apply_heal(self.ruleset, self, statuses[e.target], e)

    def _apply_plain_heal(self, index: int, e: ev.Heal) -> None:
        """`_apply_heal` for a ruleset without a healing role: hit points back, up to
        the most (`apply_heal`'s default)."""
        statuses, target = self.state.status, e.target
        statuses[target] = healed(statuses[target], e)

    @applies(ev.Condition)
    def _apply_condition(self, index: int, e: ev.Condition) -> None:
        statuses = self.state.status
        status = statuses[e.target]
        if e.on:
            conditions = {**status.conditions, e.name: e.duration}
        else:
            conditions = {k: v for k, v in status.conditions.items() if k != e.name}
        statuses[e.target] = status.changed(conditions=conditions)

    @applies(ev.Death)
    def _apply_death(self, index: int, e: ev.Death) -> None:
        statuses = self.state.status
        statuses[e.target] = statuses[e.target].changed(dead=True)

    @applies(ev.Phase)
    def _apply_phase(self, index: int, e: ev.Phase) -> None:
        self.state.phase = e.phase

    @applies(ev.Resolve)
    def _apply_resolve(self, index: int, e: ev.Resolve) -> None:
        if not e.actions and e.beat is not None:  # (a class default read only then)
            e = self._upgraded(index, e)
        state = self.state
        round_ = e.round
        if round_ in state.own_resolved:  # `resolving`, written out: a long log's common
            state.resolved[round_].update(e.actions)
        else:
            state.resolving(round_).update(e.actions)
        state.phase = "resolution"

    def _upgraded(self, index: int, e: ev.Resolve) -> ev.Resolve:
        """A resolve written by number (saves before the port): the actions of the
        plan's first `beat` beats as the plan stood then; the log keeps the new form."""
        try:
            beats = self.plan(e.round).beats[: e.beat]
        except Exception:  # a plan that cannot be worked out resolves nothing
            beats = []
        keys = tuple(action_key(beat, a) for beat in beats for a in beat.actions)
        if not keys:
            return e  # nothing was planned then: it resolved nothing, and stays as written
        upgraded = replace(e, actions=keys, beat=None)
        if index < len(self.log) and self.log[index] is e:
            self.log[index] = upgraded
        at = bisect_left(self.positions, index)  # and so do the events in effect: a
        if at < len(self.events) and self.events[at] is e:  # refold (an undo) or a redo
            self.events[at] = upgraded  # takes it as it is now, planning it no more
        return upgraded

    @applies(ev.End)
    def _apply_end(self, index: int, e: ev.End) -> None:
        self.state.ended = True
        ending = self.ruleset.role(Ending)  # a step of the ruleset's own after the end
        self.state.phase = "over" if ending is None else ending.PHASE


def _direct(hook: Callable[..., Any] | None, cls: type) -> Callable[..., Any] | None:
    """What the fold calls for events of class `cls` in place of `hook`: the entry a hook
    marked `by_class` would look up for them itself (None: it does nothing to them),
    else the hook."""
    table = getattr(hook, "table", None)
    if hook is None or table is None:
        return hook
    entry: Callable[..., Any] | None = table.get(cls)
    if entry is None or not hook.bound:  # type: ignore[attr-defined]
        return entry
    return partial(entry, hook.__self__)  # type: ignore[attr-defined]


def _declare_key(e: ev.Declare) -> tuple[int, Any, str]:
    return (e.round, e.step, e.actor)


_REVISIONS = itertools.count(1)

# the core's checks `Fight.extend` writes out, each called only where it may refuse
TARGETED, RESOLVE = 1, 2
_WRITTEN_OUT: dict[Any, int] = {Fight._check_targeted: TARGETED,
                                Fight._check_resolve: RESOLVE}

CHECKPOINT_EVERY = 200
KEEP_RS = 64  # the changes of the ruleset's state an undo can take back as they were
