"""The players' own pages served by the app itself: with the app open it holds the save's one
writer, so `V` serves the pages from this process (an aiohttp site on Textual's own event
loop) on the port after the view's, and a declaration or a die from a page is entered
through the app's table and drawn at once, as the referee's own acts are."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from referee.session.links import LinksError, player_combatants

if TYPE_CHECKING:
    from aiohttp import web
    from textual.app import App

    from referee.engine import events as ev
    from referee.session.desk import Desk
    from referee.session.table import Table

_SERVED: dict[int, tuple[web.AppRunner, Desk, str, int]] = {}  # id(app) -> runner, desk,
# the address the links start with, the port


async def start_phones(app: object, table: Table, path: Path, host: str, first: int,
                       written: Callable[[list[ev.Event]], None],
                       clock: Callable[[], float]) -> list[tuple[str, str]]:
    """Serve the players' pages of the save (its links made, kept ones kept): each player
    combatant's name and address; none when no side is run by the players."""
    from aiohttp import web

    from referee.phones.addresses import local_addresses
    from referee.phones.server import MAX_BODY, Phones
    from referee.session.desk import Desk, HeldTable

    await stop_phones(app)
    if not player_combatants(table.fight):
        return []
    desk = Desk(HeldTable(table), path, clock=clock, written=written)
    try:
        tokens = desk.make_links()
    except LinksError:
        return []
    site_app = web.Application(client_max_size=MAX_BODY)
    Phones(desk).attach(site_app)
    runner = web.AppRunner(site_app, access_log=None, handle_signals=False)
    await runner.setup()
    try:
        port = await listen(runner, host, first)
    except BaseException:
        await runner.cleanup()
        raise
    base = local_addresses(host, port)[-1]
    _SERVED[id(app)] = (runner, desk, base, port)
    return [(table.name(cid), f"{base}/p/{token}") for cid, token in tokens.items()]


async def listen(runner: web.AppRunner, host: str, first: int, tries: int = 3) -> int:
    """Listen on the first free port from `first`: the port it listens on. A port taken
    by another program between the look and the listen: the next free one."""
    import errno

    from aiohttp import web

    from referee.phones.addresses import free_port

    port = free_port(host, first)
    for _ in range(tries - 1):
        try:
            await web.TCPSite(runner, host, port).start()
            return port
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise
        port = free_port(host, port + 1)
    await web.TCPSite(runner, host, port).start()
    return port


async def stop_phones(app: object) -> None:
    served = _SERVED.pop(id(app), None)
    if served is not None:
        with contextlib.suppress(Exception):
            await served[0].cleanup()


def desk_of(app: object) -> Desk | None:
    served = _SERVED.get(id(app))
    return served[1] if served is not None else None


def pages_port(app: object) -> int:
    """The port the players' pages are served on (0: they are not)."""
    served = _SERVED.get(id(app))
    return served[3] if served is not None else 0


def players_of(app: object) -> list[tuple[str, str]]:
    """Each player's name and address while the pages are served."""
    served = _SERVED.get(id(app))
    if served is None:
        return []
    _, desk, base, _ = served
    try:
        tokens = desk.make_links()
    except LinksError:
        return []
    return [(desk.table.name(cid), f"{base}/p/{token}") for cid, token in tokens.items()]


def phones_note(app: object) -> str:
    """What the status line says of the pages while declarations are open: who declared
    from their page and who is still deciding there."""
    desk = desk_of(app)
    if desk is None or not desk.declaring_open():
        return ""
    names = desk.table.name
    sent = [names(cid) for cid in sorted(desk.from_device())]
    deciding = [names(cid) for cid in desk.deciding()]
    parts = ([f"from pages: {', '.join(sent)}"] if sent else []) + (
        [f"deciding: {', '.join(deciding)}"] if deciding else [])
    return " · ".join(parts)


def pages_end(app: App[None], why: str) -> None:
    """The players' pages of the save left behind stop (their links were its players')."""
    if desk_of(app) is not None:
        app.run_worker(stop_phones(app))
        app.notify(f"The players' pages are no longer served: {why} (V serves this one's).",
                   title="Players' pages")


__all__ = ["desk_of", "pages_end", "phones_note", "players_of", "start_phones", "stop_phones"]
