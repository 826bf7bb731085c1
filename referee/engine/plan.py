"""A round's order of resolution: beats of simultaneous actions, each with its rules and why.

A beat may carry extras a ruleset adds (a count, a segment, a phase, who holds what):
they go into `plan --json` as they are, and `tag` is how the beat is labelled on screen.
"""

from __future__ import annotations

from referee.hints import TYPE_CHECKING

from .record import field, record

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


@record(frozen=True)
class PlannedAction:
    actor: str
    action: str
    routine: int | None = None  # 1-based, when the declaration has several routines
    turn: int | None = None  # count-up latecomer's double turn (CU-5)
    declared: int = -1  # index of the declaration in the fight's log
    extra: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"actor": self.actor, "action": self.action}
        if self.routine is not None:
            out["routine"] = self.routine
        if self.turn is not None:
            out["turn"] = self.turn
        out.update(self.extra)
        return out

    def label(self) -> str:
        text = f"{self.actor}:{self.action}"
        return f"{text}#{self.routine}" if self.routine is not None else text

    def flag(self, name: str) -> Any:
        """The extra `name`'s value (the last given), or None; read without a dict: a
        big round's plan is asked thousands of times."""
        found = None
        for key, value in self.extra:
            if key == name:
                found = value
        return found

    def with_extra(self, **more: Any) -> PlannedAction:
        return PlannedAction(self.actor, self.action, self.routine, self.turn, self.declared,
                             self.extra + tuple(more.items()))


@record(eq=False)
class Beat:
    actions: list[PlannedAction]
    rules: list[str] = field(default_factory=list)
    why: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # into the JSON as it is
    tag: str = ""  # a short label beside the beat's number ("@13", "s2", "phase 3")
    note: str = ""  # a few words after the actions ("ready", "every segment")

    def action_keys(self) -> tuple[str, ...]:
        """Its actions' keys (see `action_key`), worked out once: a big battle's plan is
        asked where it stands many times a key press. Marking an action skipped keeps
        its key; a beat that gains an action works them out again."""
        actions = self.actions
        kept: tuple[list[PlannedAction], int, tuple[str, ...]] | None = \
            self.__dict__.get("_keys")
        if kept is None or kept[0] is not actions or kept[1] != len(actions):
            kept = (actions, len(actions), tuple(action_key(self, a) for a in actions))
            self.__dict__["_keys"] = kept
        return kept[2]

    def cite(self, rule: str, why: str = "") -> None:
        if rule not in self.rules:
            self.rules.append(rule)
        if why and why not in self.why:
            self.why.append(why)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "actions": [a.to_json() for a in self.actions],
            "rules": list(self.rules),
            "why": "; ".join(self.why),
        }
        out.update(self.extra)
        return out


def action_key(beat: Beat, action: PlannedAction) -> str:
    """What a `resolve` event records of an action: who, what, which routine or turn,
    and the surprise segment, so a plan that changes keeps what was done."""
    key = action.label()
    if action.turn is not None:
        key += f"~{action.turn}"
    if beat.extra.get("ready"):  # only made ready here: done when it fires, later
        key += "@ready"
    segment = beat.extra.get("segment")
    return f"s{segment}:{key}" if segment is not None else key


@record
class Plan:
    ruleset: str
    round: int
    beats: list[Beat]
    notes: list[str] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    # moments between beats that resolve nothing but matter to what does (a spell's
    # start): each {"before": beat number, "actor", "action", "point", "rules", "why"}
    points: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False  # the fight ended in this round: no beat is still to come

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "round": self.round,
            "beats": [b.to_json() for b in self.beats],
        }
        if self.points:
            out["points"] = self.points
        if self.skipped:
            out["skipped"] = self.skipped
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def labels(self) -> list[list[str]]:
        return [[a.label() for a in b.actions] for b in self.beats]

    def keys(self, number: int) -> list[str]:
        """The action keys of beat `number` (1-based)."""
        return list(self.beats[number - 1].action_keys())

    def current(self, resolved: set[str]) -> int | None:
        """The first beat (1-based) with an action still to resolve, or None (the round
        is done, or the fight is over): an action marked skipped (its actor can no longer
        act) is not waited for."""
        if self.over:
            return None
        for number, beat in enumerate(self.beats, start=1):
            keys = beat.action_keys()
            if resolved.issuperset(keys):
                continue
            if any(key not in resolved and not action.flag("skipped")
                   for key, action in zip(keys, beat.actions, strict=True)):
                return number
        return None

