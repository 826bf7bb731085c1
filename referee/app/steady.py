"""Screens laid out once at the size they are shown at."""

from __future__ import annotations

from typing import Any, cast

from textual import events
from textual.screen import Screen


class Steady:
    """A screen just shown is sent a Resize of the size it was laid out at, and Textual's
    screen would lay it out again, and every screen behind it, at that same size (a third
    of opening a form). Passed over here; only a new size is Textual's, as ever. Put
    before Textual's screen class among the bases (its handler is found first)."""

    async def _on_resize(self, event: events.Resize) -> None:
        screen = cast(Screen[Any], self)
        if event.size == screen._size and all(
                behind._size == event.size for behind in screen.app._background_screens):
            event.stop()
            event.prevent_default()
