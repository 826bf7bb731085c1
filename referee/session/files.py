"""Reading saves and rulesets from disk, with errors that name file, line and field."""

from __future__ import annotations

try:  # the compiled tomli reads saves about three times faster than the standard tomllib
    import tomli as toml_reader
except ImportError:  # pragma: no cover - a plain install without the optional speed-up
    import tomllib as toml_reader  # type: ignore[no-redef]  # the same API
import gc
import os
import re
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import referee
from referee.engine import Encounter, Fight, RefereeError, Ruleset
from referee.engine.errors import FormatError
from referee.engine.events import EventReader
from referee.engine.model import check_roster, read_combatants, read_sides
from referee.engine.reading import Fields
from referee.engine.record import record
from referee.engine.text import compiled_later, shown, shown_data, source_may_hold_controls
from referee.hints import TYPE_CHECKING
from referee.rulesets import make_ruleset
from referee.session import heap

if TYPE_CHECKING:
    from typing import Any, Protocol
else:
    from referee.hints import Any, Protocol

SAVE_FORMAT = "referee-save"
RULESET_FORMAT = "referee-ruleset"
SAVE_VERSION = 1
RULESET_VERSION = 1
MIB = 1024 * 1024
# What each kind of file may weigh, checked on the open file before a byte is read: a
# save as much as this machine reads (checks) in under 5 s and 500 MB whatever way it is
# written (benchmarks/save_cap_bench.py; issue 33: 8.7 MiB, 100,000 events, in about
# 2.5 s and 105 MB as the program writes it, 3.7 s of processor and 130 MB written by
# hand with CRLFs, which only the TOML parser reads), and no append takes a save past it
# (store.py); a ruleset or a party what a real one needs many times over; a catalogue a
# few thousand entries.
SAVE_BYTES = 10 * MIB
MAX_BYTES = SAVE_BYTES  # the largest file read at all
RULESET_BYTES = 1 * MIB
ROSTER_BYTES = 1 * MIB
CATALOGUE_BYTES = 4 * MIB
CAPS = {"a save": SAVE_BYTES, "a ruleset": RULESET_BYTES, "a roster": ROSTER_BYTES,
        "a catalogue": CATALOGUE_BYTES}
SEEDS = 2**63 - 1  # a save's seed: any 64-bit number (the app draws them below 2**31)
SHORT_TEXT = 32_768  # fastload.FAST_FROM: a shorter text goes straight to the parser
NESTING = 100  # no save or ruleset nests values more than a few levels; a file may not


class LoadError(Exception):
    """A file that cannot be used, with everything a person needs to find the fault."""

    def __init__(self, file: str, reason: str, line: int | None = None, field: str = "") -> None:
        super().__init__(reason)
        self.file, self.reason, self.line, self.field = file, reason, line, field

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        what = f"{self.field}: " if self.field else ""
        return shown(f"{where}: {what}{self.reason}")  # a file's name or text, made safe


@record
class Save:
    path: Path
    text: str
    encounter: Encounter
    ruleset: Ruleset[Any]
    fight: Fight
    warning: str = ""  # what a referee must be told: a torn last event was dropped
    torn_at: int | None = None  # index of the dropped event
    migrated_from: int | None = None  # the version the file was written in, if older


_PACKAGE: dict[str, Path] = {}  # the package's folder by referee.__file__, resolved once


def builtin_ruleset_dirs() -> list[Path]:
    where = referee.__file__
    package = _PACKAGE.get(where)
    if package is None:
        package = _PACKAGE[where] = Path(where).resolve().parent
    return [package / "_rulesets", package.parent / "rulesets"]


# the folders' stamps when last listed, and what they held (kept only for folders not
# changed in the last SETTLED_NS: a change within a clock tick of the listing would keep
# the folder's stamp)
_LISTED: tuple[tuple[Any, ...], dict[str, Path]] = ((), {})
SETTLED_NS = 2_000_000_000


