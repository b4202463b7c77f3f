"""Pages: thin views that read through selectors and write through services.

Public pages (find my table, all tables, standings, the club's season) need no account;
the director's pages need a signed-in director of the club.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import qrcode
import qrcode.image.svg
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from huckley.errors import UserError
from scoring.models import GamePlayer
from tournaments import selectors, services
from tournaments.forms import AddPlayersForm, SessionForm
from tournaments.models import (
    BigLoserAward,
    Club,
    ScorerLink,
    Season,
    Seating,
    Session,
    SessionPlayer,
    SessionStanding,
    Table,
)
from tournaments.permissions import (
    SESSION_KEY,
    actor_from_request,
    can_direct,
    can_view_session,
    live_links,
    players_of,
    visible_sessions,
)

# Public -------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    actor = actor_from_request(request)
    sessions = visible_sessions(actor).select_related("club").order_by("-date", "-id")[:20]
    clubs = Club.objects.order_by("name")
    directed = Club.objects.filter(directors=request.user) if request.user.is_authenticated else []
    return render(
        request,
        "tournaments/home.html",
        {"sessions": sessions, "clubs": clubs, "directed": directed},
    )


def _public_session(request: HttpRequest, pk: int) -> Session:
    """A session this visitor may see; others get a 404, as if it did not exist."""
    session = get_object_or_404(Session.objects.select_related("club", "season"), pk=pk)
    if not can_view_session(actor_from_request(request), session):
        raise Http404("No such session.")
    return session


def session_public(request: HttpRequest, pk: int) -> HttpResponse:
    """All tables of the current sitting, and "find my table" by name."""
    session = _public_session(request, pk)
    sitting = session.sittings.order_by("-number").first()
    query = request.GET.get("name", "").strip()
    found = selectors.find_seating(session, query) if query else []
    companions = selectors.table_companions([s.table for s in found]) if found else {}

    def board() -> list[selectors.BoardTable]:
        # Called by the template only when its cached copy is missing or stale.
        return selectors.sitting_board(sitting) if sitting else []

    return render(
        request,
        "tournaments/session_public.html",
        {
            "session": session,
            "sitting": sitting,
            "board": board,
            # "Find my table" shows the player's table only: a phone needs no 250 tables.
            "show_board": bool(sitting) and not query,
            # One URL reversed, the table id filled in per card: reversing 250 times costs.
            "table_url": reverse("scoring:table", args=[0]).replace("/0/", "/{}/"),
            "sitting_out": list(sitting.sit_outs.values_list("player__name", flat=True))
            if sitting and not query
            else [],
            "query": query,
            "found": [
                (s, [c for c in companions.get(s.table_id, []) if c.pk != s.pk]) for s in found
            ],
            "may_direct": can_direct(request.user, session.club_id),
        },
    )


def session_standings(request: HttpRequest, pk: int) -> HttpResponse:
    session = _public_session(request, pk)
    return render(
        request,
        "tournaments/standings.html",
        {"session": session, "rows": selectors.session_standings(session)},
    )


def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    seasons = list(club.seasons.all())
    wanted = request.GET.get("season")
    season = next((s for s in seasons if str(s.pk) == wanted), seasons[0] if seasons else None)
    awards = BigLoserAward.objects.filter(season__club=club).select_related("season", "player")
    may_direct = can_direct(request.user, club)
    rows = selectors.season_standings_cached(season.pk) if season else []
    return render(
        request,
        "tournaments/club.html",
        {
            "club": club,
            "seasons": seasons,
            "season": season,
            "rows": rows,
            "sessions": (
                season.sessions.order_by("-date")
                if may_direct
                else visible_sessions(actor_from_request(request)).filter(season=season)
            )
            if season
            else [],
            "awards": awards.order_by("-season__starts_on"),
            "may_direct": may_direct,
            "suggestion": selectors.big_loser_suggestion(season.pk, club.big_loser_criterion)
            if season and may_direct
            else [],
            "award": next((a for a in awards if season and a.season_id == season.pk), None),
            "season_awards": selectors.season_awards(season.pk, rows) if season else None,
            "season_closed": bool(season and season.ends_on < timezone.localdate()),
        },
    )


# Director -----------------------------------------------------------------------------


def _directed(request: HttpRequest, pk: int) -> Session:
    session = get_object_or_404(Session.objects.select_related("club", "season"), pk=pk)
    if not can_direct(request.user, session.club_id):
        raise PermissionDenied("Only a director of this club may run its sessions.")
    return session


def _act(
    request: HttpRequest, session: Session, action: Callable[[], Any], done: str
) -> HttpResponse:
    try:
        action()
    except UserError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, done)
    return redirect("tournaments:manage", pk=session.pk)


@login_required
@require_http_methods(["GET", "POST"])
def session_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not can_direct(request.user, club):
        raise PermissionDenied("Only a director of this club may create its sessions.")
    form = SessionForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            session = services.session_create(
                club=club,
                season=d["season"],
                name=d["name"],
                date=d["date"],
                rules_id=d["rules_id"],
                games_per_sitting=d["games_per_sitting"],
                seed=d["seed"],
                is_public=d["is_public"],
                double_entry=d["double_entry"],
                player_ids=[p.pk for p in d["players"]],
                new_names=form.names(),
                user=request.user,
            )
        except UserError as e:
            form.add_error(e.field if e.field in form.fields else None, e.message)
        else:
            messages.success(
                request, f"Session “{session.name}” created. Check players in, then start."
            )
            return redirect("tournaments:manage", pk=session.pk)
    return render(
        request,
        "tournaments/session_new.html",
        {"club": club, "form": form},
        status=400 if form.is_bound and form.errors else 200,
    )


@login_required
def session_manage(request: HttpRequest, pk: int) -> HttpResponse:
    session = _directed(request, pk)
    sitting = session.sittings.order_by("-number").first()
    progress = selectors.sitting_progress(sitting) if sitting else []
    entries = list(
        SessionPlayer.objects.filter(session=session)
        .select_related("player")
        .order_by("player__name")
    )
    proposal, proposal_error = [], None
    if session.status == Session.Status.RUNNING:
        try:
            proposal = services.rebalance_proposal(session=session)
        except UserError as e:
            proposal_error = e.message
    names = {e.player_id: e.player.name for e in entries}
    return render(
        request,
        "tournaments/manage.html",
        {
            "session": session,
            "sitting": sitting,
            "progress": progress,
            "entries": entries,
            "checked_in": sum(1 for e in entries if e.checked_in and not e.withdrawn_at),
            "sitting_done": bool(progress) and all(p.finished for p in progress),
            "proposal": [(m, names.get(m.player, "?")) for m in proposal],
            "proposal_key": ";".join(f"{m.player},{m.from_rank},{m.to_rank}" for m in proposal),
            "proposal_error": proposal_error,
            "add_form": AddPlayersForm(
                club=session.club,
                playing=[e.player_id for e in entries if e.withdrawn_at is None],
            ),
            "can_undo": sitting is not None
            and sitting.number > 1
            and not any(p.current_game and p.current_game.round_count for p in progress),
        },
    )


@login_required
@require_POST
def session_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    session = _directed(request, pk)
    player_id = _int(request.POST.get("player"))
    checked = request.POST.get("checked_in") == "1"
    return _act(
        request,
        session,
        lambda: services.session_check_in(
            session_id=session.pk, player_ids=[player_id], checked_in=checked, user=request.user
        ),
        "Checked in." if checked else "Check-in taken back.",
    )


@login_required
@require_POST
def session_check_in_all(request: HttpRequest, pk: int) -> HttpResponse:
    session = _directed(request, pk)

    return _act(
        request,
        session,
        lambda: services.session_check_in(
            session_id=session.pk, player_ids=None, checked_in=True, user=request.user
        ),
        "Everyone on the roster is checked in.",
    )


@login_required
@require_POST
def session_start(request: HttpRequest, pk: int) -> HttpResponse:
    session = _directed(request, pk)
    return _act(
        request,
        session,
        lambda: services.session_start(session_id=session.pk, user=request.user),
        "Tables drawn and the first games started.",
    )


@login_required
@require_POST
def session_settings(request: HttpRequest, pk: int) -> HttpResponse:
    session = _directed(request, pk)
    games = _int(request.POST.get("games_per_sitting"))
    return _act(
        request,
        session,
        lambda: services.session_update_settings(
            session_id=session.pk,
            games_per_sitting=games,
            is_public=request.POST.get("is_public") == "on",
            double_entry=request.POST.get("double_entry") == "on",
            user=request.user,
        ),
        "Settings saved.",
    )


@login_required
@require_POST
def session_add_players(request: HttpRequest, pk: int) -> HttpResponse:
    session = _directed(request, pk)
    form = AddPlayersForm(request.POST, club=session.club)
    if not form.is_valid():
        messages.error(request, "Pick players from the list or type new names.")
        return redirect("tournaments:manage", pk=session.pk)
    late = session.status == Session.Status.RUNNING
    return _act(
        request,
        session,
        lambda: services.session_add_players(
            session_id=session.pk,
            player_ids=[p.pk for p in form.cleaned_data["players"]],
            new_names=form.cleaned_data["new_names"].splitlines(),
            user=request.user,
        ),
        "Late arrival seated at the bottom table." if late else "Added to the roster.",
    )


@login_required
@require_http_methods(["GET", "POST"])
def session_withdraw(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    session = _directed(request, pk)
    entry = get_object_or_404(
        SessionPlayer.objects.select_related("player"), session=session, player_id=player_id
    )
    if request.method == "POST":
        return _act(
            request,
            session,
            lambda: services.session_withdraw(
                session_id=session.pk, player_id=player_id, user=request.user
            ),
            f"{entry.player.name} withdrew.",
        )
    return render(
        request,
        "confirm.html",
        {
            "title": f"Withdraw {entry.player.name}?",
            "body": "They leave their table before the next game. Their finished games still "
            "count. If a table becomes too small, the app proposes moves to fix it.",
            "action": "Withdraw",
            "danger": True,
            "back": reverse("tournaments:manage", args=[session.pk]),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def movement(request: HttpRequest, pk: int) -> HttpResponse:
    session = _directed(request, pk)
    sitting = session.sittings.order_by("-number").first()
    if sitting is None:
        messages.error(request, "The session has not started.")
        return redirect("tournaments:manage", pk=session.pk)
    if request.method == "POST":
        number = _int(request.POST.get("sitting"))
        return _act(
            request,
            session,
            lambda: services.sitting_move_players(
                session_id=session.pk, sitting_number=number, user=request.user
            ),
            f"Players moved. Sitting {number + 1} has started.",
        )
    try:
        preview = services.movement_preview(sitting=sitting)
    except UserError as e:
        messages.error(request, e.message)
        return redirect("tournaments:manage", pk=session.pk)
    moves = {m.player: m for m in preview.moves}
    return render(
        request,
        "tournaments/movement.html",
        {
            "session": session,
            "sitting": sitting,
            "tables": [
                (table, [(p, moves[p.player], preview.names[p.player]) for p in placings])
                for table, placings in preview.tables
            ],
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def movement_undo(request: HttpRequest, pk: int) -> HttpResponse:
    session = _directed(request, pk)
    if request.method == "POST":
        return _act(
            request,
            session,
            lambda: services.sitting_undo_movement(session_id=session.pk, user=request.user),
            "Movement undone: the previous sitting is open again.",
        )
    return render(
        request,
        "confirm.html",
        {
            "title": "Undo the last movement?",
            "body": "The new sitting's tables and games are removed and the previous sitting "
            "opens again for corrections. Possible only while no round of the new sitting "
            "has been entered.",
            "action": "Undo movement",
            "danger": True,
            "back": reverse("tournaments:manage", args=[session.pk]),
        },
    )


@login_required
@require_POST
def rebalance(request: HttpRequest, pk: int) -> HttpResponse:
    session = _directed(request, pk)
    expected = []
    for part in request.POST.get("proposal", "").split(";"):
        if part:
            pid, src, dst = (_int(x) for x in ([*part.split(","), "", "", ""])[:3])
            expected.append((pid, src, dst))
    return _act(
        request,
        session,
        lambda: services.session_rebalance(
            session_id=session.pk, expected=expected, user=request.user
        ),
        "Tables rebalanced.",
    )


@login_required
@require_http_methods(["GET", "POST"])
def session_finish(request: HttpRequest, pk: int) -> HttpResponse:
    session = _directed(request, pk)
    if request.method == "POST":
        early = request.POST.get("early") == "1"
        try:
            services.session_finish(session_id=session.pk, early=early, user=request.user)
        except UserError as e:
            messages.error(request, e.message)
            return redirect("tournaments:manage", pk=session.pk)
        messages.success(request, "Session finished; its standings count for the season.")
        return redirect("tournaments:standings", pk=session.pk)
    sitting = session.sittings.order_by("-number").first()
    unfinished = (
        [p for p in selectors.sitting_progress(sitting) if not p.finished] if sitting else []
    )
    return render(
        request,
        "confirm.html",
        {
            "title": "End the session early?" if unfinished else "Finish the session?",
            "body": (
                f"{len(unfinished)} table(s) still have games to play; unfinished games will "
                "not count. The standings are then fixed for the season."
                if unfinished
                else "The standings are then fixed for the season ladder."
            ),
            "action": "End session early" if unfinished else "Finish session",
            "danger": bool(unfinished),
            "hidden": {"early": "1"} if unfinished else {},
            "back": reverse("tournaments:manage", args=[session.pk]),
        },
    )


@login_required
@require_POST
def big_loser(request: HttpRequest, season_pk: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_pk)
    if not can_direct(request.user, season.club):
        raise PermissionDenied("Only a director of this club may award the Big Loser.")
    try:
        services.big_loser_award(
            season_id=season.pk,
            player_id=_int(request.POST.get("player")),
            note=request.POST.get("note", "")[:200],
            user=request.user,
        )
    except UserError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, f"Big Loser of {season.name} recorded.")
    return redirect(f"{reverse('tournaments:club', args=[season.club.slug])}?season={season.pk}")


# Scorer links ---------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def scorer_links(request: HttpRequest, pk: int) -> HttpResponse:
    """A table's scorer link and QR code, for the director to hand out or revoke."""
    table = get_object_or_404(Table.objects.select_related("sitting__session__club"), pk=pk)
    session = table.sitting.session
    if not can_direct(request.user, session.club_id):
        raise PermissionDenied("Only a director of this club may hand out scorer links.")
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "revoke":
                count = services.scorer_link_revoke(table_id=table.pk, user=request.user)
                messages.success(request, f"{count} scorer link(s) revoked.")
            else:
                replaced = services.scorer_link_revoke(table_id=table.pk, user=request.user)
                services.scorer_link_create(table_id=table.pk, user=request.user)
                messages.success(
                    request,
                    "A new scorer link replaces the old one; the old one no longer works."
                    if replaced
                    else "Scorer link created.",
                )
        except UserError as e:
            messages.error(request, e.message)
        return redirect("tournaments:scorer_links", pk=table.pk)
    link = live_links(
        ScorerLink.objects.filter(table=table).values_list("token", flat=True)
    ).first()
    url = (
        request.build_absolute_uri(reverse("tournaments:scorer_open", args=[link.token]))
        if link
        else ""
    )
    return render(
        request,
        "tournaments/scorer_link.html",
        {
            "table": table,
            "session": session,
            "link": link,
            "url": url,
            "qr": _qr_svg(url) if url else "",
        },
    )


