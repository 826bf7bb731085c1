"""When the garbage collector runs: at rest, not in the middle of a key press.

A key press on a big battle makes a few thousand objects; Python's collector, left to its
own schedule, looks through the youngest of them every 700 and through the next
generation every ten of those, in the middle of the press, before its frame is drawn (a
tenth of the press's work, and its slowest presses). Once a save is open the app collects
the young objects itself, right after the frame that showed a change has been drawn, and
lets the automatic collector wait for many more allocations than one press makes (it
still runs on its own in any long piece of work, so nothing piles up). Another save
opened lets the last one go: once nothing holds its fight any more, what was frozen is
thawed and collected, and the new save frozen in its place (`let_go`)."""

from __future__ import annotations

import gc
from collections.abc import Callable

from referee.session import heap

YOUNG = 20_000  # allocations before an automatic collection of the youngest objects
WHOLE = 200  # young collections at rest between two of everything not frozen


class Collector:
    """The collections done at rest: the young objects after each change drawn, and
    everything not frozen every WHOLE of those (cycles among old objects)."""

    def __init__(self) -> None:
        self.young = 0
        self.lets_go = 0  # saves let go (`let_go`): their fights collected

    def settled(self) -> None:
        """What is loaded now lives as long as the save is open: the collector need not
        look through it again. A big battle is many objects, and a full collection that
        walks them all in the middle of a key press costs more than the press. (Freezing
        is cheap; nothing is collected first, so a start-up costs no more.)"""
        heap.freeze()
        threshold = gc.get_threshold()
        if threshold[0] and threshold[0] < YOUNG:  # 0: collection is off; leave it so
            gc.set_threshold(YOUNG, *threshold[1:])

    def let_go(self, last: Callable[[], object], anyway: bool = False) -> bool:
        """Another save is open and the last one's screen is gone: what was frozen with
        the last save is thawed and everything collected, then what is loaded now frozen
        in its place (`settled`). Frozen, the last fight (its objects refer to each
        other) would never be freed, for every save opened while the app runs. `last`
        (a weak reference to the last save's fight) still answering after the collection
        means something still holds it (a timer of its screen's not yet stopped): nothing
        is frozen then, and False says to ask again a moment later (`anyway`: freeze all
        the same, the last try)."""
        heap.thaw()
        gc.collect()
        if last() is not None and not anyway:
            return False
        self.lets_go += 1
        self.settled()
        return True

    def at_rest(self) -> None:
        """A change has been drawn: the objects it made are looked through now."""
        if not gc.isenabled():
            return
        self.young += 1
        if self.young >= WHOLE:
            self.young = 0
            gc.collect()
        else:
            gc.collect(1)


COLLECTOR = Collector()
