"""The director's pages for table cards (docs/tournament.md, "Table cards"): a session's
cards with their QR codes, replacing one table's card, and the club's laminated cards
(issue and rotate). Each needs a signed-in director of the club; every write is one call
of `workflow.tables.links` and asks for confirmation first. Opening a card is
`web.views.scorers`."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from common.qr import qr_svg
from web.views.common import directed_club, directed_session, run, to_int
from workflow.tables import card_selectors
from workflow.tables import links as table_links
from workflow.tables.card_selectors import CardLink


def _with_qr(request: HttpRequest, cards: list[CardLink]) -> list[tuple[CardLink, str, str]]:
    """Each card with its full short URL and the QR code of it."""
    urls = [request.build_absolute_uri(c.url) for c in cards]
    return [(c, url, qr_svg(url)) for c, url in zip(cards, urls, strict=True)]


#: Cards (each with its QR code) on one page of a session's cards.
CARDS_PER_PAGE = 24


def _cards_text(count: str) -> str:
    if count.strip() == "1":
        return gettext("1 new table card")
    return gettext("%(count)s new table cards") % {"count": count}


@login_required
def session_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """The session's table cards, each with its QR code: to show on a phone or print."""
    session = directed_session(request, pk)
    # A page of cards at a time: 250 QR codes at once are megabytes and seconds.
    page = Paginator(card_selectors.table_cards(session), CARDS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {"session": session, "cards": _with_qr(request, list(page)), "page": page}
    return render(request, "tournaments/table_cards.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def table_card_replace(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Replace one table's card, after the director confirms."""
    session = directed_session(request, pk)
    back = reverse("tournaments:session_cards", args=[session.pk])
    if request.method == "POST":
        return run(
            request,
            lambda: table_links.table_card_replace(
                session_id=session.pk, number=number, user=request.user
            ),
            gettext("Table %(number)s has a new card; the old one no longer opens the table.")
            % {"number": number},
            back,
        )
    body = gettext(
        "The card now on table %(number)s stops working at once: whoever scans it is told "
        "it was replaced and to ask you. Put the new card (or its QR code) on the table."
    ) % {"number": number}
    context = {
        "title": gettext("Replace the card of table %(number)s?") % {"number": number},
        "body": body,
        "back": back,
    }
    return render(
        request, "confirm.html", {**context, "action": gettext("Replace card"), "danger": True}
    )


@login_required
@require_http_methods(["GET", "POST"])
def club_cards(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's laminated cards; a POST issues them (rotating the old ones) after the
    director confirms on this page."""
    club = directed_club(request, slug)
    here = reverse("tournaments:club_cards", args=[club.slug])
    if request.method == "POST" and request.POST.get("confirmed"):
        count = request.POST.get("count", "")
        return run(
            request,
            lambda: table_links.club_cards_issue(
                club_id=club.pk, count=to_int(count), user=request.user
            ),
            gettext("The club has %(_cards_text)s; any old ones no longer work.")
            % {"_cards_text": _cards_text(count)},
            here,
        )
    cards = card_selectors.club_table_cards(club)
    context = {
        "club": club,
        "cards": _with_qr(request, cards),
        "count": request.POST.get("count") or len(cards) or 10,
        "confirming": request.method == "POST",
        "most": table_links.CLUB_CARDS_MAX,
    }
    return render(request, "tournaments/club_cards.html", context)
