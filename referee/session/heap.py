"""Whether the app keeps its heap frozen (`gc.freeze`: the open save out of the collector's
way), known without asking the collector: `gc.get_freeze_count()` counts the frozen
objects one by one (CPython 3.11), a walk of the whole open save each time it is asked,
and a load asked it once (files._aged: half a CPU-second over an app test's loads). The
app freezes and thaws through here; the session layer only reads `frozen`."""

from __future__ import annotations

import gc

frozen = False  # the app's heap is frozen now (read as heap.frozen: it changes)


def freeze() -> None:
    """Everything alive now is kept out of the collector's way until `thaw`."""
    global frozen
    gc.freeze()
    frozen = True


def thaw() -> None:
    """What `freeze` kept goes back to the oldest generation, collected again."""
    global frozen
    gc.unfreeze()
    frozen = False
