"""The player page: public, read-only."""

from __future__ import annotations

from datetime import date as Date

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format
from django.utils.translation import gettext

from common import languages
from common.errors import UserError
from ratings import selectors
from ratings.chart import ChartPoint, line_chart
from tournaments.models import Club, Player, rules_choices
from tournaments.permissions import can_direct, visible_sessions


def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """What the visitor may see of a player: their games in the sessions the visitor may
    see (tournaments.permissions), all of them for the club's directors. A player in
    no such session is a 404, as a private session is."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    seen = None if can_direct(request.user, player.club_id) else visible_sessions(request.user)
    if seen is not None and not selectors.player_sessions(player).filter(pk__in=seen).exists():
        raise Http404("No such player.")
    languages.use_club_language(player.club.language)
    summary = selectors.player_summary(player, seen=seen)
    games = dict(rules_choices())
    ratings = [
        {
            "rules_id": h.rules_id,
            "rules_name": games.get(h.rules_id, h.rules_id),
            "rating": h.rating,
            "chart": line_chart(
                [ChartPoint(label=_day(p.day), value=p.ordinal) for p in h.points],
                title=gettext("%(player)s's %(game)s rating")
                % {
                    "player": player.name,
                    "game": dict(rules_choices()).get(h.rules_id, h.rules_id),
                },
            ),
        }
        for h in summary.histories
    ]
    return render(
        request,
        "ratings/player.html",
        {"player": player, "summary": summary, "ratings": ratings},
    )


def club_ratings_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    languages.use_club_language(club.language)
    wanted = request.GET.get("rules")
    rules_id = wanted or selectors.club_usual_rules(club.pk) or "huckley-buck"
    names = dict(rules_choices())
    if rules_id not in names:
        known = ", ".join(names)
        return render(
            request,
            "error.html",
            {
                "error": UserError(
                    "unknown_rules",
                    gettext("“%(rules_id)s” is not a rules id; use one of: %(known)s.")
                    % {"rules_id": rules_id, "known": known},
                )
            },
            status=400,
        )
    return render(
        request,
        "ratings/club.html",
        {
            "club": club,
            "rules_id": rules_id,
            "rules_choices": rules_choices(),
            "rows": selectors.club_ratings(club.pk, rules_id),
        },
    )


def _day(iso: str) -> str:
    """A chart's day ("2026-11-26") as the reader's language writes a date."""
    try:
        return date_format(Date.fromisoformat(iso), "SHORT_DATE_FORMAT")
    except ValueError:
        return iso
