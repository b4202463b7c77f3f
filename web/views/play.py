"""The player's seat page for online play (docs/tournament.md, "Playing online"):
`/play/<seat_token>/`, the phone a player plays their cards on.

The token is the player's credential (play.models.SeatLink): whoever holds the link sees
that seat's view and nothing more, with no account, as the API's
`GET /api/play/<token>/` answers it (play.selectors.seat_view; the same read deals a round
not dealt yet and lets the robots move). The page shows the view as HTML, so the hand and
the table are there without JavaScript; `static/play.js` then keeps it live over the
WebSocket `/ws/play/<token>/` (polling the API when the socket fails) and sends the moves
to `POST /api/play/<token>/moves/`. The answer is never stored by a cache: it holds a
hand."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

import engine
from common.errors import UserError
from play import services
from play.models import SeatLink
from web.templatetags import play_words


def _rules_name(rules_id: str) -> str:
    info = engine.RULES.get(rules_id)
    return info.name if info is not None else rules_id


@never_cache
def seat_page(request: HttpRequest, token: str) -> HttpResponse:
    """The seat's view as a page, kept live by static/play.js."""
    try:
        view = services.seat_read(token)
    except UserError as e:
        if e.code == "no_such_seat":
            raise Http404("No such seat link.") from e
        raise
    link = SeatLink.objects.select_related("session__club").get(token=token)
    context = {
        "view": view,
        "page": play_words.seat_page(view),
        "last": play_words.last_round(view.get("last_round")),
        "session": link.session,
        "game_name": _rules_name(str(view.get("rules") or link.session.rules_id)),
        "api_url": f"/api/play/{token}/",
        "moves_url": f"/api/play/{token}/moves/",
        "ws_path": f"/ws/play/{token}/",
    }
    response = render(request, "play/seat.html", context)
    response["Referrer-Policy"] = "no-referrer"
    return response
