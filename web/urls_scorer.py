"""The URLs of a table's scorer: opening a scorer link or a table card, and entering,
correcting and deleting rounds at the score sheet.

Grouped by URL namespace (`web.urls` includes each namespace once, whatever the audience).
"""

from __future__ import annotations

from django.urls import URLPattern, path

from common import tokens  # noqa: F401  # registers <token:...>
from web.views import calls, entry, scorers

ROUTES: dict[str, list[URLPattern]] = {
    "tournaments": [
        path("score/<token:token>/", scorers.scorer_open, name="scorer_open"),
        path("t/<token:token>/", scorers.table_card, name="table_card"),
        path("c/<token:token>/", scorers.club_card, name="club_card"),
    ],
    "scoring": [
        path("tables/<int:pk>/call/", calls.table_call, name="table_call"),
        path("games/<int:pk>/rounds/", entry.round_enter, name="round_enter"),
        path("games/<int:pk>/rounds/<int:number>/edit/", entry.round_edit, name="round_edit"),
        path("games/<int:pk>/rounds/<int:number>/delete/", entry.round_delete, name="round_delete"),
    ],
}
