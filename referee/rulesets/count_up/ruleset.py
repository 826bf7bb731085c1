"""count-up: base d12 - Agility once per combat, action modifiers, lowest count first."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping
from typing import Any, NamedTuple

from referee.engine import events as ev
from referee.engine.dice import DiceError
from referee.engine.dice import parse as parse_dice
from referee.engine.dice import roll as roll_dice
from referee.engine.errors import FormatError, IllegalDeclaration, IllegalEvent, RefereeError
from referee.engine.fight import Fight, Status
from referee.engine.model import Combatant, Weapon
from referee.engine.plan import Beat, Plan, PlannedAction, action_key
from referee.engine.port import Declaring, Rolling, unique_keys
from referee.engine.reading import Fields, describe
from referee.engine.record import field, record, replace
from referee.engine.specs import Act, ActionKind, Cell, Column, Field, Form

from . import events as cu
from . import healing, hits, injuries, outcomes, ranges, stats, views
from .rules import RULES

ADDS = ("", "weapon", "spell")
# the declaration forms' own field: a word on what the actor means to do (issue 24, 17)
NOTE = Field("note", "note", help="for the log: aims at the eyes …")


class ActionRule(NamedTuple):
    """One row of CU-3's table, as the ruleset file gives it."""

    name: str
    modifier: int
    adds: str  # "weapon", "spell" or "": whose speed is added
    hotkey: str
    weapon_optional: bool  # naming no weapon means not attacking: speed 0


@record(frozen=True)
class Turn:
    count: int
    action: PlannedAction
    rules: tuple[str, ...]
    why: str


@record(frozen=True)
class MoraleCheck:
    """CU-6: 3d6 + Insight + HD + allies against 11 + opponents (or an Intimidation result)."""

    combatant: str
    roll: int
    insight: int
    hd: int
    allies: int
    opponents: int
    tn: int

    @property
    def total(self) -> int:
        return self.roll + self.insight + self.hd + self.allies

    @property
    def passed(self) -> bool:
        return self.total >= self.tn

    def explain(self) -> str:
        verdict = "holds" if self.passed else "breaks"
        return (f"{self.combatant} morale: {self.roll} + Insight {self.insight} + HD {self.hd}"
                f" + {self.allies} allies = {self.total} vs TN {self.tn}: {verdict} (CU-6)")


@record(frozen=True)
class State:
    """count-up's part of the fold: base initiative, kept for the whole combat (CU-2),
    and the combat injuries each combatant has suffered (CU-9)."""

    base: dict[str, int]
    injuries: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # who has died, in which round, and the planned actions done when it did: one slain
    # while its own beat is under way still acts in it (CU-4: double knock-outs happen)
    died: dict[str, tuple[int, frozenset[str]]] = field(default_factory=dict)
    # the fight's surprise, the last one logged: who does not act in round 1 (CU-1)
    surprise: ev.Surprise | None = None


