"""The `?` screen: every key of the screen underneath, with what it does."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Label

FORMS = [
    ("Enter", "confirm a form"),
    ("Esc", "cancel a form"),
    ("↑ ↓", "move between a form's fields"),
    ("← → space", "change a choice (or type its first letter)"),
    ("ctrl+t", "stop or start the declaration clock (where the ruleset runs one, DI-16)"),
    ("ctrl+p", "the command palette: every action by name"),
]


def describe(screen: Screen, binding: Binding) -> str:
    """A binding's description; a declaration key says what its letter means."""
    if binding.action.startswith("declare(") and hasattr(screen, "table"):
        key = binding.action[len("declare('"):-2]
        for kind in screen.table.fight.ruleset.actions():
            if kind.key == key:
                return f"declare {key}: {kind.name}"
    return binding.description


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close")]

    def __init__(self, under: Screen) -> None:
        super().__init__()
        self.under = under

    def rows(self) -> list[tuple[str, str]]:
        bindings = [b for b in type(self.under).BINDINGS if isinstance(b, Binding)]
        bindings += [b for b in type(self.app).BINDINGS if isinstance(b, Binding)]
        rows, seen = [], set()
        for binding in bindings:
            summary = binding.key_display and not binding.action.startswith("declare(")
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
        table.add_columns("key", "what it does")
        for key, what in self.rows() + FORMS:
            table.add_row(key, what)
