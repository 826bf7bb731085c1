"""A rate a client may not exceed (a token bucket), shared by the players' view (keys from
a browser) and the players' pages (requests from a phone). Free of Textual."""

from __future__ import annotations

import time
from collections.abc import Callable

# a viewer's input in the players' view (referee.app.viewdriver), and what the serve
# forwards to it (referee.app.viewserver): events taken at once, and refilled each second
VIEW_BURST, VIEW_PER_SECOND = 40, 20.0


class Bucket:
    """At most `burst` at once, refilled at `per_second`: `take()` says whether one more
    may go now (what is over is refused or dropped by the caller)."""

    def __init__(self, burst: int, per_second: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.per_second, self.clock = burst, per_second, clock
        self.tokens, self.refilled = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.per_second)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
