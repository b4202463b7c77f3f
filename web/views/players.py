"""A signed-in player's own page: where they sit now, their games and past sessions.
It needs an account that a director linked to a Player (in the admin)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from play.models import SeatLink
from tournaments.permissions import players_of
from workflow.club import selectors as club_selectors


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """A player's own assignments, games and history, for accounts linked to a Player."""
    page = club_selectors.player_page(players_of(request.user))
    # The player's own seat link at an online table (docs/tournament.md, "Playing online").
    links = dict(
        SeatLink.objects.filter(
            player__in=page.players, session_id__in=[s.sitting.session_id for s in page.seatings]
        ).values_list("session_id", "token")
    )
    seat_urls = {
        s.pk: reverse("tournaments:play", args=[links[s.sitting.session_id]])
        for s in page.seatings
        if s.table.online and s.sitting.session_id in links
    }
    return render(
        request,
        "tournaments/my_games.html",
        {
            "players": page.players,
            "seatings": [(s, seat_urls.get(s.pk)) for s in page.seatings],
            "games": page.games,
            "history": page.history,
        },
    )
