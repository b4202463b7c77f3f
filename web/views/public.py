"""Pages anyone may read without an account: the home page, a session's tables and
"find my table", its standings, and a club's season (private sessions are a 404 for
those who may not see them)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import condition

from common.languages import money_marks
from serving.pages import page_etag, public_page
from tournaments import format as fmt
from tournaments import pagecache
from tournaments.models import BigLoserAward, Club, Season, Session, Sitting
from tournaments.permissions import actor_from_request, can_direct, visible_sessions
from web.views import lists
from web.views.common import live_version, public_session, use_time_zone
from workflow.club import prize_selectors
from workflow.club import selectors as club_selectors
from workflow.front import find as find_selectors
from workflow.session import screen, selectors


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


def _searched(request: HttpRequest) -> str:
    return request.GET.get("name", "").strip()


# The public's copy of these pages is built once per change of the session and then
# served as stored bytes (serving/pages.py): the crowd after a movement costs
# one cache read a request, not a rendering. A name not asked for yet is composed from
# the session's "find my table" index, kept once per generation (`_find_page`).
@public_page(
    "session",
    searched=_searched,
    compose=lambda pk, current, query: _found_page(pk, current, query),
)
def session_public(request: HttpRequest, pk: int) -> HttpResponse:
    """All tables of the current sitting, and "find my table" by name."""
    session = public_session(request, pk)
    query = _searched(request)
    current = page_etag(request)
    if query and current is not None:
        # The public's answer: the same bytes as the early path's (`serving.pages`).
        html = _found_page(session.pk, current, query)
        if html is not None:
            return HttpResponse(html)
    sitting = selectors.current_sitting(session)
    context = _board_context(session, sitting, query)
    if query:
        context["found_html"] = _find_page(session.pk, current).found_html(query)
    context["may_direct"] = can_direct(request.user, session.club_id)
    # The ETag its poll (`session_found`) answers with, stored or not.
    context["live_etag"] = current or live_version(session)
    return render(request, "tournaments/session_public.html", context)


@public_page(
    "found",
    searched=_searched,
    compose=lambda pk, current, query: _found_part(pk, current, query),
)
@condition(etag_func=lambda request, pk: live_version(public_session(request, pk)))
def session_found(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Find my table"'s answer alone, for the page's poll (static/live.js): a 304 while
    the session is unchanged, the new table and seat after a movement."""
    session = public_session(request, pk)
    response = HttpResponse(
        _find_page(session.pk, page_etag(request)).found_html(_searched(request))
    )
    response["Cache-Control"] = "no-cache"
    return response


#: Where the typed name goes in the kept page of "find my table": as text, in a URL, and
#: the answer itself. Put in unescaped, so no text of the page (a session's name, always
#: escaped) can contain one.
_QUERY, _QUERY_URL, _FOUND = "<@query@>", "<@query-url@>", "<@found@>"


@dataclass(frozen=True)
class _FindPage:
    """What "find my table" answers every name from, kept once per generation of the
    session: the index of names, and the page around the answer, rendered once and cut
    where the typed name and the answer go."""

    session: Session
    sitting: Sitting | None
    index: find_selectors.FindIndex
    #: The page's text and, between each two pieces, which slot goes there.
    pieces: tuple[str, ...]
    slots: tuple[str, ...]

    def found_html(self, query: str) -> str:
        """The answer for one typed name."""
        return _answer_html(
            self.session, self.sitting, query, find_selectors.find_in(self.index, query)
        )

    def page(self, query: str) -> str:
        filled = {
            _QUERY: escape(query),
            _QUERY_URL: quote(query, safe="/"),
            _FOUND: self.found_html(query),
        }
        parts = [self.pieces[0]]
        for slot, piece in zip(self.slots, self.pieces[1:], strict=True):
            parts += [filled[slot], piece]
        return "".join(parts)


