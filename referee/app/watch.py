"""The players' view: a read-only screen that follows a save as the referee plays.

`referee watch SAVE` runs it in a terminal; `referee serve SAVE` runs one per browser
(textual-serve). It polls the save every POLL seconds (`session.follow.Follower`, which
reads only what was appended) and shows what `follow.players_view` allows: the round,
the order of play with the current beat marked, who has declared, conditions and each
combatant's state in words. No key does anything but scroll and quit; nothing here
writes to the save.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from referee.phones.addresses import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    ServeError,
    free_port,
    local_addresses,
    with_token,
)
from referee.session.follow import Follower, PlayersView, players_view

from .steady import Steady

POLL = 0.2  # seconds between looks at the save
TONES = ["bold cyan", "bold red", "bold green", "bold magenta", "bold yellow", "bold blue"]
STATE_STYLE = {"unhurt": "green", "wounded": "yellow", "badly wounded": "bold yellow",
               "down": "bold red", "dead": "bold red"}


def tracker_table(shown: PlayersView) -> RichTable:
    table = RichTable(expand=True, show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("", width=1)
    table.add_column("combatant", ratio=3)
    table.add_column("side", ratio=2)
    if shown.has_declarations:
        table.add_column("declared", ratio=3)
    table.add_column("conditions", ratio=2)
    table.add_column("state", ratio=2)
    for row in shown.rows:
        tone = row.side_tone.removeprefix("side")
        side_style = TONES[int(tone)] if tone.isdigit() else ""
        cells: list[Text | str] = [
            Text("▶", "bold") if row.acting else "",
            Text(row.name, "bold" if row.acting else ""),
            Text(row.side, side_style),
        ]
        if shown.has_declarations:
            cells.append(row.declared)
        cells += [row.conditions, Text(row.state, STATE_STYLE.get(row.state, ""))]
        table.add_row(*cells)
    return table


def plan_text(shown: PlayersView) -> Text:
    if shown.secret:
        return Text("Declarations are secret until initiative is in.", "italic")
    if not shown.plan:
        return Text("No order of play yet.", "italic")
    text = Text()
    for beat in shown.plan:
        style = "bold reverse" if beat.mark == "▶" else "dim" if beat.mark in "✓✗" else ""
        text.append(f"{beat.mark or ' '} {beat.label:>6}  {beat.actions}\n", style)
    return text


class WatchApp(App[None]):
    """One save, shown to the players as it changes."""

    TITLE = "referee — players' view"
    CSS = """
    Screen { background: $surface; }
    #heading { padding: 0 1; text-style: bold; background: $primary-background; }
    #notice { padding: 0 1; background: $error; color: $text; display: none; }
    #notice.shown { display: block; }
    .part { padding: 0 1; margin-bottom: 1; }
    .caption { padding: 0 1; text-style: bold; color: $accent; }
    #logbox { dock: bottom; height: auto; max-height: 40%; border-top: solid $accent;
              border-title-color: $accent; border-title-style: bold; }
    #log { padding: 0 1; }
    """
    # read-only: nothing but scrolling and quitting
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("up", "scroll('up')", "Scroll up", show=False),
        Binding("down", "scroll('down')", "Scroll down", show=False),
        Binding("pageup", "scroll('page_up')", "Page up", show=False),
        Binding("pagedown", "scroll('page_down')", "Page down", show=False),
    ]
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, path: Path | str, poll: float = POLL) -> None:
        super().__init__(driver_class=served_driver())
        from .nocolor import honour_no_color

        honour_no_color(self)  # NO_COLOR: drawn in monochrome, never stopped by it
        self.follower = Follower(path)
        self.poll_every = poll
        self.shown: PlayersView | None = None
        self.renders = 0  # how many times the view was redrawn (tests wait on it)

    def compose(self) -> ComposeResult:
        yield Static("", id="heading")
        yield Static("", id="notice")
        with VerticalScroll(id="body"):
            yield Static("Combatants", classes="caption")
            yield Static("", id="tracker", classes="part")
            yield Static("Order of play", classes="caption")
            yield Static("", id="plan", classes="part")
        with VerticalScroll(id="logbox"):  # below the rest, its newest line in view
            yield Static("", id="log")

    def on_mount(self) -> None:
        self.query_one("#logbox").border_title = "Log"
        self.follow()
        self.set_interval(self.poll_every, self.follow)
        self.call_after_refresh(self.to_newest)

    def to_newest(self) -> None:
        """The newest line of the log in view (where it is as the fight goes on); the
        tracker stays where it is (at the top when the view opens)."""
        self.query_one("#logbox", VerticalScroll).scroll_end(animate=False)

    def action_scroll(self, where: str) -> None:
        body = self.query_one("#body", VerticalScroll)
        getattr(body, f"scroll_{where}")(animate=False)

    def follow(self) -> None:
        """Look at the save; redraw when anything changed."""
        if self.follower.poll() or self.shown is None:
            self.redraw()

    def redraw(self) -> None:
        log = self.query_one("#logbox", VerticalScroll)
        following = log.scroll_y >= log.max_scroll_y  # at the newest line: stay there
        self.draw()
        if following:
            self.call_after_refresh(self.to_newest)

    def draw(self) -> None:
        follower = self.follower
        notice = self.query_one("#notice", Static)
        notice.update(follower.notice)
        notice.set_class(bool(follower.notice), "shown")
        fight = follower.fight
        if fight is None:
            self.query_one("#heading", Static).update(f"Waiting for {follower.path.name} …")
            self.renders += 1
            return
        shown = self.shown = players_view(fight, follower.title, follower.told)
        heading = f"{shown.title or follower.path.stem} · round {shown.round} · {shown.phase}"
        if shown.ended:
            heading += " · the fight is over"
        self.query_one("#heading", Static).update(heading)
        self.query_one("#tracker", Static).update(tracker_table(shown))
        self.query_one("#plan", Static).update(plan_text(shown))
        self.query_one("#log", Static).update("\n".join(shown.log) or "—")
        self.sub_title = follower.path.name
        self.renders += 1


# -- serving it to browsers ------------------------------------------------------------
# (`referee serve` itself: referee.app.serving, which imports none of Textual)


def served_driver() -> Any:
    """Behind `referee serve` (textual-serve names its web driver in TEXTUAL_DRIVER): the
    hardened one a browser cannot flood; otherwise Textual's own choice."""
    import os

    if "web_driver" not in os.environ.get("TEXTUAL_DRIVER", ""):
        return None
    from .viewdriver import ViewDriver

    return ViewDriver


