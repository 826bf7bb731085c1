"""A line widget's lines as Textual's styles would draw them, without drawing them again.

Textual passes each line a widget draws through its styles (padding, borders, tint,
opacity) and then through the app's line filters, into a new strip every time the line is
repainted: on a page turned or a log scrolled by one, every line of the pane, though the
widget hands back the same strip it drew before. For a widget whose styles add nothing to
a line of content but its length (no padding, no side or bottom border, no outline, tint,
opacity or hatch), the line is the widget's own strip brought to the content's width, and
that strip keeps its filtered form: a line drawn before costs a look-up. The lines of a
top border, and any widget with more styling, are drawn by Textual as before."""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

# a widget's top border lines as Textual drew them, by what they were drawn from: the
# border is in every frame that repaints any line of the pane (the frame's region is all
# the lines between the first and the last repainted), and is the same each time
EDGES: WeakKeyDictionary[Widget, tuple[tuple[Any, ...], list[Strip]]] = WeakKeyDictionary()


def plain_lines(widget: Widget, crop: Region) -> list[Strip] | None:
    """The lines of `crop` (as `Widget.render_lines`), or None where the widget's styles
    do more than Textual's plain path (then Textual draws them)."""
    styles = widget.styles
    (_, _), (right, _), (bottom, _), (left, _) = styles.border
    if (right or bottom or left or any(styles.padding) or widget.BLANK
            or any(edge for edge, _ in styles.outline) or styles.tint.a
            or widget.opacity != 1.0 or styles.text_opacity != 1.0
            or (styles.has_rule("hatch") and styles.hatch != "none")):
        return None
    if widget.auto_links:
        hover = widget.hover_style
        if hover._link_id and hover._meta and "@click" in hover.meta:
            return None
    base_background, background = widget.background_colors
    inner = widget._styles_cache.get_inner_outer(base_background, background)[0].rich_style
    region = widget.region  # the compositor's, looked up once
    width = region.width
    content_width, content_height = region.shrink(styles.gutter).size
    top = styles.gutter.top  # a top border's lines: Textual's own
    filters = widget.get_line_filters()
    whole = crop.column_span == (0, width)
    strips: list[Strip] = []
    edge: list[Strip] = []
    if crop.y < top:
        edge = top_border(widget, crop, top, (base_background, background, tuple(filters)))
    for y in crop.line_range:
        if y < top:
            strips.append(edge[y - crop.y])
            continue
        row = y - top
        line = (widget.render_line(row).adjust_cell_length(content_width, inner)
                if row < content_height else Strip.blank(content_width, inner))
        for line_filter in filters:
            line = line.apply_filter(line_filter, background)
        strips.append(line if whole else line.crop(crop.x, crop.right))
    return strips


def top_border(widget: Widget, crop: Region, top: int, looks: tuple[Any, ...]) -> list[Strip]:
    """The lines of the top border in `crop`, as Textual draws them: kept while what they
    are drawn from stays (the size, the border, the colours, the filters; a border
    with a title is drawn each time)."""
    lines = range(crop.y, min(top, crop.bottom))
    if widget.border_title is not None or widget.border_subtitle is not None:
        return [widget._styles_cache.render_widget(widget, Region(crop.x, y, crop.width, 1))[0]
                for y in lines]
    key = (lines, crop.x, crop.width, widget.region.size, widget.styles.border, looks)
    kept = EDGES.get(widget)
    if kept is None or kept[0] != key:
        kept = EDGES[widget] = (key, [
            widget._styles_cache.render_widget(widget, Region(crop.x, y, crop.width, 1))[0]
            for y in lines])
    return kept[1]
