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

    PINNED = ("?", "q")  # always on the line: help and quit, at its end

    def show(self, keys: list[tuple[str, str]]) -> None:
        if tuple(keys) == self.shown:
            return
        self.shown = tuple(keys)
        self.draw()

    def on_resize(self) -> None:
        self.draw()

    def draw(self) -> None:
        """As many of the working keys as fit, then help and quit, never cut off."""
        pinned = [k for k in self.shown if k[0] in self.PINNED]
        rest = [k for k in self.shown if k[0] not in self.PINNED]
        room = self.size.width - sum(len(part(k)) for k in pinned)
        line = Text(no_wrap=True, overflow="ellipsis")
        for key in rest:
            if len(part(key)) > room:
                line.append("… ", style="dim")
                break
            append(line, key)
            room -= len(part(key))
        for key in pinned:
            append(line, key)
        self.update(line)


def part(key: tuple[str, str]) -> str:
    return f" {key[0]}  {key[1]}  "


def append(line: Text, key: tuple[str, str]) -> None:
    line.append(f" {key[0]} ", style="bold reverse")
    line.append(f" {key[1]}  ")


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
