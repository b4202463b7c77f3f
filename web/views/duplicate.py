"""A duplicate sitting's comparison (docs/tournament.md, "Duplicate deals"): each deal
that every online table of its size has played, its hands place by place from the
dealer's left, and what each table made of it. Public, as the session's standings are;
a deal some table may still play is only counted, never shown (`play.duplicate`)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from play import duplicate
from tournaments.models import Sitting
from web.views.common import public_session


def sitting_duplicate(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session = public_session(request, pk)
    sitting = get_object_or_404(Sitting, session=session, number=number)
    sitting.session = session
    found = duplicate.comparison(sitting) if sitting.duplicate else None
    context = {"session": session, "sitting": sitting, "comparison": found}
    return render(request, "tournaments/duplicate.html", context)
