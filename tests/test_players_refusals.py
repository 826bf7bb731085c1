"""Every refusal of a player's page through HTTP (issue 34's security promises): each one
answers 4xx (503 for a live page too many), leaves the save byte-identical, writes nothing,
and leaves exactly one warning on the logger "referee.phones", with no traceback."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from referee.phones.server import BURST, PAGES_PER_TOKEN, RATE, Bucket
from referee.session.links import links_for
from tests.test_players_pages import FakeClock, Served, copy_save, load, open_table, served

LOGGER = "referee.phones"


@pytest.fixture
def save(tmp_path: Path) -> Path:
    return copy_save(tmp_path)


def phone_records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == LOGGER]


async def refused(s: Served, caplog, status: int, ask: Callable[[], Awaitable[Any]]) -> str:
    """`ask` answered `status`, nothing written, one warning: the answer's text."""
    before = s.save.read_bytes()
    events = len(s.table.fight.log)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger=LOGGER):
        response = await ask()
        text = await response.text()
    assert response.status == status, text
    assert 400 <= status < 500 or status == 503
    assert s.save.read_bytes() == before
    assert len(s.table.fight.log) == events
    found = phone_records(caplog)
    assert len(found) == 1, [r.getMessage() for r in found]
    assert found[0].levelno == logging.WARNING
    assert all(r.exc_info is None for r in caplog.records)
    assert "Traceback" not in caplog.text
    assert s.tokens["brann"] not in caplog.text  # a token in the log is a key in the log
    return text


def post(s: Served, token: str, act: str, data: Any, **kw: Any) -> Callable[[], Awaitable[Any]]:
    return lambda: s.client.post(f"/p/{token}/act/{act}", data=data, allow_redirects=False,
                                 **kw)


async def test_a_good_post_is_done_and_marked(save: Path, caplog):
    """The control: what the refusals below spoil is accepted as it is."""
    async with served(save) as s:
        token = s.tokens["brann"]
        _, csrf = await load(s.client, token)
        caplog.clear()
        response = await s.client.post(f"/p/{token}/act/declare-G", data={
            "csrf": csrf, "weapon": "spear", "target": "gob2", "routines": "",
            "trigger": "if the ogre moves"}, allow_redirects=False,
            headers={"Origin": str(s.client.make_url("")).rstrip("/"),
                     "Sec-Fetch-Site": "same-origin"})
        assert response.status == 303
        decl = s.table.declared()["brann"]
        assert (decl.weapon, decl.target, decl.from_device) == ("spear", ("gob2",), "brann")
        assert decl.trigger == "if the ogre moves"
        assert phone_records(caplog) == []
        page = await (await s.client.get(f"/p/{token}")).text()
        assert "Declared. You may change it until initiative is rolled." in page
        # the page's own post carries Origin null (it asks for no referrer): held to its
        # CSRF token alone
        _, csrf = await load(s.client, s.tokens["zed"])
        response = await s.client.post(f"/p/{s.tokens['zed']}/act/initiative-die",
                                       data={"csrf": csrf, "party": "5"},
                                       allow_redirects=False,
                                       headers={"Origin": "null", "Sec-Fetch-Site": "none"})
        assert response.status == 303
        assert s.table.fight.log[-1].from_device == "zed"
        assert {f.name: f.default for f in s.table.initiative_form().fields}["party"] == 5


