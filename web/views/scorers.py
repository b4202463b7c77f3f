"""Opening a scorer link or a table card: the way in for whoever scores a table, no
account needed. The table's own pages (score sheet, round entry, corrections) are
`web.views.sheet`."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from common.errors import UserError
from tournaments.models import ClubTableCard, ScorerLink, TableCard
from tournaments.permissions import SESSION_KEY, live_links
from web.views.common import use_time_zone
from workflow.tables import card_selectors
from workflow.tables import links as table_links


def _let_score(request: HttpRequest, link: ScorerLink, number: int) -> HttpResponse:
    tokens = set(request.session.get(SESSION_KEY, []))
    tokens.add(link.token)
    request.session[SESSION_KEY] = sorted(tokens)
    messages.success(
        request, gettext("You can now enter results for table %(number)s.") % {"number": number}
    )
    return redirect("scoring:table", pk=link.table_id)


def scorer_open(request: HttpRequest, token: str) -> HttpResponse:
    """Opening a scorer link: the browser may then score that table, no account needed."""
    link = live_links([token]).select_related("table__sitting__session__club").first()
    if link is None:
        error = UserError(
            "scorer_link_expired",
            gettext(
                "This scorer link has expired (the sitting has moved on or the session "
                "ended) or was revoked. Scan the card on your table, or ask the "
                "director for a new link."
            ),
        )
        return render(request, "error.html", {"error": error}, status=410)
    use_time_zone(link.table.sitting.session.club)  # its message in the club's language
    return _let_score(request, link, link.table.number)


def _card_page(
    request: HttpRequest, card: TableCard | ClubTableCard, target: card_selectors.CardTarget
) -> HttpResponse:
    if target.table is not None:
        link = table_links.card_link(table=target.table, card=card)
        return _let_score(request, link, target.table.number)
    club = target.session.club if target.session else getattr(card, "club", None)
    if club is not None:
        use_time_zone(club)
    status = 410 if target.replaced_at else 200
    context = {"card": card, "target": target}
    return render(request, "tournaments/card.html", context, status=status)


def table_card(request: HttpRequest, token: str) -> HttpResponse:
    """A session's table card: opens the game now played at its table number."""
    card = get_object_or_404(TableCard.objects.select_related("session__club"), token=token)
    use_time_zone(card.session.club)  # the target's words, in the club's language
    return _card_page(request, card, card_selectors.session_card_target(card))


def club_card(request: HttpRequest, token: str) -> HttpResponse:
    """A club's laminated card: that table number of the club's running session. When two
    run, the session chosen is remembered by this browser, so the card opens the table at
    once on the next scan (after a movement, say)."""
    card = get_object_or_404(ClubTableCard.objects.select_related("club"), token=token)
    use_time_zone(card.club)
    remembered = f"club_card_session:{card.pk}"
    asked = request.GET.get("session", "") or str(request.session.get(remembered, ""))
    chosen = int(asked) if asked.isdigit() else None
    target = card_selectors.club_card_target(card, chosen)
    if target.table is not None and target.session is not None:
        request.session[remembered] = target.session.pk
    return _card_page(request, card, target)
