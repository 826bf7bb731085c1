"""The table's questions: who acts now, who a hit is by and at whom, what the beat under
way has recorded, what initiative asks, and the events a hit, a miss, a heal or the end
would make. Nothing here writes: the table's acts (acts.py) are made of these answers, and
the table (table.py) enters what the acts make."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from referee.engine import Combatant, Fight
from referee.engine import events as ev
from referee.engine.dice import DiceError, from_values
from referee.engine.dice import roll as roll_dice
from referee.engine.errors import IllegalEvent
from referee.engine.options import Declaring, Rolling, heal_events, join_event
from referee.engine.plan import Plan, PlannedAction
from referee.engine.record import replace
from referee.engine.specs import Form

from .store import Session


def amount_of(text: Any) -> int | str:
    """A number, or a dice expression to roll: what every amount field takes."""
    if isinstance(text, int):
        return text
    value = str(text or "").strip()
    if value.lstrip("-").isdigit():
        return int(value)
    if not value:
        raise IllegalEvent("an amount is needed: a number, or dice such as 1d8+1")
    try:
        roll_dice(value, random.Random(0))
    except DiceError as error:
        raise IllegalEvent(f"{value!r} is neither a number nor dice ({error})") from None
    return value


R = TypeVar("R")


def present(role: R | None, refusal: str) -> R:
    """A role the ruleset has; asking for one it lacks is refused with `refusal`."""
    if role is None:
        raise IllegalEvent(refusal)
    return role


class Questions:
    """What the table asks of the fight as it stands (its plan worked out once per change
    of the log, and the answers that read the round — who acts, what is recorded, who
    declares — once per state of the fight: a key press asks them many times over)."""

    def __init__(self, session: Session, rng: random.Random | None = None) -> None:
        self.session = session
        self.injected = rng  # tests inject one generator; otherwise see `rng`
        # the plans worked out lately, by what they stand on (`plan`): an undo finds the
        # plan it had
        self._plans: dict[tuple[Any, ...], Plan] = {}
        self._open: tuple[Plan, set[str]] | None = None  # `_open_keys`
        self._now: dict[str, Any] = {}
        self._now_key: tuple[int, int, int] | None = None
        # the round's declarations by actor, and what they were read from
        # (`declarations_read`): most presses change the log, not the declarations
        self._declared_from: tuple[Any, ...] | None = None
        self._declared_now: dict[str, ev.Declare] = {}
        # the round's hits and misses (of every beat), and how far into the events in
        # effect they were read (the events, how many, the last one's place in the log,
        # the round): a press that adds events reads only those
        self._recorded_from: tuple[Any, ...] | None = None
        self._recorded_now: list[ev.Damage | ev.Note] = []

    def kept(self, name: str, work: Callable[[], R]) -> R:
        """`work`'s answer, worked out once per state of the fight: the same fight (its
        identity), the same plan revision (a refold gets a new one) and the same length
        of log (every event, an undo too, adds to it) are the same state."""
        fight = self.fight
        key = (id(fight), fight.plan_revision, len(fight.log))
        if key != self._now_key:
            self._now, self._now_key = {}, key
        now = self._now
        if name not in now:
            now[name] = work()
        return cast(R, now[name])

    @property
    def fight(self) -> Fight:
        return self.session.fight

    @property
    def round(self) -> int:
        return max(self.fight.round, 1)

    @property
    def rng(self) -> random.Random:
        """The program's dice: from the save's seed and how far its log has come, so a
        resumed session rolls on where it left off and never repeats its first rolls."""
        if self.injected is not None:
            return self.injected
        return random.Random(f"{self.session.encounter.seed}/{len(self.fight.log)}")

    def name(self, cid: str) -> str:
        combatant = self.fight.roster.get(cid)
        return combatant.name if combatant else cid

    @property
    def rolling(self) -> Rolling[Any]:
        """The ruleset's initiative role; a ruleset without one is refused by name."""
        return present(self.fight.ruleset.role(Rolling),
                       f"{self.fight.ruleset.name} rolls no initiative: its order needs "
                       "no roll")

    @property
    def declaring(self) -> Declaring[Any]:
        """The ruleset's declarations role; a ruleset without one is refused by name."""
        return present(self.fight.ruleset.role(Declaring),
                       f"{self.fight.ruleset.name} takes no declarations: its combatants "
                       "act through its acts")

    def declared(self) -> dict[str, ev.Declare]:
        return dict(self.kept("declared", self._declared))

    def _declared(self) -> dict[str, ev.Declare]:
        fight = self.fight
        read = declarations_read(fight)
        kept = self._declared_from
        if kept is None or not same_declarations(kept, read):
            self._declared_from = read
            self._declared_now = {d.actor: d for _, d in read[2] if d.step is None}
        return self._declared_now

    def undeclared(self) -> list[str]:
        """Combatants still to declare this round who can act, in roster order."""
        return list(self.kept("undeclared", self._undeclared))

    def _undeclared(self) -> list[str]:
        fight = self.fight
        if fight.ruleset.role(Declaring) is None:
            return []
        done = self.kept("declared", self._declared)
        can_act = fight.ruleset.planner.can_act
        return [cid for cid in fight.roster if cid not in done and not can_act(fight, cid)]

    def next_undeclared(self, after: str | None = None) -> str | None:
        waiting = self.undeclared()
        if not waiting:
            return None
        order = list(self.fight.roster)
        if after in order:
            later = [cid for cid in waiting if order.index(cid) > order.index(after)]
            if later:
                return later[0]
        return waiting[0]

    def prefill(self, actor: str, action: str) -> dict[str, Any]:
        return self.declaring.prefill(self.fight, actor, action)

    def declare_form(self, actor: str, action: str) -> Form:
        return self.declaring.declare_form(self.fight, actor, action,
                                           self.prefill(actor, action))

    def declare_follow(self, actor: str, action: str, values: Mapping[str, Any],
                       changed: str) -> dict[str, Any]:
        """The declaration form's fields a change to field `changed` sets (the ruleset
        says: a D's spell picked blanks its weapon)."""
        return self.declaring.follow(self.fight, actor, action, values, changed)

    def further(self, actor: str, action: str) -> str:
        """Why `actor` cannot add a further declaration of `action` this round ("" when
        its ruleset allows one: close, then strike)."""
        earlier = [d for _, d in self.fight.declared(self.round)
                   if d.actor == actor and d.step is None]
        if not earlier:
            return f"{self.name(actor)} has not declared this round"
        return self.declaring.further(self.fight, actor, earlier, action)

    def initiative_due(self) -> bool:
        return self.kept("initiative_due", self._initiative_due)

    def _initiative_due(self) -> bool:
        rolling = self.fight.ruleset.role(Rolling)
        return rolling is not None and rolling.initiative_due(self.fight)

    def initiative_blocks(self) -> bool:
        return self.kept("initiative_blocks", self._initiative_blocks)

    def _initiative_blocks(self) -> bool:
        rolling = self.fight.ruleset.role(Rolling)
        return rolling is not None and rolling.initiative_blocks(self.fight)

    def initiative_form(self) -> Form:
        """The ruleset's form for initiative typed from real dice, starting from the dice
        the players typed on their own pages this round."""
        form = self.rolling.initiative_form(self.fight)
        typed = device_dice(self.fight)
        if not typed:
            return form
        return replace(form, fields=tuple(
            replace(f, default=typed[f.name]) if f.name in typed else f for f in form.fields))

    def plan(self) -> Plan:
        """The round's plan, worked out again when the log shapes it anew (its plan
        revision) or when the actions done change it. A check-off leaves the plan
        revision as it was, yet what is done is never marked skipped (an actor who can
        no longer act: `Planner.mark_unable`) and an ended fight's plan skips what is not
        done: the plan stands on the actions done too. The last few are kept, so an
        undo finds the plan it had."""
        fight, round_ = self.fight, self.round
        at = (id(fight), fight.plan_revision, round_)
        done = self.kept("done", self._done)
        plans = self._plans
        plan = plans.get((at, done))
        if plan is None:
            plan = self._still(at, done) or fight.plan(round_)
            self._keep_plan((at, done), plan)
        return plan

    def _keep_plan(self, key: tuple[Any, ...], plan: Plan) -> None:
        """`plan` kept under `key`. A round's check-offs share one plan, each under its
        own key: the KEPT_PLANS plans kept last are kept with every key they stand under (a
        round of many beats undone one at a time finds each plan it had: kept by key
        alone, the eight latest check-offs', the undos further back each worked out the
        round's plan again), and no more than KEPT_KEYS keys in all (the oldest go)."""
        plans = self._plans
        if len(plans) >= KEPT_KEYS:
            del plans[next(iter(plans))]  # the oldest
        elif all(kept is not plan for kept in plans.values()):  # a plan not kept yet
            latest = {id(kept): n for n, kept in enumerate(plans.values())}  # its last key
            if len(latest) >= KEPT_PLANS:  # the plan kept longest ago goes, every key of it
                oldest = min(latest, key=latest.__getitem__)
                for stale in [k for k, kept in plans.items() if id(kept) == oldest]:
                    del plans[stale]
        plans[key] = plan

    def _done(self) -> frozenset[str]:
        return frozenset(self.fight.resolved.get(self.round, ()))

    def _still(self, at: tuple[int, int, int], done: frozenset[str]) -> Plan | None:
        """A plan kept at the same revision with fewer actions done, if those done since
        are actions it plans and does not mark skipped (and the fight is not over):
        checking them off changes nothing else in it (a `n` press works out no plan)."""
        for (kept_at, then), plan in reversed(self._plans.items()):
            if kept_at == at and then <= done and not plan.over:
                return plan if done - then <= self._open_keys(plan) else None
        return None

    def _open_keys(self, plan: Plan) -> set[str]:
        """`open_keys` of the plan, kept for the last plan asked (each `n` of a round
        asks it of the same plan, a few hundred actions)."""
        kept = self._open
        if kept is None or kept[0] is not plan:
            kept = self._open = (plan, open_keys(plan))
        return kept[1]

    def resolved(self) -> set[str]:
        return self.fight.resolved.get(self.round, set())

    def current_beat(self) -> int | None:
        """The next beat to resolve (1-based), or None when the round is done."""
        return self.kept("current_beat", lambda: self.plan().current(self.resolved()))

    def acting(self) -> list[str]:
        """Who acts in the current beat, in the beat's order."""
        return list(self.kept("acting", self._acting))

    def _acting(self) -> list[str]:
        beat = self.current_beat()
        if beat is None:
            return []
        return list(dict.fromkeys(a.actor for a in self.plan().beats[beat - 1].actions))

    def resolving(self) -> ev.Resolve | None:
        """The event that resolves the current beat (None: no beat is under way)."""
        beat = self.current_beat()
        if beat is None:
            return None
        plan = self.plan()
        actions = plan.beats[beat - 1].actions
        keys = [k for k, a in zip(plan.keys(beat), actions, strict=True)
                if k not in self.resolved() and not a.flag("skipped")]  # who could not act
        return ev.Resolve(round=self.round, actions=tuple(keys), beat=beat)

    def recorded(self) -> list[ev.Damage | ev.Note]:
        """The hits and misses recorded in the beat under way, in order."""
        return list(self.kept("recorded", self._recorded))

    def _recorded(self) -> list[ev.Damage | ev.Note]:
        beat = self.current_beat()
        if beat is None or self.initiative_blocks():
            return []
        fight = self.fight
        events, round_ = fight.events, self.round
        count = len(events)
        kept = self._recorded_from
        if kept is not None and kept[0] is events and kept[3] == round_ \
                and kept[1] <= count \
                and (kept[1] == 0 or fight.positions[kept[1] - 1] == kept[2]):
            # the same events up to where they were read (the one there is the same
            # entry of the log, so all before it are the same: an undo takes back the
            # last events, and a redo brings back the same): read on from there
            found = self._recorded_now
            added = events[kept[1]:]
            if added:
                found = list(found)  # (the one kept is never changed: a new one)
                for e in added:
                    if e.round < round_:  # as below: only what follows an earlier round's
                        found.clear()
                    elif (isinstance(e, (ev.Damage, ev.Note)) and e.round == round_
                            and e.source is not None):
                        found.append(e)
        else:
            found = []
            for e in reversed(events):  # the log is in round order: this round's last
                if e.round < round_:
                    break
                if (isinstance(e, (ev.Damage, ev.Note)) and e.round == round_
                        and e.source is not None):
                    found.append(e)
            found.reverse()
        self._recorded_from = (events, count, fight.positions[count - 1] if count else None,
                               round_)
        self._recorded_now = found  # the round's, of every beat (never changed in place)
        return [e for e in found if e.beat == beat]

    def to_record(self) -> list[PlannedAction]:
        """The current beat's actions with nothing recorded yet, in the beat's order: an
        actor's hits and misses in the beat answer its actions in turn (a volley's shots,
        a second attack routine), so the first one left is who (and which shot) is next."""
        return list(self.kept("to_record", self._to_record))

    def _to_record(self) -> list[PlannedAction]:
        beat = self.current_beat()
        if beat is None or self.initiative_blocks():
            return []
        done = Counter(str(e.source) for e in self.kept("recorded", self._recorded))
        seen: Counter[str] = Counter()
        left = []
        for action in self.plan().beats[beat - 1].actions:
            if action.flag("skipped"):
                continue
            seen[action.actor] += 1
            if seen[action.actor] > done[action.actor]:
                left.append(action)
        return left

    def striker(self, selected: str | None) -> str | None:
        """Who a hit or a miss is by, unless the referee says otherwise: the combatant
        under the cursor when it acts in the beat with something still to record, else
        the beat's next actor with nothing recorded yet; outside a beat, the one under
        the cursor."""
        acting = [] if self.initiative_blocks() else self.acting()
        if not acting:
            return selected
        left = [a.actor for a in self.to_record()]
        if selected in left or (selected in acting and not left):
            return selected
        return left[0] if left else acting[0]

    def aim(self, actor: str | None) -> str | None:
        """Whom `actor` aims at now: the target of its next action in the beat with
        nothing recorded (a volley's shot names its own), else its declared target, else
        the first enemy still standing (none down, in the ruleset's words), else the
        first living one. A target fallen since is passed over."""
        fight = self.fight
        shot = next((a for a in self.to_record() if a.actor == actor), None)
        if shot is not None and shot.flag("target") in fight.roster and \
                fight.alive(str(shot.flag("target"))):
            return str(shot.flag("target"))
        declaration = self.declared().get(actor or "")
        if declaration is not None and declaration.target and \
                declaration.target[0] in fight.roster and fight.alive(declaration.target[0]):
            return declaration.target[0]
        side = fight.roster[actor].side if actor in fight.roster else None
        enemies = [cid for cid, c in fight.roster.items() if c.side != side and fight.alive(cid)]
        standing = (cid for cid in enemies if not fight.ruleset.tracker.state_word(fight, cid))
        return next(standing, enemies[0] if enemies else None)

    def roll(self, expr: str, purpose: str, actor: str | None = None,
             dice: list[int] | None = None, rng: random.Random | None = None) -> ev.Roll:
        """A dice expression rolled by the program, or read from real dice: the event."""
        try:
            result = from_values(expr, dice) if dice is not None else \
                roll_dice(expr, rng or self.rng)
        except DiceError as error:
            raise IllegalEvent(str(error)) from None
        return ev.Roll(round=self.round, expr=result.expression, dice=tuple(result.rolls),
                       total=result.total, purpose=purpose, actor=actor, real=dice is not None)

    def amount(self, value: Any, purpose: str, actor: str | None = None,
               dice: list[int] | None = None, rng: random.Random | None = None,
               ) -> tuple[int, list[ev.Event]]:
        """A number as it is, or dice rolled: the amount and the roll to log with it."""
        found = amount_of(value)
        if isinstance(found, int):
            if found < 0:
                raise IllegalEvent(f"{purpose.split(' ')[0]} cannot be negative ({found})")
            return found, []
        roll = self.roll(found, purpose, actor, dice, rng)
        return max(roll.total, 0), [roll]

    def hit_events(self, target: str, amount: Any, source: str | None,
                   critical: bool, values: Mapping[str, Any] | None,
                   rng: random.Random, dice: list[int] | None = None) -> list[ev.Event]:
        """The events of a hit (its roll, the damage and what the ruleset adds)."""
        total, rolls = self.amount(amount, f"damage to {self.name(target)}", source, dice,
                                   rng)
        hit = ev.Damage(round=self.round, target=target, amount=total, source=source,
                        critical=critical, beat=self.current_beat())
        made = self.fight.ruleset.damage.damage_events(self.fight, hit, values or {})
        return [*rolls, *made]

    def damage_default(self, source: str | None, target: str | None = None) -> str:
        """The damage a hit by `source` offers (at `target`: a large one may take
        another figure)."""
        return self.fight.ruleset.damage.damage_default(self.fight, source, target)

    def miss_event(self, actor: str, target: str | None = None) -> ev.Note:
        """A miss changes nothing but the story: it goes in the log as a note, by whom
        and in which beat (the beat's action is recorded)."""
        text = f"{self.name(actor)} misses" + (f" {self.name(target)}" if target else "")
        return ev.Note(round=self.round, text=text, source=actor, beat=self.current_beat())

    def heal_events(self, target: str, amount: Any, values: Mapping[str, Any] | None,
                    rng: random.Random) -> list[ev.Event]:
        total, rolls = self.amount(amount, f"healing for {self.name(target)}", rng=rng)
        heal = ev.Heal(round=self.round, target=target, amount=total)
        made = heal_events(self.fight.ruleset, self.fight, heal, values or {})
        return [*rolls, *made]

    def end_events(self, note: str | None = None) -> list[ev.Event]:
        """The fight is over: the ruleset's end rules follow it, logged (one undo takes the
        whole end back); a beat with a hit or a miss recorded is resolved first."""
        end = ev.End(round=max(self.round, 1), note=note or None)
        resolve = self.resolving() if self.recorded() else None
        return [resolve, end] if resolve is not None else [end]

    def join_event(self, combatant: Combatant, values: Mapping[str, Any] | None = None,
                   ) -> ev.Event:
        return join_event(self.fight.ruleset, self.fight, combatant, values or {})

    def round_done(self) -> bool:
        """Nothing is left to do this round: every beat resolved, initiative in, everyone
        declared (go on with the next round, or end the fight)."""
        return self.current_beat() is None and not self.initiative_due() and \
            not self.undeclared()

    def moment(self) -> dict[str, Any]:
        """What an act without a form is told of the moment: who acts now."""
        acting = self.acting()
        return {"before": acting[0]} if acting else {}

    def working(self) -> str | None:
        """Who the referee's attention goes to: the current beat's next actor with nothing
        recorded (else its first), else the next combatant to declare."""
        return self.kept("working", self._working)

    def _working(self) -> str | None:
        acting = self.acting() if not self.initiative_blocks() else []
        left = [a.actor for a in self.to_record()]
        return (left or acting)[0] if acting else self.next_undeclared()

    def clock_runs(self, actor: str) -> bool:
        """A declaration's clock runs for a player's combatant; the referee's own monsters
        need none (the app's ctrl+t starts it anyway)."""
        side = self.fight.encounter.side(self.fight.roster[actor].side)
        return bool(side and side.players)

    def notices(self) -> list[tuple[str, str]]:
        return self.fight.ruleset.tracker.notices(self.fight)


