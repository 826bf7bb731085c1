"""Replay and export: the log told as a person reads it. Dice come from the log, so a
replay never re-rolls, and the same save always gives the same bytes."""

from __future__ import annotations

from typing import Any

from referee.engine import Fight
from referee.engine import events as ev
from referee.engine.plan import Plan
from referee.engine.record import field, record

from .files import Save, paused_gc


@record
class Round:
    number: int
    entries: list[tuple[int, str, str]] = field(default_factory=list)  # (n, type, text)
    plan: Plan | None = None
    plan_at: int = 0  # the event after which the order was known
    kept: set[int] = field(default_factory=set)  # event numbers still in effect at the end

    def texts(self, *types: str) -> list[str]:
        return [text for n, kind, text in self.entries if kind in types and n in self.kept]

    @property
    def initiative(self) -> str:
        found = self.texts("initiative")
        return found[-1] if found else ""

    @property
    def declarations(self) -> list[str]:
        return self.texts("declare")

    @property
    def happened(self) -> list[str]:
        quiet = {"initiative", "declare", "round", "phase", "resolve", "undo", "redo"}
        return [text for n, kind, text in self.entries if kind not in quiet and n in self.kept]

    @property
    def fell(self) -> list[str]:
        return [text.split(" dies")[0] for text in self.texts("death")]


@record
class Chronicle:
    """Every event as a line, and each round summarised with its final plan."""

    title: str
    ruleset: str
    lines: list[tuple[int, int, str]] = field(default_factory=list)  # (n, round, text)
    rounds: list[Round] = field(default_factory=list)
    fight: Fight | None = None


def chronicle(save: Save, upto: int | None = None) -> Chronicle:
    with paused_gc():
        return _chronicle(save, upto)


def _chronicle(save: Save, upto: int | None) -> Chronicle:
    fight = Fight(save.encounter, save.fight.ruleset)
    fight.later = set(save.fight.later)
    story = Chronicle(save.encounter.title, save.fight.ruleset.name)
    log = save.fight.log if upto is None else save.fight.log[:upto]
    for number, event in enumerate(log, start=1):
        text = describe(fight, event)
        if isinstance(event, (ev.NewRound, ev.End)):
            close_round(story, fight)
        fight.push(event)
        story.lines.append((number, event.round, text))
        note_round(story, fight, event, text)
    close_round(story, fight)
    kept = {position + 1 for position in fight.positions}
    for r in story.rounds:
        r.kept = kept
    story.fight = fight
    return story


def round_of(story: Chronicle, number: int) -> Round:
    if not story.rounds or story.rounds[-1].number != number:
        story.rounds.append(Round(number))
    return story.rounds[-1]


def close_round(story: Chronicle, fight: Fight) -> None:
    last = story.rounds[-1] if story.rounds else None
    if last is not None and last.plan is None and fight.declared(last.number):
        plan = fight.plan(last.number)
        if plan.beats:
            last.plan, last.plan_at = plan, last.entries[-1][0] if last.entries else 0


def note_round(story: Chronicle, fight: Fight, event: ev.Event, text: str) -> None:
    if event.round == 0 and not story.rounds:
        return
    current = round_of(story, max(event.round, 1))
    number = len(fight.log)
    current.entries.append((number, event.TYPE, text))
    if isinstance(event, ev.Resolve) and current.plan is None:
        current.plan, current.plan_at = fight.plan(current.number), number - 1


# -- one line per event -------------------------------------------------------------


def name(fight: Fight, cid: str) -> str:
    combatant = fight.roster.get(cid)
    return combatant.name if combatant else cid


def names(fight: Fight, ids: tuple[str, ...]) -> str:
    return ", ".join(name(fight, i) for i in ids)


def dice_text(detail: dict[str, Any]) -> str:
    rolls = [r for term in detail.get("terms", []) for r in term.get("rolls", [])]
    return f"{detail.get('expression', '')} {rolls} = {detail.get('total')}"


def describe(fight: Fight, event: ev.Event) -> str:
    """One line for `event`, read against the state just before it."""
    teller = TELLERS.get(event.TYPE)
    return teller(fight, event) if teller else event.TYPE


def tell_initiative(fight: Fight, e: ev.Initiative) -> str:
    values = {**e.rolls, **e.base}
    parts = []
    for who, value in values.items():
        label = fight.encounter.side(who).name if fight.encounter.side(who) else name(fight, who)
        detail = e.dice.get(who)
        parts.append(f"{label} {value}" + (f" (rolled {dice_text(detail)})" if detail else ""))
    kind = "initiative" if e.rolls else "base initiative"
    return f"{kind}: " + ", ".join(parts)