# what a page sends that its form does not offer: (act, fields beside csrf, said)
SPOILT = {
    "forged-actor": ("declare-G", {"weapon": "spear", "actor": "zed"}, "no field"),
    "forged-delay": ("declare-G", {"weapon": "spear", "delay": "0"}, "no field"),
    "choice-not-offered": ("declare-G", {"weapon": "axe"}, "not one of its choices"),
    "target-not-offered": ("declare-G", {"target": "nobody"}, "not one of its choices"),
    "int-below-range": ("declare-E", {"closing": "-1"}, "out of range"),
    "int-above-range": ("initiative-die", {"party": "10000000000"}, "out of range"),
    "int-not-a-number": ("initiative-die", {"party": "six"}, "a whole number"),
    "die-required": ("initiative-die", {"party": ""}, "required"),
    "number-not-finite": ("declare-E", {"distance": "nan"}, "out of range"),
    "text-escape": ("declare-G", {"trigger": "\x1b[31mred"}, "control character"),
    "text-bidi": ("declare-G", {"trigger": "abc\u202edef"}, "control character"),
    "text-too-long": ("declare-G", {"trigger": "x" * 201}, "over 200 characters"),
    "sent-twice": ("declare-G", [("weapon", "spear"), ("weapon", "long sword")], "2 times"),
    "enemy-die": ("initiative-die", {"goblins": "1"}, "no field"),
    "not-a-players-act": ("undo", {}, "not offered"),
    "not-an-act": ("declare-Z", {}, "not offered"),
}


@pytest.mark.parametrize("case", list(SPOILT))
async def test_a_value_the_form_does_not_offer_is_refused(save: Path, caplog, case):
    act, fields, said = SPOILT[case]
    async with served(save) as s:
        token = s.tokens["brann"]
        _, csrf = await load(s.client, token)
        data = [("csrf", csrf), *(fields.items() if isinstance(fields, dict) else fields)]
        text = await refused(s, caplog, 400, post(s, token, act, data))
        assert said in caplog.text
        assert 'class="refused"' in text and "Not done:" in text
        assert "brann" not in s.table.declared()


async def test_a_post_over_4_kb_is_refused(save: Path, caplog):
    async with served(save) as s:
        token = s.tokens["brann"]
        _, csrf = await load(s.client, token)
        data = {"csrf": csrf, "weapon": "spear", "trigger": "x" * 4200}
        await refused(s, caplog, 413, post(s, token, "declare-G", data))
        assert "over 4096 bytes" in caplog.text

        async def chunks():  # no Content-Length: read no further than the cap
            yield f"csrf={csrf}&weapon=spear&trigger=".encode()
            for _ in range(10):
                yield b"y" * 1000

        await refused(s, caplog, 413, post(
            s, token, "declare-G", chunks(),
            headers={"Content-Type": "application/x-www-form-urlencoded"}))


async def test_a_post_not_a_form_is_refused(save: Path, caplog):
    async with served(save) as s:
        token = s.tokens["brann"]
        _, csrf = await load(s.client, token)
        await refused(s, caplog, 415, lambda: s.client.post(
            f"/p/{token}/act/declare-G", json={"csrf": csrf, "weapon": "spear"},
            allow_redirects=False))


async def test_a_forged_or_missing_csrf_token_is_refused(save: Path, caplog):
    async with served(save) as s:
        token = s.tokens["brann"]
        _, csrf = await load(s.client, token)
        good = {"weapon": "spear"}
        await refused(s, caplog, 403, post(s, token, "declare-G", good))
        await refused(s, caplog, 403, post(s, token, "declare-G", {**good, "csrf": "0" * 32}))
        await refused(s, caplog, 403, post(s, token, "declare-G",
                                           [("csrf", csrf), ("csrf", csrf), *good.items()]))
        # the page's token is for its own link: Zed's page cannot post as Brann
        _, zeds = await load(s.client, s.tokens["zed"])
        await refused(s, caplog, 403, post(s, token, "declare-G", {**good, "csrf": zeds}))
        # and for its own cookie: without it (another site's post) the token is nothing
        s.client.session.cookie_jar.clear()
        text = await refused(s, caplog, 403, post(s, token, "declare-G",
                                                  {**good, "csrf": csrf}))
        assert "expired" in text


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
], ids=["origin", "origin-null", "cross-site", "same-site"])
async def test_a_post_from_another_site_is_refused(save: Path, caplog, headers):
    async with served(save) as s:
        token = s.tokens["brann"]
        _, csrf = await load(s.client, token)
        await refused(s, caplog, 403, post(s, token, "declare-G",
                                           {"csrf": csrf, "weapon": "spear"},
                                           headers=headers))
        assert "another site" in caplog.text


