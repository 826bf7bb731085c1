"""A benchmark worker for `make bench-compare` (benchmarks/compare.py): a long-running
process that sets up and samples the figures it is asked for.

Started as `<tree>/.venv/bin/python <here>/benchmarks/worker.py` with PYTHONPATH and the
working directory the tree measured and $REFEREE_BENCH_TREE naming it: the measures are
here's (benchmarks/*_bench.py, the same workload in both trees), the `referee` package the
tree's. One JSON object a line each way, on stdin and stdout (whatever else the figures
print goes to stderr):

    {"op": "list"}                                -> {"measures": [{name, module, ...}]}
    {"op": "sample", "module": M, "measure": NAME, "n": N}
                                                  -> {"values": {SERIES: [...]}}
    {"op": "quit"}                                -> (the process ends)

A measure is set up (untimed) on its first sample. An answer {"na": why} says the tree
lacks what the measure needs (an import or an API of a newer tree); {"error": traceback}
that it broke.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import traceback
from dataclasses import asdict
from pathlib import Path
from types import ModuleType
from typing import Any

BENCHMARKS = Path(__file__).resolve().parent
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

from figures import Measure, Unavailable  # noqa: E402


def modules() -> list[str]:
    return sorted(p.stem for p in BENCHMARKS.glob("*_bench.py"))


class Worker:
    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.loaded: dict[str, ModuleType | str] = {}  # a module, or why it cannot load

    def module(self, name: str) -> ModuleType | str:
        if name not in self.loaded:
            try:
                self.loaded[name] = importlib.import_module(name)
            except (ImportError, AttributeError, Unavailable) as failed:
                self.loaded[name] = f"{type(failed).__name__}: {failed}"
        return self.loaded[name]

    def measures(self, module: str) -> dict[str, Measure] | str:
        """A module's measures by name, or why it cannot load in this tree."""
        loaded = self.module(module)
        if isinstance(loaded, str):
            return loaded
        return {m.name: m for m in getattr(loaded, "MEASURES", [])}

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "list":
            listed = []
            for module in self.names:
                found = self.measures(module)
                if isinstance(found, str):
                    return {"error": f"{module}: {found}"}
                listed += [{"name": m.name, "module": module, "compare": list(m.compare),
                            "every": m.every, "figures": [asdict(f) for f in m.figures]}
                           for m in found.values()]
            return {"measures": listed}
        if op == "sample":
            found = self.measures(request["module"])
            if isinstance(found, str):
                return {"na": found}
            measure = found.get(request["measure"])
            if measure is None:
                return {"na": "no such measure"}
            try:
                measure.prepare()
                return {"values": measure.sample(int(request.get("n", 1)))}
            except (Unavailable, ImportError, AttributeError, TypeError) as failed:
                return {"na": f"{type(failed).__name__}: {failed}",
                        "trace": traceback.format_exc()}
            except Exception:  # noqa: BLE001 - reported to the coordinator
                return {"error": traceback.format_exc()}
        return {"error": f"unknown request {request!r}"}


def serve() -> None:
    # The protocol keeps the real stdout; anything the figures print goes to stderr.
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    worker = Worker(modules())
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("op") == "quit":
            break
        channel.write(json.dumps(worker.answer(request)) + "\n")
    channel.close()


if __name__ == "__main__":
    serve()
