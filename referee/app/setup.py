"""Setting up an encounter: its title, sides and combatants, or a roster imported.

The screen only shows the roster and opens forms; building combatants and the roster
rules live in the session's `RosterEditor`, with the ruleset's own fields.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, Label

from referee.engine import Combatant, RefereeError
from referee.engine.specs import Field, Form
from referee.session.files import LoadError
from referee.session.roster import RosterEditor, gear_hint, gear_text, listed, table_text
from referee.session.store import SaveError, Session

from .forms import form_screen
from .refusal import Refused, refused
from .steady import Steady
from .widgets.footer import SteadyFooter

if TYPE_CHECKING:
    from textual import getters

    from .host import HostApp


class SetupScreen(Steady, Screen[None]):
    if TYPE_CHECKING:
        app = getters.app(HostApp)

    BINDINGS = [
        Binding("escape", "done", "Done"),
        Binding("a", "add", "Add"),
        Binding("e,enter", "edit", "Edit"),
        Binding("x,delete", "remove", "Remove"),
        Binding("s", "add_side", "Side"),
        Binding("S", "remove_side", "Remove side", show=False),
        Binding("t", "title", "Title", show=False),
        Binding("b", "bestiary", "Bestiary"),
        # on an 80-column footer, importing a roster (a party) gives way to the bestiary
        Binding("i", "import_roster", "Import", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("q", "app.quit", "Quit", show=False),  # Esc is the way out of set-up
    ]

    def __init__(self, session: Session, catalogues: Sequence[Path] = ()) -> None:
        super().__init__()
        self.editor = RosterEditor(session, catalogues)

    def stat_fields(self) -> list[Field]:
        return [f for f in self.editor.ruleset.schema.combatant_fields() if f.form]

    def compose(self) -> ComposeResult:
        ruleset = self.editor.ruleset
        yield Header()
        with Vertical():
            yield Label("", id="setup-title")
            yield Label("Sides (s adds, S removes; e edits the one under the cursor)",
                        classes="heading")
            yield DataTable(id="sides", cursor_type="row")
            yield Label("Combatants (a adds, e edits, x removes; t sets the title)",
                        classes="heading")
            yield DataTable(id="combatants", cursor_type="row")
            for spec in self.editor.item_specs():  # the encounter's own lists: groups
                yield Label(f"{spec.title.capitalize()} (a adds, e edits, x removes "
                            "the one under the cursor, with its members)", classes="heading")
                yield DataTable(id=f"items-{spec.name}", cursor_type="row",
                                classes="items")
            if ruleset.schema.GEAR:
                yield Label("   ".join(gear_hint(ruleset, kind) for kind in ruleset.schema.GEAR),
                            id="setup-hint")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.title = "referee — set up"
        self.query_one("#sides", DataTable).add_columns("side", "name")
        labels = ["id", "name", "side", "hp"] + [f.title for f in self.stat_fields()]
        self.query_one("#combatants", DataTable).add_columns(*labels,
                                                             *self.editor.ruleset.schema.GEAR)
        for spec in self.editor.item_specs():
            self.query_one(f"#items-{spec.name}", DataTable).add_columns(
                *(f.title for f in spec.items), "members")
        self.show()
        self.query_one("#combatants", DataTable).focus()

    def show(self) -> None:
        encounter = self.editor.encounter
        self.query_one("#setup-title", Label).update(
            f"{encounter.title or '(untitled)'} — {encounter.ruleset}")
        sides = self.query_one("#sides", DataTable)
        sides.clear()
        for side in encounter.sides:
            sides.add_row(side.id, side.name, key=side.id)
        table = self.query_one("#combatants", DataTable)
        table.clear()
        ruleset = self.editor.ruleset
        for c in encounter.combatants:
            stats = [stat_text(c.stat(f.name), f) for f in self.stat_fields()]
            gear = [gear_text(getattr(c, kind), ruleset, kind) for kind in ruleset.schema.GEAR]
            table.add_row(c.id, c.name, c.side, str(c.hp), *stats, *gear, key=c.id)

        self.show_items()

    def show_items(self) -> None:
        for spec in self.editor.item_specs():
            table = self.query_one(f"#items-{spec.name}", DataTable)
            table.clear()
            for item in self.editor.items(spec.name):
                item_id = str(item.get("id", ""))
                table.add_row(*(str(listed(item.get(f.name, ""))) for f in spec.items),
                              ", ".join(self.editor.members(spec.name, item_id)),
                              key=item_id)

    def focused_items(self) -> tuple[str, str | None] | None:
        """(the list's key, the entry under the cursor) when a list of the encounter's
        own (groups) has the focus."""
        table = self.focused
        if not isinstance(table, DataTable) or not table.id or \
                not table.id.startswith("items-"):
            return None
        key = table.id.removeprefix("items-")
        if table.row_count == 0:
            return key, None
        return key, table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def selected(self) -> Combatant | None:
        table = self.query_one("#combatants", DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return self.editor.encounter.combatant(key or "")

    def change(self, work: Callable[..., Any], *args: Any) -> bool:
        """An edit of the roster by a key; refused with the reason, never half done."""
        try:
            self.changed(work, *args)
        except Refused as refusal:
            self.notify(refusal.message, title="Not changed", severity="error", timeout=8)
            return False
        return True

    def changed(self, work: Callable[..., Any], *args: Any) -> None:
        """An edit of the roster from a form; Refused (the form stays open, as typed)."""
        try:
            work(*args)
        except (RefereeError, SaveError, LoadError, ValueError) as error:
            raise refused(error) from None
        self.show()

    def ask(self, spec: Form, done: Callable[[dict[str, Any]], object]) -> None:
        """A form whose answer `done` applies before it closes: Refused keeps it open."""
        self.app.push_screen(form_screen(spec, apply=done))

    def action_add(self) -> None:
        items = self.focused_items()
        if items is not None:
            key = items[0]
            self.ask(self.editor.item_form(key, None),
                     lambda v: self.changed(self.editor.save_item, key, None, v))
            return
        self.ask(self.editor.combatant_form(None), lambda v: self.changed(self.editor.add, v))

    def action_edit(self) -> None:
        if self.query_one("#sides", DataTable).has_focus:
            self.edit_side()
            return
        items = self.focused_items()
        if items is not None:
            key, item_id = items
            if item_id is not None:
                self.ask(self.editor.item_form(key, item_id),
                         lambda v: self.changed(self.editor.save_item, key, item_id, v))
            return
        old = self.selected()
        if old is not None:
            self.ask(self.editor.combatant_form(old),
                     lambda v: self.changed(self.editor.edit, old.id, v))

    def action_remove(self) -> None:
        items = self.focused_items()
        if items is not None:
            self.remove_item(*items)
            return
        old = self.selected()
        if old is not None and self.change(self.editor.remove, old.id):
            self.notify(f"{old.name} removed")

    def remove_item(self, key: str, item_id: str | None) -> None:
        """An entry and its members go together (an entry without members is refused):
        asked first."""
        if item_id is None:
            return
        members = self.editor.members(key, item_id)
        field = Field("sure", "remove", "bool", False)

        def done(values: dict[str, Any]) -> None:
            if values.get("sure"):
                self.changed(self.editor.remove_item, key, item_id)
                self.notify(f"{item_id} removed, with {', '.join(members) or 'no members'}")

        self.ask(Form(f"Remove {item_id} and its members ({', '.join(members) or 'none'})?",
                      (field,)), done)

    def action_add_side(self) -> None:
        self.ask(self.editor.side_form(None),
                 lambda v: self.changed(self.editor.add_side, v["id"], v.get("name") or "", v))

    def side_under_cursor(self) -> str | None:
        table = self.query_one("#sides", DataTable)
        if table.row_count == 0:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def edit_side(self) -> None:
        side_id = self.side_under_cursor()
        side = self.editor.encounter.side(side_id or "")
        if side is None:
            return
        self.ask(self.editor.side_form(side),
                 lambda v: self.changed(self.editor.edit_side, side.id, v))

    def action_remove_side(self) -> None:
        side_id = self.side_under_cursor()
        if side_id is not None:
            self.change(self.editor.remove_side, side_id)

    def action_title(self) -> None:
        field = Field("title", "title", default=self.editor.encounter.title, required=True)
        self.ask(Form("Title", (field,)),
                 lambda v: self.changed(self.editor.set_title, v["title"]))

    def action_import_roster(self) -> None:
        field = Field("path", "file", required=True, help="a roster .toml")
        self.ask(Form("Import a roster TOML", (field,)),
                 lambda v: self.changed(self.editor.import_roster, Path(v["path"])))

    def action_bestiary(self) -> None:
        """"6 goblins" from the ruleset's bestiary, hit points rolled (or typed)."""
        if not self.editor.encounter.sides:
            self.notify("add a side first (s)", severity="warning")
            return
        rng = self.app.table.injected

        def done(values: dict[str, Any]) -> None:
            made: list[Any] = []
            self.changed(lambda: made.extend(self.editor.add_from_bestiary(values, rng)))
            self.notify(", ".join(f"{c.name} {c.hp} hp" for c in made), title="Added")

        self.ask(self.editor.bestiary_form(), done)

    def action_done(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        self.app.action_help()


def stat_text(value: Any, spec: Field) -> str:
    """A roster key as the set-up table shows it: a list on one line, a table as its
    `key=value` line."""
    if value is None:
        return ""
    return table_text(value, spec) if spec.kind == "table" else str(listed(value))
