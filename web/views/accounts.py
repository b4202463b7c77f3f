"""Starting a club without the admin: signing up, creating the club, a director's
invitation for a player to claim their record, the claim itself, and a whole club file
imported on a page (docs/tournament.md, "Starting a club" and "Accounts and passwords").

Password change and reset are Django's own views (huckley/urls.py); this module only
limits how often one address may ask for a reset email.

Sign-up is open to anyone, so it is limited by the client's address (REMOTE_ADDR, as
`huckley.proxies` resolved it): HUCKLEY_SIGNUPS_PER_HOUR accounts an hour, counted in
the cache (per process without Redis). django-axes already limits sign-in attempts.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import UserError
from common.qr import qr_svg
from exchange import club_upload
from tournaments.models import Player
from tournaments.permissions import account
from web.account_forms import ClubFileForm, ClubForm, SignUpForm
from web.views.common import directed_club
from workflow.club import accounts

HOUR = 3600


def _over_limit(request: HttpRequest, what: str, per_hour: int) -> bool:
    """Whether this address has done `what` `per_hour` times in the last hour already."""
    key = f"limit:{what}:{request.META.get('REMOTE_ADDR', '')}"
    return per_hour <= 0 or int(cache.get(key, 0)) >= per_hour


def _count(request: HttpRequest, what: str) -> None:
    key = f"limit:{what}:{request.META.get('REMOTE_ADDR', '')}"
    cache.add(key, 0, HOUR)
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, HOUR)


def _next(request: HttpRequest) -> str:
    """Where to go after signing up: a safe `next` (a claim link), else nowhere."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else ""


def _form_error(form: Any, error: UserError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A new account: then to "create your club", or back to the claim link that sent
    the person here."""
    if request.user.is_authenticated:
        return redirect(_next(request) or "tournaments:home")
    per_hour = settings.HUCKLEY_SIGNUPS_PER_HOUR
    closed = _over_limit(request, "signup", per_hour)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and not closed and form.is_valid():
        try:
            created = accounts.account_create(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except UserError as e:
            _form_error(form, e)
        else:
            _count(request, "signup")
            login(request, created, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                gettext("Welcome, %(get_username)s: you are signed in.")
                % {"get_username": created.get_username()},
            )
            return redirect(_next(request) or "tournaments:club_new")
    context = {"form": form, "closed": closed, "open": per_hour > 0, "next": _next(request)}
    status = 429 if closed and request.method == "POST" else 200
    if form.is_bound and form.errors:
        status = 400
    return render(request, "registration/signup.html", context, status=status)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset page, asked for at most HUCKLEY_RESETS_PER_HOUR times an hour from
    one address: each one sends an email."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if _over_limit(request, "reset", settings.HUCKLEY_RESETS_PER_HOUR):
            form = self.get_form()
            form.add_error(
                None, gettext("Too many reset emails from here in the last hour; try later.")
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        _count(request, "reset")
        return super().post(request, *args, **kwargs)


@login_required
@require_http_methods(["GET", "POST"])
def club_new(request: HttpRequest) -> HttpResponse:
    """Create a club; its creator is its first director and lands on its page."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = accounts.club_create(user=request.user, **form.cleaned_data)
        except UserError as e:
            _form_error(form, e)
        else:
            messages.success(
                request,
                gettext(
                    "%(club)s is yours to run, with a first season. Next: import your "
                    "roster or add players, then create a session."
                )
                % {"club": club.name},
            )
            return redirect("tournaments:club_home", slug=club.slug)
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "accounts/club_new.html", {"form": form}, status=status)


