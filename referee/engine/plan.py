"""A round's order of resolution: beats of simultaneous actions, each with its rules and why."""

from __future__ import annotations

from typing import Any

from .record import field, record


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


@record(eq=False)
class Beat:
    actions: list[PlannedAction]
    rules: list[str] = field(default_factory=list)
    why: list[str] = field(default_factory=list)
    count: int | None = None  # count-up
    segment: int | None = None  # demon-idol surprise segment (DI-17)
    repeats: bool = False  # psionics: at the top of every segment (DI-5)
    ready: bool = False  # prepared actions becoming ready (DI-14)

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
        if self.count is not None:
            out["count"] = self.count
        if self.segment is not None:
            out["segment"] = self.segment
        if self.repeats:
            out["repeats"] = "every segment"
        if self.ready:
            out["ready"] = True
        return out


@record
class Plan:
    ruleset: str
    round: int
    beats: list[Beat]
    notes: list[str] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "round": self.round,
            "beats": [b.to_json() for b in self.beats],
        }
        if self.skipped:
            out["skipped"] = self.skipped
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def labels(self) -> list[list[str]]:
        return [[a.label() for a in b.actions] for b in self.beats]
