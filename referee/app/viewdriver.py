"""The driver a players' view runs on behind `referee serve`: Textual's web driver, made
safe against a browser that misbehaves.

textual-serve starts one `referee watch` per browser and pipes the browser's keys to it.
Any client on the table's network can send anything, so the view:

- takes only the input it uses (the scroll keys, `q`, the mouse wheel and clicks), at a
  bounded rate: the rest is dropped as it is parsed, so a flood of keystrokes costs no
  memory and never queues up ahead of a request to quit;
- ends when the server goes: its input closed, or its output not taken for WRITE_STALL
  seconds (the server stopped reading when the browser left);
- ends at once on SIGTERM, even while a write is blocked, as a view holds nothing to save.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

from textual import events
from textual.drivers.web_driver import WebDriver

from referee.phones.limits import VIEW_BURST, VIEW_PER_SECOND, Bucket

USED_KEYS = frozenset({"q", "up", "down", "pageup", "pagedown", "home", "end"})
WRITE_STALL = 10.0  # seconds a write may wait for the server before the view gives up
GRACE = 2.0  # seconds a view asked to leave has to quit cleanly before it is ended


class ViewDriver(WebDriver):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._input = Bucket(VIEW_BURST, VIEW_PER_SECOND)
        self._writing_since = 0.0  # when the write under way began (0: none)
        self._leaving = False
        threading.Thread(target=self._watch_writes, name="view-watchdog", daemon=True).start()

    # -- input -------------------------------------------------------------------------

    def process_message(self, message: Any) -> None:
        if wanted(message) and self._input.take():
            super().process_message(message)

    def run_input_thread(self) -> None:
        try:
            super().run_input_thread()
        finally:
            if not self.exit_event.is_set():  # the input closed: the server has gone
                self.leave()

    # -- output ------------------------------------------------------------------------

    def write(self, data: str) -> None:
        self._guarded(super().write, data)

    def write_meta(self, data: dict[str, object]) -> None:
        self._guarded(super().write_meta, data)

    def _guarded(self, write: Any, data: Any) -> None:
        self._writing_since = time.monotonic()
        try:
            write(data)
        except OSError:  # the server closed its end
            self.leave()
        finally:
            self._writing_since = 0.0

    def _watch_writes(self) -> None:
        while True:
            time.sleep(1.0)
            since = self._writing_since
            if since and time.monotonic() - since > WRITE_STALL:
                os._exit(0)  # nobody reads us: the browser and its server are gone

    # -- ending --------------------------------------------------------------------------

    def start_application_mode(self) -> None:
        super().start_application_mode()
        # a plain handler, not the event loop's: it runs even while a write is blocked
        signal.signal(signal.SIGTERM, lambda *_: os._exit(0))

    def leave(self) -> None:
        """Quit cleanly if the app can, and end regardless after GRACE seconds."""
        if self._leaving:
            return
        self._leaving = True
        timer = threading.Timer(GRACE, os._exit, (0,))
        timer.daemon = True
        timer.start()
        app = self._app
        try:
            app.call_from_thread(app.exit)
        except RuntimeError:  # called on the app's own thread
            app.exit()


def wanted(message: Any) -> bool:
    """Input the view acts on: its keys, the wheel and clicks; not hover, not typing."""
    if isinstance(message, events.Key):
        return message.key in USED_KEYS
    return not isinstance(message, events.MouseMove)
