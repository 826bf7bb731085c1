"""The Textual app. Imported only by `referee` and `referee play`: headless commands
never load Textual. The app's names are looked up when first asked for, so that a module
of the package imported alone (`referee serve`'s referee.app.serving) loads no more."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import RefereeApp, fresh_demo, known_theme

__all__ = ["RefereeApp", "fresh_demo", "known_theme"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
