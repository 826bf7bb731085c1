"""The combat screen's operations on files and the rest of the app (save as, the party
written, open, set-up, replay, help, the players' view): none of them is a table act, none
changes the fight's log."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from referee.engine import RefereeError
from referee.engine.specs import Field, Form
from referee.session.store import SaveError

from .refusal import Refused
from .steady import Steady

if TYPE_CHECKING:
    from textual import getters

    from referee.engine import events as ev
    from referee.session.table import Table
    from referee.session.view import LogLine

    from .host import HostApp


PAGES_TICK = 1.0  # seconds between looks at who is deciding on the players' pages


class Filing(Steady, Screen[None]):
    """The combat screen's base: each of these keys' work, asking through the combat
    screen's forms."""

    if TYPE_CHECKING:
        app = getters.app(HostApp)
        table: Table

        def ask(self, spec: Form, done: Callable[[dict[str, Any]], object]) -> None: ...

        def ask_then(self, spec: Form, after: Callable[[dict[str, Any]], None]) -> None: ...

        def refresh_view(self) -> None: ...

        def shown_appended(self, lines: list[LogLine]) -> None: ...

        def reload(self) -> None: ...

    def action_save_as(self) -> None:
        session = self.table.session

        def save_as(target: Path, force: bool, _: dict[str, Any]) -> str:
            from .phones import pages_end

            session.save_as(target, replace=force)
            pages_end(self.app, "the fight goes on in another file")
            self.refresh_view()
            return f"saved as {target}; the fight goes on there"

        self.ask_path("Save as", None, "a new name", save_as)

    def action_party(self) -> None:
        """The players' sides as the fight left them, to a roster for the next encounter
        (`referee play NEW --party FILE`, or set-up's import)."""
        from referee.engine.options import carry_questions
        from referee.session.output import write_output
        from referee.session.party import party_file

        session = self.table.session
        fight = self.table.fight
        # what the ruleset leaves open as the party is written, beside the file name
        questions = carry_questions(fight.ruleset, fight)

        def write(target: Path, force: bool, values: dict[str, Any]) -> str:
            answers = {f.name: values[f.name] for f in questions if f.name in values}
            text, said = party_file(self.table.fight, answers)
            write_output(target, text, [session.path], force)
            return f"wrote {target.name}: {said}"

        self.ask_path("Write the party", "party.toml", "", write, questions)

    def ask_path(self, title: str, default: str | None, hint: str,
                 write: Callable[[Path, bool, dict[str, Any]], str],
                 extra: tuple[Field, ...] = ()) -> None:
        """A file beside the save, asked for (never the save itself, nor a file there
        unless "replace a file there" is set), and `write` done to it, given every answer
        (`extra`: more fields asked after the file's): a refusal keeps the form open on
        the path."""
        session = self.table.session
        fields = (Field("path", "file", "text", default, required=True,
                        help=f"beside {session.path.name}" + (f": {hint}" if hint else "")),
                  Field("force", "replace a file there", "bool", False,
                        help="never this save itself")) + extra

        def done(values: dict[str, Any]) -> None:
            from referee.session.output import claim

            target = Path(values["path"])
            if not target.is_absolute():
                target = session.path.parent / target
            force = bool(values.get("force"))
            try:
                claim(target, [session.path], force, how="'replace a file there' replaces it")
                said = write(target, force, values)
            except (SaveError, RefereeError) as error:
                raise Refused(str(error), "path") from None
            self.notify(said, title=title)

        self.ask(Form(title, fields), done)

    def action_open(self) -> None:
        self.app.action_open()

    def action_setup(self) -> None:
        from .setup import SetupScreen

        self.app.push_screen(SetupScreen(self.table.session, self.app.catalogues),
                             lambda _: self.reload())

    def action_replay(self) -> None:
        self.app.action_replay()

    def action_help(self) -> None:
        self.app.action_help()

    async def action_serve(self) -> None:
        """Serve the players' view of this save to browsers (asked where first); while it
        is served, show its address again (where `V` stops serving it)."""
        from .phones import players_of
        from .watch import STARTING, ServingScreen, served_address

        if id(self.app) in STARTING:  # asked again while its process starts: one view
            self.notify("starting: its address shows in a moment", title="Players' view")
            return
        address = served_address(self.app)
        if address is not None:
            self.app.push_screen(ServingScreen(address, "?token=" in address,
                                               players_of(self.app)))
            return
        field = Field("where", "who may watch", "choice", "local",
                      options=(("this machine only", "local"),
                               ("the table's network (a TV, phones)", "network")))
        self.ask_then(Form("Serve the players' view", (field,),
                           hint="the network: the address carries a code; anyone there "
                                "with it can watch, no one can change the fight; each "
                                "player gets a page of their own to declare from"),
                      self.chosen_where)

    def chosen_where(self, values: dict[str, Any]) -> None:
        self.run_worker(self.serve_on(values["where"]))

    async def serve_on(self, where: str) -> None:
        """The players' own pages first, on the settings' view_port (where `referee links`
        says they are), then the view on the next free port; a save without players' sides
        has the view alone, there."""
        from .watch import STARTING

        STARTING.add(id(self.app))  # until the view is served or refused
        try:
            await self.start_view(where)
        finally:
            STARTING.discard(id(self.app))

    async def start_view(self, where: str) -> None:
        from referee.phones.addresses import ServeError

        from .phones import pages_port
        from .watch import ServingScreen, start_serving

        network = where == "network"
        try:
            players = await self.serve_phones(network)
            if players and not getattr(self, "pages_ticking", False):
                self.pages_ticking = True
                self.set_interval(PAGES_TICK, self.pages_tick)
            address = await start_serving(self.app, self.table.session.path, network,
                                          self.app.max_viewers,
                                          pages_port(self.app) + 1 if players else None)
        except ServeError as error:
            self.notify(str(error), title="Players' view", severity="error", timeout=10)
            return
        self.app.push_screen(ServingScreen(address, network, players))

    async def serve_phones(self, network: bool) -> list[tuple[str, str]]:
        """The players' own pages, served from this app (it holds the save's writer):
        each player's name and address."""
        from referee.phones.addresses import DEFAULT_HOST, DEFAULT_PORT, ServeError

        from .phones import start_phones

        host = "0.0.0.0" if network else DEFAULT_HOST
        first = self.app.settings.view_port or DEFAULT_PORT
        try:
            return await start_phones(self.app, self.table, self.table.session.path, host,
                                      first, self.from_page, self.app.clock)
        except OSError as error:
            raise ServeError(f"the players' pages cannot be served: "
                             f"{error.strerror or error}") from None

    def pages_tick(self) -> None:
        """While the players' pages are served: the screen drawn again when who is deciding
        on a page changed (a page opened or left tells the log nothing)."""
        from .phones import desk_of

        desk = desk_of(self.app)
        now = frozenset(desk.deciding()) if desk is not None else frozenset()
        if now != getattr(self, "pages_deciding", frozenset()):
            self.pages_deciding = now
            self.refresh_view()

    def from_page(self, events: list[ev.Event]) -> None:
        """Events a player's page entered: drawn as the referee's own are, and said."""
        lines = self.table.told()
        self.shown_appended(lines)
        for line in lines:
            self.notify(line.text, title="From a player's page", timeout=6, markup=False)


