"""Forms built from the engine's UI-neutral `Form` specs (as trogon builds them from a
schema): the widget is picked by the field's kind, keyed by its name, and values are
read back by that key. Enter confirms, Escape cancels, arrows move between fields and
change a choice. Nothing typed is dropped silently: a value that does not fit its field
is refused with a message, and so is a form with a required field left blank. An answer
the fight then refuses (the target has left, a rule forbids it) keeps the form open too:
the message beside the field at fault, everything as typed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.markup import escape
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.timer import Timer
from textual.widgets import Input, Label, Static

from referee.engine.specs import Field, Followed, Form
from referee.engine.text import control, shown
from referee.session.roster import completed
from referee.session.table import DeclarationClock

from .refusal import Refused
from .steady import Steady
from .widgets.choice import Choice

HINT = "Enter confirms · Esc cancels · ↑/↓ fields · ←/→ change a choice"
LABEL, LABEL_MOST = 24, 36  # a form's label column: its narrowest, its widest
FORM_WIDTH = 72  # #form's width in app.tcss


class FieldError(ValueError):
    """A value that does not fit its field (or a required one left blank)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


Apply = Callable[[dict[str, Any]], object]


# A form whose fields follow one another: given the fields as they stand (unchecked: a
# choice's value, a box's text) and the name of the one that changed, what follows.
Follow = Callable[[dict[str, Any], str], Followed]


class FormScreen(Steady, ModalScreen[dict[str, Any] | None]):
    """A column of fields; the result is a dict of their values, or None if cancelled."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "submit", "Confirm"),
        # priority: an Input would keep the arrows to itself
        Binding("down", "app.focus_next", "Next field", show=False, priority=True),
        Binding("up", "app.focus_previous", "Previous field", show=False, priority=True),
    ]

    def __init__(self, spec: Form, apply: Apply | None = None,
                 follow: Follow | None = None) -> None:
        super().__init__()
        self.spec = spec
        self.apply = apply  # run on Enter before the form closes; Refused keeps it open
        self.follow = follow
        # what each field was last given by the form itself: one the referee changed is
        # theirs, never given a new default
        self.given: dict[str, Any] = {f.name: f.default for f in spec.fields}
        self.seen: dict[str, Any] = {}  # the fields as `follow` last saw them

    def compose(self) -> ComposeResult:
        # as wide as the longest label (within bounds): one never runs into its value
        width = max(LABEL, min(LABEL_MOST, 1 + max((len(f.title) for f in self.spec.fields),
                                                   default=0)))
        with Vertical(id="form"):
            yield Label(self.spec.title, id="form-title")
            for field in self.spec.fields:
                below = placed_below(field, width)
                with Horizontal(classes="row", id=f"row-{field.name}"):
                    label = Label(field.title, classes="label")
                    label.styles.width = width
                    yield label
                    yield widget(field, placeholder=not below)
                if below:  # a placeholder this long would be cut: read whole under the field
                    note = Static(escape(field.help), classes="field-help")
                    note.styles.padding = (0, 0, 0, width)
                    yield note
            yield Static("", id="form-extra")
            yield Label(self.spec.hint or HINT, id="form-hint")

    def on_mount(self) -> None:
        start = self.spec.focus or (self.spec.fields[0].name if self.spec.fields else None)
        if start is not None:
            # at once, not after a refresh: a key typed as the form opens goes to the field
            self.set_focus(self.query_one(f"#f-{start}"))
        self.seen = self.raw()

    def on_key(self, event: events.Key) -> None:
        """A character typed before the first field had the focus reached the form itself
        (an Input keeps every character it is given): the field gets it, as typed."""
        if event.is_printable and isinstance(self.focused, Input):
            event.stop()
            self.focused.post_message(events.Key(event.key, event.character))

    def on_choice_changed(self) -> None:
        self.refollow()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.refollow()

    def refollow(self) -> None:
        """A field changed: what follows it follows (a hit by another attacker: the
        title, its weapon's damage, its target; a D's spell picked: the weapon blanks),
        and what follows that in turn, until nothing more changes."""
        if self.follow is None or not self.seen:  # not yet open: nothing changed yet
            return
        for _ in range(len(self.spec.fields) + 1):  # a bound: each pass settles a field
            now = self.raw()
            changed = [name for name, value in now.items() if value != self.seen.get(name)]
            self.seen = now
            if not changed:
                return
            for name in changed:
                self.show_followed(self.follow(self.raw(), name))

    def show_followed(self, followed: Followed) -> None:
        if followed.title is not None:
            self.query_one("#form-title", Label).update(followed.title)
        for name, value in followed.values.items():
            self.put(name, value)
        for name, value in followed.defaults.items():
            if name in self.given and self.untouched(name):
                self.put(name, value)

    def untouched(self, name: str) -> bool:
        """Whether field `name` holds what the form itself last gave it."""
        found = self.query(f"#f-{name}")
        box = found.first() if found else None
        given = self.given.get(name)
        if isinstance(box, Input):
            return box.value == ("" if given is None else str(given))
        return isinstance(box, Choice) and box.value == given

    def put(self, name: str, value: Any) -> None:
        """Field `name` shows `value` (a choice without that option keeps its own)."""
        found = self.query(f"#f-{name}")
        box = found.first() if found else None
        if isinstance(box, Input):
            box.value = "" if value is None else str(value)
        elif isinstance(box, Choice):
            try:
                box.value = value
            except ValueError:  # not one of its options
                return
        else:
            return
        self.given[name] = value

    def raw(self) -> dict[str, Any]:
        """Each field's value as it stands, unchecked (a choice's value, a box's text)."""
        out: dict[str, Any] = {}
        for field in self.spec.fields:
            found = self.query_one(f"#f-{field.name}")
            out[field.name] = found.value if isinstance(found, (Choice, Input)) else None
        return out

    def values(self) -> dict[str, Any]:
        """Each field's value by its name; raises ValueError saying what does not fit."""
        out: dict[str, Any] = {}
        for field in self.spec.fields:
            found = self.query_one(f"#f-{field.name}")
            try:
                out[field.name] = found.value if isinstance(found, Choice) else read_text(
                    field, found.value if isinstance(found, Input) else "")
            except ValueError as error:
                raise FieldError(str(error), field.name) from None
        missing = [f for f in self.spec.fields if f.required and out.get(f.name) in (None, "")]
        if missing:
            raise FieldError(f"missing: {', '.join(f.title for f in missing)}",
                             missing[0].name)
        return out

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        values = self.answer()
        if values is not None:
            self.dismiss(values)

    def answer(self) -> dict[str, Any] | None:
        """The values, applied if the form applies them; None (the form stays open, the
        reason beside the field at fault) if they do not fit or applying them was refused."""
        try:
            values = self.values()
        except FieldError as error:
            self.show_fault(str(error), error.field)
            return None
        if self.apply is not None:
            try:
                self.apply(values)
            except Refused as refusal:
                self.show_fault(refusal.message, refusal.field)
                return None
        return values

    def show_fault(self, message: str, field: str | None) -> None:
        """The message under the field at fault (else under the last field), which gets
        the focus; an earlier message goes."""
        names = [f.name for f in self.spec.fields]
        at = field if field in names else (names[-1] if names else None)
        where = "#form-title" if at is None else f"#row-{at}"
        text = f"[b red]{escape(message)}[/]"
        form = self.query_one("#form")
        found = self.query("#form-fault")
        if found:
            note = found.first(Static)
            note.update(text)
            form.move_child(note, after=form.query_one(where))
        else:
            form.mount(Static(text, classes="fault", id="form-fault"), after=where)
        if field in names:
            self.query_one(f"#f-{field}").focus()

    def fault(self) -> str:
        """The message shown beside a field, if any."""
        found = self.query("#form-fault")
        return str(found.first(Static).render()) if found else ""

    def action_cancel(self) -> None:
        self.dismiss(None)


