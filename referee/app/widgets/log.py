"""The log: every event, newest last, written in bulk rather than line by line."""

from __future__ import annotations

from textual.widgets import Log


class LogView(Log):
    def show_all(self, lines: list[str]) -> None:
        self.clear()
        self.write_lines(lines)

    def add(self, lines: list[str]) -> None:
        self.write_lines(lines)
