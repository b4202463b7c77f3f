"""The director's pages for entry fees and prizes (docs/tournament.md, "Entry fees and
prizes"): a session's fee, pool rule and who paid (`/director/sessions/N/prizes/`), and the
club's payout tables and currency (`/director/clubs/<slug>/payouts/`). Plain forms, no
JavaScript; each write is one call of `workflow.club.prizes`, and a refusal comes back next to
the field with what was typed."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import UserError
from tournaments.models import Club, PayoutTable, Session, SessionPlayer
from web.views.common import directed_club, directed_session, run, to_int
from workflow.club import prize_selectors, prizes


def _prizes_url(session: Session) -> str:
    return reverse("tournaments:session_prizes", args=[session.pk])


def _payouts_url(club: Club) -> str:
    return reverse("tournaments:club_payouts", args=[club.slug])


@login_required
@require_http_methods(["GET", "POST"])
def session_prizes(request: HttpRequest, pk: int) -> HttpResponse:
    """The session's entry fee and pool rule (a form), what they come to, and who paid."""
    session = directed_session(request, pk)
    typed = {
        "entry_fee": "" if session.entry_fee is None else str(session.entry_fee),
        "pool_share": "" if session.pool_share is None else str(session.pool_share),
        "pool_fixed": "" if session.pool_fixed is None else str(session.pool_fixed),
        "payout_table": str(session.payout_table_id or ""),
    }
    errors: dict[str, str] = {}
    if request.method == "POST":
        typed = {name: request.POST.get(name, "") for name in typed}
        table = typed["payout_table"].strip()
        try:
            prizes.session_prizes_set(
                session_id=session.pk,
                entry_fee=typed["entry_fee"],
                pool_share=typed["pool_share"],
                pool_fixed=typed["pool_fixed"],
                payout_table_id=to_int(table) if table else None,
                user=request.user,
            )
        except UserError as e:
            errors[e.field or "form"] = e.message
        else:
            messages.success(request, gettext("Entry fee and prizes saved."))
            return redirect(_prizes_url(session))
    session.refresh_from_db()
    entries = (
        SessionPlayer.objects.filter(session=session)
        .select_related("player")
        .order_by("player__name")
    )
    context: dict[str, Any] = {
        "session": session,
        "summary": prize_selectors.session_pool(session),
        "tables": list(session.club.payout_tables.all()),
        "typed": typed,
        "errors": errors,
        "entries": entries,
    }
    return render(
        request, "tournaments/session_prizes.html", context, status=400 if errors else 200
    )


@login_required
@require_POST
def session_paid(request: HttpRequest, pk: int) -> HttpResponse:
    """One player paid or not (`player`), or everyone on the roster (no `player`)."""
    session = directed_session(request, pk)
    paid = request.POST.get("paid") == "1"
    player = request.POST.get("player")
    player_ids = None if player is None else [to_int(player)]
    back = _prizes_url(session) + (f"#player-{player}" if player else "")
    return run(
        request,
        lambda: prizes.session_mark_paid(
            session_id=session.pk, player_ids=player_ids, paid=paid, user=request.user
        ),
        (
            (gettext("Marked paid.") if paid else gettext("Marked unpaid."))
            if player
            else (
                gettext("Everyone on the roster is marked paid.")
                if paid
                else gettext("Nobody is marked paid.")
            )
        ),
        back,
    )


def _table_typed(request: HttpRequest, table: PayoutTable | None) -> dict[str, str]:
    if request.method == "POST":
        return {
            name: request.POST.get(name, "")
            for name in ("name", "places", "big_loser", "most_hooks", "is_default")
        }
    if table is None:
        return {"name": "", "places": "", "big_loser": "", "most_hooks": "", "is_default": ""}
    return {
        "name": table.name,
        "places": ", ".join(table.places),
        "big_loser": table.big_loser,
        "most_hooks": table.most_hooks,
        "is_default": "on" if table.is_default else "",
    }


def _table_arguments(typed: dict[str, str]) -> dict[str, Any]:
    # The places as typed, one per comma or line: the service checks each.
    places = [p for p in typed["places"].replace("\n", ",").split(",") if p.strip()]
    return {
        "name": typed["name"],
        "places": places,
        "big_loser": typed["big_loser"],
        "most_hooks": typed["most_hooks"],
        "is_default": typed["is_default"] == "on",
    }


@login_required
@require_http_methods(["GET", "POST"])
def club_payouts(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's payout tables, a form for a new one, and the club's currency."""
    club = directed_club(request, slug)
    typed = _table_typed(request, None)
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            table = prizes.payout_table_create(
                club_id=club.pk, user=request.user, **_table_arguments(typed)
            )
        except UserError as e:
            errors[e.field or "form"] = e.message
        else:
            messages.success(
                request, gettext("Payout table “%(table)s” added.") % {"table": table.name}
            )
            return redirect(_payouts_url(club))
    context = {
        "club": club,
        "tables": list(club.payout_tables.all()),
        "typed": typed,
        "errors": errors,
        "unit_choices": Club._meta.get_field("money_unit").choices,
    }
    return render(request, "tournaments/club_payouts.html", context, status=400 if errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def club_payout_edit(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    club = directed_club(request, slug)
    table = get_object_or_404(PayoutTable, club=club, pk=table_id)
    typed = _table_typed(request, table)
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            prizes.payout_table_update(
                table_id=table.pk, user=request.user, **_table_arguments(typed)
            )
        except UserError as e:
            errors[e.field or "form"] = e.message
        else:
            messages.success(request, gettext("Payout table saved."))
            return redirect(_payouts_url(club))
    context = {"club": club, "table": table, "typed": typed, "errors": errors}
    return render(
        request, "tournaments/club_payout_edit.html", context, status=400 if errors else 200
    )


@login_required
@require_POST
def club_payout_delete(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    club = directed_club(request, slug)
    return run(
        request,
        lambda: prizes.payout_table_delete(table_id=table_id, user=request.user),
        gettext("Payout table deleted."),
        _payouts_url(club),
    )


@login_required
@require_POST
def club_currency(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    return run(
        request,
        lambda: prizes.club_set_money(
            club_id=club.pk,
            currency=request.POST.get("currency", ""),
            money_unit=request.POST.get("money_unit", ""),
            user=request.user,
        ),
        gettext("Currency saved."),
        _payouts_url(club),
    )