def _qr_svg(text: str) -> str:
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=12)
    return str(image.to_string(encoding="unicode"))


def scorer_open(request: HttpRequest, token: str) -> HttpResponse:
    """Opening a scorer link: the browser may then score that table, no account needed."""
    link = live_links([token]).select_related("table").first()
    if link is None:
        return render(
            request,
            "error.html",
            {
                "error": UserError(
                    "scorer_link_expired",
                    "This scorer link has expired (the sitting has moved on or the session "
                    "ended) or was revoked. Ask the director for a new one.",
                )
            },
            status=410,
        )
    tokens = set(request.session.get(SESSION_KEY, []))
    tokens.add(token)
    request.session[SESSION_KEY] = sorted(tokens)
    messages.success(request, f"You can now enter results for table {link.table.rank}.")
    return redirect("scoring:table", pk=link.table_id)


# Players --------------------------------------------------------------------------------


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """A player's own assignments, games and history, for accounts linked to a Player."""
    players = players_of(request.user)
    seatings = (
        Seating.objects.filter(
            player__in=players,
            left_at__isnull=True,
            sitting__session__status=Session.Status.RUNNING,
            sitting__moved_at__isnull=True,
        )
        .select_related("table", "sitting__session")
        .order_by("-sitting__session__date")
    )
    games = (
        GamePlayer.objects.filter(player__in=players, game__status="finished")
        .select_related("game__table__sitting__session")
        .order_by("-game__finished_at")[:30]
    )
    history = (
        SessionStanding.objects.filter(player__in=players)
        .select_related("session__club")
        .order_by("-session__date")[:30]
    )
    return render(
        request,
        "tournaments/my_games.html",
        {"players": players, "seatings": seatings, "games": games, "history": history},
    )


def _int(value: str | None) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise UserError("bad_number", "That request was incomplete; reload the page.") from None
