"""Calling the director (docs/tournament.md, "Calling the director"): the form on a
table's score sheet (a scorer link's or a table card's page), and the director's list of
calls on the session's page, which `static/calls.js` keeps live (a poll with the
session's live version as ETag; a 304 while nothing changed). Writes are
`workflow.front.calls`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import condition, require_POST

from common.errors import UserError
from tournaments.models import DirectorCall, ScorerLink, Session, Table
from tournaments.permissions import Actor, actor_from_request, can_direct, can_score
from web.views.common import directed_session, live_version, use_time_zone
from workflow.front import calls


def call_context(table: Table, *, may_score: bool) -> dict[str, Any]:
    """What the score sheet shows of calling the director: the form when this visitor may
    call from the table now, and the table's open call (one query, only then)."""
    sitting = table.sitting
    may_call = (
        may_score and sitting.session.status == Session.Status.RUNNING and sitting.moved_at is None
    )
    if not may_call:
        return {"may_call": False}
    open_call = DirectorCall.objects.filter(table=table, handled_at__isnull=True).first()
    return {
        "may_call": True,
        "open_call": open_call,
        "reasons": DirectorCall.Reason.choices,
        "text_max": DirectorCall.TEXT_MAX,
    }


@require_POST
def table_call(request: HttpRequest, pk: int) -> HttpResponse:
    """A table calls the director; back to the score sheet, which says what was sent."""
    table = get_object_or_404(Table.objects.select_related("sitting__session__club"), pk=pk)
    use_time_zone(table.sitting.session.club)
    back = reverse("scoring:table", args=[table.pk])
    actor = actor_from_request(request)
    if not can_score(actor, table) and _held_link(actor, table):
        # A page left open from before the movement (or the end): say so, not a 403.
        messages.error(
            request,
            gettext(
                "This table's scorer link no longer opens it (the sitting has moved on "
                "or the session has ended): scan the card on your table, or find the "
                "director."
            ),
        )
        return redirect(back)
    try:
        call = calls.director_call_make(
            table_id=table.pk,
            reason=request.POST.get("reason", ""),
            text=request.POST.get("text", ""),
            user=actor,
        )
    except UserError as e:
        messages.error(request, e.message)
        return redirect(f"{back}#call")
    text = f" “{call.text}”" if call.text else ""
    messages.success(
        request,
        gettext(
            "The director is called to table %(rank)s: %(lower)s%(text)s. Stay at "
            "the table; the director will come."
        )
        % {"rank": table.rank, "lower": call.get_reason_display().lower(), "text": text},
    )
    return redirect(f"{back}#call")


def _held_link(actor: Actor, table: Table) -> bool:
    """Whether this browser once held a scorer link (or a card's link) of the table."""
    tokens = list(actor.scorer_tokens)
    return bool(tokens) and ScorerLink.objects.filter(table=table, token__in=tokens).exists()


def _calls_html(request: HttpRequest, session: Session) -> str:
    rows = calls.session_calls(session)
    return render_to_string(
        "tournaments/_director_calls.html",
        {
            "session": session,
            "open_rows": [r for r in rows if r.call.is_open],
            "handled_rows": [r for r in rows if not r.call.is_open],
        },
        request=request,
    )


def manage_calls(request: HttpRequest, session: Session) -> dict[str, Any]:
    """The calls part of the director's session page, and what its poll needs."""
    return {
        "calls_html": _calls_html(request, session),
        "calls_url": reverse("tournaments:session_calls_live", args=[session.pk]),
        "calls_etag": live_version(session),
    }


def _calls_etag(request: HttpRequest, pk: int) -> str:
    session = get_object_or_404(Session, pk=pk)
    if not can_direct(request.user, session.club_id):
        raise PermissionDenied(gettext("Only a director of this club may see its calls."))
    return live_version(session)


@login_required
@condition(etag_func=_calls_etag)
def session_calls_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The director's list of calls alone, for the page's poll: a 304 while the session's
    live version is unchanged."""
    session = directed_session(request, pk)
    response = HttpResponse(_calls_html(request, session))
    response["Cache-Control"] = "no-cache"
    return response


def _back(call: DirectorCall) -> str:
    return reverse("tournaments:manage", args=[call.session_id]) + "#calls"


@login_required
@require_POST
def call_handled(request: HttpRequest, call_id: int) -> HttpResponse:
    call = get_object_or_404(DirectorCall.objects.select_related("table"), pk=call_id)
    directed_session(request, call.session_id)
    try:
        calls.director_call_handle(call_id=call.pk, user=request.user)
    except UserError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request, gettext("The call from table %(rank)s is handled.") % {"rank": call.table.rank}
        )
    return redirect(_back(call))


@login_required
@require_POST
def call_reopen(request: HttpRequest, call_id: int) -> HttpResponse:
    call = get_object_or_404(DirectorCall.objects.select_related("table"), pk=call_id)
    directed_session(request, call.session_id)
    try:
        calls.director_call_reopen(call_id=call.pk, user=request.user)
    except UserError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request,
            gettext("The call from table %(rank)s is open again.") % {"rank": call.table.rank},
        )
    return redirect(_back(call))
