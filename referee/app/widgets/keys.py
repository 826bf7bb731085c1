"""The combat screen's footer: the keys that work right now, drawn as one line.

Textual's Footer rebuilds a widget per key whenever the bindings change, which on this
screen (whose keys come and go as the round moves on) cost more than the rest of a
start-up; this line is redrawn only when the set of working keys changes."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static


class KeyLine(Static):
    DEFAULT_CSS = "KeyLine { height: 1; background: $panel; }"

    shown: tuple = ()

    def show(self, keys: list[tuple[str, str]]) -> None:
        if tuple(keys) == self.shown:
            return
        self.shown = tuple(keys)
        line = Text(no_wrap=True, overflow="ellipsis")
        for key, description in keys:
            line.append(f" {key} ", style="bold reverse")
            line.append(f" {description}  ")
        self.update(line)


def working_keys(screen, bindings: list[Binding]) -> list[tuple[str, str]]:
    """The shown bindings whose actions the screen allows now, as (key, description)."""
    out = []
    for binding in bindings:
        if not binding.show:
            continue
        action, _, rest = binding.action.partition("(")
        if screen.check_action(action, ()) is False:
            continue
        key = binding.key_display or screen.app.get_key_display(binding)
        out.append((key, binding.description))
    return out