def _answer_html(
    session: Session, sitting: Sitting | None, query: str, found: find_selectors.Found
) -> str:
    """ "Find my table"'s answer: where each player found sits, with whom and how their
    table's game stands, who of them sits out, or that nobody has that name. Written out
    here rather than by a template: a crowd after a movement asks for a thousand names,
    each composed once per process, and this costs a tenth of a template's rendering."""
    running = session.status == Session.Status.RUNNING
    # One URL reversed, the player's id filled in per answer.
    follow_url = reverse("tournaments:follow", args=[session.pk, 0]).replace("/0/", "/{}/")
    parts = []
    if sitting is not None:
        said = (
            gettext("Sitting %(number)s (the session has finished).")
            if session.status == Session.Status.FINISHED
            else gettext("Sitting %(number)s.")
        )
        parts.append(f'<p class="muted">{said % {"number": sitting.number}}</p>\n')
    for seat, table in found.seats:
        tablemates = ", ".join(
            gettext("%(name)s (seat %(number)s)") % {"name": escape(name), "number": number}
            for name, number in seat.companions
        )
        where = gettext(
            "<strong>%(name)s</strong>: table <strong>%(table)s</strong>, "
            "seat <strong>%(seat)s</strong>"
        ) % {"name": escape(seat.name), "table": seat.table_number, "seat": seat.seat}
        with_whom = gettext("With: %(names)s") % {"names": tablemates}
        progress = _progress(table) if table is not None and running else ""
        parts.append(
            f'<div class="card found">\n  <p>{where}</p>\n'
            f"  <p>{with_whom}</p>\n{progress}"
            f"{_how(session, seat, found.any_online) if running else ''}"
            f"{_follow_link(follow_url, seat.player_id, seat.name)}</div>\n"
        )
    for name, player_id in found.sitting_out:
        number = sitting.number if sitting is not None else ""
        out = gettext(
            "<strong>%(name)s</strong> sits out sitting %(number)s: no table this sitting."
        ) % {"name": escape(name), "number": number}
        parts.append(
            f'<div class="card found"><p>{out}</p>\n'
            f"{_follow_link(follow_url, player_id, name)}</div>\n"
        )
    if not found.seats and not found.sitting_out:
        nobody = (
            gettext(
                "Nobody named “%(name)s” is seated in this session yet: the tables have not "
                "been drawn."
            )
            if sitting is None
            else gettext("Nobody named “%(name)s” is seated in this session.")
        ) % {"name": escape(query)}
        parts.append(f'<p class="card error">{nobody}{_did_you_mean(session, found.near)}</p>\n')
    return "".join(parts)


def _did_you_mean(session: Session, near: tuple[str, ...]) -> str:
    """ "Did you mean …?" with a link per name the typed one nearly is: a typo or two
    (`common.matching.near_misses`), every close name offered, none guessed."""
    if not near:
        return ""
    url = reverse("tournaments:session", args=[session.pk])
    between = pgettext("between names", "or")
    links = f" {between} ".join(
        f'<a href="{url}?name={quote(name, safe="")}">{escape(name)}</a>' for name in near
    )
    return " " + gettext("Did you mean %(names)s?") % {"names": links}


def _how(session: Session, seat: find_selectors.FoundSeat, hybrid: bool) -> str:
    """Whether the table plays online, and an empty place for "Play at your seat": the
    answer is the same for everyone who types the name, so it never holds the seat link;
    the phone that keeps the player's link shows it there (static/seat_keep.js). On a
    night with online tables, a paper table says so too."""
    number = {"number": seat.table_number}
    if not seat.online:
        paper = gettext("Table %(number)s plays on paper, with real cards.") % number
        return f'  <p class="table-paper">{paper}</p>\n' if hybrid else ""
    online = (
        gettext(
            "<strong>Table %(number)s plays online</strong>: the cards are dealt and played on "
            "the phones, each player from their own seat link."
        )
        % number
    )
    return (
        f'  <p class="table-online">{online}</p>\n'
        f'  <p class="seat-link" data-seat-for="{session.pk}:{seat.player_id}" '
        'data-online="1" hidden></p>\n'
    )


