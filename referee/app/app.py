"""The Textual app: one factory for the command line and the tests."""

from __future__ import annotations

import os
import random
import re
import time
import weakref
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.binding import Binding

from referee.session.config import Config
from referee.session.files import LoadError, Save
from referee.session.store import SaveError, Session, write_atomic
from referee.session.table import Table

from .collector import COLLECTOR
from .combat import combat_screen
from .commands import ScreenCommands
from .nocolor import honour_no_color
from .told import Told

if TYPE_CHECKING:
    from textual.theme import Theme

    from .host import Host

LET_GO_TRIES = 20  # a last fight still held after so many collections: frozen all the same
LET_GO_AGAIN = 0.05  # seconds before the next try


class RefereeApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "referee"
    COMMANDS = App.COMMANDS | {ScreenCommands}
    BINDINGS = [Binding("q", "quit", "Quit"), Binding("question_mark", "help", "Help",
                                                      show=False)]
    max_viewers = 8  # browsers the players' view served with V takes at once (--max-viewers)

    def __init__(self, path: Path, saves: Path, rng: random.Random | None = None,
                 start_in_setup: bool = False,
                 clock: Callable[[], float] = time.monotonic,
                 catalogues: Sequence[Path] = (), settings: Config | None = None,
                 read: tuple[Save, Told] | None = None) -> None:
        """`read`: the save at `path` as loaded before (the command line checks it before
        any screen) and its log as that load told it: not loaded again if the file still
        holds it when the app locks it."""
        super().__init__()
        honour_no_color(self)
        self.path, self.saves, self.start_in_setup = path, saves, start_in_setup
        self.catalogues = tuple(catalogues)  # a referee's own, merged over the bundled
        self.clock = clock  # the declaration clock's time source, injected by tests
        # the referee's settings (config.toml): none given is none set, and a change the
        # app makes (the theme, the campaign directory) goes to the platform's file
        self.settings = settings if settings is not None else Config()
        if self.settings.theme and "TEXTUAL_THEME" not in os.environ:  # Textual's own wins
            self.theme = self.settings.theme
        save, told = read if read is not None else (None, Told())
        self.session = Session.open(path, lock=True, watch=told.watch, read=save)
        self.table = Table(self.session, rng)
        self.told = told.lines(self.session.fight)  # the log pane's, as the load told it
        remember_save(path)

    def on_mount(self) -> None:
        told, self.told = self.told, None
        self.push_screen(combat_screen(self.table, setup=self.start_in_setup, told=told))
        self.theme_changed_signal.subscribe(self, self.theme_chosen)
        settled()

    def theme_chosen(self, theme: Theme) -> None:
        """A theme chosen (ctrl+p's "Change theme") is the one the app opens in next time."""
        if theme.name != self.settings.theme:
            self.setting("theme", theme.name)

    def setting(self, key: str, value: str) -> None:
        """`key` written to the settings file; a file that cannot be written (or is
        broken) is said, and the app goes on."""
        from referee.session.config import save_setting, with_setting

        try:
            save_setting(key, value, self.settings.path)
        except (LoadError, SaveError, OSError) as error:
            self.notify(f"{error}", title="Setting not kept", severity="warning",
                        timeout=10)
            return
        self.settings = with_setting(self.settings, key, value)

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

    def switch_to(self, path: Path, setup: bool = False) -> None:
        """Another save: this one is closed (and its lock let go) first."""
        told = Told()
        try:
            session = Session.open(path, lock=True, watch=told.watch)
        except (LoadError, SaveError) as error:
            self.notify(str(error), title="Not opened", severity="error", timeout=10)
            return
        self.session.close()
        last: weakref.ref[object] = weakref.ref(self.session.fight)
        self.session = session
        self.table = Table(self.session)
        from .phones import pages_end

        pages_end(self, "another save is open")
        remember_save(path)
        self.switch_screen(combat_screen(self.table, setup=setup,
                                         told=told.lines(session.fight)))
        # the switch (the old screen removed) is the app's next callback; this one follows
        # it, and the last save is let go a moment after the new screen has been drawn:
        # right after the draw the old screen's timers and callbacks still hold it, and a
        # collection then (a walk of the whole heap) only found it held, every time
        self.call_next(self.call_after_refresh, self.set_timer, LET_GO_AGAIN,
                       partial(self.let_go, last, LET_GO_TRIES))

    def let_go(self, last: weakref.ref[object], tries: int) -> None:
        """The last save's fight collected and the open save frozen (`Collector.let_go`);
        while something still holds the last fight (its screen's timers stop a moment
        after the screen is gone), asked again a moment later, a few times at most."""
        if not COLLECTOR.let_go(last, anyway=tries <= 1):
            self.set_timer(LET_GO_AGAIN, partial(self.let_go, last, tries - 1))


if TYPE_CHECKING:  # the screens ask the app for no more than a Host: mypy holds it to one
    _host: type[Host] = RefereeApp


def remember_save(path: Path) -> None:
    """`path` first in the recent list ctrl+o opens on."""
    from referee.session.places import remember

    remember(path)


def known_theme(settings: Config) -> None:
    """The settings' theme is one of Textual's, or a LoadError naming the file's line."""
    from textual.theme import BUILTIN_THEMES

    if settings.theme and settings.theme not in BUILTIN_THEMES:
        names = ", ".join(sorted(BUILTIN_THEMES))
        raise LoadError(settings.where("theme"), f"no theme {settings.theme!r} (the themes: "
                        f"{names})", None, "theme")


def settled() -> None:
    """What is loaded now lives as long as the save is open (`Collector.settled`)."""
    COLLECTOR.settled()


def fresh_demo(saves: Path, bundled: Path, seed: int | None = None) -> Path:
    """A copy of the bundled demo to play on, with a seed of its own (every copy rolls
    its own dice); the bundled file is never touched."""
    saves.mkdir(parents=True, exist_ok=True)
    target = saves / f"demo-{time.strftime('%Y%m%d-%H%M%S')}.toml"
    number = 1
    while target.exists():
        number += 1
        target = saves / f"demo-{time.strftime('%Y%m%d-%H%M%S')}-{number}.toml"
    if seed is None:
        import secrets  # imported when a demo is copied, not with the app

        seed = secrets.randbelow(2**31)
    text = _SEED.sub(f"seed = {seed}", bundled.read_text(encoding="utf-8"), count=1)
    write_atomic(target, text)
    return target


_SEED = re.compile(r"^seed = -?\d+", re.MULTILINE)
