"""The Textual app. Imported only by `referee` and `referee play`: headless commands
never load Textual."""

from .app import RefereeApp, fresh_demo, known_theme

__all__ = ["RefereeApp", "fresh_demo", "known_theme"]
