"""`referee serve SAVE --players` at a table: the TV's view and eight phones at once, on a
real server. The serve prints each player's link, serves their pages beside the view, and
locks the save only to write a page's act (the referee's own commands take turns with it;
with the app open it does not start: the app serves the pages); the whole serve (the
server and the TV's view process) stays within 100 MB with every page live; nothing it
holds reaches past the loopback address.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp

from tests.conftest import ROOT
from tests.test_serve_hostile import drawing, free_port, listening, viewers
from tests.test_serve_limits import MB, rss, sockets_off_loopback, tree

LINK = re.compile(r"^  (.+): (http://127\.0\.0\.1:\d+/p/[A-Za-z0-9_-]{32})$", re.M)


async def phone(client: aiohttp.ClientSession, link: str,
                changed: asyncio.Event) -> str:
    """A player's phone: its page, then its live stream, read until told of a change."""
    async with client.get(link) as page:
        text = await page.text()
        assert page.status == 200
    async with client.get(f"{link}/live") as live:
        assert live.status == 200
        async for line in live.content:
            if line.startswith(b"data: changed"):
                changed.set()
                break
    return text


def doubled_party(text: str) -> str:
    """The demo with its four players' combatants twice over: eight players."""
    blocks = text.split("[[combatants]]\n")
    twins = ["[[combatants]]\n" + block.replace('id = "', 'id = "twin-', 1)
             .replace('name = "', 'name = "Twin ', 1)
             for block in blocks[1:] if 'side = "party"' in block]
    return text.rstrip("\n") + "\n\n" + "\n".join(twins)


def test_the_tv_and_eight_phones_within_100_mb(tmp_path: Path) -> None:
    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    save.write_text(doubled_party(save.read_text()))
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "referee", "serve", str(save), "--port",
                               str(port), "--players"], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, start_new_session=True, text=True)
    try:
        assert listening(port), "the serve did not start"
        links: list[str] = []
        assert server.stdout is not None
        while len(links) < 8:
            line = server.stdout.readline()
            assert line, "the serve printed fewer than eight links"
            found = LINK.match(line)
            if found:
                links.append(found.group(2))
        assert len(links) == 8

        async def round_trip() -> int:
            async with aiohttp.ClientSession() as tv, \
                    tv.ws_connect(f"http://127.0.0.1:{port}/ws?width=120&height=40") as ws:
                assert await drawing(ws, 20) > 0  # the TV's view is up
                clients = [aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
                           for _ in links]
                events = [asyncio.Event() for _ in links]
                tasks = [asyncio.create_task(phone(c, link, e))
                         for c, link, e in zip(clients, links, events, strict=True)]
                try:
                    await asyncio.sleep(2.0)  # every page loaded, every stream open
                    assert not any(t.done() for t in tasks), [t for t in tasks if t.done()]
                    held = sum(rss(pid) for pid in tree(server.pid))
                    assert not sockets_off_loopback(tree(server.pid))
                    # a player declares: every phone is told
                    page = await clients[0].get(links[0])
                    csrf = re.search(r'name="csrf" value="([^"]+)"', await page.text())
                    assert csrf is not None
                    sent = await clients[0].post(f"{links[0]}/act/declare-C",
                                                 data={"csrf": csrf.group(1)},
                                                 allow_redirects=False)
                    assert sent.status == 303
                    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 10)
                    # the referee's own command takes its turn with the serve's writer
                    noted = await asyncio.to_thread(
                        subprocess.run, [sys.executable, "-m", "referee", "note", str(save),
                                         "--text", "the ford is cold"],
                        cwd=ROOT, capture_output=True, text=True)
                    assert noted.returncode == 0, noted.stderr
                    return held
                finally:
                    for task in tasks:
                        task.cancel()
                    for client in clients:
                        await client.close()

        held = asyncio.run(round_trip())
        print(f"the serve with the TV's view and 8 live phones: {held / MB:.1f} MB")
        assert held <= 100 * MB, f"the serve holds {held / MB:.0f} MB with the TV and 8 phones"
        written = save.read_text()
        assert '"action" = "C"' in written and '"from_device" = "brann"' in written
        assert written.index('"from_device" = "brann"') < written.index("the ford is cold")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
        for pid in viewers(save):
            os.kill(pid, signal.SIGKILL)


def test_serve_players_does_not_start_while_the_app_has_the_save(tmp_path: Path) -> None:
    from referee.session.store import Session

    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    with Session.open(save, lock=True):  # as the app holds it
        done = subprocess.run([sys.executable, "-m", "referee", "serve", str(save), "--port",
                               str(free_port()), "--players"], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
    assert done.returncode == 1
    assert "its V serves the players' pages" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
