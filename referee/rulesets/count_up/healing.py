"""CU-8: a Dying or Incapacitated creature is stabilised by a Heal check at TN 10 + the
highest damage of the wounds it has (each hit to its Wound Points is a wound).

The heal form asks whether it stabilises and names each TN; a Heal check typed in decides
it, and the heal event keeps the check and the TN beside the verdict.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.options import Healing
from referee.engine.record import replace
from referee.engine.specs import Field
from referee.engine.view import Fight, Status
from referee.hints import TYPE_CHECKING

from . import events as cu
from .conditions import condition
from .fold import State
from .ranges import CHECK
from .settings import Settled

if TYPE_CHECKING:
    from typing import Any

    from .settings import Settings
else:
    from referee.hints import Any


def largest_wound(fight: Fight, cid: str) -> int:
    return int(fight.status[cid].marks.get("largest_wound", 0))


def tn_of(s: Settings, fight: Fight, cid: str) -> int:
    """The Heal check's TN that stabilises `cid` now."""
    return s.stabilize_tn(largest_wound(fight, cid))


def needing(fight: Fight) -> list[str]:
    """Who a Heal check would stabilise: the Incapacitated and the Dying, not yet stable."""
    return [cid for cid, c in fight.roster.items()
            if condition(c, fight.status[cid]) in ("incapacitated", "dying")]


def tn_text(s: Settings, fight: Fight, cid: str) -> str:
    """TN 10 + largest wound 7 = 17."""
    return f"TN {s.heal_tn} + largest wound {largest_wound(fight, cid)} = " \
           f"{tn_of(s, fight, cid)}"


STABILISE = Field("stabilize", "stabilise", "bool", False)


class CountUpHealing(Settled[State], Healing[State]):
    """The heal form's Heal check, with the TN it is checked against (CU-8)."""

    def heal_fields(self, fight: Fight, target: str | None) -> tuple[Field, ...]:
        """The heal form's stabilise tick and Heal check, the check labelled with the
        target's TN, its help naming every TN: the form's target can change after it
        opens."""
        s = self.settings
        who = needing(fight)
        label = f"Heal check (TN {tn_of(s, fight, target)})" if target in who else "Heal check"
        tns = ", ".join(f"{fight.roster[cid].name} {tn_of(s, fight, cid)}" for cid in who)
        help = (f"stabilises at TN {s.heal_tn} + largest wound: {tns} (CU-8)" if tns else
                "no one is Dying or Incapacitated (CU-8)")
        return (STABILISE,
                Field("check", label, "int", minimum=CHECK[0], maximum=CHECK[1], help=help))

    def apply_heal(self, fight: Fight, status: Status, event: ev.Heal) -> Status:
        marks = status.marks
        wounds = min(status.max_hp, marks["wounds"] + event.amount)
        # CU-8: a heal that stabilises makes it the stabilised one; healed above 0 Wound
        # Points it no longer is, and a later fall below 0 is Dying again
        stable = (marks["stable"] or event.stabilize) and wounds <= 0
        return status.changed(hp=wounds, marks={**marks, "wounds": wounds, "stable": stable})

    def heal_events(self, fight: Fight, heal: ev.Heal,
                    values: Mapping[str, Any]) -> list[ev.Event]:
        """Healing as the heal form answered: ticked stabilise, it stabilises; a Heal check
        typed in decides it against the target's TN instead (a tick for stabilise against
        a failed check is refused)."""
        if values.get("stabilize") and not heal.stabilize:
            heal = replace(heal, stabilize=True)
        check = values.get("check")
        if check is None:
            return [heal]
        tn = tn_of(self.settings, fight, heal.target)
        holds = int(check) >= tn
        if heal.stabilize and not holds:
            raise IllegalEvent(f"a Heal check of {check} is under TN {tn}: it does not "
                               "stabilise (CU-8); leave the check blank to stabilise anyway",
                               ("check",))
        return [cu.Heal(round=heal.round, target=heal.target, amount=heal.amount,
                        stabilize=holds, check=int(check), tn=tn)]


def check_heal(s: Settings, fight: Fight, event: ev.Heal) -> None:
    """A Heal check logged with its TN is held to the rule: the TN is the target's then,
    and the verdict is the check against it."""
    check, tn = getattr(event, "check", None), getattr(event, "tn", None)
    if check is None and tn is None:
        return
    if check is None or tn is None:
        raise IllegalEvent("a Heal check comes with its TN (CU-8)",
                           ("tn",) if tn is None else ("check",))
    want = tn_of(s, fight, event.target)
    if tn != want:
        raise IllegalEvent(f"{tn_text(s, fight, event.target)}, the log has TN {tn} (CU-8)",
                           ("tn",))
    if event.stabilize != (check >= tn):
        verdict = "stabilises" if check >= tn else "does not stabilise"
        raise IllegalEvent(f"a Heal check of {check} against TN {tn} {verdict}; the log has "
                           f"stabilize = {'true' if event.stabilize else 'false'} (CU-8)",
                           ("stabilize",))
