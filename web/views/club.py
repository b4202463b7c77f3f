"""The director's pages for running the club without Django's admin: seasons, players
(add, rename, merge, deactivate), calling off a session, directors and the club's time
zone (docs/tournament.md, "Running the club"). Each needs a signed-in director of the
club; every write is one call of `workflow.club.services`, and the destructive ones
ask for confirmation first."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import UserError
from tournaments.models import Club, Player, Season, Session
from web.forms import InviteForm, NewPlayerForm, PlayerNameForm, SeasonForm, TimeZoneForm
from web.views import lists
from web.views.common import directed_club, run, to_int
from workflow.club import directors as club_directors
from workflow.club import selectors as club_selectors
from workflow.club import services as club_services

PER_PAGE = 50


def _url(name: str, club: Club, *args: Any) -> str:
    return reverse(f"tournaments:{name}", args=[club.slug, *args])


def _confirm(
    request: HttpRequest, *, title: str, body: str, action: str, back: str, **extra: Any
) -> HttpResponse:
    context = {"title": title, "body": body, "action": action, "danger": True, "back": back}
    return render(request, "confirm.html", {**context, **extra})


def _form_error(form: Any, error: UserError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


@login_required
def club_home(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    context = {
        "club": club,
        "tz_form": TimeZoneForm(initial={"time_zone": club.time_zone}),
        "players": club.players.count(),
        "seasons": club.seasons.count(),
        "sessions": club.sessions.count(),
        "directors": club.directors.count(),
    }
    return render(request, "tournaments/club_home.html", context)


@login_required
@require_POST
def club_time_zone(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    zone = request.POST.get("time_zone", "")
    return run(
        request,
        lambda: club_services.club_set_time_zone(
            club_id=club.pk, time_zone=zone, user=request.user
        ),
        gettext("Times on the club's pages are now shown in %(strip)s.") % {"strip": zone.strip()},
        _url("club_home", club),
    )


@login_required
@require_http_methods(["GET", "POST"])
def seasons(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = club_services.season_open(
                club_id=club.pk, user=request.user, **form.cleaned_data
            )
        except UserError as e:
            _form_error(form, e)
        else:
            messages.success(
                request, gettext("Season %(season)s opened.") % {"season": season.name}
            )
            return redirect(_url("club_seasons", club))
    # Newest first, as the club's page picks them; said outright, because a query with
    # an aggregate leaves out the model's own ordering.
    listed = (
        club.seasons.select_related("big_loser__player")
        .annotate(session_count=Count("sessions"))
        .order_by("-starts_on", "-pk")
    )
    context = {"club": club, "form": form, "season_list": listed}
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "tournaments/club_seasons.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def season_close(request: HttpRequest, slug: str, season_pk: int) -> HttpResponse:
    club = directed_club(request, slug)
    season = get_object_or_404(Season, club=club, pk=season_pk)
    back = _url("club_seasons", club)
    if request.method == "POST":
        return run(
            request,
            lambda: club_services.season_close(season_id=season.pk, user=request.user),
            gettext("Season %(season)s closed.") % {"season": season.name},
            back,
        )
    return _confirm(
        request,
        title=gettext("Close the season %(season)s?") % {"season": season.name},
        body=gettext(
            "A closed season takes no new session. Its standings and its Big Loser "
            "stay; every session of it must be finished or cancelled first."
        ),
        action=gettext("Close season"),
        back=back,
    )


@login_required
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    form = NewPlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = club_services.player_add(
                club_id=club.pk,
                name=form.cleaned_data["name"],
                new_anyway=form.cleaned_data["new_anyway"],
                user=request.user,
            )
        except UserError as e:
            _form_error(form, e)
        else:
            messages.success(request, gettext("%(player)s added.") % {"player": player.name})
            return redirect(_url("club_player", club, player.pk))
    query = lists.searched(request)
    page = Paginator(club_selectors.club_players(club.pk, query), PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {"club": club, "form": form, "page": page, "query": query}
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "tournaments/club_players.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    club = directed_club(request, slug)
    record = get_object_or_404(Player, club=club, pk=player_id)
    form = PlayerNameForm(request.POST or None, initial={"name": record.name})
    if request.method == "POST" and form.is_valid():
        old = record.name
        try:
            club_services.player_rename(
                player_id=record.pk, name=form.cleaned_data["name"], user=request.user
            )
        except UserError as e:
            _form_error(form, e)
        else:
            messages.success(
                request,
                gettext("%(old)s is now called %(name)s.")
                % {"old": old, "name": form.cleaned_data["name"]},
            )
            return redirect(_url("club_player", club, record.pk))
    context = {"club": club, "player": record, "form": form}
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "tournaments/club_player.html", context, status=status)


@login_required
@require_POST
def player_active(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    club = directed_club(request, slug)
    record = get_object_or_404(Player, club=club, pk=player_id)
    active = request.POST.get("active") == "1"
    done = (
        gettext("%(record)s is active again.")
        if active
        else gettext("%(record)s is inactive: left off new sessions' rosters.")
    )
    return run(
        request,
        lambda: club_services.player_set_active(
            player_id=record.pk, active=active, user=request.user
        ),
        done % {"record": record.name},
        _url("club_player", club, record.pk),
    )


@login_required
@require_http_methods(["GET", "POST"])
def player_merge(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Fold a duplicate record (named in `duplicate`) into this player, after a
    confirmation that says what moves."""
    club = directed_club(request, slug)
    kept = get_object_or_404(Player, club=club, pk=player_id)
    back = _url("club_player", club, kept.pk)
    if request.method == "POST":
        merged_id = to_int(request.POST.get("merged"))
        return run(
            request,
            lambda: club_services.player_merge(
                kept_id=kept.pk, merged_id=merged_id, user=request.user
            ),
            gettext("The two records are one: %(kept)s.") % {"kept": kept.name},
            back,
        )
    name = request.GET.get("duplicate", "").strip()
    merged = Player.objects.filter(club=club, name__iexact=name).first()
    if merged is None:
        messages.error(
            request, gettext("The club has no player called “%(name)s”.") % {"name": name}
        )
        return redirect(back)
    return _merge_confirm(request, kept, merged, back)


