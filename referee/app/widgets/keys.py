"""The combat screen's footer: the keys that work right now, drawn as one line.

Textual's Footer rebuilds a widget per key whenever the bindings change, which on this
screen (whose keys come and go as the round moves on) cost more than the rest of a
start-up; this line is redrawn only when the set of working keys changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.segment import Segment
from rich.text import Text
from textual.actions import parse
from textual.binding import Binding
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from . import plain


class KeyLine(Widget):
    """Drawn as one strip, not through a renderable: a new set of keys repaints the line
    and never lays the screen out again (a Static's update does, which is a whole-screen
    redraw on the key press that makes undo available)."""

    DEFAULT_CSS = "KeyLine { height: 1; background: $panel; }"

    keys: tuple[tuple[str, str], ...] = ()
    strip: Strip | None = None
    pending: Callable[[], list[tuple[str, str]]] | None = None

    PINNED = ("?", "q")  # always on the line: help and quit, at its end

    def show(self, keys: list[tuple[str, str]]) -> None:
        if self.taken(keys):
            self.refresh()

    def taken(self, keys: list[tuple[str, str]]) -> bool:
        """`keys` are the line's now: whether they changed it (its strip is dropped)."""
        self.pending = None
        if tuple(keys) == self.keys:
            return False
        self.keys = tuple(keys)
        self.strip = None
        return True

    def offer(self, keys: Callable[[], list[tuple[str, str]]]) -> None:
        """The keys worked out when the line is next drawn (or read): a key press that
        changes the fight and then moves the cursor works them out once, not twice."""
        self.pending = keys
        self.refresh()

    @property
    def shown(self) -> tuple[tuple[str, str], ...]:
        if self.pending is not None:  # the line is refreshed already (`offer`)
            self.taken(self.pending())
        return self.keys

    def on_resize(self) -> None:
        self.strip = None
        self.refresh()

    def line(self) -> Text:
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
        return line

    def render_lines(self, crop: Region) -> list[Strip]:
        lines = plain.plain_lines(self, crop)  # the line's strip kept as filtered
        return super().render_lines(crop) if lines is None else lines

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if y != 0:
            return Strip.blank(width, self.rich_style)
        if self.pending is not None:  # worked out now: a new set drops the strip
            self.taken(self.pending())
        if self.strip is None or self.strip.cell_length != width:
            base = self.rich_style
            segments = [Segment(s.text, base + s.style if s.style else base)
                        for s in self.line().render(self.app.console) if s.text != "\n"]
            self.strip = Strip(segments).crop(0, width).extend_cell_length(width, base)
        return self.strip


def part(key: tuple[str, str]) -> str:
    return f" {key[0]}  {key[1]}  "


def append(line: Text, key: tuple[str, str]) -> None:
    line.append(f" {key[0]} ", style="bold reverse")
    line.append(f" {key[1]}  ")


def working_keys(screen: Screen[Any], bindings: list[Binding],
                 first: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """The shown bindings whose actions the screen allows now, as (key, description);
    those whose action is in `first` (the keys that move the fight on) lead, so a narrow
    screen drops the others before them."""
    out: list[tuple[str, str]] = []
    later: list[tuple[str, str]] = []
    offers = getattr(screen, "offers", None)  # what the footer offers, asked silently
    for binding in bindings:
        if not binding.show:
            continue
        _, action, parameters = parse(binding.action)
        if (offers(action, parameters) if offers is not None
                else screen.check_action(action, parameters)) is False:
            continue
        key = binding.key_display or screen.app.get_key_display(binding)
        (out if action in first else later).append((key, binding.description))
    return out + later
