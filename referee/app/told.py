"""The log pane's lines told as the save loads: the load folds the log once, and each
event is told against the state just before it as it goes (telling a long log after the
load was a second fold of it, as long as the first)."""

from __future__ import annotations

from typing import Any

from referee.engine import Fight
from referee.session.replay import Chronicle, Teller, describe
from referee.session.view import LogLine


class LineTeller(Teller):
    """A chronicle's teller that keeps its lines only (no round summaries, no plans):
    each line as `chronicle_lines` has it."""

    def __init__(self, fight: Fight) -> None:
        super().__init__(fight, Chronicle(fight.encounter.title, fight.ruleset.name))
        self.lines: list[LogLine] = []

    def after(self, fight: Fight, event: Any) -> None:
        log = fight.log
        # a resolve by number, kept by its actions: told as kept (as the chronicle does)
        text = self.text if log[-1] is event else describe(fight, log[-1])
        self.lines.append(LogLine(len(log), event.round, text))

    def done(self, fight: Fight) -> None:
        self.fight = fight


class Told:
    """What `Session.open` is given to watch the load: the lines of the last fold (a
    torn last event has the file read again, without it)."""

    def __init__(self) -> None:
        self.last: LineTeller | None = None

    def watch(self, fight: Fight) -> LineTeller:
        self.last = LineTeller(fight)
        return self.last

    def lines(self, fight: Fight) -> list[LogLine] | None:
        """Every event of `fight`'s log told, if the fold watched was that fight's whole
        log (None: tell it afresh)."""
        teller, self.last = self.last, None
        if teller is None or getattr(teller, "fight", None) is not fight or \
                len(teller.lines) != len(fight.log):
            return None
        return teller.lines