# -- the referee's key: serve the current save from the app ----------------------------

_SERVING: dict[int, tuple[Any, str]] = {}  # id(app) -> (process, address)
STARTING: set[int] = set()  # id(app) of each app whose view is being started (`V`)


def serving(app: App[Any]) -> bool:
    """Whether this app is serving the players' view now."""
    running = _SERVING.get(id(app))
    return running is not None and running[0].returncode is None


async def stop_serving(app: App[Any]) -> str:
    running = _SERVING.pop(id(app), None)
    if running is not None:
        process, _ = running
        if process.returncode is None:
            process.terminate()
            await process.wait()
    return "The players' view is no longer served."


async def start_serving(app: App[Any], path: Path, network: bool,
                        max_viewers: int | None = None, first: int | None = None) -> str:
    """Serve `path` to browsers (a `referee serve` process): on this machine only, or on
    the table's network (the laptop's address, with a token in it); the address to open,
    once it takes connections. It takes the first free port from `first` (default: the
    settings' view_port); if another program takes that port before the view listens on
    it, the next free one. ServeError when it cannot be served."""
    import atexit
    import secrets

    await stop_serving(app)
    host = "0.0.0.0" if network else DEFAULT_HOST
    settings = getattr(app, "settings", None)  # the referee's view_port: looked for first
    port = first or getattr(settings, "view_port", None) or DEFAULT_PORT
    token = secrets.token_urlsafe(9) if network else None
    for _ in range(STARTS):
        port = free_port(host, port)
        process = await served_process(path, host, port, token, max_viewers)
        if await listens(process, host, port):
            break
        port += 1  # taken between the look and the listen (or it could not start there)
    else:
        raise ServeError(f"the players' view could not be started ({STARTS} tries, "
                         f"up to port {port - 1})")
    address = with_token(local_addresses(host, port)[-1], token)
    _SERVING[id(app)] = (process, address)

    def stop() -> None:
        if process.returncode is None:
            process.terminate()

    atexit.register(stop)
    return address


STARTS = 3  # ports tried when the served view's process ends before it listens
START_WAIT = 20.0  # seconds for it to listen; a slow machine's start is not a failure


async def served_process(path: Path, host: str, port: int, token: str | None,
                         max_viewers: int | None) -> Any:
    """A `referee serve` of `path` on `port`, ending with this process."""
    import asyncio
    import os
    import sys

    command = [sys.executable, "-m", "referee", "serve", str(path), "--host", host,
               "--port", str(port), "--exit-with", str(os.getpid())] + (
                   ["--token", token] if token else []) + (
                   ["--max-viewers", str(max_viewers)] if max_viewers else [])
    with open(os.devnull, "r+b") as null:  # the server's own output goes nowhere
        return await asyncio.create_subprocess_exec(
            *command, stdin=null, stdout=null, stderr=null, start_new_session=True)


