"""The players' pages served over HTTP (aiohttp, which textual-serve already brings): routes
added to an application — `referee serve --players`'s, beside the players' view, or the
app's own when `V` serves them, in the process that holds the save's one writer.

    GET  /p/TOKEN            the player's page
    POST /p/TOKEN/act/ACT    a form of that page (ACT as `referee act SAVE ACT` names it)
    GET  /p/TOKEN/live       server-sent events: one message whenever the fight changes

A phone is a client we do not trust. A token acts only for its own combatant and only
through what the desk offers it (desk.py checks every value as the form does); a body over
MAX_BODY bytes, a field the form lacks, a value it does not offer, a closed phase, another
player's combatant, an unknown or revoked token, a post without the page's CSRF token
(a SameSite cookie and a token per page signed with the server's key), a post from another
site, too many requests from one token: refused, nothing written, one log line. At most
`max_pages` live pages at once (a few per token). The pages follow the save on disk,
polled every POLL seconds by one task, so a change reaches every page within about
POLL plus a round trip.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Sequence
from urllib.parse import parse_qs, urlsplit

from aiohttp import web

from referee.engine.text import shown
from referee.session.desk import Desk, Refused
from referee.session.links import LinksError

from .limits import Bucket
from .page import gone_page, render

log = logging.getLogger("referee.phones")

MAX_BODY = 4096  # bytes in a form posted
MAX_FIELDS = 64  # fields in one post
MAX_PAGES = 24  # live pages at once: 8 players on three devices each
PAGES_PER_TOKEN = 3
POLL = 0.1  # seconds between looks at the save
KEEPALIVE = 15.0  # seconds between comments on a quiet live page
GONE_CHECK = 1.0  # seconds between looks at whether a live page's browser has left
LIVE_FOR = 3600.0  # a live page's stream ends after this long (its browser reconnects)
RATE, BURST = 5.0, 30  # requests a second a token may make on average, and at once
COOKIE = "referee-page"
GONE = "This link is not a player's page of this fight (the fight may be over, or the " \
       "referee made new links): ask the referee for yours."

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Phones:
    """The players' pages of one desk, as routes of an aiohttp application."""

    def __init__(self, desk: Desk, max_pages: int = MAX_PAGES, poll: float = POLL) -> None:
        self.desk, self.max_pages, self.poll = desk, max_pages, poll
        self.key = secrets.token_bytes(32)  # signs each page's CSRF token
        self.buckets: dict[str, Bucket] = {}
        self.strangers: dict[str, Bucket] = {}  # log lines for unknown links, by address
        self.live: dict[str, int] = {}  # live pages by token
        self.said: dict[str, tuple[str, bool]] = {}  # the last answer to each player's post
        self._changed: asyncio.Event | None = None
        self._ticker: asyncio.Task[None] | None = None
        self.closing = False
        self.last_warning = ""  # the trouble last said (`warn`)
        self.unreadable = False  # the last link asked for found the save unreadable

    def attach(self, app: web.Application) -> None:
        hide_tokens(logging.getLogger("aiohttp.access"))
        app.router.add_get("/p/{token}", self.page)
        app.router.add_post("/p/{token}/act/{act}", self.act)
        app.router.add_get("/p/{token}/live", self.follow)
        app.on_startup.append(self.start)
        app.on_shutdown.append(self.stop)

    # -- following the save --------------------------------------------------------------

    async def start(self, app: web.Application | None = None) -> None:
        self._changed = asyncio.Event()
        self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def stop(self, app: web.Application | None = None) -> None:
        self.closing = True
        self.changed()
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker

    async def _tick(self) -> None:
        version = self.desk.version()
        while True:
            await asyncio.sleep(self.poll)
            try:
                self.desk.poll()
            except Exception as error:  # a save that cannot be read is the page's notice
                self.warn(f"the players' pages cannot follow the save: {error}")
            now = self.desk.version()
            if now != version:
                version = now
                self.changed()

    def warn(self, said: str) -> None:
        """A trouble of the save or the links file, said once while it lasts (the pages
        ask ten times a second: the log is not flooded with it)."""
        if said != self.last_warning:
            self.last_warning = said
            log.warning("%s", shown(said))

    def _who(self, token: str) -> str | None:
        """The combatant of a link, None when it is no link of this fight or the save
        cannot be read now (said once in the log)."""
        self.unreadable = False
        try:
            cid = self.desk.player(token) if len(token) <= 64 else None
        except Exception as error:  # a save being replaced, a file gone: the link waits
            self.warn(f"the players' pages cannot read the save: {error}")
            self.unreadable = True
            return None
        if self.desk.problem:
            self.warn(self.desk.problem)
        return cid

    def changed(self) -> None:
        """Wake every live page (the fight changed, or the server stops)."""
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    # -- the requests --------------------------------------------------------------------

    def _player(self, request: web.Request) -> tuple[str, str] | web.Response:
        """The token and its combatant, or the answer that turns the request away."""
        token = request.match_info.get("token", "")
        bucket = self.buckets.get(token) if len(token) == 32 else None
        cid = self._who(token)
        if cid is None and self.unreadable:
            return _html(gone_page("The fight's save cannot be read just now: try again in "
                                   "a moment."), 503)
        if cid is None:
            said = self.strangers.setdefault(str(request.remote), Bucket(10, 1.0))
            if len(self.strangers) > 1024:  # a flood from many addresses forgets the oldest
                del self.strangers[next(iter(self.strangers))]
            if not said.take():  # refused all the same; the log is not flooded
                return _html(gone_page(GONE), 404)
            log.warning("refused %s %s from %s: not a player's link", request.method,
                        _path(request), request.remote)
            return _html(gone_page(GONE), 404)
        if bucket is None:
            bucket = self.buckets[token] = Bucket(BURST, RATE)
        if not bucket.take():
            log.warning("refused %s from %s for %s: too many requests", request.method,
                        request.remote, shown(cid))
            return _html(gone_page("Too many requests: wait a moment, then reload."), 429)
        return token, cid

    async def page(self, request: web.Request) -> web.StreamResponse:
        found = self._player(request)
        if isinstance(found, web.Response):
            return found
        token, cid = found
        return self._page(request, token, cid)

    def _page(self, request: web.Request, token: str, cid: str, status: int = 200,
              said: tuple[str, bool] | None = None) -> web.Response:
        cookie = request.cookies.get(COOKIE, "")
        fresh = len(cookie) != 32 or not cookie.replace("-", "").replace("_", "").isalnum()
        if fresh:
            cookie = secrets.token_urlsafe(24)
        nonce = secrets.token_urlsafe(12)
        message, refused = said if said is not None else self.said.pop(token, ("", False))
        try:
            text = render(self.desk.page(cid), token, self._csrf(cookie, token), nonce,
                          message, refused)
        except Exception as error:  # a fault of ours must never take the server down
            log.error("the page of %s could not be made: %s", shown(cid), shown(repr(error)))
            return _html(gone_page("The page could not be made: tell the referee."), 500)
        response = _html(text, status, nonce)
        if fresh:
            response.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict",
                                path="/p/", max_age=24 * 3600)
        return response

    def _csrf(self, cookie: str, token: str) -> str:
        return hmac.new(self.key, f"{cookie}|{token}".encode(), hashlib.sha256).hexdigest()[:32]

    async def act(self, request: web.Request) -> web.StreamResponse:
        found = self._player(request)
        if isinstance(found, web.Response):
            return found
        token, cid = found
        act_id = request.match_info.get("act", "")[:64]
        try:
            fields = await self._form(request, token)
            written = self.desk.submit(cid, act_id, fields)
        except Refused as why:
            log.warning("refused %s of %s from %s: %s", shown(act_id), shown(cid),
                        request.remote, shown(str(why.args[0])))
            return self._page(request, token, cid, why.args[1] if len(why.args) > 1 else 400,
                              (f"Not done: {why.args[0]}", True))
        except Exception as error:  # a fault of ours: nothing written, the server goes on
            log.error("%s of %s failed: %s", shown(act_id), shown(cid), shown(repr(error)))
            return self._page(request, token, cid, 500,
                              ("Not done: something went wrong; tell the referee.", True))
        self.said[token] = (_done(written), False)
        self.changed()
        raise web.HTTPSeeOther(f"/p/{token}")

    async def _form(self, request: web.Request, token: str) -> dict[str, list[str]]:
        """The posted fields, once the post is shown to come from the player's own page."""
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise Refused(f"a form of over {MAX_BODY} bytes", 413)
        body = b""  # read to the cap, however the body comes (a chunk at a time)
        while len(body) <= MAX_BODY:
            chunk = await request.content.read(MAX_BODY + 1 - len(body))
            if not chunk:
                break
            body += chunk
        if len(body) > MAX_BODY:
            raise Refused(f"a form of over {MAX_BODY} bytes", 413)
        if request.content_type != "application/x-www-form-urlencoded":
            raise Refused("not a form", 415)
        if not _same_site(request):
            raise Refused("posted from another site", 403)
        try:
            fields = parse_qs(body.decode("utf-8"), keep_blank_values=True,
                              max_num_fields=MAX_FIELDS, strict_parsing=False)
        except (UnicodeDecodeError, ValueError):
            raise Refused("a form that cannot be read", 400) from None
        given = fields.pop("csrf", [""])
        cookie = request.cookies.get(COOKIE, "")
        if not cookie or len(given) != 1 or not hmac.compare_digest(
                given[0].encode("utf-8", "replace"), self._csrf(cookie, token).encode()):
            raise Refused("the page has expired: reload it and send again", 403)
        return fields

    async def follow(self, request: web.Request) -> web.StreamResponse:
        found = self._player(request)
        if isinstance(found, web.Response):
            return found
        token, cid = found
        if sum(self.live.values()) >= self.max_pages or \
                self.live.get(token, 0) >= PAGES_PER_TOKEN:
            log.warning("turned away a live page of %s from %s: %d open", shown(cid),
                        request.remote, sum(self.live.values()))
            return web.Response(status=503, text="too many pages open\n")
        self.live[token] = self.live.get(token, 0) + 1
        try:
            return await self._stream(request, token)
        finally:
            self.live[token] -= 1
            if not self.live[token]:
                del self.live[token]

    async def _stream(self, request: web.Request, token: str) -> web.StreamResponse:
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no"})
        await response.prepare(request)
        loop = asyncio.get_running_loop()
        ends, quiet = loop.time() + LIVE_FOR, loop.time()
        with contextlib.suppress(ConnectionError, asyncio.CancelledError):
            await response.write(b"retry: 1000\n\n")
            while not self.closing and loop.time() < ends:
                changed = self._changed
                if changed is None:
                    break
                try:
                    await asyncio.wait_for(changed.wait(), GONE_CHECK)
                except TimeoutError:
                    if _left(request):  # its slot is free at once, not at the next write
                        break
                    if loop.time() >= quiet + KEEPALIVE:
                        quiet = loop.time()
                        await response.write(b": still here\n\n")
                    continue
                if self._who(token) is None:  # revoked, or the fight is over
                    await response.write(b"data: gone\n\n")
                    break
                await response.write(b"data: changed\n\n")
        return response


