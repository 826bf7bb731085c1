"""One referee at a time on a save: an advisory lock held while a session is open for play.

The lock is `flock(LOCK_EX | LOCK_NB)` on a sidecar `.<name>.lock` beside the save, not on
the save itself: the session replaces the save atomically (set-up, save as, repair), which
gives the path a new inode, and a lock on the old inode would no longer guard the path.
The kernel drops an flock when its holder exits or is killed, so a sidecar left behind by a
dead referee never blocks: the flock is the truth, the pid written in the sidecar only names
the holder in the message. Where the sidecar cannot be made (a folder we may not write,
where the save cannot be replaced either) the save itself is locked.

The save itself is locked too, by its identity (its inode): a hard link gives the same
file a second name, and so a second sidecar, but not a second inode. When the session
replaces the file, the lock moves to the new inode (`follow`).

Reading commands (plan, replay, check, export) never lock.
"""

from __future__ import annotations

import os
import stat
from contextlib import suppress
from pathlib import Path

from .errors import SaveError

try:
    import fcntl
except ImportError:  # pragma: no cover - no flock on this platform: nothing is locked
    fcntl = None  # type: ignore[assignment]


class SaveLocked(SaveError):
    """Another referee (another process, or another session in this one) has the save open."""

    def __init__(self, path: Path, pid: int | None) -> None:
        self.path, self.pid = path, pid
        holder = f" (pid {pid})" if pid else ""
        super().__init__(f"{path}: already open in another referee{holder}; close it there first")


def sidecar(path: Path) -> Path:
    """`.<name>.lock` beside the file itself (through a symlink: beside its target)."""
    with suppress(OSError, RuntimeError):  # a symlink loop: reading it will say so
        path = path.resolve()
    return path.with_name(f".{path.name}.lock")


class SaveLock:
    """Held from `acquire` until `release` (or the process ends)."""

    def __init__(self, path: Path, fd: int | None, side: Path | None) -> None:
        self.path = path
        self._fd = fd
        self._sidecar = side
        self._file: int | None = None  # the save's own inode, locked beside the sidecar

    @classmethod
    def acquire(cls, path: Path | str) -> SaveLock:
        """The lock on `path`, or SaveLocked at once (never waits)."""
        path = Path(path)
        if fcntl is None:  # pragma: no cover
            return cls(path, None, None)
        side = sidecar(path)
        for _ in range(8):
            try:
                fd = os.open(side, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError:
                return cls._on_the_save(path)
            if not cls._flock(fd, path, side):
                return cls(path, None, None)
            try:  # a holder releasing unlinks the sidecar: ours must still be the one there
                current = os.path.samestat(os.fstat(fd), os.stat(side))
            except OSError:
                current = False
            if current:
                with suppress(OSError):  # the pid is only a hint
                    os.ftruncate(fd, 0)
                    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
                lock = cls(path, fd, side)
                lock._hold_file()
                return lock
            os.close(fd)
        raise SaveError(f"{path}: could not be locked (its lock file keeps changing)")

    @classmethod
    def _on_the_save(cls, path: Path) -> SaveLock:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            return cls(path, None, None)  # nothing to guard: reading it will say why
        return cls(path, fd if cls._flock(fd, path, None) else None, None)

    @staticmethod
    def _flock(fd: int, path: Path, side: Path | None) -> bool:
        """True when locked; SaveLocked when someone holds it; False (and `fd` closed) where
        the file system has no locks, so a referee is not refused over it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            pid = holder(fd) if side is not None else None
            os.close(fd)
            raise SaveLocked(path, pid) from None
        except OSError:
            os.close(fd)
            return False

    def _hold_file(self) -> None:
        """Lock the save's inode too; SaveLocked (the sidecar let go) when another name of
        the same file is open in a referee. A file not there yet is locked by `follow`."""
        try:
            fd = open_file(self.path)
        except OSError:
            return
        if fd is None:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            self.release()
            raise SaveLocked(self.path, None) from None
        except OSError:  # no locks on this file system
            os.close(fd)
            return
        self._file = fd

    def follow(self) -> None:
        """The save was replaced (a new inode): its lock moves to the new one."""
        if self._fd is None or self._sidecar is None:
            return
        old, self._file = self._file, None
        try:
            self._hold_file()
        except SaveLocked:  # cannot happen to a file just written; keep what was held
            self._file = old
            return
        if old is not None:
            with suppress(OSError):
                os.close(old)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def covers(self, path: Path | str) -> bool:
        return Path(path).resolve() == self.path.resolve()

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        if self._file is not None:
            with suppress(OSError):
                os.close(self._file)
            self._file = None
        if self._sidecar is not None:
            with suppress(OSError):
                self._sidecar.unlink()  # still ours: only the holder unlinks it
        with suppress(OSError):  # the fd is gone either way; closing never fails a close
            os.close(fd)

    def __enter__(self) -> SaveLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def open_file(path: Path) -> int | None:
    """A descriptor on the regular file at `path` (None: it is something else), opened
    without waiting (a pipe would block an ordinary open)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


def holder(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def ensure_free(path: Path | str) -> None:
    """SaveLocked if another referee has `path` open; nothing is held afterwards."""
    SaveLock.acquire(path).release()
