"""A table's scrollbar: Textual's, its lines kept.

A page turned moves the thumb, and Textual draws the whole bar again through Rich and
its styles: twenty lines of it cost more than the rows of the page. A bar's line is one
of a few kinds (the track above the thumb, the thumb, the track below it, the thumb's
two ends in eighths of a cell), each drawn the same wherever it falls: a bar in a new
place is put together from the kinds drawn before (an end in other eighths is the end
drawn before with its glyph changed), and Textual draws one only when a kind in it has
not been seen yet with these looks."""

from __future__ import annotations

from typing import Any, cast

from rich.cells import cell_len
from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip

Kind = tuple[str, bool, bool, bool, object]


class KeptBar(ScrollBar):
    """Textual's vertical scrollbar, drawn by Textual once for each kind of line."""

    KEEP = 64  # whole bars kept by place (then dropped all at once)
    KINDS = 256  # lines kept by kind and looks (then dropped all at once)

    def __init__(self, vertical: bool = True, name: str | None = None, *,
                 thickness: int = 1) -> None:
        super().__init__(vertical, name, thickness=thickness)
        self.kept: dict[tuple[Any, ...], list[Strip]] = {}
        self.kinds: dict[tuple[Any, Kind], Strip] = {}

    def render_lines(self, crop: Region) -> list[Strip]:
        bar = self.render()  # only what it is drawn from: the drawing is Rich's
        size = self.size
        looks = (size, type(bar), getattr(bar, "style", None),
                 getattr(bar, "thickness", None), self.background_colors,
                 tuple(self.get_line_filters()), self.styles.opacity, self.styles.tint,
                 self.styles.text_opacity)
        key = (looks, getattr(bar, "virtual_size", None), getattr(bar, "window_size", None),
               getattr(bar, "position", None))
        lines = self.kept.get(key)
        if lines is None:
            if len(self.kept) >= self.KEEP:
                self.kept.clear()
            lines = self.kept[key] = self.whole(bar, looks)
        lines = lines[crop.y:crop.bottom]
        if crop.column_span != (0, size.width):
            lines = [line.crop(crop.x, crop.right) for line in lines]
        return lines

    def whole(self, bar: object, looks: tuple[Any, ...]) -> list[Strip]:
        """Every line of the bar: from the kinds drawn before, or drawn by Textual (only
        the lines from the first kind not seen yet to the last)."""
        kinds = self.line_kinds(bar)
        kept = self.kinds
        if kinds is None:
            return self.drawn(self.size.region)
        found: list[Strip | None] = []
        for kind in kinds:
            line = kept.get((looks, kind))
            found.append(line if line is not None else self.derived(looks, kind))
        missing = [y for y, line in enumerate(found) if line is None]
        if missing:
            lines = self.drawn(Region(0, missing[0], self.size.width,
                                      missing[-1] - missing[0] + 1))
            if len(kept) >= self.KINDS:
                kept.clear()
            for y, line in zip(range(missing[0], missing[-1] + 1), lines, strict=True):
                found[y] = kept[looks, kinds[y]] = line
        return cast("list[Strip]", found)

    def drawn(self, crop: Region) -> list[Strip]:
        """The lines of `crop` drawn afresh by Textual (it may still hold the bar from
        before a size it was given without a refresh)."""
        self._styles_cache.clear()
        self._dirty_regions.add(self.size.region)
        return super().render_lines(crop)

    def derived(self, looks: tuple[Any, ...], kind: Kind) -> Strip | None:
        """A thumb's end in eighths not drawn yet, from one drawn in other eighths: the
        same line with the other glyph (its colours and what a click does are the
        same; a glyph is one cell, as wide as any other)."""
        text = kind[0]
        if not text.strip() or cell_len(text) != len(text):
            return None
        for (seen, other), line in list(self.kinds.items()):
            if seen != looks or other[1:] != kind[1:] or len(other[0]) != len(text) \
                    or not other[0].strip() or cell_len(other[0]) != len(other[0]):
                continue
            segments = list(line)
            at = [n for n, segment in enumerate(segments) if segment.text == other[0]]
            if len(at) != 1:
                return None
            segments[at[0]] = segments[at[0]]._replace(text=text)
            made = self.kinds[looks, kind] = Strip(segments, line.cell_length)
            return made
        return None

    def line_kinds(self, bar: object) -> list[Kind] | None:
        """Each line's kind, as Textual's own renderer lays the bar out (None: a bar
        drawn some other way, drawn whole)."""
        if type(bar) is not ScrollBarRender or not self.vertical:
            return None
        height = self.size.height
        # the colours only mark which segments are the thumb's: the looks are Textual's
        laid = ScrollBarRender.render_bar(
            size=height, virtual_size=bar.virtual_size, window_size=bar.window_size,
            position=bar.position, thickness=self.size.width, vertical=True)
        kinds: list[Kind] = []
        for segment in list(laid.segments)[:height]:
            style = segment.style
            if style is None:
                return None
            kinds.append((segment.text, bool(style.reverse), style.color is not None,
                          style.bgcolor is not None, style.meta.get("@mouse.down")))
        return kinds

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.kept.clear()
        self.kinds.clear()
