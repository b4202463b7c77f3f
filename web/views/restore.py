"""A director puts back what a correction or a deletion changed, from the score sheet's
change history."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from common.errors import UserError
from scoring import corrections, pages
from scoring.models import RoundChange
from tournaments.permissions import (
    actor_from_request,
    can_direct,
)
from web.views.sheet import sheet_url


@require_POST
def change_restore(request: HttpRequest, pk: int, change_id: int) -> HttpResponse:
    """A director puts back what a correction or a deletion changed, in one action."""
    game = get_object_or_404(pages.game_qs(), pk=pk)
    change = get_object_or_404(RoundChange, pk=change_id, game=game)
    actor = actor_from_request(request)
    if not can_direct(actor, game.table.sitting.session.club_id):
        raise PermissionDenied(gettext("Only a director of this club may restore a change."))
    try:
        corrections.round_change_restore(change_id=change.pk, actor=actor)
    except UserError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request,
            gettext("Round %(round_number)s is back as it was.")
            % {"round_number": change.round_number},
        )
    return redirect(sheet_url(game))
