"""Template helpers for the pages: table links, and times in the club's time zone."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone

register = template.Library()


@register.simple_tag
def table_link(pattern: str, table_id: int) -> str:
    """A table's URL from a pattern reversed once per page (see `views.session_public`)."""
    return pattern.format(table_id)


@register.filter
def local_time(value: datetime | None) -> str:
    """ "19:30 (Europe/London)": the time in the active time zone (the club's, on its
    pages), saying which."""
    if value is None:
        return ""
    return f"{timezone.localtime(value):%H:%M} ({timezone.get_current_timezone_name()})"


@register.filter
def local_datetime(value: datetime | None) -> str:
    """ "2026-03-10 19:30 (Europe/London)"."""
    if value is None:
        return ""
    return f"{timezone.localtime(value):%Y-%m-%d %H:%M} ({timezone.get_current_timezone_name()})"
