"""Sign-up before the night (docs/tournament.md, "Sign-up and the waitlist"): the public
sign-up page, the personal page of a sign-up (its status, and cancelling it after a
confirmation), and the director's list of sign-ups with its settings, one-tap check-in
and cancelling. Every write is one service call (`workflow.front.registrations`,
`workflow.session.services.session_check_in`; signing up through `play.seat_keep`, which
makes the player's seat link on a night that plays online); no JavaScript is needed. The
sign-up's own page gives its holder that seat link, which their phone keeps
(`static/seat_keep.js`) for "find my table" and "follow my table".

Sign-up is open to anyone, so it is limited by the client's address (REMOTE_ADDR, as
`huckley.proxies` resolved it): HUCKLEY_REGISTRATIONS_PER_HOUR sign-ups an hour for
someone who does not direct the club, counted in the cache.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import UserError
from play import seat_keep
from tournaments.models import Registration, Session
from tournaments.permissions import actor_from_request, can_direct
from web.forms import RegistrationForm, RegistrationSettingsForm
from web.views.common import directed_session, to_int, use_time_zone
from workflow.front import registrations
from workflow.session import services

HOUR = 3600


def _limit_key(request: HttpRequest) -> str:
    return f"limit:registration:{request.META.get('REMOTE_ADDR', '')}"


def _over_limit(request: HttpRequest, session: Session) -> bool:
    if can_direct(request.user, session.club_id):
        return False
    per_hour = settings.HUCKLEY_REGISTRATIONS_PER_HOUR
    return per_hour <= 0 or int(cache.get(_limit_key(request), 0)) >= per_hour


def _count(request: HttpRequest) -> None:
    key = _limit_key(request)
    cache.add(key, 0, HOUR)
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, HOUR)


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest, pk: int) -> HttpResponse:
    """Sign up for a night: anyone for a public session, with the invitation link
    (`?invite=`) for a private one; others get a 404, as if it did not exist."""
    session = get_object_or_404(Session.objects.select_related("club"), pk=pk)
    invite = request.POST.get("invite") or request.GET.get("invite") or ""
    actor = actor_from_request(request)
    if not registrations.may_sign_up(actor, session, invite):
        raise Http404("No such session.")
    use_time_zone(session.club)
    form = RegistrationForm(request.POST or None, initial={"invite": invite})
    refusal = registrations.signup_refusal(session)
    throttled = request.method == "POST" and _over_limit(request, session)
    if throttled:
        form.add_error(
            None, gettext("Too many sign-ups from here in the last hour; try again later.")
        )
    elif request.method == "POST" and refusal is None and form.is_valid():
        d = form.cleaned_data
        try:
            signed = seat_keep.registration_sign_up(
                session_id=session.pk,
                name=d["name"],
                email=d["email"],
                email_assignment=d["email_assignment"],
                invite=invite,
                site=request.build_absolute_uri("/"),
                user=actor,
            )
        except UserError as e:
            form.add_error(e.field if e.field in form.fields else None, e.message)
        else:
            _count(request)
            return redirect("tournaments:registration", token=signed.token)
    taken = registrations.places_taken(session)
    context = {
        "session": session,
        "form": form,
        "refusal": refusal,
        "taken": taken,
        "full": session.capacity is not None and taken >= session.capacity,
        "waiting": Registration.objects.filter(
            session=session, status=Registration.Status.WAITLISTED
        ).count(),
    }
    status = 200
    if throttled:
        status = 429
    elif form.is_bound and (form.errors or refusal is not None):
        status = 409 if refusal is not None else 400
    return render(request, "tournaments/register.html", context, status=status)


def _personal(token: str) -> Registration:
    try:
        return registrations.registration_by_token(token)
    except UserError:
        raise Http404("No sign-up has this link.") from None


def registration(request: HttpRequest, token: str) -> HttpResponse:
    """A sign-up's own page: its status and place, and the way to cancel it."""
    signed = _personal(token)
    use_time_zone(signed.session.club)
    link = seat_keep.registration_link(signed)
    response = render(
        request,
        "tournaments/registration.html",
        {
            "r": signed,
            "session": signed.session,
            "position": registrations.position(signed),
            "may_cancel": signed.status != Registration.Status.CANCELLED
            and signed.session.status == Session.Status.SETUP,
            "seat_url": reverse("tournaments:play", args=[link.token]) if link else None,
        },
    )
    # The link is the permission: it must not leak to another site through Referer
    # ("no-referrer" would also send `Origin: null` with the cancel form, which CSRF refuses).
    response["Referrer-Policy"] = "same-origin"
    if link is not None:
        response["Cache-Control"] = "no-store"  # it holds the player's seat link
    return response


