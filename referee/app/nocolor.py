"""NO_COLOR (no-color.org): Textual reads it and draws in monochrome through its Monochrome
filter, which takes every segment's style for a Rich Style; a segment drawn with none (a
plain `Segment(text)`, as a strip's padding is) stopped the app at its first frame. The
filter here is Textual's with such a segment let through unstyled."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from textual.filter import Monochrome

if TYPE_CHECKING:
    from textual.app import App
    from textual.color import Color


class PlainMonochrome(Monochrome):
    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if all(segment.style is not None for segment in segments):
            return super().apply(segments, background)
        styled = [segment for segment in segments if segment.style is not None]
        done = iter(super().apply(styled, background))
        return [next(done) if segment.style is not None else segment
                for segment in segments]


def honour_no_color(app: App[Any]) -> None:
    """The app's monochrome filter (there when NO_COLOR is set) made safe for unstyled
    segments; nothing changes without NO_COLOR."""
    filters = app._filters  # Textual's list, set from NO_COLOR as the app is made
    for index, line_filter in enumerate(filters):
        if type(line_filter) is Monochrome:
            filters[index] = PlainMonochrome()
