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


def chronicle_lines(table: Any) -> list[Any]:
    """Every event of a table's session as a log line (the app's log pane)."""
    from .view import LogLine

    session = table.session
    save = Save(session.path, "", session.encounter, session.fight.ruleset, session.fight)
    return [LogLine(n, r, text) for n, r, text in chronicle(save).lines]


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
    """One line for `event`, read against the state just before it: the ruleset tells
    its own events (and may tell a core one its own way), the core the rest."""
    told = fight.ruleset.tell(fight, event)
    if told is not None:
        return told
    teller = TELLERS.get(event.TYPE)
    return teller(fight, event) if teller else generic(fight, event)


def generic(fight: Fight, event: ev.Event) -> str:
    fields = {k: v for k, v in event.to_dict().items() if k not in ("type", "round", "follows")}
    detail = ", ".join(f"{k} {v}" for k, v in fields.items())
    return f"{event.TYPE.replace('_', ' ')}: {detail}" if detail else event.TYPE


def tell_initiative(fight: Fight, e: ev.Initiative) -> str:
    """Whatever the ruleset rolled (a die per side, a base per combatant, tie rolls)."""
    tables = [(k, v) for k, v in e.to_dict().items()
              if isinstance(v, dict) and k != "dice"]
    parts = []
    for _, values in tables:
        for who, value in values.items():
            side = fight.encounter.side(who)
            label = side.name if side else name(fight, who)
            detail = e.dice.get(who)
            parts.append(f"{label} {value}"
                         + (f" (rolled {dice_text(detail)})" if detail else ""))
    return "initiative: " + ", ".join(parts)


def tell_declare(fight: Fight, e: ev.Declare) -> str:
    what = getattr(e, "weapon", None) or getattr(e, "spell", None) or ""
    verb = "declares again" if e.replaces else "declares"
    text = f"{name(fight, e.actor)} {verb} {e.action}" + (f" ({what})" if what else "")
    if e.target:
        text += f" at {names(fight, e.target)}"
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
    side = fight.encounter.side(e.combatant.side)
    return f"{e.combatant.name} joins the fight on {side.name if side else e.combatant.side}'s side"


def tell_resolve(fight: Fight, e: ev.Resolve) -> str:
    what = f"beat {e.beat} resolved" if e.beat is not None else "resolved"
    return f"{what}: {', '.join(e.actions)}" if e.actions else what


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
    "surprise": lambda f, e: f"surprise: {', '.join(e.surprised)} surprised",
    "death": lambda f, e: f"{name(f, e.target)} dies" + (f" ({e.cause})" if e.cause else ""),
    "round": lambda f, e: f"round {e.round} begins",
    "phase": lambda f, e: f"phase: {e.phase}" + (" (skipped)" if e.skipped else ""),
    "note": lambda f, e: f"note: {e.text}",
    "resolve": tell_resolve,
    "end": lambda f, e: "the fight is over" + (f": {e.note}" if e.note else ""),
}
