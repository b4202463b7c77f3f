"""The URLs of a signed-in player's own pages.

Grouped by URL namespace (`web.urls` includes each namespace once, whatever the audience).
"""

from __future__ import annotations

from django.urls import URLPattern, path

from web.views import players

ROUTES: dict[str, list[URLPattern]] = {
    "tournaments": [
        path("me/", players.my_games, name="my_games"),
    ],
}
