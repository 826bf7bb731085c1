"""Following a save as the referee's app appends to it, and what the players may see.

`Follower` keeps the fight a save holds up to date by reading only what was appended:
it keeps the byte offset it has read to and, when the file grew, parses just the new
`[[events]]` blocks (through the same TOML reading as a load) and pushes them with the
ruleset's event reader. Anything else — the file replaced (save as, compaction, repair:
a new inode), shorter than before, or rewritten in place — reloads it whole. A save that
is gone or cannot be read leaves the last fight in place with a notice, and is picked up
again when it comes back. The follower only ever reads.

`players_view` is the players' part of the one view model (`view.py`): nothing in it
gives an enemy's exact hit points or a declaration before initiative is in.

What the players' log shows (one safe, generic rule, the same for every ruleset):

- only events of the public core types (`PUBLIC_TYPES`: a new round, initiative, a beat
  resolved, a phase, a death, a condition, a note, a join, surprise, undo and redo, the
  end) and the ruleset's own event types — never a declaration, a roll, damage,
  healing or morale, whose lines tell what was declared, exact hit points or damage;
- a ruleset's own event is shown only once the declarations of its round are public
  (initiative is in, or the ruleset has no declarations), since it may tell them;
- every line shown has any hit-point figure (`hp 7`, `hp 3/8`) taken out.
"""

from __future__ import annotations

import os
import re
from collections import deque
from pathlib import Path
from typing import Any

from referee.engine import Fight, RefereeError
from referee.engine import events as ev
from referee.engine.options import Declaring, Rolling
from referee.engine.plan import Plan
from referee.engine.record import field, record

from .files import MAX_BYTES, LoadError, load_save, parse_toml
from .view import (
    action_words,
    actions_text,
    beat_label,
    conditions_text,
    declarations,
    declared_text,
    key_words,
    order,
)

PUBLIC_TYPES = frozenset({"round", "initiative", "resolve", "phase", "death", "condition",
                          "note", "join", "surprise", "undo", "redo", "end"})
CORE_TYPES = frozenset(ev.event_types())
LOG_LINES = 12  # the players' log keeps the last this many lines
_HP = re.compile(r"\bhp\s*:?\s*-?\d+(?:\s*/\s*-?\d+)?"
                 r"|-?\d+(?:\s*/\s*-?\d+)?\s*(?:hit points?|hp)\b", re.IGNORECASE)
_EMPTY = re.compile(r"\s*\(\s*[,;]?\s*\)|\(\s*[,;]\s*|,\s*(?=\))")


def hide_hit_points(text: str) -> str:
    """`text` without any hit-point figure (hp 7, hp 3/8, -20 hit points)."""
    if not _HP.search(text):
        return text
    return _EMPTY.sub("", _HP.sub("", text)).strip()


def declarations_secret(fight: Fight) -> bool:
    """Declarations are secret until initiative is in (for a ruleset that has them)."""
    rolling = fight.ruleset.role(Rolling)
    return fight.ruleset.role(Declaring) is not None and rolling is not None and \
        rolling.initiative_due(fight)


@record(frozen=True)
class Told:
    round: int
    type: str
    text: str


HIDDEN = "hidden note"  # a note the referee kept from the players
UNSEEN = "unseen"  # an undo or redo of nothing the players were shown


def is_public(fight: Fight, told: Told) -> bool:
    if told.type in (HIDDEN, UNSEEN):
        return False
    if told.type in PUBLIC_TYPES:
        return True
    if told.type in CORE_TYPES:
        return False
    # a ruleset's own event: public once its round's declarations are
    return told.round < max(fight.round, 1) or not declarations_secret(fight)


