"""textual-serve's server for the players' view, hardened against browsers that misbehave.

textual-serve trusts its client: it forwards any websocket message of up to 4 MB as
keystrokes, runs each view through a shell, and when a browser leaves it asks the view to
quit and never checks that it did. The players' view is open to the table's network, so:

- a message is at most MAX_MESSAGE bytes (aiohttp refuses a larger one and closes);
- only what a view uses is forwarded: short key sequences (a browser sends one key per
  message), a resize within the screen sizes a TV has, ping, focus and blur;
- each view runs without a shell, in a process group of its own, and when its browser
  leaves it gets QUIT_WAIT seconds to quit, then SIGTERM, then SIGKILL: no view outlives
  its client, whatever the client sent;
- at most `max_viewers` views run at once (a view is a process of its own, some 40 MB):
  a browser beyond them gets a page that says the view is full, and its websocket is
  refused before any process starts; a slot is free again only once its view has ended;
- a viewer that has sent nothing for `idle` seconds is closed (a browser sends a key, a
  resize or a focus; the websocket's own pings do not count);
- a message that cannot be read (not JSON, nested past what JSON reading takes, text that
  is not Unicode, not an envelope) is refused with one line in the log, and its
  connection closed: never a traceback.

The request handler is textual-serve's own (server.py, `handle_websocket`), with these
changes; the rest of textual-serve is used as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shlex
import signal
from typing import Any

from aiohttp import WSMsgType, web
from aiohttp.typedefs import Handler, Middleware
from textual_serve.app_service import AppService
from textual_serve.server import Server

from referee.phones.limits import VIEW_BURST, VIEW_PER_SECOND, Bucket

log = logging.getLogger("textual-serve")

MAX_MESSAGE = 16 * 1024  # bytes in one websocket message
PARENT_POLL = 1.0  # seconds between looks at whether the app that served us is there
MAX_KEYS = 64  # characters of keystrokes in one message (an escape sequence, a key)
MAX_SIZE = 1000  # columns or rows a resize may ask for
PIPE = -1  # a pipe to the view (the value of asyncio's PIPE); no shell is ever used
QUIT_WAIT, TERM_WAIT = 2.0, 2.0  # seconds a leaving view has to quit, then to end
MAX_VIEWERS = 8  # views at once, unless --max-viewers says otherwise
IDLE = 4 * 3600.0  # seconds a viewer may send nothing before it is closed (an evening)
FULL = ("The players' view is full: {n} are watching, the most this server allows. "
        "Try again when one of them closes.")


class ViewService(AppService):
    """One view's process: no shell, its own process group, and ended when it leaves."""

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_exec(
            *shlex.split(self.command), stdin=PIPE, stdout=PIPE, stderr=PIPE,
            env=environment, start_new_session=True)
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """Ask the view to quit; end it if it has not within QUIT_WAIT seconds."""
        process = self._process
        with contextlib.suppress(asyncio.TimeoutError, OSError, RuntimeError):
            await asyncio.wait_for(super().stop(), QUIT_WAIT)
        if process is not None:
            await end(process)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None


async def end(process: Any) -> None:
    """SIGTERM, then SIGKILL, to the view's whole process group."""
    for sig, wait in ((signal.SIGTERM, TERM_WAIT), (signal.SIGKILL, None)):
        if process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        if wait is None:
            break
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(process.wait(), wait)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(process.wait(), TERM_WAIT)


class Unreadable(Exception):
    """A browser's message that cannot be read: the connection that sent it is closed."""


def envelope(text: str) -> list[Any]:
    """A browser's message as [type, data]; Unreadable (with why) if it is not one."""
    try:
        message = json.loads(text)
    except RecursionError:
        raise Unreadable("nested too deep") from None
    except ValueError:
        raise Unreadable("not JSON") from None
    if not isinstance(message, list) or not message or not isinstance(message[0], str):
        raise Unreadable("not a [type, data] message")
    for part in message[:2]:
        if isinstance(part, str) and not unicode(part):
            raise Unreadable("text that is not Unicode (a lone surrogate)")
    return message


def unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def size_of(data: Any) -> tuple[int, int] | None:
    if not isinstance(data, dict):
        return None
    width, height = data.get("width"), data.get("height")
    if not isinstance(width, int) or not isinstance(height, int):
        return None
    if not (0 < width <= MAX_SIZE and 0 < height <= MAX_SIZE):
        return None
    return width, height


async def forward(app_service: AppService, kind: str, data: Any) -> None:
    """What a view uses of a browser's message, passed on to its process."""
    if kind == "stdin" and isinstance(data, str) and len(data) <= MAX_KEYS:
        await app_service.send_bytes(data.encode("utf-8"))
    elif kind == "resize" and (size := size_of(data)) is not None:
        await app_service.set_terminal_size(*size)
    elif kind == "blur":
        await app_service.blur()
    elif kind == "focus":
        await app_service.focus()


COOKIE = "referee-view"


