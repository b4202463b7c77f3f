"""The club's seating wishes page (docs/tournament.md, "Seating wishes"): the pairs of
players kept from starting at the same table, adding one by choosing two players, and
removing one after a confirmation. For the club's directors; each write is one call of
`workflow.club.seating_wishes`."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from common.errors import UserError
from tournaments.models import KeepApart
from web.forms import KeepApartForm
from web.views.common import directed_club, run
from workflow.club import seating_wishes


@login_required
@require_http_methods(["GET", "POST"])
def keep_apart(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    form = KeepApartForm(request.POST or None, players=seating_wishes.player_choices(club))
    if request.method == "POST" and form.is_valid():
        try:
            pair = seating_wishes.keep_apart_add(
                club_id=club.pk,
                players=[form.cleaned_data["first"], form.cleaned_data["second"]],
                user=request.user,
            )
        except UserError as e:
            form.add_error(None, e.message)
        else:
            messages.success(
                request,
                gettext("%(first)s and %(second)s are kept apart.")
                % {"first": pair.first.name, "second": pair.second.name},
            )
            return redirect("tournaments:club_keep_apart", slug=club.slug)
    context = {
        "club": club,
        "form": form,
        "pairs": list(seating_wishes.keep_apart_pairs(club)),
    }
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "tournaments/club_keep_apart.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def keep_apart_remove(request: HttpRequest, slug: str, pair_id: int) -> HttpResponse:
    club = directed_club(request, slug)
    pair = get_object_or_404(
        KeepApart.objects.select_related("first", "second"), club=club, pk=pair_id
    )
    back = reverse("tournaments:club_keep_apart", args=[club.slug])
    names = f"{pair.first.name} and {pair.second.name}"
    if request.method == "POST":
        return run(
            request,
            lambda: seating_wishes.keep_apart_remove(
                club_id=club.pk, pair_id=pair.pk, user=request.user
            ),
            gettext("%(names)s are no longer kept apart.") % {"names": names},
            back,
        )
    return render(
        request,
        "confirm.html",
        {
            "title": gettext("Stop keeping %(names)s apart?") % {"names": names},
            "body": gettext("They may then be drawn at the same table when a session starts."),
            "action": gettext("Stop keeping them apart"),
            "danger": True,
            "back": back,
        },
    )
