"""A report (the odds): worked out in a worker thread behind a progress bar, then shown
as charts beside the list of its runs; any run opens in replay.

The screen only renders the `Report` spec and calls what it was given: the work (the
table's `reporter`, which never writes to the save) and the writing of one run to a new
file (the table's `write_run`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Label, ProgressBar, Static
from textual.worker import WorkerCancelled, get_current_worker

from referee.engine import RefereeError
from referee.engine.specs import Field, Form, Report, ReportRun
from referee.session.files import LoadError, load_save
from referee.session.store import SaveError

from .charts import ChartView, height_of
from .forms import form_screen
from .refusal import Refused
from .steady import Steady
from .widgets.footer import SteadyFooter

if TYPE_CHECKING:
    from textual import getters

    from .host import HostApp

Progress = Callable[[int, int], None]
Work = Callable[[Progress | None], Report | None]


class ReportScreen(Steady, Screen[None]):
    if TYPE_CHECKING:
        app = getters.app(HostApp)

    BINDINGS = [
        Binding("escape", "close", "Back"),
        # priority: the runs' table would take Enter for itself, hidden from the footer
        Binding("enter", "open_selected", "Open run", priority=True),
        Binding("g", "open_number", "Run number"),
        Binding("question_mark", "help", "Help"),
    ]

    def __init__(self, title: str, job: Work, write_run: Callable[[ReportRun], Path]) -> None:
        super().__init__()
        self.heading, self.job, self.write_run = title, job, write_run
        self.report: Report | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="report"):
            yield Label(f"{self.heading}: working it out …", id="report-title")
            yield ProgressBar(id="report-progress", show_eta=False)
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.title = "referee — report"
        self.compute()

    # -- the work, in a thread -----------------------------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False)
    def compute(self) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:  # the screen was closed: stop drawing at once
                raise WorkerCancelled()
            self.app.call_from_thread(self.advanced, done, total)

        try:
            report = self.job(progress)
        except RefereeError as error:
            if not worker.is_cancelled:
                self.app.call_from_thread(self.refused, str(error))
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self.show, report)

    def advanced(self, done: int, total: int) -> None:
        self.query_one(ProgressBar).update(total=total, progress=done)

    def refused(self, why: str) -> None:
        self.notify(why, title="No report", severity="error", timeout=8)
        self.dismiss()

    # -- the report ------------------------------------------------------------------------

    def show(self, report: Report | None) -> None:
        if report is None:
            self.refused(f"{self.heading}: nothing to report")
            return
        self.report = report
        self.query_one("#report-title", Label).update(report.title)
        self.query_one(ProgressBar).remove()
        body = Horizontal(id="report-body")
        self.query_one("#report", Vertical).mount(body)
        charts = VerticalScroll(id="report-charts")
        runs: DataTable[str] = DataTable(id="report-runs", cursor_type="row",
                                         zebra_stripes=True)
        body.mount(charts, runs)
        charts.mount(Static("\n".join(report.lines), id="report-lines"))
        bars = [c for c in report.charts if c.kind != "histogram"]
        for chart in bars:
            charts.mount(self.chart_view(chart))
        histograms = [c for c in report.charts if c.kind == "histogram"]
        if histograms:
            grid = Grid(id="report-histograms")
            charts.mount(grid)
            grid.mount_all(self.chart_view(chart) for chart in histograms)
            self.fit_histograms()
        runs.add_columns("run", "seed", "outcome")
        runs.add_rows((str(r.number), str(r.seed), r.outcome) for r in report.runs)
        self.call_after_refresh(runs.focus)  # once it is mounted

    def on_resize(self) -> None:
        self.fit_histograms()

    def fit_histograms(self) -> None:
        """As many histograms a row as stay legible (about 20 cells each)."""
        for grid in self.query("#report-histograms").results(Grid):
            count = len(grid.children)
            width = self.size.width - 31  # the runs' list takes 30 and a border
            grid.styles.grid_size_columns = max(1, min(count, width // 20))
            grid.styles.grid_rows = "9"

    @staticmethod
    def chart_view(chart: Any) -> ChartView:
        view = ChartView(chart, classes=f"chart {chart.kind}")
        view.styles.height = height_of(chart)
        return view

    # -- opening a run ---------------------------------------------------------------------

    def on_data_table_row_selected(self, message: DataTable.RowSelected) -> None:
        message.stop()
        self.open_run(message.cursor_row + 1)

    def action_open_selected(self) -> None:
        if self.report is not None:
            self.open_run(self.query_one("#report-runs", DataTable).cursor_row + 1)

    def action_open_number(self) -> None:
        if self.report is None:
            return
        field = Field("run", "run number", "int", required=True, minimum=1,
                      help=f"1 to {len(self.report.runs)}")

        def check(values: dict[str, Any]) -> None:
            if self.report is not None and int(values["run"]) > len(self.report.runs):
                raise Refused(f"there is no run {values['run']} (1 to "
                              f"{len(self.report.runs)})", "run")

        def chosen(values: dict[str, Any] | None) -> None:
            if values is not None:
                self.open_run(int(values["run"]))

        self.app.push_screen(form_screen(Form("Open a run in replay", (field,)), apply=check),
                             chosen)

    def open_run(self, number: int) -> None:
        """Run `number` written to a new file beside the save, then replayed."""
        from .replay import ReplayScreen

        run = self.report.run(number) if self.report else None
        if run is None:
            self.notify(f"there is no run {number}", title="Not opened", severity="error")
            return
        try:
            path = self.write_run(run)
            save = load_save(path)
        except (RefereeError, SaveError, LoadError, OSError) as error:
            self.notify(str(error), title="Not written", severity="error", timeout=10)
            return
        self.notify(f"run {number} (seed {run.seed}) written to {path.name}")
        self.app.push_screen(ReplayScreen(save))

    def action_close(self) -> None:
        self.workers.cancel_node(self)
        self.dismiss()

    def action_help(self) -> None:
        self.app.action_help()
