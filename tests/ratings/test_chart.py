"""The rating chart (ratings/chart.py) writes its numbers, and the player page its days,
as the reader's language does."""

from __future__ import annotations

from django.utils import translation

from ratings.chart import ChartPoint, line_chart
from web.views.ratings import _day


def chart_in(language: str) -> str:
    with translation.override(language):
        points = [ChartPoint(_day("2026-11-26"), 0.0), ChartPoint(_day("2026-11-27"), 5.94)]
        return str(line_chart(points, title="Ann"))


def test_the_charts_numbers_and_days_follow_the_language() -> None:
    spanish, english = chart_in("es"), chart_in("en-us")
    assert ">5,9<" in spanish
    assert ">26/11/2026<" in spanish
    assert ">5.9<" in english
    assert ">11/26/2026<" in english
