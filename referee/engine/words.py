"""Numbers in words as a referee says them: "1 round", "2 rounds", never a "(s)"."""

from __future__ import annotations


def counted(count: int, word: str, plural: str | None = None) -> str:
    """`count` and `word`, the plural (`word` + "s" unless given) for any count but 1."""
    return f"{count} {word}" if count == 1 else f"{count} {plural or word + 's'}"