class CountUp(Declaring[State], Rolling[State]):
    id = "count-up"
    RULES = RULES
    COMBATANT_FIELDS = stats.COMBATANT
    WEAPON_FIELDS = stats.WEAPON
    SPELL_FIELDS = stats.SPELL
    EVENTS = cu.EVENTS

    def read(self, f: Fields) -> None:
        # each number within the range the rules make sense in: a die the dice reader
        # rolls, a shift no larger than it, a TN a 3d6 roll with its modifiers can meet
        self.die = f.int("initiative_die", 12, minimum=2, maximum=100)
        self.shift = f.int("latecomer_shift", 12, minimum=0, maximum=100)
        self.morale_tn = f.int("morale_tn", 11, minimum=0, maximum=99)
        self.heal_tn: int = f.int("heal_tn", 10, minimum=0, maximum=99)
        self.morale_dice = self._dice(f, "morale_dice", "3d6")
        self.injury_die = self._dice(f, "injury_die", "d%")
        self.kinds = self._read_actions(f.list("actions"))
        self.injuries = self._read_injuries(f.table("injuries", {}), f.sub("injuries"))

    @staticmethod
    def _dice(f: Fields, key: str, default: str) -> str:
        text: str = f.str(key, default)
        try:
            parse_dice(text)
        except DiceError as error:
            raise FormatError(str(error), f.sub(key)) from None
        return text

    @staticmethod
    def _read_actions(items: list[Any]) -> dict[str, ActionRule]:
        if not items:
            raise FormatError("expected at least one action", ("actions",))
        kinds = {}
        for index, item in enumerate(items):
            f = Fields(item, ("actions", index))
            key, name, hotkey = f.str("key"), f.str("name", ""), f.str("hotkey", "")
            modifier = f.int("modifier", 0, maximum=ranges.MODIFIER)
            adds = f.str("adds", "")
            optional = f.bool("weapon_optional", False)
            if adds not in ADDS:
                raise FormatError(f"`adds` is weapon, spell or empty, found {adds!r}",
                                  f.sub("adds"))
            f.done()
            kinds[key] = ActionRule(name or key, modifier, adds, hotkey, optional)
        unique_keys([Fields(i).data["key"] for i in items], "action", ("actions",))
        return kinds

    @staticmethod
    def _read_injuries(tables: dict[str, Any], path: tuple[str | int, ...]) -> dict[str, list[str]]:
        for name, rows in tables.items():
            ok = isinstance(rows, list) and all(isinstance(r, str) for r in rows)
            if not ok:
                raise FormatError(f"expected a list of strings, found {describe(rows)}",
                                  path + (name,))
        return {name: list(rows) for name, rows in tables.items()}

    def switches(self) -> list[str]:
        return [f"base initiative: d{self.die} - Agility (CU-2)",
                f"latecomer's extra turn {self.shift} earlier (CU-5)",
                f"morale: {self.morale_dice} vs {self.morale_tn} + opponents (CU-6)",
                "actions: " + ", ".join(f"{k} {r.modifier:+d}" for k, r in self.kinds.items())]

    # -- the roster and the log ----------------------------------------------------------

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        from .views import tell

        return tell(self, fight, event)

    def actions(self) -> list[ActionKind]:
        fields = {"weapon": ("weapon", "target", "note"), "spell": ("spell", "target", "note"),
                  "": ("target", "note")}
        return [ActionKind(key, name, fields[adds], hotkey)
                for key, (name, _, adds, hotkey, _) in self.kinds.items()]

    def declare_form(self, fight: Fight, actor: str, action: str,
                     prefill: Mapping[str, Any]) -> Form:
        from referee.engine.forms import declare_fields

        kind = self.kind(action)
        if kind is None:
            return super().declare_form(fight, actor, action, prefill)
        title = f"{fight.roster[actor].name} declares {action} — {kind.name}"
        return Form(title, declare_fields(fight, actor, kind.fields, prefill, {"note": NOTE}))

    # -- state -----------------------------------------------------------------------------

    def start(self, fight: Fight) -> State:
        return State({}, {})

    def marks(self, combatant: Combatant) -> dict[str, Any]:
        # big hits taken, and how many of them (and by how much it was outnumbered) its
        # last morale check already answered: a check is not asked for twice (CU-6);
        # `stable`: stabilised by a Heal check (CU-8), a mark the tracker watches
        return {"stress": stats.stress(combatant), "wounds": stats.wound_points(combatant),
                "big_hit_round": 0, "big_hits": 0, "checked_hits": 0, "checked_margin": 0,
                "broke": False, "largest_wound": 0, "stable": False}

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        if isinstance(event, ev.Morale) and event.passed is not None:
            for cid in fight.members(event.group):
                self.settle(fight, cid, event.passed)
        return self.deaths(fight, self.folded(fight, state, event), event)

    def settle(self, fight: Fight, cid: str, passed: bool) -> None:
        """A morale check made answers the big hits taken and the odds faced so far; one
        that broke ends its checks (it flees or gives up: the referee's call) (CU-6)."""
        marks = fight.status[cid].marks
        marks["checked_hits"] = marks["big_hits"]
        marks["checked_margin"] = max(self.margin(fight, cid), 0)
        marks["broke"] = marks["broke"] or not passed

    def folded(self, fight: Fight, state: State, event: ev.Event) -> State:
        if isinstance(event, ev.Surprise):
            return replace(state, surprise=event)  # CU-1
        if isinstance(event, cu.Initiative):
            return replace(state, base={**state.base, **self.base_initiative(fight, event)})
        if isinstance(event, cu.Join) and event.base is not None and event.combatant:
            return replace(state, base={**state.base, event.combatant.id: event.base})
        if isinstance(event, cu.Injury) and event.injury:  # blank: none (CU-9)
            had = state.injuries.get(event.target, ())
            return replace(state, injuries={**state.injuries, event.target: had + (
                event.injury,)})
        return state  # an end wipes initiative (CU-10): `base` is the one in force

    def deaths(self, fight: Fight, state: State, event: ev.Event) -> State:
        """A death (an event, or damage to minus Strength) noted with what was done of
        the round's plan then (CU-4, CU-8)."""
        target = getattr(event, "target", None)
        if not isinstance(event, (ev.Death, ev.Damage)) or target in state.died \
                or target not in fight.roster:
            return state
        if self.condition(fight.roster[target], fight.status[target]) != "dead":
            return state
        done = frozenset(fight.resolved.get(event.round, ()))
        return replace(state, died={**state.died, target: (event.round, done)})

    def base(self, fight: Fight) -> dict[str, int]:
        """The base initiative in force: none once the fight has ended (CU-10)."""
        state = self.state(fight)
        return {} if fight.ended else state.base

    def rolled(self, fight: Fight) -> dict[str, int]:
        """The base initiative rolled for this combat, wiped or not: the order of its
        rounds as they were fought."""
        state = self.state(fight)
        return state.base

    # -- validation ----------------------------------------------------------------

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        super().check_event(fight, event)
        ranges.check_event(event, fight.round)
        if isinstance(event, cu.Initiative):
            self._check_initiative(fight, event)
            outcomes.check_initiative(self, fight, event)
        elif isinstance(event, cu.Declare):
            self._check_declare(fight, event)
        elif isinstance(event, cu.Join) and event.base is None:
            raise IllegalEvent("a latecomer needs its base initiative (CU-5)", ("base",))
        elif isinstance(event, cu.Injury):
            if event.target not in fight.roster:
                raise IllegalEvent(f"unknown combatant {event.target!r}", ("target",))
            outcomes.check_injury(self, fight, event)
        elif isinstance(event, ev.Roll):
            outcomes.check_roll(event)
        elif isinstance(event, (ev.Damage, ev.Heal)):
            outcomes.check_amount(fight, event)
            if isinstance(event, ev.Heal):
                healing.check_heal(self, fight, event)
        elif isinstance(event, ev.Morale):
            outcomes.check_morale(self, fight, event)

    def check_encounter(self, encounter: Any) -> None:
        ranges.check_encounter(encounter)

    def _check_initiative(self, fight: Fight, e: cu.Initiative) -> None:
        groups = {stats.group(c) for c in fight.roster.values() if stats.group(c)}
        for cid in e.base:
            if cid not in fight.roster and cid not in groups:
                known = ", ".join(list(fight.roster) + sorted(groups))
                raise IllegalEvent(f"unknown combatant or group {cid!r} (known: {known})",
                                   ("base", cid))

    def _check_declare(self, fight: Fight, d: cu.Declare) -> None:
        adds = self.kinds[d.action].adds
        if adds != "spell" and d.spell is not None:
            raise IllegalDeclaration(f"{d.action} takes no spell", ("spell",))
        if adds == "spell" and d.spell is None and d.modifier is None:
            raise IllegalDeclaration("cast names one of the actor's spells", ("spell",))

    # -- initiative ----------------------------------------------------------------

    def base_initiative(self, fight: Fight, event: cu.Initiative) -> dict[str, int]:
        base = {}
        for cid, combatant in fight.roster.items():
            group = stats.group(combatant)
            if cid in event.base:
                base[cid] = event.base[cid]
            elif group and group in event.base:
                base[cid] = event.base[group]
        return base

    def initiative_due(self, fight: Fight) -> bool:
        return not fight.ended and not self.base(fight)  # an ended fight rolls for none

    def roll_initiative(self, fight: Fight, rng: random.Random) -> list[ev.Event]:
        base: dict[str, int] = {}
        dice: dict[str, Any] = {}
        for cid, combatant in fight.roster.items():
            who = stats.group(combatant) or cid
            if who in base:
                continue
            result = roll_dice(f"d{self.die}", rng)
            base[who] = result.total - stats.agility(combatant)
            dice[who] = result.to_dict()
        return [cu.Initiative(round=max(fight.round, 1), base=base, dice=dice)]

    def initiative_form(self, fight: Fight) -> Form:
        groups: dict[str, str] = {}
        for cid, c in fight.roster.items():
            group = stats.group(c)
            groups.setdefault(group or cid, c.name if not group else f"{group} (group)")
        fields = tuple(Field(key, label, "int", required=True) for key, label in groups.items())
        return Form(f"Base initiative from real dice: d{self.die} - Agility (CU-2)", fields)

    def initiative_from(self, fight: Fight, values: Mapping[str, Any]) -> list[ev.Event]:
        return [cu.Initiative(round=max(fight.round, 1), base=dict(values))]

    def status_parts(self, fight: Fight) -> list[str]:
        # ended, none: the status line says the fight is over (the log and the plan say
        # initiative is wiped, CU-10), and a narrow one keeps room to say it
        base = self.base(fight)
        return [f"base initiative rolled for {len(base)}"] if base else []

    # -- ordering ------------------------------------------------------------------

    def modifier(self, actor: Combatant, d: cu.Declare) -> tuple[int, str]:
        if d.modifier is not None:
            return d.modifier, f"modifier {d.modifier:+d} as declared"
        modifier, adds = self.kinds[d.action].modifier, self.kinds[d.action].adds
        speed, what = 0, ""
        if adds == "weapon":
            weapon = self.weapon_used(actor, d)
            speed = stats.weapon_speed(weapon) if weapon else 0
            what = f" + {weapon.name} speed {speed}" if weapon else " (not attacking: speed 0)"
        elif adds == "spell":
            spell = actor.spell(d.spell or "")
            speed = stats.spell_speed(spell) if spell else 0
            what = f" + {spell.name} speed {speed}" if spell else ""
        total = modifier + speed
        return total, f"{d.action} {modifier:+d}{what}"

    def weapon_used(self, actor: Combatant, d: cu.Declare) -> Weapon | None:
        """The named weapon; an attack naming none uses the first. A defensive attack
        naming none is one that does not attack: weapon speed 0 (CU-3)."""
        if d.weapon is not None:
            return actor.weapon(d.weapon)
        if self.kinds[d.action].weapon_optional:
            return None
        return actor.weapons[0] if actor.weapons else None

    def round_initiative(self, fight: Fight, d: cu.Declare) -> tuple[int, str]:
        base_of = self.rolled(fight)
        if d.actor not in base_of:
            at = max(fight.initiative_at.values())
            raise IllegalEvent(f"round {d.round}: {d.actor} has no base initiative yet (CU-2)",
                               ("events", at, "base", d.actor))
        base = base_of[d.actor]
        modifier, why = self.modifier(fight.roster[d.actor], d)
        return base + modifier, f"base {base}, {why}"

    def plan(self, fight: Fight, round_: int) -> Plan:
        plan = Plan(self.id, round_, [])
        if not fight.initiative_at:
            if fight.declared(round_):
                plan.notes.append("roll base initiative to order the round (CU-2)")
            return plan
        turns: list[Turn] = []
        for index, d in fight.declared(round_):
            if isinstance(d, cu.Declare):
                turns.extend(self.turns(fight, index, d, plan))
        if round_ == max(fight.round, 1):  # a round gone by: its plan is what happened
            turns = self.standing(fight, round_, turns, plan)
        by_count: dict[int, list[Turn]] = defaultdict(list)
        for turn in turns:
            by_count[turn.count].append(turn)
        for count in sorted(by_count):
            plan.beats.append(self.beat(fight, count, by_count[count]))
        return self.after_the_end(fight, plan)

    @staticmethod
    def after_the_end(fight: Fight, plan: Plan) -> Plan:
        """Once the fight has ended, the turns of its last round not yet taken never come
        (CU-10): marked skipped, so no beat is left to resolve."""
        if not fight.ended or plan.round != max(fight.round, 1):
            return plan
        done = fight.resolved.get(plan.round, set())
        why = "the fight is over: initiative wiped (CU-10)"
        for beat in plan.beats:
            beat.actions = [a if action_key(beat, a) in done else a.with_extra(skipped=why)
                            for a in beat.actions]
        plan.notes.append(why)
        return plan

    def standing(self, fight: Fight, round_: int, turns: list[Turn], plan: Plan) -> list[Turn]:
        """The turns still taken (CU-8): the dead take none after the beat they fell in.
        A turn already done stays (it is what happened); one slain while its own beat was
        under way still acts in it, for equal counts act at once (CU-4)."""
        done = fight.resolved.get(round_, set())
        died = self.state(fight).died
        kept: list[Turn] = []
        for turn in sorted(turns, key=lambda t: t.count):
            cid = turn.action.actor
            if not self.can_act(fight, cid) or key_of(turn) in done or \
                    self.fell_in_beat(died.get(cid), round_, turn, kept):
                kept.append(turn)
                continue
            plan.skipped.append({"actor": cid, "action": turn.action.action, "rule": "CU-8",
                                 "why": "dead: does not act"})
        return kept

    @staticmethod
    def fell_in_beat(died: tuple[int, frozenset[str]] | None, round_: int, turn: Turn,
                     kept: list[Turn]) -> bool:
        """Whether its actor died while `turn`'s beat was the one under way: every turn
        taken at a lower count was done by then (CU-4)."""
        if died is None or died[0] != round_:
            return False
        return all(key_of(t) in died[1] for t in kept if t.count < turn.count)

    def beat(self, fight: Fight, count: int, turns: list[Turn]) -> Beat:
        turns.sort(key=lambda t: (fight.roster_index(t.action.actor), t.action.turn or 0))
        rules = ["CU-4"]
        whys = []
        for turn in turns:
            rules.extend(r for r in turn.rules if r not in rules)
            whys.append(f"{turn.action.actor}: {turn.why}")
        if len(turns) > 1:
            whys.append("equal counts act simultaneously")
        return Beat([t.action for t in turns], rules, whys, {"count": count}, f"@{count}")

    def turns(self, fight: Fight, index: int, d: cu.Declare, plan: Plan) -> list[Turn]:
        count, why = self.round_initiative(fight, d)
        action = PlannedAction(d.actor, d.action, None, None, index)
        if self.surprised(fight, d):
            plan.skipped.append({"actor": d.actor, "action": d.action, "rule": "CU-1",
                                 "why": "surprised in round 1: does not act (CU-1)"})
            return []
        joined = fight.joins.get(d.actor)
        if joined is None:
            return [Turn(count, action, ("CU-3",), f"count {count} = {why}")]
        return self.latecomer_turns(fight, joined, d, count, why, action, plan)

    def latecomer_turns(self, fight: Fight, joined: tuple[int, ev.Join], d: cu.Declare,
                        count: int, why: str, action: PlannedAction, plan: Plan) -> list[Turn]:
        join_round, join = joined
        at_count = getattr(join, "at_count", None)
        at = at_count if at_count is not None else -10**6
        if d.round == join_round:
            if count < at:
                plan.skipped.append({"actor": d.actor, "action": d.action, "rule": "CU-5",
                                     "why": (f"joined at count {at}; its count {count} had "
                                             "passed: acts twice next round (CU-5)")})
                return []
            return [Turn(count, action, ("CU-3", "CU-5"), f"joined at count {at}: {why}")]
        if d.round == join_round + 1 and self.missed(fight, join_round, d.actor, at):
            early = count - self.shift
            first = PlannedAction(d.actor, d.action, None, 1, action.declared)
            second = PlannedAction(d.actor, d.action, None, 2, action.declared)
            return [
                Turn(early, first, ("CU-5",),
                     f"latecomer's extra turn: {count} - {self.shift} = {early}"),
                Turn(count, second, ("CU-3", "CU-5"), f"latecomer's own turn: {why}"),
            ]
        return [Turn(count, action, ("CU-3",), f"count {count} = {why}")]

    def missed(self, fight: Fight, join_round: int, cid: str, at: int) -> bool:
        earlier = [d for _, d in fight.declared(join_round)
                   if d.actor == cid and isinstance(d, cu.Declare)]
        if earlier:
            count, _ = self.round_initiative(fight, earlier[0])
        else:
            count = self.rolled(fight).get(cid, at)
        return count < at

    def surprised(self, fight: Fight, d: ev.Declare) -> bool:
        surprise = self.state(fight).surprise
        return (d.round == 1 and surprise is not None
                and fight.is_member(d.actor, surprise.surprised))

    # -- damage, dying and death ---------------------------------------------------

    def apply_damage(self, fight: Fight, status: Status, event: ev.Damage) -> None:
        marks = status.marks
        amount = event.amount
        if not event.critical:
            soaked = min(marks["stress"], amount)
            marks["stress"] -= soaked
            amount -= soaked
        marks["wounds"] -= amount
        status.hp = marks["wounds"]
        marks["largest_wound"] = max(marks["largest_wound"], amount)  # its TN (CU-8)
        if amount * 2 > status.max_hp and event.note is None:
            marks["big_hit_round"] = event.round
            marks["big_hits"] += 1

    def apply_heal(self, fight: Fight, status: Status, event: ev.Heal) -> None:
        marks = status.marks
        marks["wounds"] = min(status.max_hp, marks["wounds"] + event.amount)
        status.hp = marks["wounds"]
        # CU-8: a heal that stabilises makes it the stabilised one; healed above 0 Wound
        # Points it no longer is, and a later fall below 0 is Dying again
        marks["stable"] = (marks["stable"] or event.stabilize) and marks["wounds"] <= 0

    def morale_triggers(self, fight: Fight, intimidated: tuple[str, ...] = ()) -> list[
            tuple[str, str]]:
        """CU-6: who must check morale at the end of this round, and why. A check already
        made answers what it was made for: it is due again only for a new big hit or worse
        odds, and never once morale has broken (the monster flees or gives up)."""
        players = {s.id for s in fight.encounter.sides if s.players}
        due = []
        for cid, combatant in fight.roster.items():
            status = fight.status[cid]
            marks = status.marks
            if combatant.side in players or status.dead or marks["broke"]:
                continue
            margin = self.margin(fight, cid)
            if marks["big_hit_round"] == fight.round and marks["big_hits"] > marks[
                    "checked_hits"]:
                due.append((cid, "took more than half its Wound Points in one hit"))
            elif margin > 0 and margin > marks["checked_margin"]:
                foes, allies = self.sides_of(fight, cid)
                due.append((cid, f"outnumbered {foes} to {allies}"))
            elif cid in intimidated:
                due.append((cid, "the target of Intimidation"))
        return due

    def sides_of(self, fight: Fight, cid: str) -> tuple[int, int]:
        """(opponents, its side) still alive, itself counted."""
        side = fight.roster[cid].side
        return (self.count_alive(fight, lambda c: c.side != side),
                self.count_alive(fight, lambda c: c.side == side))

    def margin(self, fight: Fight, cid: str) -> int:
        """By how many its opponents outnumber its side (0 or less: they do not)."""
        foes, allies = self.sides_of(fight, cid)
        return foes - allies

    @staticmethod
    def count_alive(fight: Fight, predicate: Any) -> int:
        return sum(1 for cid, c in fight.roster.items() if predicate(c) and fight.alive(cid))

    def condition(self, combatant: Combatant, status: Status) -> str:
        """CU-8: fine, incapacitated, dying, stabilised (by a Heal check) or dead."""
        wounds = status.marks["wounds"]
        if status.dead or wounds <= -stats.strength(combatant):
            return "dead"
        if status.marks["stable"] and wounds <= 0:
            return "stabilised"
        if wounds < 0:
            return "dying"
        if wounds == 0:
            return "incapacitated"
        return "fine"

    def can_act(self, fight: Fight, cid: str) -> str:
        """CU-8: incapacitated and dying creatures still act (at a cost); the dead do not."""
        word = self.condition(fight.roster[cid], fight.status[cid])
        return "dead" if word == "dead" else ""

    def unable(self, fight: Fight, cid: str, beat: int) -> tuple[str, str] | None:
        """None: the plan leaves out the turns the dead no longer take (`standing`), and
        one slain in its own beat still acts there (CU-4)."""
        return None

    def state_word(self, fight: Fight, cid: str) -> str:
        word = self.condition(fight.roster[cid], fight.status[cid])
        return "" if word == "fine" else word

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        if not isinstance(event, ev.Damage):
            return []
        combatant, status = fight.roster[event.target], fight.status[event.target]
        if not status.dead and status.marks["wounds"] <= -stats.strength(combatant):
            return [ev.Death(round=event.round, target=event.target,
                             cause=f"{status.marks['wounds']} Wound Points, Strength "
                                   f"{stats.strength(combatant)} (CU-8)")]
        return []

    def end_of_round(self, fight: Fight) -> list[ev.Event]:
        out: list[ev.Event] = []
        for cid, status in fight.status.items():
            combatant = fight.roster[cid]
            if self.condition(combatant, status) != "dying" or status.marks["stable"]:
                continue
            out.append(ev.Damage(round=fight.round, target=cid, amount=1, critical=True,
                                 note="dying: 1 Wound Point at the end of the round (CU-8)"))
            if status.marks["wounds"] - 1 <= -stats.strength(combatant):
                out.append(ev.Death(round=fight.round, target=cid, cause="died of wounds (CU-8)"))
        return out

    def critical_damage(self, damage: int, weapon_multiplier: int) -> int:
        """CU-7: a critical multiplies weapon damage; it then goes straight to Wound Points
        (the hit form's hits go through `damage_events`)."""
        return damage * weapon_multiplier

    def damage_fields(self, fight: Fight) -> tuple[Field, ...]:
        return (hits.critical_field(self, fight),)

    def damage_events(self, fight: Fight, hit: ev.Damage,
                      values: Mapping[str, Any]) -> list[ev.Event]:
        return hits.damage_events(self, fight, hit, values)

    def heal_fields(self, fight: Fight, target: str | None) -> tuple[Field, ...]:
        """The heal form's Heal check, with the TN it is checked against (CU-8)."""
        return healing.heal_fields(self, fight, target)

    def heal_events(self, fight: Fight, heal: ev.Heal,
                    values: Mapping[str, Any]) -> list[ev.Event]:
        return healing.heal_events(self, fight, heal, values)

    def stabilize_tn(self, largest_wound: int) -> int:
        return self.heal_tn + largest_wound

    def morale_check(self, fight: Fight, cid: str, roll: int,
                     intimidation: int | None = None) -> MoraleCheck:
        combatant = fight.roster[cid]
        allies = sum(1 for o, c in fight.roster.items()
                     if o != cid and c.side == combatant.side and fight.alive(o))
        opponents = sum(1 for o, c in fight.roster.items()
                        if c.side != combatant.side and fight.alive(o))
        tn = intimidation if intimidation is not None else self.morale_tn + opponents
        return MoraleCheck(cid, roll, stats.insight(combatant), stats.hd(combatant), allies,
                           opponents, tn)

    def roll_morale(self, fight: Fight, cid: str, rng: random.Random,
                    intimidation: int | None = None) -> list[ev.Event]:
        dice = roll_dice(self.morale_dice, rng)
        check = self.morale_check(fight, cid, dice.total, intimidation)
        return [
            ev.Roll(round=fight.round, expr=dice.expression, dice=dice_values(dice),
                    total=dice.total, purpose=f"{outcomes.MORALE}(CU-6)", actor=cid),
            ev.Morale(round=fight.round, group=(cid,), roll=check.total, target=check.tn,
                      passed=check.passed, avoid=None if check.passed else "flee"),
        ]

    def injury(self, damage_type: str, d20: int) -> str:
        table = self.injuries.get(damage_type, [])
        if not table:
            return f"no {damage_type or 'untyped'} injury table: the referee decides (CU-9)"
        return table[(d20 - 1) % len(table)]

    def roll_injury(self, fight: Fight, target: str, damage: int, damage_type: str,
                    rng: random.Random, source: str | None = None) -> list[ev.Event]:
        """CU-9: d% at or under the damage dealt gives a Combat Injury from the table."""
        return injuries.roll_injury(self, fight, target, damage, damage_type, rng, source)

    # -- joining, the tracker, commands ---------------------------------------------

    def join_fields(self, fight: Fight) -> tuple[Field, ...]:
        return (Field("base", "base initiative", "int", required=True,
                      help="its d12 - Agility (CU-5)"),
                Field("at_count", "count reached", "int",
                      help="blank: the count the round is at now (CU-5)"))

    def join_event(self, fight: Fight, combatant: Combatant,
                   values: Mapping[str, Any]) -> ev.Event:
        at = values.get("at_count")
        return cu.Join(round=max(fight.round, 1), combatant=combatant, base=values.get("base"),
                       at_count=self.count_now(fight) if at is None else at)

    def count_now(self, fight: Fight) -> int:
        """The count the round has reached (CU-5): that of the last beat resolved; before
        any, just below the first count, so a latecomer acts this round if its count comes."""
        round_ = max(fight.round, 1)
        try:
            plan = self.plan(fight, round_)
        except RefereeError:
            return 0
        counts = [int(b.extra["count"]) for b in plan.beats]
        if not counts:
            return 0
        done = fight.resolved.get(round_, set())
        reached = [int(b.extra["count"]) for n, b in enumerate(plan.beats, 1)
                   if set(plan.keys(n)) <= done]
        return max(reached) if reached else min(counts) - 1

    def columns(self) -> tuple[Column, ...]:
        return (Column("points", "stress/wounds"), Column("injuries", "injuries", 16, fold=4))

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        status = fight.status[cid]
        marks = status.marks
        tone = "bad" if marks["wounds"] < 0 else "warn" if marks["wounds"] == 0 else ""
        injuries = self.state(fight).injuries.get(cid, ())
        points = f"S{marks['stress']} W{marks['wounds']}/{status.max_hp}"
        if self.condition(fight.roster[cid], status) in ("incapacitated", "dying"):
            points += f" TN{healing.tn_of(self, fight, cid)}"  # what stabilises it (CU-8)
        return {"points": Cell(points, tone),
                "injuries": Cell(", ".join(i.split(":")[0] for i in injuries), "bad")}

    def facts(self, fight: Fight, cid: str) -> dict[str, Any]:
        out = super().facts(fight, cid)
        marks = fight.status[cid].marks
        out.update(stress=marks["stress"], wounds=marks["wounds"],
                   condition=self.condition(fight.roster[cid], fight.status[cid]),
                   injuries=list(self.state(fight).injuries.get(cid, ())))
        return out

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        return {"base": dict(self.base(fight)),
                "morale_due": [cid for cid, _ in self.morale_triggers(fight)]}

    def declared_text(self, fight: Fight, cid: str, decl: ev.Declare) -> str:
        what = (getattr(decl, "weapon", None) or getattr(decl, "spell", None) or "")
        text = f"{decl.action} {what}".strip()
        if decl.target:  # named as the rest of the screen names them
            text += f" → {', '.join(views.name(fight, t) for t in decl.target)}"
        return text

    def can_declare(self, fight: Fight, actor: str, action: str) -> str:
        why = super().can_declare(fight, actor, action)
        combatant = fight.roster[actor]
        if not why and self.kinds[action].adds == "spell" and not combatant.spells:
            return f"{combatant.name} has no spell to cast"
        return why

    def acts(self, fight: Fight) -> list[Act]:
        return [Act("morale", "Morale", "M", "roll morale for the selected combatant (CU-6)",
                    show=False, needs_actor=True, run=self._morale),
                Act("injury", "Critical injury", "J", "after a critical hit: d% against the "
                    "damage, then the injury table (CU-9)", show=False,
                    form=lambda fight, actor: injuries.injury_form(self, fight, actor),
                    run=self._injury)]

    def _morale(self, fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
        if actor is None:
            raise IllegalEvent("select the combatant whose morale is checked")
        return self.roll_morale(fight, actor, rng)

    def _injury(self, fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
        return self.roll_injury(fight, values["target"], int(values["damage"]),
                                values.get("damage_type") or "", rng, values.get("source"))

    def notices(self, fight: Fight) -> list[tuple[str, str]]:
        return [("Morale check due (CU-6)",
                 f"{fight.roster[cid].name}: {why} — M rolls morale")
                for cid, why in self.morale_triggers(fight)]


def key_of(turn: Turn) -> str:
    """What a `resolve` event records of a turn (count-up beats carry no segment)."""
    return action_key(Beat([]), turn.action)


def dice_values(result: Any) -> tuple[int, ...]:
    return tuple(value for term in result.terms for value in getattr(term, "rolls", ()))
