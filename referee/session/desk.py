"""The players' desk: what a player's own page shows and what it may do, with no web in it
(the page and its server are `referee/phones/`).

A player is one combatant of a side the players run, known by its token (links.py). The
page shows that combatant whole (its tracker row, every column), the others as the
players' view shows them (the enemy in words, declarations secret until initiative), the
order of play once it is public, and what is asked of the player now. A player may do
only two things, and only while the table lets them: declare for that combatant (every
declaration its ruleset's Declaring role offers, through the act's own form, its answers
checked as the form checks them), until the referee rolls initiative or closes
declarations; and type that combatant's initiative die (the field of the typed-initiative
form named by the combatant or its side) while initiative is due. Each is an event like
any other, written through the table's one writer and marked `from_device`.

The declaration clock (DI-16) runs per player, from the moment the page first shows the
declaration form this round to the submit; its steps go in the timer's field, which the
page never offers (a player cannot type their own delay).
"""

from __future__ import annotations

import hmac
import math
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from referee.engine import Fight, RefereeError
from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.forms import target_options
from referee.engine.options import Carrying, Declaring, Rolling
from referee.engine.record import field, record, replace
from referee.engine.specs import Act, Cell, Column, Field, Form, Timer
from referee.engine.text import has_controls

from .errors import SaveError
from .follow import Follower, PlayerBeat, PlayerRow, declarations_secret, players_view
from .links import LinksError, links_for, links_path, read_links
from .questions import DIE_PURPOSE, device_dice
from .table import Table
from .view import columns, tracker_row

DIE = "initiative-die"  # the act id of a player's own initiative die
TEXT_CHARS = 200  # the longest text a page may send in one field
SEEN = 30.0  # seconds a page counts as open after it last asked (who is still deciding)


class Refused(Exception):
    """What a player's page asked cannot be done: nothing was written. The message is one
    line for the page and the server's log."""


@record(frozen=True)
class PlayerForm:
    act: str  # the act's id, as `referee act SAVE ACT` names it
    label: str
    form: Form  # its fields as the page offers them (the clock's field left out)
    clock: Timer | None = None


@record
class PlayerPage:
    cid: str
    name: str
    title: str
    round: int
    phase: str
    ended: bool
    columns: tuple[Column, ...]  # the player's combatant whole: the tracker's columns
    cells: tuple[Cell, ...]
    others: list[PlayerRow]
    plan: list[PlayerBeat]
    secret: bool  # declarations not yet public
    asked: str  # what is asked of the player now
    forms: list[PlayerForm] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    clock_seconds: float | None = None  # on the player's declaration clock so far
    notice: str = ""  # the save cannot be read right now
    kept: list[tuple[str, str]] = field(default_factory=list)  # what it still has: spells …


class Writer(Protocol):
    """Where a desk reads the table and writes what a page sends: the save's one writer."""

    @property
    def table(self) -> Table: ...

    def append(self, events: list[ev.Event]) -> list[ev.Event]: ...


