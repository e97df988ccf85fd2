"""Charts as inline SVG, drawn on the server: no script, no chart library.

Each chart is an ``<svg role="img">`` labelled by its own ``<title>`` and
``<desc>``: a screen reader hears the title and a one-sentence summary of the
numbers; the numbers themselves are also written as text in the chart. The
``viewBox`` lets the drawing scale to the width of a phone.

The words in a chart are set in the chart's own units (site.css, ``.chart__label`` and
the rest), larger the narrower the chart is drawn, up to :data:`FONT` units. The room
left of the bars and of the line is measured from the longest words actually shown, at
that size, so no label is cut off or runs into a bar in any language.
"""

from __future__ import annotations

import math
import re
import unicodedata

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

WIDTH = 640
# The largest font size site.css gives a chart's words, in the chart's units (on a phone,
# where 640 units are drawn about 320 pixels wide). tests/test_stats_charts.py checks
# that site.css keeps within it.
FONT = 22
GAP = 8  # between a label and its bar, a bar and its count
MAX_LABEL_SHARE = 0.45  # a longer label wraps onto more lines


def text_em(text: str) -> float:
    """About how wide ``text`` is set, in em: a full-width character (kanji, kana, ・,
    ３) 1em, and a symbol of ambiguous width (·, ※) too; the widest Latin letters about
    1em, capitals 0.75, digits 0.65, narrow letters and punctuation 0.4, the rest 0.62.
    From the site's sans-serif fonts (DejaVu Sans, the widest of them, on Linux), rounded
    up: a little wide, never narrow."""
    width = 0.0
    for ch in text:
        kind = unicodedata.east_asian_width(ch)
        if kind in ("W", "F") or (kind == "A" and not ch.isalpha()) or ch in "mwMW@%—":
            width += 1.0
        elif ch in " .,:;'!|()[]-ijlrtfI\u00a0":
            width += 0.4
        elif ch.isdigit():
            width += 0.65
        elif ch.isupper():
            width += 0.75
        else:
            width += 0.62
    return width


def text_units(text: str, font: float = FONT) -> int:
    """How wide ``text`` is drawn at ``font`` units, rounded up."""
    return math.ceil(text_em(text) * font)


def wrap(text: str, room: float, font: float = FONT) -> list[str]:
    """``text`` in lines of at most ``room`` units: broken at spaces, after a ・ and
    between full-width characters, and mid-word only when a word alone is too long."""
    pieces = re.findall(r"[^\s・]+?(?=[\s・]|$|[\u3000-\u9fff\uff00-\uffef])[\s・]*"
                        r"|[\u3000-\u9fff\uff00-\uffef][\s・]*", text)
    if "".join(pieces) != text:  # a shape the pattern missed: one character at a time
        pieces = list(text)
    lines = [""]
    for piece in pieces:
        if lines[-1] and text_units((lines[-1] + piece).rstrip(), font) > room:
            lines.append("")
        if not lines[-1] and text_units(piece.rstrip(), font) > room:
            for ch in piece:  # a word longer than the line
                if lines[-1] and text_units(lines[-1] + ch, font) > room:
                    lines.append("")
                lines[-1] += ch
            continue
        lines[-1] += piece
    return [line.strip() for line in lines if line.strip()]


def _open(chart_id: str, title: str, description: str, height: int) -> str:
    return (
        f'<svg class="chart" id="{escape(chart_id)}" role="img" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" preserveAspectRatio="xMidYMid meet" '
        f'aria-labelledby="{escape(chart_id)}-title {escape(chart_id)}-desc">'
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>'
        f'<desc id="{escape(chart_id)}-desc">{escape(description)}</desc>'
    )


