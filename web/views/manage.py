"""The director's page for running one session (`/director/sessions/N/`): check-in before
the start; then every table's progress, the rebalancing proposal, arrivals and
withdrawals, and the settings. The writes it offers are in `web.views.director`.

At 1,000 players (250 tables) the tables, the proposal and the roster cost far more to
build than to keep, and while a session runs each changes only through writes that move
the session's generation: each is kept per generation (tournaments/pagecache.py), so an
unchanged page is one short rendering around three stored parts.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from common.errors import UserError
from engine import online as engine_online
from play import director_selectors
from tournaments import pagecache
from tournaments.models import Session, SessionPlayer, Sitting
from web.forms import AddPlayersForm
from web.views import lists
from web.views.calls import manage_calls
from web.views.common import directed_session, live_version
from workflow.club import prize_selectors, seating_wishes
from workflow.session import format_words, movements, selectors, start_finish, timer
from workflow.tables import card_selectors


@login_required
def session_manage(request: HttpRequest, pk: int) -> HttpResponse:
    session = directed_session(request, pk)
    context = _manage_context(session, request.GET.get("player", "").strip()[: lists.QUERY_LENGTH])
    # Self check-in at the door (web/views/door.py): its address, and the version the
    # check-in list's poll starts from.
    context["door_url"] = request.build_absolute_uri(
        reverse("tournaments:self_check_in", args=[session.pk])
    )
    context["live_etag"] = live_version(session)
    if session.status in (Session.Status.RUNNING, Session.Status.FINISHED):
        context |= manage_calls(request, session)
    return render(request, "tournaments/manage.html", context)


#: Up to this many players on the roster, the arrivals-and-withdrawals list shows them all;
#: beyond, it is searched by name (a page of 1,000 names is no use on a phone).
ROSTER_ALL = 60


def _manage_context(session: Session, player_query: str = "") -> dict[str, Any]:
    sitting = selectors.current_sitting(session)
    running = session.status == Session.Status.RUNNING and sitting is not None
    undo_refusal = movements.movement_undo_refusal(session, sitting)
    context: dict[str, Any] = (
        {
            "session": session,
            "cards": _cards(session) if sitting else {"count": 0, "rows": []},
            "sitting": sitting,
            "seeding_choices": Session.Seeding.choices,
            # The service's own rule: the page offers the undo exactly when it would succeed.
            "can_undo": undo_refusal is None,
            "undo_refusal": undo_refusal,
            "timer": timer.sitting_timer(session, sitting),
            "server_now_ms": int(time.time() * 1000),
            # Fees collected and the pool (docs/tournament.md, Entry fees and prizes).
            "prizes": prize_selectors.session_pool(session),
        }
        | _setup_parts(session, running)
        | _fixed_parts(session)
    )
    if running:
        assert sitting is not None
        context |= _running_parts(session, sitting, player_query)
    context |= _online_parts(session, sitting if running else None)
    return context


def _online_parts(session: Session, sitting: Sitting | None) -> dict[str, Any]:
    """Online play (docs/tournament.md): the settings, and each table of the running
    sitting with its Online / Paper switch, robots, watching and the robots' moves."""
    if not engine_online.playable(session.rules_id):
        return {"online_playable": False}
    tables = director_selectors.online_tables(sitting) if sitting is not None else []
    return {
        "online_playable": True,
        "online_tables": tables,
        "robot_lines": [
            gettext("Table %(number)s: %(line)s") % {"number": t.number, "line": line}
            for t in tables
            for line in t.robot_lines
        ],
        "any_online": session.online or any(t.online for t in tables),
    }


def _fixed_parts(session: Session) -> dict[str, Any]:
    """The players who do not move, and the roster to choose one from (one query)."""
    if session.status not in (Session.Status.SETUP, Session.Status.RUNNING):
        return {"roster_choices": [], "fixed_entries": []}
    roster = seating_wishes.roster_tables(session)
    return {
        "roster_choices": roster,
        "fixed_entries": [row for row in roster if row[2] is not None],
    }


def _setup_parts(session: Session, running: bool) -> dict[str, Any]:
    """Check-in and the start, rendered every time: checking in does not move the
    generation, and its forms carry the director's CSRF token."""
    entries = [] if running else list(_entries(session))
    checked_in = sum(1 for e in entries if e.checked_in and not e.withdrawn_at)
    playing = SessionPlayer.objects.filter(session=session, withdrawn_at=None)
    return {
        "entries": entries,
        "checked_in": checked_in,
        # The service's own rule: Start is offered exactly when it would not be refused.
        "start_refusal": start_finish.start_refusal(session, checked_in)
        if session.status == Session.Status.SETUP
        else None,
        "add_form": AddPlayersForm(
            club=session.club, playing=playing.values_list("player_id", flat=True)
        ),
    }


