"""The combat screen: tracker, plan and log, and a key for everything a referee does.

The screen lays out widgets and dispatches keys. Every table operation is an act of the
table's one list (`Table.acts()`: the core's, the ruleset's declarations, its own acts):
the screen binds each act's key, shows on the footer those that can be done now, asks
its forms and hands the answers to the table; it holds no rule. Widgets tell the screen
what happened through messages, never by reaching into each other. An act's events are
drawn as it is done, while the form that asked it is still open: its closing then draws
the screen once, with everything in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message

from referee.engine import RefereeError
from referee.engine import events as ev
from referee.engine.plan import Plan
from referee.engine.specs import Act, Form
from referee.engine.text import shown as safe
from referee.session import view
from referee.session.replay import chronicle_lines
from referee.session.store import SaveError
from referee.session.table import DeclarationClock, Table
from referee.session.view import LogLine

from .collector import COLLECTOR
from .filing import Filing
from .refusal import Refused, refused
from .widgets import LogView, PlanView, StatusLine, Tracker
from .widgets.keys import KeyLine, working_keys

if TYPE_CHECKING:
    from textual import getters

    from referee.engine.specs import Followed

    from .forms import Follow
    from .host import HostApp

# The screen's own keys: files and the rest of the app. The table's acts are bound per
# fight (`combat_screen`), before these.
BINDINGS: list[BindingType] = [
    Binding("ctrl+s", "save_as", "Save as", show=False),
    Binding("ctrl+o", "open", "Open", show=False),
    Binding("ctrl+e", "setup", "Set up", show=False),
    Binding("R", "replay", "Replay", show=False),
    Binding("V", "serve", "Players' view", show=False),
    Binding("W", "party", "Write the party"),
    Binding("question_mark", "help", "Help"),
]
FIRST = ("moving", "declare")  # the acts that move the fight on: first on the footer
FOLD = 3  # a ruleset's shown acts fold into one footer entry from this many on


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


class CombatScreen(Filing):
    if TYPE_CHECKING:
        app = getters.app(HostApp)

    BINDINGS = BINDINGS
    # Its widgets cover it whole: its own background is never seen, and drawing it (a
    # screen's worth of lines, after every form closes) cost more than the widgets did.
    BLANK = True

    def __init__(self, table: Table, setup: bool = False,
                 told: list[LogLine] | None = None) -> None:
        super().__init__()
        self.table = table
        self.told = told  # the log's lines as the load told them (None: told on mount)
        self.start_in_setup = setup
        self.shown_acts: dict[str, Act] = {}  # while the footer is worked out
        self.shown_actor: str | None = None  # the combatant under the cursor, meanwhile
        self.collecting = False  # a collection at rest is asked for (`refresh_view`)
        self.refreshing = False  # the view is being drawn (`refresh_view`)

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield Tracker(id="tracker")
        yield PlanView(id="plan")
        yield LogView(id="log")
        yield KeyLine(id="keys")

    def on_mount(self) -> None:
        self.title = "referee"
        # the acts on the footer are those the combatant under the cursor can do
        self.watch(self.query_one(Tracker), "cursor", self.cursor_moved, init=False)
        self.reload()
        if self.table.session.warning:
            self.notify(self.table.session.warning, title="Recovered a torn save",
                        severity="warning", timeout=30)
        if self.start_in_setup:
            self.action_setup()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key pressed: one that does nothing now says why (a notice), never silence
        (an act says it as it is dispatched)."""
        why = self.why_not(action)
        if why:
            self.notify(why, title="Not now", severity="warning", timeout=6)
            return False
        return True

    def offers(self, action: str, parameters: tuple[object, ...]) -> bool:
        """Only the keys that work right now are shown in the footer."""
        if action == "command":
            shown = self.shown_acts
            acts = shown or {a.id: a for a in self.table.acts()}
            act = acts.get(str(parameters[0])) if parameters else None
            actor = self.shown_actor if shown else self.selected()
            return act is not None and self.table.offered(act, actor)
        return not self.why_not(action)

    def why_not(self, action: str) -> str:
        if action == "party":  # the fight's end: the party carries over to the next
            return "" if self.table.fight.ended else \
                "the party is written once the fight is over (E)"
        return ""

    def reload(self) -> None:
        """Everything drawn afresh from the session: on opening, and after set-up."""
        self.table.told()
        told, self.told = self.told, None
        if told is None or len(told) != len(self.table.fight.log):
            told = chronicle_lines(self.table)
        self.query_one(LogView).show_all([str(line) for line in told])
        self.refresh_view()
        self.query_one(Tracker).focus()
        self.point_at_work()

    def point_at_work(self) -> None:
        """The cursor on who acts (or declares) now, as the table says."""
        waiting = self.table.working()
        if waiting is not None:
            self.query_one(Tracker).select(waiting)

    def cursor_after(self, after: str, acting: list[str], actor: str | None) -> str | None:
        """Where the cursor goes once an act is done (`Act.after`): who acts or declares
        now, the next to declare, or None (it stays)."""
        if after == "work" or (after == "follow" and self.table.acting() != acting):
            return self.table.working()
        if after == "declare":
            following = self.table.next_undeclared(actor)
            return self.table.working() if following is None else following
        return None

    # -- refreshing ---------------------------------------------------------------------

    def plan(self) -> Plan | None:
        try:
            return self.table.plan()
        except RefereeError as error:
            self.notify(str(error), severity="error")
            return None

    def refresh_view(self, cursor: Callable[[], str | None] | None = None) -> None:
        """Everything drawn from the fight; `cursor`: where the tracker's cursor goes
        (asked as the tracker is drawn: the cursor moves before its rows are worked out,
        so those worked out are the ones in view after it moves)."""
        table = self.table
        plan = self.plan()
        shown = view.build(table.fight, plan, table.session.encounter.title, rows=False)
        self.query_one(StatusLine).show(with_pages(self.app, shown.status),
                                        safe(table.session.path.name))
        tracker = self.query_one(Tracker)
        tracker.deciding = deciding(self.app)
        self.refreshing = True  # the cursor moved meanwhile: the footer is asked below
        try:
            tracker.show(table.fight, plan, shown.acting, cursor)
        finally:
            self.refreshing = False
        self.query_one(PlanView).show(shown.plan, shown.current)
        self.sub_title = safe(str(table.session.path))
        keys = self.query_one(KeyLine)
        if self.is_current:  # the keys worked out now: the same keys are not drawn again
            keys.show(self.footer())
        else:  # under a form: once it is drawn
            keys.offer(self.footer)
        if not self.collecting:  # what the change made is collected once it is drawn
            self.collecting = True
            self.call_after_refresh(self.collect)

    def collect(self) -> None:
        self.collecting = False
        COLLECTOR.at_rest()

    def cursor_moved(self) -> None:
        if not self.refreshing:
            self.query_one(KeyLine).offer(self.footer)

    def footer(self) -> list[tuple[str, str]]:
        """The keys that work now: the acts that move the fight on first, then the
        ruleset's acts that can be done now (from FOLD of them, one entry: its letters,
        "Act"; `?` says what each does), then the rest."""
        # these screens and the app bind Binding objects only, never (key, action) tuples
        bindings = cast("list[Binding]", list(type(self).BINDINGS) +
                        list(type(self.app).BINDINGS))
        # the table's acts made once for the whole footer (each binding asks of its own)
        self.shown_acts = {a.id: a for a in self.table.acts()}
        self.shown_actor = self.selected()
        try:
            places = {f"command('{a.id}')": a.place for a in self.shown_acts.values()}
            place = [places.get(b.action) for b in bindings]
            moving = [b for b, at in zip(bindings, place, strict=True) if at in FIRST]
            own = [b for b, at in zip(bindings, place, strict=True) if at == "act"]
            rest = [b for b, at in zip(bindings, place, strict=True)
                    if at not in FIRST and at != "act"]
            offered = working_keys(self, own)
            if len(offered) >= FOLD:
                offered = [(",".join(key for key, _ in offered), "Act")]
            return working_keys(self, moving) + offered + working_keys(self, rest)
        finally:
            self.shown_acts, self.shown_actor = {}, None

    def shown_appended(self, lines: list[LogLine],
                       cursor: Callable[[], str | None] | None = None) -> None:
        """Events are on disk: their log lines and the view drawn at once, while a form
        that made them is still open, so that its closing draws the screen once with
        everything in it (drawn later, the tracker, plan and log were drawn a second
        time, a frame after the form's); `cursor`: where the tracker's cursor goes."""
        self.query_one(LogView).add([str(line) for line in lines])
        self.refresh_view(cursor)

    def on_events_appended(self, message: EventsAppended) -> None:
        """What the rules announced, after what the act itself says."""
        for event, line in zip(message.events, message.lines, strict=False):
            if event.follows and event.ANNOUNCED:
                self.notify(line.text, severity="warning", markup=False)

    # -- doing --------------------------------------------------------------------------

    def attempt(self, work: Callable[..., list[ev.Event]], *args: Any,
                cursor: Callable[[], str | None] | None = None,
                **kwargs: Any) -> list[ev.Event] | None:
        """Run a table operation; a refusal or a failed save is shown, never a crash
        (None: refused)."""
        try:
            return self.apply(work, *args, cursor=cursor, **kwargs)
        except Refused as refusal:
            self.notify(refusal.message, title="Not done", severity="error", timeout=8)
            return None

    def apply(self, work: Callable[..., list[ev.Event]], *args: Any,
              cursor: Callable[[], str | None] | None = None,
              **kwargs: Any) -> list[ev.Event]:
        """Run a table operation for a form: a refusal or a failed save raises Refused,
        and the form stays open with what was typed. Done, the tracker's cursor goes
        where `cursor` says (refused, it stays)."""
        try:
            events = work(*args, **kwargs)
        except (RefereeError, SaveError, OSError, ValueError) as error:
            # The session rolled back to what the file holds: an act's events already on
            # disk (a roll before what it decided) stay shown, the rest told is dropped.
            kept = len(self.table.fight.log)
            self.shown_appended([line for line in self.table.told() if line.number <= kept])
            raise refused(error) from None
        lines = self.table.told()
        self.shown_appended(lines, cursor)
        if any(event.follows and event.ANNOUNCED for event in events):
            self.post_message(EventsAppended(events, lines))
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

    def selected(self) -> str | None:
        return self.query_one(Tracker).combatant()

    def action_command(self, act_id: str) -> None:
        """An act's key: refused in its own words, or its questions asked (a form asked
        first, then its own form), then done by the table."""
        act = self.table.act(act_id)
        actor = self.selected()
        why = act.allowed(self.table.fight, actor)
        if why:
            self.notify(why, title="Not now", severity="warning", timeout=6)
            return
        if act.reports:  # shown on a screen of its own; nothing is written
            spec = act.form(self.table.fight, actor)
            if spec is None:
                self.show_report(act, {})
            else:
                self.ask_then(spec, lambda values: self.show_report(act, values))
            return
        first = act.first(self.table.fight, actor)
        if first is None:
            self.answer(act, actor, {})
        else:
            self.ask_then(first, lambda values: self.answer(act, actor, values))

    def answer(self, act: Act, actor: str | None, given: dict[str, Any]) -> None:
        """The act's own form asked (given what was answered first) and done; a `sure`
        left no does nothing."""
        if given.get("sure") is False:
            return
        table = self.table
        spec = act.form(table.fight, actor)
        if spec is None:
            self.done(act, actor, {**table.moment(), **given}, lenient=True)
            return
        clock = DeclarationClock(self.app.clock, spec.clock.every) if spec.clock else None
        running = table.clock_runs(actor) if actor in table.fight.roster else True

        def follow(values: dict[str, Any], changed: str) -> Followed:
            assert act.follow is not None
            return act.follow(table.fight, actor, values, changed)

        def done(values: dict[str, Any]) -> None:
            self.done(act, actor, {**given, **values})

        self.ask(spec, done, clock, running, follow if act.follow else None)

    def done(self, act: Act, actor: str | None, values: dict[str, Any],
             lenient: bool = False) -> None:
        """The act done by the table (`lenient`: a refusal is a notice, else it keeps the
        form open), then the cursor goes where the act says."""
        acting = self.table.acting()
        notices = act.notices(self.table.fight) if act.notices else []

        def cursor() -> str | None:
            return self.cursor_after(act.after, acting, actor)

        if lenient:
            if self.attempt(self.table.do, act, actor, values, cursor=cursor) is None:
                return
        else:
            self.apply(self.table.do, act, actor, values, cursor=cursor)
        for title, text in notices:
            self.notify(text, title=title, severity="warning")

    def show_report(self, act: Act, values: dict[str, Any]) -> None:
        from .report import ReportScreen

        self.app.push_screen(ReportScreen(act.label, self.table.reporter(act, values),
                                          self.table.write_run))


