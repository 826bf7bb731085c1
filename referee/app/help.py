"""The `?` screen: every key of the screen underneath, with what it does."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

FORMS = [
    ("Enter", "confirm a form"),
    ("Esc", "cancel a form"),
    ("←/→, space", "change a choice in a form (or type its first letter)"),
    ("ctrl+t", "pause or restart the declaration clock (demon-idol, DI-16)"),
    ("ctrl+p", "the command palette: every action by name"),
]


def key_lines(screen: Screen) -> list[tuple[str, str]]:
    rows = []
    for binding in type(screen).BINDINGS:
        if isinstance(binding, Binding):
            rows.append((binding.key_display or binding.key, binding.description))
    return rows


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close")]

    def __init__(self, under: Screen) -> None:
        super().__init__()
        self.rows = key_lines(under)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Label("Keys — Esc or ? closes", id="help-title")
            for key, what in self.rows + FORMS:
                yield Static(f"{key:>16}  {what}")
