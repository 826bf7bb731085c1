"""Opening a save: ctrl+o opens on the recent saves (those the app opened, with every save
in the saves folder), most recent first (the fights under way before those not started
yet, and the one open now last), each with its title, ruleset, round (and whether the
fight is over) and when it last changed; `b` browses another folder (and may make it the
campaign directory, kept in the settings file).

The list is read in a worker from each save's header alone, so a folder of long fights
opens at once."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header

from referee.engine import RefereeError
from referee.engine.specs import Field, Form
from referee.engine.text import shown
from referee.session.files import LoadError, load_save
from referee.session.places import recent_saves, shown_path
from referee.session.store import SaveError

from .refusal import Refused
from .steady import Steady
from .widgets.footer import SteadyFooter

if TYPE_CHECKING:
    from textual import getters

    from .host import HostApp


class OpenScreen(Steady, Screen[Path | None]):
    if TYPE_CHECKING:
        app = getters.app(HostApp)

    BINDINGS = [
        Binding("enter", "open", "Open", priority=True),
        Binding("r", "replay", "Replay"),
        Binding("n", "new", "New encounter"),
        Binding("b", "browse", "Browse"),
        Binding("escape", "close", "Back"),
    ]

    class Listed(Message):
        def __init__(self, rows: list[dict[str, Any]]) -> None:
            super().__init__()
            self.rows = rows

    def __init__(self, folder: Path, recent: bool = True) -> None:
        super().__init__()
        self.folder = folder  # listed, and where `n` writes a new save named without a path
        self.recent = recent  # the recent saves too (ctrl+o), or this folder alone (`b`)
        self.others: dict[str, str] = {}  # path -> what a listed file that is no save is

    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable(id="saves", cursor_type="row")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.open_now = self.app.table.session.path.resolve()
        table = self.query_one(DataTable)
        for label in ("title", "ruleset", "round", "last changed", "file", "note"):
            table.add_column(label)
        table.focus()
        self.show(self.folder, self.recent)

    def show(self, folder: Path, recent: bool) -> None:
        """List `folder` (with the recent saves, or alone), read in a worker."""
        self.folder, self.recent = folder, recent
        shown_folder = shown(shown_path(folder))
        self.title = (f"referee — recent saves, and those in {shown_folder}" if recent
                      else f"referee — saves in {shown_folder}")
        self.load()

    @work(thread=True, exclusive=True)
    def load(self) -> None:
        paths = sorted(self.folder.glob("*.toml")) if self.folder.is_dir() else []
        if self.recent:  # each file once: the recent list holds whole resolved paths
            seen = {path.resolve() for path in paths}
            paths += [path for path in recent_saves() if path not in seen]
        rows = saves_listed(paths)
        if self.recent:  # fights under way first, then those not started (a fresh demo
            # copy), and the save open now last: it is open already
            rows.sort(key=lambda row: (row["path"].resolve() == self.open_now,
                                       not row.get("started", True)))
        self.post_message(self.Listed([other_file(row) if row["problem"] else row
                                       for row in rows]))

    def on_open_screen_listed(self, message: Listed) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for row in message.rows:
            changed = time.strftime("%Y-%m-%d %H:%M", time.localtime(row["changed"]))
            path: Path = row["path"]
            name = path.name if path.parent == self.folder else shown_path(path)
            round_ = f"{row['round']} ended" if row.get("ended") else str(row["round"])
            table.add_row(row["title"], row["ruleset"], round_, changed, shown(name),
                          row["problem"][:40], key=str(row["path"]))
        self.others = {str(row["path"]): row["kind"] for row in message.rows if "kind" in row}

    def chosen(self) -> Path | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        return Path(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value or "")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        path = self.chosen()
        kind = self.others.get(str(path)) if path is not None else None
        if path is not None and kind is not None:  # not a save: say what it is for
            self.notify(f"{shown(path.name)} is {kind}, not a save: {USES[kind]}",
                        title="Not opened", timeout=10)
            return
        self.dismiss(path)

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
        from referee.rulesets import available

        from .forms import form_screen

        rulesets = tuple((name, name) for name in available())
        chosen = self.app.settings.ruleset  # the settings' default ruleset, first offered
        default = chosen if chosen in dict(rulesets) else rulesets[0][1]
        fields = (Field("file", "file", required=True,
                        help=f"ambush.toml (in {shown_path(self.folder)}), or a path"),
                  Field("title", "title"),
                  Field("ruleset", "ruleset", "choice", default, options=rulesets),
                  Field("demo", "start from its demo", "bool", False))

        def create(values: dict[str, Any]) -> None:  # before the form closes: it may refuse
            path = self.new_path(values["file"])
            if path.exists():
                raise Refused(f"{path} exists: open it from the list", "file")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)  # the data directory's, at first
                new_save(path, values.get("title") or path.stem, values["ruleset"],
                         bool(values.get("demo")))
            except (SaveError, RefereeError, LookupError, OSError) as error:  # say so, stay
                raise Refused(str(error), "file") from None

        def done(values: dict[str, Any] | None) -> None:
            if values:
                self.dismiss(None)
                self.app.switch_to(self.new_path(values["file"]),
                                   setup=not values.get("demo"))

        self.app.push_screen(form_screen(Form("A new encounter", fields, focus="file"),
                                         apply=create), done)

    def new_path(self, typed: str) -> Path:
        """A bare name goes to the folder listed; a path stays where it is named."""
        name = Path(typed).expanduser()
        return self.folder / (name if name.suffix == ".toml" else name.with_name(
            name.name + ".toml"))

    def action_browse(self) -> None:
        """Another folder's saves; it may become the campaign directory (kept in the
        settings file), where new saves go from then on."""
        from referee.session.places import campaign_of, campaign_saves, is_campaign

        from .forms import form_screen

        fields = (Field("folder", "folder", required=True, default=shown_path(self.folder),
                        help="a folder of saves, or a campaign directory (it holds saves/)"),
                  Field("campaign", "my campaign", "bool", False,
                        help="yes: new saves go there from now on (kept in the settings)"))

        def where(values: dict[str, Any]) -> Path:
            folder = Path(str(values["folder"])).expanduser().absolute()
            return campaign_saves(folder) if is_campaign(folder) else folder

        def check(values: dict[str, Any]) -> None:  # before the form closes: it may refuse
            if not where(values).is_dir():
                raise Refused(f"{where(values)}: no such folder", "folder")

        def done(values: dict[str, Any] | None) -> None:
            if not values:
                return
            folder = where(values)
            if values.get("campaign"):
                campaign = campaign_of(folder)
                self.app.setting("campaign", shown_path(campaign))  # ~ as people write it
                self.app.saves = campaign_saves(campaign)
                self.notify(f"new saves go to {shown(shown_path(self.app.saves))}",
                            title="Campaign directory")
            self.show(folder, recent=False)

        self.app.push_screen(form_screen(Form("Browse saves", fields, focus="folder"),
                                         apply=check), done)

    def action_close(self) -> None:
        self.dismiss(None)


def saves_listed(paths: list[Path]) -> list[dict[str, Any]]:
    """Each file's row: title, ruleset, round reached, whether the fight is over and when
    it last changed, read from the header and the events' types alone (a long log is not
    folded); most recently changed first."""
    from referee.session.files import save_header

    rows: list[dict[str, Any]] = []
    for path in paths:
        try:
            changed = path.stat().st_mtime
        except OSError:
            changed = 0.0
        try:
            header = save_header(path)
        except LoadError as error:
            rows.append({"path": path, "title": shown(path.stem), "ruleset": "?", "round": 0,
                         "changed": changed, "problem": shown(error.reason), "ended": False,
                         "started": True})
            continue
        rows.append({"path": path, "title": header["title"] or shown(path.stem),
                     "ruleset": header["ruleset"], "round": header["round"],
                     "changed": changed, "problem": "", "ended": header["ended"],
                     "started": header["started"]})
    rows.sort(key=lambda row: -row["changed"])
    return rows


OTHER_BYTES = 1 << 20  # a roster or catalogue bigger than this is not looked into here
KINDS = {"referee-roster": "a party roster", "referee-catalogue": "a catalogue"}
USES = {"a party roster": "`referee play NEW.toml --party FILE` starts an encounter with "
                          "it, and set-up's i imports it",
        "a catalogue": "`referee play SAVE --catalogue FILE` offers its entries in set-up"}


def other_file(row: dict[str, Any]) -> dict[str, Any]:
    """A listed file that is not a save, said for what it is (a party roster or a
    catalogue, with its ruleset) when it is one; otherwise the row as it was."""
    from referee.session.files import parse_toml, read_text

    path: Path = row["path"]
    try:
        if path.stat().st_size > OTHER_BYTES:
            return row
        data = parse_toml(read_text(path), str(path))
    except (LoadError, OSError):
        return row
    kind = KINDS.get(str(data.get("format")))
    if kind is None:
        return row
    ruleset = data.get("ruleset")
    ruleset = ruleset if isinstance(ruleset, str) and ruleset else "?"
    title = data.get("title")
    what = kind.removeprefix("a ")
    if kind == KINDS["referee-catalogue"] and isinstance(data.get("kind"), str):
        what += f" of {data['kind']}"
    return {**row, "title": title if isinstance(title, str) and title else path.stem,
            "ruleset": ruleset, "round": "—", "problem": what, "kind": kind}


def new_save(path: Path, title: str, ruleset: str, demo: bool = False,
             seed: int | None = None) -> None:
    """An encounter to set up (two sides, no one yet), or a copy of the ruleset's demo;
    either way with `seed`, or a fresh seed of its own (no two encounters share dice)."""
    from referee.engine import Encounter, Side
    from referee.session.demos import demo_for, demo_text, fresh_seed
    from referee.session.store import Session, write_atomic

    seed = fresh_seed() if seed is None else seed
    if demo:
        try:
            write_atomic(path, demo_text(demo_for(ruleset), seed), replace=False)
        except FileExistsError:
            raise SaveError(f"{path}: exists; nothing was written") from None
        return
    sides = (Side("party", "The party", players=True), Side("foes", "Foes"))
    Session.create(path, Encounter(ruleset, title, seed, sides, ())).close()