class HeldTable:
    """The table the app holds (and its lock, for as long as it is open)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def append(self, events: list[ev.Event]) -> list[ev.Event]:
        return self.table.append(events)


class BriefWriter:
    """`referee serve --players`: the save read as it changes, and locked only for the
    moment a page's act is written, so that the referee's own commands (`referee
    initiative SAVE` …) take turns with it; with the app open (its lock held), a page is
    told the app has the save."""

    def __init__(self, save: Path, rng: random.Random | None = None) -> None:
        self.save, self.rng = save, rng
        self._table: Table | None = None
        self._key: tuple[int, ...] | None = None

    @property
    def table(self) -> Table:
        found = os.stat(self.save)
        key = (found.st_ino, found.st_size, found.st_mtime_ns)
        if self._table is None or key != self._key:
            from .store import Session

            self._table, self._key = Table(Session.open(self.save), self.rng), key
        return self._table

    def append(self, events: list[ev.Event]) -> list[ev.Event]:
        from .lock import SaveLocked
        from .store import Session

        seen = len(self.table.fight.log)
        try:
            session = Session.open(self.save, lock=True)
        except SaveLocked:
            raise Refused("the referee's app has the save open: its pages are served from "
                          "there (V)", 409) from None
        try:
            if len(session.fight.log) != seen:  # written between the page's look and now
                raise Refused("the fight moved on meanwhile: look again, then send", 409)
            return session.append(*events)
        finally:
            session.close()
            self._key = None


class Desk:
    """The players' pages of one save, read and written through `writer` (the app's held
    table, or the serve's brief writer). `clock`: the declaration clock's time source;
    `written`: told of each act a page wrote (the app redraws)."""

    def __init__(self, writer: Writer, save: Path, clock: Callable[[], float] = time.monotonic,
                 written: Callable[[list[ev.Event]], None] | None = None) -> None:
        self.writer, self.save, self.clock, self.written = writer, save, clock, written
        self.follower = Follower(save)
        self._tokens: dict[str, str] = {}  # token -> combatant
        self._links_key: tuple[int, ...] | None = None  # the links file as last read
        self.problem = ""  # why the links file could not be read, if it could not
        self._opened: dict[tuple[int, str], float] = {}  # (round, cid) -> clock started
        self._seen: dict[str, float] = {}  # cid -> when its page last asked
        self.closed: int | None = None  # the round whose declarations the referee closed
        self.poll()

    # -- the links -----------------------------------------------------------------------

    def make_links(self, revoke: bool = False) -> dict[str, str]:
        """Each player combatant's token (new ones with `revoke`: the old stop working)."""
        tokens = links_for(self.fight, self.save, revoke)
        self._links_key = None
        return tokens

    def _current(self) -> dict[str, str]:
        """The tokens as the links file holds them now: `referee links --revoke` from
        another terminal takes effect at the next request; a file gone or unreadable
        leaves no token working."""
        try:
            # lstat: the link itself; mode, owner and ctime: a chmod or chown alone
            # (the file made readable by others) is a change to read it again for
            found = os.lstat(links_path(self.save))
            key: tuple[int, ...] | None = (found.st_ino, found.st_size, found.st_mtime_ns,
                                           found.st_ctime_ns, found.st_mode, found.st_uid)
        except OSError:
            key = None
        if key != self._links_key:
            self._links_key = key
            try:
                kept = read_links(self.save) if key is not None else {}
            except LinksError as error:
                self.problem, kept = str(error), {}
            self._tokens = {token: cid for cid, token in kept.items()}
        return self._tokens

    def player(self, token: str) -> str | None:
        """The combatant a token acts for (None: no such token, or the fight is over)."""
        found = None
        for known, cid in self._current().items():  # each compared in constant time
            if hmac.compare_digest(known.encode(), token.encode("utf-8", "replace")):
                found = cid
        if found is None or found not in self.fight.roster or self.fight.ended:
            return None
        return found

    # -- what is open ------------------------------------------------------------------

    @property
    def table(self) -> Table:
        return self.writer.table

    @property
    def fight(self) -> Fight:
        return self.table.fight

    def poll(self) -> bool:
        """Whether the save changed since the last poll (the pages follow the file)."""
        return self.follower.poll()

    def version(self) -> tuple[int, int, bool]:
        fight = self.follower.fight
        return (id(fight), len(fight.log) if fight else -1, self.closed is not None)

    def declaring_open(self) -> bool:
        """Whether players may declare now: the ruleset takes declarations, the fight goes
        on, initiative is not yet in (nor the declarations closed by the referee)."""
        fight = self.fight
        if fight.ended or fight.ruleset.role(Declaring) is None:
            return False
        round_ = max(fight.round, 1)
        if self.closed == round_:
            return False
        rolling = fight.ruleset.role(Rolling)
        if rolling is None or rolling.initiative_due(fight):
            return True
        # initiative kept from an earlier round (count-up's, once a combat): open until
        # initiative is entered this round or its first beat is resolved
        return round_ not in fight.initiatives and not fight.resolved.get(round_)

    def close_declarations(self, closed: bool = True) -> None:
        """The referee closes (or opens again) this round's declarations on the pages."""
        self.closed = max(self.fight.round, 1) if closed else None

    def deciding(self) -> list[str]:
        """Player combatants whose page is open while declarations are, not yet declared."""
        if not self.declaring_open():
            return []
        now, declared = self.clock(), self.table.declared()
        return [cid for cid, seen in self._seen.items()
                if now - seen <= SEEN and cid not in declared and cid in self.fight.roster]

    def from_device(self) -> set[str]:
        """Player combatants whose declaration this round came from their page."""
        return {cid for cid, decl in self.table.declared().items() if decl.from_device}

    # -- a page --------------------------------------------------------------------------

    def page(self, cid: str) -> PlayerPage:
        self.poll()
        self._seen[cid] = self.clock()
        forms = self.forms(cid)
        seconds = None
        if any(f.clock for f in forms):
            started = self._opened.setdefault((max(self.fight.round, 1), cid), self.clock())
            seconds = self.clock() - started
        followed = self.follower.fight or self.fight
        shown = players_view(followed, self.follower.title, self.follower.told)
        cols = tuple(c for c in columns(self.fight) if c.key != "mark")
        row = tracker_row(self.fight, cid, False, self.table.declared().get(cid), cols)
        return PlayerPage(cid, self.table.name(cid), shown.title, shown.round, shown.phase,
                          shown.ended, cols, row.cells,
                          [r for r in shown.rows if r.key != cid], shown.plan,
                          shown.secret, self.asked(cid, forms), forms, shown.log, seconds,
                          self.follower.notice, kept(self.fight, cid))

    def asked(self, cid: str, forms: Sequence[PlayerForm]) -> str:
        fight, name = self.fight, self.table.name(cid)
        if fight.ended:
            return "The fight is over."
        declared = self.table.declared().get(cid)
        if any(f.act != DIE for f in forms):
            if declared is not None:
                declaring = fight.ruleset.role(Declaring)
                said = declaring.declared_text(fight, cid, declared) if declaring else ""
                return (f"{name} has declared: {said}. You may change it until initiative "
                        "is rolled.")
            return f"Declare {name}'s action for round {max(fight.round, 1)}."
        die = next((f for f in forms if f.act == DIE), None)
        if die is not None:
            sent = device_dice(fight).get(die.form.fields[0].name)
            if sent is not None:
                return (f"Your die is in: {sent}. The referee enters initiative from it (you "
                        "may send it again until then).")
            return f"Initiative is due: type {name}'s die as it fell."
        if fight.ruleset.role(Declaring) is not None and declarations_secret(fight):
            return "Declarations are closed: the referee rolls initiative."
        return "Nothing is asked of you now: follow the fight."

    def forms(self, cid: str) -> list[PlayerForm]:
        """What the player may do now, each as the form its page shows."""
        out = []
        if self.declaring_open():
            for act in self.table.declaration_acts():
                if act.allowed(self.fight, cid):
                    continue
                spec = act.form(self.fight, cid)
                if spec is not None:
                    out.append(PlayerForm(act.id, act.label, self._offered(spec), spec.clock))
        die = self.die_field(cid)
        if die is not None:
            out.append(PlayerForm(DIE, "Your initiative die", Form(
                "Your initiative die", (die,), hint="as it fell on the table")))
        return out

    def die_field(self, cid: str) -> Field | None:
        """The typed-initiative field this player may fill: named by the combatant, or by
        its side (one die per side: any of its players may type it)."""
        fight = self.fight
        rolling = fight.ruleset.role(Rolling)
        if fight.ended or rolling is None or not rolling.initiative_due(fight):
            return None
        try:
            form = rolling.initiative_form(fight)
        except RefereeError:
            return None
        names = (cid, fight.roster[cid].side)
        for spec in form.fields:
            if spec.name in names and spec.kind == "int":
                return replace(spec, label="your die" if spec.name == cid else
                               f"{spec.title}'s die", required=True)
        return None

    # -- what a page sends ---------------------------------------------------------------

    def submit(self, cid: str, act_id: str, raw: Mapping[str, Sequence[str]]) -> list[ev.Event]:
        """The act `act_id` done for `cid` with the page's fields (each a list of the values
        sent under its name): checked, written through the table, marked from its device.
        Refused (nothing written) otherwise."""
        offered = {f.act: f for f in self.forms(cid)}
        chosen = offered.get(act_id)
        if chosen is None:
            raise Refused(self._why_not(cid, act_id))
        values = read_values(chosen.form, raw, self.fight.roster)
        if act_id == DIE:
            (spec,) = chosen.form.fields
            die = values[spec.name]  # a total alone, as the table reads it: "7"
            events: list[ev.Event] = [ev.Roll(
                round=max(self.fight.round, 1), expr=str(die), total=die,
                purpose=f"{DIE_PURPOSE}{spec.name})", actor=cid, real=True)]
        else:
            if chosen.clock is not None:
                started = self._opened.setdefault((max(self.fight.round, 1), cid), self.clock())
                steps = int((self.clock() - started) // chosen.clock.every)
                if steps:
                    values[chosen.clock.field] = steps
            act = self.table.act(act_id)
            try:
                events = self._run(act, cid, values)
            except IllegalEvent as error:
                raise Refused(f"{act.label}: {error}") from None
        marked = [replace(e, from_device=cid) for e in events]
        try:
            written = self.writer.append(marked)
        except (RefereeError, SaveError) as error:  # refused by the fold, or not written
            raise Refused(str(error)) from None
        if self.written is not None:
            self.written(written)
        return written

    def _run(self, act: Act, cid: str, values: dict[str, Any]) -> list[ev.Event]:
        assert act.run is not None
        return act.run(self.fight, cid, values, self.table.rng)

    def _why_not(self, cid: str, act_id: str) -> str:
        if self.fight.ended:
            return "the fight is over"
        if act_id.startswith("declare-") and not self.declaring_open():
            return "declarations are closed"
        if act_id == DIE:
            return "no initiative die is asked of you now"
        return f"{act_id!r} is not offered to {self.table.name(cid)} now"


    def _offered(self, spec: Form) -> Form:
        """A form as a page offers it: the clock's field left out (the desk keeps the
        clock), a combatant field's choices the living."""
        living = target_options(self.fight)
        fields = tuple(replace(f, options=living) if f.kind in ("id", "ids") and not f.options
                       else f for f in spec.fields
                       if spec.clock is None or f.name != spec.clock.field)
        return replace(spec, fields=fields, clock=None)


# -- reading a page's fields ---------------------------------------------------------------


def kept(fight: Fight, cid: str) -> list[tuple[str, str]]:
    """What the combatant still has that its ruleset carries from fight to fight (its
    spells, less those cast or lost …), each key as a line of words."""
    carrying = fight.ruleset.role(Carrying)
    if carrying is None:
        return []
    answers = {f.name: f.default for f in carrying.questions(fight)}
    try:
        found = carrying.carried(fight, cid, answers)
    except RefereeError:
        return []
    return [(f"{key.replace('_', ' ')} left", _words(value)) for key, value in found.items()]


def _words(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        names = [str(v.get("name", v)) if isinstance(v, dict) else str(v) for v in value]
        return ", ".join(names) or "none"
    return str(value)


def input_name(name: str) -> str:
    """A field's name on the page: the option `referee act SAVE ACT --NAME` takes."""
    return name.replace("_", "-")


def read_values(form: Form, raw: Mapping[str, Sequence[str]],
                roster: Mapping[str, Any]) -> dict[str, Any]:
    """The form's answers from what a page sent, checked as the form checks them: a name
    the form does not have, a value it does not offer, a number out of its range, a text
    too long or holding a control character: Refused."""
    by_input = {input_name(f.name): f for f in form.fields}
    forged = sorted(name for name in raw if name not in by_input)
    if forged:
        raise Refused(f"{form.title}: no field {forged[0][:40]!r}")
    values: dict[str, Any] = {}
    for name, spec in by_input.items():
        sent = list(raw.get(name, ()))
        values[spec.name] = read_value(spec, sent, roster)
        if spec.required and values[spec.name] in (None, ""):
            raise Refused(f"{form.title}: {spec.title} is required")
    return values


def read_value(spec: Field, sent: list[str], roster: Mapping[str, Any]) -> Any:
    if spec.kind == "ids":
        if any(text not in roster for text in sent):
            raise Refused(f"{spec.title}: not a combatant of this fight")
        return tuple(dict.fromkeys(sent))
    if len(sent) > 1:
        raise Refused(f"{spec.title}: sent {len(sent)} times")
    if spec.kind == "bool":
        return bool(sent) and sent[0] in ("on", "yes", "true", "1")
    if not sent:
        return spec.initial
    text = sent[0]
    if len(text) > TEXT_CHARS:
        raise Refused(f"{spec.title}: over {TEXT_CHARS} characters")
    if has_controls(text) or "\n" in text or "\r" in text:  # a page's inputs are one line
        raise Refused(f"{spec.title}: holds a control character")
    if spec.kind == "choice":
        for _, value in spec.options:
            if option_value(value) == text:
                return value
        raise Refused(f"{spec.title}: {text[:40]!r} is not one of its choices")
    if spec.kind == "int":
        return _whole(spec, text)
    if spec.kind == "number":
        return _number(spec, text)
    if spec.kind == "id":
        if text and text not in roster:
            raise Refused(f"{spec.title}: not a combatant of this fight")
        return text or None
    if spec.kind in ("text", "dice"):
        return text.strip()
    raise Refused(f"{spec.title}: not offered on a player's page")


def option_value(value: Any) -> str:
    """A choice's value as the page sends it back."""
    return "" if value is None else str(value)


def _whole(spec: Field, text: str) -> int | None:
    if not text.strip():
        return None
    try:
        value = int(text.strip())
    except ValueError:
        raise Refused(f"{spec.title}: a whole number, not {text[:20]!r}") from None
    low = spec.minimum
    high = spec.maximum if spec.maximum is not None else 10 ** 9
    if (low is not None and value < low) or value > high:
        raise Refused(f"{spec.title}: {value} is out of range"
                      + (f" ({low} to {high})" if low is not None else f" (at most {high})"))
    return value


def _number(spec: Field, text: str) -> float | None:
    if not text.strip():
        return None
    try:
        value = float(text.strip())
    except ValueError:
        raise Refused(f"{spec.title}: a number, not {text[:20]!r}") from None
    if not math.isfinite(value) or abs(value) > 10 ** 9:
        raise Refused(f"{spec.title}: {text[:20]!r} is out of range")
    return value
