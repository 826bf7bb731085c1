"""demon-idol's check of a declaration folds a long log's usual one (an action of its
catalogue but a D, with no field beyond the plain ones) without the checks that cannot
refuse it, and still asks them of every other: the same refusals, with the same words
and fields. Counted, never timed."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.errors import RefereeError
from referee.engine.fight import Fight
from referee.engine.roles import RosterSchema
from referee.rulesets.demon_idol import checks
from referee.rulesets.demon_idol import events as di
from referee.session.files import load_save

ROOT = Path(__file__).resolve().parent.parent


def fresh() -> Fight:
    save = load_save(ROOT / "saves" / "demo.toml")
    return Fight(save.encounter, save.ruleset)


def read(fight: Fight, **table: object) -> di.Declare:
    """A declaration as a loaded log has it (its own table holds the fields written)."""
    event = fight.ruleset.schema.reader.read({"type": "declare", **table}, ("events", 0))
    assert isinstance(event, di.Declare)
    return event


def refusal(fight: Fight, event: di.Declare) -> tuple[str, tuple[object, ...]] | None:
    try:
        fight.extend([event])
    except RefereeError as error:
        return error.reason, error.path
    return None


def test_only_a_declaration_a_check_may_refuse_is_checked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []
    event_check, plain = RosterSchema.check_event, checks.check_plain
    monkeypatch.setattr(RosterSchema, "check_event",
                        lambda *a: called.append("catalogue") or event_check(*a))
    monkeypatch.setattr(checks, "check_plain",
                        lambda *a: called.append("plain") or plain(*a))
    fight = fresh()
    ids = list(fight.roster)
    fight.extend([read(fight, round=1, actor=cid, action="B", target=ids[-1])
                  for cid in ids[:3]])
    assert called == []  # an action of the catalogue, not a D: nothing to ask
    # another action, a D, a field beyond the plain ones: each asked as before
    assert refusal(fight, read(fight, round=1, actor=ids[3], action="Z")) is not None
    assert called == ["catalogue"]
    called.clear()
    assert refusal(fight, read(fight, round=1, actor=ids[3], action="D")) is not None
    assert called == ["catalogue", "plain"]
    called.clear()
    refusal(fight, read(fight, round=1, actor=ids[3], action="B", delay=1))
    assert called == ["catalogue"]


@pytest.mark.parametrize("action", ["Z", "D", "B", "b", "P", ""])
def test_the_same_refusal_as_every_check_asked(
        action: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fight = fresh()
    event = read(fight, round=1, actor=list(fight.roster)[0], action=action or "?")
    quick = refusal(fight, event)
    fight = fresh()
    fight.ruleset.schema.__dict__["_quiet"] = frozenset()  # no action quiet
    try:
        assert refusal(fight, event) == quick
    finally:
        fight.ruleset.schema.__dict__.pop("_quiet")
