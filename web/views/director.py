"""The director's pages: create and run a session (check-in, start, settings, arrivals,
withdrawals, movement, rebalancing, finishing), award the Big Loser and hand out scorer
links. Each needs a signed-in director of the club; every write is one service call."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import UserError
from common.qr import qr_svg
from tournaments import pagecache
from tournaments.models import Club, ScorerLink, Season, Session, Sitting, Table
from tournaments.permissions import can_direct, live_links
from web.forms import AddPlayersForm, SessionForm
from web.views import lists, manage
from web.views.common import act, directed_session, to_int, use_time_zone
from workflow.club import seating_wishes
from workflow.session import (
    format_words,
    movements,
    ranking_words,
    selectors,
    services,
    start_finish,
)
from workflow.tables import links as table_links


@login_required
@require_http_methods(["GET", "POST"])
def session_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not can_direct(request.user, club):
        raise PermissionDenied(gettext("Only a director of this club may create its sessions."))
    use_time_zone(club)
    form = SessionForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            session = services.session_create(club=club, user=request.user, **form.service_kwargs())
        except UserError as e:
            form.add_error(e.field if e.field in form.fields else None, e.message)
        else:
            messages.success(
                request,
                gettext("Session “%(session)s” created. Check players in, then start.")
                % {"session": session.name},
            )
            return redirect("tournaments:manage", pk=session.pk)
    return render(
        request,
        "tournaments/session_new.html",
        {"club": club, "form": form},
        status=400 if form.is_bound and form.errors else 200,
    )


@login_required
@require_POST
def session_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """One player's check-in, or taking it back. The manage page's buttons send it with
    fetch (static/checkin.js) and get the changed row back as JSON, so the page stays
    where it is; a plain post comes back to the player's row (`#player-N`)."""
    session = directed_session(request, pk)
    player_id = to_int(request.POST.get("player"))
    checked = request.POST.get("checked_in") == "1"
    # The paid box is on the form only when the session has an entry fee (`fee`).
    paid = request.POST.get("paid") == "1" if request.POST.get("fee") == "1" else None

    def check_in() -> None:
        services.session_check_in(
            session_id=session.pk,
            player_ids=[player_id],
            checked_in=checked,
            paid=paid,
            user=request.user,
        )

    if request.headers.get("X-Requested-With") == "fetch":
        try:
            check_in()
        except UserError as e:
            return JsonResponse({"error": e.message}, status=409)
        return JsonResponse(manage.check_in_answer(request, session, player_id))
    response = act(
        request,
        session,
        check_in,
        (gettext("Checked in.") if checked else gettext("Check-in taken back.")),
    )
    return redirect(f"{response['Location']}#player-{player_id}")


