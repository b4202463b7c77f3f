"""The director's pages of online play (docs/tournament.md, "Online play"): the grace
time and the move clock, the session's seats with their links and QR codes (printable,
and emailed on request), a table switched online or to paper, robots seated at a short
table, and watching a table as the wall does (never a hand). Each needs a signed-in
director of the club; every write is one service call."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import UserError
from common.qr import qr_svg
from play import director, director_selectors, selectors, services
from play.models import LiveRound
from play.seat_mail import seat_path
from scoring.tables import table_current_game
from tournaments.models import Session, Table
from web.views.common import act, directed_session
from workflow.session import online_settings
from workflow.session import selectors as workflow_selectors


@login_required
@require_POST
def session_online_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """The grace time and the move clock, as typed (the service reads the seconds), and
    the boxes of duplicate deals and robots that fill seats."""
    session = directed_session(request, pk)
    response = act(
        request,
        session,
        lambda: online_settings.session_online_settings(
            session_id=session.pk,
            online_grace_seconds=request.POST.get("online_grace_seconds", ""),
            move_clock_seconds=request.POST.get("move_clock_seconds", ""),
            # The form's box, ticked or not (a page without it leaves the setting be).
            duplicate=(
                request.POST.get("duplicate") == "on" if "duplicate_shown" in request.POST else None
            ),
            fill_with_robots=(
                request.POST.get("fill_with_robots") == "on"
                if "fill_with_robots_shown" in request.POST
                else None
            ),
            user=request.user,
        ),
        gettext("Online settings saved."),
    )
    return redirect(f"{response['Location']}#online")


@login_required
@require_http_methods(["GET"])
def session_seats(request: HttpRequest, pk: int) -> HttpResponse:
    """Every seated player with their table, seat, personal link and QR code; the links
    missing are made first (`play.services.seat_links_ensure`, as the API's seats list)."""
    session = directed_session(request, pk)
    rows: list[dict[str, Any]] = []
    if session.status == Session.Status.RUNNING:
        rows = services.seat_links_ensure(session_id=session.pk, user=request.user)
    site = request.build_absolute_uri("/").rstrip("/")
    seats = [
        row
        | {
            "url": site + seat_path(row["token"]),
            "qr": qr_svg(site + seat_path(row["token"])) if row["online"] else "",
        }
        for row in rows
        if row.get("token")
    ]
    context = {
        "session": session,
        "sitting": workflow_selectors.current_sitting(session),
        "seats": [s for s in seats if s["online"]],
        "paper": sorted({s["table_number"] for s in seats if not s["online"]}),
        "with_email": session.status == Session.Status.RUNNING,
    }
    return render(request, "play/seats.html", context)


@login_required
@require_POST
def session_seats_email(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    back = reverse("tournaments:online_seats", args=[session.pk])
    try:
        names = director.seat_links_email(
            session_id=session.pk, site=request.build_absolute_uri("/"), user=request.user
        )
    except UserError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request,
            ngettext(
                "The seat links are on their way to %(count)s player with an email address.",
                "The seat links are on their way to %(count)s players with an email address.",
                len(names),
            )
            % {"count": len(names)},
        )
    return redirect(back)


def _directed_table(request: HttpRequest, table_id: int) -> tuple[Session, Table]:
    table = get_object_or_404(Table.objects.select_related("sitting__session"), pk=table_id)
    session = directed_session(request, table.sitting.session_id)
    return session, table


@login_required
@require_http_methods(["GET", "POST"])
def table_online(request: HttpRequest, table_id: int) -> HttpResponse:
    """Switch a table online or to paper. Asked first where it matters: a dealt round
    set aside, or a game with rounds on paper carried on online."""
    session, table = _directed_table(request, table_id)
    wanted = request.POST.get("online", request.GET.get("online", "")) == "1"
    warning = _switch_warning(table, wanted)
    if request.method == "GET" or (warning and request.POST.get("confirmed") != "1"):
        return render(
            request,
            "confirm.html",
            {
                "title": (
                    gettext("Table %(number)s: play online?")
                    if wanted
                    else gettext("Table %(number)s: play on paper?")
                )
                % {"number": table.number},
                "body": warning
                or (
                    gettext(
                        "The players of table %(number)s then play on their phones with their "
                        "seat links."
                    )
                    if wanted
                    else gettext("The players of table %(number)s then play with real cards")
                )
                % {"number": table.number},
                "action": (gettext("Play online") if wanted else gettext("Play on paper")),
                "danger": bool(warning),
                "hidden": {"online": "1" if wanted else "0", "confirmed": "1"},
                "back": reverse("tournaments:manage", args=[session.pk]) + "#online",
            },
        )
    response = act(
        request,
        session,
        lambda: services.table_online_set(
            table_id=table.pk,
            online=wanted,
            user=request.user,
            confirm=request.POST.get("confirmed") == "1",
        ),
        (
            gettext("Table %(number)s plays online.")
            if wanted
            else gettext("Table %(number)s plays on paper.")
        )
        % {"number": table.number},
    )
    return redirect(f"{response['Location']}#online")


def _switch_warning(table: Table, online: bool) -> str:
    """What a switch would do that the director should know before it, or ""."""
    if table.online == online:
        return ""
    game = table_current_game(table)
    if game is None:
        return ""
    if not online:
        live = LiveRound.objects.filter(game=game).first()
        if live is not None and live.number > game.round_count:
            return gettext(
                "Round %(round)s of game %(game)s is dealt on the phones. It is set "
                "aside (its moves so far are kept in the directors' log): the players deal "
                "it again with real cards and its result is typed in on the score sheet."
            ) % {"round": live.number, "game": game.number}
        return ""
    if game.round_count:
        return ngettext(
            "Game %(game)s has %(count)s round entered on paper; the phones carry on "
            "from round %(next)s.",
            "Game %(game)s has %(count)s rounds entered on paper; the phones carry on "
            "from round %(next)s.",
            game.round_count,
        ) % {"game": game.number, "count": game.round_count, "next": game.round_count + 1}
    return ""


@login_required
@require_http_methods(["GET", "POST"])
def table_robots(request: HttpRequest, table_id: int) -> HttpResponse:
    """Seat robots to fill a short online table, after a confirmation."""
    session, table = _directed_table(request, table_id)
    if request.method == "POST":
        try:
            names = director.table_robot_seat(table_id=table.pk, user=request.user)
        except UserError as e:
            messages.error(request, e.message)
        else:
            messages.success(
                request,
                gettext("%(join)s seated at table %(table_number)s: they play at once.")
                % {"join": gettext(" and ").join(names), "table_number": table.number},
            )
        return redirect(reverse("tournaments:manage", args=[session.pk]) + "#online")
    return render(
        request,
        "confirm.html",
        {
            "title": gettext("Seat robots at table %(table_number)s?")
            % {"table_number": table.number},
            "body": gettext(
                "A robot takes each empty seat up to four and plays every move of it at "
                "once, for the whole sitting. Robots are marked on the standings and "
                "get no rating. Only before the first card of the sitting."
            ),
            "action": gettext("Seat the robots"),
            "danger": True,
            "back": reverse("tournaments:manage", args=[session.pk]) + "#online",
        },
    )


def _live_round(table: Table) -> LiveRound | None:
    """The table's round being played (or the last one dealt), for the robots' lines."""
    return (
        LiveRound.objects.filter(game__table=table)
        .select_related("game")
        .order_by("-game__number")
        .first()
    )


@login_required
def table_watch(request: HttpRequest, table_id: int) -> HttpResponse:
    """A director watching one online table: the watcher's view (no hand), live."""
    session, table = _directed_table(request, table_id)
    view = selectors.watch_view(table.pk)
    live = _live_round(table)
    return render(
        request,
        "play/watch.html",
        {
            "session": session,
            "table": table,
            "view": view,
            "robot_lines": director_selectors.robot_lines(live),
            "live_url": reverse("tournaments:online_watch_live", args=[table.pk]),
            # The table in the socket's address, as the seat page puts it (static/play.js,
            # `tableKey`): a proxy routes a table's sockets to one server by it.
            "ws_path": f"/ws/watch/{table.pk}/?table={session.pk}.{table.sitting.number}"
            f".{table.rank}",
        },
    )


@login_required
def table_watch_live(request: HttpRequest, table_id: int) -> HttpResponse:
    """The watcher's view as JSON, for the watch page's polling (when the WebSocket
    cannot be held); ETag on the state's move number."""
    _, table = _directed_table(request, table_id)
    view = selectors.watch_view(table.pk)
    live = _live_round(table)
    view = dict(view) | {"robot_lines": director_selectors.robot_lines(live)}
    tag = f'"{table.pk}.{live.pk if live else 0}.{live.move if live else 0}"'
    if request.headers.get("If-None-Match") == tag:
        return HttpResponse(status=304)
    response = JsonResponse(view)
    response["ETag"] = tag
    response["Cache-Control"] = "no-store"
    return response
