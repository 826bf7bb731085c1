"""The combat screen: tracker, plan and log, and a key for everything a referee does.

The screen composes widgets and calls the table (the session layer); the ruleset says
what its forms, columns and extra commands are, and the screen renders them. Widgets
tell the screen what happened through messages (`EventsAppended`), never by reaching
into each other.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen

from referee.engine import RefereeError
from referee.engine import events as ev
from referee.engine.errors import OVER as OVER_WORDS
from referee.engine.options import Declaring, Rolling, heal_fields, join_fields
from referee.engine.plan import Plan
from referee.engine.specs import Act, Field, Form
from referee.engine.text import shown as safe
from referee.session import view
from referee.session.replay import chronicle_lines
from referee.session.store import SaveError
from referee.session.table import DeclarationClock, Table
from referee.session.view import LogLine

from .refusal import Refused, refused
from .widgets import LogView, PlanView, StatusLine, Tracker
from .widgets.keys import KeyLine, working_keys

if TYPE_CHECKING:
    from textual import getters

    from .app import RefereeApp
    from .forms import Follow, Followed

# Keys every ruleset has; the ruleset's declaration keys and commands are added per fight.
BINDINGS: list[BindingType] = [
    Binding("i", "roll_initiative", "Roll init"),
    Binding("I", "enter_initiative", "Type init", show=False),
    Binding("n", "next_beat", "Next beat"),
    Binding("h", "hit", "Hit/damage"),
    Binding("m", "miss", "Miss"),
    Binding("plus", "heal", "Heal", show=False),
    Binding("exclamation_mark", "condition", "Condition", show=False),
    Binding("r", "next_round", "Next round"),
    Binding("j", "join", "Join", show=False),
    Binding("ctrl+z", "undo", "Undo"),
    Binding("ctrl+y", "redo", "Redo"),
    Binding("ctrl+s", "save_as", "Save as", show=False),
    Binding("ctrl+o", "open", "Open", show=False),
    Binding("ctrl+e", "setup", "Set up", show=False),
    Binding("R", "replay", "Replay", show=False),
    Binding("V", "serve", "Players' view", show=False),
    Binding("E", "end", "End the fight"),  # on the footer once the round is done
    Binding("N", "note", "Note", show=False),
    Binding("W", "party", "Write the party"),
    Binding("question_mark", "help", "Help"),
]
RESOLVING = ("next_beat", "hit", "miss")
# the keys that move the fight on: first on the footer, the last a narrow screen drops
MOVING = frozenset({"next_beat", "next_round", "roll_initiative", "undo", "declare"})
OVER = frozenset({"roll_initiative", "enter_initiative", "next_beat", "next_round", "declare",
                  "join", "end", "hit", "miss"})  # what an ended fight no longer offers
# keys that say for themselves why they do nothing now (a ruleset's act in its own words)
OWN_WORDS = frozenset({"command", "end"})
FOLD = 3  # a ruleset's shown commands fold into one footer entry from this many on


def ignore(_: object) -> None:
    """A form's result once it has closed: its answer was applied before it closed."""


class EventsAppended(Message):
    """Events are on disk; their log lines come with them."""

    def __init__(self, events: list[ev.Event], lines: list[LogLine]) -> None:
        super().__init__()
        self.events, self.lines = events, lines


def forms() -> Any:  # imported when a form opens, not at start-up
    from . import forms as module

    return module


