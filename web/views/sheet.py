"""A table's score sheet (`/tables/N/`): the current game, or the one chosen with ?game=N,
with its rounds, its change history and, for a scorer or a director, the round entry form.
The public sees it for a session it may see. What the page shows is built in
`scoring.pages`; entering and correcting rounds is `web.views.entry`, a director's
restore `web.views.restore`."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone

from scoring import pages
from scoring.games import RoundForm
from scoring.models import Game
from tournaments import pagecache
from tournaments.models import Table
from tournaments.permissions import (
    Actor,
    actor_from_request,
    can_score,
    can_view_session,
)


def require_scorer(actor: Actor, game: Game) -> None:
    if not can_score(actor, game.table):
        raise PermissionDenied(
            "Only a director or the holder of this table's scorer link may enter results."
        )


def sheet_url(game: Game) -> str:
    return f"{reverse('scoring:table', args=[game.table_id])}?game={game.number}"


def games_of(table: Table | int) -> list[tuple[int, int]]:
    return list(Game.objects.filter(table=table).order_by("number").values_list("number", "pk"))


def render_game(
    request: HttpRequest,
    game: Game,
    form: RoundForm | None,
    games: list[tuple[int, int]] | None = None,
) -> HttpResponse:
    # The change history's times in the club's time zone (reset after the response by
    # huckley.middleware.TimeZoneResetMiddleware).
    timezone.activate(game.table.sitting.session.club.zone())
    context = pages.game_page(actor_from_request(request), game, form)
    context["games"] = games if games is not None else games_of(game.table_id)
    status = 400 if form is not None and form.is_bound and form.errors else 200
    response = render(request, "scoring/table.html", context, status=status)
    # The service worker keeps the last copy of this page under this generation, and
    # shows it only offline, said to be the last copy seen (static/sw.js).
    current = pagecache.generation(game.table.sitting.session_id)
    if current is not None:
        response["X-Huckley-Generation"] = current
    return response


def table_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The current game at a table, or the game chosen with ?game=N, with the entry form."""
    table = get_object_or_404(Table.objects.select_related("sitting__session__club"), pk=pk)
    actor = actor_from_request(request)
    if not (can_view_session(actor, table.sitting.session) or can_score(actor, table)):
        raise Http404("No such table.")
    games = games_of(table)
    if not games:
        return render(request, "scoring/table.html", {"table": table, "games": [], "game": None})
    wanted = request.GET.get("game")
    chosen = dict(games).get(int(wanted)) if wanted and wanted.isdigit() else None
    game = pages.game_qs().get(pk=chosen or games[-1][1])
    return render_game(request, game, form=None, games=games)
