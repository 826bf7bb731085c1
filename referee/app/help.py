"""The `?` screen: every key of the screen underneath, with what it does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Label

from .steady import Steady

if TYPE_CHECKING:
    from referee.session.table import Table

FORMS = [
    ("space", "fold or unfold the group under the cursor (where the ruleset groups rows)"),
    ("Z", "fold or unfold every group"),
    ("Tab", "move between the tracker and the plan"),
    ("Enter", "confirm a form; on a beat of the plan, show it whole"),
    ("Esc", "cancel a form"),
    ("↑ ↓", "move between a form's fields"),
    ("← → space", "change a choice (or type its first letter)"),
    ("ctrl+t", "stop or start the declaration clock (where the ruleset runs one, DI-16)"),
    ("ctrl+p", "the command palette: every action by name"),
]


def describe(screen: Screen[object], binding: Binding) -> str:
    """A binding's description; a declaration key says what its letter means."""
    table: Table | None = getattr(screen, "table", None)  # the combat screen's
    if binding.action.startswith("command(") and table is not None:
        name = binding.action[len("command('"):-2]
        for act in table.acts():
            if act.id == name and act.place == "declare":  # among the keys: "declare G: …"
                return act.label[:1].lower() + act.label[1:]
            if act.id == name:
                return f"{act.label}: {act.help}" if act.help else act.label
    return binding.description


HELP_WIDTH = 72  # #help's width in app.tcss


class HelpScreen(Steady, ModalScreen[None]):
    """The keys in one scrolling box: the table as tall as its rows (it never scrolls on
    its own), so ↓ and PgDn go through the box to its last line."""

    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close")]
    # as tall as its rows (a DataTable is at most its box's height by default)
    DEFAULT_CSS = "#help-keys { max-height: 1000; overflow: hidden hidden; }"

    def __init__(self, under: Screen[object]) -> None:
        super().__init__()
        self.under = under

    def rows(self) -> list[tuple[str, str]]:
        bindings = [b for b in type(self.under).BINDINGS if isinstance(b, Binding)]
        bindings += [b for b in type(self.app).BINDINGS if isinstance(b, Binding)]
        rows, seen = [], set()
        for binding in bindings:
            # a key_display that folds a ruleset's letters (declarations, commands) is the
            # footer's: here each letter has its own row
            summary = binding.key_display and not binding.action.startswith(
                ("declare(", "command("))
            key = None if summary else self.app.get_key_display(Binding(binding.key,
                                                                         binding.action))
            for one in binding.key.split(","):
                if one in seen:
                    continue
                seen.add(one)
                shown = key or binding.key_display or one
                if "," in binding.key:
                    shown = self.app.get_key_display(Binding(one, binding.action))
                rows.append((shown, describe(self.under, binding)))
        return rows

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Label("Keys — Esc or ? closes", id="help-title")
            yield DataTable(id="help-keys", show_cursor=False)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        rows = self.rows() + FORMS
        key_width = max(len(key) for key, _ in rows)
        # the box's width as the stylesheet gives it (72 cells, at most 95% of the screen,
        # less border and padding): known before the first layout, unlike its region
        inner = min(HELP_WIDTH, self.app.size.width * 95 // 100) - 4
        room = max(inner - key_width - 6, 20)  # less the cells between columns, the scrollbar
        table.add_column("key", width=key_width)
        table.add_column("what it does", width=room)
        for key, what in rows:
            table.add_row(key, Text(what), height=None)  # long lines wrap at word ends