def _merge_confirm(request: HttpRequest, kept: Player, merged: Player, back: str) -> HttpResponse:
    refusal = club_services.merge_refusal(kept, merged)
    if refusal is not None:
        messages.error(request, refusal.message)
        return redirect(back)
    plan = club_services.merge_plan(kept, merged)
    moved = ", ".join(f"{count} {kind}" for kind, count in plan.moves) or "nothing"
    return _confirm(
        request,
        title=gettext("Merge “%(merged)s” into “%(kept)s”?")
        % {"merged": merged.name, "kept": kept.name},
        body=gettext(
            "Everything of %(merged)s becomes %(kept)s's (%(moved)s), and the "
            "record %(merged)s is deleted. This cannot be undone."
        )
        % {"merged": merged.name, "kept": kept.name, "moved": moved},
        action=gettext("Merge"),
        back=back,
        hidden={"merged": merged.pk},
    )


@login_required
def sessions(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    page = Paginator(club_selectors.club_sessions(club.pk), PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {"club": club, "page": page, "Status": Session.Status}
    return render(request, "tournaments/club_sessions.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def session_cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = directed_club(request, slug)
    session = get_object_or_404(Session, club=club, pk=pk)
    back = _url("club_sessions", club)
    if request.method == "POST":
        return run(
            request,
            lambda: club_services.session_cancel(session_id=session.pk, user=request.user),
            gettext("“%(session)s” is cancelled.") % {"session": session.name},
            back,
        )
    return _confirm(
        request,
        title=gettext("Cancel “%(session)s” (%(date)s)?")
        % {"session": session.name, "date": date_format(session.date, "SHORT_DATE_FORMAT")},
        body=gettext(
            "It will not be played. It stays on the club's list as cancelled, with "
            "its roster; you can delete it afterwards."
        ),
        action=gettext("Cancel session"),
        keep=gettext("Keep the session"),
        back=back,
    )


@login_required
@require_http_methods(["GET", "POST"])
def session_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = directed_club(request, slug)
    session = get_object_or_404(Session, club=club, pk=pk)
    back = _url("club_sessions", club)
    if request.method == "POST":
        return run(
            request,
            lambda: club_services.session_delete(session_id=session.pk, user=request.user),
            gettext("“%(session)s” is deleted.") % {"session": session.name},
            back,
        )
    return _confirm(
        request,
        title=gettext("Delete “%(session)s” (%(date)s)?")
        % {"session": session.name, "date": date_format(session.date, "SHORT_DATE_FORMAT")},
        body=gettext(
            "It never started, so nothing was played: the session and its roster "
            "are removed. The players stay in the club."
        ),
        action=gettext("Delete session"),
        back=back,
    )


@login_required
@require_http_methods(["GET", "POST"])
def directors(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    form = InviteForm(request.POST or None)
    invited = None
    if request.method == "POST" and form.is_valid():
        try:
            invited = club_directors.director_invite(
                club_id=club.pk, user=request.user, **form.cleaned_data
            )
        except UserError as e:
            _form_error(form, e)
        else:
            messages.success(
                request,
                gettext("%(get_username)s now directs %(club)s.")
                % {"get_username": invited.user.get_username(), "club": club.name},
            )
            if not invited.created:
                return redirect(_url("club_directors", club))
            form = InviteForm()
    context = {
        "club": club,
        "form": form,
        "invited": invited,
        "link": _set_password_url(request, invited),
    }
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "tournaments/club_directors.html", context, status=status)


def _set_password_url(request: HttpRequest, invited: club_directors.Invited | None) -> str:
    if invited is None or not invited.created:
        return ""
    path = reverse("password_reset_confirm", args=[invited.uid, invited.token])
    return request.build_absolute_uri(path)


@login_required
@require_http_methods(["GET", "POST"])
def director_remove(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club = directed_club(request, slug)
    account = get_object_or_404(get_user_model(), pk=user_id, directed_clubs=club)
    back = _url("club_directors", club)
    if request.method == "POST":
        # Who removed themself may no longer see the directors' page: to the club's page.
        gone = reverse("tournaments:club", args=[club.slug])
        return run(
            request,
            lambda: club_directors.director_remove(
                club_id=club.pk, user_id=account.pk, user=request.user
            ),
            gettext("%(get_username)s no longer directs %(club)s.")
            % {"get_username": account.get_username(), "club": club.name},
            gone if account.pk == request.user.pk else back,
            failed=back,
        )
    return _confirm(
        request,
        title=gettext("Remove %(get_username)s as a director?")
        % {"get_username": account.get_username()},
        body=gettext("They can no longer run %(club)s's sessions. Their account stays.")
        % {"club": club.name},
        action=gettext("Remove director"),
        back=back,
    )
