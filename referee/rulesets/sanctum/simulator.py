"""The simulator the fights and the odds run on: sim.py compiled by mypyc where it was
built (`make` builds it when a C compiler is found: a run in about 40% of the time), or
sim.py itself.

The compiled module, `_simc`, is sim.py's own text with sim.py's fingerprint appended
(tools/compile_sim.py). It is taken only while that fingerprint is still sim.py's: a
simulator changed since the build is never shadowed by the old one; its runs are sim.py's
until `make` builds it again. Both draw the same from the same seed
(tests/test_sanctum_compiled.py), so an answer never depends on which one ran.

`sim` is read where a fight or the odds begin, never kept: a roster and the runs over it
come from one module (a compiled run takes only the compiled module's roster).
"""

from __future__ import annotations

import hashlib
from types import CodeType, ModuleType
from typing import TYPE_CHECKING, Any

from . import sim as pure

# what a fingerprint reads of a module's plain values (the rest: their type's name)
_PLAIN = (bool, int, float, str, bytes, type(None))


def fingerprint(module: ModuleType) -> str:
    """A digest of what `module` does: the code of every function and method defined in
    it (with their constants, names and defaults), its classes' bases and its plain values.
    Equal for a module and its source compiled again; changed by an edit of what any of
    them does (an edit of annotations or comments alone leaves it: nothing runs
    differently)."""
    digest = hashlib.sha256()
    for name, value in sorted(vars(module).items()):
        if not name.startswith("__"):
            digest.update(name.encode())
            _feed(digest, value, module.__name__)
    return digest.hexdigest()


def _feed(digest: Any, value: Any, home: str) -> None:
    if isinstance(value, type) and value.__module__ == home:
        digest.update(repr([base.__qualname__ for base in value.__bases__]).encode())
        for name, member in sorted(vars(value).items()):
            if name not in ("__dict__", "__weakref__", "__module__", "__doc__"):
                digest.update(name.encode())
                _feed(digest, member, home)
    elif isinstance(value, (staticmethod, classmethod)):
        _feed(digest, value.__func__, home)
    elif isinstance(value, property):
        for part in (value.fget, value.fset, value.fdel):
            _feed(digest, part, home)
    elif callable(value) and getattr(value, "__module__", None) == home:
        code = getattr(value, "__code__", None)
        if code is not None:
            _feed_code(digest, code)
        digest.update(repr(getattr(value, "__defaults__", None)).encode())
    else:
        digest.update(_shape(value).encode())


def _feed_code(digest: Any, code: CodeType) -> None:
    digest.update(code.co_code)
    digest.update(repr((code.co_names, code.co_varnames, code.co_freevars)).encode())
    for const in code.co_consts:
        if isinstance(const, CodeType):
            _feed_code(digest, const)
        else:  # (a set's order changes from one process to the next: _shape sorts it)
            digest.update(_shape(const).encode())


def _shape(value: Any) -> str:
    """A plain value (and containers of them) as written; anything else by its type."""
    if isinstance(value, _PLAIN):
        return repr(value)
    if isinstance(value, (tuple, list, frozenset, set)):
        items = sorted(map(_shape, value)) if isinstance(value, (set, frozenset)) else map(
            _shape, value)
        return f"{type(value).__name__}({','.join(items)})"
    if isinstance(value, dict):
        return "dict(" + ",".join(f"{_shape(k)}:{_shape(v)}" for k, v in value.items()) + ")"
    return type(value).__name__


def compiled() -> ModuleType | None:
    """The compiled simulator, if it was built from sim.py as it is now."""
    try:
        from . import _simc  # type: ignore[attr-defined]
    except ImportError:  # not built here (no C compiler), or built for another Python
        return None
    found: ModuleType = _simc
    return found if getattr(found, "FINGERPRINT", None) == fingerprint(pure) else None


sim = pure
if not TYPE_CHECKING:  # typed as sim.py: the compiled module is sim.py's own
    sim = compiled() or pure