def builtin_rulesets() -> dict[str, Path]:
    """The bundled ruleset files by id (the first folder's before the second's). The
    folders are listed again only when one has changed since the last listing (a file
    added, removed or renamed changes its folder's modification time): a save's load
    otherwise takes that listing, without a glob of both folders."""
    global _LISTED
    folders = builtin_ruleset_dirs()
    stamps = tuple(_stamp(folder) for folder in folders)
    if stamps and stamps == _LISTED[0]:
        return dict(_LISTED[1])
    found: dict[str, Path] = {}
    for folder in folders:
        if folder.is_dir():
            for file in sorted(folder.glob("*.toml")):
                found.setdefault(file.stem, file)
    settled = time.time_ns() - SETTLED_NS
    if all(stamp is None or stamp[1] < settled for stamp in stamps):
        _LISTED = (stamps, dict(found))
    return found


def _stamp(folder: Path) -> tuple[int, int, int, int] | None:
    try:
        found = os.stat(folder)
    except OSError:
        return None
    return (found.st_mode, found.st_mtime_ns, found.st_ino, found.st_dev)


def read_text(path: Path, kind: str = "a save") -> str:
    """The text of the file at `path`, refused (LoadError) unless it is a regular file of
    at most what `kind` of file may weigh (CAPS), valid UTF-8 and no binary."""
    name = str(path)
    try:
        data = read_regular(path, name, CAPS[kind], kind)
    except FileNotFoundError:
        raise LoadError(name, "no such file") from None
    except PermissionError:
        raise LoadError(name, "permission denied") from None
    except OSError as error:
        raise LoadError(name, f"cannot be read: {error.strerror or error}") from None
    if b"\x00" in data:
        raise LoadError(name, "is not a text file (it holds binary data)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise LoadError(name, "is not valid UTF-8 text", line) from None


_FORMAT_LINE = compiled_later(
    r'^[ \t]*"?format"?[ \t]*=[ \t]*["\']referee-(ruleset|roster|catalogue)["\']', re.MULTILINE)


def read_any(path: Path) -> str:
    """The text of a file of any kind (`referee check`), capped by the kind its `format`
    line says in its first 64 KiB (a save's cap when it says none): a 60 MB catalogue is
    refused before it is parsed."""
    kind = "a save"
    try:  # a peek, never waiting (a pipe) nor reading what is not a file: read_text says
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return read_text(path, kind)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            found = _FORMAT_LINE().search(os.read(fd, 65536).decode("utf-8", "replace"))
            if found is not None:
                kind = "a " + found.group(1)
    except OSError:
        pass
    finally:
        os.close(fd)
    return read_text(path, kind)


def size_text(size: int) -> str:
    return f"{size / MIB:.1f} MiB" if size >= MIB // 10 else f"{size:,} bytes"


def too_large(name: str, size: int | None, cap: int, kind: str) -> LoadError:
    """`size`: what the file system says (None: it grew past the cap as it was read)."""
    weighs = f"is {size_text(size)}" if size is not None else "grew as it was read"
    return LoadError(name, f"{weighs}: larger than {kind} may be ({cap // MIB} MiB); "
                           "refused before it was parsed")


def read_regular(path: Path, name: str, cap: int = MAX_BYTES, kind: str = "a save") -> bytes:
    """The bytes of the regular file at `path` (through any symlink), at most `cap`.
    Anything else is refused before a byte is read: a pipe (opened without waiting for a
    writer), a device such as /dev/zero, a folder, a file the file system says is larger
    than `cap`. The cap holds for what is read too (a file growing as it is read)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        found = os.fstat(fd)
        mode = found.st_mode
        if stat.S_ISDIR(mode):
            raise LoadError(name, "is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise LoadError(name, "is not a regular file (a device, a pipe or a socket)")
        if found.st_size > cap:
            raise too_large(name, found.st_size, cap, kind)
        chunks, size = [], 0
        want = min(found.st_size + 1, cap + 1)  # all of it in one read, as a rule
        while size <= cap:
            chunk = os.read(fd, max(1, min(want, cap + 1 - size)))
            want = 1 << 20
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > cap:
            raise too_large(name, None, cap, kind)
        return b"".join(chunks)
    finally:
        os.close(fd)


def parse_toml(text: str, name: str) -> dict[str, Any]:
    if not text or text.isspace():  # (`not text.strip()` without a copy of a long text)
        raise LoadError(name, "the file is empty")
    try:
        if len(text) < SHORT_TEXT:  # the parser reads it: the fast reader is not imported
            data = toml_reader.loads(text)
        else:
            from .fastload import loads

            data = loads(text, toml_reader.loads)
    except toml_reader.TOMLDecodeError as error:
        from .syntax import explain

        reason, line, field = explain(error, text)
        raise LoadError(name, f"TOML syntax error: {reason}", line, field) from None
    except RecursionError:  # the reader's own limit on nesting (a few hundred levels)
        raise too_deep(name, text) from None
    return safe(data, text)


def safe(data: dict[str, Any], text: str) -> dict[str, Any]:
    """What was parsed from `text` with every string in it, keys too, shown (text.py):
    nothing read from a file can hold a control character. One scan of the raw text
    tells whether any string can hold one; only then is what was parsed walked."""
    if source_may_hold_controls(text):
        walked: dict[str, Any] = shown_data(data)
        return walked
    return data


def too_deep(name: str, text: str) -> LoadError:
    from .syntax import deepest

    line = deepest(text, NESTING)
    return LoadError(name, f"lists or tables nested more than {NESTING} deep", line)


def fault(name: str, text: str, error: RefereeError) -> LoadError:
    reason = error.reason
    path = error.path
    if len(path) > 1 and path[0] == "events" and isinstance(path[1], int):
        reason += f" (event {path[1] + 1} of the log)"  # as the log and replay number it
    return LoadError(name, reason, locate_field(text, path), error.field)


def locate_field(text: str, path: tuple[str | int, ...]) -> int | None:
    from .tomlpos import locate

    return locate(text, path)


# -- rulesets -------------------------------------------------------------------------


def load_ruleset(ref: str, near: Path | None = None) -> Ruleset[Any]:
    """A bundled ruleset by id, or a ruleset file by path (relative to the save's folder)."""
    path = resolve_ruleset(ref, near)
    text = read_text(path, "a ruleset")
    data = parse_toml(text, str(path))
    try:
        check_ruleset_header(data)
        return make_ruleset(data)
    except RefereeError as error:
        raise fault(str(path), text, error) from None


def resolve_ruleset(ref: str, near: Path | None) -> Path:
    bundled = builtin_rulesets()
    if ref in bundled:
        return bundled[ref]
    if not ref.endswith(".toml"):
        known = ", ".join(sorted(bundled))
        raise FormatError(f"unknown ruleset {ref!r} (bundled: {known}; or a path to a .toml)",
                          ("ruleset",))
    path = Path(ref)
    return path if path.is_absolute() or near is None else near / path


def check_ruleset_header(data: dict[str, Any]) -> None:
    if data.get("format", RULESET_FORMAT) != RULESET_FORMAT:
        raise FormatError(f"expected {RULESET_FORMAT!r}, found {data.get('format')!r}",
                          ("format",))
    version = data.get("version", RULESET_VERSION)
    if isinstance(version, bool) or not isinstance(version, int):
        raise FormatError(f"expected an integer, found {version!r}", ("version",))
    if version > RULESET_VERSION:
        raise FormatError(f"version {version} is newer than this referee reads "
                          f"({RULESET_VERSION}): upgrade referee", ("version",))
    if not isinstance(data.get("id"), str):
        raise FormatError("missing required field", ("id",))


# -- saves ------------------------------------------------------------------------------


def load_save(path: Path | str, recover: bool = True,
              read: tuple[str, dict[str, Any]] | None = None,
              watch: Callable[[Fight], Watcher] | None = None) -> Save:
    """Read a save; with `recover`, a torn last event (a crash mid-append) is dropped
    with a warning instead of refusing the whole file; without, the file is refused with
    the same explanation (`torn_error`). `read`: the file's text and what `parse_toml`
    made of it, when the caller has them already (`check` reads a file once). `watch`:
    made a `Watcher` of the fight before its first event, which then sees the fold."""
    path = Path(path)
    text, data = (read_text(path), None) if read is None else read
    with paused_gc():
        return _load(path, text, recover, data, watch)


class Watcher(Protocol):
    """What sees a save's fold as it loads (replay's chronicle: one fold, not two)."""

    def before(self, fight: Fight, event: Any) -> None:
        """`event` is about to be checked and applied (a fault of its own that the
        fight's checks would refuse gives way to their refusal: `watched`)."""

    def after(self, fight: Fight, event: Any) -> None:
        """`event` is applied."""

    def done(self, fight: Fight) -> None:
        """The whole log is folded."""


@contextmanager
def paused_gc() -> Iterator[None]:
    """Reading a long log allocates tens of thousands of objects and no cycles; the
    cyclic collector would only slow it down."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            _aged()
            gc.enable()


def _aged() -> None:
    """What a load made lives as long as the save is open: it goes straight to the oldest
    generation (freezing and thawing moves every object there, at no cost), rather than
    being walked by the young collection the next allocation would start, and again by
    the next, which it would survive (a tenth of a long load). Cycles among them are
    still found by the next whole collection. Left alone while the app keeps its heap
    frozen (an open save): thawing would undo it. (`heap.frozen` says so without asking
    gc.get_freeze_count(), which counts every frozen object: a walk of the open save.)"""
    if not heap.frozen:
        gc.freeze()
        gc.unfreeze()


def _load(path: Path, text: str, recover: bool, data: dict[str, Any] | None = None,
          watch: Callable[[Fight], Watcher] | None = None) -> Save:
    try:
        return parse_save(text, path, data, watch)
    except LoadError as error:
        cut = torn_tail(text, error)
        if cut is None:
            raise
        start, index = cut
        save = parse_save(text[:start], path, None, watch)  # a fault before it is the fault
        if not recover:
            raise torn_error(path, index, error) from None
        save.text, save.torn_at = text, index
        save.warning = (f"{path}: {cut_short(index, error, with_line=True)}; it was dropped. "
                        "The file is untouched until you save again.")
        return save


def cut_short(index: int, error: LoadError, with_line: bool = False) -> str:
    """What a torn last event is, in the same words for every command."""
    cause = f"{error.field}: {error.reason}" if error.field else error.reason
    if with_line:  # a warning has no FILE:LINE in front to say where
        cause += f", line {error.line or '?'}"
    return (f"the last event (events[{index}]) was cut short, as by a crash while it was "
            f"written ({cause})")


def torn_error(path: Path, index: int, error: LoadError) -> LoadError:
    """A torn last event for a command that refuses it (`check`): the explanation the
    others give with their warning, at the line where the event breaks off."""
    return LoadError(str(path), f"{cut_short(index, error)}; plan, replay and play drop it "
                                "with a warning", error.line)


def torn_tail(text: str, error: LoadError) -> tuple[int, int] | None:
    """(where the torn last [[events]] block starts, its index) when `error` lies inside
    it and shows a block cut short: a syntax error, or a required field missing from a
    block without its `round` (the writer puts `round` last, so a block cut at a line
    boundary lacks it). A cut inside the header line itself (`[[eve`) tears that new
    block, not the complete one before it."""
    headers = [m.start() for m in _EVENTS_HEADER().finditer(text)]
    last = text.rfind("\n", 0, len(text.rstrip())) + 1  # where the last line starts
    cut = text[last:].strip()
    if cut and "[[events]]".startswith(cut) and cut != "[[events]]" and (headers or len(cut) > 2):
        start, index = last, len(headers)
    elif headers:
        start, index = headers[-1], len(headers) - 1
    else:
        return None
    first_line = text.count("\n", 0, start) + 1
    block = text[start:]
    incomplete = error.reason.startswith("TOML syntax error") or (
        error.reason.startswith("missing required field")
        and error.field.startswith(f"events[{index}].")
        and _ROUND_KEY().search(block) is None)
    if not incomplete or (error.line is not None and error.line < first_line):
        return None
    return start, index


_EVENTS_HEADER = compiled_later(r"^\[\[events\]\][ \t]*(#.*)?$", re.MULTILINE)
_ROUND_KEY = compiled_later(r'^[ \t]*("round"|round)[ \t]*=', re.MULTILINE)


def parse_save(text: str, path: Path, data: dict[str, Any] | None = None,
               watch: Callable[[Fight], Watcher] | None = None) -> Save:
    """The save in `text` (`data`: what `parse_toml` made of it, if known, used up),
    folded (`watch`: what sees the fold, as `load_save`)."""
    name = str(path)
    if data is None:
        data = parse_toml(text, name)
    migrated_from = None
    try:
        if data.get("version") == 0:
            data, migrated_from = migrate_v0(data), 0
        check_header(data)
    except RefereeError as error:
        raise fault(name, text, error) from None
    ruleset = save_ruleset(data, text, path)
    try:
        encounter, raw_events = read_encounter(data, ruleset)
    except RefereeError as error:
        raise fault(name, text, error) from None
    fight = Fight(encounter, ruleset)
    if "join" in text:
        fight.later = joining_ids(raw_events)
    watcher = None if watch is None else watch(fight)
    fold(fight, raw_events, ruleset.schema.reader, name, text, watcher)
    if watcher is not None:
        watcher.done(fight)
    return Save(path, text, encounter, ruleset, fight, migrated_from=migrated_from)


def fold(fight: Fight, raw_events: list[Any], reader: EventReader, name: str, text: str,
         watcher: Watcher | None = None) -> None:
    """Each event of `raw_events` read and pushed onto `fight` in turn, each table let go
    once read (a long log's peak); the first fault, reading or folding, names its event.
    The fight folds them in one loop (`Fight.extend`), a watcher told of each (`watched`)."""
    at = [0]
    try:
        events = reader.each(raw_events, at)
        fight.extend(events if watcher is None else watched(fight, events, watcher))
    except RefereeError as error:
        if not error.path or error.path[0] != "events":
            error.at("events", at[0])
        raise fault(name, text, error) from None


def watched(fight: Fight, events: Iterable[Any], watcher: Watcher) -> Iterator[Any]:
    """`events` as `fight` folds them (`Fight.extend`, which asks for the next once the
    last is applied), each told to `watcher`: `before` as the fold is about to take it,
    `after` once it is applied. A `before` that fails on an event the fight refuses gives
    way to the fight's refusal, as when its checks came first (`Fight.push`'s observers)."""
    before, after = watcher.before, watcher.after
    last = None
    for event in events:
        if last is not None:
            after(fight, last)
        try:
            before(fight, event)
        except Exception:
            fight.check(event)  # the fault the fold would have found first
            raise
        last = event
        yield event
    if last is not None:
        after(fight, last)


def save_ruleset(data: dict[str, Any], text: str, path: Path) -> Ruleset[Any]:
    """The ruleset a save names, loaded; a fault names the save's `ruleset` line."""
    name = str(path)
    try:
        return load_ruleset(data["ruleset"], path.parent)
    except RefereeError as error:
        raise fault(name, text, error) from None
    except LoadError as error:
        if error.line is None and error.reason in ("no such file", "is a folder, not a file"):
            reason = f"{error.reason} {data['ruleset']!r}"
            raise LoadError(name, reason, locate_field(text, ("ruleset",)), "ruleset") from None
        raise


def migrate_v0(data: dict[str, Any]) -> dict[str, Any]:
    """Version 0 (the first drafts): events under `log` with `kind`, and `hit_points`."""
    out = {k: v for k, v in data.items() if k not in ("log", "version")}
    out["version"] = 1
    out["combatants"] = [_rename(c, "hit_points", "hp") for c in data.get("combatants", [])]
    out["events"] = [_rename(e, "kind", "type") for e in data.get("log", [])]
    return out


def _rename(item: Any, old: str, new: str) -> Any:
    if not isinstance(item, dict) or old not in item:
        return item
    return {(new if k == old else k): v for k, v in item.items()}


HEADER_KEYS = ("format", "version", "ruleset", "title", "seed", "notes", "sides",
               "combatants", "events")


def check_header(data: dict[str, Any]) -> None:
    f = Fields(data)
    kind = f.str("format")
    if kind != SAVE_FORMAT:
        raise FormatError(f"expected {SAVE_FORMAT!r}, found {kind!r}", ("format",))
    version = f.int("version", minimum=0)
    if version > SAVE_VERSION:
        raise FormatError(f"version {version} is newer than this referee reads "
                          f"({SAVE_VERSION}): upgrade referee", ("version",))
    f.str("ruleset")


def read_encounter(data: dict[str, Any], ruleset: Ruleset[Any]) -> tuple[Encounter, list[Any]]:
    """The header and roster, strictly: the core's keys, then the ruleset's own."""
    f = Fields(data)
    schemas = ruleset.schema.schemas
    sides = read_sides(f.raw("sides"), ("sides",), schemas)
    combatants = read_combatants(f.list("combatants", []), ("combatants",), sides, schemas)
    check_roster(sides, combatants)
    encounter = Encounter(
        ruleset=f.str("ruleset"),
        title=f.str("title", ""),
        seed=f.int("seed", 0, maximum=SEEDS),  # any seed random.Random takes
        sides=sides,
        combatants=combatants,
        notes=f.str("notes", ""),
        stats=schemas.encounter.read(data, (), set(HEADER_KEYS)),
    )
    raw_events = f.list("events", [])
    for key in HEADER_KEYS:
        f.raw(key, None)
    ruleset.schema.check_encounter(encounter)
    return encounter, raw_events


def joining_ids(raw_events: list[Any]) -> set[str]:
    """Ids of combatants that join later: a declaration made earlier may already name them."""
    ids = set()
    for raw in raw_events:
        if isinstance(raw, dict) and raw.get("type") == "join":
            combatant = raw.get("combatant")
            if isinstance(combatant, dict) and isinstance(combatant.get("id"), str):
                ids.add(combatant["id"])
    return ids


_TABLE_LINE = compiled_later(r"^\[", re.MULTILINE)
_ROUND_LINE = compiled_later(r'^"?round"?\s*=\s*(\d+)', re.MULTILINE)


def save_header(path: Path) -> dict[str, Any]:
    """Title, ruleset and the round reached, from the header and the last event alone:
    what the saves list shows, without reading a long log."""
    text = read_text(path)
    start = _TABLE_LINE().search(text)
    head = text[: start.start()] if start else text
    try:
        data = safe(toml_reader.loads(head), head)
    except (toml_reader.TOMLDecodeError, RecursionError):
        data = parse_toml(text, str(path))  # reports the fault with its line
    if data.get("format") != SAVE_FORMAT or not isinstance(data.get("ruleset"), str):
        raise LoadError(str(path), "not a referee save")
    rounds = _ROUND_LINE().findall(text[-4000:]) if "[[events]]" in text else []
    title = data.get("title")
    return {"title": title if isinstance(title, str) else "", "ruleset": data["ruleset"],
            "round": int(rounds[-1]) if rounds else 0, "ended": ended(text),
            "started": "[[events]]" in text}


_EVENT_TYPE = compiled_later(r"""^[ \t]*(?:"type"|type)[ \t]*=[ \t]*["']([\w-]+)["']""",
                             re.MULTILINE)
_EVENTS_LINE = compiled_later(r"^\[\[events\]\][ \t]*(?:#.*)?$", re.MULTILINE)
_FOLLOWS = compiled_later(r"""^[ \t]*(?:"follows"|follows)[ \t]*=[ \t]*true""", re.MULTILINE)


def ended(text: str) -> bool:
    """Whether the fight in a save's text is over: an `end` among the batches still in
    effect once undo and redo are followed (as the fold takes them), read from each event's
    type and `follows` alone. A save with no `end` anywhere is not read further."""
    if '"end"' not in text and "'end'" not in text:
        return False
    batches: list[list[str]] = []
    undone: list[list[str]] = []
    for block in _EVENTS_LINE().split(text)[1:]:
        found = _EVENT_TYPE().search(block)
        kind = found.group(1) if found else ""
        if kind == "undo":
            if batches:
                undone.append(batches.pop())
        elif kind == "redo":
            if undone:
                batches.append(undone.pop())
        elif _FOLLOWS().search(block) and batches:
            batches[-1].append(kind)
        else:
            batches.append([kind])
            undone.clear()
    return any("end" in batch for batch in batches)
