"""`make bench-compare` (benchmarks/compare.py, worker.py, figures.py) without timing
anything: the statistics on made-up samples, the figures every benchmark declares, and
the worker protocol round-tripping a fake figure in fresh processes."""

from __future__ import annotations

import importlib
import io
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import compare  # noqa: E402
import figures  # noqa: E402

MODULES = sorted(p.stem for p in BENCHMARKS.glob("*_bench.py"))


def figure(name: str = "f", stat: str = "median", series: str = "") -> dict:
    return {"name": name, "text": name, "series": series, "stat": stat, "goal": "",
            "floor": None, "unit": "ms"}


def pairs(*values: list[float]) -> list[dict[str, list[float]]]:
    return [{"": list(v)} for v in values]


# -- the statistics --------------------------------------------------------------------


def test_a_figures_ratio_is_the_median_of_the_pairs_ratios_with_their_spread():
    base = pairs([10, 10, 10], [20, 20, 20], [10, 11, 9])
    here = pairs([11, 11, 11], [20, 20, 20], [12, 12, 12])
    row = compare.row(figure(), base, here)
    assert row.ratios == pytest.approx([1.1, 1.0, 1.2])
    assert row.ratio == pytest.approx(1.1)
    assert (min(row.ratios), max(row.ratios)) == pytest.approx((1.0, 1.2))
    assert row.base == 10 and row.here == 12  # each tree's median of every sample


def test_worse_only_past_five_percent_and_in_every_pair():
    def flagged(*ratios: float) -> bool:
        return compare.Row("f", 1.0, 1.0, list(ratios)).worse

    assert flagged(1.06, 1.07, 1.08)
    assert not flagged(1.06, 0.99, 1.20)  # one pair faster: noise can do that
    assert not flagged(1.30, 1.40)  # two pairs can both be above by chance
    assert not flagged(1.04, 1.05, 1.03)  # within 5%
    assert not flagged(1.05, 1.05, 1.05)
    assert not compare.Row("f", None, 1.0, [], na="ImportError").worse


def test_a_p95_figure_takes_each_pairs_p95():
    base = pairs(list(range(1, 101)), list(range(1, 101)))
    here = pairs([2 * v for v in range(1, 101)], list(range(1, 101)))
    row = compare.row(figure(stat="p95"), base, here)
    assert row.ratios == [2.0, 1.0]
    assert row.base == 95


def test_a_figure_against_its_floor_in_each_tree():
    floor = figure("floor")
    row = compare.row(figure(), pairs([30], [30]), pairs([40], [44]),
                      {"figure": floor, "pairs": (pairs([10], [10]), pairs([10], [11]))})
    assert row.floors == pytest.approx((3.0, 4.0))


def test_the_table_says_what_the_base_lacks_and_flags_the_worse():
    rows = [compare.Row("plan.fast", 10.0, 9.0, [0.9, 0.89]),
            compare.Row("plan.slow", 10.0, 12.0, [1.2, 1.19, 1.21]),
            compare.Row("plan.new", None, 3.0, [], na="ImportError: no module")]
    lines = compare.table(rows)
    assert "WORSE" in lines[2] and "WORSE" not in lines[1]
    assert "n/a in base" in lines[3] and "3.00 ms" in lines[3]


# -- the figures every benchmark declares ------------------------------------------------


def declared() -> dict[str, list[figures.Measure]]:
    return {name: importlib.import_module(name).MEASURES for name in MODULES}


def test_every_benchmark_declares_measures_with_figures_named_once():
    names = [f.name for measures in declared().values() for m in measures for f in m.figures]
    assert len(MODULES) >= 8 and len(names) == len(set(names))
    for module, measures in declared().items():
        here = {f.name for m in measures for f in m.figures}
        prefixes = {name.split(".")[0] for name in here}
        assert len(prefixes) == 1, (module, prefixes)  # one module's figures, one prefix
        for m in measures:
            assert m.script[0] >= 1 and m.script[1] >= 1 and m.compare[0] >= 1
            for f in m.figures:
                assert f.floor is None or f.floor in here, (module, f.name, f.floor)
                assert f.stat in figures.STATS and f.unit in ("ms", "s", "MB")