def _left(request: web.Request) -> bool:
    """Whether the page's browser has gone (its connection closed)."""
    transport = request.transport
    return transport is None or transport.is_closing()


def _done(written: Sequence[object]) -> str:
    declared = [e for e in written if getattr(e, "TYPE", "") == "declare"]
    if declared:
        return "Declared. You may change it until initiative is rolled."
    return "Your die is in: the referee sees it."


def _same_site(request: web.Request) -> bool:
    """A post the browser says came from another site is refused (Sec-Fetch-Site, an
    Origin of another host); what a browser leaves out (the page asks for no referrer, so
    its own posts carry `Origin: null`) is held to the CSRF token alone."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("Origin")
    return origin in (None, "null") or urlsplit(origin).netloc == request.host


_TOKEN_PATH = re.compile(r"/p/([A-Za-z0-9_-]{4})[A-Za-z0-9_%-]*")


class HiddenTokens(logging.Filter):
    """A request line in a log shows a player's token cut short: whoever reads the log must
    not be able to act as the player (and the line is shown, never a control)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and not record.args:
            record.msg = shown(_TOKEN_PATH.sub(r"/p/\1…", record.msg))
        return True


def hide_tokens(logger: logging.Logger) -> None:
    if not any(isinstance(f, HiddenTokens) for f in logger.filters):
        logger.addFilter(HiddenTokens())


def _path(request: web.Request) -> str:
    path = request.path
    # a token in the log would let whoever reads it act as the player: shown cut short
    parts = path.split("/")
    if len(parts) > 2 and parts[1] == "p":
        parts[2] = parts[2][:4] + "…"
    return shown("/".join(parts))[:120]


def _html(text: str, status: int = 200, nonce: str = "") -> web.Response:
    script = f"'nonce-{nonce}'" if nonce else "'none'"
    return web.Response(status=status, text=text, content_type="text/html", headers={
        "Content-Security-Policy": (f"default-src 'none'; style-src 'unsafe-inline'; "
                                    f"script-src {script}; connect-src 'self'; "
                                    "form-action 'self'; base-uri 'none'; "
                                    "frame-ancestors 'none'"),
        "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"})


def phones_app(desk: Desk, max_pages: int = MAX_PAGES) -> web.Application:
    """An application of the players' pages alone (the app's `V`, tests)."""
    app = web.Application(client_max_size=MAX_BODY)
    Phones(desk, max_pages).attach(app)
    return app


__all__ = ["LinksError", "MAX_BODY", "Phones", "phones_app"]
