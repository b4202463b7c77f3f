"""Self check-in at the door (docs/tournament.md, "Self check-in at the door").

The public's page, `/sessions/N/check-in/`: a player types their name and the door code
and is checked in, with no JavaScript needed. On a night that plays online the answer
gives that phone the player's seat link, which the phone keeps (`play.seat_keep`,
`static/seat_keep.js`) for "find my table" and "follow my table" to offer later.

The director's side: changing the door code, opening or closing self check-in and
allowing walk-ins (forms on the manage page), and the live part of the manage page's
check-in list, which `static/door.js` polls with the session's live version as its ETag
(as the projector does, web/views/screen.py), so arrivals at the door show without a
reload.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import condition, require_http_methods, require_POST

from common import languages
from common.errors import UserError
from play import seat_keep
from tournaments.models import Session, SessionPlayer
from tournaments.permissions import actor_from_request, can_view_session
from web.forms import SelfCheckInForm
from web.views.common import act, directed_session, live_version
from workflow.front import door
from workflow.session import start_finish


def _door_session(request: HttpRequest, pk: int) -> Session:
    """The session whose door this is: one the visitor may see, or a private one while
    its self check-in is open (the door code guards it); otherwise a 404."""
    session = get_object_or_404(Session.objects.select_related("club"), pk=pk)
    if not (can_view_session(actor_from_request(request), session) or door.door_open(session)):
        raise Http404("No such session.")
    languages.use_club_language(session.club.language)
    return session


@require_http_methods(["GET", "POST"])
def self_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """A player checks themselves in: their name and the door code."""
    session = _door_session(request, pk)
    form = SelfCheckInForm(request.POST or None)
    context: dict[str, Any] = {"session": session, "form": form, "refusal": None}
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            arrival = seat_keep.door_check_in(
                session_id=session.pk,
                name=form.cleaned_data["name"],
                door_code=form.cleaned_data["door_code"],
                client=request.META.get("REMOTE_ADDR", ""),
                user=request.user,
            )
        except door.WhichName as e:
            context |= {"choices": e.choices, "question": e.message}
            status = e.status
        except door.TooManyAttempts as e:
            context["refusal"] = e.message
            status = e.status
        except UserError as e:
            form.add_error(e.field if e.field in form.fields else None, e.message)
            status = e.status
        else:
            link = arrival.seat_link
            context |= {
                "done": arrival.checked_in,
                "form": SelfCheckInForm(),
                "seat_url": reverse("tournaments:play", args=[link.token]) if link else None,
            }
    elif form.is_bound:
        status = 400
    if "done" not in context and (refusal := door.door_refusal(session)) is not None:
        context |= {"refusal": refusal.message, "closed": True}
    response = render(request, "tournaments/self_check_in.html", context, status=status)
    if context.get("seat_url"):
        # The answer holds the player's seat link: for this phone only, kept by no cache,
        # sent to no other site.
        response["Cache-Control"] = "no-store"
        response["Referrer-Policy"] = "same-origin"
    return response


@login_required
@require_POST
def door_code(request: HttpRequest, pk: int) -> HttpResponse:
    """A new door code: the four digits typed, or drawn at random when left empty."""
    session = directed_session(request, pk)
    code = request.POST.get("door_code", "")
    return act(
        request,
        session,
        lambda: door.door_code_change(session_id=session.pk, code=code, user=request.user),
        gettext("New door code saved: it shows on the projector now."),
    )


@login_required
@require_POST
def door_settings(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    return act(
        request,
        session,
        lambda: door.door_settings_update(
            session_id=session.pk,
            self_check_in_open=request.POST.get("self_check_in_open") == "on",
            walk_ins_allowed=request.POST.get("walk_ins_allowed") == "on",
            user=request.user,
        ),
        gettext("Check-in at the door saved."),
    )


def _live_etag(request: HttpRequest, pk: int) -> str | None:
    session = Session.objects.filter(pk=pk).only("pk", "board_version", "live_version").first()
    return live_version(session) if session is not None else None


@login_required
@condition(etag_func=_live_etag)
def check_in_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The check-in list as it is now, for the manage page's poll (static/door.js): every
    row, the count and the Start box, drawn by the page's own templates. A 304 while
    nothing changed (the ETag is the session's live version)."""
    session = directed_session(request, pk)
    if session.status != Session.Status.SETUP:
        # Started (or ended) meanwhile: the page must be loaded again to show it.
        return JsonResponse({"reload": True})
    entries = list(
        SessionPlayer.objects.filter(session=session)
        .select_related("player")
        .order_by("player__name")
    )
    checked_in = sum(1 for e in entries if e.checked_in and not e.withdrawn_at)
    context = {
        "session": session,
        "entries": entries,
        "checked_in": checked_in,
        "start_refusal": start_finish.start_refusal(session, checked_in),
    }
    response = JsonResponse(
        {
            "count": checked_in,
            "total": len(entries),
            "rows": render_to_string("tournaments/_checkin_rows.html", context, request=request),
            "start": render_to_string("tournaments/_checkin_start.html", context, request=request),
        }
    )
    response["Cache-Control"] = "no-cache"
    return response
