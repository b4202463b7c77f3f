"""A rating-over-time line chart as inline SVG, drawn on the server: no script, and it
scales to the width of the page (a 360 px phone included) through its viewBox."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

WIDTH = 340
HEIGHT = 180
LEFT = 40  # room for the y labels
RIGHT = 10
TOP = 12
BOTTOM = 26  # room for the x labels


@dataclass(frozen=True)
class ChartPoint:
    label: str  # the day, shown under the first and last point
    value: float


def _fmt(value: float) -> str:
    """A rating as the reader's language writes a number (5.9; 5,9 in Spanish)."""
    return number_format(value, 1)


def line_chart(points: Sequence[ChartPoint], *, title: str) -> SafeString:
    """The points in order, left to right, one step per game; the y axis spans the values
    (and 0, the newcomer's rating), labelled at its ends."""
    if not points:
        return mark_safe("")
    values = [p.value for p in points]
    low = min(*values, 0.0)
    high = max(*values, 0.0)
    if high - low < 1.0:
        high = low + 1.0
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (len(points) - 1) if len(points) > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts = [
        format_html(
            '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}" '
            'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet">',
            WIDTH,
            HEIGHT,
            gettext("%(title)s: from %(first)s to %(last)s over %(games)s")
            % {
                "title": title,
                "first": _fmt(values[0]),
                "last": _fmt(values[-1]),
                "games": ngettext("%(count)d game", "%(count)d games", len(values))
                % {"count": len(values)},
            },
        ),
        format_html("<title>{}</title>", title),
        # the axes, and the newcomer's level (0) as a dashed guide
        format_html(
            '<path d="M{0},{1} V{2} H{3}" fill="none" stroke="#5b5b5b" stroke-width="1"/>',
            LEFT,
            TOP,
            TOP + plot_h,
            LEFT + plot_w,
        ),
        format_html(
            '<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" stroke="#d9d6cc" stroke-dasharray="4 3"/>',
            LEFT,
            LEFT + plot_w,
            f"{y(0.0):.1f}",
        ),
    ]
    for value in sorted({low, high, 0.0}):
        parts.append(
            format_html(
                '<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#5b5b5b" '
                'dominant-baseline="middle">{}</text>',
                LEFT - 4,
                f"{y(value):.1f}",
                _fmt(value),
            )
        )
    parts.append(
        format_html(
            '<polyline points="{}" fill="none" stroke="#1d5e3a" stroke-width="2" '
            'stroke-linejoin="round"/>',
            coords,
        )
    )
    if len(points) <= 60:  # dots stay readable; beyond, the line says it all
        for i, p in enumerate(points):
            parts.append(
                format_html(
                    '<circle cx="{}" cy="{}" r="2.5" fill="#1d5e3a"><title>{}: {}</title></circle>',
                    f"{x(i):.1f}",
                    f"{y(p.value):.1f}",
                    p.label,
                    _fmt(p.value),
                )
            )
    first, last = points[0].label, points[-1].label
    parts.append(
        format_html(
            '<text x="{}" y="{}" font-size="11" fill="#5b5b5b">{}</text>', LEFT, HEIGHT - 6, first
        )
    )
    if len(points) > 1 and last != first:
        parts.append(
            format_html(
                '<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#5b5b5b">{}</text>',
                LEFT + plot_w,
                HEIGHT - 6,
                last,
            )
        )
    parts.append(mark_safe("</svg>"))
    # Every part came from format_html, which escaped the values put into it.
    return mark_safe("".join(parts))
