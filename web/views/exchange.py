"""The director's import and ladder pages: thin views over `exchange.services`.

Between the upload and the confirmation, the file travels in a signed token (Django's
`signing`, salted for this page, tied to the club, valid for an hour): the server signed
what it previewed, so the confirmation imports exactly that file and cannot be altered
in the browser. The import itself re-reads the club's players and refuses when the
preview no longer holds.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import ConflictError, UserError
from exchange import roster, services
from tournaments.models import Club
from web.views.common import directed_club

TOKEN_SALT = "exchange.roster-import"
TOKEN_MAX_AGE = 3600


def _token(club: Club, content: bytes, preview: services.RosterPreview) -> str:
    payload = {
        "club": club.pk,
        "csv": content.decode("utf-8"),
        "fingerprint": preview.fingerprint(),
    }
    return signing.dumps(payload, salt=TOKEN_SALT, compress=True)


def _upload(request: HttpRequest) -> bytes:
    upload = request.FILES.get("file")
    if upload is None:
        raise UserError("roster_no_file", gettext("Choose a CSV file to upload."), field="file")
    size = upload.size or 0
    if size > roster.MAX_BYTES:
        # Refused on its size alone: a large file is never read into memory.
        raise UserError("roster_too_large", roster.too_large_message(size), field="file")
    return bytes(upload.read())


@login_required
@require_http_methods(["GET", "POST"])
def roster_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload a roster file, see what it would do, confirm: three steps, one page."""
    club = directed_club(request, slug)
    context: dict[str, Any] = {"club": club, "columns": roster.COLUMNS}
    if request.method == "POST" and "token" in request.POST:
        return _roster_confirm(request, club, context)
    status = 200
    if request.method == "POST":
        try:
            content = _upload(request)
            preview = services.roster_preview(club=club, content=content)
        except UserError as e:
            context["error"] = e.message
            status = 400
        else:
            context["preview"] = preview
            if preview.can_confirm:
                context["token"] = _token(club, content, preview)
    return render(request, "exchange/roster_import.html", context, status=status)


def _players(count: int) -> str:
    return ngettext("%(count)s player", "%(count)s players", count) % {"count": count}


def _signed_payload(token: str, club: Club) -> dict[str, Any] | None:
    """The preview token's content, or None when it is forged, expired or another club's."""
    try:
        payload = signing.loads(token, salt=TOKEN_SALT, max_age=TOKEN_MAX_AGE)
    except signing.BadSignature:
        return None
    return payload if isinstance(payload, dict) and payload.get("club") == club.pk else None


def _roster_confirm(request: HttpRequest, club: Club, context: dict[str, Any]) -> HttpResponse:
    """The confirm step: the file comes back inside the signed preview token."""
    payload = _signed_payload(request.POST["token"], club)
    if payload is None:
        context["error"] = (
            "This preview has expired or is not this club's; upload the file again. "
            "Nothing was imported."
        )
        return render(request, "exchange/roster_import.html", context, status=400)
    content = str(payload["csv"]).encode("utf-8")
    try:
        result = services.roster_import(
            club_id=club.pk, content=content, expected=payload.get("fingerprint"), user=request.user
        )
    except ConflictError as e:
        # Show the preview as it stands now, to be confirmed again.
        preview = services.roster_preview(club=club, content=content)
        context |= {"error": e.message, "preview": preview, "token": _token(club, content, preview)}
        return render(request, "exchange/roster_import.html", context, status=409)
    except UserError as e:
        context["error"] = e.message
        return render(request, "exchange/roster_import.html", context, status=400)
    messages.success(
        request,
        gettext(
            "Roster imported: %(_players)s added, %(updated)s updated, %(unchanged)s unchanged."
        )
        % {
            "_players": _players(result.added),
            "updated": result.updated,
            "unchanged": result.unchanged,
        },
    )
    return redirect("tournaments:club", slug=club.slug)


def _int_or_none(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise UserError(
            "ladder_best_nights_invalid",
            gettext("Best nights must be a whole number, or empty for every night."),
            field="best_nights",
        ) from None


@login_required
@require_POST
def ladder_settings(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    try:
        services.club_ladder_update(
            club_id=club.pk,
            scoring=request.POST.get("scoring", ""),
            best_nights=_int_or_none(request.POST.get("best_nights", "")),
            user=request.user,
        )
    except UserError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request, gettext("Ladder scoring saved; every season's ladder uses it now.")
        )
    return redirect("tournaments:club", slug=club.slug)