@login_required
@require_POST
def session_check_in_all(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    return act(
        request,
        session,
        lambda: services.session_check_in(
            session_id=session.pk, player_ids=None, checked_in=True, user=request.user
        ),
        gettext("Everyone on the roster is checked in."),
    )


@login_required
@require_POST
def session_start(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    try:
        sitting = start_finish.session_start(session_id=session.pk, user=request.user)
    except UserError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, gettext("Tables drawn and the first games started."))
        for pair in sitting.not_kept_apart:
            # The club's keep-apart wishes that the draw could not keep (the page lists
            # them too, while sitting 1 is played).
            first, second = pair["names"]
            reason = format_words.apart_reason(
                pair.get("code", ""), pair.get("values", {}), pair["reason"]
            )
            messages.warning(
                request,
                gettext("%(first)s and %(second)s could not be kept apart: %(reason)s.")
                % {"first": first, "second": second, "reason": reason},
            )
    return redirect("tournaments:manage", pk=session.pk)


@login_required
@require_POST
def session_fixed_table(request: HttpRequest, pk: int) -> HttpResponse:
    """A roster player who stays at one physical table all night, or moves again (an
    empty table)."""
    session = directed_session(request, pk)
    player_id = to_int(request.POST.get("player"))
    table = request.POST.get("table", "")
    try:
        entry = seating_wishes.session_set_fixed_table(
            session_id=session.pk, player_id=player_id, table=table, user=request.user
        )
    except UserError as e:
        messages.error(request, e.message)
    else:
        running = session.status == Session.Status.RUNNING
        if entry.fixed_table is None:
            done = (
                gettext("%(player)s moves like everyone from the next sitting on.")
                if running
                else gettext("%(player)s moves like everyone.")
            )
        else:
            done = (
                gettext("%(player)s stays at table %(table)s from the next sitting on.")
                if running
                else gettext("%(player)s stays at table %(table)s.")
            )
        messages.success(request, done % {"player": entry.player.name, "table": entry.fixed_table})
    return redirect(reverse("tournaments:manage", args=[session.pk]) + "#fixed-tables")


@login_required
@require_POST
def session_settings(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    games = to_int(request.POST.get("games_per_sitting"))
    return act(
        request,
        session,
        lambda: services.session_update_settings(
            session_id=session.pk,
            games_per_sitting=games,
            is_public=request.POST.get("is_public") == "on",
            double_entry=request.POST.get("double_entry") == "on",
            seeding=request.POST.get("seeding"),
            user=request.user,
        ),
        gettext("Settings saved."),
    )


@login_required
@require_POST
def session_add_players(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    form = AddPlayersForm(request.POST, club=session.club)
    if not form.is_valid():
        messages.error(request, gettext("Pick players from the list or type new names."))
        return redirect("tournaments:manage", pk=session.pk)
    late = session.status == Session.Status.RUNNING
    return act(
        request,
        session,
        lambda: services.session_add_players(
            session_id=session.pk,
            player_ids=[p.pk for p in form.cleaned_data["players"]],
            new_names=form.names(),
            new_anyway=form.cleaned_data["new_anyway"],
            user=request.user,
        ),
        (
            gettext("Late arrival seated at the bottom table.")
            if late
            else gettext("Added to the roster.")
        ),
    )


def _confirm(
    request: HttpRequest, session: Session, *, title: str, body: str, action: str, **extra: Any
) -> HttpResponse:
    """The confirmation page of a director's action that cannot simply be taken back."""
    context = {"title": title, "body": body, "action": action, "danger": True}
    context.update(extra, back=reverse("tournaments:manage", args=[session.pk]))
    return render(request, "confirm.html", context)


#: Tables of the movement preview on one page (100 players at tables of four, ~35 KiB).
MOVEMENT_TABLES_PER_PAGE = 25


@login_required
@require_http_methods(["GET", "POST"])
def movement(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    sitting = selectors.current_sitting(session)
    if sitting is None:
        messages.error(request, gettext("The session has not started."))
        return redirect("tournaments:manage", pk=session.pk)
    if request.method == "POST":
        number = to_int(request.POST.get("sitting"))
        return act(
            request,
            session,
            lambda: movements.sitting_move_players(
                session_id=session.pk, sitting_number=number, user=request.user
            ),
            gettext("Players moved. Sitting %(number)s has started.") % {"number": number + 1},
        )
    try:
        plan = pagecache.kept(session.pk, "movement", lambda: _movement_plan(sitting))
    except UserError as e:
        messages.error(request, e.message)
        return redirect("tournaments:manage", pk=session.pk)
    found = lists.listing(request, plan.tables, MOVEMENT_TABLES_PER_PAGE)
    if found.elsewhere is not None:
        return redirect(found.elsewhere)
    context = {
        "session": session,
        "sitting": sitting,
        "plan": plan,
        "listing": found,
        "refusal": movements.movement_refusal(session),
    }
    context.update(page=found.page, query=found.query)
    return render(request, "tournaments/movement.html", context)


@dataclass(frozen=True)
class MovementPlan:
    """The movement preview of a whole sitting, kept once per change of the session (250
    tables at 1,000 players) and shown a page of tables at a time."""

    tables: tuple[lists.Row, ...]  # in table order, found by their players' names
    players: int
    up: int
    down: int
    stay: int
    # What the tables of players who do not move will do next sitting.
    table_notes: tuple[str, ...] = ()


def _movement_plan(sitting: Sitting) -> MovementPlan:
    """Every table's order and moves; a sitting with games to play is refused, and
    nothing is kept."""
    preview = movements.movement_preview(sitting=sitting)
    moves = {m.player: m for m in preview.moves}
    tables = []
    for table, placings in preview.tables:
        # Each place's reason in the reader's words (the placing's own are English).
        why = ranking_words.reasons(placings, lambda pid: preview.names[pid])
        rows = [(p, moves[p.player], preview.names[p.player], why[p.player]) for p in placings]
        tables.append((table.rank, rows, table.number))
    directions = Counter(m.direction for m in preview.moves)
    return MovementPlan(
        tables=lists.render_rows(
            "tournaments/_movement_table.html",
            tables,
            lambda table: [name for _, _, name, _ in table[1]],
            {},
        ),
        players=len(moves),
        up=directions["up"],
        down=directions["down"],
        stay=directions["stay"],
        table_notes=tuple(preview.table_notes),
    )


@login_required
@require_http_methods(["GET", "POST"])
def movement_undo(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    if request.method == "POST":
        return act(
            request,
            session,
            lambda: movements.sitting_undo_movement(session_id=session.pk, user=request.user),
            gettext("Movement undone: the previous sitting is open again."),
        )
    refusal = movements.movement_undo_refusal(session, selectors.current_sitting(session))
    if refusal is not None:  # Say why at once, rather than after a confirmation.
        messages.error(request, refusal.message)
        return redirect("tournaments:manage", pk=session.pk)
    return _confirm(
        request,
        session,
        title=gettext("Undo the last movement?"),
        body=gettext(
            "The new sitting's tables and games are removed and the previous "
            "sitting opens again for corrections. Possible only while no round of "
            "the new sitting has been entered."
        ),
        action=gettext("Undo movement"),
    )


@login_required
@require_POST
def rebalance(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    expected = _proposal_key(request.POST.get("proposal", ""))
    return act(
        request,
        session,
        lambda: movements.session_rebalance(
            session_id=session.pk, expected=expected, user=request.user
        ),
        gettext("Tables rebalanced."),
    )


def _proposal_key(key: str) -> list[tuple[int, int, int]]:
    """The proposal the director saw, as the manage page wrote it: "player,from,to;…"."""
    expected = []
    for part in key.split(";"):
        if part:
            pid, src, dst = (to_int(x) for x in ([*part.split(","), "", "", ""])[:3])
            expected.append((pid, src, dst))
    return expected


@login_required
@require_http_methods(["GET", "POST"])
def session_finish(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    if request.method == "POST":
        early = request.POST.get("early") == "1"
        try:
            start_finish.session_finish(session_id=session.pk, early=early, user=request.user)
        except UserError as e:
            messages.error(request, e.message)
            return redirect("tournaments:manage", pk=session.pk)
        messages.success(request, gettext("Session finished; its standings count for the season."))
        return redirect("tournaments:standings", pk=session.pk)
    return _finish_confirm(request, session)


def _finish_confirm(request: HttpRequest, session: Session) -> HttpResponse:
    """Finishing fixes the standings; ending early also drops the unfinished games."""
    sitting = selectors.current_sitting(session)
    unfinished = (
        [p for p in selectors.sitting_progress(sitting) if not p.finished] if sitting else []
    )
    if not unfinished:
        body = gettext("The standings are then fixed for the season ladder.")
        return _confirm(
            request,
            session,
            title=gettext("Finish the session?"),
            body=body,
            action=gettext("Finish session"),
            danger=False,
        )
    return _confirm(
        request,
        session,
        title=gettext("End the session early?"),
        body=ngettext(
            "%(count)d table still has games to play; unfinished games will not count. The "
            "standings are then fixed for the season.",
            "%(count)d tables still have games to play; unfinished games will not count. The "
            "standings are then fixed for the season.",
            len(unfinished),
        )
        % {"count": len(unfinished)},
        action=gettext("End session early"),
        hidden={"early": "1"},
    )


@login_required
@require_POST
def big_loser(request: HttpRequest, season_pk: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_pk)
    if not can_direct(request.user, season.club):
        raise PermissionDenied(gettext("Only a director of this club may award the Big Loser."))
    use_time_zone(season.club)
    try:
        start_finish.big_loser_award(
            season_id=season.pk,
            player_id=to_int(request.POST["player"]) if request.POST.get("player") else None,
            name=request.POST.get("name", ""),
            new_anyway=request.POST.get("new_anyway") == "1",
            note=request.POST.get("note", ""),
            user=request.user,
        )
    except UserError as e:
        messages.error(request, e.message)
        # Refused: the form comes back with what was typed in it.
        typed = urlencode(
            {
                "season": season.pk,
                "bl_name": request.POST.get("name", ""),
                "bl_note": request.POST.get("note", ""),
            }
        )
        return redirect(f"{reverse('tournaments:club', args=[season.club.slug])}?{typed}#big-loser")
    messages.success(
        request, gettext("Big Loser of %(season)s recorded.") % {"season": season.name}
    )
    return redirect(f"{reverse('tournaments:club', args=[season.club.slug])}?season={season.pk}")


@login_required
@require_http_methods(["GET", "POST"])
def scorer_links(request: HttpRequest, pk: int) -> HttpResponse:
    """A table's scorer link and QR code, for the director to hand out or revoke."""
    table = get_object_or_404(Table.objects.select_related("sitting__session__club"), pk=pk)
    if not can_direct(request.user, table.sitting.session.club_id):
        raise PermissionDenied(gettext("Only a director of this club may hand out scorer links."))
    use_time_zone(table.sitting.session.club)
    if request.method == "POST":
        try:
            messages.success(request, _scorer_link_change(request, table))
        except UserError as e:
            messages.error(request, e.message)
        return redirect("tournaments:scorer_links", pk=table.pk)
    link = live_links(
        ScorerLink.objects.filter(table=table, card=None, club_card=None).values_list(
            "token", flat=True
        )
    ).first()
    url = (
        request.build_absolute_uri(reverse("tournaments:scorer_open", args=[link.token]))
        if link
        else ""
    )
    context = {"table": table, "session": table.sitting.session, "link": link, "url": url}
    return render(request, "tournaments/scorer_link.html", {**context, "qr": qr_svg(url)})


def _scorer_link_change(request: HttpRequest, table: Table) -> str:
    if request.POST.get("action") == "revoke":
        count = table_links.scorer_link_revoke(table_id=table.pk, user=request.user)
        return ngettext(
            "%(count)d scorer link revoked.", "%(count)d scorer links revoked.", count
        ) % {"count": count}
    # Revoke and create in one transaction, as the API does: a refusal keeps the old link.
    replaced = table_links.scorer_link_replace(table_id=table.pk, user=request.user)
    if replaced.revoked:
        return "A new scorer link replaces the old one; the old one no longer works."
    return "Scorer link created."
