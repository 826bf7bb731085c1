"""A report's charts drawn with plotext (textual-plotext): the engine's `Chart` spec
says what to draw, this says how; nothing here knows which ruleset made it."""

from __future__ import annotations

from typing import Any

from textual_plotext import PlotextPlot

from referee.engine.specs import Chart

# A stacked bar's series in order: the first (a win) good, the last (a loss) bad.
TONES = ("green", "yellow", "red", "blue", "magenta", "cyan")


class ChartView(PlotextPlot):
    """One chart; redrawn by plotext at whatever size the layout gives it."""

    def __init__(self, chart: Chart, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chart = chart

    def on_mount(self) -> None:
        draw(self.plt, self.chart)


def draw(plt: Any, chart: Chart) -> None:
    plt.clear_figure()
    plt.title(title_of(chart))
    labels = list(chart.labels)
    values = [list(s.values) for s in chart.series]
    if chart.kind == "histogram":
        plt.bar(labels, values[0], color=TONES[3], width=0.6)
        if chart.unit == "%":
            plt.ylim(0, 100)
            plt.yticks([0, 50, 100])
    elif len(values) == 1:
        plt.bar(labels, values[0], orientation="h", color=TONES[0], width=0.6)
    else:
        # no legend: plotext draws it over the bars; the title names the tones instead
        plt.stacked_bar(labels, values, orientation="h", color=list(TONES[: len(values)]),
                        width=0.6)
    if chart.kind != "histogram" and chart.unit == "%":
        plt.xlim(0, 100)


def height_of(chart: Chart) -> int:
    """Rows a chart needs to stay legible: a bar chart two a label, a histogram a few."""
    if chart.kind == "histogram":
        return 9
    return 3 + 2 * len(chart.labels)


def title_of(chart: Chart) -> str:
    """The chart's title; a stacked bar's names its series' tones, as a legend would."""
    if chart.kind == "histogram" or len(chart.series) < 2:
        return chart.title
    names = "/".join(s.name for s in chart.series)
    tones = "/".join(TONES[: len(chart.series)])
    return f"{names} {chart.title} ({tones})"
