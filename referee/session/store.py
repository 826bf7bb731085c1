"""The session: the one place that writes saves. Nothing is lost.

Every event is appended to the save and fsynced before `append` returns; a full save
(save as, compaction, repair, migration) goes to a temporary file in the same folder,
is fsynced, renamed over the target and the folder fsynced, so a failure at any point
leaves the old file as it was.

A failure to write (a full disk, a device gone) at any step ends in one SaveError whose
message says what the file holds, and the session stays usable: the fight is rolled
back to what the file holds, and a cut-short tail a failed append could not take back is
remembered and cut off before anything more is written. Cleaning up after a failure
never raises a second error.
"""

from __future__ import annotations

import errno
import os
import tempfile
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from referee.engine import Encounter, Fight
from referee.engine import events as ev
from referee.engine.model import check_roster

from .errors import SaveError as SaveError  # the store raises it: named here too
from .files import SAVE_BYTES, LoadError, Save, Watcher, load_save, read_text, size_text
from .writer import event_block, save_text

if TYPE_CHECKING:
    from .lock import SaveLock

Clock = Callable[[], float]


class FolderNotSynced(SaveError):
    """The new file is in place, but its folder could not be fsynced: a crash could still
    undo the rename. The caller's state must follow the file, which has changed."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path, self.reason = path, reason
        super().__init__(f"{path}: written, but its folder could not be synced ({reason}), "
                         "so a crash could still undo it")


def reason(error: OSError) -> str:
    return error.strerror or str(error)


def write_bytes(handle: BinaryIO, data: bytes) -> None:
    """Write, flush and fsync: the event is on disk when this returns. An unbuffered
    handle may take part of the data at a time; a full disk raises once nothing fits."""
    view = memoryview(data)
    while view:
        written = handle.write(view)
        if not written:  # no progress and no error: never spin on it
            raise OSError(errno.EIO, "the file took none of the data")
        view = view[written:]
    handle.flush()
    os.fsync(handle.fileno())


def fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        with suppress(OSError):
            os.close(fd)


def write_atomic(path: Path, text: str, replace: bool = True) -> None:
    """Replace `path` with `text` all at once, or not at all (SaveError, the old file
    intact and no temporary file left). FolderNotSynced when only the folder's fsync,
    after the rename, failed. With `replace` off, a file already at `path` is never
    written over: FileExistsError, and nothing is left behind."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise SaveError(f"{path}: could not save ({reason(error)}); "
                        f"{intact(path)}", reason(error)) from None
    handle: BinaryIO | None = None
    try:
        handle = open(fd, "wb", buffering=0)  # noqa: SIM115 - closed below, checked
        os.fchmod(fd, file_mode(path))
        write_bytes(handle, text.encode("utf-8"))
        handle.close()  # a failing close (a network file system) may have lost the data
        put_in_place(temp, path, replace)
    except FileExistsError:
        with suppress(OSError):
            Path(temp).unlink(missing_ok=True)
        raise
    except OSError as error:
        with suppress(OSError):
            if handle is None:
                os.close(fd)
            else:
                handle.close()
        with suppress(OSError):
            Path(temp).unlink(missing_ok=True)
        raise SaveError(f"{path}: could not save ({reason(error)}); "
                        f"{intact(path)}", reason(error)) from None
    try:
        fsync_folder(folder)
    except OSError as error:
        raise FolderNotSynced(path, reason(error)) from None


def put_in_place(temp: str, path: Path, replace: bool) -> None:
    """Rename the written temporary file to `path`; without `replace`, by a hard link
    that fails when `path` exists (no window between a test and the rename)."""
    if replace:
        os.replace(temp, path)
        return
    try:
        os.link(temp, path)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: test, then rename
        if os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, "exists", str(path)) from None
        os.replace(temp, path)
        return
    with suppress(OSError):  # the file is in place; a stray temporary name is harmless
        os.unlink(temp)


def intact(path: Path) -> str:
    """What a failed write left: the old file, or (there was none) nothing."""
    return "the old file is intact" if os.path.lexists(path) else "nothing was written"