@require_http_methods(["GET", "POST"])
def registration_cancel(request: HttpRequest, token: str) -> HttpResponse:
    """Cancelling one's sign-up: a confirmation first, then the cancellation."""
    signed = _personal(token)
    back = reverse("tournaments:registration", args=[token])
    if request.method == "POST":
        try:
            registrations.registration_cancel(token=token)
        except UserError as e:
            messages.error(request, e.message)
        else:
            messages.success(request, gettext("Your sign-up is cancelled."))
        return redirect(back)
    body = (
        gettext(
            "%(name)s will no longer be signed up for %(session)s. Your place goes at once "
            "to the first on the waitlist. To come after all, you would sign up again, at "
            "the back of the queue."
        )
        if signed.status == Registration.Status.REGISTERED
        else gettext(
            "%(name)s will no longer be signed up for %(session)s. You leave the waitlist. "
            "To come after all, you would sign up again, at the back of the queue."
        )
    ) % {"name": signed.name, "session": signed.session.name}
    response = render(
        request,
        "confirm.html",
        {
            "title": gettext("Cancel your sign-up?"),
            "body": body,
            "action": gettext("Cancel my sign-up"),
            "danger": True,
            "back": back,
            "keep": gettext("Keep my sign-up"),
        },
    )
    response["Referrer-Policy"] = "same-origin"
    return response


@login_required
def session_registrations(request: HttpRequest, pk: int) -> HttpResponse:
    """The director's list: everyone who signed up, in order, with status and place; the
    sign-up settings; one tap to check a registered player in."""
    session = directed_session(request, pk)
    form = RegistrationSettingsForm(
        initial={"registration_open": session.registration_open, "capacity": session.capacity}
    )
    return _registrations_page(request, session, form)


def _registrations_page(
    request: HttpRequest, session: Session, form: RegistrationSettingsForm, status: int = 200
) -> HttpResponse:
    rows = registrations.session_registrations(session)
    link = request.build_absolute_uri(reverse("tournaments:register", args=[session.pk]))
    if not session.is_public and session.registration_invite:
        link += f"?invite={session.registration_invite}"
    return render(
        request,
        "tournaments/registrations.html",
        {
            "session": session,
            "rows": rows,
            "form": form,
            "link": link,
            "taken": registrations.places_taken(session),
            "registered": sum(r.registration.status == "registered" for r in rows),
            "waiting": sum(r.registration.status == "waitlisted" for r in rows),
        },
        status=status,
    )


@login_required
@require_POST
def registration_settings(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    form = RegistrationSettingsForm(request.POST)
    form.is_valid()  # two fields that cannot be wrong: the capacity goes on as typed
    try:
        registrations.session_registration_settings(
            session_id=session.pk,
            registration_open=form.cleaned_data["registration_open"],
            capacity=form.cleaned_data["capacity"],
            user=request.user,
        )
    except UserError as e:
        # The page again with what was typed and the refusal next to its field.
        form.add_error("capacity" if e.field == "capacity" else None, e.message)
        return _registrations_page(request, session, form, status=400)
    messages.success(request, gettext("Sign-up settings saved."))
    return redirect("tournaments:registrations", pk=session.pk)


@login_required
@require_POST
def registration_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """One tap: a registered player is checked in (the roster's own check-in)."""
    session = directed_session(request, pk)
    player_id = to_int(request.POST.get("player"))
    try:
        services.session_check_in(
            session_id=session.pk, player_ids=[player_id], checked_in=True, user=request.user
        )
    except UserError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, gettext("Checked in."))
    return redirect(reverse("tournaments:registrations", args=[session.pk]) + f"#r-{player_id}")


@login_required
@require_http_methods(["GET", "POST"])
def registration_remove(request: HttpRequest, pk: int, registration_id: int) -> HttpResponse:
    """The director cancels someone's sign-up (they phoned), after a confirmation."""
    session = directed_session(request, pk)
    signed = get_object_or_404(Registration, pk=registration_id, session=session)
    back = reverse("tournaments:registrations", args=[session.pk])
    if request.method == "POST":
        try:
            registrations.registration_remove(registration_id=signed.pk, user=request.user)
        except UserError as e:
            messages.error(request, e.message)
        else:
            messages.success(
                request, gettext("%(signed)s's sign-up is cancelled.") % {"signed": signed.name}
            )
        return redirect(back)
    return render(
        request,
        "confirm.html",
        {
            "title": gettext("Cancel %(signed)s's sign-up?") % {"signed": signed.name},
            "body": (
                gettext(
                    "%(signed)s comes off the sign-ups and the roster; the first on the "
                    "waitlist moves up at once."
                )
                if signed.status == Registration.Status.REGISTERED
                else gettext("%(signed)s comes off the sign-ups (the waitlist).")
            )
            % {"signed": signed.name},
            "action": gettext("Cancel the sign-up"),
            "danger": True,
            "back": back,
            "keep": gettext("Keep it"),
        },
    )
