"""Combatant ids hold no spaces, `;`, `,`, `/` or control characters: ids are written in
volleys (`a,b`), plan lines and `--actor` (issue 30, B19). Refused in files (file, line,
field: tests/broken/id-*.toml) and at set-up's form, with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.app.forms import FormScreen
from referee.engine.model import id_fault
from referee.session.files import load_save
from tests.test_app_flows import SIZE, app_on, demo, fill


@pytest.mark.parametrize(("cid", "said"), [
    ("goblin 1", "a space"), ("a;b", "';'"), ("a,b", "','"), ("a/b", "'/'"),
    ("a\x1bb", "a control character (U+001B)"), ("a\tb", "a control character (U+0009)"),
    ("a\u202eb", "a control character (U+202E)"), ("a\u241bb", "(U+001B, shown ␛)"),
])
def test_an_id_with_a_separator_or_a_control_is_refused_with_the_reason(cid: str,
                                                                       said: str) -> None:
    fault = id_fault(cid)
    assert fault is not None and said in fault and "volleys, plan lines and --actor" in fault


@pytest.mark.parametrize("cid", ["goblin1", "goblin-1", "ogre_2", "Élise", "gob.1"])
def test_plain_ids_are_taken(cid: str) -> None:
    assert id_fault(cid) is None


async def test_set_up_refuses_an_id_with_a_space_under_the_id_field(tmp_path: Path) -> None:
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+e", "a")
        assert isinstance(pilot.app.screen, FormScreen)
        fill(pilot, id="goblin 7", hp="5")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, FormScreen)  # kept open, as typed
        assert "an id cannot hold a space" in pilot.app.screen.fault()
        assert "'goblin-7'" in pilot.app.screen.fault()
    assert load_save(path).encounter.combatant("goblin 7") is None