def file_mode(path: Path) -> int:
    """The mode a save keeps: its own if it exists, else what the user's umask gives a
    new file (a temporary file starts at 0600)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


class SaveFull(SaveError):
    """The write would take the save past what a save may weigh (SAVE_BYTES): nothing was
    written, so every save acknowledged can be opened again."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(
            f"{path}: {what} would take the save past {size_text(SAVE_BYTES)}, the "
            "most a save may be (so that it can always be opened again); nothing was "
            "written and the fight goes on. To go on in a new encounter with the party: "
            f"referee party {path} -o party.toml, then referee play NEW.toml --party "
            "party.toml")


def fits(path: Path, size: int, what: str) -> None:
    """SaveFull unless a save of `size` bytes may be written."""
    if size > SAVE_BYTES:
        raise SaveFull(path, what)


def writable(path: Path, found: os.stat_result | None = None) -> None:
    """LoadError unless the save at `path` may be written: a file with another name (a
    hard link) would be left behind as a stale copy by the first rewrite (set-up, repair,
    save as replace the file), so writing through either name is refused; reading is
    fine. A name with a control character is refused too (it would reach the screen)."""
    from referee.engine.text import has_controls

    if has_controls(str(path)):
        raise LoadError(str(path), "its name holds a control character: rename the file "
                                   "to play it (plan, replay and export read it as it is)")
    try:
        found = found or os.stat(path)
    except OSError:
        return  # load_save says what is wrong with it
    if found.st_nlink > 1:
        raise LoadError(str(path), f"has {found.st_nlink} names (hard links to one file): a "
                                   "rewrite (set-up, repair, save as) would leave the others "
                                   "behind as stale copies, so it is not written through any "
                                   "of them; remove the other names, or play a copy "
                                   "(plan, replay and export read it as it is)")


