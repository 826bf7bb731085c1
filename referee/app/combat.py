"""The combat screen: tracker, plan and log, and a key for everything a referee does."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from referee.engine import Combatant, RefereeError, Weapon
from referee.engine import events as ev
from referee.engine.plan import Plan
from referee.session.replay import chronicle, describe
from referee.session.store import SaveError
from referee.session.table import DeclarationClock, Table

from .widgets import LogView, PlanView, StatusLine, Tracker
from .widgets.keys import KeyLine, working_keys

# Keys that are not declaration keys; the ruleset's action keys are added per fight.
BINDINGS = [
    Binding("i", "roll_initiative", "Roll init"),
    Binding("I", "enter_initiative", "Type init", show=False),
    Binding("n", "next_beat", "Next beat"),
    Binding("h", "hit", "Hit/damage"),
    Binding("m", "miss", "Miss"),
    Binding("plus", "heal", "Heal", show=False),
    Binding("exclamation_mark", "condition", "Condition", show=False),
    Binding("F", "fire", "Fire prepared", show=False),
    Binding("r", "next_round", "Next round"),
    Binding("M", "morale", "Morale", show=False),
    Binding("j", "join", "Join", show=False),
    Binding("ctrl+z", "undo", "Undo"),
    Binding("ctrl+y", "redo", "Redo"),
    Binding("ctrl+s", "save_as", "Save as", show=False),
    Binding("ctrl+o", "open", "Open", show=False),
    Binding("ctrl+e", "setup", "Set up", show=False),
    Binding("R", "replay", "Replay", show=False),
    Binding("question_mark", "help", "Help"),
]


def forms():  # noqa: ANN201 - imported when a form opens, not at start-up
    from . import forms as module

    return module


class CombatScreen(Screen):
    BINDINGS = BINDINGS

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self.told: list[str] = []  # each new event told as it is applied (an observer)
        self.watching = None


    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield Tracker(id="tracker")
        yield PlanView(id="plan")
        yield LogView(id="log")
        yield KeyLine(id="keys")

    def on_mount(self) -> None:
        self.title = "referee"
        self.reload()
        if self.table.session.warning:
            self.notify(self.table.session.warning, title="Recovered a torn save",
                        severity="warning", timeout=30)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that work right now are shown in the footer."""
        fight = self.table.fight
        round_ = max(fight.round, 1)
        rolled = round_ in fight.initiatives or (fight.ruleset.id == "count-up" and fight.base)
        if action in ("roll_initiative", "enter_initiative"):
            return not rolled
        if action in ("next_beat", "hit", "miss", "fire"):
            return bool(rolled) and self.table.current_beat() is not None
        if action == "declare":
            return bool(self.table.undeclared())
        if action == "undo":
            return bool(fight.batches)
        if action == "redo":
            return bool(fight.undone)
        return True

    def reload(self) -> None:
        """Everything drawn afresh from the session: on opening, and after set-up."""
        story = chronicle_of(self.table)
        fight = self.table.fight
        if self.watching is not None and self.tell in self.watching.observers:
            self.watching.observers.remove(self.tell)
        fight.observers.append(self.tell)
        self.watching = fight
        self.query_one(LogView).show_all([f"{n:>5}. {text}" for n, _, text in story.lines])
        self.refresh_view()
        self.query_one(Tracker).focus()
        self.point_at_work()

    def point_at_work(self) -> None:
        """The cursor on who acts now: the current beat's first actor, else the next
        combatant to declare."""
        plan, beat = self.plan(), self.table.current_beat()
        if plan is not None and beat is not None and self.table.fight.initiatives:
            self.query_one(Tracker).select(plan.beats[beat - 1].actions[0].actor)
            return
        waiting = self.table.next_undeclared()
        if waiting is not None:
            self.query_one(Tracker).select(waiting)

    # -- refreshing ---------------------------------------------------------------------

    def plan(self) -> Plan | None:
        try:
            return self.table.plan()
        except RefereeError as error:
            self.notify(str(error), severity="error")
            return None

    def refresh_view(self, clock: str = "") -> None:
        fight = self.table.fight
        plan = self.plan()
        resolved = fight.resolved.get(max(fight.round, 1), 0)
        current: set[str] = set()
        if plan is not None and resolved < len(plan.beats):
            current = {a.actor for a in plan.beats[resolved].actions}
        self.query_one(StatusLine).show(fight, self.table.session.encounter.title,
                                        clock or self.table.session.path.name)
        self.query_one(Tracker).show(fight, plan, current)
        self.query_one(PlanView).show(plan, resolved)
        self.sub_title = str(self.table.session.path)
        bindings = list(type(self).BINDINGS) + list(type(self.app).BINDINGS)
        self.query_one(KeyLine).show(working_keys(self, bindings))

    def tell(self, fight, event: ev.Event) -> None:
        """An observer of the fight: each event told against the state just before it."""
        self.told.append(f"{len(fight.log) + 1:>5}. {describe(fight, event)}")

    def logged(self, events: list[ev.Event]) -> None:
        """New events in the log pane, as the observer told them."""
        lines, self.told = self.told, []
        self.query_one(LogView).add(lines)
        for event in events:
            if isinstance(event, (ev.SpellLost, ev.Death)):
                self.notify(describe(self.table.fight, event), severity="warning")
        self.refresh_view()

    def attempt(self, work: Any, *args: Any, **kwargs: Any) -> list[ev.Event]:
        """Run a table operation; a refusal or a failed save is shown, never a crash."""
        try:
            events = work(*args, **kwargs)
        except (RefereeError, SaveError, ValueError) as error:
            self.told.clear()  # whatever was told of events not kept
            self.notify(str(error), title="Not done", severity="error", timeout=8)
            return []
        self.logged(events)
        return events

    # -- declaring ----------------------------------------------------------------------

    def selected(self) -> str | None:
        return self.query_one(Tracker).selected()

    def action_declare(self, action: str) -> None:
        actor = self.selected()
        if actor is None:
            return
        table = self.table
        if not table.fight.alive(actor):
            self.notify(f"{actor} is dead", severity="error")
            return
        kind = next(k for k in table.fight.ruleset.actions() if k.key == action)
        clock = (DeclarationClock(self.app.clock) if table.fight.ruleset.id == "demon-idol"
                 else None)
        title = f"{table.fight.roster[actor].name} declares {action} — {kind.name}"
        form = forms().DeclareForm(title, forms().declare_fields(table, actor, action), clock)

        def done(values: dict[str, Any] | None) -> None:
            if values is None:
                return
            chosen = forms().clean(values)
            if self.attempt(table.declare, actor, action, **chosen):
                following = table.next_undeclared(actor)
                if following is not None:
                    self.query_one(Tracker).select(following)

        self.app.push_screen(form, done)

    # -- initiative ---------------------------------------------------------------------

    def action_roll_initiative(self) -> None:
        self.attempt(self.table.roll_initiative)
        self.point_at_work()

    def action_enter_initiative(self) -> None:
        fields = forms().initiative_fields(self.table)

        def done(values: dict[str, Any] | None) -> None:
            if values and all(v is not None for v in values.values()):
                self.attempt(self.table.enter_initiative, values)
                self.point_at_work()

        self.app.push_screen(forms().Form("Initiative from real dice", fields,
                                        focus=forms().first_text(fields)), done)

    # -- resolving ----------------------------------------------------------------------

    def action_next_beat(self) -> None:
        if self.table.current_beat() is None:
            self.notify("every beat is resolved: r starts the next round")
            return
        self.attempt(self.table.resolve_next)
        self.point_at_work()

    def declared_target(self) -> str | None:
        actor = self.selected()
        declaration = self.table.declared().get(actor or "")
        if declaration is not None and declaration.target:
            return declaration.target[0]
        return None

    def action_hit(self) -> None:
        source = self.selected()
        fields = forms().damage_fields(self.table, self.declared_target())

        def done(values: dict[str, Any] | None) -> None:
            if not values or not values.get("target") or not values.get("amount"):
                return
            text = str(values["amount"])
            amount: int | str = int(text) if text.lstrip("-").isdigit() else text
            self.attempt(self.table.damage, values["target"], amount, source=source,
                         critical=bool(values.get("critical")))

        who = self.table.fight.roster[source].name if source else "A hit"
        self.app.push_screen(forms().Form(f"{who} hits: damage", fields, focus="amount"), done)

    def action_miss(self) -> None:
        actor = self.selected()
        if actor is None:
            return
        self.attempt(self.table.miss, actor, self.declared_target())

    def action_heal(self) -> None:
        def done(values: dict[str, Any] | None) -> None:
            if values and values.get("target") and values.get("amount") is not None:
                self.attempt(self.table.heal, values["target"], values["amount"],
                             bool(values.get("stabilize")))

        fields = forms().heal_fields(self.table, self.selected())
        self.app.push_screen(forms().Form("Heal", fields, focus="amount"), done)

    def action_condition(self) -> None:
        def done(values: dict[str, Any] | None) -> None:
            if values and values.get("target") and values.get("name"):
                self.attempt(self.table.condition, values["target"], values["name"],
                             values.get("rounds"))

        fields = forms().condition_fields(self.table, self.declared_target() or self.selected())
        self.app.push_screen(forms().Form("Condition", fields, focus="name"), done)

    def action_fire(self) -> None:
        actor = self.selected()
        if actor is None:
            return
        plan, beat = self.plan(), self.table.current_beat()
        before = None
        if plan is not None and beat is not None:
            before = plan.beats[beat - 1].actions[0].actor
        self.attempt(self.table.fire, actor, before)

    def action_next_round(self) -> None:
        due = self.table.morale_due()
        self.attempt(self.table.next_round)
        self.point_at_work()
        for cid, why in due:
            self.notify(f"{self.table.fight.roster[cid].name}: {why} — M rolls morale",
                        title="Morale check due (CU-6)", severity="warning")

    def action_morale(self) -> None:
        actor = self.selected()
        if actor is None:
            return
        if self.table.fight.ruleset.id == "count-up":
            self.attempt(self.table.roll_morale, actor)
            return
        side = self.table.fight.roster[actor].side
        fields = forms().morale_fields(self.table, actor, side)

        def done(values: dict[str, Any] | None) -> None:
            if values:
                self.attempt(self.table.morale, (values["group"],), values["passed"],
                             values.get("roll"), values.get("target"), values.get("avoid"))

        self.app.push_screen(forms().Form("Morale (DI-18)", fields, focus="roll"), done)

    def action_join(self) -> None:
        def done(values: dict[str, Any] | None) -> None:
            if not values or not values.get("id") or values.get("hp") is None:
                return
            weapon = values.get("weapon")
            speed = values.get("speed")
            weapons = ()
            if weapon:
                weapons = ((Weapon(weapon, speed=speed or 0),)
                           if self.table.fight.ruleset.id == "count-up"
                           else (Weapon(weapon, speed_factor=speed),))
            combatant = Combatant(values["id"], values.get("name") or values["id"],
                                  values["side"], values["hp"], values["hp"], weapons=weapons)
            self.attempt(self.table.join, combatant, values.get("at_count"),
                         values.get("base"))

        self.app.push_screen(forms().Form("A combatant joins", forms().join_fields(self.table)),
                             done)

    # -- files, history and the rest ------------------------------------------------------

    def action_undo(self) -> None:
        self.attempt(self.table.undo)

    def action_redo(self) -> None:
        self.attempt(self.table.redo)

    def action_save_as(self) -> None:
        self.app.action_save_as()

    def action_open(self) -> None:
        self.app.action_open()

    def action_setup(self) -> None:
        self.app.action_setup()

    def action_replay(self) -> None:
        self.app.action_replay()

    def action_help(self) -> None:
        self.app.action_help()


def chronicle_of(table: Table) -> Any:
    from referee.session.files import Save

    session = table.session
    save = Save(session.path, "", session.encounter, session.fight.ruleset, session.fight)
    return chronicle(save)


def combat_screen(table: Table) -> CombatScreen:
    """A combat screen with the ruleset's own declaration keys bound: a–g and p for
    demon-idol, count-up's action keys."""
    kinds = [kind for kind in table.fight.ruleset.actions() if kind.hotkey]
    every = ",".join(kind.hotkey for kind in kinds)
    keys = [Binding(kind.hotkey, f"declare('{kind.key}')",
                    "Declare" if number == 0 else f"declare {kind.key}", show=number == 0,
                    key_display=every if number == 0 else None)
            for number, kind in enumerate(kinds)]
    screen_class = type("RulesetCombatScreen", (CombatScreen,), {"BINDINGS": keys + BINDINGS})
    return screen_class(table)
