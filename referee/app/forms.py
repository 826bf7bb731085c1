"""Small keyboard-first forms: Enter confirms, Escape cancels, arrows change a choice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from referee.engine.record import field, record
from referee.session.table import DeclarationClock, Table

from .widgets.choice import Choice


@record
class Field:
    name: str
    label: str
    kind: str = "text"  # text, int, choice, flag
    value: Any = None
    options: list[tuple[str, Any]] = field(default_factory=list)
    placeholder: str = ""


class Form(ModalScreen[dict[str, Any] | None]):
    """A column of fields; the result is a dict of their values, or None if cancelled."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "submit", "Confirm"),
        # priority: an Input would keep the arrows to itself
        Binding("down", "app.focus_next", "Next field", show=False, priority=True),
        Binding("up", "app.focus_previous", "Previous field", show=False, priority=True),
    ]

    def __init__(self, title: str, fields: list[Field], hint: str = "",
                 focus: str | None = None) -> None:
        super().__init__()
        self.title_text, self.fields, self.hint, self.start = title, fields, hint, focus

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Label(self.title_text, id="form-title")
            for spec in self.fields:
                with Horizontal(classes="row"):
                    yield Label(spec.label, classes="label")
                    yield self.widget(spec)
            yield Static("", id="form-extra")
            yield Label(self.hint or "Enter confirms · Esc cancels · ←/→ change a choice",
                        id="form-hint")

    @staticmethod
    def widget(spec: Field) -> Input | Choice:
        if spec.kind == "choice":
            return Choice(spec.options, spec.value, id=f"f-{spec.name}")
        if spec.kind == "flag":
            return Choice([("no", False), ("yes", True)], bool(spec.value), id=f"f-{spec.name}")
        text = "" if spec.value is None else str(spec.value)
        restrict = r"-?[0-9]*" if spec.kind == "int" else None
        return Input(text, id=f"f-{spec.name}", restrict=restrict, placeholder=spec.placeholder)

    def on_mount(self) -> None:
        if self.start is not None:
            self.query_one(f"#f-{self.start}").focus()

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for spec in self.fields:
            widget = self.query_one(f"#f-{spec.name}")
            if isinstance(widget, Choice):
                out[spec.name] = widget.value
            elif spec.kind == "int":
                out[spec.name] = int(widget.value) if widget.value.strip("-") else None
            else:
                out[spec.name] = widget.value.strip() or None
        return out

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        self.dismiss(self.values())

    def action_cancel(self) -> None:
        self.dismiss(None)


class DeclareForm(Form):
    """A declaration; demon-idol forms run the declaration clock (DI-16)."""

    BINDINGS = [Binding("ctrl+t", "clock", "Pause clock")]

    def __init__(self, title: str, fields: list[Field], clock: DeclarationClock | None) -> None:
        hint = "Enter confirms · Esc cancels · ←/→ change"
        if clock is not None:
            hint += " · ctrl+t pauses the clock"
        super().__init__(title, fields, hint)
        self.clock = clock

    def on_mount(self) -> None:
        super().on_mount()
        if self.clock is not None:
            self.clock.start()
            self.tick()
            self.set_interval(0.5, self.tick)

    def tick(self) -> None:
        if self.clock is None:
            return
        seconds = int(self.clock.seconds())
        paused = "" if self.clock.running else " (paused)"
        self.query_one("#form-extra", Static).update(
            f"clock {seconds // 60}:{seconds % 60:02d}{paused} · "
            f"delay {self.clock.delay()} segment(s) (DI-16)")

    def action_clock(self) -> None:
        if self.clock is not None:
            self.clock.toggle()
            self.tick()

    def action_submit(self) -> None:
        values = self.values()
        if self.clock is not None:
            self.clock.pause()
            values["delay"] = self.clock.delay()
        self.dismiss(values)


# -- the forms the combat screen opens ---------------------------------------------------


def target_options(table: Table) -> list[tuple[str, Any]]:
    fight = table.fight
    return [(c.name, cid) for cid, c in fight.roster.items() if fight.alive(cid)]