def _number(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 10 else f"{value:.1f}"


def line_chart(chart_id: str, values: list[float], *, title: str, description: str,
               first_label: str = "", last_label: str = "", height: int = 220) -> SafeString:
    """A line through ``values`` (oldest first), with the range marked on the left."""
    right, top, bottom = 16, 16, 30
    parts = [_open(chart_id, title, description, height)]
    if not values:
        empty = escape(_("No rated games yet."))
        parts.append(f'<text class="chart__empty" x="{WIDTH / 2:.0f}" y="{height / 2:.0f}" '
                     f'text-anchor="middle">{empty}</text></svg>')
        return mark_safe("".join(parts))  # noqa: S308 -- every text above is escaped
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    span = high - low
    # room for the widest number on the axis, written right-aligned left of the plot
    left = max(56, max(text_units(_number(v)) for v in (low, high)) + GAP)
    plot_w, plot_h = WIDTH - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + (plot_w * i / (len(values) - 1) if len(values) > 1 else plot_w / 2)

    def y(v: float) -> float:
        return top + plot_h * (1 - (v - low) / span)

    for v in (low, (low + high) / 2, high):
        parts.append(f'<line class="chart__grid" x1="{left}" x2="{WIDTH - right}" '
                     f'y1="{y(v):.1f}" y2="{y(v):.1f}"/>')
        parts.append(f'<text class="chart__axis" x="{left - 6}" y="{y(v) + 4:.1f}" '
                     f'text-anchor="end">{_number(v)}</text>')
    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts.append(f'<polyline class="chart__line" fill="none" points="{points}"/>')
    last = len(values) - 1
    parts.append(f'<circle class="chart__dot" cx="{x(last):.1f}" cy="{y(values[-1]):.1f}" '
                 'r="4"/>')
    if first_label == last_label:
        first_label = ""  # one day: its date once, not the same at both ends
    if len(values) == 1 and last_label:  # one point: its date under it
        parts.append(f'<text class="chart__axis" x="{x(last):.1f}" y="{height - 8}" '
                     f'text-anchor="middle">{escape(last_label)}</text>')
        last_label = ""
    if first_label:
        parts.append(f'<text class="chart__axis" x="{left}" y="{height - 8}">'
                     f'{escape(first_label)}</text>')
    if last_label:
        parts.append(f'<text class="chart__axis" x="{WIDTH - right}" y="{height - 8}" '
                     f'text-anchor="end">{escape(last_label)}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 -- every text above is escaped


def label_column(labels: list[str]) -> tuple[int, list[list[str]]]:
    """How wide the labels' column is (to the bars' left edge) and each label's lines.

    As wide as the longest label at :data:`FONT` units; one longer than
    :data:`MAX_LABEL_SHARE` of the chart wraps onto more lines instead.
    """
    most = int(WIDTH * MAX_LABEL_SHARE) - GAP
    widest = max((text_units(label) for label in labels), default=0)
    if widest <= most:
        return widest + GAP + 2, [[label] for label in labels]
    lines = [wrap(label, most) for label in labels]
    return max(text_units(line) for ls in lines for line in ls) + GAP + 2, lines


def bar_chart(chart_id: str, bars: list[tuple[str, int]], *, title: str,
              description: str) -> SafeString:
    """Horizontal bars, one row per (label, count), with the count written at the end.

    The labels' column is as wide as the longest label (:func:`label_column`), the
    counts' as the largest count, and the bars have the rest.
    """
    row, top, line = 32, 8, round(FONT * 1.2)
    if not bars:
        height = top * 2 + row
        empty = escape(_("Nothing yet"))
        parts = [_open(chart_id, title, description, height)]
        parts.append(f'<text class="chart__empty" x="{WIDTH / 2:.0f}" y="{height / 2 + 4:.0f}" '
                     f'text-anchor="middle">{empty}</text></svg>')
        return mark_safe("".join(parts))  # noqa: S308 -- every text above is escaped
    label_w, label_lines = label_column([label for label, _count in bars])
    right = max(text_units(str(count)) for _label, count in bars) + GAP + 2
    rows = [row + line * (len(lines) - 1) for lines in label_lines]
    height = top * 2 + sum(rows)
    parts = [_open(chart_id, title, description, height)]
    most = max(count for _, count in bars) or 1
    plot_w = WIDTH - label_w - right
    y = top
    for (_label, count), lines, h in zip(bars, label_lines, rows, strict=True):
        w = plot_w * count / most
        middle = y + h / 2
        # the lines centred on the row, whatever size the stylesheet sets them at
        first = middle - line * (len(lines) - 1) / 2
        if len(lines) == 1:
            words = escape(lines[0])
        else:
            words = "".join(f'<tspan x="{label_w - GAP}" y="{first + n * line:.1f}">'
                            f"{escape(text)}</tspan>" for n, text in enumerate(lines))
        parts.append(f'<text class="chart__label" x="{label_w - GAP}" y="{first:.1f}" '
                     f'text-anchor="end" dominant-baseline="central">{words}</text>')
        parts.append(f'<rect class="chart__bar" x="{label_w}" y="{middle - row / 2 + 5:.1f}" '
                     f'width="{w:.1f}" height="{row - 10}" rx="3"/>')
        parts.append(f'<text class="chart__value" x="{label_w + w + GAP:.1f}" '
                     f'y="{middle:.1f}" dominant-baseline="central">{count}</text>')
        y += h
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 -- every text above is escaped


def describe_counts(bars: list[tuple[str, int]], unit: str) -> str:
    """``"1st: 4 games; 2nd: 2 games."`` -- the chart's numbers in one sentence.

    ``unit`` is "game" or "hand": each has its own messages, so that every
    language can say its plurals its own way.
    """
    if not bars:
        return _("No games yet.") if unit == "game" else _("No hands yet.")
    if unit == "game":
        def entry(label, count):
            return ngettext("%(label)s: %(count)d game", "%(label)s: %(count)d games",
                            count) % {"label": label, "count": count}
    else:
        def entry(label, count):
            return ngettext("%(label)s: %(count)d hand", "%(label)s: %(count)d hands",
                            count) % {"label": label, "count": count}
    return (pgettext("list of counts", "; ").join(entry(label, count) for label, count in bars)
            + pgettext("end of sentence", "."))
