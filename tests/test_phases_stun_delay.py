"""PH-10 with a squad on Delay (PH-9): a unit stunned in its own phase loses what it gained
there (its squad held it at once), and its why does not say it lost a delayed one it held
— it held none as the phase began, and the phase's `holding` does not list it (found by
test_phases_properties: the why and the holding disagreed). A unit that held a delayed one
since an earlier phase still loses it with that why, listed as holding."""

from __future__ import annotations

from pathlib import Path

from referee.session.files import parse_save
from tests.test_phases_properties import BATTLE, agrees, deed_event, fallen


def planned(*deeds: tuple[str, str, str, int]) -> dict[str, tuple[list[str], list[str]]]:
    """Each beat's whys and who it lists holding, by its tag, after `deeds`; every beat
    checked against its whys as the property does."""
    fight = parse_save(BATTLE, Path("stun.toml")).fight
    for deed in deeds:
        fight.enter(deed_event(fight, *deed))
    plan = fight.plan()
    for index, beat in enumerate(plan.beats):
        agrees(fight, beat, fallen(fight), first=index == 0)
    return {beat.tag: (list(beat.why), [h["actor"] for h in beat.extra["holding"]])
            for beat in plan.beats}


DELAY = ("order", "u0", "move", 0)  # the band (u0 leads u1, u2) on Delay this round


def test_stunned_in_its_own_phase_it_loses_what_it_gained_not_a_delayed_one() -> None:
    whys, holding = planned(DELAY, ("stun", "u0", "move", 0))["phase 0"]
    assert not [why for why in whys if why.startswith("Unit 0 is stunned")]
    assert "u0" not in holding
    whys, holding = planned(DELAY, ("stun", "u1", "move", 1))["phase 1"]
    assert not [why for why in whys if why.startswith("Unit 1 is stunned")]
    assert "u1" not in holding


def test_stunned_later_it_loses_the_delayed_ones_held_since_its_phase() -> None:
    beats = planned(DELAY, ("stun", "u1", "move", 0))
    whys, holding = beats["phase 0"]
    assert "Unit 1 is stunned: loses the delayed Move and Action it held" in whys
    assert "u1" in holding  # as the phase began
