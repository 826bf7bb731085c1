"""demon-idol: side d6 initiative, A-G letter order and every out-of-sequence rule.

The scheduler lays a round out by DI-3/DI-4 (with the tie splits DI-11, DI-12 and the
delay of DI-16), then lets each pairwise rule DI-6 ... DI-13 move only the actions it
names, as DI-0 describes. Every beat cites the rules that placed it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import events as ev
from ..dice import roll as roll_dice
from ..errors import FormatError, IllegalDeclaration, IllegalEvent
from ..plan import Plan, PlannedAction
from ..reading import Fields
from ..record import record
from .base import ActionKind, Ruleset, unique_keys

if TYPE_CHECKING:
    import random

    from ..fight import Fight, Status
    from ..model import Combatant, Weapon

ROLES = ("psionic", "avoid", "parley", "await", "discharge", "move", "set", "strike")
FIELDS = {
    "psionic": ("target",),
    "avoid": (),
    "parley": ("target",),
    "await": (),
    "discharge": ("weapon", "spell", "device", "usage_time", "turn", "target"),
    "move": ("charge", "closing", "weapon", "target"),
    "set": ("weapon", "target"),
    "strike": ("weapon", "target"),
}


@record(frozen=True, eq=False)
class Item:
    """One declared action, or one routine of it, as the scheduler moves it."""

    index: int  # the declaration's position in the log
    decl: ev.Declare
    actor: Combatant
    rank: int  # roster position: orders actions inside a beat
    letter: str
    role: str
    routine: int | None = None
    replaced: str | None = None  # the letter a failed morale check replaced (DI-18)

    @property
    def side(self) -> str:
        return self.actor.side

    @property
    def delay(self) -> int:
        return self.decl.delay

    @property
    def first(self) -> bool:
        return self.routine in (None, 1)

    def weapon(self) -> Weapon | None:
        if self.decl.weapon is not None:
            return self.actor.weapon(self.decl.weapon)
        melee = [w for w in self.actor.weapons if not w.missile]
        missile = [w for w in self.actor.weapons if w.missile]
        if self.role == "discharge":
            return None
        return (melee or missile or [None])[0]

    @property
    def missile(self) -> bool:
        weapon = self.weapon()
        return self.role == "discharge" and weapon is not None and weapon.missile

    @property
    def casting(self) -> bool:
        """A spell or device: what damage can interrupt and DI-9/10/12 move."""
        return self.role == "discharge" and (self.decl.spell is not None or self.is_device)

    @property
    def is_device(self) -> bool:
        return self.decl.device is not None or self.decl.usage_time is not None

    def cast_time(self) -> int:
        """Casting or usage time, plus any declaration delay (DI-16)."""
        if self.decl.spell is not None:
            spell = self.actor.spell(self.decl.spell)
            base = spell.casting_time if spell and spell.casting_time is not None else 1
        elif self.decl.usage_time is not None:
            base = self.decl.usage_time
        else:
            device = self.actor.device(self.decl.device or "")
            base = device.usage_time if device else 1
        return base + self.delay

    def to_action(self) -> PlannedAction:
        extra: list[tuple[str, Any]] = []
        if self.replaced:
            extra.append(("replaces", self.replaced))
        if self.decl.prepared:
            extra.append(("prepared", True))
        return PlannedAction(self.actor.id, self.letter, self.routine, None, self.index,
                             tuple(extra))


class DemonIdol(Ruleset):
    id = "demon-idol"

    def read(self, f: Fields) -> None:
        self.die = f.int("initiative_die", 6, minimum=2)
        self.death_at = f.int("death_at", -10)
        self.bleed = f.int("bleed", 1, minimum=0)
        self.letters = self._read_letters(f.list("letters", None))
        self.role_of = {key: role for key, _, role in self.letters}
        self.letter_of = {role: key for key, _, role in self.letters}
        self.order = [key for key, _, role in self.letters if role != "psionic"]

    @staticmethod
    def _read_letters(items: list[Any] | None) -> list[tuple[str, str, str]]:
        if items is None:
            return [(key, role, role) for key, role in zip("PABCDEFG", ROLES, strict=True)]
        letters = []
        for index, item in enumerate(items):
            f = Fields(item, ("letters", index))
            key, name = f.str("key"), f.str("name", "")
            role = f.str("role")
            if role not in ROLES:
                raise FormatError(f"unknown role {role!r} (roles: {', '.join(ROLES)})",
                                  f.sub("role"))
            f.done()
            letters.append((key, name or role, role))
        unique_keys([key for key, _, _ in letters], "letter", ("letters",))
        missing = [role for role in ROLES if role not in {r for _, _, r in letters}]
        if missing:
            raise FormatError(f"no letter for {', '.join(missing)}", ("letters",))
        return letters

    # -- catalogue -----------------------------------------------------------------

    def actions(self) -> list[ActionKind]:
        return [ActionKind(key, name, FIELDS[role], key.lower())
                for key, name, role in self.letters]

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        kind = event.TYPE
        if kind == "declare":
            super().check_event(fight, event)
            self._check_declare(fight, event)  # type: ignore[arg-type]
        elif kind == "initiative":
            self._check_initiative(fight, event)  # type: ignore[arg-type]

    def _check_declare(self, fight: Fight, d: ev.Declare) -> None:
        role = self.role_of[d.action]
        allowed = FIELDS[role] + ("prepared", "trigger", "delay", "segment", "note", "modifier")
        for name in ("weapon", "spell", "device", "usage_time", "closing"):
            if getattr(d, name) is not None and name not in allowed:
                raise IllegalDeclaration(f"{d.action} ({role}) takes no {name}", (name,))
        for name in ("turn", "charge"):
            if getattr(d, name) and name not in allowed:
                raise IllegalDeclaration(f"{d.action} ({role}) cannot {name}", (name,))
        chosen = [n for n in ("spell", "device", "turn") if getattr(d, n)]
        if role == "discharge" and len(chosen) + (d.weapon is not None) > 1:
            raise IllegalDeclaration("a D names one of weapon, spell, device or turn", (chosen[0],))
        if d.prepared and role == "discharge" and d.spell and d.segment:
            raise IllegalDeclaration("a spell's start can be prepared, not in surprise",
                                     ("prepared",))
        if d.segment is not None:
            self._check_surprise_declare(fight, d)

    def _check_surprise_declare(self, fight: Fight, d: ev.Declare) -> None:
        surprise = fight.surprise
        if surprise is None or surprise.segments == 0:
            raise IllegalDeclaration("no surprise segments in this fight (DI-17)", ("segment",))
        if d.segment is not None and d.segment > surprise.segments:
            raise IllegalDeclaration(
                f"segment {d.segment}: there are {surprise.segments} surprise segments (DI-17)",
                ("segment",),
            )
        if fight.is_member(d.actor, surprise.surprised):
            raise IllegalDeclaration(
                f"{d.actor} is surprised and cannot act in surprise segments (DI-17)", ("actor",)
            )
        for target in fight.members(d.target):
            reaction = fight.roster[target].reaction
            if d.segment is not None and reaction >= d.segment:
                raise IllegalDeclaration(
                    f"{target} cannot be targeted in surprise segment {d.segment}: "
                    f"reaction +{reaction} (DI-17)", ("target",))

    def _check_initiative(self, fight: Fight, e: ev.Initiative) -> None:
        if e.base:
            raise IllegalEvent("demon-idol rolls one die per side: use `rolls`", ("base",))
        sides = fight.side_ids()
        for side, value in e.rolls.items():
            if side not in sides:
                raise IllegalEvent(f"unknown side {side!r} (sides: {', '.join(sorted(sides))})",
                                   ("rolls", side))
            if not 1 <= value <= self.die:
                raise IllegalEvent(f"a d{self.die} shows 1 to {self.die}, found {value}",
                                   ("rolls", side))

    # -- initiative ----------------------------------------------------------------

    def roll_initiative(self, fight: Fight, rng: random.Random) -> ev.Initiative:
        rolls, dice = {}, {}
        for side in fight.encounter.sides:
            result = roll_dice(f"d{self.die}", rng)
            rolls[side.id] = result.total
            dice[side.id] = result.to_dict()
        return ev.Initiative(round=max(fight.round, 1), rolls=rolls, dice=dice)

    # -- ordering ------------------------------------------------------------------

    def plan(self, fight: Fight, round_: int) -> Plan:
        from .demon_idol_order import build_plan

        return build_plan(self, fight, round_)

    # -- consequences --------------------------------------------------------------

    def dying(self, status: Status) -> bool:
        return not status.dead and status.hp < 0

    def after_damage(self, fight: Fight, event: ev.Damage) -> list[ev.Event]:
        from .demon_idol_order import spell_lost_by

        out: list[ev.Event] = []
        lost = spell_lost_by(self, fight, event)
        if lost is not None:
            out.append(lost)
        status = fight.status[event.target]
        if not status.dead and status.hp <= self.death_at:
            out.append(ev.Death(round=event.round, target=event.target,
                                cause=f"{status.hp} hit points (DI-19)"))
        return out

    def end_of_round(self, fight: Fight) -> list[ev.Event]:
        from .demon_idol_order import lapsed_preparations

        out: list[ev.Event] = list(lapsed_preparations(fight))
        for cid, status in fight.status.items():
            if status.dead or status.hp_at_round_start >= 0:
                continue
            out.append(ev.Damage(round=fight.round, target=cid, amount=self.bleed,
                                 note="bleeding (DI-19)"))
            if status.hp - self.bleed <= self.death_at:
                out.append(ev.Death(round=fight.round, target=cid, cause="bled out (DI-19)"))
        return out


__all__ = ["DemonIdol", "Item"]