def tell_declare(fight: Fight, e: ev.Declare) -> str:
    what = e.weapon or e.spell or e.device or ("turn undead" if e.turn else "")
    text = f"{name(fight, e.actor)} declares {e.action}" + (f" ({what})" if what else "")
    if e.target:
        text += f" at {names(fight, e.target)}"
    if e.charge:
        text += f", charging ({e.closing if e.closing is not None else '?'} segments to close)"
    if e.prepared:
        text += f", prepared: {e.trigger or 'on a trigger'}"
    if e.delay:
        text += f", {e.delay} segment(s) of declaration delay"
    if e.segment:
        text += f", in surprise segment {e.segment}"
    return text


def tell_damage(fight: Fight, e: ev.Damage) -> str:
    status = fight.status.get(e.target)
    after = f" (hp {status.hp - e.amount}/{status.max_hp})" if status else ""
    source = f" from {name(fight, e.source)}" if e.source else ""
    critical = " critical" if e.critical else ""
    note = f" — {e.note}" if e.note else ""
    return f"{name(fight, e.target)} takes {e.amount}{critical} damage{source}{after}{note}"


def tell_roll(fight: Fight, e: ev.Roll) -> str:
    who = f"{name(fight, e.actor)} " if e.actor else ""
    real = " (real dice)" if e.real else ""
    purpose = f" for {e.purpose}" if e.purpose else ""
    return f"{who}rolls {e.expr}{purpose}: {list(e.dice)} = {e.total}{real}"


def tell_undo(fight: Fight, e: ev.Event) -> str:
    if not fight.batches:
        return "undo"
    start = fight.batches[-1]
    taken = [fight.positions[i] + 1 for i in range(start, len(fight.events))]
    span = f"event {taken[0]}" if len(taken) == 1 else f"events {taken[0]}-{taken[-1]}"
    return f"undo: takes back {span}"


def tell_redo(fight: Fight, e: ev.Event) -> str:
    if not fight.undone:
        return "redo"
    back = [position + 1 for position, _ in fight.undone[-1]]
    span = f"event {back[0]}" if len(back) == 1 else f"events {back[0]}-{back[-1]}"
    return f"redo: brings back {span}"


def tell_condition(fight: Fight, e: ev.Condition) -> str:
    if not e.on:
        return f"{name(fight, e.target)} is no longer {e.name}"
    time_left = f" for {e.duration} round(s)" if e.duration else ""
    return f"{name(fight, e.target)} is {e.name}{time_left}"


def tell_morale(fight: Fight, e: ev.Morale) -> str:
    who = names(fight, e.group) if all(g in fight.roster for g in e.group) else ", ".join(e.group)
    if e.passed is None:
        return f"morale check due for {who} (DI-18)"
    roll = f": {e.roll} vs {e.target}" if e.roll is not None else ""
    verdict = "holds" if e.passed else f"breaks and will {e.avoid or 'flee'}"
    return f"morale for {who}{roll}: {verdict}"


def tell_join(fight: Fight, e: ev.Join) -> str:
    assert e.combatant is not None
    at = f" at count {e.at_count}" if e.at_count is not None else ""
    base = f", base initiative {e.base}" if e.base is not None else ""
    return f"{e.combatant.name} joins the fight on {e.combatant.side}'s side{at}{base}"


TELLERS: dict[str, Any] = {
    "initiative": tell_initiative,
    "declare": tell_declare,
    "damage": tell_damage,
    "roll": tell_roll,
    "undo": tell_undo,
    "redo": tell_redo,
    "condition": tell_condition,
    "morale": tell_morale,
    "join": tell_join,
    "heal": lambda f, e: f"{name(f, e.target)} heals {e.amount}"
                         + (", stabilised" if e.stabilize else ""),
    "surprise": lambda f, e: f"surprise: {', '.join(e.surprised)} surprised"
                             + (f", {e.segments} surprise segment(s)" if e.segments else ""),
    "spell_lost": lambda f, e: f"{name(f, e.actor)} loses the spell {e.spell or ''}".rstrip()
                               + (f" — {e.reason}" if e.reason else ""),
    "death": lambda f, e: f"{name(f, e.target)} dies" + (f" ({e.cause})" if e.cause else ""),
    "round": lambda f, e: f"round {e.round} begins",
    "phase": lambda f, e: f"phase: {e.phase}" + (" (skipped)" if e.skipped else ""),
    "note": lambda f, e: f"note: {e.text}",
    "resolve": lambda f, e: f"beat {e.beat} resolved"
                            + (f" (surprise segment {e.segment})" if e.segment else ""),
    "fire": lambda f, e: f"{name(f, e.actor)}'s prepared action fires"
                         + (f", before {name(f, e.before)}" if e.before else ""),
    "injury": lambda f, e: f"{name(f, e.target)} suffers a combat injury: {e.injury}",
    "end": lambda f, e: "the fight is over" + (f": {e.note}" if e.note else "")
                        + "; a recovery turn passes",
}
