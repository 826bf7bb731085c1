"""What the benchmarks share: a median of several timed runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_ms(work: Callable[[], object], runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def medians_ms(works: dict[str, Callable[[], object]], runs: int = 7) -> dict[str, float]:
    """Each work's median, the works taking turns run by run: a machine that slows down
    for a while slows them all, so their ratios stay fair."""
    times: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(runs):
        for name, work in works.items():
            start = time.perf_counter()
            work()
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(found) for name, found in times.items()}