def unchanged(path: Path, read: Save | None) -> Save | None:
    """`read`, if it is the save at `path` as the file holds it now (None: load it)."""
    if read is None or read.path != path:
        return None
    try:
        return read if read_text(path) == read.text else None
    except LoadError:
        return None  # the load says what is wrong with it now


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
        # Where the whole events end while a failed append's cut-short tail, which could
        # not be taken back, is still on disk past it: cut off before the next write.
        self._torn_at: int | None = None

    @classmethod
    def open(cls, path: Path | str, clock: Clock = time.time, lock: bool = False,
             watch: Callable[[Fight], Watcher] | None = None,
             read: Save | None = None) -> Session:
        """With `lock` (for play), the save is locked before it is read and until `close`:
        another such open, here or in another process, raises SaveLocked. `watch`: as
        `load_save`'s (the app's log told as the load folds the log). `read`: the same
        file loaded (and watched) before the lock was taken, as the command line loads a
        save to check it and to know an act's options: taken as it is if the file still
        holds its text (a long log is not folded twice), else the file is loaded again."""
        if not lock:
            return cls(load_save(path, watch=watch), clock)
        from .lock import SaveLock

        writable(Path(path))
        held = SaveLock.acquire(path)
        try:
            writable(Path(path))  # linked while the lock was taken
            session = cls(unchanged(Path(path), read) or load_save(path, watch=watch), clock)
        except BaseException:
            held.release()
            raise
        session._lock = held
        return session

    @classmethod
    def create(cls, path: Path | str, encounter: Encounter, clock: Clock = time.time) -> Session:
        path = Path(path)
        try:
            write_atomic(path, save_text(encounter, []), replace=False)
        except FileExistsError:  # a new save never replaces a file
            raise SaveError(f"{path}: exists; nothing was written") from None
        return cls.open(path, clock)

    # -- writing -----------------------------------------------------------------------

    def append(self, event: ev.Event, *more: ev.Event, follows: bool = False,
               ) -> list[ev.Event]:
        """Enter `event` (and `more`, as one act: undone together) with the consequences
        the rules add, and put them on disk in one write. `follows`: `event` goes on the
        act entered just before (one written a piece at a time, undone whole).

        On a bad event nothing changes (none of the act is kept); on a failed write the
        fight is rolled back to what the file holds and SaveError says so.
        """
        before = len(self.fight.log)
        try:
            pushed = self.fight.enter(event, follows=follows)
            for later in more:
                pushed += self.fight.enter(later, follows=True)
        except Exception:
            del self.fight.log[before:]
            self.fight.refold()
            raise
        try:
            self._write(pushed)
        except Exception:  # SaveError: nothing of it acknowledged, so nothing of it kept
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
        try:
            if self._torn_at is not None:  # an earlier failure's tail goes first
                self._cut(handle, self._torn_at)
                self._torn_at = None
            found = os.fstat(handle.fileno())
        except OSError as error:
            self._close_file()
            raise SaveError(self._not_written(error)) from None
        size = found.st_size
        fits(self.path, size + len(data), "this event")
        if found.st_nlink > 1:  # linked since it was opened: no write reaches a stale copy
            self._alone(found, "this event")
        try:
            write_bytes(handle, data)
        except OSError as error:
            if not self._take_back(handle, size):
                self._torn_at = size
            self._close_file()  # a fresh handle next time
            raise SaveError(self._not_written(error)) from None

    def _alone(self, found: os.stat_result | None = None, what: str = "it") -> None:
        """SaveError (nothing written) when the save has another name by now: a write
        through this one would leave that one a stale copy."""
        try:
            writable(self.path, found)
        except LoadError as error:
            raise SaveError(f"{error}; {what} was not written") from None

    def _not_written(self, error: OSError) -> str:
        torn = (", and a cut-short end that is cut off before anything more is written"
                if self._torn_at is not None else "")
        return (f"{self.path}: could not write the event ({reason(error)}); "
                f"the save holds everything before it{torn}")

    def _take_back(self, handle: BinaryIO, size: int) -> bool:
        """Cut a partly written block off again, so the file ends on a whole event; False
        when that fails too (the file is torn past `size`)."""
        try:
            self._cut(handle, size)
        except OSError:
            return False
        return True

    @staticmethod
    def _cut(handle: BinaryIO, size: int) -> None:
        handle.truncate(size)
        os.fsync(handle.fileno())

    def _mend(self) -> None:
        """At the end (close, save as elsewhere): one more try at cutting off a torn tail;
        if it fails, the next open drops the tail with a warning and repairs the file."""
        if self._torn_at is None:
            return
        try:
            self._cut(self._file(), self._torn_at)
        except (OSError, SaveError):
            return
        self._torn_at = None

    def _file(self) -> BinaryIO:
        """The append handle, unbuffered: nothing is left in a buffer for a close to
        write (and fail on) later."""
        if self._handle is None:
            try:
                self._handle = open(self.path, "ab", buffering=0)  # noqa: SIM115 - kept open
            except OSError as error:
                raise SaveError(f"{self.path}: cannot be written ({reason(error)}); "
                                "the save holds everything before it") from None
        return self._handle

    def _rewrite(self, keep: int) -> None:
        """Before the first append to a torn or older file: keep the original beside it
        and write what was loaded as a whole, current save."""
        if self._migrated_from is not None:
            backup = self.path.with_name(f"{self.path.name}.version-{self._migrated_from}")
        else:
            backup = self.path.with_name(f"{self.path.name}.damaged-{stamp(self.clock)}")
        try:
            write_atomic(backup, self._original)
        except FolderNotSynced:  # the backup is whole; the sync below covers it
            pass
        except SaveError as error:  # no copy, so no repair: the save is left as it is
            raise SaveError(f"{self.path}: could not save ({error.why or error}: keeping "
                            f"{backup.name} first); the old file is intact",
                            error.why) from None
        text = save_text(self.encounter, self.fight.log[:keep])
        fits(self.path, len(text.encode("utf-8")), "repairing it")
        self._alone(what="the event")
        try:
            write_atomic(self.path, text)
        except FolderNotSynced as error:
            self._replaced()  # repaired, but not surely on disk: the event is not taken
            raise SaveError(f"{self.path}: could not write the event (its folder could not "
                            f"be synced: {error.reason}); the save holds everything before "
                            "it") from None
        self._replaced()
        self.warning = ""

    def _replaced(self) -> None:
        """The file at `path` was just written whole: a new inode, nothing to repair."""
        self._close_file()
        if self._lock is not None:
            self._lock.follow()
        self._repair = False
        self._torn_at = None

    def replace_encounter(self, encounter: Encounter) -> None:
        """Setting up: a new roster (sides and combatants) written atomically. Refused if
        the log so far does not fit it (an event naming a combatant removed), or if ids
        clash or a combatant's side is missing."""
        check_roster(encounter.sides, encounter.combatants)
        fight = Fight(encounter, self.fight.ruleset)
        fight.later = set(self.fight.later)
        for event in self.fight.log:
            fight.push(event)  # raises on a removed combatant still in the log
        unsynced = None
        text = save_text(encounter, list(self.fight.log))
        fits(self.path, len(text.encode("utf-8")), "this roster")
        self._alone(what="the roster")
        try:
            write_atomic(self.path, text)
        except FolderNotSynced as error:
            unsynced = error  # the file has changed all the same: so does the session
        self._replaced()
        self.encounter, self.fight = encounter, fight
        if unsynced is not None:
            raise unsynced

    def save_as(self, path: Path | str, compact: bool = False, replace: bool = True) -> Path:
        """Write the whole fight to `path` atomically; the session goes on there.

        `compact` keeps only the events in effect (undone ones and undo/redo dropped);
        without `replace`, a file already at `path` is never written over (SaveError).
        """
        path = Path(path)
        log = list(self.fight.events) if compact else list(self.fight.log)
        text = save_text(self.encounter, log)
        fits(path, len(text.encode("utf-8")), "saving it" + (" compacted" if compact else ""))
        if path.resolve() == self.path.resolve():
            self._alone()  # a rewrite in place: never with a second name left stale
        moved = None  # a locked session's lock follows it; a target open elsewhere is refused
        if self._lock is not None and not self._lock.covers(path):
            from .lock import SaveLock

            moved = SaveLock.acquire(path)
        unsynced = None
        elsewhere = path.resolve() != self.path.resolve()
        try:
            write_atomic(path, text, replace)
        except FolderNotSynced as error:
            unsynced = error
        except SaveError as error:
            if moved is not None:
                moved.release()
            if elsewhere and error.why:  # the fight's own file was never touched
                raise SaveError(f"{path}: could not save ({error.why}); nothing was written "
                                "there and the old file is intact", error.why) from None
            raise
        except FileExistsError:
            if moved is not None:
                moved.release()
            raise SaveError(f"{path}: exists; nothing was written") from None
        except BaseException:
            if moved is not None:
                moved.release()
            raise
        if unsynced is not None and elsewhere:  # the old file is whole and synced: stay
            if moved is not None:
                moved.release()
            raise SaveError(f"{unsynced}; the fight goes on in {self.path}")
        if elsewhere:
            self._mend()  # the file left behind ends on a whole event, if it can
        if moved is not None:
            assert self._lock is not None  # moved is only set while a lock is held
            self._lock.release()
            self._lock = moved
        self._replaced()
        self.path = path
        if compact:
            self.fight = self.fight.__class__(self.encounter, self.fight.ruleset)
            for event in log:
                self.fight.push(event)
        if unsynced is not None:
            raise unsynced
        return path

    def close(self) -> None:
        """Never raises: every event was fsynced when it was appended."""
        self._mend()
        self._close_file()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _close_file(self) -> None:
        """Let the append handle go; a failing close loses nothing (every event was
        fsynced), so it is not raised over the error being reported."""
        handle, self._handle = self._handle, None
        if handle is not None:
            with suppress(OSError):
                handle.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