def declarations_read(fight: Fight) -> tuple[Any, ...]:
    """What the round's declarations are read from: the fight, the round and its list of
    declarations, with its length and its last declaration's place in the log. The list
    is changed only by adding a declaration (one declared again takes the earlier's place
    and goes last), so the same list with the same length and last one is unchanged."""
    round_ = max(fight.round, 1)
    items = fight.declared(round_)
    return (fight, round_, items, len(items), items[-1][0] if items else None)


def same_declarations(kept: tuple[Any, ...], read: tuple[Any, ...]) -> bool:
    """Whether two readings (`declarations_read`) are of the same declarations: the
    fight and the list by identity (the reading keeps them), the rest by value."""
    return kept[0] is read[0] and kept[2] is read[2] and kept[1] == read[1] \
        and kept[3:] == read[3:]


def open_keys(plan: Plan) -> set[str]:
    """The keys of the plan's actions not marked skipped."""
    return {key for beat in plan.beats
            for key, action in zip(beat.action_keys(), beat.actions, strict=True)
            if not action.flag("skipped")}


# how many plans a table keeps (`Questions.plan`): an undo's and a redo's few steps,
# each with all the check-offs it stands under; and how many keys to them in all
KEPT_PLANS = 8
KEPT_KEYS = 64

# a die typed on a player's page: its roll's purpose, then the initiative form's field
DIE_PURPOSE = "initiative ("


def device_dice(fight: Fight) -> dict[str, int]:
    """The initiative dice typed on players' pages this round, by the typed-initiative
    form's field they fill (the latest of each)."""
    found: dict[str, int] = {}
    round_ = max(fight.round, 1)
    for event in fight.events:  # in effect: a die undone is gone
        if isinstance(event, ev.Roll) and event.from_device and event.round == round_ \
                and event.purpose and event.purpose.startswith(DIE_PURPOSE):
            found[event.purpose[len(DIE_PURPOSE):-1]] = event.total
    return found


__all__ = ["DIE_PURPOSE", "Questions", "amount_of", "declarations_read", "device_dice",
           "present", "same_declarations"]