def declare_fields(table: Table, actor: str, action: str) -> list[Field]:
    """Only what this action needs, pre-filled from the combatant and the last round."""
    combatant = table.fight.roster[actor]
    needs = table.fields_for(action)
    prefill = table.prefill(actor, action)
    out: list[Field] = []
    if "weapon" in needs and combatant.weapons:
        options = [("—", None)] + [(w.name, w.name) for w in combatant.weapons]
        out.append(Field("weapon", "weapon", "choice", prefill.get("weapon"), options))
    if "spell" in needs and combatant.spells:
        options = [("—", None)] + [(s.name, s.name) for s in combatant.spells]
        out.append(Field("spell", "spell", "choice", prefill.get("spell"), options))
    if "device" in needs:
        out += [Field("device", "device"), Field("usage_time", "segments to use", "int")]
    if "turn" in needs:
        out.append(Field("turn", "turn undead", "flag", False))
    if "charge" in needs:
        out += [Field("charge", "charge", "flag", False),
                Field("closing", "segments to close", "int")]
    if "target" in needs:
        options = [("—", None)] + target_options(table)
        out.append(Field("target", "target", "choice", prefill.get("target"), options))
    if table.fight.ruleset.id == "demon-idol":
        out += [Field("prepared", "prepared", "flag", False), Field("trigger", "trigger")]
    else:
        out.append(Field("modifier", "modifier", "int", placeholder="blank: the table's"))
    return out


def clean(values: dict[str, Any]) -> dict[str, Any]:
    """Drop what was left blank or off, so the declaration holds only what was chosen."""
    return {k: v for k, v in values.items() if v not in (None, False, "")}


def damage_fields(table: Table, target: str | None) -> list[Field]:
    out = [Field("target", "target", "choice", target, target_options(table)),
           Field("amount", "damage", placeholder="1d8+1 to roll, or 7 from real dice")]
    if table.fight.ruleset.id == "count-up":
        out.append(Field("critical", "critical", "flag", False))
    return out


def heal_fields(table: Table, target: str | None) -> list[Field]:
    return [Field("target", "target", "choice", target, target_options(table)),
            Field("amount", "hit points", "int"), Field("stabilize", "stabilise", "flag", False)]


def first_text(fields: list[Field]) -> str | None:
    """The field a referee types into first: where the form puts the cursor."""
    return next((f.name for f in fields if f.kind in ("text", "int")), None)


def condition_fields(table: Table, target: str | None) -> list[Field]:
    return [Field("target", "target", "choice", target, target_options(table)),
            Field("name", "condition"),
            Field("rounds", "rounds", "int", placeholder="blank: until removed")]


def morale_fields(table: Table, actor: str, side: str) -> list[Field]:
    name = table.fight.roster[actor].name
    side_name = table.fight.encounter.side(side).name
    return [
        Field("group", "who", "choice", side, [(side_name, side), (name, actor)]),
        Field("roll", "roll", "int"), Field("target", "needed", "int"),
        Field("passed", "result", "choice", None,
              [("due, not rolled", None), ("holds", True), ("breaks", False)]),
        Field("avoid", "if it breaks", value="flee"),
    ]


def initiative_fields(table: Table) -> list[Field]:
    fight = table.fight
    if fight.ruleset.id == "count-up":
        groups: dict[str, str] = {}
        for cid, c in fight.roster.items():
            groups.setdefault(c.group or cid, c.name if not c.group else f"{c.group} (group)")
        return [Field(key, label, "int") for key, label in groups.items()]
    return [Field(s.id, s.name, "int") for s in fight.encounter.sides]


def join_fields(table: Table) -> list[Field]:
    sides = [(s.name, s.id) for s in table.fight.encounter.sides]
    out = [Field("id", "id"), Field("name", "name"), Field("side", "side", "choice",
                                                             sides[0][1], sides),
           Field("hp", "hit points", "int"), Field("weapon", "weapon name"),
           Field("speed", "weapon speed", "int", placeholder="speed factor (count-up: speed)")]
    if table.fight.ruleset.id == "count-up":
        out += [Field("base", "base initiative", "int"),
                Field("at_count", "count reached", "int", placeholder="the round's count now")]
    return out


Callback = Callable[[dict[str, Any] | None], None]
