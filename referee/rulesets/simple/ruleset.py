"""simple: a ruleset whose whole behaviour its file sets (README, "Your own system in a
file"): roll a die, add a roster key, go in order, ties as the file says."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine import events as ev
from referee.engine.dice import DiceError, Roll
from referee.engine.errors import IllegalEvent
from referee.engine.fight import Fight
from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.port import Rolling, dice_roll
from referee.engine.reading import Fields
from referee.engine.record import record
from referee.engine.specs import Cell, Column, Field, Form

from . import order, settings
from .events import Initiative, Tie
from .rules import RULES

MOST_REROLLS = 50  # a tie re-rolled this often stays tied: the referee rolls again (i)
ACT = "act"


@record(frozen=True)
class State:
    """The rolls by round (immutable: `apply` returns a new state)."""

    rolls: Mapping[int, Mapping[str, int]]
    rerolls: Mapping[int, Mapping[str, tuple[int, ...]]]


class Simple(Rolling[State]):
    id = "simple"
    RULES = RULES
    GEAR = ("weapons",)
    EVENTS = (Initiative, Tie)
    SHAPING = Rolling.SHAPING | {"tie"}

    def read(self, f: Fields) -> None:
        self.settings = settings.read(f)

    def switches(self) -> list[str]:
        s = self.settings
        added = f" + {s.modifier}" if s.modifier else ""
        ties = {"simultaneous": "act together (SI-5)", "reroll": "re-roll (SI-6)",
                "key": f"{s.tie_key}, higher first, then the players' side (SI-7)"}
        return [f"initiative: by {s.mode} (SI-1)",
                f"roll: {s.die}{added}, {s.low} to {s.high} on the die (SI-2)",
                f"order: {s.order} first (SI-3)",
                f"rolled: {s.rolled} (SI-4)",
                f"ties: {ties[s.ties]}",
                f"columns: {', '.join(s.columns) or 'none'} (SI-9)"]

    def combatant_fields(self) -> tuple[Field, ...]:
        return tuple(Field(key, key, "int", 0, minimum=-999, maximum=999,
                           help="a number from the character sheet")
                     for key in self.settings.keys)

    # -- the fold ---------------------------------------------------------------------

    def start(self, fight: Fight) -> State:
        return State({}, {})

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        if isinstance(event, Initiative):
            rolls = {**state.rolls, event.round: {**state.rolls.get(event.round, {}),
                                                  **event.rolls}}
            kept = {w: r for w, r in state.rerolls.get(event.round, {}).items()
                    if w not in event.rolls}  # a new roll starts its ties afresh
            return State(rolls, {**state.rerolls, event.round: kept})
        if isinstance(event, Tie):
            now = dict(state.rerolls.get(event.round, {}))
            for who, value in event.rolls.items():
                now[who] = (*now.get(who, ()), value)
            return State(state.rolls, {**state.rerolls, event.round: now})
        return state

    def rolls_for(self, fight: Fight, round_: int) -> tuple[dict[str, int],
                                                            dict[str, tuple[int, ...]]]:
        """SI-4: the rolls in force in `round_`: that round's, or every roll so far when
        initiative is rolled once per fight (a latecomer's too)."""
        state = self.state(fight)
        if self.settings.rolled == "each round":
            return dict(state.rolls.get(round_, {})), dict(state.rerolls.get(round_, {}))
        rolls: dict[str, int] = {}
        rerolls: dict[str, tuple[int, ...]] = {}
        for r in sorted(k for k in state.rolls if k <= round_):
            rolls.update(state.rolls[r])
        for r in sorted(k for k in state.rerolls if k <= round_):
            rerolls.update(state.rerolls[r])
        return rolls, rerolls

    # -- who rolls, and the order -------------------------------------------------------

    def who_rolls(self, fight: Fight) -> list[str]:
        """SI-1: each side with someone still standing, or each combatant not dead."""
        living = [cid for cid in fight.roster if not fight.status[cid].dead]
        if self.settings.mode == "combatant":
            return living
        sides = {fight.roster[cid].side for cid in living}
        return [s.id for s in fight.encounter.sides if s.id in sides]

    def name_of(self, fight: Fight, who: str) -> str:
        if who in fight.roster:
            return fight.roster[who].name
        side = fight.encounter.side(who)
        return side.name if side else who

    def score(self, fight: Fight, who: str, roll: int) -> order.Score:
        """SI-2: the die as rolled, and the roster key the file adds."""
        key = self.settings.modifier
        added = int(fight.roster[who].stat(key, 0)) if key and who in fight.roster else 0
        return order.Score(who, roll, added, key)

    def tie_order(self, fight: Fight, who: str) -> tuple[int, ...]:
        """SI-7: the tie key, higher first, then a combatant of the players' side."""
        combatant = fight.roster.get(who)
        if combatant is None:
            return (0, 0)
        side = fight.encounter.side(combatant.side)
        players = bool(side and side.players)
        return (-int(combatant.stat(self.settings.tie_key, 0)), 0 if players else 1)

    def places(self, fight: Fight, round_: int) -> list[order.Place]:
        rolls, rerolls = self.rolls_for(fight, round_)
        scores = [self.score(fight, w, rolls[w]) for w in self.who_rolls(fight) if w in rolls]
        return order.ranked(self.settings, scores, rerolls,
                            lambda who: self.tie_order(fight, who))

    def missing(self, fight: Fight) -> list[str]:
        rolls, _ = self.rolls_for(fight, max(fight.round, 1))
        return [w for w in self.who_rolls(fight) if w not in rolls]

    def open_ties(self, fight: Fight) -> list[tuple[str, ...]]:
        return order.open_ties(self.places(fight, max(fight.round, 1)))

    # -- initiative ---------------------------------------------------------------------

    def initiative_due(self, fight: Fight) -> bool:
        return not fight.ended and bool(self.missing(fight) or self.open_ties(fight))

    def roll_initiative(self, fight: Fight, rng: random.Random) -> list[ev.Event]:
        round_ = max(fight.round, 1)
        out: list[ev.Event] = []
        missing = self.missing(fight)
        trial = fight
        if missing:
            rolls, dice = self.rolled(missing, rng)
            out.append(Initiative(round=round_, rolls=rolls, dice=dice))
            trial = fight.copy()
            trial.push(out[-1])
        for _ in range(MOST_REROLLS):
            tied = [w for group in order.open_ties(self.places(trial, round_)) for w in group]
            if not tied:
                break
            rolls, dice = self.rolled(tied, rng)
            out.append(Tie(round=round_, rolls=rolls, dice=dice, follows=bool(out)))
            if trial is fight:
                trial = fight.copy()
            trial.push(out[-1])
        return out

    def rolled(self, who: list[str], rng: random.Random) -> tuple[dict[str, int],
                                                                  dict[str, Any]]:
        results = {w: dice_roll(self.settings.die, rng) for w in who}
        return ({w: r.total for w, r in results.items()},
                {w: r.to_dict() for w, r in results.items()})

    def initiative_form(self, fight: Fight) -> Form:
        s = self.settings
        missing = self.missing(fight)
        who = missing or [w for group in self.open_ties(fight) for w in group]
        fields = tuple(Field(w, self.name_of(fight, w), "int", required=True,
                             minimum=s.low, maximum=s.high, help=f"{s.die}: {s.low} to {s.high}")
                       for w in who)
        if missing:
            added = f" (+ {s.modifier}, added for you)" if s.modifier else ""
            return Form(f"Initiative from real dice: {s.die}{added} (SI-2)", fields)
        return Form(f"The tie re-rolled from real dice: {s.die} (SI-6)", fields)

    def initiative_from(self, fight: Fight, values: Mapping[str, Any]) -> list[ev.Event]:
        rolls = {w: int(v) for w, v in values.items() if v is not None}
        if self.missing(fight):
            return [Initiative(round=max(fight.round, 1), rolls=rolls)]
        return [Tie(round=max(fight.round, 1), rolls=rolls)]

    # -- checks -------------------------------------------------------------------------

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        super().check_event(fight, event)
        if isinstance(event, Initiative | Tie):
            self.check_rolls(fight, event.rolls, event.dice)
        if isinstance(event, Tie):
            tied = {w for group in self.open_ties(fight) for w in group}
            for who in event.rolls:
                if who not in tied:
                    raise IllegalEvent(f"{self.name_of(fight, who)} is not in a tie waiting "
                                       "for a re-roll (SI-6)", ("rolls", who))

    def check_rolls(self, fight: Fight, rolls: Mapping[str, int],
                    dice: Mapping[str, Any]) -> None:
        s = self.settings
        known = set(fight.roster) if s.mode == "combatant" else fight.side_ids()
        what = "combatant" if s.mode == "combatant" else "side"
        for who, value in rolls.items():
            if who not in known:
                raise IllegalEvent(f"unknown {what} {who!r}: initiative is by {what} (SI-1)",
                                   ("rolls", who))
            if not s.low <= value <= s.high:
                raise IllegalEvent(f"{value} cannot be rolled on {s.die} ({s.low} to "
                                   f"{s.high})", ("rolls", who))
            if who in dice:
                self.check_dice(who, value, dice[who])

    def check_dice(self, who: str, value: int, record: Any) -> None:
        try:
            rolled = Roll.from_dict(record)
        except DiceError as error:
            raise IllegalEvent(str(error), ("dice", who)) from None
        if rolled.total != value or rolled.expression != self.settings.die:
            raise IllegalEvent(f"the dice logged for {who!r} ({rolled.detail()}) do not "
                               f"make {value} on {self.settings.die}", ("dice", who))

    def can_act(self, fight: Fight, cid: str) -> str:
        """SI-8: the dead and the down (0 hit points or fewer) take no turn: the state
        words say which."""
        return self.state_word(fight, cid)

    # -- the plan -------------------------------------------------------------------------

    def plan(self, fight: Fight, round_: int) -> Plan:
        plan = Plan(self.id, round_, [])
        rolls, _ = self.rolls_for(fight, round_)
        for place in self.places(fight, round_):
            beat = self.beat(fight, place, rolls)
            if beat.actions:
                plan.beats.append(beat)
        waiting = [self.name_of(fight, w) for w in self.who_rolls(fight) if w not in rolls]
        if waiting:
            plan.notes.append(f"initiative to roll for {', '.join(waiting)}: i, or I to "
                              "type real dice (SI-2)")
        first = min((r for r, found in self.state(fight).rolls.items() if found),
                    default=round_)
        if self.settings.rolled == "once" and round_ > first:
            plan.notes.append(f"initiative as rolled in round {first}: once per fight (SI-4)")
        return plan

    def beat(self, fight: Fight, place: order.Place, rolls: Mapping[str, int]) -> Beat:
        actors = [cid for w in place.who for cid in self.members(fight, w)]
        why = [self.told(fight, w, rolls[w]) for w in place.who]
        extra: dict[str, Any] = {"initiative": place.total}
        if place.open_tie:
            extra["tied"] = True
        return Beat([PlannedAction(cid, ACT) for cid in actors], list(place.rules),
                    why + list(place.why), extra, tag=str(place.total),
                    note="tied: re-roll with i" if place.open_tie else "")

    def told(self, fight: Fight, who: str, roll: int) -> str:
        """"Ria 15 (12 + dex 3)", or "The party 4" when nothing is added."""
        score = self.score(fight, who, roll)
        shown = f" ({score.told()})" if score.label else ""
        return f"{self.name_of(fight, who)} {score.total}{shown}"

    def members(self, fight: Fight, who: str) -> list[str]:
        if who in fight.roster:
            return [who] if not fight.status[who].dead else []
        return [cid for cid, c in fight.roster.items()
                if c.side == who and not fight.status[cid].dead]

    # -- the tracker --------------------------------------------------------------------

    def columns(self) -> tuple[Column, ...]:
        keys = tuple(Column(k, k, width=6, fold=1) for k in self.settings.columns)
        return (Column("hp", "hp"), Column("init", "init", width=6), *keys)

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        cells = super().cells(fight, cid)
        rolls, _ = self.rolls_for(fight, max(fight.round, 1))
        who = cid if self.settings.mode == "combatant" else fight.roster[cid].side
        if who in rolls:
            cells["init"] = Cell(str(self.score(fight, who, rolls[who]).total), "strong")
        else:
            cells["init"] = Cell("—", "dim")
        combatant = fight.roster[cid]
        for key in self.settings.columns:
            cells[key] = Cell(str(combatant.stat(key, 0)))
        return cells

    def phase_word(self, fight: Fight) -> str:
        if fight.ended:
            return fight.phase
        if self.missing(fight):
            return "initiative"
        return "tie to re-roll" if self.open_ties(fight) else "resolution"

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        rolls, rerolls = self.rolls_for(fight, max(fight.round, 1))
        return {"rolls": rolls, "rerolls": {w: list(v) for w, v in rerolls.items()}}

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        if isinstance(event, Initiative):
            parts = [f"{self.name_of(fight, w)} {self.score(fight, w, r).told()}"
                     for w, r in event.rolls.items()]
            return f"initiative ({self.settings.die}): {', '.join(parts)}"
        if isinstance(event, Tie):
            parts = [f"{self.name_of(fight, w)} {r}" for w, r in event.rolls.items()]
            return f"tie re-rolled ({self.settings.die}, SI-6): {', '.join(parts)}"
        return None
