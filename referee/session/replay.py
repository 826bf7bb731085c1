"""Replay and export: the log told as a person reads it. Dice come from the log, so a
replay never re-rolls, and the same save always gives the same bytes.

Two views of one log, which undo and redo make differ:

- `Chronicle.lines` is every event of the log as written, undo and redo and what they
  took back included, each with the round the fight was in when it was entered. The
  full replay (`render.replay_text`) puts them under round headings in log order: a
  round's first heading is `== Round N ==`; when an undo takes the fight back into an
  earlier round the heading says `== Back to round N ==`, and a round begun again after
  that is `== Round N again ==`. Each round's order is shown once, where the order
  still in effect became known.
- `Chronicle.rounds` is the recap (`render.markdown`, the JSON's rounds): each round
  that still has events in effect, once and in order, told from those events only;
  what was undone is left out, and so is a round undone whole. Its plan is the one
  still in effect (taken at its first resolved beat still in effect, else at the
  round's end), and `fell` names who went down, dying or dead in it.

The fold runs once: whether an event is still in effect is known only at the end of
the log (`Round.kept`), so a round keeps each candidate plan and fall with the event it
hangs on, and the end picks those whose event was kept.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Container
from pathlib import Path
from typing import Any

from referee.engine import Fight
from referee.engine import events as ev
from referee.engine.plan import Plan
from referee.engine.record import field, record
from referee.engine.words import counted

from .files import Save, load_save, paused_gc, watched

# How far down a ruleset's state words are (`Ruleset.state_word`): a rise is a fall in
# the recap. Other words (a lost spell) are not a fall.
SEVERITY = {"down": 1, "incapacitated": 1, "unconscious": 1, "dying": 2, "dead": 3}
# Events that change no one's state: no need to ask the ruleset after them.
STILL = frozenset({"declare", "initiative", "resolve", "roll", "note", "phase"})
TARGETED = (ev.Damage, ev.Heal, ev.Death, ev.Condition)  # they change their target only
# Events the recap's "what happened" leaves out (told elsewhere in it, or not at all)
QUIET = frozenset({"initiative", "declare", "round", "phase", "resolve", "undo", "redo"})


@record
class Round:
    number: int
    # its events' lines, the chronicle's own (n, round, text) tuples, and each one's type
    told: list[tuple[int, int, str]] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    plan: Plan | None = None  # the plan still in effect (set at the end of the chronicle)
    plan_at: int = 0  # the event after which the order was known
    # event numbers still in effect at the end (a range when all are)
    kept: Container[int] = field(default_factory=set)
    # (n, plan, plan_at): plans taken as the log went, each hanging on event n (None: the
    # log's end); the first whose event is kept is the plan
    candidates: list[tuple[int | None, Plan, int]] = field(default_factory=list)
    falls: list[tuple[int, str, str, str]] = field(default_factory=list)  # (n, id, name, word)

    @property
    def entries(self) -> list[tuple[int, str, str]]:
        """(n, type, text) of each event told in the round."""
        return [(n, kind, text) for (n, _, text), kind in zip(self.told, self.kinds,
                                                               strict=True)]

    def texts(self, *types: str) -> list[str]:
        kept = self.kept
        return [text for (n, _, text), kind in zip(self.told, self.kinds, strict=True)
                if kind in types and n in kept]

    @property
    def initiative(self) -> str:
        found = self.texts("initiative")
        return found[-1] if found else ""

    @property
    def declarations(self) -> list[str]:
        return self.texts("declare")

    @property
    def happened(self) -> list[str]:
        kept = self.kept
        return [text for (n, _, text), kind in zip(self.told, self.kinds, strict=True)
                if kind not in QUIET and n in kept]

    @property
    def in_effect(self) -> bool:
        return any(n in self.kept for n, _, _ in self.told)

    @property
    def fell(self) -> list[str]:
        """Who went down, dying or dead this round, by name, each once with the state
        their last fall left them in: `Goblin 1 (dead)`."""
        last: dict[str, tuple[str, str]] = {}
        for n, cid, who, word in self.falls:
            if n in self.kept:
                last[cid] = (who, word)
        return [f"{who} ({word})" for who, word in last.values()]


@record
class Chronicle:
    """Every event as a line, and each round in effect summarised with its final plan."""

    title: str
    ruleset: str
    lines: list[tuple[int, int, str]] = field(default_factory=list)  # (n, round, text)
    rounds: list[Round] = field(default_factory=list)
    fight: Fight | None = None
    by_number: dict[int, Round] = field(default_factory=dict)  # every round met, undone too


def chronicle(save: Save, upto: int | None = None) -> Chronicle:
    with paused_gc():
        return _chronicle(save, upto)


def told(path: Path, recover: bool = True, falls: bool = True) -> tuple[Save, Chronicle]:
    """The save at `path` and its whole chronicle, told as the load folds the log: one
    fold, where `chronicle` of a loaded save is a second. Without `falls`, who fell in
    each round is left out (`Round.fell`: the recap's alone, not the replay's text)."""
    tellers: list[Chronicler] = []

    def watch(fight: Fight) -> Chronicler:
        tellers.append(Chronicler(fight, Chronicle(fight.encounter.title, fight.ruleset.name),
                                  falls))
        return tellers[-1]

    save = load_save(path, recover, watch=watch)
    return save, tellers[-1].story  # (a torn last event: the fold of what was kept)


def _chronicle(save: Save, upto: int | None) -> Chronicle:
    fight = Fight(save.encounter, save.fight.ruleset)
    fight.later = set(save.fight.later)
    teller = Chronicler(fight, Chronicle(save.encounter.title, save.fight.ruleset.name))
    fight.extend(watched(fight, save.fight.log if upto is None else save.fight.log[:upto],
                         teller))
    teller.done(fight)
    return teller.story


class Teller:
    """Tells each event of a fold as it goes (`files.Watcher`): its line, read against
    the state just before it (`text`; the app's log pane keeps these alone)."""

    def __init__(self, fight: Fight, story: Chronicle) -> None:
        self.story = story
        self.text = ""
        tracker = fight.ruleset.tracker  # looked up once: a long log tells each event
        self.tell, self.word = tracker.tell, tracker.state_word
        self.kinds: dict[type[ev.Event], Kind] = {}  # by event class: what is constant

    def kind(self, cls: type[ev.Event]) -> Kind:
        found = self.kinds[cls] = Kind(cls)
        return found

    def before(self, fight: Fight, event: ev.Event) -> None:
        self.text = self.line_of(fight, event, self.kinds.get(type(event))
                                 or self.kind(type(event)))

    def line_of(self, fight: Fight, event: ev.Event, kind: Kind) -> str:
        """`describe`, written out."""
        told = self.tell(fight, event)
        if told is None:
            told = kind.teller(fight, event)
        return told if event.from_device is None else sent_from(fight, event, told)

    def after(self, fight: Fight, event: ev.Event) -> None:
        """(What is told once the event is applied: see `Chronicler`.)"""

    def done(self, fight: Fight) -> None:
        self.story.fight = fight


class Chronicler(Teller):
    """The chronicle's teller: each event's line, what it did to its round (the plan the
    round had, who fell in it), as the fold goes. An event's line is kept as it is told,
    before the event is applied; only a resolve (its line may be the one the fight kept,
    and its round's plan is taken once it is applied), an undo or a redo (the state
    jumps) and an event that may change someone's state word (who fell) are looked at
    again once applied: most of a long log's events are told once, not twice."""

    def __init__(self, fight: Fight, story: Chronicle, falls: bool = True) -> None:
        super().__init__(fight, story)
        self.words = state_words(fight) if falls else {}
        self.watching = falls  # who fell (`falls`), asked of the ruleset after each event
        self.current: Round | None = None  # the round the last event was told in
        # rounds known to have a plan still in effect (has_plan): an event appended keeps
        # every one in effect; an undo or a redo forgets them
        self.planned: set[int] = set()
        self.pending: Kind | None = None  # the event told last, if `after` has more to do
        self.number = 0  # its number in the log

    def before(self, fight: Fight, event: ev.Event) -> None:
        kind = self.kinds.get(type(event)) or self.kind(type(event))
        told = self.tell(fight, event)  # `describe`, written out
        if told is None:
            told = kind.teller(fight, event)
        if event.from_device is not None:
            told = sent_from(fight, event, told)
        number = len(fight.log) + 1  # its number once pushed (an undo's and redo's too)
        if kind.ends_round:
            close_round(self.story, fight, number)
        if kind.resolve:  # told once applied (`resolved`)
            self.text, self.pending = told, kind
            return
        round_ = event.round
        line = (number, round_, told)
        story = self.story
        story.lines.append(line)
        current = self.current  # `round_told`, written out: a long log tells each event
        if round_ == 0 and not story.rounds:
            current = None
        elif current is None or current.number != (round_ if round_ > 1 else 1):
            current = self.round_told(round_)
        if current is not None:
            current.told.append(line)
            current.kinds.append(kind.type)
        self.pending = None if kind.still or not (self.watching or kind.jumps) else kind
        self.number = number

    def round_told(self, round_: int) -> Round | None:
        """The round an event of `round_` is told in (the round met last kept at hand)."""
        current = self.current
        if round_ == 0 and not self.story.rounds:
            return None
        if current is None or current.number != (round_ if round_ > 1 else 1):
            current = self.current = round_of(self.story, round_ if round_ > 1 else 1)
        return current

    def after(self, fight: Fight, event: ev.Event) -> None:
        kind = self.pending
        if kind is None:  # (most events: all was told before)
            return
        self.pending = None
        if kind.resolve:
            self.resolved(fight, event, kind)
            return
        if kind.jumps:
            self.planned.clear()
        if self.watching:
            self.falls(self.current, fight, event, kind, self.number)

    def resolved(self, fight: Fight, event: ev.Event, kind: Kind) -> None:
        """A resolve, applied: its line (as the fight kept it), and its round's plan if
        none it took is still in effect."""
        log, story = fight.log, self.story
        number, text = len(log), self.text
        if log[-1] is not event:  # a resolve by number, kept by its actions: told
            text = describe(fight, log[-1])  # as kept (it changes no one's name)
        line = (number, event.round, text)
        story.lines.append(line)
        current = self.round_told(event.round)
        if current is not None:
            current.told.append(line)
            current.kinds.append(kind.type)
            if current.number not in self.planned:
                if has_plan(fight, current):
                    self.planned.add(current.number)
                else:
                    current.candidates.append((number, fight.plan(current.number),
                                               number - 1))

    def falls(self, current: Round | None, fight: Fight, event: ev.Event, kind: Kind,
              number: int) -> None:
        """After event `number` (not a STILL one): whoever it left worse off (down, dying,
        dead) fell in `current`. `self.words` holds each combatant's state word as of the
        event before."""
        words = self.words
        if kind.jumps:  # the state jumps; undo and redo never count
            words.update(state_words(fight))
            return
        roster = fight.roster
        target = getattr(event, "target", None) if kind.targeted else None
        # a new round, a join, a ruleset's own event: anyone may have changed
        ids = (target,) if target is not None and target in roster else list(roster)
        word_of, get = self.word, SEVERITY.get
        for cid in ids:
            word = word_of(fight, cid)
            if kind.death and cid == target and get(word, 0) < SEVERITY["dead"]:
                word = "dead"
            before = words.get(cid, "")
            if word == before:  # (most often: the same word, no fall)
                continue
            words[cid] = word
            if current is not None and get(word, 0) > get(before, 0):
                current.falls.append((number, cid, name(fight, cid), word))

    def done(self, fight: Fight) -> None:
        close_round(self.story, fight, None)
        settle(self.story, kept_numbers(fight))
        self.story.fight = fight


class Kind:
    """What the chronicle needs of an event's class, worked out once a class: its core
    teller, its type, and which of the chronicle's cases it is."""

    __slots__ = ("death", "ends_round", "jumps", "resolve", "still", "targeted", "teller",
                 "type")

    def __init__(self, cls: type[ev.Event]) -> None:
        self.type = cls.TYPE
        self.teller: Any = TELLERS.get(cls.TYPE) or generic
        self.ends_round = issubclass(cls, (ev.NewRound, ev.End))
        self.jumps = issubclass(cls, (ev.Undo, ev.Redo))
        self.resolve = issubclass(cls, ev.Resolve)
        self.still = cls.TYPE in STILL
        self.targeted = issubclass(cls, TARGETED)
        self.death = issubclass(cls, ev.Death)


def kept_numbers(fight: Fight) -> Container[int]:
    """The numbers (1-based) of the log's events in effect: all of them, as a range, when
    nothing was ever undone (a long log's set would weigh megabytes)."""
    positions = fight.positions
    if len(positions) == len(fight.log):  # in effect are as many as logged: every one
        return range(1, len(positions) + 1)
    return {position + 1 for position in positions}


def settle(story: Chronicle, kept: Container[int]) -> None:
    """The recap: the rounds with events still in effect, in order, each with the first
    of its plans whose event was kept."""
    story.rounds = []
    for number in sorted(story.by_number):
        r = story.by_number[number]
        r.kept = kept
        if not r.in_effect:
            continue
        r.plan, r.plan_at = None, 0
        for anchor, plan, at in r.candidates:
            if anchor is None or anchor in kept:
                r.plan, r.plan_at = plan, at
                break
        story.rounds.append(r)


def chronicle_lines(table: Any) -> list[Any]:
    """Every event of a table's session as a log line (the app's log pane)."""
    from .view import LogLine

    session = table.session
    save = Save(session.path, "", session.encounter, session.fight.ruleset, session.fight)
    return [LogLine(n, r, text) for n, r, text in chronicle(save).lines]


def round_of(story: Chronicle, number: int) -> Round:
    """Round `number`'s one summary, however often the log comes back to it."""
    found = story.by_number.get(number)
    if found is None:
        found = story.by_number[number] = Round(number)
        story.rounds.append(found)
    return found


def now_in_effect(fight: Fight, number: int) -> bool:
    """Whether event `number` (1-based) of the log is in effect now."""
    positions = fight.positions  # ascending: what is in effect is a prefix, redone in order
    at = bisect_left(positions, number - 1)
    return at < len(positions) and positions[at] == number - 1


def has_plan(fight: Fight, r: Round) -> bool:
    """Whether a plan `r` took is still in effect now. An undo takes back the latest
    events first, so a plan taken later for the same round can only be needed once the
    earlier ones' events are no longer in effect."""
    return any(anchor is not None and now_in_effect(fight, anchor)
               for anchor, _, _ in r.candidates)


def close_round(story: Chronicle, fight: Fight, anchor: int | None) -> None:
    """The round ending (before event `anchor`, a new round or the end; None: the log's
    end) takes its plan then, if no resolved beat gave it one still in effect."""
    r = story.by_number.get(max(fight.round, 1))
    if r is None or has_plan(fight, r) or not fight.declared(r.number):
        return
    plan = fight.plan(r.number)
    if plan.beats:
        r.candidates.append((anchor, plan, len(fight.log)))


# -- who fell -------------------------------------------------------------------------


def state_words(fight: Fight) -> dict[str, str]:
    word = fight.ruleset.tracker.state_word
    return {cid: word(fight, cid) for cid in fight.roster}


# -- one line per event -------------------------------------------------------------


def name(fight: Fight, cid: str) -> str:
    combatant = fight.roster.get(cid)
    return combatant.name if combatant else cid


def names(fight: Fight, ids: tuple[str, ...]) -> str:
    return ", ".join(name(fight, i) for i in ids)


def label(fight: Fight, ident: str) -> str:
    """A combatant's name, or a side's; a group has no name but its id."""
    if ident in fight.roster:
        return name(fight, ident)
    side = fight.encounter.side(ident)
    return side.name if side else ident


def labels(fight: Fight, ids: tuple[str, ...]) -> str:
    return ", ".join(label(fight, i) for i in ids)


def dice_text(detail: dict[str, Any]) -> str:
    rolls = [r for term in detail.get("terms", []) for r in term.get("rolls", [])]
    return f"{detail.get('expression', '')} {rolls} = {detail.get('total')}"


def describe(fight: Fight, event: ev.Event) -> str:
    """One line for `event`, read against the state just before it: the ruleset tells
    its own events (and may tell a core one its own way), the core the rest."""
    told = fight.ruleset.tracker.tell(fight, event)
    if told is None:
        teller = TELLERS.get(event.TYPE)
        told = teller(fight, event) if teller else generic(fight, event)
    return told if event.from_device is None else sent_from(fight, event, told)


def sent_from(fight: Fight, event: ev.Event, told: str) -> str:
    """An event's line, saying it came from a player's own page."""
    return f"{told} (from {name(fight, str(event.from_device))}'s page)"


def generic(fight: Fight, event: ev.Event) -> str:
    fields = {k: v for k, v in event.to_dict().items()
              if k not in ("type", "round", "follows", "from_device")}
    detail = ", ".join(f"{k} {v}" for k, v in fields.items())
    return f"{event.TYPE.replace('_', ' ')}: {detail}" if detail else event.TYPE


def tell_initiative(fight: Fight, e: ev.Initiative) -> str:
    """Whatever the ruleset rolled (a die per side, a base per combatant, tie rolls)."""
    tables = [(k, v) for k, v in e.to_dict().items()
              if isinstance(v, dict) and k != "dice"]
    parts = []
    for _, values in tables:
        for who, value in values.items():
            detail = e.dice.get(who)
            parts.append(f"{label(fight, who)} {value}"
                         + (f" (rolled {dice_text(detail)})" if detail else ""))
    return "initiative: " + ", ".join(parts)


def tell_declare(fight: Fight, e: ev.Declare) -> str:
    what = getattr(e, "weapon", None) or getattr(e, "spell", None) or ""
    text = f"{name(fight, e.actor)} {e.verb} {e.action}" + (f" ({what})" if what else "")
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
    who = f"{name(fight, e.actor)} " if e.actor else "the referee "
    real = " (real dice)" if e.real else ""
    purpose = f" for {e.purpose}" if e.purpose else ""
    if not e.dice:  # a total alone, typed from the table
        return f"{who}rolls {e.total}{purpose}{real}"
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
    time_left = f" for {counted(e.duration, 'round')}" if e.duration else ""
    return f"{name(fight, e.target)} is {e.name}{time_left}"


def tell_morale(fight: Fight, e: ev.Morale) -> str:
    who = labels(fight, e.group)
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
    "surprise": lambda f, e: f"surprise: {labels(f, e.surprised)} surprised",
    "death": lambda f, e: f"{name(f, e.target)} dies" + (f" ({e.cause})" if e.cause else ""),
    "round": lambda f, e: f"round {e.round} begins",
    "phase": lambda f, e: f"phase: {e.phase}" + (" (skipped)" if e.skipped else ""),
    "note": lambda f, e: f"note: {e.text}" + (" (kept from the players)" if e.hidden else ""),
    "resolve": tell_resolve,
    "end": lambda f, e: "the fight is over" + (f": {e.note}" if e.note else ""),
}
