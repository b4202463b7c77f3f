"""The club's audit log for its directors: what the directors did, newest first, a page
at a time, with filters by session, action, who and dates (a GET form that works without
JavaScript; times in the club's time zone). docs/tournament.md, "What the directors did"."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from web.forms import AuditFilterForm
from web.views.common import directed_club
from workflow.club.audit_selectors import AuditFilter, audit_choices, club_audit

PER_PAGE = 50
FILTERS = ("session", "action", "who", "since", "until")


@login_required
def club_audit_log(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    choices = audit_choices(club)
    asked = {k: request.GET[k] for k in FILTERS if request.GET.get(k)}
    form = AuditFilterForm(
        asked, sessions=choices.sessions, actions=choices.actions, who=choices.who
    )
    form.is_valid()
    # A filter refused (a date that is not one) is said next to its field and left out.
    f = form.cleaned_data
    filters = AuditFilter(
        session_id=f.get("session"),
        action=f.get("action") or "",
        who=f.get("who") or "",
        since=f.get("since"),
        until=f.get("until") if "until" not in form.errors else None,
    )
    page = Paginator(club_audit(club, filters), PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "club": club,
        "form": form,
        "page": page,
        "filtered": bool(asked),
        "query": urlencode(asked),
    }
    return render(
        request, "tournaments/club_audit.html", context, status=400 if form.errors else 200
    )
