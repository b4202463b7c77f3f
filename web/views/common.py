"""What the tournament's views share: looking up what a request is about, refusing
those who may not, and turning a service's refusal into a message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext

from common import languages
from common.errors import UserError
from tournaments.models import Club, Session
from tournaments.permissions import actor_from_request, can_direct, can_view_session


def public_session(request: HttpRequest, pk: int) -> Session:
    """A session this visitor may see; others get a 404, as if it did not exist."""
    session = get_object_or_404(Session.objects.select_related("club", "season"), pk=pk)
    if not can_view_session(actor_from_request(request), session):
        raise Http404("No such session.")
    languages.use_club_language(session.club.language)
    return session


def live_version(session: Session) -> str:
    """What a live page shows of a session changes exactly when this does: the ETag its
    polls send back (web/views/screen.py)."""
    return f"{session.pk}.{session.board_version}.{session.live_version}"


def directed_session(request: HttpRequest, pk: int) -> Session:
    """A session of a club the signed-in user directs; others get a 403."""
    session = get_object_or_404(Session.objects.select_related("club", "season"), pk=pk)
    if not can_direct(request.user, session.club_id):
        raise PermissionDenied(gettext("Only a director of this club may run its sessions."))
    use_time_zone(session.club)
    return session


def directed_club(request: HttpRequest, slug: str) -> Club:
    """A club the signed-in user directs; others get a 403."""
    club = get_object_or_404(Club, slug=slug)
    if not can_direct(request.user, club):
        raise PermissionDenied(gettext("Only a director of this club may run it."))
    use_time_zone(club)
    return club


def use_time_zone(club: Club) -> None:
    """Show this request's times in the club's time zone (`huckley.middleware` resets it
    after the response, so that it never leaks into the next request of the thread), and
    its words, dates and numbers in the club's language unless the visitor chose their
    own (common/languages.py; reset by `huckley.languages`)."""
    timezone.activate(club.zone())
    languages.use_club_language(club.language)


def run(
    request: HttpRequest, action: Callable[[], Any], done: str, to: str, failed: str = ""
) -> HttpResponse:
    """Run a write; its refusal becomes an error message, success `done`. Then to `to`
    (or to `failed` when refused and given)."""
    try:
        action()
    except UserError as e:
        messages.error(request, e.message)
        return redirect(failed or to)
    messages.success(request, done)
    return redirect(to)


def act(
    request: HttpRequest, session: Session, action: Callable[[], Any], done: str
) -> HttpResponse:
    """Run a director's write; its refusal becomes an error message, success `done`; back
    to the session's manage page either way."""
    try:
        action()
    except UserError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, done)
    return redirect("tournaments:manage", pk=session.pk)


def to_int(value: str | None) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise UserError(
            "bad_number", gettext("That request was incomplete; reload the page.")
        ) from None
