"""A duplicate sitting's comparison (docs/tournament.md, "Duplicate deals"): the deals
that every online table of their size has played, listed; and one deal (`?deal=4-1-3`)
with its hands place by place from the dealer's left and what each table made of it.
Public, as the session's standings are; a deal some table may still play is only
counted, never shown (`play.duplicate`). A deal's part is rendered once for as long as
the deals shown stay the same (`Comparison.digest`), not once a visit."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from play import duplicate
from tournaments import pagecache
from tournaments.models import Sitting
from web.views.common import public_session


def sitting_duplicate(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session = public_session(request, pk)
    sitting = get_object_or_404(Sitting, session=session, number=number)
    sitting.session = session
    found = duplicate.comparison(sitting) if sitting.duplicate else None
    context: dict[str, object] = {"session": session, "sitting": sitting, "comparison": found}
    asked = request.GET.get("deal")
    if found is not None and asked is not None:
        deal = found.deal(asked)
        context["asked"] = asked
        if deal is None:
            # Never played, or still being played at some table: the same words for both.
            context["not_shown"] = True
            return render(request, "tournaments/duplicate.html", context, status=404)
        html = pagecache.fragment(
            session.pk,
            f"duplicate:{sitting.pk}:{deal.slug}",
            lambda: render_to_string("tournaments/_duplicate_deal.html", {"deal": deal}),
            current=found.digest,
        )
        # The kept HTML is our own template's, its values escaped when rendered.
        context |= {"deal": deal, "deal_html": mark_safe(html)}
    return render(request, "tournaments/duplicate.html", context)
