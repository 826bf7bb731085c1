"""A full disk, for real: a save on a tiny tmpfs that is filled up while a session (and the
app) writes to it. A failed write at any point is one SaveError whose message says what
the file holds; the session stays open and usable, the fight matches the file, and once
space is freed the next write works and the file loads whole.

The disk is a tmpfs of a few pages mounted for each test (this needs root, as the test
machine and CI run); a filler file takes every free page, so an append writes what fits
in the save's last page and then fails with ENOSPC, leaving a cut-short tail. Failures a
tmpfs never gives (a truncate, an fsync, a close, a rename, the folder's fsync that
fail) are injected on top, at every point a session writes.
"""

from __future__ import annotations

import errno
import io
import os
import random
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from referee.engine import events as ev
from referee.engine.record import replace
from referee.session import store
from referee.session.files import load_save
from referee.session.store import SaveError, Session
from referee.session.writer import event_block
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "demo.toml"
DISK_KB = 256
SLACK = 8  # bytes left in the save's last page: any event is cut short after these


# -- the disk -----------------------------------------------------------------------------


class Disk:
    """A tmpfs of DISK_KB mounted on `folder`, and a filler file to fill it with."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.filler = folder / "filler"

    def check(self) -> None:
        """Never fill anything but the tiny mount (a real disk would fill up too)."""
        stat = os.statvfs(self.folder)
        if not os.path.ismount(self.folder) or stat.f_blocks * stat.f_frsize > 4 * DISK_KB * 1024:
            raise RuntimeError(f"{self.folder} is not the tiny tmpfs: refusing to fill it")

    @property
    def page(self) -> int:
        return os.statvfs(self.folder).f_bsize

    def fill(self) -> None:
        """Every free page taken: a write that needs a new page fails with ENOSPC."""
        self.check()
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            chunk = b"\0" * self.page
            for _ in range(4 * DISK_KB * 1024 // self.page):
                os.write(fd, chunk)
            raise AssertionError("the tiny disk never filled up")
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
        finally:
            os.close(fd)
        assert os.statvfs(self.folder).f_bfree == 0

    def free(self) -> None:
        self.filler.unlink()
        assert os.statvfs(self.folder).f_bfree > 0


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=20, check=False)


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Disk]:
    folder = tmp_path / "disk"
    folder.mkdir()
    # The project's machines (a developer's and CI's) run as root: a tiny tmpfs is the
    # real full disk this test needs, and not having one is a failure, never a skip.
    assert os.geteuid() == 0, "mounting a tmpfs needs root"
    mounted = run("mount", "-t", "tmpfs", "-o", f"size={DISK_KB}k,mode=0755", "tmpfs",
                  str(folder))
    assert mounted.returncode == 0, f"cannot mount a tmpfs here: {mounted.stderr.strip()}"
    try:
        tiny = Disk(folder)
        tiny.check()
        yield tiny
    finally:
        if run("umount", str(folder)).returncode != 0:
            run("umount", "-l", str(folder))  # a handle a failed test left open
        assert not os.path.ismount(folder)


def on_disk(disk: Disk, name: str = "fight.toml") -> Path:
    path = disk.folder / name
    shutil.copyfile(DEMO, path)
    return path


def note(text: str = "a note") -> ev.Note:
    return ev.Note(round=1, text=text)


def pad(session: Session, slack: int = SLACK) -> None:
    """Append a note sized so the save ends `slack` bytes before the end of a page."""
    page = os.statvfs(session.path.parent).f_bsize
    size = session.path.stat().st_size
    base = len(("\n" + event_block(note(""))).encode())
    end = -(-(size + base + slack) // page) * page
    session.append(note("x" * (end - slack - size - base)))
    assert session.path.stat().st_size == end - slack


def blocks(log: list[ev.Event]) -> list[str]:
    return [event_block(e) for e in log]


def matches_the_file(session: Session) -> str:
    """The session's fight is what the file holds; the load warning (a torn tail) or ''."""
    save = load_save(session.path)
    assert blocks(save.fight.log) == blocks(session.fight.log)
    assert save.encounter == session.encounter
    return save.warning


