"""agility-order in the app: a whole round from the keyboard, asserting what is on disk."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from referee.app import RefereeApp
from referee.app.forms import FormScreen as Form
from referee.app.widgets import Tracker
from referee.engine import events as ev
from referee.rulesets.agility_order import budget, units
from referee.rulesets.agility_order import events as ao
from referee.session.files import load_save
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "agility-order.toml"


def logged(path: Path) -> list[ev.Event]:
    return load_save(path).fight.log


async def test_a_whole_round_from_the_keyboard(tmp_path: Path) -> None:
    path = tmp_path / "raid.toml"
    shutil.copyfile(DEMO, path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = pilot.app.screen
        await pilot.press("t")  # the tie: typed from real dice
        assert isinstance(pilot.app.screen, Form)
        pilot.app.screen.query_one("#f-brann").value = "4"
        pilot.app.screen.query_one("#f-vask").value = "15"
        await pilot.press("enter")
        ties = [e for e in logged(path) if isinstance(e, ao.Initiative)]
        assert ties and ties[0].ties == {"brann": 4, "vask": 15}

        assert screen.selected() == "sable"
        await pilot.press("a")  # a natural 20, d4 4, d6 3: a super critical
        form = pilot.app.screen
        assert isinstance(form, Form)
        form.query_one("#f-target").index = [v for _, v in form.query_one("#f-target")
                                             .options].index("hask")
        form.query_one("#f-aim").index = 4  # weakening
        form.query_one("#f-d20").value = "20"
        form.query_one("#f-chain").value = "4 3"
        form.query_one("#f-damage").value = "5"
        await pilot.press("enter")
        log = logged(path)
        attack = next(e for e in log if isinstance(e, ao.Attack))
        assert attack.crit == 2 and attack.hit and attack.chain == (4, 3)  # its dice kept
        chain = [e for e in log if isinstance(e, ev.Roll) and "chain" in (e.purpose or "")]
        assert [r.total for r in chain] == [4, 3]
        damage = next(e for e in log if isinstance(e, ev.Damage))
        assert damage.amount == 5 * 4 - 1
        wound = next(e for e in log if isinstance(e, ao.Wound))
        assert wound.target == "hask" and wound.effect == "weakening"

        await pilot.press("a")  # no AA left: the extra attack is offered (MA + 2 BA)
        form = pilot.app.screen
        assert isinstance(form, Form)
        form.query_one("#f-d20").value = "2"
        await pilot.press("enter")
        assert [e for e in logged(path) if isinstance(e, ao.Attack)][-1].extra
        await pilot.press("a")  # nothing left: refused, nothing written
        count = len(logged(path))
        assert not isinstance(pilot.app.screen, Form)
        await pilot.press("n")  # end of Sable's turn
        assert len(logged(path)) == count + 1

        assert screen.selected() == "vask"
        await pilot.press("d")  # Vask delays after Brann
        form = pilot.app.screen
        assert isinstance(form, Form)
        form.query_one("#f-after").index = [v for _, v in form.query_one("#f-after")
                                            .options].index("brann")
        await pilot.press("enter")
        delay = [e for e in logged(path) if isinstance(e, ao.Delay)]
        assert delay and delay[0].after == "brann"
        fight = load_save(path).fight
        assert fight.ruleset.planner.turn(fight) == "brann"

        screen.query_one(Tracker).select("hask")  # a free hit, off turn
        await pilot.press("f")
        form = pilot.app.screen
        assert isinstance(form, Form)
        form.query_one("#f-d20").value = "3"
        await pilot.press("enter")
        free = [e for e in logged(path) if isinstance(e, ao.Attack)][-1]
        assert free.free and free.actor == "hask"

        screen.table.condition("sable", "prone")  # knocked down; stands up off-turn
        screen.query_one(Tracker).select("sable")
        await pilot.press("u")
        assert isinstance(pilot.app.screen, Form)
        await pilot.press("enter")
        stand = [e for e in logged(path) if isinstance(e, ao.Spend)][-1]
        assert stand.use == "stand up" and stand.off_turn

        for _ in range(6):  # the rest of the round, turn by turn
            await pilot.press("n")
        fight = load_save(path).fight
        assert fight.ruleset.planner.turn(fight) is None
        await pilot.press("r")
        fight = load_save(path).fight
        assert fight.round == 2
        assert budget.left(fight, "sable") == (1, 1, 1)  # the BA went to stand up


async def test_disengage_is_its_own_key_and_never_the_ma(tmp_path: Path) -> None:
    """AO-4: `e` disengages with the AA or 2 BA; the other action (`c`) offers no
    disengage, since it may be paid with the MA."""
    path = tmp_path / "raid.toml"
    shutil.copyfile(DEMO, path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = pilot.app.screen
        assert screen.selected() == "sable"
        await pilot.press("c")
        form = pilot.app.screen
        assert isinstance(form, Form)
        assert "disengage" not in [v for _, v in form.query_one("#f-use").options]
        await pilot.press("escape")
        await pilot.press("e")
        form = pilot.app.screen
        assert isinstance(form, Form)
        assert [v for _, v in form.query_one("#f-pay").options] == ["AA", "2 BA"]
        await pilot.press("enter")
        spend = [e for e in logged(path) if isinstance(e, ao.Spend)][-1]
        assert (spend.use, spend.aa, spend.ma, spend.ba) == ("disengage", 1, 0, 0)
        await pilot.press("e")
        form = pilot.app.screen
        assert isinstance(form, Form)
        assert [v for _, v in form.query_one("#f-pay").options] == ["2 BA"]
        await pilot.press("enter")
        spend = [e for e in logged(path) if isinstance(e, ao.Spend)][-1]
        assert (spend.use, spend.aa, spend.ma, spend.ba) == ("disengage", 0, 0, 2)


async def test_h_takes_off_armour_and_wounds_at_six_net_undone_as_one(tmp_path: Path) -> None:
    """AO-11: the hit key's damage goes through the target's armour, the form says what
    it will do first, and a hit of 6+ net wounds; ctrl+z takes both back."""
    path = tmp_path / "raid.toml"
    shutil.copyfile(DEMO, path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")  # Sable's turn: at Vask (armour 1)
        form = pilot.app.screen
        assert isinstance(form, Form)
        assert form.query_one("#f-target").value == "vask"
        shown = form.query_one("#f-armour")
        assert shown.options[shown.index][0] == "Vask the spearman: 1 off, 7+ wounds"
        form.query_one("#f-amount").value = "8"
        await pilot.press("enter")
        assert not isinstance(pilot.app.screen, Form)
        log = logged(path)
        damage = next(e for e in log if isinstance(e, ev.Damage))
        assert (damage.target, damage.amount, damage.source) == ("vask", 8, "sable")
        wound = next(e for e in log if isinstance(e, ao.Wound))
        assert (wound.target, wound.by, wound.effect) == ("vask", "sable", None)
        fight = load_save(path).fight
        assert fight.status["vask"].hp == 15 - 7
        assert fight.ruleset.tracker.facts(fight, "vask")["wounds"] == [""]

        await pilot.press("h")  # 6 on Odo's armour 2: 4 net, no wound
        form = pilot.app.screen
        assert isinstance(form, Form)
        form.query_one("#f-target").value = "odo"
        form.query_one("#f-amount").value = "6"
        await pilot.press("enter")
        fight = load_save(path).fight
        assert fight.status["odo"].hp == 20 - 4
        assert fight.ruleset.tracker.facts(fight, "odo")["wounds"] == []

        await pilot.press("ctrl+z", "ctrl+z")  # each hit with its wound, one act each
        fight = load_save(path).fight
        assert fight.status["vask"].hp == 15 and fight.status["odo"].hp == 20
        assert fight.ruleset.tracker.facts(fight, "vask")["wounds"] == []


async def test_w_adds_a_wound_by_hand_and_ctrl_z_takes_it_back(tmp_path: Path) -> None:
    path = tmp_path / "raid.toml"
    shutil.copyfile(DEMO, path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = pilot.app.screen
        screen.query_one(Tracker).select("hask")
        await pilot.press("w")
        form = pilot.app.screen
        assert isinstance(form, Form)
        assert form.query_one("#f-target").value == "hask"  # the unit under the cursor
        assert form.query_one("#f-by").value == "sable"  # whose turn it is, a foe
        form.query_one("#f-effect").value = "slowing"
        await pilot.press("enter")  # Sable has not hit Hask: the aimed effect refused
        assert isinstance(pilot.app.screen, Form)
        assert "an aimed effect needs a hit" in form.fault()
        form.query_one("#f-by").value = ""  # nobody named: the referee's ruling
        await pilot.press("enter")
        assert not isinstance(pilot.app.screen, Form)
        wound = [e for e in logged(path) if isinstance(e, ao.Wound)][-1]
        assert (wound.target, wound.effect, wound.by) == ("hask", "slowing", None)
        fight = load_save(path).fight
        assert units.agility_now(fight, "hask") == 2
        await pilot.press("ctrl+z")
        fight = load_save(path).fight
        assert fight.ruleset.tracker.facts(fight, "hask")["wounds"] == []


async def test_c_asks_a_caster_for_the_spell_and_its_target(tmp_path: Path) -> None:
    """AO-4: a cast names one of the caster's spells and whom it is cast at; a unit with
    no spells is offered no cast."""
    path = tmp_path / "raid.toml"
    shutil.copyfile(DEMO, path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = pilot.app.screen
        await pilot.press("c")  # Sable: no spells
        form = pilot.app.screen
        assert isinstance(form, Form)
        assert "cast" not in [v for _, v in form.query_one("#f-use").options]
        assert not form.query("#f-spell")
        await pilot.press("escape")
        for _ in range(3):  # Sable, Brann, Vask take their turns
            await pilot.press("n")
        assert screen.selected() == "mira"
        await pilot.press("c")
        form = pilot.app.screen
        assert isinstance(form, Form)
        assert form.query_one("#f-use").value == "cast"
        spell = form.query_one("#f-spell")
        assert [v for _, v in spell.options] == ["fire dart", "mend"]
        spell.value = "mend"
        form.query_one("#f-target").value = "odo"
        form.query_one("#f-mp").value = "2"
        await pilot.press("enter")
        spend = [e for e in logged(path) if isinstance(e, ao.Spend)][-1]
        assert (spend.use, spend.spell, spend.target, spend.mp) == ("cast", "mend", "odo", 2)
        fight = load_save(path).fight
        assert budget.mp_left(fight, "mira") == 10
