"""A choice among a few values, changed with ←/→ (or space, or a click): Enter stays free
to confirm the form it is in."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static


class Choice(Static, can_focus=True):
    BINDINGS = [
        Binding("left", "step(-1)", "Previous", show=False),
        Binding("right,space", "step(1)", "Next", show=False),
    ]

    class Changed(Message):
        """The referee picked another option."""

    def __init__(self, options: list[tuple[str, Any]], value: Any = None,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.options = options or [("—", None)]
        values = [v for _, v in self.options]
        self.index = values.index(value) if value in values else 0

    @property
    def value(self) -> Any:
        return self.options[self.index][1]

    @value.setter
    def value(self, value: Any) -> None:
        """Pick the option whose value is `value` (ValueError: there is none)."""
        self.index = [v for _, v in self.options].index(value)
        if self.is_mounted:
            self.refresh_label()

    def on_mount(self) -> None:
        self.refresh_label()

    def refresh_label(self) -> None:
        self.update(f"◀ {self.options[self.index][0]} ▶")

    def action_step(self, by: int) -> None:
        self.index = (self.index + by) % len(self.options)
        self.refresh_label()
        self.post_message(self.Changed())

    def on_click(self) -> None:
        self.action_step(1)

    def on_key(self, event: events.Key) -> None:
        """A letter jumps to the next option starting with it."""
        if event.character and event.character.isalnum() and len(event.character) == 1:
            for step in range(1, len(self.options) + 1):
                index = (self.index + step) % len(self.options)
                if self.options[index][0].lower().startswith(event.character.lower()):
                    self.index = index
                    self.refresh_label()
                    self.post_message(self.Changed())
                    event.stop()
                    return