def widget(field: Field, placeholder: bool = True) -> Input | Choice:
    if field.kind == "choice":
        return Choice(list(field.options), field.default, id=f"f-{field.name}")
    if field.kind == "bool":
        return Choice([("no", False), ("yes", True)], bool(field.default), id=f"f-{field.name}")
    text = "" if field.default is None else str(field.default)
    suggester = Entries(field.suggest) if field.suggest else None
    return Input(text, id=f"f-{field.name}", placeholder=field.help if placeholder else "",
                 suggester=suggester)


class Entries(Suggester):
    """A catalogue's entries offered as one types: the part after the last ";" is matched
    by the start of an entry's name (any case), and → takes the whole entry, its numbers
    with it, still editable."""

    def __init__(self, entries: tuple[str, ...]) -> None:
        super().__init__(use_cache=True, case_sensitive=True)
        self.entries = entries

    async def get_suggestion(self, value: str) -> str | None:
        return completed(value, self.entries)


def placed_below(field: Field, label_width: int) -> bool:
    """Whether a typed field's help is too long for its input's placeholder (the box is
    FORM_WIDTH wide, less its border and padding, less the label column)."""
    room = FORM_WIDTH - 4 - label_width
    return field.kind not in ("choice", "bool") and len(field.help) > room


def read_text(field: Field, raw: str) -> Any:
    """A typed field's text as its kind: blank is None; anything that does not fit is
    refused by name (never dropped)."""
    text = raw.strip()
    if not text:
        return None
    found = control(text)  # a pasted escape sequence never reaches a name or the save
    if found is not None:
        raise ValueError(f"{field.title}: a control character ({shown(found)}) is not allowed")
    if field.kind == "int":
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{field.title}: a whole number, not {text!r}") from None
        if field.minimum is not None and value < field.minimum:
            raise ValueError(f"{field.title}: at least {field.minimum}, not {value}")
        return value
    if field.kind == "number":
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"{field.title}: a number, not {text!r}") from None
    return text