def check_in_answer(request: HttpRequest, session: Session, player_id: int) -> dict[str, Any]:
    """What the check-in list changes after one player's check-in, for the page's fetch
    (static/checkin.js): that player's row, the count and the Start box, rendered by the
    same templates as the page."""
    parts = _setup_parts(session, running=False)
    entry = next(e for e in parts["entries"] if e.player_id == player_id)
    context = {"session": session, "e": entry, **parts}
    return {
        "player": player_id,
        "checked_in": entry.checked_in,
        "count": parts["checked_in"],
        "row": render_to_string("tournaments/_checkin_row.html", context, request=request),
        "start": render_to_string("tournaments/_checkin_start.html", context, request=request),
        "message": f"{entry.player.name} is checked in."
        if entry.checked_in
        else f"{entry.player.name}'s check-in is taken back.",
    }


def _running_parts(session: Session, sitting: Sitting, player_query: str) -> dict[str, Any]:
    """The running sitting's parts, each kept per generation (tournaments.pagecache)."""
    current = pagecache.generation(session.pk)  # read once for the three parts
    proposal = json.loads(
        pagecache.fragment(session.pk, "rebalance", lambda: _proposal(session), current=current)
    )
    return {
        # Our own templates' output, escaped when it was rendered.
        "progress_html": mark_safe(
            pagecache.fragment(
                session.pk, "progress", lambda: _progress_html(sitting), current=current
            )
        ),
        "entries_html": _roster_html(session, player_query, current),
        "proposal": proposal["moves"],
        "proposal_key": ";".join(
            f"{m['player']},{m['from_rank']},{m['to_rank']}" for m in proposal["moves"]
        ),
        "proposal_error": proposal["error"],
    }


#: Up to this many tables the manage page lists every card with its Replace link; beyond,
#: it points to the cards' own pages (`cards.session_cards`, a page of cards at a time).
CARDS_LISTED = 30


def _cards(session: Session) -> dict[str, Any]:
    """How many live cards the session has and, when few enough to list here, each with
    its Replace link: one URL reversed, not one per card."""
    found = card_selectors.table_cards(session)
    if len(found) > CARDS_LISTED:
        return {"count": len(found), "rows": []}
    replace = reverse("tournaments:table_card_replace", args=[session.pk, 0])
    before, after = replace.rsplit("/0/", 1)
    rows = [(card, f"{before}/{card.number}/{after}") for card in found]
    return {"count": len(found), "rows": rows}


def _entries(session: Session) -> Any:
    return (
        SessionPlayer.objects.filter(session=session)
        .select_related("player")
        .order_by("player__name")
    )


def _progress_html(sitting: Sitting) -> str:
    progress = selectors.sitting_progress(sitting)
    return render_to_string(
        "tournaments/_manage_progress.html",
        {
            "session": sitting.session,
            "progress": progress,
            "sitting_done": bool(progress) and all(p.finished for p in progress),
            # Two URLs reversed, the table's id filled in per card.
            "table_url": reverse("scoring:table", args=[0]).replace("/0/", "/{}/"),
            "scorer_url": reverse("tournaments:scorer_links", args=[0]).replace("/0/", "/{}/"),
        },
    )


def _roster_html(session: Session, query: str, current: str | None) -> SafeString:
    """The roster with a withdrawal link per player: all of it for a small session (kept
    per generation), the names matching `query` for a large one."""
    size = SessionPlayer.objects.filter(session=session, checked_in=True).count()
    if size <= ROSTER_ALL:
        html = pagecache.fragment(
            session.pk,
            "entries",
            lambda: _entries_html(session, _entries(session)),
            current=current,
        )
    else:
        found = _entries(session).filter(checked_in=True, player__name__icontains=query)[:50]
        html = render_to_string(
            "tournaments/_manage_search.html",
            {
                "session": session,
                "size": size,
                "query": query,
                "html": mark_safe(_entries_html(session, found)) if query else "",
                "none": bool(query) and not found,
            },
        )
    # Our own templates' output, escaped when it was rendered.
    return mark_safe(html)


def _entries_html(session: Session, entries: Any) -> str:
    return render_to_string(
        "tournaments/_manage_entries.html", {"session": session, "entries": entries}
    )


def _proposal(session: Session) -> str:
    """The rebalancing proposal as plain data (kept as text: it is stored per generation)."""
    try:
        moves = movements.rebalance_proposal(session=session)
    except UserError as e:
        return json.dumps({"moves": [], "error": e.message})
    names = dict(
        SessionPlayer.objects.filter(
            session=session, player_id__in=[m.player for m in moves]
        ).values_list("player_id", "player__name")
    )
    return json.dumps(
        {
            "moves": [
                {
                    "player": m.player,
                    "name": names.get(m.player, "?"),
                    "from_rank": m.from_rank,
                    "to_rank": m.to_rank,
                    "reason": format_words.rebalance_reason(m),
                }
                for m in moves
            ],
            "error": None,
        }
    )
