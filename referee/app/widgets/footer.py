"""Textual's Footer, composed again only when what it shows changes.

Textual's Footer rebuilds a widget per key each time the screen's bindings are announced
changed, which is every focus move (a set-up screen's table, a replay's step) though the
keys shown stay the same: each rebuild mounts and styles a row of new keys, and lays the
screen out again. This one remembers what its keys were composed from (the bindings
shown, their key displays, enabled and tooltips, the command palette's key) and is
composed again only when that differs: what it draws is what a rebuild would draw."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Footer


class SteadyFooter(Footer):
    composed: Any = None  # what the keys shown were composed from (None: nothing yet)

    def shown(self) -> Any:
        """What `compose` makes its keys from, as it stands (None: not ready yet)."""
        if not self._bindings_ready:
            return None
        app = self.app
        active = self.screen.active_bindings
        keys = tuple((binding, app.get_key_display(binding), enabled, tooltip)
                     for (_, binding, enabled, tooltip) in active.values() if binding.show)
        palette = None
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            found = active.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, binding, enabled, tooltip = found
                palette = (binding, app.get_key_display(binding), enabled, tooltip)
        return keys, palette, self.compact

    def compose(self) -> ComposeResult:
        self.composed = self.shown()
        yield from super().compose()

    async def recompose(self) -> None:
        if self.composed is not None and self.is_attached and self.shown() == self.composed:
            return  # the same keys: composed again, they would be drawn the same
        await super().recompose()