@login_required
@require_POST
def player_invite(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A one-time link, with its QR code, for the person behind a player record."""
    club = directed_club(request, slug)
    record = get_object_or_404(Player, club=club, pk=player_id)
    back = reverse("tournaments:club_player", args=[club.slug, record.pk])
    try:
        invitation = accounts.player_invitation(player_id=record.pk, user=request.user)
    except UserError as e:
        messages.error(request, e.message)
        return redirect(back)
    url = request.build_absolute_uri(reverse("player_claim", args=[invitation.token]))
    context = {
        "club": club,
        "player": record,
        "url": url,
        "qr": qr_svg(url),
        "days": accounts.CLAIM_MAX_AGE.days,
        "back": back,
    }
    return render(request, "accounts/player_invite.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def player_unlink(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Undo a claim, after a confirmation."""
    club = directed_club(request, slug)
    record = get_object_or_404(Player.objects.select_related("user"), club=club, pk=player_id)
    back = reverse("tournaments:club_player", args=[club.slug, record.pk])
    if request.method == "POST":
        try:
            accounts.player_unlink(player_id=record.pk, user=request.user)
        except UserError as e:
            messages.error(request, e.message)
        else:
            messages.success(
                request,
                gettext("%(record)s is linked to no account now.") % {"record": record.name},
            )
        return redirect(back)
    if record.user is None:
        messages.error(
            request, gettext("%(record)s is linked to no account.") % {"record": record.name}
        )
        return redirect(back)
    context = {
        "title": gettext("Unlink %(record)s from %(get_username)s?")
        % {"record": record.name, "get_username": record.user.get_username()},
        "body": gettext(
            "The account %(get_username)s no longer sees %(record)s's games in My "
            "games. %(record)s keeps every game, and can be invited again."
        )
        % {"get_username": record.user.get_username(), "record": record.name},
        "action": gettext("Unlink"),
        "danger": True,
        "back": back,
    }
    return render(request, "confirm.html", context)


@require_http_methods(["GET", "POST"])
def player_claim(request: HttpRequest, token: str) -> HttpResponse:
    """ "I am <name>": the person an invitation was made for links the player record to
    their account, signing in or up first."""
    try:
        invitation = accounts.invitation_read(token)
    except UserError as e:
        return render(request, "accounts/claim.html", {"error": e.message}, status=400)
    player = invitation.player
    context: dict[str, Any] = {"player": player, "club": player.club, "here": request.path}
    claimant = account(request.user)
    if claimant is None:
        return render(request, "accounts/claim.html", context)
    if request.method == "POST":
        try:
            accounts.player_claim(token=token, user=request.user)
        except UserError as e:
            context["error"] = e.message
            return render(request, "accounts/claim.html", context, status=e.status)
        messages.success(
            request,
            gettext("Your account is %(player)s's now: here are your games.")
            % {"player": player.name},
        )
        return redirect("tournaments:my_games")
    refusal = accounts.claim_refusal(player, claimant)
    context["error"] = refusal.message if refusal else ""
    return render(request, "accounts/claim.html", context)


CLUB_FILE_SALT = "exchange.club-import"
CLUB_FILE_MAX_AGE = 3600


@login_required
@require_http_methods(["GET", "POST"])
def club_import(request: HttpRequest) -> HttpResponse:
    """Upload a club file, see what it would create, confirm: as the roster import, the
    file travels from the preview to the confirmation inside a signed token."""
    form = ClubFileForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"form": form}
    if request.method == "POST" and "token" in request.POST:
        return _club_import_confirm(request, context)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            uploaded = form.cleaned_data["file"]
            club_upload.club_file_size_check(uploaded.size or 0)
            content = bytes(uploaded.read())
            data = club_upload.club_file_read(content)
            context["preview"] = club_upload.club_file_preview(data=data, user=request.user)
        except UserError as e:
            context["error"] = e.message
            status = 400
        else:
            payload = {"user": request.user.pk, "json": content.decode("utf-8")}
            context["token"] = signing.dumps(payload, salt=CLUB_FILE_SALT, compress=True)
    elif form.is_bound:
        status = 400
    return render(request, "accounts/club_import.html", context, status=status)


def _club_import_confirm(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    try:
        payload = signing.loads(
            request.POST["token"], salt=CLUB_FILE_SALT, max_age=CLUB_FILE_MAX_AGE
        )
    except signing.BadSignature:
        payload = None
    if not isinstance(payload, dict) or payload.get("user") != request.user.pk:
        context["error"] = (
            "This preview has expired or is not yours; upload the file again. Nothing was imported."
        )
        return render(request, "accounts/club_import.html", context, status=400)
    try:
        data = club_upload.club_file_read(str(payload["json"]).encode("utf-8"))
        club = club_upload.club_file_import(data=data, user=request.user)
    except UserError as e:
        context["error"] = e.message
        return render(request, "accounts/club_import.html", context, status=e.status)
    messages.success(
        request,
        gettext("%(club)s is imported, and you are one of its directors.") % {"club": club.name},
    )
    return redirect("tournaments:club_home", slug=club.slug)
