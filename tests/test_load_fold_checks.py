"""A loaded log's fold (`Fight.extend`) writes out the core's checks of a target and of
a resolve, calling each only where it may refuse the event, and folds damage and heals
a ruleset keeps as the engine's in the core's own step: the same state and the same
refusals as `push`, one event at a time. Counted, never timed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent, UnknownCombatant
from referee.engine.fight import Fight
from referee.rulesets.count_up.healing import CountUpHealing
from referee.session.files import load_save

ROOT = Path(__file__).resolve().parent.parent


def fresh(name: str) -> Fight:
    save = load_save(ROOT / "saves" / name)
    return Fight(save.encounter, save.ruleset)


def blows(fight: Fight) -> list[ev.Event]:
    ids = list(fight.roster)
    log: list[ev.Event] = []
    for n, cid in enumerate(ids * 2):
        log.append(ev.Damage(round=1, target=cid, amount=n % 3))
        log.append(ev.Heal(round=1, target=cid, amount=1))
    return log


def test_the_core_checks_are_called_only_where_they_may_refuse(
        monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []
    targeted, resolve = Fight._check_targeted, Fight._check_resolve

    def counted_target(self: Fight, e: Any) -> None:
        called.append("target")
        targeted(self, e)

    def counted_resolve(self: Fight, e: Any) -> None:
        called.append("resolve")
        resolve(self, e)

    monkeypatch.setattr(Fight, "_check_targeted", counted_target)
    monkeypatch.setattr(Fight, "_check_resolve", counted_resolve)
    fight = fresh("demo.toml")
    fight.extend(blows(fight) + [ev.Resolve(round=1, actions=("x",))])
    assert called == []
    for bad in (ev.Damage(round=1, target="nobody", amount=1),
                ev.Heal(round=1, target="nobody", amount=1), ev.Resolve(round=1)):
        pushed = fight.copy()
        with pytest.raises((UnknownCombatant, IllegalEvent)) as by_push:
            pushed.push(bad)
        called.clear()
        with pytest.raises(type(by_push.value)) as by_extend:
            fight.extend([bad])
        assert str(by_extend.value) == str(by_push.value)
        assert by_extend.value.path == by_push.value.path
        assert called == ["resolve" if type(bad) is ev.Resolve else "target"]
        assert len(fight.log) == len(pushed.log)


@pytest.mark.parametrize("name", ["demo.toml", "count-up.toml"])
def test_damage_and_heals_fold_as_pushed_each_status_a_new_one(name: str) -> None:
    folded, pushed = fresh(name), fresh(name)
    log = blows(folded)
    before = dict(folded.status)
    kept = {cid: dict(s.__dict__) for cid, s in before.items()}
    folded.extend(log)
    for event in log:
        pushed.push(event)
    assert folded.status == pushed.status
    for cid, status in before.items():  # the records folded from are as they were
        assert status.__dict__ == kept[cid]
        assert folded.status[cid] is not status


def test_a_healing_role_still_folds_each_heal(monkeypatch: pytest.MonkeyPatch) -> None:
    healed: list[str] = []
    apply_heal = CountUpHealing.apply_heal

    def counted(self: CountUpHealing, fight: Any, status: Any, event: ev.Heal) -> Any:
        healed.append(event.target)
        return apply_heal(self, fight, status, event)

    monkeypatch.setattr(CountUpHealing, "apply_heal", counted)
    fight = fresh("count-up.toml")
    log = blows(fight)
    fight.extend(log)
    assert healed == [e.target for e in log if type(e) is ev.Heal]
