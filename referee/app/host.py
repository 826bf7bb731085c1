"""What a screen asks of the app it runs in, beside Textual's own (push a screen, notify
...): the app-wide keys' work (open, replay, help, another save), the open save's table,
and what the command line set. The screens type their `app` against this, not against
the app that pushes them; `RefereeApp` is the host, and mypy holds it to this shape."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from textual.app import App

    from referee.session.config import Config
    from referee.session.table import Table


class Host(Protocol):
    table: Table  # the open save's (set-up rolls with its injected dice)
    clock: Callable[[], float]  # the declaration clock's time source
    catalogues: tuple[Path, ...]  # a referee's own, offered in set-up
    max_viewers: int  # browsers the players' view takes at once
    saves: Path  # where a new save without a path goes (ctrl+o lists it with the recent)
    settings: Config  # the referee's settings file, as read or since written

    def setting(self, key: str, value: str) -> None: ...

    def switch_to(self, path: Path, setup: bool = False) -> None: ...

    def action_open(self) -> None: ...

    def action_replay(self) -> None: ...

    def action_help(self) -> None: ...


if TYPE_CHECKING:  # Textual's app and a host at once, for `app = getters.app(HostApp)`
    # (only the type checker sees it: an app class cannot take a protocol as a base)
    class HostApp(App[None], Host):
        pass
