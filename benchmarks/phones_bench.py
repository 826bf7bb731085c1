"""How soon a player's phone hears of the fight: a real `referee serve SAVE --players` with
eight live pages, and the referee's command writing an event — from the write (the
event on disk) to the message on a live page's stream (phones.told), and to that page
fetched again with the event in it (phones.page). The issue's bar: within 250 ms.

    .venv/bin/python benchmarks/phones_bench.py
"""

from __future__ import annotations

import asyncio
import atexit
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import ENV, TREE, Figure, Measure, Unavailable, Values, main, workdir  # noqa: E402

LINK = re.compile(r"(http://127\.0\.0\.1:\d+/p/[A-Za-z0-9_-]{32})")
PHONES = 8
_SERVED: dict[str, Any] = {}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve() -> None:
    """The serve on a copy of the demo, its links read from what it prints."""
    if not (TREE / "referee" / "phones").is_dir():
        raise Unavailable("no players' pages in this tree")
    save = workdir() / "phones.toml"
    shutil.copyfile(TREE / "saves" / "demo.toml", save)
    port = _free_port()
    log = workdir() / "serve.log"  # a file, not a pipe: its access log would fill a pipe
    with log.open("w") as out:
        server = subprocess.Popen([sys.executable, "-m", "referee", "serve", str(save),
                                   "--port", str(port), "--players"], cwd=TREE, env=ENV,
                                  stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    atexit.register(lambda: server.poll() is None and os.killpg(server.pid, signal.SIGTERM))
    links: list[str] = []
    deadline = time.monotonic() + 30
    while len(links) < 4 and time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the serve ended: {log.read_text()[-500:]}")
        links = LINK.findall(log.read_text())
        time.sleep(0.05)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    _SERVED.update(save=save, links=links, server=server)


async def _heard(n: int) -> Values:
    import aiohttp

    from referee.engine import events as ev
    from referee.session.store import Session

    save, links = _SERVED["save"], _SERVED["links"]
    told, paged = [], []
    clients = [aiohttp.ClientSession() for _ in range(PHONES)]
    try:
        streams = [await _live(c, links[i % len(links)]) for i, c in enumerate(clients)]
        for stream in streams:
            await stream.content.readline()  # its retry line: the stream is open
            await stream.content.readline()
        for number in range(n):
            text = f"bench note {time.monotonic_ns()}-{number}"
            start = time.perf_counter()
            with Session.open(save, lock=True) as session:  # the referee's command
                session.append(ev.Note(round=1, text=text))
            heard = await _first_change(streams)
            told.append((heard - start) * 1000)
            async with clients[0].get(links[0]) as page:
                assert text in await page.text()
            paged.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.3)  # a referee's pace: within each link's rate
    finally:
        for client in clients:
            await client.close()
    return {"told": told, "page": paged}


async def _live(client: Any, link: str) -> Any:
    """A page's live stream; the slot of the last sample's page is free within a second
    or so of its leaving."""
    for _ in range(50):
        stream = await client.get(f"{link}/live")
        if stream.status == 200:
            return stream
        stream.release()
        await asyncio.sleep(0.1)
    raise RuntimeError(f"a live page refused: {stream.status}")


async def _first_change(streams: list[Any]) -> float:
    """When every live page has been told of the change (the slowest of them)."""
    async def one(stream: Any) -> float:
        while True:
            line = await asyncio.wait_for(stream.content.readline(), 10)
            if not line:
                raise RuntimeError("a live page's stream ended")
            if line.startswith(b"data: changed"):
                return time.perf_counter()

    return max(await asyncio.gather(*(one(s) for s in streams)))


def heard(n: int) -> Values:
    return asyncio.run(_heard(n))


MEASURES: list[Measure] = [Measure(
    "phones.live", heard,
    (Figure("phones.told", "an event written to every one of 8 live pages told",
            "told", goal="<= 250 ms"),
     Figure("phones.told.p95", "an event written to 8 live pages told, p95", "told", "p95",
            goal="<= 250 ms"),
     Figure("phones.page", "an event written to a page showing it (told, then fetched)",
            "page", goal="<= 250 ms"),
     Figure("phones.page.p95", "an event written to a page showing it, p95", "page", "p95",
            goal="<= 250 ms")),
    setup=serve, script=(5, 8), compare=(2, 8))]


if __name__ == "__main__":
    main(MEASURES, "Players' phones (referee serve --players, 8 live pages):")
