"""Template helpers for the public pages."""

from __future__ import annotations

from django import template

register = template.Library()


@register.simple_tag
def table_link(pattern: str, table_id: int) -> str:
    """A table's URL from a pattern reversed once per page (see `views.session_public`)."""
    return pattern.format(table_id)