def test_the_script_and_the_compare_print_every_figure_by_its_name():
    """Made-up values for every series each figure reads: the script's report and the
    compare's table print a line for every figure, with its name."""
    for measures in declared().values():
        values = {m.name: {f.series: [1.0, 2.0, 3.0] for f in m.figures} for m in measures}
        printed = "\n".join(figures.report(measures, values))
        listed = [{"name": m.name, "module": "x", "compare": list(m.compare),
                   "figures": [vars(f) for f in m.figures]} for m in measures]
        taken = compare.Taken(listed, base={m.name: [values[m.name]] for m in measures},
                              here={m.name: [values[m.name]] for m in measures}, pairs=1)
        table = "\n".join(compare.summary(taken))
        for m in measures:
            for f in m.figures:
                assert f"[{f.name}]" in printed
                assert f"\n{f.name} " in table, f.name
        assert "WORSE" not in table.replace("flagged WORSE", "")


# -- the worker protocol, in fresh processes ---------------------------------------------

FAKE = '''
import os
from pathlib import Path

from figures import Figure, Measure, Unavailable

TREE = Path(os.environ["REFEREE_BENCH_TREE"])


def sample(n):
    speed = float((TREE / "speed.txt").read_text())
    return {"": [speed] * n, "rest": [2 * speed] * n}


def new_thing(n):
    if not (TREE / "new.txt").exists():
        raise Unavailable("this tree has no new thing")
    return {"": [1.0] * n}


MEASURES = [
    Measure("fake.one", sample, (Figure("fake.one", "one"),
                                 Figure("fake.one.rest", "one, at rest", "rest"))),
    Measure("fake.new", new_thing, (Figure("fake.new", "new"),)),
]
'''


def tree(folder: Path, speed: float, new: bool) -> Path:
    folder.mkdir()
    (folder / "fake_bench.py").write_text(FAKE)
    (folder / "speed.txt").write_text(str(speed))
    if new:
        (folder / "new.txt").write_text("yes")
    return folder


def test_the_workers_answer_in_turn_and_the_base_may_lack_a_figure(tmp_path):
    trees = {"base": tree(tmp_path / "base", 10.0, new=False),
             "here": tree(tmp_path / "here", 12.0, new=True)}
    measures = [{"name": name, "module": "fake_bench", "compare": [2, 3],
                 "figures": [vars(f) for f in m.figures]}
                for name, m in (("fake.one", FakeFigures.one), ("fake.new", FakeFigures.new))]
    said = io.StringIO()
    taken = compare.take(trees, measures, compare.Plan(pairs=3), tmp_path, said)
    assert taken.pairs == 3 and not taken.broken
    assert taken.base["fake.one"] == [{"": [10.0] * 6, "rest": [20.0] * 6}] * 3
    assert taken.here["fake.one"][1][""] == [12.0] * 6
    assert taken.na == {"fake.new": "Unavailable: this tree has no new thing"}
    lines = {line.split()[0]: line.split() for line in compare.summary(taken)}
    assert lines["fake.one"] == ["fake.one", "10.0", "ms", "12.0", "ms", "1.20",
                                 "(1.20-1.20)", "WORSE"]
    assert lines["fake.one.rest"][1:3] == ["20.0", "ms"]
    assert lines["fake.new"] == ["fake.new", "-", "1.00", "ms", "n/a", "in", "base"]
    assert "pair 3/3 done" in said.getvalue()


def test_a_figure_that_breaks_here_is_reported(tmp_path):
    trees = {"base": tree(tmp_path / "base", 10.0, new=True),
             "here": tree(tmp_path / "here", 0.0, new=True)}
    (trees["here"] / "speed.txt").write_text("not a number")
    measures = [{"name": "fake.one", "module": "fake_bench", "compare": [1, 1],
                 "figures": [vars(f) for f in FakeFigures.one.figures]}]
    taken = compare.take(trees, measures, compare.Plan(pairs=1), tmp_path, io.StringIO())
    assert "ValueError" in taken.broken["fake.one"]


class FakeFigures:
    """The fake module's figures, as the coordinator lists them."""

    one = figures.Measure("fake.one", lambda n: {}, (
        figures.Figure("fake.one", "one"), figures.Figure("fake.one.rest", "one", "rest")))
    new = figures.Measure("fake.new", lambda n: {}, (figures.Figure("fake.new", "new"),))
