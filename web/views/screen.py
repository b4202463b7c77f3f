"""The projector: a full-screen page per session for the wall, never stale.

The page loads once; `static/live.js` then asks for its live part every 1.5 s with the
ETag it has. The ETag is the session's (board, live) version pair, read in one query, so
an unchanged screen costs a 304 and no rendering; a change (a round, a movement, a
withdrawal, the sitting timer, the end) bumps the version, the next poll renders the
part once per change (cached under that version) and every screen swaps it in without a
reload. The timer's countdown itself runs in the page (`static/timer.js`).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import condition

from common.errors import UserError
from engine import online as engine_online
from play import director_selectors
from serving.pages import public_page
from tournaments import format as fmt
from tournaments.models import Session
from web.views.common import live_version, public_session
from workflow.session import movements, screen, selectors, timer


def _live_etag(request: HttpRequest, pk: int) -> str:
    return live_version(public_session(request, pk))


def _who_moves(preview: movements.MovementPreview) -> list[tuple[str, str, int]]:
    """Who changes physical table next sitting, and to which: the format's moves, and a
    player who keeps their rank while its table number changes (players who do not move
    keep theirs: docs/format.md, "Tables that do not move")."""
    now = {p.player: table.number for table, placings in preview.tables for p in placings}
    numbers = preview.next_numbers

    def number(rank: int) -> int:
        return numbers[rank - 1] if rank <= len(numbers) else rank

    return [
        (preview.names[m.player], m.direction, number(m.to_rank))
        for m in sorted(preview.moves, key=lambda m: preview.names[m.player])
        if m.direction != "stay" or number(m.to_rank) != now.get(m.player)
    ]


def _live_context(session: Session) -> dict[str, Any]:
    sitting = selectors.current_sitting(session)
    lower = fmt.format_for(session.rules_id).lower_is_better
    tables = screen.sitting_screen(sitting, lower_is_better=lower) if sitting else []
    movement = None
    if (
        sitting is not None
        and session.status == Session.Status.RUNNING
        and tables
        and all(t.done for t in tables)
    ):
        try:
            preview = movements.movement_preview(sitting=sitting)
        except UserError:
            preview = None
        if preview is not None:
            movement = _who_moves(preview)
    return {
        "session": session,
        "sitting": sitting,
        "tables": tables,
        "standings": selectors.session_standings(session),
        "movement": movement,
        "lower_is_better": lower,
        "timer": timer.sitting_timer(session, sitting),
    }


def _live_html(session: Session) -> str:
    key = f"screen:{session.pk}:{session.board_version}:{session.live_version}"
    html = cache.get(key)
    if html is None:
        html = render_to_string("tournaments/_screen_live.html", _live_context(session))
        cache.set(key, html, 3600)
    return str(html)


def session_screen(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector page: the current sitting's tables, the standings, the next movement."""
    session = public_session(request, pk)
    return render(
        request,
        "tournaments/screen.html",
        {
            "session": session,
            "live": _live_html(session),
            "live_url": reverse("tournaments:screen_live", args=[session.pk]),
            "etag": live_version(session),
            # The timer counts down to the server's end time; the page corrects the
            # screen's own clock by the server's (static/timer.js).
            "server_now_ms": int(time.time() * 1000),
            # Online tables show their current trick (static/screen_tricks.js).
            "tricks_url": reverse("tournaments:screen_tricks", args=[session.pk])
            if engine_online.playable(session.rules_id) and session.status == Session.Status.RUNNING
            else "",
        },
    )


# Open screens poll this: the public's answer comes from the store (a 304 while nothing
# changed) with one cache read and no query (serving/pages.py).
@public_page("screen-live")
@condition(etag_func=_live_etag)
def session_screen_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector's live part; a 304 while nothing changed."""
    response = HttpResponse(_live_html(public_session(request, pk)))
    response["Cache-Control"] = "no-cache"
    return response


def session_screen_tricks(request: HttpRequest, pk: int) -> HttpResponse:
    """The current trick of every online table, for the projector (the watcher's view:
    the cards played, never a hand); a 304 while no card was played. Kept per version,
    so a wall of screens costs one short query per poll."""
    session = public_session(request, pk)
    sitting = selectors.current_sitting(session)
    version = director_selectors.screen_version(sitting)
    tag = f'"{version}"'
    if request.headers.get("If-None-Match") == tag:
        return HttpResponse(status=304)
    key = f"screen-tricks:{session.pk}:{version}"
    tables = cache.get(key)
    if tables is None:
        tables = director_selectors.screen_tricks(sitting)
        cache.set(key, tables, 600)
    response = JsonResponse({"tables": tables})
    response["ETag"] = tag
    response["Cache-Control"] = "no-cache"
    return response
