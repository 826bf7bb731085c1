"""Command palette entries: every key of the screen underneath, by name."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial
from typing import Any

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Provider


class ScreenCommands(Provider):
    def entries(self) -> list[tuple[str, str, str]]:
        rows = []
        for binding in type(self.screen).BINDINGS:
            if isinstance(binding, Binding) and binding.description:
                key = binding.key_display or binding.key
                name = binding.description
                act = self.act(binding.action)
                if act is not None:  # the table's act: by its whole label
                    name = act.label
                rows.append((name, binding.action, key))
        return rows

    def act(self, action: str) -> Any:
        table = getattr(self.screen, "table", None)
        if table is None or not action.startswith("command("):
            return None
        return next((a for a in table.acts() if action == f"command('{a.id}')"), None)

    def run(self, action: str) -> None:
        self.app.call_later(self.screen.run_action, action)

    async def discover(self) -> AsyncIterator[DiscoveryHit]:
        for name, action, key in self.entries():
            yield DiscoveryHit(name, partial(self.run, action), help=f"key: {key}")

    async def search(self, query: str) -> AsyncIterator[Hit]:
        matcher = self.matcher(query)
        for name, action, key in self.entries():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), partial(self.run, action),
                          help=f"key: {key}")