class ClockForm(FormScreen):
    """A form under its `Timer` (demon-idol's declaration, DI-16): the clock runs from
    the moment the form opens until the referee's first key in it (the player has
    decided), or `ctrl+t` stops and starts it by hand; what it shows is always what it
    will count."""

    BINDINGS = [Binding("ctrl+t", "clock", "Clock on/off")]

    def __init__(self, spec: Form, clock: DeclarationClock, apply: Apply | None = None,
                 running: bool = True, follow: Follow | None = None) -> None:
        super().__init__(spec, apply, follow)
        self.clock = clock
        self.running = running  # off for a side the referee runs: ctrl+t starts it
        self.touched = not running
        self.ready = False  # the form's own first focus is not the referee's doing
        self.ticking: Timer | None = None

    def on_mount(self) -> None:
        super().on_mount()
        self.clock.start()
        if not self.running:
            self.clock.pause()
        self.tick()
        self.ticking = self.set_interval(0.5, self.tick)
        self.call_after_refresh(self.settle)

    def settle(self) -> None:
        self.ready = True

    def on_screen_suspend(self) -> None:
        if self.ticking is not None:  # closed (kept installed), or under another screen
            self.ticking.pause()

    def on_screen_resume(self) -> None:
        if self.ticking is not None:
            self.ticking.resume()

    def on_key(self, event: Any) -> None:
        if event.key == "enter":  # the answer: the clock stops, shown only if the form
            self.touched = True   # stays open (a frame of a closing form is wasted)
            self.clock.pause()
        elif event.key != "ctrl+t":
            self.entered()

    def on_descendant_focus(self) -> None:
        """Moving between fields (the arrows are the screen's, not a field's keys) is the
        referee at work: the player has decided."""
        if self.ready and self.is_current:
            self.entered()

    def on_input_changed(self, event: Input.Changed) -> None:
        field = next((f for f in self.spec.fields if f"f-{f.name}" == event.input.id), None)
        initial = "" if field is None or field.default is None else str(field.default)
        if event.value != initial:  # not the value the form opened with
            self.entered()

    def on_choice_changed(self) -> None:
        self.entered()

    def entered(self) -> None:
        """The referee's first key: the player has said what they do."""
        if not self.touched:
            self.touched = True
            self.clock.pause()
            self.tick()

    def tick(self) -> None:
        if not self.query("#form-extra"):  # closed and being removed
            return
        timer = self.spec.clock
        if timer is None:
            return
        seconds = int(self.clock.seconds())
        state = "running" if self.clock.running else "stopped"
        rule = f" ({timer.rule})" if timer.rule else ""
        self.query_one("#form-extra", Static).update(
            f"clock {seconds // 60}:{seconds % 60:02d} {state} · {timer.field} "
            f"{self.clock.delay()} {timer.unit}{rule} · ctrl+t")

    def action_clock(self) -> None:
        self.clock.toggle()
        self.touched = True
        self.tick()

    def values(self) -> dict[str, Any]:
        values = super().values()
        if self.clock.delay() and self.spec.clock is not None:
            values[self.spec.clock.field] = self.clock.delay()
        return values

    def action_submit(self) -> None:
        self.clock.pause()
        self.touched = True
        values = self.answer()
        if values is None:  # refused: the form stays open, its clock shown stopped
            self.tick()
        else:
            self.dismiss(values)


def form_screen(spec: Form, clock: DeclarationClock | None = None,
                apply: Apply | None = None, running: bool = True,
                follow: Follow | None = None) -> FormScreen:
    if spec.clock and clock is not None:
        return ClockForm(spec, clock, apply, running, follow)
    return FormScreen(spec, apply, follow)


def open_form(app: App[Any], screen: FormScreen,
              callback: Callable[[dict[str, Any] | None], None]) -> None:
    """Push a form, installed so that closing it does not remove it. Textual lays the
    whole app out again, twice, after a screen is removed: the frames after a form's
    answer were that, not the answer. A form closed earlier is removed now, as the next
    one opens (which lays the screen out anyway)."""
    kept: list[tuple[str, FormScreen]] = app.__dict__.setdefault("_kept_forms", [])
    for name, old in list(kept):
        if old not in app.screen_stack:
            app.uninstall_screen(name)
            old.remove()
            kept.remove((name, old))
    name = f"form-{id(screen)}"
    app.install_screen(screen, name=name)
    kept.append((name, screen))
    app.push_screen(screen, callback)


def clean(values: dict[str, Any]) -> dict[str, Any]:
    """Drop what was left blank or off, so an event holds only what was chosen."""
    return {k: v for k, v in values.items() if v not in (None, False, "")}
