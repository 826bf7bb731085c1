"""`referee serve`: the players' view served to web browsers, one `referee watch` per
connection (textual-serve). Apart from the view itself (referee.app.watch): the serve's
own process imports aiohttp and textual-serve, never the Textual app it runs in each
viewer's process (a third of the serve's start-up)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.phones.addresses import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    ServeError,
    check_bindable,
    local_addresses,
    loopback,
    with_token,
)


def watch_command(path: Path) -> str:
    """The command textual-serve runs (through a shell) for each browser that connects."""
    import shlex
    import sys

    return " ".join(shlex.quote(part) for part in
                    (sys.executable, "-m", "referee", "watch", str(path.resolve())))


def serve(path: Path, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          token: str | None = None, max_viewers: int | None = None,
          idle: float | None = None, parent: int | None = None,
          phones: Any = None) -> None:
    """Serve the players' view of `path` until interrupted: one `referee watch` per
    browser connection (textual-serve), at most `max_viewers` at once, each closed once
    it has sent nothing for `idle` seconds. With a `token`, only the address that
    carries it opens the view. With a `parent` (the app's own serve), it stops once that
    process is gone, as when the referee's terminal closes. With `phones` (the players'
    pages, referee.phones.server.Phones), their routes are served beside the view."""
    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve.server import Server

    from .viewserver import ViewServer

    check_bindable(host, port)
    addresses = [with_token(address, token) for address in local_addresses(host, port)]
    warning = "" if loopback(host) else (
        " Anyone on this network with the address" + (" (and its token)" if token else "")
        + " can watch the fight; none can change it.")

    class PlayersServer(ViewServer):
        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            if phones is not None:
                phones.attach(app)
            return app

        async def on_startup(self, app: web.Application) -> None:
            self.console.print(f"The players' view of {path} — open {' or '.join(addresses)} "
                               f"in a browser (up to {self.max_viewers} at once).{warning} "
                               "Ctrl+C stops.",
                               highlight=False, markup=False)

        @aiohttp_jinja2.template("app_index.html")
        async def handle_index(self, request: web.Request) -> dict[str, object]:
            # the page's links follow the address the browser used (a TV on the network
            # reaches us by another name than 127.0.0.1)
            self.public_url = f"{request.scheme}://{request.host}"
            index = Server.handle_index.__wrapped__  # type: ignore[attr-defined]
            context: dict[str, object] = await index(self, request)
            return context

    server = PlayersServer(watch_command(path), host=host, port=port,
                           title=f"players' view — {path.name}")
    server.token = token
    if max_viewers is not None:
        server.max_viewers = max_viewers
    if idle is not None:
        server.idle = idle
    server.parent = parent
    try:
        server.serve()
    except OSError as error:  # taken between the check and the listen
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
