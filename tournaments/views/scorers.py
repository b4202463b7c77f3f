"""Opening a scorer link: the way in for whoever scores a table, no account needed.
The table's own pages (score sheet, round entry, corrections) are `scoring.views`."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from huckley.errors import UserError
from tournaments.permissions import SESSION_KEY, live_links


def scorer_open(request: HttpRequest, token: str) -> HttpResponse:
    """Opening a scorer link: the browser may then score that table, no account needed."""
    link = live_links([token]).select_related("table").first()
    if link is None:
        error = UserError(
            "scorer_link_expired",
            "This scorer link has expired (the sitting has moved on or the session "
            "ended) or was revoked. Ask the director for a new one.",
        )
        return render(request, "error.html", {"error": error}, status=410)
    tokens = set(request.session.get(SESSION_KEY, []))
    tokens.add(token)
    request.session[SESSION_KEY] = sorted(tokens)
    messages.success(request, f"You can now enter results for table {link.table.rank}.")
    return redirect("scoring:table", pk=link.table_id)
