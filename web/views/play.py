"""The player's seat page for online play (docs/tournament.md, "Playing online"):
`/play/<seat_token>/`, the phone a player plays their cards on.

The token is the player's credential (play.models.SeatLink): whoever holds the link sees
that seat's view and nothing more, with no account, as the API's
`GET /api/play/<token>/` answers it (play.selectors.seat_view; the same read deals a round
not dealt yet and lets the robots move). The page shows the view as HTML, so the hand and
the table are there without JavaScript; `static/play.js` then keeps it live over the
WebSocket `/ws/play/<token>/` (polling the API when the socket fails) and sends the moves
over it (or to `POST /api/play/<token>/moves/`). The answer is never stored by a cache: it
holds a hand.

Two taps away from the cards: calling the director to the player's table
(`POST /play/<token>/call/`, `play.seat_calls`) and the game's rules (`web.views.rules`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

import engine
from common.errors import NotFoundError, UserError
from play import seat_calls, services
from play import selectors as play_selectors
from play.models import SeatLink
from web.templatetags import play_words
from web.views.calls import call_context
from web.views.common import use_time_zone


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
    use_time_zone(link.session.club)
    seating = play_selectors.seating_of(link)
    rules_id = str(view.get("rules") or link.session.rules_id)
    context = {
        "view": view,
        "page": play_words.seat_page(view),
        "last": play_words.last_round(view.get("last_round")),
        "session": link.session,
        "game_name": _rules_name(rules_id),
        "rules_url": reverse("tournaments:rules", args=[rules_id])
        if rules_id in engine.RULES
        else "",
        "call": call_context(seating.table, may_score=True)
        if seating is not None
        else {"may_call": False},
        "call_url": reverse("tournaments:play_call", args=[token]),
        "api_url": f"/api/play/{token}/",
        "moves_url": f"/api/play/{token}/moves/",
        "ws_path": f"/ws/play/{token}/",
    }
    response = render(request, "play/seat.html", context)
    response["Referrer-Policy"] = "no-referrer"
    return response


# The seat token in the address is the credential, as for the moves: no cookie or account
# is read to decide who calls, so a forged cross-site post can do nothing the token alone
# does not. The seat page sends no referrer (it holds a hand), so the browser's Origin on
# its own form is "null", which Django's CSRF check would refuse.
@csrf_exempt
@require_POST
def seat_call(request: HttpRequest, token: str) -> HttpResponse:
    """The seat's player calls the director to their table; back to the seat page, which
    says what was sent (or why not)."""
    try:
        call = seat_calls.seat_call_make(
            token=token,
            reason=request.POST.get("reason", ""),
            text=request.POST.get("text", ""),
        )
    except NotFoundError as e:
        raise Http404("No such seat link.") from e
    except UserError as e:
        back = reverse("tournaments:play", args=[token]) + "#call"
        messages.error(request, e.message)
        return redirect(back)
    back = reverse("tournaments:play", args=[token]) + "#call"
    text = f" “{call.text}”" if call.text else ""
    messages.success(
        request,
        gettext(
            "The director is called to your table: %(lower)s%(text)s. Stay at your "
            "seat; the director will come."
        )
        % {"lower": call.get_reason_display().lower(), "text": text},
    )
    response = redirect(back)
    response["Referrer-Policy"] = "no-referrer"
    return response
