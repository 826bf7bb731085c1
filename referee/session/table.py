"""What a referee does at the table, as operations over a session.

The app (and scripts) call these; each turns a referee's intent into events, appended
through the session so they are on disk before the call returns. The ruleset decides
what the forms hold and what the events are; nothing here names a ruleset.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from referee.engine import Combatant, Fight
from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.options import Declaring, acts_of
from referee.engine.specs import Act, Report, ReportRun

from .questions import Questions, amount_of
from .store import Session
from .view import LogLine


class DeclarationClock:
    """Runs while a player decides (a form's `Timer`); the referee pauses it for
    questions. Each full `every` seconds is one step (demon-idol: a segment of delay)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 every: float = 6.0) -> None:
        self.clock = clock
        self.every = every
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
        """Steps so far: one per full `every` seconds."""
        return int(self.seconds() // self.every)


class Table(Questions):
    """The table's questions (`Questions`) and what it does: its acts, entered into the
    session's log."""

    def __init__(self, session: Session, rng: random.Random | None = None) -> None:
        super().__init__(session, rng)
        self._told: list[LogLine] = []
        self._watched: Fight | None = None
        self._core: list[Act] | None = None
        self._declarations: tuple[object, list[Act]] | None = None
        assert self.fight is session.fight  # starts telling its events

    @property
    def fight(self) -> Fight:
        fight = self.session.fight
        if fight is not self._watched:  # a new fight (set-up, compaction): tell its events
            if self._watched is not None and self._tell in self._watched.observers:
                self._watched.observers.remove(self._tell)
            fight.observers.append(self._tell)
            self._watched = fight
            fight.keep_state()  # an undo at the table refolds from here, not the start
        return fight

    def _tell(self, fight: Fight, event: ev.Event) -> None:
        """Each new event told against the state just before it, for the log (and that
        state kept for an undo every so many events)."""
        from .replay import describe

        fight.keep_state()
        self._told.append(LogLine(len(fight.log) + 1, event.round, describe(fight, event)))

    def told(self) -> list[LogLine]:
        """The log lines of the events entered since the last call."""
        lines, self._told = self._told, []
        return lines

    def append(self, events: list[ev.Event], follows: bool = False) -> list[ev.Event]:
        """Several events entered as one act (a roll and what it decided): all of them or
        none, written at once, and undone together (`follows`: with the act entered just
        before, as a long act written a piece at a time)."""
        return self.session.append(*events, follows=follows) if events else []

    def declare(self, actor: str, action: str, replaces: bool = False,
                then: bool = False, **fields: Any) -> list[ev.Event]:
        """A declaration; with `then`, a further one after the actor's own this round,
        else one that replaces what the actor declared."""
        values = dict(fields)
        if then:
            values["then"] = True
        elif replaces or actor in self.declared():
            values["replaces"] = True
        event = self.declaring.declaration(self.fight, actor, action, values)
        return self.session.append(event)

    def roll_initiative(self) -> list[ev.Event]:
        return self.append(self.rolling.roll_initiative(self.fight, self.rng))

    def enter_initiative(self, values: Mapping[str, Any]) -> list[ev.Event]:
        """Real dice typed in, as the ruleset's initiative form asked for them."""
        return self.append(self.rolling.initiative_from(self.fight, values))

    def resolve_next(self) -> list[ev.Event]:
        resolve = self.resolving()
        return self.session.append(resolve) if resolve is not None else []

    def rolled(self, expr: str, purpose: str, actor: str | None = None,
               dice: list[int] | None = None) -> tuple[int, list[ev.Event]]:
        """A roll on its own, logged."""
        event = self.roll(expr, purpose, actor, dice)
        return event.total, self.session.append(event)

    def damage(self, target: str, amount: int | str, source: str | None = None,
               critical: bool = False, dice: list[int] | None = None,
               values: Mapping[str, Any] | None = None) -> list[ev.Event]:
        """Damage as a number, or a dice expression rolled here or read from real dice;
        the roll and the damage are one act (one undo). `values`: the answers to the
        ruleset's own damage fields, which it may enter the hit as it says."""
        return self.append(self.hit_events(target, amount, source, critical, values,
                                           self.rng, dice))

    def miss(self, actor: str, target: str | None = None) -> list[ev.Event]:
        return self.session.append(self.miss_event(actor, target))

    def heal(self, target: str, amount: int | str,
             values: Mapping[str, Any] | None = None) -> list[ev.Event]:
        """`values`: the answers to the ruleset's own heal fields (count-up's stabilise and
        Heal check), which its `heal_events` turns into the events."""
        return self.append(self.heal_events(target, amount, values, self.rng))

    def condition(self, target: str, name: str, rounds: int | None = None,
                  on: bool = True) -> list[ev.Event]:
        return self.session.append(ev.Condition(round=self.round, target=target, name=name,
                                                duration=rounds, on=on))

    def end(self, note: str | None = None) -> list[ev.Event]:
        return self.append(self.end_events(note))

    def note(self, text: str, hidden: bool = False) -> list[ev.Event]:
        return self.session.append(ev.Note(round=max(self.round, 0), text=text,
                                           hidden=hidden))

    def next_round(self) -> list[ev.Event]:
        return self.session.append(ev.NewRound(round=self.round + 1))

    def join(self, combatant: Combatant, values: Mapping[str, Any] | None = None,
             ) -> list[ev.Event]:
        return self.session.append(self.join_event(combatant, values))

    # -- the ruleset's own operations -----------------------------------------------------

    def acts(self) -> list[Act]:
        """Every table operation: the core's (a hit, a miss, the next round …), the
        ruleset's declarations, then its own acts. The one list the app and the command
        line render."""
        return self.core_acts() + self.declaration_acts() + self.ruleset_acts()

    def core_acts(self) -> list[Act]:
        if self._core is None:  # closed over the table: made once
            from .acts import core, table_acts

            self._core = core(table_acts(self))
        return self._core

    def declaration_acts(self) -> list[Act]:
        """The Declaring role's acts (none without the role), made once per ruleset."""
        ruleset = self.fight.ruleset
        if self._declarations is None or self._declarations[0] is not ruleset:
            from .acts import declaration_acts

            declaring = ruleset.role(Declaring)
            made = declaration_acts(self, declaring) if declaring is not None else []
            self._declarations = (ruleset, made)
        return self._declarations[1]

    def ruleset_acts(self) -> list[Act]:
        return acts_of(self.fight.ruleset, self.fight)

    def act(self, act_id: str) -> Act:
        """The act of that id (as the app bound its key, or a script named it): the table's
        and the declarations' (made once) are looked through before the ruleset's are made."""
        for made in (self.core_acts, self.declaration_acts, self.ruleset_acts):
            for act in made():
                if act.id == act_id:
                    return act
        known = ", ".join(a.id for a in self.acts()) or "none"
        raise IllegalEvent(f"{self.fight.ruleset.name} has no act {act_id!r} (acts: {known})")

    def do(self, act: Act, actor: str | None = None,
           values: Mapping[str, Any] | None = None) -> list[ev.Event]:
        """An act done: its events, checked and appended to the log."""
        if act.run is None:
            raise IllegalEvent(f"{act.label} is a report: it writes nothing")
        return self.append(act.run(self.fight, actor, values or {}, self.rng))

    def offered(self, act: Act, actor: str | None) -> bool:
        """Whether the footer offers `act` now: when it can be done (or as it says), a
        report (the odds) only while the round is under way."""
        if act.offered is not None:
            return act.offered(self.fight, actor)
        if act.allowed(self.fight, actor):
            return False
        return not (act.reports and self.round_done())

    def command(self, act_id: str, actor: str | None = None,
                values: Mapping[str, Any] | None = None) -> list[ev.Event]:
        """The act named `act_id` done (a script's or a test's way in)."""
        return self.do(self.act(act_id), actor, values)

    def reporter(self, act: Act, values: Mapping[str, Any] | None = None
                 ) -> Callable[[Callable[[int, int], None] | None], Report]:
        """A report's work (the odds), to run in a worker thread: it works on a copy of
        the fight taken now, so the table may go on meanwhile; it writes nothing."""
        fight, given, make = self.fight.copy(), dict(values or {}), act.report
        if make is None:
            raise IllegalEvent(f"{act.label} makes events, not a report")

        def work(progress: Callable[[int, int], None] | None) -> Report:
            return make(fight, given, progress)

        return work

    def write_run(self, run: ReportRun) -> Path:
        """One run of a report written to a new file beside the save, to replay."""
        from .runs import run_path, write_run

        path = run_path(self.session.path, run.number)
        return write_run(self.session.encounter, self.fight, run.seed, path)

    def undo(self) -> list[ev.Event]:
        return self.session.undo()

    def redo(self) -> list[ev.Event]:
        return self.session.redo()


# -- the saves folder ------------------------------------------------------------------


def list_saves(folder: Path) -> list[dict[str, Any]]:
    """Each save in `folder`: title, ruleset, round reached and when it last changed,
    read from the header and the last event alone (a long log is not read)."""
    from referee.engine.text import shown

    from .files import LoadError, save_header

    rows: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.toml")):
        try:
            header = save_header(path)
        except LoadError as error:
            rows.append({"path": path, "title": shown(path.stem), "ruleset": "?", "round": 0,
                         "changed": _changed(path), "problem": shown(error.reason)})
            continue
        rows.append({"path": path, "title": header["title"] or shown(path.stem),
                     "ruleset": header["ruleset"], "round": header["round"],
                     "changed": _changed(path), "problem": ""})
    rows.sort(key=lambda row: -row["changed"])
    return rows


def _changed(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


__all__ = ["DeclarationClock", "Table", "amount_of", "list_saves"]
