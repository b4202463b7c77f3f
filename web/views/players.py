"""A signed-in player's own page: where they sit now, their games and past sessions.
It needs an account that a director linked to a Player (in the admin)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.permissions import players_of
from workflow import club_selectors


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """A player's own assignments, games and history, for accounts linked to a Player."""
    page = club_selectors.player_page(players_of(request.user))
    return render(
        request,
        "tournaments/my_games.html",
        {
            "players": page.players,
            "seatings": page.seatings,
            "games": page.games,
            "history": page.history,
        },
    )