class ViewServer(Server):
    """With a `token`, only a browser that opened the address with `?token=` (which
    leaves a cookie for its websocket) is served: the address is the key to the view.
    At most `max_viewers` views at once; one idle for `idle` seconds is closed."""

    token: str | None = None
    max_viewers: int = MAX_VIEWERS
    idle: float = IDLE
    viewers: int = 0  # views running or still ending: the slots taken
    parent: int | None = None  # stop once this process is gone (the app that served us)

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        if self.parent is not None:
            app.on_startup.append(self._watch_parent)
        if self.token is not None:
            app.middlewares.append(gate(self.token))
        app.middlewares.append(full_page(self))
        return app

    def full(self) -> bool:
        return self.viewers >= self.max_viewers

    async def _watch_parent(self, app: web.Application) -> None:
        async def watch() -> None:
            # the app that started us is gone once we are another process's child (a
            # terminal closed under it: SIGHUP ends it before its atexit can stop us)
            while os.getppid() == self.parent:
                await asyncio.sleep(PARENT_POLL)
            os.kill(os.getpid(), signal.SIGTERM)  # the way Ctrl+C and a kill stop us

        app["parent-watch"] = asyncio.get_running_loop().create_task(watch())

    async def _process_messages(self, websocket: web.WebSocketResponse,
                                app_service: AppService) -> None:
        # a person presses a few keys a second; a flood is dropped
        forwarded = Bucket(VIEW_BURST, VIEW_PER_SECOND)
        loop = asyncio.get_running_loop()
        heard = [loop.time()]  # when the browser last sent anything
        watch = asyncio.create_task(self._close_when_idle(websocket, heard))
        try:
            async for message in websocket:
                heard[0] = loop.time()
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    found = envelope(message.data)
                except Unreadable as why:
                    log.warning("refused a message from %s (%s): its view is closed",
                                peer(websocket), why)
                    await websocket.close(code=1003, message=b"unreadable message")
                    return
                kind, data = found[0], found[1] if len(found) > 1 else None
                if kind == "ping" and isinstance(data, (str, int, float)):
                    await websocket.send_json(["pong", data])
                elif kind in ("stdin", "resize", "blur", "focus") and forwarded.take():
                    await forward(app_service, kind, data)
        finally:
            watch.cancel()

    async def _close_when_idle(self, websocket: web.WebSocketResponse,
                               heard: list[float]) -> None:
        loop = asyncio.get_running_loop()
        while not websocket.closed:
            left = heard[0] + self.idle - loop.time()
            if left <= 0:
                log.info("closed the view of %s: nothing from it for %g s",
                         peer(websocket), self.idle)
                await websocket.close(code=1000, message=b"idle")
                return
            await asyncio.sleep(min(left, 60.0))

    async def handle_websocket(  # type: ignore[override]  # a refusal is no websocket
            self, request: web.Request) -> web.StreamResponse:
        if self.full():  # checked and taken with no await between: 50 at once get 8
            log.warning("turned away a viewer from %s: %d views open, the most allowed",
                        request.remote, self.viewers)
            return web.Response(status=503, text=FULL.format(n=self.viewers) + "\n")
        self.viewers += 1
        try:
            return await self._serve_view(request)
        finally:
            self.viewers -= 1

    async def _serve_view(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        width = clamp(request.query.get("width"), 80)
        height = clamp(request.query.get("height"), 24)
        app_service: ViewService | None = None
        try:
            await websocket.prepare(request)
            app_service = ViewService(
                self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                close=websocket.close,  # type: ignore[arg-type]  # as textual-serve passes it
                download_manager=self.download_manager,
                debug=self.debug)
            await app_service.start(width, height)
            await self._process_messages(websocket, app_service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a client's fault must never stop the server
            log.exception(error)
        finally:
            if app_service is not None:
                stopping = asyncio.ensure_future(app_service.stop())
                try:
                    await asyncio.shield(stopping)
                except asyncio.CancelledError:  # the slot is free once the view has ended
                    await stopping
                    raise
        return websocket


def peer(websocket: web.WebSocketResponse) -> str:
    request = getattr(websocket, "_req", None)
    return str(getattr(request, "remote", None) or "a browser")


def full_page(server: ViewServer) -> Middleware:
    """The middleware that answers the page with "full" while every view is taken."""

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/" and server.full():
            return web.Response(status=503, content_type="text/html", text=(
                "<!doctype html><title>The players' view is full</title>"
                f"<p>{FULL.format(n=server.viewers)}</p>"))
        return await handler(request)

    return check


def gate(token: str) -> Middleware:
    """The middleware that turns away a browser without the token (static files aside)."""
    import hmac

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith(("/static/", "/p/")):  # a player's page: its own token
            return await handler(request)
        given = request.query.get("token") or request.cookies.get(COOKIE) or ""
        if not hmac.compare_digest(given.encode(), token.encode()):
            return web.Response(status=403, text="This players' view needs the address the "
                                "referee gave, with its token.\n")
        response: web.StreamResponse = await handler(request)
        if request.path == "/" and not response.prepared:
            response.set_cookie(COOKIE, token, httponly=True, samesite="Strict")
        return response

    return check


def clamp(text: str | None, default: int) -> int:
    try:
        value = int(text or default)
    except ValueError:
        return default
    return value if 0 < value <= MAX_SIZE else default
