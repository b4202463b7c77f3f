"""The printing's page: the club's paper, set from the club's page (the sheets
themselves are `api.views.printing`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from common.errors import UserError
from printing import services
from web.views.common import directed_club


@login_required
@require_POST
def club_paper(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    try:
        club = services.club_paper_set(
            club_id=club.pk, paper=request.POST.get("paper", ""), user=request.user
        )
    except UserError as e:
        messages.error(request, e.message)
    else:
        name = services.PAPERS[club.paper]
        messages.success(
            request,
            gettext("The club's sheets now print on %(name)s unless you pick another.")
            % {"name": name},
        )
    return redirect("tournaments:club_home", slug=club.slug)
