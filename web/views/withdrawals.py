"""The director's withdrawal page (docs/tournament.md, "Withdrawals"): between games a
confirmation; in the middle of a game it asks for the substitute who takes the seat. The
write is `workflow.session.withdrawals.session_withdraw`, the same as the API's."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_http_methods

from tournaments.models import SessionPlayer
from web.views.common import act, directed_session
from workflow.session import withdrawals


@login_required
@require_http_methods(["GET", "POST"])
def session_withdraw(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    session = directed_session(request, pk)
    entry = get_object_or_404(
        SessionPlayer.objects.select_related("player"), session=session, player_id=player_id
    )
    if request.method == "POST":
        name = request.POST.get("substitute", "")
        done = f"{entry.player.name} withdrew" + (
            f"; {' '.join(name.split())} takes their seat." if name.strip() else "."
        )
        return act(
            request,
            session,
            lambda: withdrawals.session_withdraw(
                session_id=session.pk, player_id=player_id, user=request.user, substitute=name
            ),
            done,
        )
    context = {
        "session": session,
        "entry": entry,
        "mid_game": withdrawals.withdrawal_game(session, player_id),
        "candidates": withdrawals.substitute_candidates(session),
    }
    return render(request, "tournaments/withdraw.html", context)
