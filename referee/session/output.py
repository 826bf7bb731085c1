"""Where a command writes what it makes (`-o FILE`, save as, a copied demo): never over
what it reads, never over an existing file unless the referee says so, and all at once.

Every output path goes through `claim` first and is written by `write_output`: a file
that is one of the inputs (by identity, so a symlink, a hard link or `..` is caught too)
is refused even when asked to replace it, as is anything that is not a regular file; an
existing file is refused unless `force`. The text goes to a temporary file beside the
target and is renamed into place, so a failure leaves what was there as it was; without
`force` the rename is a link that fails if a file appeared meanwhile, never a replace.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from .store import SaveError, write_atomic


class OutputRefused(SaveError):
    """The output path may not be written: nothing was."""


def same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


FORCE = "--force replaces it"


def claim(target: Path, inputs: Iterable[Path] = (), force: bool = False,
          how: str = FORCE) -> None:
    """Refuse `target` (OutputRefused, saying why and what to do) unless it may be
    written: not an input, not an existing file unless `force`, a regular file if it is
    anything. `how` says how to replace an existing file on purpose."""
    try:
        found = target.stat()  # follows a symlink: the file it names is what is written over
    except FileNotFoundError:
        found = None
    except OSError as error:
        raise OutputRefused(f"{target}: cannot write it ({error.strerror or error}); "
                            "nothing was written") from None
    if found is None:
        if target.is_symlink():  # a dangling link: writing would replace the link itself
            raise OutputRefused(f"{target}: is a symbolic link to a missing file; "
                                "nothing was written")
        return
    for source in inputs:
        try:
            if same_file(found, source.stat()):
                raise OutputRefused(f"{target}: is {source} itself, which this reads; "
                                    "write to another file (nothing was written)")
        except FileNotFoundError:
            continue
    if not stat.S_ISREG(found.st_mode):
        raise OutputRefused(f"{target}: is not a regular file; nothing was written")
    if not force:
        raise OutputRefused(f"{target}: exists; {how} (nothing was written)")


def write_output(target: Path, text: str, inputs: Iterable[Path] = (),
                 force: bool = False) -> None:
    """`text` written to `target` after `claim` allows it, atomically."""
    inputs = tuple(inputs)
    claim(target, inputs, force)
    try:
        write_atomic(target, text, replace=force)
    except FileExistsError:  # it appeared between the claim and the rename
        raise OutputRefused(f"{target}: exists; {FORCE} (nothing was written)") from None