def _follow_link(url: str, player_id: int, name: str) -> str:
    """ "Follow my table": the player's own page, which shows their new table after every
    movement with no reload (web/views/follow.py)."""
    if not player_id:
        return ""
    label = gettext("Follow my table: %(name)s") % {"name": escape(name)}
    text = gettext("Follow my table")
    return (
        f'  <p><a class="button secondary" href="{url.format(player_id)}" '
        f'aria-label="{label}">{text}</a></p>\n'
    )


def _progress(table: screen.ScreenTable) -> str:
    if table.done:
        text = gettext("Your table has played its %(games)s games of this sitting.") % {
            "games": table.games_total
        }
    elif table.game_number:
        now = (
            gettext("round %(round)s · leads: %(leaders)s (%(score)s)")
            % {
                "round": table.rounds,
                "leaders": escape(", ".join(table.leaders)),
                "score": table.leader_score,
            }
            if table.rounds
            else gettext("no round yet")
        )
        text = gettext("Game %(number)s of %(total)s · %(now)s") % {
            "number": table.game_number,
            "total": table.games_total,
            "now": now,
        }
    else:
        return ""
    return f'  <p class="muted table-progress">{text}</p>\n'


def _build_find_page(session_id: int, current: str | None) -> _FindPage | None:
    session = Session.objects.select_related("club").filter(pk=session_id).first()
    if session is None:
        return None
    sitting = selectors.current_sitting(session)
    # The markers go in as they are; everything else of the page is escaped as usual.
    context = _board_context(session, sitting, mark_safe(_QUERY))
    context.update(
        query_url=mark_safe(_QUERY_URL),
        found_html=mark_safe(_FOUND),
        may_direct=False,
    )
    context["live_etag"] = current or pagecache.generation(session_id) or live_version(session)
    # No request: the page as the public sees it (no name, no CSRF token, no message).
    html = render_to_string("tournaments/session_public.html", context)
    cut = re.split(f"({re.escape(_QUERY)}|{re.escape(_QUERY_URL)}|{re.escape(_FOUND)})", html)
    return _FindPage(
        session=session,
        sitting=sitting,
        index=find_selectors.find_my_table_index(session, sitting),
        pieces=tuple(cut[0::2]),
        slots=tuple(cut[1::2]),
    )


def _kept_find_page(session_id: int, current: str | None) -> _FindPage | None:
    return pagecache.kept(
        session_id, "find-my-table", lambda: _build_find_page(session_id, current), current=current
    )


def _find_page(session_id: int, current: str | None) -> _FindPage:
    found = _kept_find_page(session_id, current)
    if found is None:
        raise Http404("No such session.")
    return found


def _found_page(session_id: int, current: str, query: str) -> str | None:
    """The public's "find my table" page for a typed name, composed from the kept page and
    index: no query, and only the answer rendered."""
    found = _kept_find_page(session_id, current)
    return found.page(query) if found is not None else None


def _found_part(session_id: int, current: str, query: str) -> str | None:
    """The answer alone, for a phone's poll, composed as `_found_page` is."""
    found = _kept_find_page(session_id, current)
    return found.found_html(query) if found is not None else None


def _board_context(session: Session, sitting: Sitting | None, query: str) -> dict[str, Any]:
    def board() -> list[selectors.BoardTable]:
        # Called by the template only when its cached copy is missing or stale.
        return selectors.sitting_board(sitting) if sitting else []

    return {
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
        "query_url": quote(query, safe="/"),
        "not_counted": club_selectors.session_not_counted(session),
    }


#: Rows of the standings on one page: 100 rows are about 30 KiB.
STANDINGS_PER_PAGE = 100