async def test_a_token_acts_only_for_its_own_combatant(save: Path, caplog):
    async with served(save) as s:
        brann = s.tokens["brann"]
        _, csrf = await load(s.client, brann)
        await refused(s, caplog, 400, post(s, brann, "declare-G",
                                           {"csrf": csrf, "actor": "zed", "weapon": "dagger"}))
        await refused(s, caplog, 400, post(s, brann, "declare-D",  # Zed's spell, not his
                                           {"csrf": csrf, "spell": "sleep"}))
        assert "zed" not in s.table.declared() and "brann" not in s.table.declared()
        # his side's die is his to type: the same post as another party member's is fine
        response = await s.client.post(f"/p/{brann}/act/initiative-die",
                                       data={"csrf": csrf, "party": "3"},
                                       allow_redirects=False)
        assert response.status == 303
        assert s.table.fight.log[-1].actor == "brann"
        await refused(s, caplog, 400, post(s, brann, "initiative-die",
                                           {"csrf": csrf, "goblins": "6"}))


async def test_a_closed_phase_is_refused(save: Path, caplog):
    async with served(save) as s:
        token = s.tokens["brann"]
        _, csrf = await load(s.client, token)
        s.table.roll_initiative()
        await refused(s, caplog, 400, post(s, token, "declare-G",
                                           {"csrf": csrf, "weapon": "spear"}))
        assert "declarations are closed" in caplog.text
        await refused(s, caplog, 400, post(s, token, "initiative-die",
                                           {"csrf": csrf, "party": "3"}))


async def test_declarations_closed_by_the_referee_are_refused(save: Path, caplog):
    async with served(save) as s:
        token = s.tokens["brann"]
        _, csrf = await load(s.client, token)
        s.desk.close_declarations()
        await refused(s, caplog, 400, post(s, token, "declare-G",
                                           {"csrf": csrf, "weapon": "spear"}))


async def test_a_revoked_token_is_refused_after_its_page_was_loaded(save: Path, caplog):
    async with served(save) as s:
        token = s.tokens["brann"]
        _, csrf = await load(s.client, token)
        new = links_for(open_table(save).fight, save, revoke=True)  # another terminal
        text = await refused(s, caplog, 404, post(s, token, "declare-G",
                                                  {"csrf": csrf, "weapon": "spear"}))
        assert "ask the referee for yours" in text
        await refused(s, caplog, 404, lambda: s.client.get(f"/p/{token}"))
        await refused(s, caplog, 404, lambda: s.client.get(f"/p/{token}/live"))
        assert (await s.client.get(f"/p/{new['brann']}")).status == 200


async def test_an_ended_fight_refuses_every_page(save: Path, caplog):
    async with served(save) as s:
        token = s.tokens["brann"]
        _, csrf = await load(s.client, token)
        s.table.end()
        await refused(s, caplog, 404, post(s, token, "declare-G",
                                           {"csrf": csrf, "weapon": "spear"}))
        await refused(s, caplog, 404, lambda: s.client.get(f"/p/{token}"))


@pytest.mark.parametrize("token", ["A" * 32, "short", "x" * 200, "%00" * 11, "..%2F..%2Fetc"])
async def test_an_unknown_token_is_not_found(save: Path, caplog, token):
    async with served(save) as s:
        await refused(s, caplog, 404, lambda: s.client.get(f"/p/{token}"))
        await refused(s, caplog, 404, post(s, token, "declare-G", {"weapon": "spear"}))
        assert token[:8] not in caplog.text or len(token) < 8