def one_line(error: pytest.ExceptionInfo[SaveError]) -> str:
    """A SaveError, on one line, not chained to the OSError behind it."""
    assert type(error.value) in (SaveError, store.FolderNotSynced)
    assert error.value.__cause__ is None and error.value.__suppress_context__
    message = str(error.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- the session on a full disk ------------------------------------------------------------


def test_append_and_undo_on_a_full_disk_fail_and_the_session_goes_on(disk: Disk):
    path = on_disk(disk)
    session = Session.open(path, lock=True)
    session.append(note("first"))
    pad(session)
    acked = blocks(session.fight.log)
    before = path.read_bytes()
    disk.fill()

    with pytest.raises(SaveError) as error:
        session.append(note("lost: the disk is full"))
    assert one_line(error).endswith("could not write the event (No space left on device); "
                                    "the save holds everything before it")
    assert blocks(session.fight.log) == acked
    assert path.read_bytes() == before  # the SLACK bytes written were taken back

    with pytest.raises(SaveError, match="No space left on device"):
        session.undo()
    assert blocks(session.fight.log) == acked and path.read_bytes() == before
    with pytest.raises(SaveError, match="No space left on device"):
        session.append(note("lost again"))
    assert matches_the_file(session) == ""

    disk.free()
    session.append(note("after"))
    session.undo()
    session.close()
    save = load_save(path)
    assert save.warning == ""
    assert blocks(save.fight.log) == acked + blocks([note("after"), ev.Undo(round=1)])
    assert sorted(p.name for p in disk.folder.iterdir()) == ["fight.toml"]


def fail_take_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system where cutting a file short needs space too (copy-on-write ones)."""
    def cut(handle: Any, size: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(Session, "_cut", staticmethod(cut))


def test_a_take_back_that_fails_leaves_a_tail_the_session_cuts_off_later(disk: Disk,
                                                                         monkeypatch):
    path = on_disk(disk)
    session = Session.open(path, lock=True)
    pad(session)
    acked = blocks(session.fight.log)
    before = path.read_bytes()
    disk.fill()
    fail_take_back(monkeypatch)

    with pytest.raises(SaveError) as error:
        session.append(note("cut short"))
    assert "cut-short end" in one_line(error)
    torn = path.read_bytes()
    assert torn.startswith(before) and len(torn) == len(before) + SLACK  # really cut short
    assert "cut short" in matches_the_file(session)  # loading drops the torn tail

    with pytest.raises(SaveError, match="No space left on device.*cut-short end"):
        session.undo()
    assert blocks(session.fight.log) == acked and path.read_bytes() == torn

    disk.free()
    monkeypatch.undo()
    session.append(note("after"))  # the tail is cut off first
    assert matches_the_file(session) == ""
    session.close()
    assert blocks(load_save(path).fight.log) == acked + blocks([note("after")])
    assert not list(disk.folder.glob("*.damaged-*"))  # cut back, not rewritten


def test_a_tail_still_torn_at_close_is_repaired_by_the_next_session(disk: Disk, monkeypatch):
    path = on_disk(disk)
    session = Session.open(path, lock=True)
    pad(session)
    acked = blocks(session.fight.log)
    disk.fill()
    fail_take_back(monkeypatch)
    with pytest.raises(SaveError):
        session.append(note("cut short"))
    session.close()  # tries to cut the tail off once more, fails, and does not raise
    torn = path.read_bytes()
    monkeypatch.undo()

    session = Session.open(path, lock=True, clock=lambda: 1_800_000_000.0)
    assert "cut short" in session.warning
    assert blocks(session.fight.log) == acked
    with pytest.raises(SaveError, match="could not save .*the old file is intact") as error:
        session.append(note("no room for the repair"))
    one_line(error)
    assert path.read_bytes() == torn and leftovers(disk.folder) == []
    assert blocks(session.fight.log) == acked

    disk.free()
    session.append(note("repaired"))
    session.close()
    save = load_save(path)
    assert save.warning == ""
    assert blocks(save.fight.log) == acked + blocks([note("repaired")])
    backups = list(disk.folder.glob("fight.toml.damaged-*"))
    assert len(backups) == 1 and backups[0].read_bytes() == torn


@pytest.mark.parametrize("operation", ["save_as", "compact", "save_elsewhere", "setup"])
def test_a_whole_save_on_a_full_disk_leaves_the_old_file(disk: Disk, operation: str):
    path = on_disk(disk)
    session = Session.open(path, lock=True)
    for n in range(40):  # more than the last page's slack can hold
        session.append(note(f"note {n} " + "x" * 40))
    before = path.read_bytes()
    encounter = session.encounter
    disk.fill()
    with pytest.raises(SaveError, match="No space left on device.*the old file is intact") as error:
        if operation == "setup":
            session.replace_encounter(replace(encounter, title="renamed"))
        elif operation == "save_elsewhere":
            session.save_as(disk.folder / "other.toml")
        else:
            session.save_as(path, compact=operation == "compact")
    one_line(error)
    assert path.read_bytes() == before and session.path == path
    assert session.encounter is encounter
    assert leftovers(disk.folder) == [] and not (disk.folder / "other.toml").exists()
    assert matches_the_file(session) == ""
    disk.free()
    session.append(note("after"))
    session.close()
    assert load_save(path).fight.log[-1] == note("after")


# -- every point a write can fail at --------------------------------------------------------


class FaultyFile(io.FileIO):
    """The session's files, failing where `Faults` says: a write takes half and fails, a
    truncate fails, a close closes and then reports a failure."""

    faults: set[str] = set()

    def write(self, data: Any) -> int:
        if "write" in self.faults:
            super().write(bytes(data)[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return super().write(data)

    def truncate(self, size: int | None = None) -> int:
        if "truncate" in self.faults:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return super().truncate(size)

    def close(self) -> None:
        was_open = not self.closed
        super().close()
        if was_open and "close" in self.faults:
            raise OSError(errno.EIO, os.strerror(errno.EIO))


class Faults:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.active: set[str] = set()
        FaultyFile.faults = self.active

        def opened(file: Any, mode: str = "r", buffering: int = -1) -> FaultyFile:
            assert buffering == 0  # a buffered handle's close would write (and fail) again
            return FaultyFile(file, mode)

        def failing(point: str, real: Callable[..., Any]) -> Callable[..., Any]:
            def call(*args: Any, **kwargs: Any) -> Any:
                if point in self.active:
                    raise OSError(errno.EIO, os.strerror(errno.EIO))
                return real(*args, **kwargs)
            return call

        monkeypatch.setattr(store, "open", opened, raising=False)
        monkeypatch.setattr(os, "fsync", failing("fsync", os.fsync))
        monkeypatch.setattr(os, "replace", failing("rename", os.replace))
        monkeypatch.setattr(tempfile, "mkstemp", failing("mkstemp", tempfile.mkstemp))
        monkeypatch.setattr(store, "fsync_folder", failing("folder", store.fsync_folder))

    @contextmanager
    def on(self, *points: str) -> Iterator[None]:
        self.active.update(points)
        try:
            yield
        finally:
            self.active.clear()


FAULTS = [("write",), ("fsync",), ("write", "truncate"), ("fsync", "truncate"),
          ("write", "truncate", "close"), ("close",), ("mkstemp",), ("rename",), ("folder",)]
OPERATIONS = ["append", "undo", "save_as", "compact", "save_elsewhere", "setup", "repair",
              "close"]


def reached(faults: tuple[str, ...], operation: str) -> bool:
    """Whether the operation gets to a point that fails (an append neither renames nor
    closes a file; closing only closes)."""
    if operation == "close":
        return False
    if operation in ("append", "undo"):
        return bool({"write", "fsync"} & set(faults))
    return True


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("faults", FAULTS, ids="+".join)
def test_a_failure_at_any_point_is_one_message_and_the_session_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, faults: tuple[str, ...],
        operation: str):
    path = tmp_path / "fight.toml"
    shutil.copyfile(DEMO, path)
    fault = Faults(monkeypatch)
    if operation == "repair":  # a torn save: the next append rewrites it whole
        with Session.open(path) as session:
            session.append(note("torn"))
        text = path.read_bytes()
        path.write_bytes(text[: text.rindex(b"round")])
    session = Session.open(path, lock=True, clock=lambda: 1_800_000_000.0)
    if operation != "repair":
        session.append(note("first"))
    raised = None
    with fault.on(*faults):
        try:
            if operation in ("append", "repair"):
                session.append(note("second"))
            elif operation == "undo":
                session.undo()
            elif operation == "setup":
                session.replace_encounter(replace(session.encounter, title="renamed"))
            elif operation == "save_elsewhere":
                session.save_as(tmp_path / "other.toml")
            elif operation == "close":
                session.close()
                session = Session.open(path, lock=True)
            else:
                session.save_as(path, compact=operation == "compact")
        except SaveError as error:
            raised = error
    assert (raised is not None) == reached(faults, operation), raised
    if raised is not None:
        assert "\n" not in str(raised) and raised.__cause__ is None
        if "folder" in faults:
            assert "could not be synced" in str(raised)
        elif operation in ("append", "undo"):
            assert "the save holds everything before it" in str(raised)
        else:
            assert "the old file is intact" in str(raised)
    if operation in ("append", "undo") and faults == ("fsync", "truncate"):
        # written whole but neither synced nor taken back: the file shows the event until
        # the session cuts it off (before its next write, or on closing)
        shown = blocks(load_save(path).fight.log)
        assert shown[: len(session.fight.log)] == blocks(session.fight.log)
        assert len(shown) > len(session.fight.log)
    else:
        torn = "cut short" in matches_the_file(session)  # whatever happened, as the file says
        assert torn == (operation in ("append", "undo") and "truncate" in faults
                        or operation == "repair" and raised is not None
                        and "folder" not in faults)
    assert leftovers(tmp_path) == []

    session.append(note("after"))  # the faults gone, the session goes on
    assert matches_the_file(session) == ""
    session.close()
    assert load_save(session.path).fight.log[-1] == note("after")


# -- the app on a full disk ----------------------------------------------------------------


@pytest.mark.parametrize("torn", [False, True], ids=["taken-back", "torn"])
async def test_the_app_shows_a_full_disk_and_goes_on(disk: Disk, monkeypatch, torn: bool):
    from referee.app import RefereeApp
    from referee.app.combat import CombatScreen
    from referee.app.forms import FormScreen

    path = on_disk(disk)
    shown: list[tuple[str, str | None]] = []
    real_notify = RefereeApp.notify

    def notify(self: RefereeApp, message: str, **kw: Any) -> None:
        shown.append((message, kw.get("severity")))
        real_notify(self, message, **kw)

    monkeypatch.setattr(RefereeApp, "notify", notify)
    cut = Session.__dict__["_cut"]
    app = RefereeApp(path, disk.folder, random.Random(3), clock=lambda: 1000.0)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.table
        await pilot.press("g", "enter")  # brann declares; there is room
        assert set(table.declared()) == {"brann"}
        pad(app.session)
        acked = blocks(table.fight.log)
        disk.fill()
        if torn:
            fail_take_back(monkeypatch)

        await pilot.press("d", "enter")  # zed, next under the cursor: kept open, as typed
        form = app.screen
        assert isinstance(form, FormScreen)
        assert "could not write the event (No space left on device)" in form.fault()
        await pilot.press("escape")
        await pilot.press("ctrl+z")
        errors = [m for m, severity in shown if severity == "error"]
        assert len(errors) == 1, shown
        assert all("could not write the event (No space left on device)" in m for m in errors)
        assert isinstance(app.screen, CombatScreen) and app.is_running
        assert blocks(table.fight.log) == acked and set(table.declared()) == {"brann"}
        assert ("cut short" in matches_the_file(app.session)) == torn

        disk.free()
        monkeypatch.setattr(Session, "_cut", cut)
        await pilot.press("d", "enter")
        assert set(table.declared()) == {"brann", "zed"}
        await pilot.press("ctrl+z")
        assert set(table.declared()) == {"brann"}
        # one: the undo (the declaration was refused in its form)
        assert len([m for m, severity in shown if severity == "error"]) == 1
        await pilot.press("q")
    save = load_save(path)
    assert save.warning == ""
    assert [e.TYPE for e in save.fight.log][-3:] == ["note", "declare", "undo"]
