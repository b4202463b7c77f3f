"""A table's score sheet (`/tables/N/`): the current game, or the one chosen with ?game=N,
with its rounds, its change history and, for a scorer or a director, the round entry form.
The public sees it for a session it may see. What the page shows is built in
`scoring.pages`; entering and correcting rounds is `web.views.entry`, a director's
restore `web.views.restore`."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from common import languages
from play import duplicate
from play.replay import card_label, game_replays
from scoring import pages
from scoring.games import RoundForm
from scoring.models import Game
from tournaments.models import ClubTableCard, ScorerLink, Table, TableCard
from tournaments.permissions import (
    SESSION_KEY,
    Actor,
    actor_from_request,
    can_score,
    can_view_session,
)
from web.views.calls import call_context
from workflow.tables import card_selectors


def require_scorer(actor: Actor, game: Game) -> None:
    """Refuses anyone but the table's scorers and the club's directors; the page and the
    messages that follow are in the club's language, as its score sheet is."""
    languages.use_club_language(game.table.sitting.session.club.language)
    if not can_score(actor, game.table):
        raise PermissionDenied(
            gettext("Only a director or the holder of this table's scorer link may enter results.")
        )


def sheet_url(game: Game) -> str:
    return f"{reverse('scoring:table', args=[game.table_id])}?game={game.number}"


def games_of(table: Table | int) -> list[tuple[int, int]]:
    return list(Game.objects.filter(table=table).order_by("number").values_list("number", "pk"))


def card_after_movement(request: HttpRequest, table: Table) -> dict[str, Any] | None:
    """Once the sitting's movement is confirmed, where this table's card leads now: the
    card this browser came in by (its scorer link's), else the session's card of the
    table's number. `url` opens the card (and lets its scorer score the new table)."""
    if table.sitting.moved_at is None:
        return None
    tokens = request.session.get(SESSION_KEY, []) if hasattr(request, "session") else []
    link = (
        ScorerLink.objects.filter(table=table, token__in=tokens)
        .exclude(card=None, club_card=None)
        .select_related("card", "club_card")
        .first()
    )
    card: TableCard | ClubTableCard | None = None
    if link is not None:
        card = link.card or link.club_card
    if card is None:
        card = TableCard.objects.filter(
            session_id=table.sitting.session_id, number=table.number, replaced_at__isnull=True
        ).first()
    if card is None:
        return None
    if isinstance(card, TableCard):
        target = card_selectors.session_card_target(card)
        url = reverse("tournaments:table_card", args=[card.token])
    else:
        target = card_selectors.club_card_target(card, table.sitting.session_id)
        url = reverse("tournaments:club_card", args=[card.token])
    if target.table is None:
        return {"number": card.number, "reason": target.reason}
    return {
        "number": card.number,
        "url": url,
        "table_number": target.table.number,
        "sitting": target.table.sitting.number,
    }


def replays(game: Game, sheet: dict[str, Any]) -> list[dict[str, Any]]:
    """The game's stored rounds that carry their cards (every round played online), each
    ready to replay card by card (`play.replay`, `static/replay.js`) and listed trick by
    trick for a page without JavaScript."""
    # The score sheet has read the players in seat order and the rounds: no query more.
    rounds = [(row["number"], row["data"]) for row in sheet["rows"]]
    found = game_replays(game.rules_id, sheet["players"], rounds)
    return [
        {
            "number": r.number,
            "hands": [(p, [card_label(c) for c in r.start[p]]) for p in r.players],
            "before": r.before,
            "tricks": [
                ([(p, card_label(c)) for p, c in trick], winner)
                for trick, winner in zip(r.tricks, r.winners, strict=True)
            ],
            "json": r.as_json(),
            "json_id": f"replay-data-{r.number}",
        }
        for r in found
    ]


def render_game(
    request: HttpRequest,
    game: Game,
    form: RoundForm | None,
    games: list[tuple[int, int]] | None = None,
) -> HttpResponse:
    # The change history's times in the club's time zone (reset after the response by
    # huckley.middleware.TimeZoneResetMiddleware).
    timezone.activate(game.table.sitting.session.club.zone())
    actor = actor_from_request(request)
    # A duplicate deal's cards stay hidden while another table may still play it.
    context = pages.game_page(actor, game, form, hidden=duplicate.cards_hidden(actor, game))
    context["games"] = games if games is not None else games_of(game.table_id)
    context["card_next"] = card_after_movement(request, game.table)
    context["replays"] = replays(game, context["sheet"])
    context |= call_context(game.table, may_score=context["may_score"])
    status = 400 if form is not None and form.is_bound and form.errors else 200
    response = render(request, "scoring/table.html", context, status=status)
    # The service worker keeps the last copy of this page under the session's generation
    # and shows it only offline, said to be the last copy seen (static/sw.js). Read from
    # the session row the page has loaded already (the counters that
    # tournaments.pagecache moves on every change): no query more.
    session = game.table.sitting.session
    response["X-Huckley-Generation"] = f"r{session.board_version}.{session.live_version}"
    return response


def table_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The current game at a table, or the game chosen with ?game=N, with the entry form."""
    table = get_object_or_404(Table.objects.select_related("sitting__session__club"), pk=pk)
    actor = actor_from_request(request)
    if not (can_view_session(actor, table.sitting.session) or can_score(actor, table)):
        raise Http404("No such table.")
    languages.use_club_language(table.sitting.session.club.language)
    games = games_of(table)
    if not games:
        timezone.activate(table.sitting.session.club.zone())  # the open call's time
        context = {"table": table, "games": [], "game": None}
        context |= call_context(table, may_score=can_score(actor, table))
        return render(request, "scoring/table.html", context)
    wanted = request.GET.get("game")
    chosen = dict(games).get(int(wanted)) if wanted and wanted.isdigit() else None
    game = pages.game_qs().get(pk=chosen or games[-1][1])
    return render_game(request, game, form=None, games=games)
