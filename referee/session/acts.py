"""The table's own acts: what a referee does in every ruleset (a hit, a miss, healing, a
condition, a note, initiative, the next beat, the next round, the end, undo, redo, a
latecomer joining), each one `Act` spec, defined once here. With the Declaring role's
declarations and the ruleset's own acts they are `Table.acts()`: the one list the app
renders as keys and forms, the command line as commands and options.

Every default an act's form offers (who a hit is by, at whom, with what damage) is worked
out here from the table, never in a screen; a run given fewer values than its form asks
fills the rest with the same defaults, so a script and a key press make the same events.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.engine import Ruleset
from referee.engine import events as ev
from referee.engine.errors import OVER, IllegalEvent
from referee.engine.options import Declaring, Rolling, heal_fields, join_fields
from referee.engine.record import replace
from referee.engine.specs import Act, Field, Followed, Form, until_over
from referee.engine.view import Fight

if TYPE_CHECKING:
    from .questions import Questions

# what a hit, a miss or the next beat says when there is no beat to act in
NO_BEAT = "every beat is resolved: r starts the next round"
INITIATIVE_FIRST = "initiative first: i rolls it (I types the real dice)"


class Overrule(IllegalEvent):
    """A refusal the referee may overrule with a field of the form (its path names it):
    said in its own words, the field beside it."""

    def __str__(self) -> str:
        return self.reason


def table_acts(table: Questions) -> list[Act]:
    """The core acts, in the order their keys are listed (and so shown on the footer)."""
    made = TableActs(table)
    return [made.initiative(), made.typed_initiative(), made.next_beat(), made.hit(),
            made.miss(), made.heal(), made.condition(), made.next_round(), made.join(),
            made.undo(), made.redo(), made.end(), made.note()]


def declaration_acts(table: Questions, declaring: Declaring[Any]) -> list[Act]:
    """The Declaring role's declarations as the table has them: one that replaces what was
    declared asks first once initiative is in, and one the ruleset lets follow another
    (close, then strike) asks whether it adds or replaces."""
    return [_declaration(table, act) for act in declaring.declaration_acts()]


def _declaration(table: Questions, act: Act) -> Act:
    action = act.id.removeprefix("declare-")

    def first(fight: Fight, actor: str | None) -> Form | None:
        if actor is None or actor not in table.declared():
            return None
        name = table.name(actor)
        if not table.further(actor, action):
            field = Field("what", f"{name}'s {action}", "choice", "then",
                          options=(("add a further action", "then"),
                                   ("replace the declaration", "replace")))
            return Form(f"{name} has declared already", (field,),
                        hint="a further action resolves after the first (one event; "
                             "ctrl+z takes it back)")
        if table.initiative_due():
            return None
        return Form(f"Initiative is in: {name} has declared already",
                    (Field("sure", f"replace {name}'s declaration", "bool", False),),
                    hint="yes replaces the declaration (one event; ctrl+z takes it back)")

    def follow(fight: Fight, actor: str | None, values: Mapping[str, Any],
               changed: str) -> Followed:
        return Followed(values=table.declare_follow(str(actor), action, values, changed))

    def offered(fight: Fight, actor: str | None) -> bool:
        return not fight.ended and bool(table.undeclared())

    def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
            rng: random.Random) -> list[ev.Event]:
        assert act.run is not None
        given = {k: v for k, v in values.items() if k not in ("what", "sure")}
        if values.get("what") != "then":
            return act.run(fight, actor, given, rng)
        why = act.allowed(fight, actor)
        if why:
            raise IllegalEvent(why)
        kept = {k: v for k, v in given.items() if v not in (None, False, "")}
        return [table.declaring.declaration(fight, str(actor), action,
                                            {**kept, "then": True})]

    return _with(act, first=first, follow=follow, offered=offered, run=run,
                 place="declare", after="declare")


def _with(act: Act, **changes: Any) -> Act:
    """A copy of `act` with `changes` (made without `replace`'s re-init, as `until_over`
    does: the table asks for its acts often)."""
    copied = object.__new__(type(act))
    copied.__dict__.update(act.__dict__)
    copied.__dict__.update(changes)
    return copied


class TableActs:
    """Each core act, closed over the table (its plan, its defaults)."""

    def __init__(self, table: Questions) -> None:
        self.table = table

    @property
    def ruleset(self) -> Ruleset[Any]:
        """The table's ruleset (an act's callbacks are given the fight as its roles see
        it, which names none)."""
        return self.table.fight.ruleset

    # -- who, at whom -----------------------------------------------------------------

    def living(self, fight: Fight) -> tuple[tuple[str, Any], ...]:
        return tuple((c.name, cid) for cid, c in fight.roster.items() if fight.alive(cid))

    def target_field(self, fight: Fight, default: str | None) -> Field:
        return Field("target", "target", "choice", default, required=True,
                     options=self.living(fight))

    def by_field(self, fight: Fight, default: str | None) -> Field:
        """Who did it: the current beat's actors first, then anyone else, out of turn."""
        table = self.table
        acting = [] if table.initiative_blocks() else table.acting()
        rest = [cid for cid in fight.roster if cid not in acting and fight.alive(cid)]
        options = tuple((fight.roster[cid].name, cid) for cid in acting) + tuple(
            (f"{fight.roster[cid].name} (out of turn)" if acting else fight.roster[cid].name,
             cid) for cid in rest)
        return Field("by", "by", "choice", default, required=True, options=options)

    def check_able(self, fight: Fight, actor: str, anyway: bool) -> None:
        """Refused (on the form's `anyway`) if `actor` cannot act, unless on purpose."""
        why = self.ruleset.planner.can_act(fight, actor)
        if why and not anyway:
            name = fight.roster[actor].name
            raise Overrule(f"{name} is {why} and cannot act: set 'record anyway' to "
                           "overrule", ("anyway",))

    def in_beat(self, fight: Fight, actor: str | None) -> str:
        """Why no hit, miss or next beat can be recorded now ("" when one can)."""
        if self.table.initiative_blocks():
            return INITIATIVE_FIRST
        return NO_BEAT if self.table.current_beat() is None else ""

    def by(self, values: Mapping[str, Any], actor: str | None) -> str:
        chosen = values.get("by") or self.table.striker(actor)
        if chosen is None or chosen not in self.table.fight.roster:
            raise IllegalEvent("who did it? select a combatant (--actor ID)", ("by",))
        return str(chosen)

    # -- resolving ----------------------------------------------------------------------

    def hit(self) -> Act:
        table = self.table

        def title(by: str | None) -> str:
            return f"{table.name(by)} hits: damage" if by else "A hit: damage"

        def form(fight: Fight, actor: str | None) -> Form:
            source = table.striker(actor)
            aimed = table.aim(source)
            fields = (Field("amount", "damage", default=table.damage_default(source, aimed),
                            required=True,
                            help="dice to roll (2d6+1), or a number from real dice"),
                      self.target_field(fight, aimed), self.by_field(fight, source),
                      ) + self.ruleset.damage.damage_fields(fight) + (
                      Field("anyway", "record anyway", "bool", False,
                            help="though the attacker cannot act"),)
            return Form(title(source), fields)

        def follow(fight: Fight, actor: str | None, values: Mapping[str, Any],
                   changed: str) -> Followed:
            if changed not in ("by", "target"):  # damage typed: nothing follows it
                return Followed()
            by = values.get("by")  # another attacker: its target, its weapon's damage at
            target = values.get("target")  # the target (a large one: its large figure)
            return Followed(title(by), {"amount": table.damage_default(by, target),
                                        "target": table.aim(by)})

        def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            by = self.by(values, actor)
            self.check_able(fight, by, bool(values.get("anyway")))
            target = values.get("target") or table.aim(by)
            if target is None:
                raise IllegalEvent("no one to hit", ("target",))
            amount = values.get("amount")
            if amount in (None, ""):
                amount = table.damage_default(by, target)
            own = {f.name: values.get(f.name) for f in self.ruleset.damage.damage_fields(fight)}
            return table.hit_events(str(target), amount, by, bool(values.get("critical")),
                                    own, rng)

        return Act("hit", "Hit/damage", "h",
                   allowed=self.in_beat, form=form, run=run, follow=follow, place="other",
                   after="work")

    def miss(self) -> Act:
        table = self.table

        def form(fight: Fight, actor: str | None) -> Form | None:
            acting = [] if table.initiative_blocks() else table.acting()
            by = table.striker(actor)
            if len(acting) <= 1 or by is None:  # no one else it could be: recorded at once
                return None
            fields = (self.by_field(fight, by), self.target_field(fight, table.aim(by)),
                      Field("anyway", "record anyway", "bool", False))
            return Form(f"{table.name(by)} misses", fields)

        def follow(fight: Fight, actor: str | None, values: Mapping[str, Any],
                   changed: str) -> Followed:
            if changed != "by":
                return Followed()
            by = values.get("by")
            return Followed(f"{table.name(by)} misses" if by else "Who misses?",
                            {"target": table.aim(by)})

        def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            by = self.by(values, actor)
            self.check_able(fight, by, bool(values.get("anyway")))
            return [table.miss_event(by, values.get("target") or table.aim(by))]

        return Act("miss", "Miss", "m",
                   allowed=self.in_beat, form=form, run=run, follow=follow, place="other",
                   after="work")

    def next_beat(self) -> Act:
        table = self.table

        def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            resolve = table.resolving()
            if resolve is None:
                raise IllegalEvent(NO_BEAT)
            return [resolve]

        return Act("next", "Next beat", "n", allowed=self.in_beat,
                   run=run, place="moving", after="work")

    def next_round(self) -> Act:
        table = self.table

        def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            return [ev.NewRound(round=table.round + 1)]

        def notices(fight: Fight) -> list[tuple[str, str]]:
            return table.notices()

        return Act("round", "Next round", "r", run=run,
                   place="moving", after="work", notices=notices)

    # -- initiative -----------------------------------------------------------------------

    def initiative_allowed(self, fight: Fight, actor: str | None) -> str:
        if self.ruleset.role(Rolling) is None:
            return f"{self.ruleset.name} rolls no initiative: its order needs no roll"
        return "" if self.table.initiative_due() else \
            f"initiative is in for round {self.table.round}: r starts the next round"

    def initiative(self) -> Act:
        table = self.table

        def first(fight: Fight, actor: str | None) -> Form | None:
            waiting = [fight.roster[cid].name for cid in table.undeclared()
                       if fight.alive(cid)]
            if not waiting:
                return None
            return Form(f"Not declared yet: {', '.join(waiting)}",
                        (Field("sure", "roll initiative now", "bool", False),),
                        hint="yes rolls now: they declare nothing this round")

        def typed(fight: Fight, actor: str | None) -> tuple[Field, ...]:
            """The real dice, which the command line may give instead (each optional)."""
            form = table.initiative_form() if self.ruleset.role(Rolling) else None
            return tuple(replace(f, required=False) for f in form.fields) if form else ()

        def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            given = {f.name: values[f.name] for f in typed(fight, actor)
                     if values.get(f.name) not in (None, "")}
            if given:  # real dice given as options: typed, as the app's I types them
                return table.rolling.initiative_from(fight, given)
            return table.rolling.roll_initiative(fight, rng)

        return Act("initiative", "Roll init", "i",
                   allowed=self.initiative_allowed, first=first, run=run, place="moving",
                   after="work", options_from=typed)

    def typed_initiative(self) -> Act:
        table = self.table

        def form(fight: Fight, actor: str | None) -> Form | None:
            return table.initiative_form() if self.ruleset.role(Rolling) else None

        def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            return table.rolling.initiative_from(fight, values)

        return Act("dice", "Type init", "I",
                   show=False, allowed=self.initiative_allowed, form=form, run=run,
                   place="moving", after="work")

    # -- the rest of the table ------------------------------------------------------------

    def heal(self) -> Act:
        table = self.table

        def form(fight: Fight, actor: str | None) -> Form:
            # the ruleset's own fields (count-up's stabilise and Heal check) follow the target
            return Form("Heal", (Field("amount", "hit points", required=True,
                                       help="a number, or dice: 1d8"),
                                 self.target_field(fight, actor)) +
                        heal_fields(self.ruleset, fight, actor))

        def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            target = str(values.get("target") or actor or "")
            own = heal_fields(self.ruleset, fight, target if target in fight.roster else None)
            return table.heal_events(target, values.get("amount"),
                                     {f.name: values.get(f.name) for f in own}, rng)

        return Act("heal", "Heal", "plus", show=False,
                   form=form, run=run, after_end=True, place="other", after="stay")

    def condition(self) -> Act:
        table = self.table

        def form(fight: Fight, actor: str | None) -> Form:
            return Form("Condition", (
                Field("name", "condition", required=True, help="prone, stunned, held …"),
                self.target_field(fight, actor),
                Field("rounds", "rounds", "int", minimum=1, help="blank: until removed")))

        def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            return [ev.Condition(round=table.round, target=str(values.get("target") or actor),
                                 name=str(values.get("name") or ""),
                                 duration=values.get("rounds"), on=True)]

        return Act("condition", "Condition", "exclamation_mark", show=False,
                   form=form, run=run, after_end=True, place="other", after="stay")

    def note(self) -> Act:
        table = self.table

        def form(fight: Fight, actor: str | None) -> Form:
            return Form("A note in the log", (
                Field("text", "note", required=True, help="anything to remember"),
                Field("hidden", "keep from the players", "bool", False)))

        def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            return [ev.Note(round=max(table.round, 0), text=str(values.get("text") or ""),
                            hidden=bool(values.get("hidden")))]

        return Act("note", "Note", "N",
                   show=False, form=form, run=run, after_end=True, place="other",
                   after="stay")

    def join(self) -> Act:
        table = self.table

        def form(fight: Fight, actor: str | None) -> Form:
            from .roster import RosterEditor

            spec = RosterEditor(table.session).combatant_form(None)
            return Form("A combatant joins", spec.fields + join_fields(self.ruleset, fight))

        def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            from .roster import RosterEditor

            combatant = RosterEditor(table.session).built(values, None)
            return [table.join_event(combatant, values)]

        return Act("join", "Join", "j", show=False,
                   form=form, run=run, place="other", after="stay")

    def end(self) -> Act:
        table = self.table

        def allowed(fight: Fight, actor: str | None) -> str:
            return "the fight is over already: ctrl+z takes the end back" if fight.ended \
                else ""

        def offered(fight: Fight, actor: str | None) -> bool:
            return not fight.ended and table.round_done()

        def form(fight: Fight, actor: str | None) -> Form:
            return Form("End the fight", (
                Field("sure", "end the fight", "bool", False, help="ctrl+z takes it back"),
                Field("note", "note", help="how it ended: they fled, a truce …")),
                hint="the ruleset's end rules follow (a recovery turn, initiative wiped, "
                     "MP refilled …); ctrl+z takes the end back")

        def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            if fight.ended:
                raise IllegalEvent(OVER)
            return table.end_events(values.get("note")) if values.get("sure") else []

        return Act("end", "End the fight", "E", allowed=allowed, form=form, run=run,
                   offered=offered, over_checked=True, place="other", after="work")

    def undo(self) -> Act:
        return history("undo", "Undo", "ctrl+z", ev.Undo, "batches", "moving")

    def redo(self) -> Act:
        return history("redo", "Redo", "ctrl+y", ev.Redo, "undone", "other")


def history(id_: str, label: str, key: str, made: type[ev.Undo] | type[ev.Redo],
            left: str, place: str) -> Act:
    """Undo or redo: the event that takes back (or brings back) the last act, while the
    fight has one `left` to take (its `batches`, or its `undone`)."""
    def allowed(fight: Fight, actor: str | None) -> str:
        return "" if getattr(fight, left) else f"nothing to {id_}"

    def run(fight: Fight, actor: str | None, values: Mapping[str, Any],
            rng: random.Random) -> list[ev.Event]:
        return [made(round=max(fight.round, 0))]

    return Act(id_, label, key, allowed=allowed, run=run, after_end=True, place=place,
               after="work")


def core(acts: list[Act]) -> list[Act]:
    """The core acts as the table has them: refused once the fight is over unless the end
    leaves them to do (`until_over`)."""
    return [until_over(act) for act in acts]


__all__ = ["core", "declaration_acts", "table_acts"]