class Follower:
    """One save, followed: `poll()` reads what changed and says whether anything did."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.fight: Fight | None = None
        self.title = ""
        self.notice = ""  # what is wrong with the save right now ("" when all is well)
        self.told: deque[Told] = deque(maxlen=200)
        self._said: list[Told] = []  # what each event of the log was told as, by position
        self._offset = -1  # bytes read; -1: reload whole at the next change
        self._key: tuple[int, int, int, int] | None = None  # dev, inode, size, mtime_ns

    # -- reading -----------------------------------------------------------------------

    def poll(self) -> bool:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return self._fail(f"{self.path}: the save is gone; waiting for it to come back")
        except OSError as error:
            return self._fail(f"{self.path}: cannot be read ({error.strerror or error})")
        key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        if key == self._key and not self.notice:
            return False
        old = self._key
        same_file = old is not None and old[:2] == key[:2]
        if self.fight is None or self._offset < 0 or not same_file or st.st_size < self._offset \
                or (st.st_size == self._offset and key != old):
            return self._reload()
        return self._append(key)

    def _fail(self, notice: str) -> bool:
        changed = notice != self.notice
        self.notice, self._key, self._offset = notice, None, -1
        return changed

    def _reload(self) -> bool:
        try:
            save = load_save(self.path)
            st = os.stat(self.path)
        except LoadError as error:
            return self._fail(f"{error} (the players' view waits for a readable save)")
        except OSError as error:
            return self._fail(f"{self.path}: cannot be read ({error.strerror or error})")
        data = save.text.encode("utf-8")
        self._key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        # a save read with a torn last event: reread whole once it changes again
        self._offset = len(data) if save.torn_at is None and len(data) == st.st_size else -1
        self.title = save.encounter.title
        self.notice = ""
        self._retell(save.fight)
        return True

    def _retell(self, loaded: Fight) -> None:
        """The whole log told again (the lines of a fresh fight, folded anew)."""
        fight = Fight(loaded.encounter, loaded.ruleset)
        fight.later = set(loaded.later)
        self.told.clear()
        self._said.clear()
        fight.observers.append(self._tell)
        for event in loaded.log:
            fight.push(event)
        self.fight = fight

    def _tell(self, fight: Fight, event: ev.Event) -> None:
        from .replay import describe

        kind = HIDDEN if isinstance(event, ev.Note) and event.hidden else event.TYPE
        try:
            if isinstance(event, ev.Death):  # its cause may give hit points: the death alone
                from .replay import name

                text = f"{name(fight, event.target)} dies"
            elif isinstance(event, ev.Resolve):
                what = f"beat {event.beat} resolved" if event.beat is not None else "resolved"
                text = f"{what}: {', '.join(key_words(fight, k) for k in event.actions)}" \
                    if event.actions else what
            elif isinstance(event, (ev.Undo, ev.Redo)):
                kind, text = self._taking(fight, event)
            else:
                text = describe(fight, event)
        except Exception:  # a line that cannot be told is left out, never the event
            text = event.TYPE
        told = Told(event.round, kind, text)
        self._said.append(told)
        self.told.append(told)

    def _taking(self, fight: Fight, event: ev.Event) -> tuple[str, str]:
        """An undo or redo as the players see it: what it takes back (or brings back) of
        the lines they were shown; unseen when it touches none of them (a hidden note, a
        roll)."""
        if isinstance(event, ev.Undo):
            verb = "undo: takes back"
            positions = fight.positions[fight.batches[-1]:] if fight.batches else []
        else:
            verb = "redo: brings back"
            positions = [position for position, _ in fight.undone[-1]] if fight.undone else []
        said = self._said
        shown = [said[p].text for p in positions
                 if p < len(said) and is_public(fight, said[p])]
        if not shown:
            return UNSEEN, verb.split(":")[0]
        more = f" and {len(shown) - 3} more" if len(shown) > 3 else ""
        return event.TYPE, f"{verb} " + "; ".join(f"“{line}”" for line in shown[:3]) + more

    def _append(self, key: tuple[int, int, int, int]) -> bool:
        assert self.fight is not None
        try:  # without waiting: a pipe put in the save's place would block an open
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
        except OSError:
            return self._reload()
        try:
            with open(fd, "rb") as handle:
                st = os.fstat(handle.fileno())
                if (st.st_dev, st.st_ino) != key[:2]:
                    return self._reload()  # replaced between stat and open
                handle.seek(self._offset)
                data = handle.read(min(st.st_size - self._offset, MAX_BYTES))
        except OSError:
            return self._reload()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return False  # a write under way: the rest comes with the next poll
        if not complete(text):
            return False
        try:
            raws = parse_toml(text, str(self.path)).get("events")
            if not isinstance(raws, list) or not raws:
                raise LoadError(str(self.path), "no events appended")
            reader = self.fight.ruleset.schema.reader
            start = len(self.fight.log)
            for index, raw in enumerate(raws):
                self.fight.push(reader.read(raw, ("events", start + index)))
        except (LoadError, RefereeError, TypeError, ValueError):
            return self._reload()  # not a plain append: read the whole file
        self._offset += len(data)
        self._key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        return True


_LAST_LINE = re.compile(r'(?:^|\n)[ \t]*"?round"?[ \t]*=[ \t]*\d+[ \t]*\n$')


def complete(text: str) -> bool:
    """Whether appended text ends with a whole block (the writer puts `round` last)."""
    return "[[events]]" in text and bool(_LAST_LINE.search(text))


# -- what the players see -------------------------------------------------------------


@record(frozen=True)
class PlayerRow:
    key: str
    acting: bool
    name: str
    side: str
    side_tone: str
    declared: str
    conditions: str
    state: str


@record(frozen=True)
class PlayerBeat:
    mark: str  # ✓ done, ▶ now, ✗ skipped, "" to come
    label: str
    actions: str


@record
class PlayersView:
    title: str
    round: int
    phase: str
    rows: list[PlayerRow]
    plan: list[PlayerBeat] = field(default_factory=list)
    secret: bool = False  # declarations not yet public: no plan, "declared ✓" only
    has_declarations: bool = True
    log: list[str] = field(default_factory=list)
    ended: bool = False

    def text(self) -> str:
        """Everything the view shows, as plain lines (tests read it)."""
        lines = [f"{self.title} · round {self.round} · {self.phase}"]
        lines += [f"{'▶' if r.acting else ' '} {r.name} | {r.side} | {r.declared} | "
                  f"{r.conditions} | {r.state}" for r in self.rows]
        lines += [f"{b.mark or ' '} {b.label} {b.actions}" for b in self.plan]
        return "\n".join(lines + self.log)


def fight_plan(fight: Fight) -> Plan | None:
    try:
        return fight.plan(max(fight.round, 1))
    except RefereeError:
        return None


def shows_hit_points(fight: Fight, cid: str) -> bool:
    if fight.ruleset.tracker.players_see_own != "hit points":
        return False
    side = fight.encounter.side(fight.roster[cid].side)
    return bool(side and side.players)


def public_state(fight: Fight, cid: str) -> str:
    word = fight.ruleset.tracker.public_word(fight, cid)
    if shows_hit_points(fight, cid):
        status = fight.status[cid]
        return f"hp {status.hp}/{status.max_hp}" + (f" ({word})" if word != "unhurt" else "")
    return word


def players_view(fight: Fight, title: str, told: Any = ()) -> PlayersView:
    from .view import side_tone

    secret = declarations_secret(fight)
    has_declarations = fight.ruleset.role(Declaring) is not None
    plan = None if secret else fight_plan(fight)
    resolved = fight.resolved.get(max(fight.round, 1), set())
    now = plan.current(resolved) if plan else None
    acting = {a.actor for a in plan.beats[now - 1].actions} if plan and now else set()
    decls = declarations(fight)
    rows = []
    for cid in order(fight, plan):
        combatant = fight.roster[cid]
        side = fight.encounter.side(combatant.side)
        decl = decls.get(cid)
        if decl is None:
            declared = ""
        elif secret:
            declared = "declared ✓"
        else:
            declared = declared_text(fight, cid, decl)
        rows.append(PlayerRow(cid, cid in acting, combatant.name,
                              side.name if side else combatant.side,
                              side_tone(fight, combatant.side), declared,
                              conditions_text(fight, cid), public_state(fight, cid)))
    beats = []
    if plan is not None:
        from referee.engine.plan import action_key

        for number, beat in enumerate(plan.beats, start=1):
            done = all(action_key(beat, a) in resolved for a in beat.actions)
            mark = "✓" if done else "▶" if number == now else ""
            beats.append(PlayerBeat(mark, beat_label(number, beat),
                                    hide_hit_points(actions_text(beat, fight))))
        for skipped in plan.skipped:
            beats.append(PlayerBeat("✗", "skipped", action_words(
                fight, str(skipped["actor"]), str(skipped["action"]))))
    log = [hide_hit_points(t.text) for t in told if is_public(fight, t)][-LOG_LINES:]
    phase = fight.ruleset.tracker.phase_word(fight)
    return PlayersView(title, max(fight.round, 1), phase, rows, beats,
                       secret, has_declarations, log, fight.ended)
