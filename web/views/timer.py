"""The director's sitting timer (docs/tournament.md, "The sitting timer"): the minutes
per sitting, and start, pause, resume, extend and reset. Each is one service call in
`workflow.session.timer`; a refusal comes back as a message on the session page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from common.errors import UserError
from web.views.common import act, directed_session
from workflow.session import timer

DONE = {
    "start": gettext_lazy("Timer started."),
    "pause": gettext_lazy("Timer paused."),
    "resume": gettext_lazy("Timer running again."),
    "extend": gettext_lazy("Timer extended."),
    "reset": gettext_lazy("Timer reset; start it again when the players are ready."),
}


def minutes_from(value: str | None) -> int | None:
    """Typed minutes: empty is None, anything but a whole number is refused in words."""
    text = (value or "").strip()
    if not text:
        return None
    # ASCII digits only ("²" is a digit to str.isdigit, not to int), and no more than
    # a whole day's worth of them: the service bounds the minutes.
    if not (text.isascii() and text.isdigit()) or len(text) > 6:
        raise UserError(
            "timer_minutes",
            gettext("“%(text)s” is not a number of minutes; type a whole number.")
            % {"text": text[:10]},
        )
    return int(text)


@login_required
@require_POST
def sitting_timer(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    action = request.POST.get("action", "")
    return act(
        request,
        session,
        lambda: timer.sitting_timer_change(
            session_id=session.pk,
            action=action,
            minutes=minutes_from(request.POST.get("minutes")),
            user=request.user,
        ),
        str(DONE.get(action) or gettext("Timer changed.")),
    )


@login_required
@require_POST
def sitting_minutes(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    return act(
        request,
        session,
        lambda: timer.session_set_sitting_minutes(
            session_id=session.pk,
            minutes=minutes_from(request.POST.get("minutes")),
            user=request.user,
        ),
        (
            gettext("Minutes per sitting saved; each new sitting starts its timer.")
            if (request.POST.get("minutes") or "").strip()
            else gettext("This session plays without a timer from the next sitting on.")
        ),
    )
