"""What a referee does at the table, as operations over a session.

The app (and scripts) call these; each turns a referee's intent into events, appended
through the session so they are on disk before the call returns. No rules live here
beyond choosing sensible defaults: the engine decides what the events mean.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.engine import Combatant, Fight
from referee.engine import events as ev
from referee.engine.dice import from_values
from referee.engine.dice import roll as roll_dice
from referee.engine.plan import Plan

from .files import LoadError
from .store import Session

SECONDS_PER_SEGMENT = 6  # DI-16: each full 6 seconds of dithering delays 1 segment


class DeclarationClock:
    """DI-16: runs while a player decides; the referee pauses it for questions."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.spent = 0.0
        self.started: float | None = None

    def start(self) -> None:
        self.spent, self.started = 0.0, self.clock()

    def pause(self) -> None:
        if self.started is not None:
            self.spent += self.clock() - self.started
            self.started = None

    def resume(self) -> None:
        if self.started is None:
            self.started = self.clock()

    def toggle(self) -> None:
        if self.running:
            self.pause()
        else:
            self.resume()

    @property
    def running(self) -> bool:
        return self.started is not None

    def seconds(self) -> float:
        running = self.clock() - self.started if self.started is not None else 0.0
        return self.spent + running

    def delay(self) -> int:
        """Segments of declaration delay so far: one per full 6 seconds."""
        return int(self.seconds() // SECONDS_PER_SEGMENT)


class Table:
    def __init__(self, session: Session, rng: random.Random | None = None) -> None:
        self.session = session
        self.rng = rng if rng is not None else random.Random(session.encounter.seed)
        self._plan: Plan | None = None
        self._plan_key: tuple[int, int, int] | None = None

    @property
    def fight(self) -> Fight:
        return self.session.fight

    @property
    def round(self) -> int:
        return max(self.fight.round, 1)

    # -- declaring -------------------------------------------------------------------

    def declared(self) -> dict[str, ev.Declare]:
        return {d.actor: d for _, d in self.fight.declared(self.round) if d.segment is None}

    def undeclared(self) -> list[str]:
        """Living combatants still to declare this round, in roster order."""
        done = self.declared()
        return [cid for cid in self.fight.roster if cid not in done and self.fight.alive(cid)]

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

    def fields_for(self, action: str) -> tuple[str, ...]:
        for kind in self.fight.ruleset.actions():
            if kind.key == action:
                return kind.fields
        return ()

    def last_declaration(self, actor: str) -> ev.Declare | None:
        for round_ in range(self.round - 1, 0, -1):
            for _, decl in self.fight.declared(round_):
                if decl.actor == actor and decl.segment is None:
                    return decl
        return None

    def prefill(self, actor: str, action: str) -> dict[str, Any]:
        """Fields for a new declaration: last round's where they fit, else the actor's own."""
        combatant = self.fight.roster[actor]
        fields = self.fields_for(action)
        last = self.last_declaration(actor)
        out: dict[str, Any] = {}
        casts = "spell" in fields and bool(combatant.spells)
        if casts and "weapon" in fields:  # one or the other: last round's choice, else a spell
            casts = not (last is not None and last.action == action and last.weapon)
        if "weapon" in fields and not casts:
            out["weapon"] = self._weapon(combatant, action, last)
        if casts:
            keep = last is not None and last.spell and combatant.spell(last.spell)
            out["spell"] = last.spell if keep else combatant.spells[0].name
        if "target" in fields:
            target = self._target(combatant, last)
            if target:
                out["target"] = target
        return {k: v for k, v in out.items() if v}

    def _weapon(self, combatant: Combatant, action: str, last: ev.Declare | None) -> str | None:
        if last is not None and last.action == action and last.weapon:
            return last.weapon
        wants_missile = self.fight.ruleset.id == "demon-idol" and action == "D"
        for weapon in combatant.weapons:
            if weapon.missile == wants_missile:
                return weapon.name
        return combatant.weapons[0].name if combatant.weapons else None

    def _target(self, combatant: Combatant, last: ev.Declare | None) -> str | None:
        earlier = last.target[0] if last is not None and last.target else None
        if earlier in self.fight.roster and self.fight.alive(earlier):
            return earlier
        for cid, other in self.fight.roster.items():
            if other.side != combatant.side and self.fight.alive(cid):
                return cid
        return None

    def declare(self, actor: str, action: str, delay: int = 0, **fields: Any) -> list[ev.Event]:
        target = fields.pop("target", None)
        targets = (target,) if isinstance(target, str) else tuple(target or ())
        event = ev.Declare(round=self.round, actor=actor, action=action, target=targets,
                           delay=delay, **fields)
        return self.session.append(event)

    # -- initiative --------------------------------------------------------------------

    def roll_initiative(self) -> list[ev.Event]:
        event = self.fight.ruleset.roll_initiative(self.fight, self.rng)
        return self.session.append(ev.Initiative(round=self.round, rolls=event.rolls,
                                                 base=event.base, dice=event.dice))

    def enter_initiative(self, values: dict[str, int]) -> list[ev.Event]:
        """Real dice typed in: a die per side (demon-idol) or a base per combatant."""
        if self.fight.ruleset.id == "count-up":
            return self.session.append(ev.Initiative(round=self.round, base=dict(values)))
        return self.session.append(ev.Initiative(round=self.round, rolls=dict(values)))

    # -- resolving -------------------------------------------------------------------

    def plan(self) -> Plan:
        """The round's plan, worked out once per change of the log."""
        key = (id(self.fight), self.fight.plan_revision, self.round)
        if self._plan_key != key:
            self._plan, self._plan_key = self.fight.plan(self.round), key
        return self._plan

    def current_beat(self) -> int | None:
        """The next beat to resolve (1-based), or None when the round is done."""
        done = self.fight.resolved.get(self.round, 0)
        return done + 1 if done < len(self.plan().beats) else None

    def resolve_next(self) -> list[ev.Event]:
        beat = self.current_beat()
        if beat is None:
            return []
        return self.session.append(ev.Resolve(round=self.round, beat=beat))

    def damage(self, target: str, amount: int | str, source: str | None = None,
               critical: bool = False, dice: list[int] | None = None) -> list[ev.Event]:
        """Damage as a number, or a dice expression rolled here or read from real dice."""
        out: list[ev.Event] = []
        if isinstance(amount, str):
            result = from_values(amount, dice) if dice is not None else roll_dice(amount, self.rng)
            out += self.session.append(ev.Roll(
                round=self.round, expr=result.expression, dice=tuple(result.rolls),
                total=result.total, purpose=f"damage to {target}", actor=source,
                real=dice is not None))
            amount = max(result.total, 0)
        beat = self.current_beat()
        out += self.session.append(ev.Damage(round=self.round, target=target, amount=amount,
                                             source=source, critical=critical, beat=beat))
        return out

    def miss(self, actor: str, target: str | None = None) -> list[ev.Event]:
        """A miss changes nothing but the story: it goes in the log as a note."""
        text = f"{actor} misses" + (f" {target}" if target else "")
        return self.session.append(ev.Note(round=self.round, text=text))

    def heal(self, target: str, amount: int, stabilize: bool = False) -> list[ev.Event]:
        return self.session.append(ev.Heal(round=self.round, target=target, amount=amount,
                                           stabilize=stabilize))

    def condition(self, target: str, name: str, rounds: int | None = None,
                  on: bool = True) -> list[ev.Event]:
        return self.session.append(ev.Condition(round=self.round, target=target, name=name,
                                                duration=rounds, on=on))

    def fire(self, actor: str, before: str | None = None) -> list[ev.Event]:
        return self.session.append(ev.Fire(round=self.round, actor=actor, before=before))

    def next_round(self) -> list[ev.Event]:
        return self.session.append(ev.NewRound(round=self.round + 1))

    def join(self, combatant: Combatant, at_count: int | None = None,
             base: int | None = None) -> list[ev.Event]:
        return self.session.append(ev.Join(round=self.round, combatant=combatant,
                                           at_count=at_count, base=base))

    def morale_due(self) -> list[tuple[str, str]]:
        """Who must check morale now, and why (count-up's end-of-round triggers)."""
        triggers = getattr(self.fight.ruleset, "morale_triggers", None)
        return triggers(self.fight) if triggers else []

    def roll_morale(self, cid: str) -> list[ev.Event]:
        """count-up: the CU-6 formula with its dice logged."""
        out: list[ev.Event] = []
        for event in self.fight.ruleset.roll_morale(self.fight, cid, self.rng):
            out += self.session.append(event)
        return out

    def morale(self, group: tuple[str, ...], passed: bool | None, roll: int | None = None,
               target: int | None = None, avoid: str | None = None) -> list[ev.Event]:
        """demon-idol: a morale check due (passed None) or its result (DI-18)."""
        return self.session.append(ev.Morale(round=self.round, group=group, passed=passed,
                                             roll=roll, target=target, avoid=avoid))

    def undo(self) -> list[ev.Event]:
        return self.session.undo()

    def redo(self) -> list[ev.Event]:
        return self.session.redo()


# -- the saves folder ------------------------------------------------------------------


def list_saves(folder: Path) -> list[dict[str, Any]]:
    """Each save in `folder`: title, ruleset, round reached and when it last changed."""
    from .files import load_save

    rows = []
    for path in sorted(folder.glob("*.toml")):
        try:
            save = load_save(path)
        except LoadError as error:
            rows.append({"path": path, "title": path.stem, "ruleset": "?", "round": 0,
                         "changed": path.stat().st_mtime, "problem": error.reason})
            continue
        rows.append({"path": path, "title": save.encounter.title or path.stem,
                     "ruleset": save.encounter.ruleset, "round": save.fight.round,
                     "changed": path.stat().st_mtime, "problem": save.warning})
    rows.sort(key=lambda row: -row["changed"])
    return rows


__all__ = ["DeclarationClock", "Table", "list_saves"]
