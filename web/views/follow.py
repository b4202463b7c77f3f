"""Follow my table (docs/tournament.md): a player who found themselves opens a page of
their own that shows their table and seat large and updates itself after a movement, a
withdrawal or a rebalance, with no reload (`static/follow.js`).

The page polls `follow_live`, which answers the player's place as JSON with the
session's generation as ETag: a 304 while nothing changed, and for the public an answer
stored per generation (`serving.pages`), built from every player's place kept once per
generation (`workflow.front.follow`). A private session is a 404 for whoever may not see it,
as its other pages are."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import condition

from play.models import SeatLink
from serving.pages import page_etag, public_page
from tournaments.models import Session, Table
from web.views.common import live_version, public_session
from workflow.front import follow
from workflow.front.follow import Where


def _where(request: HttpRequest, session: Session, player_id: int) -> Where:
    where = follow.where_is(session, player_id, current=page_etag(request))
    if where is None:
        raise Http404("No such player in this session.")
    return where


def _seat_url(request: HttpRequest, session: Session, player_id: int) -> str | None:
    """The player's own seat link for online play, shown only to the player: signed in,
    with the player's record claimed. The token is the credential to the player's cards,
    so a page that anyone can open by typing a name never shows it."""
    if not request.user.is_authenticated:
        return None
    token = (
        SeatLink.objects.filter(session=session, player_id=player_id, player__user=request.user)
        .values_list("token", flat=True)
        .first()
    )
    return reverse("tournaments:play", args=[token]) if token else None


def follow_page(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """The player's table and seat, large; kept up to date by the page's poll."""
    session = public_session(request, pk)
    where = _where(request, session, player_id)
    context = {
        "online": session.online
        or Table.objects.filter(sitting__session=session, online=True).exists(),
        "seat_url": _seat_url(request, session, player_id),
        "session": session,
        "player_id": player_id,
        "where": where,
        "live_url": reverse("tournaments:follow_live", args=[session.pk, player_id]),
        "etag": live_version(session),
    }
    return render(request, "tournaments/follow.html", context)


@public_page("follow")
@condition(etag_func=lambda request, pk, player_id: live_version(public_session(request, pk)))
def follow_live(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """Where the player is now, as JSON; a 304 while the session is unchanged."""
    session = public_session(request, pk)
    body = _where(request, session, player_id).as_json()
    body["version"] = live_version(session)
    response = HttpResponse(json.dumps(body), content_type="application/json")
    response["Cache-Control"] = "no-cache"
    return response
