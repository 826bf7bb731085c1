"""Replay: step through a save's events; tracker, plan and log show the fight as it stood."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from referee.engine import Fight, RefereeError
from referee.engine.text import shown as safe
from referee.session import view
from referee.session.files import Save
from referee.session.replay import chronicle
from referee.session.store import Session

from .steady import Steady
from .widgets import LogView, PlanView, StatusLine, Tracker
from .widgets.footer import SteadyFooter

if TYPE_CHECKING:
    from textual import getters

    from .host import HostApp


class ReplayScreen(Steady, Screen[None]):
    if TYPE_CHECKING:
        app = getters.app(HostApp)

    BINDINGS = [
        # priority: the tables would take the arrows for their own cursors
        Binding("left,comma", "step(-1)", "Back", priority=True),
        Binding("right,full_stop", "step(1)", "Forward", priority=True),
        Binding("pageup", "step(-10)", "Back 10", show=False, priority=True),
        Binding("pagedown", "step(10)", "Forward 10", show=False, priority=True),
        Binding("home", "jump(0)", "Start", priority=True),
        Binding("end", "jump(-1)", "End", priority=True),
        Binding("escape", "close", "Close"),
        Binding("question_mark", "help", "Help"),
    ]

    def __init__(self, source: Session | Save) -> None:
        super().__init__()
        self.encounter, self.fight, self.path = source.encounter, source.fight, source.path
        self.lines: list[str] = []
        self.at = len(self.fight.log)

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield Tracker(id="tracker")
        yield PlanView(id="plan")
        yield LogView(id="log")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.title = "referee — replay"
        save = Save(self.path, "", self.encounter, self.fight.ruleset, self.fight)
        self.lines = [f"{n:>5}. {text}" for n, _, text in chronicle(save).lines]
        self.show()

    def show(self) -> None:
        fight: Fight = self.fight.at(self.at)
        try:
            plan = fight.plan()
        except RefereeError:
            plan = None
        shown = view.build(fight, plan, self.encounter.title, rows=False)
        total = len(self.fight.log)
        self.query_one(StatusLine).show(f"{shown.status} · replay: after event {self.at} "
                                        f"of {total}")
        self.query_one(Tracker).show(fight, plan, shown.acting)
        self.query_one(PlanView).show(shown.plan, shown.current)
        self.query_one(LogView).show_all(self.lines[: self.at])
        self.sub_title = f"{safe(self.path.name)}: after event {self.at} of {total}"

    def action_step(self, by: int) -> None:
        self.at = max(0, min(len(self.fight.log), self.at + by))
        self.show()

    def action_jump(self, where: int) -> None:
        self.at = len(self.fight.log) if where < 0 else where
        self.show()

    def action_close(self) -> None:
        self.dismiss()

    def action_help(self) -> None:
        self.app.action_help()