class CombatScreen(Screen[None]):
    if TYPE_CHECKING:
        app = getters.app(RefereeApp)

    BINDINGS = BINDINGS

    def __init__(self, table: Table, setup: bool = False) -> None:
        super().__init__()
        self.table = table
        self.start_in_setup = setup

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield Tracker(id="tracker")
        yield PlanView(id="plan")
        yield LogView(id="log")
        yield KeyLine(id="keys")

    def on_mount(self) -> None:
        self.title = "referee"
        # the ruleset's acts on the footer are those the combatant under the cursor can do
        self.watch(self.query_one(Tracker), "cursor", self.cursor_moved, init=False)
        self.reload()
        if self.table.session.warning:
            self.notify(self.table.session.warning, title="Recovered a torn save",
                        severity="warning", timeout=30)
        if self.start_in_setup:
            self.action_setup()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key pressed: one that does nothing now says why (a notice), never silence."""
        if action in OWN_WORDS:
            return True
        why = self.why_not(action, parameters)
        if why:
            self.notify(why, title="Not now", severity="warning", timeout=6)
            return False
        return True

    def offers(self, action: str, parameters: tuple[object, ...]) -> bool:
        """Only the keys that work right now are shown in the footer; `E` once the round
        has nothing left to do (go on with `r`, or end it)."""
        if action == "end":
            return not self.table.fight.ended and self.round_done()
        if action == "declare":  # while someone is still to declare (a key declares again)
            return not self.table.fight.ended and bool(self.table.undeclared())
        return not self.why_not(action, parameters)

    def round_done(self) -> bool:
        """Nothing is left to do this round: every beat resolved, initiative in, everyone
        declared (go on with `r`, or end the fight)."""
        table = self.table
        return table.current_beat() is None and not table.initiative_due() and \
            not table.undeclared()

    def why_not(self, action: str, parameters: tuple[object, ...]) -> str:
        """Why `action` does nothing now, in words ("" when it works)."""
        table = self.table
        fight = table.fight
        if action == "command":
            act = next((a for a in table.acts() if (a.id,) == parameters), None)
            return act.allowed(fight, self.selected()) if act is not None else ""
        if action in OVER and fight.ended:  # the fight is over: only undo reopens it
            return OVER_WORDS
        if action in ("roll_initiative", "enter_initiative"):
            if fight.ruleset.role(Rolling) is None:
                return f"{fight.ruleset.name} rolls no initiative: its order needs no roll"
            return "" if table.initiative_due() else \
                f"initiative is in for round {table.round}: r starts the next round"
        if action in RESOLVING:
            if table.initiative_blocks():
                return "initiative first: i rolls it (I types the real dice)"
            if table.current_beat() is None:
                return "every beat is resolved: r starts the next round"
            return ""
        if action == "party":  # the fight's end: the party carries over to the next
            return "" if fight.ended else "the party is written once the fight is over (E)"
        if action == "undo":
            return "" if fight.batches else "nothing to undo"
        if action == "redo":
            return "" if fight.undone else "nothing to redo"
        return ""

    def reload(self) -> None:
        """Everything drawn afresh from the session: on opening, and after set-up."""
        self.table.told()
        self.query_one(LogView).show_all([str(line) for line in chronicle_lines(self.table)])
        self.refresh_view()
        self.query_one(Tracker).focus()
        self.point_at_work()

    def point_at_work(self) -> None:
        """The cursor on who acts now: the current beat's first actor, else the next
        combatant to declare."""
        acting = self.table.acting() if not self.table.initiative_blocks() else []
        left = [a.actor for a in self.table.to_record()]  # the next with nothing recorded
        waiting = (left or acting)[0] if acting else self.table.next_undeclared()
        if waiting is not None:
            self.query_one(Tracker).select(waiting)

    # -- refreshing ---------------------------------------------------------------------

    def plan(self) -> Plan | None:
        try:
            return self.table.plan()
        except RefereeError as error:
            self.notify(str(error), severity="error")
            return None

    def refresh_view(self) -> None:
        table = self.table
        plan = self.plan()
        shown = view.build(table.fight, plan, table.session.encounter.title, rows=False)
        self.query_one(StatusLine).show(shown.status, safe(table.session.path.name))
        self.query_one(Tracker).show(table.fight, plan, shown.acting)
        self.query_one(PlanView).show(shown.plan, shown.current)
        self.sub_title = safe(str(table.session.path))
        self.query_one(KeyLine).show(self.footer())

    def cursor_moved(self) -> None:
        self.query_one(KeyLine).show(self.footer())

    def footer(self) -> list[tuple[str, str]]:
        """The keys that work now: those that move the fight on first, then the ruleset's
        acts that can be done now (from FOLD of them, one entry: its letters, "Act"; `?`
        says what each does), then the rest."""
        # these screens and the app bind Binding objects only, never (key, action) tuples
        bindings = cast("list[Binding]", list(type(self).BINDINGS) +
                        list(type(self.app).BINDINGS))
        rest = [b for b in bindings if not b.action.startswith("command(")]
        moving = [b for b in rest if b.action.partition("(")[0] in MOVING]
        offered = self.offered_acts()
        if len(offered) >= FOLD:
            offered = [(",".join(key for key, _ in offered), "Act")]
        return (working_keys(self, moving) + offered +
                working_keys(self, [b for b in rest if b not in moving]))

    def offered_acts(self) -> list[tuple[str, str]]:
        """The ruleset's shown acts that can be done now (for the combatant under the
        cursor), as (key, label); a report (the odds) while the round is under way."""
        table = self.table
        selected, done = self.selected(), None
        out = []
        for act in table.acts():
            if not act.key or not act.show or act.allowed(table.fight, selected):
                continue
            if act.reports:
                done = self.round_done() if done is None else done
                if done:
                    continue
            out.append((act.key, act.label))
        return out

    def on_events_appended(self, message: EventsAppended) -> None:
        self.query_one(LogView).add([str(line) for line in message.lines])
        for event, line in zip(message.events, message.lines, strict=False):
            if event.follows and event.ANNOUNCED:
                self.notify(line.text, severity="warning")
        self.refresh_view()

    def attempt(self, work: Callable[..., list[ev.Event]], *args: Any,
                **kwargs: Any) -> list[ev.Event]:
        """Run a table operation; a refusal or a failed save is shown, never a crash."""
        try:
            return self.apply(work, *args, **kwargs)
        except Refused as refusal:
            self.notify(refusal.message, title="Not done", severity="error", timeout=8)
            return []

    def apply(self, work: Callable[..., list[ev.Event]], *args: Any,
              **kwargs: Any) -> list[ev.Event]:
        """Run a table operation for a form: a refusal or a failed save raises Refused,
        and the form stays open with what was typed."""
        try:
            events = work(*args, **kwargs)
        except (RefereeError, SaveError, OSError, ValueError) as error:
            # The session rolled back to what the file holds: an act's events already on
            # disk (a roll before what it decided) stay shown, the rest told is dropped.
            kept = len(self.table.fight.log)
            lines = [line for line in self.table.told() if line.number <= kept]
            self.post_message(EventsAppended([], lines))
            raise refused(error) from None
        self.post_message(EventsAppended(events, self.table.told()))
        return events

    def ask(self, spec: Form, done: Callable[[dict[str, Any]], object],
            clock: DeclarationClock | None = None, running: bool = True,
            follow: Follow | None = None) -> None:
        """Open a form; Enter gives `done` its values while the form is still open: a
        Refused from it keeps the form open, with the message beside the field at fault
        and everything typed (a cancelled form does nothing). A declaration `clock` runs
        from the start if `running`; `follow` gives what a changed field brings (the
        title, defaults, the other fields' values)."""
        module = forms()
        module.open_form(self.app, module.form_screen(spec, clock, done, running, follow),
                         ignore)

    def ask_then(self, spec: Form, after: Callable[[dict[str, Any]], None]) -> None:
        """Open a form whose answer opens another screen: `after` runs once it has closed."""
        def finished(values: dict[str, Any] | None) -> None:
            if values is not None:
                after(values)

        module = forms()
        module.open_form(self.app, module.form_screen(spec), finished)

    # -- declaring ----------------------------------------------------------------------

    def selected(self) -> str | None:
        return self.query_one(Tracker).combatant()

    def action_declare(self, action: str) -> None:
        actor = self.selected()
        if actor is None:
            return
        table = self.table
        why = table.declaring.can_declare(table.fight, actor, action)
        if why:
            self.notify(why, title="Cannot declare", severity="error")
            return
        if actor in table.declared() and not table.further(actor, action):
            self.add_or_replace(actor, action)
            return
        if actor in table.declared() and not table.initiative_due():
            self.confirm_redeclare(actor, action)
            return
        self.declare(actor, action)

    def add_or_replace(self, actor: str, action: str) -> None:
        """The ruleset allows a further declaration (close, then strike): add it, or
        replace what was declared."""
        name = self.table.fight.roster[actor].name
        field = Field("what", f"{name}'s {action}", "choice", "then",
                      options=(("add a further action", "then"),
                               ("replace the declaration", "replace")))

        def done(values: dict[str, Any]) -> None:
            self.declare(actor, action, then=values.get("what") == "then")

        self.ask_then(Form(f"{name} has declared already", (field,),
                           hint="a further action resolves after the first (one event; "
                                "ctrl+z takes it back)"), done)

    def confirm_redeclare(self, actor: str, action: str) -> None:
        """After initiative, changing a declaration is the referee's call: asked, not done."""
        name = self.table.fight.roster[actor].name
        field = Field("sure", f"replace {name}'s declaration", "bool", False)

        def done(values: dict[str, Any]) -> None:
            if values.get("sure"):
                self.declare(actor, action)

        self.ask_then(Form(f"Initiative is in: {name} has declared already", (field,),
                           hint="yes replaces the declaration (one event; ctrl+z takes it "
                                "back)"), done)

    def declare(self, actor: str, action: str, then: bool = False) -> None:
        table = self.table
        spec = table.declare_form(actor, action)
        clock = DeclarationClock(self.app.clock, spec.clock.every) if spec.clock else None

        def follow(values: dict[str, Any], changed: str) -> Followed:
            return forms().Followed(values=table.declare_follow(actor, action, values,
                                                                changed))

        def done(values: dict[str, Any]) -> None:
            self.apply(table.declare, actor, action, then=then, **forms().clean(values))
            following = table.next_undeclared(actor)
            if following is not None:
                self.query_one(Tracker).select(following)
            else:
                self.point_at_work()

        self.ask(spec, done, clock, running=self.run_by_players(actor), follow=follow)

    def run_by_players(self, actor: str) -> bool:
        """The clock runs for a player's declaration; the referee's own monsters need no
        clock (ctrl+t starts it anyway)."""
        fight = self.table.fight
        side = fight.encounter.side(fight.roster[actor].side)
        return bool(side and side.players)

    # -- initiative ---------------------------------------------------------------------

    def action_roll_initiative(self) -> None:
        """Roll; with combatants still undeclared, say who first and ask."""
        fight = self.table.fight
        waiting = [fight.roster[cid].name for cid in self.table.undeclared()
                   if fight.alive(cid)]
        if not waiting:
            self.roll_initiative()
            return
        field = Field("sure", "roll initiative now", "bool", False)

        def done(values: dict[str, Any]) -> None:
            if values.get("sure"):
                self.roll_initiative()

        self.ask_then(Form(f"Not declared yet: {', '.join(waiting)}", (field,),
                           hint="yes rolls now: they declare nothing this round"), done)

    def roll_initiative(self) -> None:
        self.attempt(self.table.roll_initiative)
        self.point_at_work()

    def action_enter_initiative(self) -> None:
        def done(values: dict[str, Any]) -> None:
            self.apply(self.table.enter_initiative, values)
            self.point_at_work()

        self.ask(self.table.initiative_form(), done)

    # -- resolving ----------------------------------------------------------------------

    def action_next_beat(self) -> None:
        if self.table.current_beat() is None:
            self.notify("every beat is resolved: r starts the next round")
            return
        self.attempt(self.table.resolve_next)
        self.point_at_work()

    def living(self) -> tuple[tuple[str, Any], ...]:
        fight = self.table.fight
        return tuple((c.name, cid) for cid, c in fight.roster.items() if fight.alive(cid))

    def target_field(self, default: str | None, label: str = "target") -> Field:
        return Field("target", label, "choice", default, required=True, options=self.living())

    def attacker(self) -> str | None:
        """Who a hit or a miss is by: the beat's next actor with nothing recorded yet
        (unless the cursor is on another with something left), else the one under the
        cursor."""
        return self.table.striker(self.selected())

    def by_field(self, default: str | None) -> Field:
        """Who did it: the current beat's actors first, then anyone else, out of turn."""
        fight = self.table.fight
        acting = [] if self.table.initiative_blocks() else self.table.acting()
        rest = [cid for cid in fight.roster if cid not in acting and fight.alive(cid)]
        options = tuple((fight.roster[cid].name, cid) for cid in acting) + tuple(
            (f"{fight.roster[cid].name} (out of turn)" if acting else fight.roster[cid].name,
             cid) for cid in rest)
        return Field("by", "by", "choice", default, required=True, options=options)

    def unable(self, actor: str, anyway: bool) -> str | None:
        """Why a combatant who cannot act is not recorded as acting (unless on purpose)."""
        why = self.table.fight.ruleset.planner.can_act(self.table.fight, actor)
        if why and not anyway:
            name = self.table.fight.roster[actor].name
            return f"{name} is {why} and cannot act: set 'record anyway' to overrule"
        return None

    def check_able(self, actor: str, anyway: bool) -> None:
        """Refused (the form stays open) if `actor` cannot act and it is not on purpose."""
        why = self.unable(actor, anyway)
        if why:
            raise Refused(why, "anyway")

    def action_hit(self) -> None:
        source = self.attacker()
        table = self.table
        aimed = table.aim(source)
        fields = (Field("amount", "damage", default=table.damage_default(source, aimed),
                        required=True, help="dice to roll (2d6+1), or a number from real dice"),
                  self.target_field(aimed), self.by_field(source),
                  ) + table.fight.ruleset.damage.damage_fields(table.fight) + (
                  Field("anyway", "record anyway", "bool", False,
                        help="though the attacker cannot act"),)

        def title(by: str | None) -> str:
            return f"{table.name(by)} hits: damage" if by else "A hit: damage"

        def follow(values: dict[str, Any], changed: str) -> Followed:
            if changed not in ("by", "target"):  # damage typed: nothing follows it
                return forms().Followed()
            by = values.get("by")  # another attacker: its target, its weapon's damage at
            target = values.get("target")  # the target (a large one: its large figure)
            return forms().Followed(title(by), {"amount": table.damage_default(by, target),
                                                "target": table.aim(by)})

        def done(values: dict[str, Any]) -> None:
            self.check_able(values["by"], bool(values.get("anyway")))
            own = {f.name: values.get(f.name) for f in table.fight.ruleset.damage.damage_fields(
                table.fight)}
            self.apply(table.damage, values["target"], values["amount"], source=values["by"],
                       critical=bool(values.get("critical")), values=own)
            self.point_at_work()

        self.ask(Form(title(source), fields), done, follow=follow)

    def action_miss(self) -> None:
        acting = [] if self.table.initiative_blocks() else self.table.acting()
        actor = self.attacker()
        if actor is None:
            return
        if len(acting) <= 1:
            why = self.unable(actor, False)
            if why:
                self.notify(why, title="Not done", severity="error", timeout=8)
            else:
                self.attempt(self.table.miss, actor, self.table.aim(actor))
                self.point_at_work()
            return
        fields = (self.by_field(actor), self.target_field(self.table.aim(actor)),
                  Field("anyway", "record anyway", "bool", False))
        table = self.table

        def follow(values: dict[str, Any], changed: str) -> Followed:
            if changed != "by":
                return forms().Followed()
            by = values.get("by")
            return forms().Followed(f"{table.name(by)} misses" if by else "Who misses?",
                                    {"target": table.aim(by)})

        def done(values: dict[str, Any]) -> None:
            self.check_able(values["by"], bool(values.get("anyway")))
            self.apply(table.miss, values["by"], values["target"])
            self.point_at_work()

        self.ask(Form(f"{table.name(actor)} misses", fields), done, follow=follow)

    def action_heal(self) -> None:
        fight = self.table.fight
        # the ruleset's own fields (count-up's stabilise and Heal check) follow the target
        own = heal_fields(fight.ruleset, fight, self.selected())
        fields = (Field("amount", "hit points", required=True, help="a number, or dice: 1d8"),
                  self.target_field(self.selected())) + own  # the one under the cursor

        def done(values: dict[str, Any]) -> None:
            self.apply(self.table.heal, values["target"], values["amount"],
                       values={f.name: values.get(f.name) for f in own})

        self.ask(Form("Heal", fields), done)

    def action_condition(self) -> None:
        fields = (Field("name", "condition", required=True, help="prone, stunned, held …"),
                  self.target_field(self.selected()),  # the one under the cursor
                  Field("rounds", "rounds", "int", minimum=1, help="blank: until removed"))

        def done(values: dict[str, Any]) -> None:
            self.apply(self.table.condition, values["target"], values["name"],
                       values.get("rounds"))

        self.ask(Form("Condition", fields), done)

    def action_next_round(self) -> None:
        notices = self.table.notices()
        self.attempt(self.table.next_round)
        self.point_at_work()
        for title, text in notices:
            self.notify(text, title=title, severity="warning")

    def action_end(self) -> None:
        """The fight is over (asked first): the ruleset's end rules follow, logged."""
        if self.table.fight.ended:
            self.notify("the fight is over already: ctrl+z takes the end back",
                        title="Not done", severity="error")
            return
        fields = (Field("sure", "end the fight", "bool", False,
                        help="ctrl+z takes it back"),
                  Field("note", "note", help="how it ended: they fled, a truce …"))

        def done(values: dict[str, Any]) -> None:
            if values.get("sure"):
                self.apply(self.table.end, values.get("note"))
                self.point_at_work()

        self.ask(Form("End the fight", fields,
                      hint="the ruleset's end rules follow (a recovery turn, initiative "
                           "wiped, MP refilled …); ctrl+z takes the end back"), done)

    def action_note(self) -> None:
        fields = (Field("text", "note", required=True, help="anything to remember"),
                  Field("hidden", "keep from the players", "bool", False))

        def done(values: dict[str, Any]) -> None:
            self.apply(self.table.note, values["text"], bool(values.get("hidden")))

        self.ask(Form("A note in the log", fields), done)

    def action_join(self) -> None:
        from referee.session.roster import RosterEditor

        editor = RosterEditor(self.table.session)
        spec = editor.combatant_form(None)
        extra = join_fields(self.table.fight.ruleset, self.table.fight)
        joined = Form("A combatant joins", spec.fields + extra)

        def done(values: dict[str, Any]) -> None:
            try:
                combatant = editor.built(values, None)
            except RefereeError as error:
                raise refused(error) from None
            self.apply(self.table.join, combatant, values)

        self.ask(joined, done)

    def action_command(self, act_id: str) -> None:
        act = self.table.act(act_id)
        actor = self.selected()
        why = act.allowed(self.table.fight, actor)
        if why:
            self.notify(why, title="Not now", severity="error")
            return
        spec = act.form(self.table.fight, actor)
        if act.reports:  # shown on a screen of its own; nothing is written
            if spec is None:
                self.show_report(act, {})
            else:
                self.ask_then(spec, lambda values: self.show_report(act, values))
            return
        acting = self.table.acting()
        if spec is None:
            self.attempt(self.table.do, act, actor, self.command_values())
            self.follow_acting(acting)
            return

        def done(values: dict[str, Any]) -> None:
            self.apply(self.table.do, act, actor, values)
            self.follow_acting(acting)

        self.ask(spec, done)

    def follow_acting(self, before: list[str]) -> None:
        """An act that changed who acts now (a tie roll that reorders the lineup, a turn
        delayed): the cursor goes to who acts; else it stays where the referee put it."""
        if self.table.acting() != before:
            self.point_at_work()

    def show_report(self, act: Act, values: dict[str, Any]) -> None:
        from .report import ReportScreen

        self.app.push_screen(ReportScreen(act.label, self.table.reporter(act, values),
                                          self.table.write_run))

    def command_values(self) -> dict[str, Any]:
        """What a command without a form is told of the moment: who acts now."""
        acting = self.table.acting()
        return {"before": acting[0]} if acting else {}

    # -- files, history and the rest ------------------------------------------------------

    def action_undo(self) -> None:
        if self.attempt(self.table.undo):
            self.point_at_work()  # back to who acts (or declares) now

    def action_redo(self) -> None:
        if self.attempt(self.table.redo):
            self.point_at_work()

    def action_save_as(self) -> None:
        session = self.table.session

        def save_as(target: Path, force: bool, _: dict[str, Any]) -> str:
            session.save_as(target, replace=force)
            self.refresh_view()
            return f"saved as {target}; the fight goes on there"

        self.ask_path("Save as", None, "a new name", save_as)

    def action_party(self) -> None:
        """The players' sides as the fight left them, to a roster for the next encounter
        (`referee play NEW --party FILE`, or set-up's import)."""
        from referee.engine.options import carry_questions
        from referee.session.output import write_output
        from referee.session.party import party_file

        session = self.table.session
        fight = self.table.fight
        # what the ruleset leaves open as the party is written, beside the file name
        questions = carry_questions(fight.ruleset, fight)

        def write(target: Path, force: bool, values: dict[str, Any]) -> str:
            answers = {f.name: values[f.name] for f in questions if f.name in values}
            text, said = party_file(self.table.fight, answers)
            write_output(target, text, [session.path], force)
            return f"wrote {target.name}: {said}"

        self.ask_path("Write the party", "party.toml", "", write, questions)

    def ask_path(self, title: str, default: str | None, hint: str,
                 write: Callable[[Path, bool, dict[str, Any]], str],
                 extra: tuple[Field, ...] = ()) -> None:
        """A file beside the save, asked for (never the save itself, nor a file there
        unless "replace a file there" is set), and `write` done to it, given every answer
        (`extra`: more fields asked after the file's): a refusal keeps the form open on
        the path."""
        session = self.table.session
        fields = (Field("path", "file", "text", default, required=True,
                        help=f"beside {session.path.name}" + (f": {hint}" if hint else "")),
                  Field("force", "replace a file there", "bool", False,
                        help="never this save itself")) + extra

        def done(values: dict[str, Any]) -> None:
            from referee.session.output import claim

            target = Path(values["path"])
            if not target.is_absolute():
                target = session.path.parent / target
            force = bool(values.get("force"))
            try:
                claim(target, [session.path], force, how="'replace a file there' replaces it")
                said = write(target, force, values)
            except (SaveError, RefereeError) as error:
                raise Refused(str(error), "path") from None
            self.notify(said, title=title)

        self.ask(Form(title, fields), done)

    def action_open(self) -> None:
        self.app.action_open()

    def action_setup(self) -> None:
        from .setup import SetupScreen

        self.app.push_screen(SetupScreen(self.table.session, self.app.catalogues),
                             lambda _: self.reload())

    def action_replay(self) -> None:
        self.app.action_replay()

    def action_help(self) -> None:
        self.app.action_help()

    async def action_serve(self) -> None:
        """Serve the players' view of this save to browsers (asked where first); while it
        is served, show its address again (where `V` stops serving it)."""
        from .watch import ServingScreen, served_address

        address = served_address(self.app)
        if address is not None:
            self.app.push_screen(ServingScreen(address, "?token=" in address))
            return
        field = Field("where", "who may watch", "choice", "local",
                      options=(("this machine only", "local"),
                               ("the table's network (a TV, phones)", "network")))
        self.ask_then(Form("Serve the players' view", (field,),
                           hint="the network: the address carries a code; anyone there "
                                "with it can watch, no one can change the fight"),
                      self.chosen_where)

    def chosen_where(self, values: dict[str, Any]) -> None:
        self.run_worker(self.serve_on(values["where"]))

    async def serve_on(self, where: str) -> None:
        from .watch import ServeError, ServingScreen, start_serving

        network = where == "network"
        try:
            address = await start_serving(self.app, self.table.session.path, network,
                                          self.app.max_viewers)
        except ServeError as error:
            self.notify(str(error), title="Players' view", severity="error", timeout=10)
            return
        self.app.push_screen(ServingScreen(address, network))


def command_keys(commands: list[Act]) -> list[Binding]:
    """A ruleset's acts as bindings; the footer shows those it shows that can be done now
    (from FOLD of them on, as one entry: see `CombatScreen.footer`)."""
    return [Binding(c.key, f"command('{c.id}')", c.label, show=c.show) for c in commands]


def combat_screen(table: Table, setup: bool = False) -> CombatScreen:
    """A combat screen with the ruleset's own keys bound: its declaration keys (a–g and
    p, or count-up's action keys) and its commands (morale, fire ...)."""
    declaring = table.fight.ruleset.role(Declaring)
    kinds = [kind for kind in declaring.actions() if kind.hotkey] if declaring else []
    every = ",".join(kind.hotkey for kind in kinds)
    keys = [Binding(kind.hotkey, f"declare('{kind.key}')",
                    "Declare" if number == 0 else f"declare {kind.key}", show=number == 0,
                    key_display=every if number == 0 else None)
            for number, kind in enumerate(kinds)]
    keys += command_keys([act for act in table.acts() if act.key])
    screen_class = type("RulesetCombatScreen", (CombatScreen,), {"BINDINGS": keys + BINDINGS})
    return screen_class(table, setup)