async def test_too_many_requests_from_one_token(save: Path, caplog):
    async with served(save) as s:
        token = s.tokens["brann"]
        clock = FakeClock()  # the bucket's time stands still: no refill while we ask
        s.phones.buckets[token] = Bucket(BURST, RATE, clock=clock)
        _, csrf = await load(s.client, token)
        for _ in range(BURST - 1):
            assert (await s.client.get(f"/p/{token}")).status == 200
        await refused(s, caplog, 429, post(s, token, "declare-G",
                                           {"csrf": csrf, "weapon": "spear"}))
        assert "too many requests" in caplog.text
        await refused(s, caplog, 429, lambda: s.client.get(f"/p/{token}"))
        # another player is not held back by Brann's bucket
        assert (await s.client.get(f"/p/{s.tokens['zed']}")).status == 200
        clock.now += 1.0  # two requests a second come back
        response = await s.client.post(f"/p/{token}/act/declare-G",
                                       data={"csrf": csrf, "weapon": "spear"},
                                       allow_redirects=False)
        assert response.status == 303


async def test_too_many_live_pages_of_one_token(save: Path, caplog):
    async with served(save) as s:
        token = s.tokens["brann"]
        streams = [await s.client.get(f"/p/{token}/live") for _ in range(PAGES_PER_TOKEN)]
        assert [r.status for r in streams] == [200] * PAGES_PER_TOKEN
        text = await refused(s, caplog, 503, lambda: s.client.get(f"/p/{token}/live"))
        assert "too many pages" in text
        zed = await s.client.get(f"/p/{s.tokens['zed']}/live")  # another player's is fine
        assert zed.status == 200
        for response in [*streams, zed]:
            response.close()


async def test_too_many_live_pages_at_once(save: Path, caplog):
    async with served(save, max_pages=2) as s:
        streams = [await s.client.get(f"/p/{s.tokens[cid]}/live") for cid in ("brann", "zed")]
        assert [r.status for r in streams] == [200, 200]
        await refused(s, caplog, 503, lambda: s.client.get(f"/p/{s.tokens['mira']}/live"))
        # a page itself still loads: only the live streams are bounded
        assert (await s.client.get(f"/p/{s.tokens['mira']}")).status == 200
        for response in streams:
            response.close()


async def test_a_flood_of_unknown_links_is_refused_without_flooding_the_log(save: Path, caplog):
    """Each unknown link is refused; the log says so for the first few from an address,
    then holds its peace (it would otherwise be a way to flood the referee's terminal)."""
    async with served(save) as s:
        with caplog.at_level(logging.INFO, logger=LOGGER):
            for number in range(60):
                response = await s.client.get(f"/p/{'B' * 31}{number % 10}")
                assert response.status == 404
        assert 1 <= len(phone_records(caplog)) <= 12


async def test_a_save_that_cannot_be_read_is_said_once_and_the_link_waits(save: Path, caplog):
    """`referee serve --players` reads the save as it changes: while it cannot be read (a
    damaged file), a page answers that it cannot be read just now (503), the log says why
    once — not at every request — and no traceback; the link works again once it reads."""
    from aiohttp import web
    from aiohttp.test_utils import TestClient, TestServer

    from referee.phones.server import MAX_BODY, Phones
    from referee.session.desk import BriefWriter, Desk

    desk = Desk(BriefWriter(save), save)
    token = desk.make_links()["brann"]
    good = save.read_bytes()
    app = web.Application(client_max_size=MAX_BODY)
    Phones(desk).attach(app)
    async with TestClient(TestServer(app)) as client:
        assert (await client.get(f"/p/{token}")).status == 200
        save.write_bytes(b"format = 3\nthis is = = not a save\n")
        with caplog.at_level(logging.INFO, logger=LOGGER):
            for _ in range(5):
                response = await client.get(f"/p/{token}")
                assert response.status == 503
                assert "cannot be read just now" in await response.text()
        assert len(phone_records(caplog)) == 1
        assert "Traceback" not in caplog.text
        save.write_bytes(good)
        assert (await client.get(f"/p/{token}")).status == 200
