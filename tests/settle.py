"""Pilot's wait for the app to be idle, at a finer grain and on firmer ground.

Textual's pilot presses a key and then waits until the process looks idle
(`textual._wait.wait_for_idle`): it sleeps 20 ms at a time until a 20 ms stretch used under
1 ms of CPU. A press and a pause wait three such stretches at the least, and round the
app's own work up to the next 20 ms: in test_cli_fight two thirds of the wall time was
these sleeps (the demo: 17 s wall, 6.7 CPU-s), and a worker of the suite sat idle
meanwhile.

Here the stretch is 5 ms (idle: under 1 ms of CPU, as Textual's), and the process counts
as idle only when, besides, nothing is left to do that can be seen: no message
waiting in the queue of the app, of any screen on its stack or of any of their widgets,
no callback waiting to run after one, and no thread worker running. (A shorter stretch
is easier to mistake for idle when the process is only waiting for a core; what is
queued cannot be mistaken.) A wait that asks for a longer least sleep than none (Pilot's
`exit`, `wait_for_scheduled_animations`) keeps it, nothing waits longer than Textual's
most, and a wait with no app to look into (none running in its context) is Textual's own.
"""

from __future__ import annotations

from asyncio import sleep
from time import monotonic, process_time
from typing import Any

import textual._wait
import textual.app
import textual.pilot
from textual._context import active_app
from textual.app import App
from textual.message_pump import MessagePump

from tests import stylecache

textual_wait_for_idle = textual._wait.wait_for_idle  # Textual's own, kept before install

STRETCH = 1 / 200
IDLE = textual._wait.SLEEP_IDLE  # 1 ms, as Textual's: the loop's own ticking stays under it


def _app() -> App[Any] | None:
    """The app the pilot drives (run_test and an auto-pilot set it), if any."""
    try:
        return active_app.get()
    except LookupError:
        return None


def _nothing_queued(app: App[Any]) -> bool:
    if not app._running:
        return True
    for worker in app.workers:
        if worker._thread_worker and worker.is_running:
            return False
    pumps: list[MessagePump] = [app]
    for screen in app._screen_stack:
        pumps.extend(screen.walk_children(with_self=True))
    return all(pump._message_queue.empty() and not pump._next_callbacks for pump in pumps)


async def wait_for_idle(min_sleep: float = textual._wait.SLEEP_GRANULARITY,
                        max_sleep: float = 1) -> None:
    """As textual._wait.wait_for_idle: until the process is idle (see above). With no
    app to look into, Textual's own wait."""
    app = _app()
    if app is None:
        return await textual_wait_for_idle(min_sleep, max_sleep)
    start = monotonic()
    while True:
        cpu = process_time()
        await sleep(STRETCH)
        idle = process_time() - cpu < IDLE
        elapsed = monotonic() - start
        if elapsed >= max_sleep:
            break
        if elapsed > min_sleep and idle and _nothing_queued(app):
            break


def install() -> None:
    """Pilot and the app's key presses wait so (the names they imported); and each CSS
    text is parsed once a test process, not once an app (tests/stylecache.py)."""
    textual.pilot.wait_for_idle = wait_for_idle  # type: ignore[assignment]
    textual.app.wait_for_idle = wait_for_idle  # type: ignore[assignment]
    stylecache.install()  # and an app's stylesheet is parsed once a process (its module)
