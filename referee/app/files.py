"""Opening a save from the saves folder: title, ruleset, round and when it last changed."""

from __future__ import annotations

import time
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header

from referee.engine import RefereeError
from referee.session.files import LoadError, load_save
from referee.session.store import SaveError
from referee.session.table import list_saves


class OpenScreen(Screen[Path | None]):
    BINDINGS = [
        Binding("enter", "open", "Open", priority=True),
        Binding("r", "replay", "Replay"),
        Binding("n", "new", "New encounter"),
        Binding("escape", "close", "Back"),
    ]

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable(id="saves", cursor_type="row")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"referee — saves in {self.folder}"
        table = self.query_one(DataTable)
        for label in ("title", "ruleset", "round", "last changed", "file", "note"):
            table.add_column(label)
        for row in list_saves(self.folder):
            changed = time.strftime("%Y-%m-%d %H:%M", time.localtime(row["changed"]))
            table.add_row(row["title"], row["ruleset"], str(row["round"]), changed,
                          row["path"].name, row["problem"][:40], key=str(row["path"]))
        table.focus()

    def chosen(self) -> Path | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        return Path(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        self.dismiss(self.chosen())

    def action_replay(self) -> None:
        from .replay import ReplayScreen

        path = self.chosen()
        if path is None:
            return
        try:
            self.app.push_screen(ReplayScreen(load_save(path)))
        except LoadError as error:
            self.notify(str(error), severity="error")

    def action_new(self) -> None:
        from referee.session.files import builtin_rulesets

        from .forms import Field, Form

        rulesets = [(name, name) for name in sorted(builtin_rulesets())]
        fields = [Field("file", "file", placeholder="ambush.toml"), Field("title", "title"),
                  Field("ruleset", "ruleset", "choice", "demon-idol", rulesets)]

        def done(values: dict | None) -> None:
            if not values or not values.get("file"):
                return
            name = values["file"] if values["file"].endswith(".toml") else values["file"] + ".toml"
            path = self.folder / name
            if path.exists():
                self.notify(f"{path} exists: open it from the list", severity="error")
                return
            try:
                new_save(path, values.get("title") or path.stem, values["ruleset"])
            except (SaveError, RefereeError, OSError) as error:  # say so, stay here
                self.notify(str(error), severity="error")
                return
            self.dismiss(path)
            self.app.call_later(self.app.action_setup)

        self.app.push_screen(Form("A new encounter", fields, focus="file"), done)

    def action_close(self) -> None:
        self.dismiss(None)


def new_save(path: Path, title: str, ruleset: str) -> None:
    """An encounter with two sides and no one yet: set it up next."""
    from referee.engine import Encounter, Side
    from referee.session.store import Session

    sides = (Side("party", "The party", players=True), Side("foes", "Foes"))
    Session.create(path, Encounter(ruleset, title, 1, sides, ())).close()
