"""phases: rounds of phases for large battles (spec: phases.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine import events as ev
from referee.engine.errors import FormatError, IllegalEvent, Path
from referee.engine.fight import Fight, Status
from referee.engine.model import Combatant, Encounter
from referee.engine.plan import Plan
from referee.engine.port import Grouping
from referee.engine.reading import Fields
from referee.engine.record import field, fields, record, replace
from referee.engine.specs import Act, Cell, Column, Field

from . import carrying, limits, manoeuvres, modifiers, outcomes, squads, stats
from . import events as ph
from .caches import Caches
from .rounds import (
    BOTH,
    EMPTY,
    KINDS,
    STATUSES,
    WORD,
    Op,
    RoundLog,
    Run,
    Start,
    Unit,
    added,
    phase_order,
    simulate,
)
from .rules import RULES
from .squads import Squad


@record(frozen=True)
class State:
    """phases' part of the fold: this round as it began and its events, the rounds gone
    by, the squads as they stand, modifiers chosen in play, decay and surrenders."""

    now: RoundLog
    past: dict[int, RoundLog]
    squads: dict[str, Squad]
    member: dict[str, str]
    chosen: dict[str, tuple[str, ...]] = field(default_factory=dict)
    decay: dict[str, tuple[int, int]] = field(default_factory=dict)
    surrendered: tuple[str, ...] = ()
    ordered: dict[str, tuple[int, int]] = field(default_factory=dict)  # squad -> round, rank
    dismounted: tuple[str, ...] = ()
    seq: int = 0
    memo: dict[Any, Any] = field(default_factory=dict, compare=False)
    # the units out of the fight (PH-21): the round each left it, and how (croaked, fled,
    # surrendered, removed)
    out: dict[str, tuple[int, str]] = field(default_factory=dict)
    bound: dict[str, str] = field(default_factory=dict)  # who takes no Action (PH-18)
    over: int = 0  # the round the fight ended in (0: not over): nothing is held or gained
    over_at: int = -1  # the phase (its index) that round was at when it ended
    # what the fight works out once and keeps (its units, their rounds, its plans, the
    # tracker's groups): made by `start`, handed on by every state folded from it, so
    # one fight's own and never the ruleset's, which fights and threads share
    caches: Caches = field(default_factory=Caches, compare=False)


class Phases(Grouping[State]):
    id = "phases"
    GEAR = ()  # its units carry no weapons or spells
    RULES = RULES

    # -- house rules -------------------------------------------------------------------

    def read(self, f: Fields) -> None:
        self.direction = f.str("phases_run", "down")
        if self.direction not in ("down", "up"):
            raise FormatError(f"expected down or up, found {self.direction!r}",
                              ("phases_run",))
        self.limits = {"stack": self.number(f, "stack_size", 8, 1, 99),
                       "horde": self.number(f, "horde_size", 24, 1, 999)}
        self.decay_every = self.number(f, "extended_decay_every", 3, 1, 99)
        self.decay_hits = self.number(f, "decay_hits", 2, 0, 99)
        self.extended_hits = self.number(f, "extended_decay_hits", 3, 0, 99)

    @staticmethod
    def number(f: Fields, key: str, default: int, low: int, high: int) -> int:
        value: int = f.int(key, default, minimum=low)
        limits.within(value, low, high, (key,))
        return value

    def switches(self) -> list[str]:
        return [f"phases run {self.direction}: highest base Combat + 1 phases (PH-1)",
                f"a stack holds {self.limits['stack']}, a horde {self.limits['horde']} (PH-7)",
                f"decay -{self.decay_hits} Hits a turn, and every {self.decay_every} turns "
                f"the extended decay's -{self.extended_hits} as well (PH-17)"]

    # -- the roster --------------------------------------------------------------------

    def combatant_fields(self) -> tuple[Field, ...]:
        return stats.COMBATANT

    def side_fields(self) -> tuple[Field, ...]:
        return stats.SIDE

    def encounter_fields(self) -> tuple[Field, ...]:
        return squads.ENCOUNTER

    @property
    def schemas(self) -> Any:
        if self._schemas is None:
            from referee.engine.model import Schemas

            schemas = Schemas(self)
            schemas.encounter = squads.EncounterSchema(self.encounter_fields(), self.id)
            self._schemas = schemas
        return self._schemas

    def check_encounter(self, encounter: Any) -> None:
        for index, c in enumerate(encounter.combatants):  # numbers first: nothing huge is built
            limits.check_combatant(c, ("combatants", index))
        squads.check_squads(encounter, self.limits)
        carrying.check(encounter.combatants, encounter.stats.get("squads", ()))
        for index, c in enumerate(encounter.combatants):
            modifiers.check(c, stats.modifiers(c), ("combatants", index, "modifiers"))
            traits = stats.traits(c)
            for number, trait in enumerate(traits):
                if trait.lower() not in stats.KNOWN_TRAITS:
                    raise FormatError(f"unknown trait {trait!r} (traits: "
                                      f"{', '.join(stats.TRAITS)})",
                                      ("combatants", index, "traits", number))

    # -- events ------------------------------------------------------------------------

    def events(self) -> tuple[type[ev.Event], ...]:
        return ph.EVENTS

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        from .views import tell

        return tell(self, fight, event)

    def shapes_plan(self, event: ev.Event) -> bool:
        return event.TYPE in ("use", "delay", "condition", "order", "regroup", "manoeuvre",
                              "surrender", "join", "death", "damage", "decay", "end")

    # -- state -------------------------------------------------------------------------

    def unit(self, fight: Fight, cid: str) -> Unit:
        """The facts of `cid` the simulation reads, worked out once a fight (its caches)
        and kept while its combatant is the same object and what binds it (PH-18) the
        same: a unit's round is kept while its Unit is the same object."""
        c = fight.roster[cid]
        state = self.state(fight)
        bound = state.bound.get(cid, "")
        cache = state.caches.units
        found = cache.get(cid)
        if found is not None and found[0] is c and found[1].bound == bound:
            return found[1]
        traits = stats.lowered(c)
        unit = Unit(cid, c.name, stats.combat(c), "agile" in traits,
                    not traits.isdisjoint(stats.STUN_IMMUNE),
                    carried=bool(c.stats.get("carried_by")), bound=bound)
        cache[cid] = (c, unit)
        return unit

    @staticmethod
    def elites(encounter: Encounter) -> list[str]:
        """The Elite units of the roster (PH-17)."""
        return [c.id for c in encounter.combatants
                if "elite" in map(str.lower, c.stats.get("traits", ()))]

    def bound(self, fight: Fight, state: State | None = None) -> dict[str, str]:
        """PH-18: the units a carry or a drag keeps from acting; `state`'s own (the same
        object) while they stay the same."""
        found = carrying.bound(fight.roster)
        if state is not None and found == state.bound:
            return state.bound
        return found

    def out_of_fight(self, fight: Fight, cid: str) -> str:
        """PH-21: how the unit left the fight (croaked, fled, surrendered, removed), or ""."""
        gone = self.state(fight).out.get(cid)
        return gone[1] if gone is not None else ""

    def croaked(self, fight: Fight, cid: str) -> bool:
        status = fight.status[cid]
        return status.dead or status.hp <= 0

    def start(self, fight: Fight) -> State:
        encounter = fight.encounter
        for cid in self.elites(encounter):
            elite_hits(fight, cid)
        table = squads.squads_of(encounter)
        member = {cid: sid for sid, s in table.items() for cid in s.members}
        out = {cid: (0, "croaked") for cid, s in fight.status.items() if s.dead or s.hp <= 0}
        fighting = frozenset(cid for cid in fight.roster if cid not in out)
        order = phase_order([stats.combat(fight.roster[c]) for c in fighting],
                            self.direction == "up")
        opening = {c.id: Start(held=BOTH) for c in encounter.combatants
                   if stats.defending(encounter.side(c.side)) and c.id in fighting}  # PH-4
        log = RoundLog(1, order, fighting, opening, delaying=squads.delaying(table))
        return State(log, {}, table, member, out=out, bound=self.bound(fight))

    def roll(self, fight: Fight, state: State) -> State:
        """The next round: what each unit keeps (PH-3, PH-20), who still fights, how
        many phases (PH-1, PH-17)."""
        log = state.now
        delaying, out = log.delaying, state.out
        nexts: dict[str, Start] = {}
        for cid in fight.roster:
            keep_all = cid in delaying
            if cid in out or (cid not in log.ops and cid not in log.start and not keep_all):
                continue  # PH-21: a unit out of the fight carries nothing on
            run = simulate(log, self.unit(fight, cid), keep_all=keep_all)
            end = run.end()
            if end != EMPTY:
                nexts[cid] = end
        gave_up = set(state.surrendered)
        fighting = frozenset(cid for cid, c in fight.roster.items() if cid not in out
                             and not self.croaked(fight, cid) and c.side not in gave_up)
        order = phase_order([stats.combat(fight.roster[c]) for c in fighting],
                            self.direction == "up")
        new = RoundLog(log.round + 1, order, fighting, nexts, delaying=delaying)
        return replace(state, now=new, past={**state.past, log.round: log}, memo={})

    @staticmethod
    def delaying(state: State) -> frozenset[str]:
        """PH-20: the members of squads whose tactic is Delay."""
        return state.now.delaying

    def new_round(self, fight: Fight, state: State) -> State:
        while state.now.round < fight.round:
            state = self.roll(fight, state)
        return state

    def at_round(self, fight: Fight, round_: int) -> RoundLog:
        """The round's log: this one, one gone by, or one to come (worked out ahead)."""
        state = self.state(fight)
        if round_ == state.now.round:
            return state.now
        if round_ in state.past:
            return state.past[round_]
        key = ("ahead", round_)
        if key not in state.memo:
            ahead = state
            while ahead.now.round < round_:
                ahead = self.roll(fight, ahead)
            state.memo[key] = ahead.now
        log: RoundLog = state.memo[key]
        return log

    def marks(self, combatant: Combatant) -> dict[str, Any]:
        return {"fatigue": 0}

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        seq = state.seq + 1
        if isinstance(event, ph.Use):
            log = state.now
            op = Op(log.pos(event.phase) or 0, seq, "use", event.what, engaged=event.engaged)
            return replace(state, now=added(log, event.actor, op), seq=seq,
                           memo=carried(state, event.actor))
        if isinstance(event, ph.Delay):
            op = Op(self.delay_pos(fight, state.now, event.actor), seq, "delay",
                    keep=frozenset(event.keep))
            return replace(state, now=added(state.now, event.actor, op, reach=False), seq=seq,
                           memo=carried(state, event.actor))
        if isinstance(event, ph.Condition):
            if event.name in OUT_NAMES:
                return self.apply_out(fight, state, event.target, event.name, event.on)
            if event.name not in STATUSES:
                return state
            return replace(state, now=self.with_condition(state.now, event, seq), seq=seq,
                           memo=carried(state, event.target))
        if isinstance(event, ph.Order):
            return self.apply_order(fight, state, event)
        if isinstance(event, ph.Regroup):
            return self.apply_regroup(fight, state, event, seq)
        if isinstance(event, ph.Manoeuvre):
            return self.apply_manoeuvre(fight, state, event, seq)
        if isinstance(event, ph.Decay):
            com, dfn = state.decay.get(event.target, (0, 0))
            fight.status[event.target].hp -= event.hits
            return self.apply_hits(fight, state, event.target, decay={
                **state.decay, event.target: (com + event.combat, dfn + event.defense)})
        if isinstance(event, ph.Surrender):
            state = replace(state, surrendered=state.surrendered + (event.side,))
            for cid, c in fight.roster.items():  # PH-21: the whole side is out
                if c.side == event.side and cid not in state.out:
                    state = self.apply_out(fight, state, cid, "surrendered", True)
            return replace(state, memo=carried(state))
        if isinstance(event, ev.Join) and event.combatant is not None:
            return self.apply_join(fight, state, event.combatant.id)
        if isinstance(event, ev.End):  # the tracker and the plan read the round as it ended
            return replace(state, over=max(fight.round, 1), over_at=self.now_pos(fight),
                           memo=carried(state))
        if event.TYPE in ("damage", "death", "heal"):
            return self.apply_hits(fight, state, getattr(event, "target", ""))
        return state

    def apply_join(self, fight: Fight, state: State, cid: str) -> State:
        if stats.has(fight.roster[cid], "Elite"):
            elite_hits(fight, cid)
        state = replace(state, bound=self.bound(fight, state))  # it may carry, drag, be dragged
        log = state.now
        if self.croaked(fight, cid):
            return replace(state, out={**state.out, cid: (max(fight.round, 1), "croaked")},
                           memo={})
        new = RoundLog(log.round, log.order, log.fighting | {cid}, log.start, log.ops,
                       log.reached, log.delaying)
        return replace(state, now=new, memo={})

    def apply_hits(self, fight: Fight, state: State, cid: str, **changes: Any) -> State:
        """Hits lost or healed (and `changes` to the state): a unit croaked leaves the
        fight, one healed comes back (PH-21); only a change of either works its round out
        again."""
        down = cid in fight.status and self.croaked(fight, cid)
        gone = state.out.get(cid)
        if down and gone is None:
            return self.apply_out(fight, replace(state, **changes), cid, "croaked", True)
        if not down and gone is not None and gone[1] == "croaked" and cid in fight.status:
            return self.apply_out(fight, replace(state, **changes), cid, "croaked", False)
        return replace(state, memo=carried(state), **changes)

    def apply_out(self, fight: Fight, state: State, cid: str, how: str, on: bool) -> State:
        """PH-21: `cid` leaves the fight (`on`), or comes back; a squad whose leader left
        with no Command Unit standing in it dissolves (PH-7)."""
        out = dict(state.out)
        if on and cid not in out:
            out[cid] = (max(fight.round, 1), how)
        elif not on and cid in out and out[cid][1] == how:
            del out[cid]
        else:
            return replace(state, memo=carried(state))
        state = replace(state, out=out)
        sid = state.member.get(cid)
        if on and sid is not None:
            return self.settled(fight, state, state.squads, state.member, sid, cid)
        return replace(state, memo=carried(state, cid))

    def settled(self, fight: Fight, state: State, table: dict[str, Squad],
                member: dict[str, str], sid: str, *changed: str,
                now: RoundLog | None = None) -> State:
        """The squads after `sid` changed: it dissolves when it has no standing leader
        and no standing Command Unit to name one, or no members (PH-7)."""
        squad = table.get(sid)
        if squad is not None and self.leaderless(fight, state, squad):
            table, member = dict(table), dict(member)
            del table[sid]
            for cid in squad.members:
                member.pop(cid, None)
            changed += squad.members
        return self.with_squads(state, table, member, *changed, now=now)

    def leaderless(self, fight: Fight, state: State, squad: Squad) -> bool:
        def standing(cid: str) -> bool:
            return cid in fight.roster and cid not in state.out

        if not squad.members:
            return True
        if squad.leader is not None and squad.leader in squad.members and \
                standing(squad.leader):
            return False
        return not any(standing(cid) and squads.command_unit(fight.roster[cid])
                       for cid in squad.members)

    def with_squads(self, state: State, table: dict[str, Squad], member: dict[str, str],
                    *changed: str, now: RoundLog | None = None, **more: Any) -> State:
        """The state with new squads; the members whose squad's Delay (PH-20) began or
        ended have their rounds worked out again."""
        log = state.now if now is None else now
        delaying = squads.delaying(table)
        moved = delaying ^ log.delaying
        if moved:
            log = replace(log, delaying=delaying)
        return replace(state, now=log, squads=table, member=member, **more,
                       memo=carried(state, *changed, *moved))

    def with_condition(self, log: RoundLog, event: ph.Condition, seq: int) -> RoundLog:
        pos = -1 if event.phase is None else (log.pos(event.phase) or 0)
        until = None if event.duration is None else event.round + event.duration - 1
        op = Op(pos, seq, "cond", event.name, event.on, until)
        return added(log, event.target, op, reach=event.phase is not None)

    def action_pos(self, fight: Fight, log: RoundLog, cid: str, phase: int | None) -> int:
        """Where an Action without a phase falls: now, or the unit's own phase if later
        and it holds no delayed Action."""
        if phase is not None:
            return log.pos(phase) or 0
        return max(log.reached, 0)

    def delay_pos(self, fight: Fight, log: RoundLog, cid: str) -> int:
        own = log.pos(stats.combat(fight.roster[cid])) if cid in fight.roster else None
        return max(log.reached, own if own is not None else 0, 0)

    def apply_order(self, fight: Fight, state: State, event: ph.Order) -> State:
        squad = state.squads[event.squad]
        order = squads.Order(event.tactic, event.target or "any", tuple(event.at))
        rank = self.order_rank(fight, squad, event.by)
        return self.with_squads(state, {**state.squads, squad.id: replace(squad, order=order)},
                                state.member, ordered={**state.ordered, squad.id: (
                                    event.round, rank)})

    def apply_regroup(self, fight: Fight, state: State, event: ph.Regroup, seq: int) -> State:
        log = state.now
        op = Op(self.action_pos(fight, log, event.actor, event.phase), seq, "use", "action")
        table, member = dict(state.squads), dict(state.member)
        actor = event.actor
        own = member.get(actor)
        if own is not None and event.leader is not None:
            table[own] = replace(table[own], leader=event.leader)
        if own is not None and (event.join is not None or event.leave):
            old = table[own]
            leader = None if old.leader == actor else old.leader  # PH-7: it leaves with it
            table[own] = replace(old, members=tuple(m for m in old.members if m != actor),
                                 leader=leader)
            del member[actor]
        if event.join is not None:
            new = table[event.join]
            table[event.join] = replace(new, members=new.members + (actor,))
            member[actor] = event.join
        chosen = dict(state.chosen)
        if event.modifiers is not None:
            chosen[actor] = tuple(event.modifiers)
        state = replace(state, chosen=chosen, seq=seq)
        now = added(log, actor, op)
        if own is not None:
            return self.settled(fight, state, table, member, own, actor, now=now)
        return self.with_squads(state, table, member, actor, now=now)

    def apply_manoeuvre(self, fight: Fight, state: State, event: ph.Manoeuvre,
                        seq: int) -> State:
        log = state.now
        if not event.simultaneous:
            op = Op(self.action_pos(fight, log, event.actor, event.phase), seq, "use",
                    "action")
            log = added(log, event.actor, op)
        dismounted = state.dismounted
        if event.kind == "dismount" and event.success:
            dismounted = dismounted + tuple(t for t in event.target if t not in dismounted)
        changed = () if event.simultaneous else (event.actor,)
        return replace(state, now=log, dismounted=dismounted, seq=seq,
                       memo=carried(state, *changed))

    # -- the simulation, read ---------------------------------------------------------

    def runs(self, fight: Fight, round_: int) -> dict[str, Run]:
        """Every unit's round (those with anything to show), worked out once a state."""
        state = self.state(fight)
        key = ("runs", round_)
        found: dict[str, Run] | None = state.memo.get(key)
        if found is None:
            log = self.at_round(fight, round_)
            now = round_ == state.now.round
            found = self.runs_since(fight, log, state.memo.pop(SINCE, None) if now else None)
            if found is None:
                found = {}
                for cid in fight.roster:
                    run = self.fresh_run(fight, log, cid)
                    if run is not None:
                        found[cid] = run
            state.memo[key] = found
        return found

    def runs_since(self, fight: Fight, log: RoundLog,
                   since: tuple[RoundLog, dict[str, Run], frozenset[str]] | None
                   ) -> dict[str, Run] | None:
        """The runs of the state before with only the units an event touched worked out
        again (an event changes one unit's round), or None when that cannot be done:
        no runs before, another round, or a unit that joins the runs (roster order)."""
        if since is None:
            return None
        before, runs, changed = since
        if before.round != log.round or before.order is not log.order or \
                before.fighting is not log.fighting or before.start is not log.start:
            return None
        found = dict(runs)
        for cid in changed:
            run = self.fresh_run(fight, log, cid) if cid in fight.roster else None
            if run is None:
                found.pop(cid, None)
            elif cid in found:
                found[cid] = run
            else:
                return None
        return found

    def fresh_run(self, fight: Fight, log: RoundLog, cid: str) -> Run | None:
        """`cid`'s round, or None when it has nothing to show; a unit whose round did not
        change since the last time keeps its run (the same object)."""
        ops_of, start_of, fighting = log.ops, log.start, log.fighting
        if cid not in fighting and cid not in start_of and cid not in ops_of:
            return None
        state = self.state(fight)
        gone = state.out.get(cid)
        if gone is not None and gone[0] <= log.round:
            return None  # PH-21: out of the fight, it holds nothing and gains nothing
        cache = state.caches.runs  # the fight's own: one run a unit, the latest
        unit = self.unit(fight, cid)
        basis = (log.round, log.order, cid in fighting, start_of.get(cid), ops_of.get(cid),
                 unit, cid in log.delaying)
        kept = cache.get(cid)
        if kept is not None and kept[0] == basis[0] and kept[1] == basis[1] and \
                all(a is b for a, b in zip(kept[2:7], basis[2:], strict=True)):
            run: Run = kept[7]
            return run
        run = simulate(log, unit)
        cache[cid] = basis + (run,)
        return run

    def run_of(self, fight: Fight, cid: str) -> Run | None:
        return self.runs(fight, self.state(fight).now.round).get(cid)

    def statuses(self, fight: Fight, cid: str) -> list[str]:
        run = self.run_of(fight, cid)
        if run is None:
            return []
        names = list(run.statuses)
        if run.unit.carried and "immobilized" not in names:
            names.append("immobilized")  # while carried (PH-18)
        if run.stun:
            names.append("stunned")
        return names

    # -- checks ------------------------------------------------------------------------

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        super().check_event(fight, event)
        limits.check_event(fight, event)
        if fight.ended and isinstance(event, MOVES_ON):
            raise IllegalEvent("the fight is over: an undo (ctrl+z) takes the end back")
        actor = getattr(event, "actor", None)
        if isinstance(event, (ph.Use, ph.Delay, ph.Regroup, ph.Manoeuvre)):
            if actor not in fight.roster:
                known = ", ".join(fight.roster)
                raise IllegalEvent(f"unknown combatant {actor!r} (combatants: {known})",
                                   ("actor",))
            if event.round < fight.round:
                raise IllegalEvent(f"round {event.round} is over: the fight is in round "
                                   f"{fight.round}", ("round",))
        if isinstance(event, ph.Use):
            self.check_use(fight, event)
        elif isinstance(event, ph.Delay):
            self.check_delay(fight, event)
        elif isinstance(event, ph.Condition):
            self.check_condition(fight, event)
        elif isinstance(event, ph.Order):
            self.check_order(fight, event)
        elif isinstance(event, ph.Regroup):
            self.check_regroup(fight, event)
        elif isinstance(event, ph.Manoeuvre):
            self.check_manoeuvre(fight, event)
        elif isinstance(event, (ph.Decay,)) and event.target not in fight.roster:
            raise IllegalEvent(f"unknown combatant {event.target!r}", ("target",))
        elif isinstance(event, ph.Damage):
            outcomes.check_subdue_damage(self, fight, event)
        elif isinstance(event, ph.Surrender) and event.side not in fight.side_ids():
            raise IllegalEvent(f"unknown side {event.side!r}", ("side",))

    def log_for(self, fight: Fight, round_: int) -> RoundLog:
        state = self.state(fight)
        if round_ <= state.now.round:
            return state.now
        return self.at_round(fight, round_)

    def check_phase(self, log: RoundLog, phase: int) -> int:
        pos = log.pos(phase)
        if pos is None:
            span = f"{log.order[0]} to {log.order[-1]}" if log.order else "none"
            raise IllegalEvent(f"round {log.round} has no phase {phase} (phases {span}, "
                               "PH-1)", ("phase",))
        if pos < log.reached:
            raise IllegalEvent(f"phase {phase} has passed: round {log.round} is at phase "
                               f"{log.order[log.reached]} (PH-1)", ("phase",))
        return pos

    def check_actor_fights(self, fight: Fight, cid: str) -> None:
        if self.croaked(fight, cid):
            raise IllegalEvent(f"{fight.roster[cid].name} is croaked", ("actor",))
        how = self.out_of_fight(fight, cid)
        if how:
            raise IllegalEvent(f"{fight.roster[cid].name} is out of the fight ({how}): it "
                               "holds and gains nothing (PH-21)", ("actor",))
        sid = self.state(fight).member.get(cid)
        if sid is not None and cid in self.delaying(self.state(fight)):
            raise IllegalEvent(f"{fight.roster[cid].name}'s squad {sid} is on Delay: it holds "
                               "its Moves and Actions until the order changes (PH-20)",
                               ("actor",))

    def check_use(self, fight: Fight, event: ph.Use) -> None:
        if event.what not in KINDS:
            raise IllegalEvent(f"expected move or action, found {event.what!r}", ("what",))
        log = self.log_for(fight, event.round)
        pos = self.check_phase(log, event.phase)
        self.check_actor_fights(fight, event.actor)
        op = Op(pos, self.state(fight).seq + 1, "use", event.what, engaged=event.engaged)
        simulate(log, self.unit(fight, event.actor), extra=op)

    def check_delay(self, fight: Fight, event: ph.Delay) -> None:
        for index, kind in enumerate(event.keep):
            if kind not in KINDS:
                raise IllegalEvent(f"expected move or action, found {kind!r}",
                                   ("keep", index))
        if not event.keep:
            raise IllegalEvent("keep names move, action or both (PH-3)", ("keep",))
        log = self.log_for(fight, event.round)
        op = Op(self.delay_pos(fight, log, event.actor), self.state(fight).seq + 1, "delay",
                keep=frozenset(event.keep))
        simulate(log, self.unit(fight, event.actor), extra=op)

    def check_condition(self, fight: Fight, event: ph.Condition) -> None:
        if event.name in STATUSES and event.phase is not None:
            self.check_phase(self.log_for(fight, event.round), event.phase)

    def order_rank(self, fight: Fight, squad: Squad, by: str | None) -> int:
        """PH-9: the squad's leader, then the Chief Warlord, then highest Leadership."""
        if by is None or by == squad.leader:
            return 0
        c = fight.roster.get(by)
        if c is None:
            return 1000
        if stats.has(c, "Chief Warlord"):
            return 1
        return 100 - min(stats.leadership(c), 98)

    def check_order(self, fight: Fight, event: ph.Order) -> None:
        state = self.state(fight)
        if event.squad not in state.squads:
            known = ", ".join(state.squads) or "none"
            raise IllegalEvent(f"unknown squad {event.squad!r} (squads: {known})", ("squad",))
        try:
            squads.check_order(event.tactic, tuple(event.at), ())
        except FormatError as error:
            raise IllegalEvent(error.reason, error.path) from None
        if event.by is not None and event.by not in fight.roster:
            raise IllegalEvent(f"unknown combatant {event.by!r}", ("by",))
        log = state.now
        if event.round <= log.round and (log.reached >= 0 or any(
                op.op == "use" for ops in log.ops.values() for op in ops)):
            raise IllegalEvent(f"round {log.round} is under way: orders change only at the "
                               "start of a round (PH-9)", ("round",))
        squad = state.squads[event.squad]
        rank = self.order_rank(fight, squad, event.by)
        given = state.ordered.get(squad.id)
        if given is not None and given[0] == max(event.round, 1) and given[1] < rank:
            raise IllegalEvent(f"squad {squad.id} already has an order this round from a "
                               "higher command (PH-9: its leader, the Chief Warlord, highest "
                               "Leadership, the closest leader)", ("by",))

    def check_regroup(self, fight: Fight, event: ph.Regroup) -> None:
        state = self.state(fight)
        cid = event.actor
        c = fight.roster[cid]
        own = state.member.get(cid)
        if event.join is not None:
            if event.join not in state.squads:
                known = ", ".join(state.squads) or "none"
                raise IllegalEvent(f"unknown squad {event.join!r} (squads: {known})", ("join",))
            target = state.squads[event.join]
            if event.join == own:
                raise IllegalEvent(f"{c.name} is already in squad {own}", ("join",))
            if len(target.members) >= self.limits[target.kind]:
                raise IllegalEvent(f"{target.kind} {target.id} is full: at most "
                                   f"{self.limits[target.kind]} units (PH-7)", ("join",))
            sides = {fight.roster[m].side for m in target.members}
            if sides and c.side not in sides:
                raise IllegalEvent(f"squad {target.id} is on another side", ("join",))
        if event.leader is not None:
            self.check_new_leader(fight, event, own)
        self.check_pair_stays(fight, event, own)
        if event.modifiers is not None:
            modifiers.check(c, tuple(event.modifiers), ("modifiers",), event=True)
        self.check_actor_fights(fight, cid)
        self.check_action(fight, event.round, cid, event.phase)

    def check_new_leader(self, fight: Fight, event: ph.Regroup, own: str | None) -> None:
        """PH-7: the leader that drops out names a Command Unit of its squad; with the
        leader gone (croaked, fled), any member of it may."""
        state = self.state(fight)
        actor = fight.roster[event.actor].name
        if own is None:
            raise IllegalEvent(f"{actor} is in no squad to name a leader for", ("leader",))
        squad = state.squads[own]
        if event.leader not in squad.members or event.leader not in fight.roster:
            who = fight.roster[event.leader].name if event.leader in fight.roster else \
                repr(event.leader)
            raise IllegalEvent(f"leader {who} is not a member of squad {own} (PH-7)",
                               ("leader",))
        if not squads.command_unit(fight.roster[event.leader]):
            raise IllegalEvent(f"{fight.roster[event.leader].name} is not a Command Unit "
                               "(PH-8)", ("leader",))
        leader = squad.leader
        standing = leader is not None and leader in fight.roster and leader in squad.members \
            and leader not in state.out
        if standing and leader is not None and leader != event.actor:
            raise IllegalEvent(f"squad {own} is led by {fight.roster[leader].name}: only the "
                               "leader names the next one, as it drops out (PH-7)",
                               ("leader",))

    def check_pair_stays(self, fight: Fight, event: ph.Regroup, own: str | None) -> None:
        """PH-19: a mount with a rider is in a squad only if its rider is in it too; a
        Regroup that would part them is refused (a dismounted pair are two units)."""
        if event.join is None and not event.leave:
            return
        state = self.state(fight)
        pairs = {m: r for m, r in carrying.ridden(fight.roster).items()
                 if r not in state.dismounted}
        riders = {r: m for m, r in pairs.items()}
        actor, joins = event.actor, event.join
        rider = pairs.get(actor)
        named = fight.roster
        if rider is not None and joins is not None and state.member.get(rider) != joins:
            raise IllegalEvent(carrying.pair_apart(named[actor].name, named[rider].name),
                               ("join",))
        mount = riders.get(actor)
        stays = state.member.get(mount) if mount is not None else None
        if mount is not None and stays is not None and stays != joins:
            raise IllegalEvent(f"{named[actor].name} rides {named[mount].name}, which stays "
                               f"in squad {stays}: a mount with a rider is in a squad only "
                               "if its rider is in it too (PH-19)",
                               ("join" if joins else "leave",))

    def check_action(self, fight: Fight, round_: int, cid: str, phase: int | None) -> None:
        log = self.log_for(fight, round_)
        if phase is not None:
            self.check_phase(log, phase)
        op = Op(self.action_pos(fight, log, cid, phase), self.state(fight).seq + 1, "use",
                "action")
        simulate(log, self.unit(fight, cid), extra=op)

    def check_manoeuvre(self, fight: Fight, event: ph.Manoeuvre) -> None:
        if event.kind not in manoeuvres.KINDS:
            raise IllegalEvent(f"expected one of {', '.join(manoeuvres.KINDS)}, found "
                               f"{event.kind!r}", ("kind",))
        for index, cid in enumerate(event.target):
            if cid not in fight.roster:
                raise IllegalEvent(f"unknown combatant {cid!r}", ("target", index))
        why = manoeuvres.agile(self, fight, event.actor) if event.kind == "bull-rush" else ""
        if why:
            raise IllegalEvent(why, ("actor",))
        if event.kind == "dismount":
            self.check_dismount(fight, event)
        if not event.simultaneous:
            self.check_actor_fights(fight, event.actor)
            self.check_action(fight, event.round, event.actor, event.phase)
        outcomes.check(self, fight, event)

    def check_dismount(self, fight: Fight, event: ph.Manoeuvre) -> None:
        """PH-15: an enemy tries it (never the rider's own side), on a rider still
        mounted."""
        actor = fight.roster[event.actor]
        for index, cid in enumerate(event.target):
            where = ("target", index) if len(event.target) > 1 else ("target",)
            rider = fight.roster[cid]
            if rider.side == actor.side:
                raise IllegalEvent(f"{actor.name} is on {rider.name}'s own side: only an enemy "
                                   "may try to dismount a rider (PH-15)", ("actor",))
            if not rider.stats.get("mount"):
                raise IllegalEvent(f"{rider.name} rides no mount (PH-15)", where)
            if cid in self.state(fight).dismounted:
                raise IllegalEvent(f"{rider.name} is already dismounted (PH-15)", where)

    # -- consequences ------------------------------------------------------------------

    def apply_damage(self, fight: Fight, status: Status, event: ev.Damage) -> None:
        marks = status.marks
        if getattr(event, "fatigue", False):
            marks["fatigue"] = marks.get("fatigue", 0) + event.amount  # PH-14
            return
        status.hp -= event.amount + marks.get("fatigue", 0)  # Fatigue into lost Hits
        marks["fatigue"] = 0

    def surrendering(self, fight: Fight) -> list[str]:
        """PH-10: sides whose units are all Calm, Incapacitated or croaked (unless
        Constructs or Uncroaked), not yet surrendered."""
        state = self.state(fight)
        out = []
        for side in fight.encounter.sides:
            if side.id in state.surrendered:
                continue
            units = [cid for cid, c in fight.roster.items() if c.side == side.id]
            if not units:
                continue
            standing = [cid for cid in units if not self.croaked(fight, cid)]
            if any(stats.has(fight.roster[cid], "Construct")
                   or stats.uncroaked(fight.roster[cid]) for cid in standing):
                continue
            if all({"calm", "incapacitated"} & set(self.statuses(fight, cid))
                   for cid in standing):
                out.append(side.id)
        return out

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        out: list[ev.Event] = []
        round_ = max(fight.round, 1)
        # PH-10: any attack breaks the Calm, a subdue's (Fatigue, PH-14) too
        if isinstance(event, ev.Damage) and "calm" in self.statuses(fight, event.target):
            out.append(ph.Condition(round=round_, target=event.target, name="calm", on=False))
        # a round's or the fight's end follows its decay (PH-17), which may croak the last
        # unit of a side that kept it from surrendering
        if isinstance(event, (ev.Condition, ev.Damage, ev.Death, ph.Decay, ev.NewRound,
                              ev.End)):
            trial = fight.copy() if out else fight
            if out:
                for extra in out:
                    trial.push(extra)
            out += [ph.Surrender(round=round_, side=side) for side in self.surrendering(trial)]
        return out

    def end_of_round(self, fight: Fight) -> list[ev.Event]:
        """PH-17: every Uncroaked unit decays; every third turn the extended decay as well
        as the normal one (that turn -2 Combat, -2 Defense, -5 Hits)."""
        out: list[ev.Event] = []
        extended = fight.round % self.decay_every == 0
        for cid, c in fight.roster.items():
            if stats.uncroaked(c) and not self.croaked(fight, cid):
                out.append(ph.Decay(round=fight.round, target=cid, combat=1, defense=1,
                                    hits=self.decay_hits))
                if extended:
                    out.append(ph.Decay(round=fight.round, target=cid, combat=1, defense=1,
                                        hits=self.extended_hits, extended=True))
        return out

    # -- the plan ----------------------------------------------------------------------

    def plan_round(self, fight: Fight) -> int:
        return max(fight.round, 1)

    def plan(self, fight: Fight, round_: int) -> Plan:
        from .views import plan

        return plan(self, fight, round_)

    def can_act(self, fight: Fight, cid: str) -> str:
        if self.croaked(fight, cid):
            return "croaked"
        return self.out_of_fight(fight, cid)

    def unable(self, fight: Fight, cid: str, beat: int) -> tuple[str, str] | None:
        why = self.can_act(fight, cid)
        return ("PH-21", f"{why}: gains nothing") if why else None

    def mark_unable(self, fight: Fight, plan: Plan) -> Plan:
        """A unit out of the fight is not in the plan at all, neither gaining nor holding
        (PH-21), so no action of its waits to be skipped; once the fight is over, what
        its last round had still to do never comes (views.ended)."""
        state = self.state(fight)
        if state.over and plan.round == state.over:
            from .views import ended

            return ended(self, fight, plan, state.over_at)
        return plan

    def now_pos(self, fight: Fight) -> int:
        """The phase (its index) the round is at: the furthest an event named, or the
        first with a Move or Action not yet resolved."""
        log = self.state(fight).now
        if max(fight.round, 1) < log.round:
            return -1
        done = fight.resolved.get(log.round, set())
        runs = self.runs(fight, log.round)
        first = len(log.order) - 1
        for cid, run in runs.items():
            if run.base_pos is not None and run.gains and run.base_pos < first and any(
                    f"{cid}:{k}" not in done for k in run.gains):
                first = run.base_pos
        return max(log.reached, first)

    # -- the tracker -------------------------------------------------------------------

    def columns(self) -> tuple[Column, ...]:
        from .views import COLUMNS

        return COLUMNS

    def row_groups(self, fight: Fight) -> dict[str, tuple[str, str]]:
        """The tracker folds a large battle by squad (PH-7); worked out again only when
        the squads change (a Regroup, a new leader) or a unit joins."""
        state = self.state(fight)
        caches, roster = state.caches, fight.roster
        # the roster by identity and size: a unit joins it in place, and an undo folds
        # a copy of it (the same squads may then meet another unit that joined)
        kept = caches.groups
        if kept is not None and kept[0] is state.squads and kept[1] is state.member and \
                kept[2] is roster and kept[3] == len(roster):
            found: dict[str, tuple[str, str]] = kept[4]
            return found
        headings: dict[str, tuple[str, str]] = {}
        for squad in state.squads.values():
            leader = fight.roster.get(squad.leader or "")
            led = f", led by {leader.name}" if leader is not None else ", no leader"
            headings[squad.id] = (squad.id, f"{squad.kind} {squad.id}{led}")
        found = {cid: headings[sid] for cid, sid in state.member.items() if sid in headings}
        if found:  # the units in no squad together, not strewn between the squads
            loose = LOOSE, "no squad (PH-9)"
            found.update((cid, loose) for cid in fight.roster if cid not in found)
        caches.groups = (state.squads, state.member, roster, len(roster), found)
        return found

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        from .views import cells

        return cells(self, fight, cid)

    def effective(self, fight: Fight, cid: str) -> tuple[int, int]:
        c = fight.roster[cid]
        state = self.state(fight)
        chosen = state.chosen.get(cid, stats.modifiers(c))
        return modifiers.effective(c, chosen, state.decay.get(cid, (0, 0)),
                                   self.statuses(fight, cid))

    def state_word(self, fight: Fight, cid: str) -> str:
        status = fight.status[cid]
        if status.dead or status.hp <= 0:
            return "croaked"
        side = fight.roster[cid].side
        if side in self.state(fight).surrendered:
            return "surrendered"
        how = self.out_of_fight(fight, cid)
        if how:
            return how  # fled, removed (PH-21)
        from .views import now_run, statuses_now

        names = statuses_now(self, fight, cid, now_run(self, fight, cid)[0])
        for word in ("incapacitated", "immobilized", "stunned", "calm"):
            if word in names:
                return word
        return ""

    def facts(self, fight: Fight, cid: str) -> dict[str, Any]:
        from .views import facts

        out = super().facts(fight, cid)
        out.update(facts(self, fight, cid))
        return out

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        state = self.state(fight)
        log = state.now
        return {"phases": list(log.order), "surrendered": list(state.surrendered),
                "squads": {sid: {"leader": s.leader, "members": list(s.members),
                                 "tactic": s.order.tactic, "target": s.order.target}
                           for sid, s in state.squads.items()}}

    def phase_word(self, fight: Fight) -> str:
        return "over" if fight.ended else ""  # the phase it is at is a part of its own

    def status_parts(self, fight: Fight) -> list[str]:
        from .views import status_parts

        return status_parts(self, fight)

    def notices(self, fight: Fight) -> list[tuple[str, str]]:
        state = self.state(fight)
        return [("Surrender (PH-10)", f"{self.side_name(fight, side)} surrenders: every unit "
                 "calm, incapacitated or croaked") for side in state.surrendered]

    @staticmethod
    def side_name(fight: Fight, side: str) -> str:
        found = fight.encounter.side(side)
        return found.name if found else side

    # -- acts --------------------------------------------------------------------------

    _acts: tuple[Act, ...] = ()

    def acts(self, fight: Fight) -> list[Act]:
        """Its table operations (acts.py): the same for every fight, so made once."""
        if not self._acts:
            from .acts import acts

            self._acts = tuple(acts(self))
        return list(self._acts)

    def damage_fields(self, fight: Fight) -> tuple[Field, ...]:
        return (Field("fatigue", "Fatigue", "bool", False,
                      help="subdual damage: Fatigue, not Hits (PH-14; S rolls a subdue's d6)"),)

    def damage_events(self, fight: Fight, hit: ev.Damage,
                      values: Mapping[str, Any]) -> list[ev.Event]:
        """PH-14: a hit marked Fatigue is subdual damage, entered as Fatigue (phases' own
        damage event), not Hits; the amount is the Fatigue dealt."""
        if not values.get("fatigue"):
            return [hit]
        given = {spec.name: getattr(hit, spec.name) for spec in fields(hit)}
        return [ph.Damage(**{**given, "fatigue": True})]


