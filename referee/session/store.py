"""The session: the one place that writes saves. Nothing is lost.

Every event is appended to the save and fsynced before `append` returns; a full save
(save as, compaction, repair, migration) goes to a temporary file in the same folder,
is fsynced, renamed over the target and the folder fsynced, so a failure at any point
leaves the old file as it was.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from referee.engine import Encounter, Fight
from referee.engine import events as ev
from referee.engine.model import check_roster

from .files import Save, load_save
from .writer import event_block, save_text

if TYPE_CHECKING:
    from .lock import SaveLock

Clock = Callable[[], float]


class SaveError(Exception):
    """A save could not be written; the message says what is intact."""


def write_bytes(handle: BinaryIO, data: bytes) -> None:
    """Write, flush and fsync: the event is on disk when this returns."""
    handle.write(data)
    handle.flush()
    os.fsync(handle.fileno())


def fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` all at once, or not at all."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise SaveError(f"{path}: could not save ({error.strerror or error}); "
                        "the old file is intact") from None
    try:
        os.fchmod(fd, file_mode(path))
        with os.fdopen(fd, "wb") as handle:
            write_bytes(handle, text.encode("utf-8"))
        os.replace(temp, path)
        fsync_folder(folder)
    except OSError as error:
        Path(temp).unlink(missing_ok=True)
        raise SaveError(f"{path}: could not save ({error.strerror or error}); "
                        "the old file is intact") from None


def file_mode(path: Path) -> int:
    """The mode a save keeps: its own if it exists, else what the user's umask gives a
    new file (a temporary file starts at 0600)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def stamp(clock: Clock) -> str:
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime(clock()))


class Session:
    """Open, append, undo, redo, save as, close: the app never touches files itself."""

    def __init__(self, save: Save, clock: Clock = time.time) -> None:
        self.path = save.path
        self.fight: Fight = save.fight
        self.encounter: Encounter = save.encounter
        self.warning = save.warning
        self.clock = clock
        self._original = save.text
        self._repair = save.torn_at is not None or save.migrated_from is not None
        self._migrated_from = save.migrated_from
        self._handle: BinaryIO | None = None
        self._lock: SaveLock | None = None

    @classmethod
    def open(cls, path: Path | str, clock: Clock = time.time, lock: bool = False) -> Session:
        """With `lock` (for play), the save is locked before it is read and until `close`:
        another such open, here or in another process, raises SaveLocked."""
        if not lock:
            return cls(load_save(path), clock)
        from .lock import SaveLock

        held = SaveLock.acquire(path)
        try:
            session = cls(load_save(path), clock)
        except BaseException:
            held.release()
            raise
        session._lock = held
        return session

    @classmethod
    def create(cls, path: Path | str, encounter: Encounter, clock: Clock = time.time) -> Session:
        path = Path(path)
        write_atomic(path, save_text(encounter, []))
        return cls.open(path, clock)

    # -- writing -----------------------------------------------------------------------

    def append(self, event: ev.Event) -> list[ev.Event]:
        """Enter `event` (with the consequences the rules add) and put it on disk.

        On a bad event nothing changes; on a failed write the fight is rolled back to
        what the file holds and SaveError says so.
        """
        before = len(self.fight.log)
        try:
            pushed = self.fight.enter(event)
        except Exception:
            del self.fight.log[before:]
            self.fight.refold()
            raise
        try:
            self._write(pushed)
        except SaveError:
            del self.fight.log[before:]
            self.fight.refold()
            raise
        return pushed

    def undo(self) -> list[ev.Event]:
        return self.append(ev.Undo(round=max(self.fight.round, 0)))

    def redo(self) -> list[ev.Event]:
        return self.append(ev.Redo(round=max(self.fight.round, 0)))

    def _write(self, events: list[ev.Event]) -> None:
        if self._repair:
            self._rewrite(len(self.fight.log) - len(events))
        data = "".join("\n" + event_block(e) for e in events).encode("utf-8")
        handle = self._file()
        size = handle.tell()
        try:
            write_bytes(handle, data)
        except OSError as error:
            self._take_back(handle, size)
            raise SaveError(f"{self.path}: could not write the event "
                            f"({error.strerror or error}); the save holds everything "
                            "before it") from None

    def _take_back(self, handle: BinaryIO, size: int) -> None:
        """Cut a partly written block off again, so the file ends on a whole event."""
        try:
            handle.truncate(size)
            handle.flush()
            os.fsync(handle.fileno())
        except OSError:
            self._close_file()  # a torn tail is dropped with a warning the next time it opens

    def _file(self) -> BinaryIO:
        if self._handle is None:
            try:
                self._handle = open(self.path, "ab")  # noqa: SIM115 - kept open across appends
            except OSError as error:
                raise SaveError(f"{self.path}: cannot be written "
                                f"({error.strerror or error})") from None
            self._handle.seek(0, os.SEEK_END)
        return self._handle

    def _rewrite(self, keep: int) -> None:
        """Before the first append to a torn or older file: keep the original beside it
        and write what was loaded as a whole, current save."""
        if self._migrated_from is not None:
            backup = self.path.with_name(f"{self.path.name}.version-{self._migrated_from}")
        else:
            backup = self.path.with_name(f"{self.path.name}.damaged-{stamp(self.clock)}")
        write_atomic(backup, self._original)
        self._close_file()
        write_atomic(self.path, save_text(self.encounter, self.fight.log[:keep]))
        self._repair = False
        self.warning = ""

    def replace_encounter(self, encounter: Encounter) -> None:
        """Setting up: a new roster (sides and combatants) written atomically. Refused if
        the log so far does not fit it (an event naming a combatant removed), or if ids
        clash or a combatant's side is missing."""
        check_roster(encounter.sides, encounter.combatants)
        fight = Fight(encounter, self.fight.ruleset)
        fight.later = set(self.fight.later)
        for event in self.fight.log:
            fight.push(event)  # raises on a removed combatant still in the log
        write_atomic(self.path, save_text(encounter, list(self.fight.log)))
        self._close_file()
        self.encounter, self.fight, self._repair = encounter, fight, False

    def save_as(self, path: Path | str, compact: bool = False) -> Path:
        """Write the whole fight to `path` atomically; the session goes on there.

        `compact` keeps only the events in effect (undone ones and undo/redo dropped).
        """
        path = Path(path)
        log = list(self.fight.events) if compact else list(self.fight.log)
        moved = None  # a locked session's lock follows it; a target open elsewhere is refused
        if self._lock is not None and not self._lock.covers(path):
            from .lock import SaveLock

            moved = SaveLock.acquire(path)
        try:
            write_atomic(path, save_text(self.encounter, log))
        except BaseException:
            if moved is not None:
                moved.release()
            raise
        if moved is not None:
            assert self._lock is not None  # moved is only set while a lock is held
            self._lock.release()
            self._lock = moved
        self._close_file()
        self.path = path
        self._repair = False
        if compact:
            self.fight = self.fight.__class__(self.encounter, self.fight.ruleset)
            for event in log:
                self.fight.push(event)
        return path

    def close(self) -> None:
        self._close_file()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _close_file(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
