"""Charts as inline SVG, drawn on the server: no script, no chart library.

Each chart is an ``<svg role="img">`` labelled by its own ``<title>`` and
``<desc>``: a screen reader hears the title and a one-sentence summary of the
numbers; the numbers themselves are also written as text in the chart. The
``viewBox`` lets the drawing scale to the width of a phone.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

WIDTH = 640


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
    left, right, top, bottom = 56, 16, 16, 30
    plot_w, plot_h = WIDTH - left - right, height - top - bottom
    parts = [_open(chart_id, title, description, height)]
    if not values:
        parts.append(f'<text class="chart__empty" x="{WIDTH / 2:.0f}" y="{height / 2:.0f}" '
                     'text-anchor="middle">No rated games yet</text></svg>')
        return mark_safe("".join(parts))  # noqa: S308 -- every text above is escaped
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    span = high - low

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
    if first_label:
        parts.append(f'<text class="chart__axis" x="{left}" y="{height - 8}">'
                     f'{escape(first_label)}</text>')
    if last_label:
        parts.append(f'<text class="chart__axis" x="{WIDTH - right}" y="{height - 8}" '
                     f'text-anchor="end">{escape(last_label)}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 -- every text above is escaped


def bar_chart(chart_id: str, bars: list[tuple[str, int]], *, title: str,
              description: str) -> SafeString:
    """Horizontal bars, one row per (label, count), with the count written at the end."""
    row, top, label_w, right = 28, 8, 150, 56
    height = top * 2 + row * max(len(bars), 1)
    parts = [_open(chart_id, title, description, height)]
    if not bars:
        empty = escape(_("Nothing yet"))
        parts.append(f'<text class="chart__empty" x="{WIDTH / 2:.0f}" y="{height / 2 + 4:.0f}" '
                     f'text-anchor="middle">{empty}</text></svg>')
        return mark_safe("".join(parts))  # noqa: S308 -- every text above is escaped
    most = max(count for _, count in bars) or 1
    plot_w = WIDTH - label_w - right
    for i, (label, count) in enumerate(bars):
        y = top + i * row
        w = plot_w * count / most
        parts.append(f'<text class="chart__label" x="{label_w - 8}" y="{y + row * 0.65:.1f}" '
                     f'text-anchor="end">{escape(label)}</text>')
        parts.append(f'<rect class="chart__bar" x="{label_w}" y="{y + 4}" width="{w:.1f}" '
                     f'height="{row - 8}" rx="3"/>')
        parts.append(f'<text class="chart__value" x="{label_w + w + 6:.1f}" '
                     f'y="{y + row * 0.65:.1f}">{count}</text>')
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
