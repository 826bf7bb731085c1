"""The Textual app: one factory for the command line and the tests."""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from textual.app import App
from textual.binding import Binding

from referee.session.store import SaveError, Session
from referee.session.table import Table

from .combat import combat_screen
from .commands import ScreenCommands


class RefereeApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "referee"
    COMMANDS = App.COMMANDS | {ScreenCommands}
    BINDINGS = [Binding("q", "quit", "Quit"), Binding("question_mark", "help", "Help",
                                                      show=False)]

    def __init__(self, path: Path, saves: Path, rng: random.Random | None = None,
                 start_in_setup: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.path, self.saves, self.start_in_setup = path, saves, start_in_setup
        self.clock = clock  # the declaration clock's time source, injected by tests
        self.session = Session.open(path)
        self.table = Table(self.session, rng)

    def on_mount(self) -> None:
        self.push_screen(combat_screen(self.table))
        if self.start_in_setup:
            self.action_setup()

    def on_unmount(self) -> None:
        self.session.close()

    # -- screens opened from anywhere ----------------------------------------------------

    def action_help(self) -> None:
        from .help import HelpScreen

        self.push_screen(HelpScreen(self.screen))

    def action_replay(self) -> None:
        from .replay import ReplayScreen

        self.push_screen(ReplayScreen(self.session))

    def action_open(self) -> None:
        from .files import OpenScreen

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.switch_to(path)

        self.push_screen(OpenScreen(self.saves), chosen)

    def action_save_as(self) -> None:
        from .forms import Field, Form

        def done(values: dict | None) -> None:
            if not values or not values.get("path"):
                return
            target = Path(values["path"])
            if not target.is_absolute():
                target = self.saves / target
            try:
                self.session.save_as(target)
            except SaveError as error:
                self.notify(str(error), severity="error")
                return
            self.notify(f"saved as {target}; the fight goes on there")
            self.screen.refresh_view()

        field = Field("path", "file", value=self.session.path.name)
        self.push_screen(Form("Save as", [field]), done)

    def action_setup(self) -> None:
        from .setup import SetupScreen

        self.push_screen(SetupScreen(self.session), lambda _: self.screen.reload())

    def switch_to(self, path: Path) -> None:
        self.session.close()
        self.session = Session.open(path)
        self.table = Table(self.session)
        self.switch_screen(combat_screen(self.table))


def fresh_demo(saves: Path, bundled: Path) -> Path:
    """A copy of the bundled demo to play on; the bundled file is never touched."""
    saves.mkdir(parents=True, exist_ok=True)
    target = saves / f"demo-{time.strftime('%Y%m%d-%H%M%S')}.toml"
    number = 1
    while target.exists():
        number += 1
        target = saves / f"demo-{time.strftime('%Y%m%d-%H%M%S')}-{number}.toml"
    shutil.copyfile(bundled, target)
    return target