def elite_hits(fight: Fight, cid: str) -> None:
    """PH-17: Elite +5 Hits, on its hit points and their maximum (a unit croaked at the
    start stays croaked)."""
    status = fight.status[cid]
    status.max_hp += ELITE_HITS
    if status.hp > 0:
        status.hp += ELITE_HITS
        status.hp_at_round_start = status.hp


ELITE_HITS = 5
# phases' own events that move a fight on, refused once it has ended (as the core refuses
# its own): a status, damage or a surrender may still follow the end
MOVES_ON = (ph.Use, ph.Delay, ph.Order, ph.Regroup, ph.Manoeuvre)
OUT_NAMES = ("fled", "removed")  # conditions that take a unit out of the fight (PH-21)
LOOSE = ""  # the tracker's group of the units in no squad: no squad's id can be empty
SINCE = "since"  # the memo's key for what `carried` hands on


def carried(state: State, *changed: str) -> dict[Any, Any]:
    """A new state's memo: empty, but for the runs of this round worked out for `state`
    (or handed on to it) and the units whose rounds changed since, so `runs` works out
    only those again. Only the latest runs are held, never a chain of states."""
    round_ = state.now.round
    runs = state.memo.get(("runs", round_))
    if runs is not None:
        return {SINCE: (state.now, runs, frozenset(changed))}
    since = state.memo.get(SINCE)
    if since is not None:
        return {SINCE: (since[0], since[1], since[2] | frozenset(changed))}
    return {}


def encounter_squads(encounter: Encounter) -> dict[str, Squad]:
    return squads.squads_of(encounter)


def _path(*parts: str | int) -> Path:
    return tuple(parts)


__all__ = ["Phases", "State", "WORD"]