async def listens(process: Any, host: str, port: int) -> bool:
    """Whether the served view takes connections on `port` (True) or its process ended
    first (False). Still starting after START_WAIT: True (its screen says if it ends)."""
    import asyncio
    import time

    target = DEFAULT_HOST if host == "0.0.0.0" else host
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        if process.returncode is not None:
            return False
        try:
            _, writer = await asyncio.wait_for(asyncio.open_connection(target, port), 1)
        except OSError:  # refused, or no answer in a second (TimeoutError is one)
            await asyncio.sleep(0.05)
            continue
        writer.close()
        return process.returncode is None
    return process.returncode is None


def served_address(app: App[Any]) -> str | None:
    """The address this app serves the players' view at now, if it does."""
    return _SERVING[id(app)][1] if serving(app) else None


class ServingScreen(Steady, ModalScreen[None]):
    """The address of the players' view while it is served: whole on one line (its token
    unbroken), with who can watch and, on the network, its QR code. Esc closes it (the
    view stays served; `V` shows it again); `V` here stops serving. It closes itself when
    serving stops."""

    DEFAULT_CSS = """
    ServingScreen { align: center middle; }
    #serving { width: auto; max-width: 100%; height: auto; max-height: 100%;
               border: round $accent; padding: 0 1; background: $panel;
               overflow-x: auto; overflow-y: auto; }
    #serving-address { width: auto; text-style: bold; text-wrap: nowrap; }
    #serving-who { width: 100%; max-width: 76; }
    #serving-code, .serving-player-code { width: auto; text-wrap: nowrap; }
    #serving-players { width: 100%; max-width: 76; margin-top: 1; }
    .serving-player { width: auto; text-style: bold; text-wrap: nowrap; margin-top: 1; }
    """
    BINDINGS = [Binding("escape,enter", "close", "Close (the view stays served)"),
                Binding("V", "stop", "Stop serving"),
                Binding("d", "declarations", "Close or reopen declarations on the pages")]

    def __init__(self, address: str, network: bool,
                 players: list[tuple[str, str]] | None = None) -> None:
        super().__init__()
        self.address, self.network, self.players = address, network, players or []

    def compose(self) -> ComposeResult:
        who = ("Anyone on this network with this address (or the code) can watch; no one "
               "can change the fight." if self.network else "This machine only.")
        with VerticalScroll(id="serving"):
            yield Static(Text(self.address, no_wrap=True), id="serving-address")
            yield Static(who, id="serving-who")
            if self.network:
                yield Static(Text(qr_text(self.address).strip("\n"), no_wrap=True),
                             id="serving-code")
            if self.players:
                yield Static("Each player's own page, to declare and type their dice "
                             "(keep them private: a link acts for its player; referee links "
                             "SAVE --revoke makes new ones):", id="serving-players")
            for name, link in self.players:
                yield Static(Text(f"{name}: {link}", no_wrap=True), classes="serving-player")
                if self.network:
                    yield Static(Text(qr_text(link).strip("\n"), no_wrap=True),
                                 classes="serving-player-code")

    def on_mount(self) -> None:
        box = self.query_one("#serving")
        box.border_title = "Serving the players' view"
        box.border_subtitle = "Esc close · V stop serving" + (
            " · d close declarations on the pages" if self.declaring() else "")
        self.set_interval(0.5, self.check)

    def check(self) -> None:
        if not serving(self.app):
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

    def declaring(self) -> bool:
        """Whether the players' pages take declarations (their ruleset has them)."""
        from referee.engine.options import Declaring

        from .phones import desk_of

        desk = desk_of(self.app)
        return desk is not None and desk.fight.ruleset.role(Declaring) is not None

    def action_declarations(self) -> None:
        """The referee says declarations are closed on the players' pages this round (or
        open again): a page that sends one after is refused."""
        from .phones import desk_of

        desk = desk_of(self.app)
        if desk is None or not self.declaring():
            return
        closing = desk.closed != max(desk.fight.round, 1)
        desk.close_declarations(closing)
        self.app.notify("Declarations are closed on the players' pages for this round."
                        if closing else "Declarations are open again on the players' pages.",
                        title="Players' pages")

    async def action_stop(self) -> None:
        from .phones import stop_phones

        await stop_phones(self.app)
        said = await stop_serving(self.app)
        self.dismiss(None)
        self.app.notify(said, title="Players' view")


def qr_text(address: str) -> str:
    """A QR code of the address drawn in text, when segno is installed (optional)."""
    try:
        import segno
    except ImportError:
        return ""
    code = segno.make(address, error="l")
    rows = [[bool(v) for v in row] for row in code.matrix_iter(scale=1, border=1)]
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2] + [[False] * len(rows[0])], strict=False):
        lines.append("".join(" " if t and b else "▄" if t else "▀" if b else "█"
                             for t, b in zip(top, bottom, strict=True)))
    return "\n" + "\n".join(lines)
