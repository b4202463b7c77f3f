"""Pages anyone may read without an account: the home page, a session's tables and
"find my table", its standings, and a club's season (private sessions are a 404 for
those who may not see them)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import condition

from serving.pages import page_etag, public_page
from tournaments import pagecache
from tournaments.models import BigLoserAward, Club, Season, Session, Sitting
from tournaments.permissions import actor_from_request, can_direct, visible_sessions
from web.views import lists
from web.views.common import live_version, public_session, use_time_zone
from workflow import club_selectors, selectors


def home(request: HttpRequest) -> HttpResponse:
    actor = actor_from_request(request)
    sessions = visible_sessions(actor).select_related("club").order_by("-date", "-id")[:20]
    clubs = Club.objects.order_by("name")
    directed = Club.objects.filter(directors=request.user) if request.user.is_authenticated else []
    return render(
        request,
        "tournaments/home.html",
        {"sessions": sessions, "clubs": clubs, "directed": directed},
    )


def _searched(request: HttpRequest) -> str:
    return request.GET.get("name", "").strip()


# The public's copy of these pages is built once per change of the session and then
# served as stored bytes (serving/pages.py): the crowd after a movement costs
# one cache read a request, not a rendering.
@public_page("session", searched=_searched)
def session_public(request: HttpRequest, pk: int) -> HttpResponse:
    """All tables of the current sitting, and "find my table" by name."""
    session = public_session(request, pk)
    context = _board_context(session, selectors.current_sitting(session), _searched(request))
    context["may_direct"] = can_direct(request.user, session.club_id)
    # The ETag its poll (`session_found`) answers with, stored or not.
    context["live_etag"] = page_etag(request) or live_version(session)
    return render(request, "tournaments/session_public.html", context)


@public_page("found", searched=_searched)
@condition(etag_func=lambda request, pk: live_version(public_session(request, pk)))
def session_found(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Find my table"'s answer alone, for the page's poll (static/live.js): a 304 while
    the session is unchanged, the new table and seat after a movement."""
    session = public_session(request, pk)
    context = _board_context(session, selectors.current_sitting(session), _searched(request))
    response = render(request, "tournaments/_found.html", context)
    response["Cache-Control"] = "no-cache"
    return response


def _board_context(session: Session, sitting: Sitting | None, query: str) -> dict[str, Any]:
    def board() -> list[selectors.BoardTable]:
        # Called by the template only when its cached copy is missing or stale.
        return selectors.sitting_board(sitting) if sitting else []

    return {
        "session": session,
        "sitting": sitting,
        "board": board,
        # "Find my table" shows the player's table only: a phone needs no 250 tables.
        "show_board": bool(sitting) and not query,
        # One URL reversed, the table id filled in per card: reversing 250 times costs.
        "table_url": reverse("scoring:table", args=[0]).replace("/0/", "/{}/"),
        "sitting_out": list(sitting.sit_outs.values_list("player__name", flat=True))
        if sitting and not query
        else [],
        "query": query,
        "found": selectors.find_my_table(session, sitting, query) if query else [],
    }


#: Rows of the standings on one page: 100 rows are about 30 KiB.
STANDINGS_PER_PAGE = 100


@public_page("standings", variant=lists.asked_page, searched=lists.searched)
def session_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The session's standings, a page of 100 at a time, searchable by name."""
    session = public_session(request, pk)
    rows = pagecache.kept(
        session.pk,
        "standings",
        lambda: _standings_rows(session),
        current=page_etag(request),
    )
    found = lists.listing(request, rows, STANDINGS_PER_PAGE)
    if found.elsewhere is not None:
        return redirect(found.elsewhere)
    context = {"session": session, "listing": found, "page": found.page, "query": found.query}
    return render(request, "tournaments/standings.html", context)


def _standings_rows(session: Session) -> tuple[lists.Row, ...]:
    """Every row of the standings, rendered once per change of the session for everyone
    who sees them (a director too): 1,000 rows cost more to render than to store."""
    return lists.render_rows(
        "tournaments/_standings_row.html",
        selectors.session_standings(session),
        lambda row: (row.name,),
        # One URL reversed, the player's id filled in per row.
        {"player_url": reverse("ratings:player", args=[0]).replace("/0/", "/{}/")},
    )


def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    use_time_zone(club)
    seasons = list(club.seasons.all())
    wanted = request.GET.get("season")
    season = next((s for s in seasons if str(s.pk) == wanted), seasons[0] if seasons else None)
    may_direct = can_direct(request.user, club)
    context = {"club": club, "seasons": seasons, "may_direct": may_direct}
    context.update(_season_context(request, club, season, may_direct=may_direct))
    return render(request, "tournaments/club.html", context)


def _season_context(
    request: HttpRequest, club: Club, season: Season | None, *, may_direct: bool
) -> dict[str, Any]:
    awards = BigLoserAward.objects.filter(season__club=club).select_related("season", "player")
    if season is None:
        sessions: Any = []
    elif may_direct:
        sessions = season.sessions.order_by("-date")
    else:
        sessions = visible_sessions(actor_from_request(request)).filter(season=season)
    rows = club_selectors.season_standings_cached(season.pk) if season else []
    return {
        "season": season,
        "rows": rows,
        "sessions": sessions,
        "awards": awards.order_by("-season__starts_on"),
        "suggestion": club_selectors.big_loser_suggestion(season.pk, club.big_loser_criterion)
        if season and may_direct
        else [],
        "award": next((a for a in awards if season and a.season_id == season.pk), None),
        "season_awards": club_selectors.season_awards(season.pk, rows) if season else None,
        "season_closed": bool(season and season.ends_on < timezone.localdate()),
    }