@public_page("standings", variant=lists.asked_page, searched=lists.searched)
def session_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The session's standings, a page of 100 at a time, searchable by name."""
    session = public_session(request, pk)
    rows, robots = pagecache.kept(
        session.pk,
        "standings-and-robots",
        lambda: _standings_rows(session),
        current=page_etag(request),
    )
    found = lists.listing(request, rows, STANDINGS_PER_PAGE)
    if found.elsewhere is not None:
        return redirect(found.elsewhere)
    # The pool and how it is split (docs/tournament.md, Entry fees and prizes): nothing
    # read for a free session; the rows show each payout.
    prizes = prize_selectors.session_pool(session)
    context = {
        "session": session,
        "listing": found,
        "page": found.page,
        "query": found.query,
        "prizes": prizes if prizes.pays else None,
        # Robots that took a seat: marked apart, never ranked (docs/tournament.md).
        "robots": robots,
        "not_counted": club_selectors.session_not_counted(session),
    }
    return render(request, "tournaments/standings.html", context)


def _standings_rows(session: Session) -> tuple[tuple[lists.Row, ...], tuple[str, ...]]:
    """Every row of the standings, rendered once per change of the session for everyone
    who sees them (a director too): 1,000 rows cost more to render than to store. Each
    row shows the player's payout when the session pays prizes. With them, the names of
    the session's robots, which have no row."""
    rows, robots = selectors.standings_and_robots(session)
    prizes = prize_selectors.session_prizes(session, rows)
    rendered = lists.render_rows(
        "tournaments/_standings_row.html",
        prize_selectors.with_payouts(rows, prizes) if prizes.payouts is not None else rows,
        lambda row: (row.name,),
        # One URL reversed, the player's id filled in per row.
        {
            "player_url": reverse("ratings:player", args=[0]).replace("/0/", "/{}/"),
            "prizes": prizes,
        },
    )
    return rendered, tuple(robots)


def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    use_time_zone(club)
    seasons = list(club.seasons.order_by("-starts_on", "-pk"))  # newest first
    wanted = request.GET.get("season")
    season = next((s for s in seasons if str(s.pk) == wanted), seasons[0] if seasons else None)
    may_direct = can_direct(request.user, club)
    context = {"club": club, "seasons": seasons, "may_direct": may_direct}
    context.update(_season_context(request, club, season, may_direct=may_direct))
    return render(request, "tournaments/club.html", context)


def _season_context(
    request: HttpRequest, club: Club, season: Season | None, *, may_direct: bool
) -> dict[str, Any]:
    awards = BigLoserAward.objects.filter(season__club=club).select_related("season", "player")
    if season is None:
        sessions: Any = []
    elif may_direct:
        sessions = season.sessions.order_by("-date")
    else:
        sessions = visible_sessions(actor_from_request(request)).filter(season=season)
    rows = club_selectors.season_standings_cached(season.pk) if season else []
    won = prize_selectors.season_prizes(season.pk) if season else {}
    return {
        "season": season,
        "rows": rows,
        # Each player's prizes over the season, written in the club's currency; empty when
        # no session of the season paid any (docs/tournament.md, Entry fees and prizes).
        "season_prizes": {
            player_id: fmt.format_money(
                amount, club.currency, prize_selectors.money_unit(club), **money_marks()
            )
            for player_id, amount in won.items()
        }
        if any(won.values())
        else {},
        "sessions": sessions,
        "awards": awards.order_by("-season__starts_on"),
        "suggestion": club_selectors.big_loser_suggestion(season.pk, club.big_loser_criterion)
        if season and may_direct
        else [],
        "award": next((a for a in awards if season and a.season_id == season.pk), None),
        # Any player of the club may be a season's Big Loser, played that season or not.
        "big_loser_choices": club.players.filter(is_robot=False).order_by("name", "pk")
        if season and may_direct
        else [],
        "season_awards": club_selectors.season_awards(season.pk, rows) if season else None,
        "season_closed": bool(season and season.ends_on < timezone.localdate()),
    }