def deciding(app: object) -> frozenset[str]:
    """The players deciding on their own pages now (none unless the pages are served)."""
    from .phones import desk_of

    desk = desk_of(app)
    return frozenset(desk.deciding()) if desk is not None else frozenset()


def with_pages(app: object, status: str) -> str:
    """The status, with who declared from their own page and who is deciding there while
    the players' pages are served."""
    from .phones import phones_note

    note = phones_note(app)
    return f"{status} · {note}" if note else status


def act_keys(acts: list[Act]) -> list[Binding]:
    """The table's acts as bindings: the declarations first (one footer entry showing all
    their letters), then the ruleset's own acts, then the core's, in the table's order."""
    declarations = [a for a in acts if a.place == "declare" and a.key]
    every = ",".join(a.key for a in declarations)
    keys = [Binding(a.key, f"command('{a.id}')",
                    "Declare" if number == 0 else a.label.lower(), show=number == 0,
                    key_display=every if number == 0 else None)
            for number, a in enumerate(declarations)]
    ordered = [a for a in acts if a.place == "act"] + \
        [a for a in acts if a.place not in ("act", "declare")]
    return keys + [Binding(a.key, f"command('{a.id}')", a.label, show=a.show)
                   for a in ordered if a.key]


def combat_screen(table: Table, setup: bool = False,
                  told: list[LogLine] | None = None) -> CombatScreen:
    """A combat screen with the table's acts bound: the core's keys, the ruleset's
    declaration keys (a–g and p, or count-up's action keys) and its own acts (morale,
    fire ...). `told`: the log's lines, as the load told them."""
    keys = tuple(act_keys(table.acts()))
    screen_class = _SCREENS.get(keys)
    if screen_class is None:  # one class a set of keys: Textual's class caches keep each
        screen_class = _SCREENS[keys] = type("RulesetCombatScreen", (CombatScreen,),
                                             {"BINDINGS": [*keys, *BINDINGS]})
    return screen_class(table, setup, told)


_SCREENS: dict[tuple[Binding, ...], type[CombatScreen]] = {}  # combat_screen's classes
