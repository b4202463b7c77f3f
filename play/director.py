"""The director's writes of online play (docs/tournament.md, "Online play"): seating a
robot to fill a short online table, and emailing the players their seat links.

Each is a director's write: the session is locked first (`scoring.locks`, the lock
order), the caller checked (`tournaments.permissions.require_director`) before any other
refusal, and the change recorded in the audit log inside the transaction. Emails go after
commit, from a Celery task (`play.tasks`).
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from common.errors import ConflictError, UserError
from common.tasks import enqueue_on_commit
from play import services, tasks
from play.models import LiveRound
from scoring.locks import lock_session, lock_table
from scoring.models import Game
from scoring.tables import table_current_game
from tournaments import audit, pagecache
from tournaments import format as fmt
from tournaments.models import Player, Seating, Session, Table
from tournaments.permissions import Caller, require_director
from tournaments.signals import seats_changed_on_commit
from workflow.session import selectors
from workflow.session.robots import robot_players
from workflow.session.services import refresh_unstarted_game


@transaction.atomic
def table_robot_seat(*, table_id: int, user: Caller) -> list[str]:
    """Fill a short online table with robots before its game starts: one robot player
    per seat short of the game's usual table (four), named "Robot 1", "Robot 2", ... in
    the club (`workflow.session.robots`: a robot not seated in this sitting is seated
    again). Returns the robots' names. The robots play at once, as the engine's robot
    (`play.scheduler`)."""
    found = Table.objects.filter(pk=table_id).values_list("sitting__session_id", flat=True).first()
    if found is None:
        raise UserError("no_such_table", gettext("There is no such table."))
    session = lock_session(found)
    require_director(user, session.club_id, to=gettext_noop("seat robots at its tables"))
    table = lock_table(table_id)
    _refuse_robot(session, table)
    seated = list(Seating.objects.filter(table=table, left_at__isnull=True).order_by("seat"))
    wanted = fmt.format_for(session.rules_id).ideal - len(seated)
    if wanted <= 0:
        raise ConflictError(
            "table_full",
            gettext("Table %(table_number)s has %(n_seated)s players: it is not short.")
            % {"table_number": table.number, "n_seated": len(seated)},
        )
    # A robot seated anywhere in this sitting is busy; one of an earlier sitting is free.
    busy = Seating.objects.filter(sitting=table.sitting, left_at__isnull=True).values_list(
        "player_id", flat=True
    )
    robots = robot_players(session=session, wanted=wanted, busy=set(busy))
    seat = max((s.seat for s in seated), default=0)
    for robot in robots:
        seat += 1
        Seating.objects.create(sitting=table.sitting, table=table, player=robot, seat=seat)
    refresh_unstarted_game(table)  # a round dealt to the short table goes with its game
    pagecache.board_changed(session.pk)
    # The phones at the table see the new players; the table deals again (the scheduler).
    seats_changed_on_commit(session.pk, tables=[table_id])
    names = [r.name for r in robots]
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="table.robot",
        summary=f"Seated {', '.join(names)} at table {table.number}",
        details={"table": table.number, "rank": table.rank, "robots": names},
    )
    return names


def _refuse_robot(session: Session, table: Table) -> None:
    """A robot fills an online table of the current sitting before its first card."""
    if session.status != Session.Status.RUNNING:
        raise ConflictError(
            "session_not_running", gettext("Robots are seated while the session runs.")
        )
    sitting = selectors.current_sitting(session)
    if sitting is None or table.sitting_id != sitting.pk:
        raise ConflictError(
            "sitting_over",
            gettext("That table is from an earlier sitting: seat robots at this one."),
        )
    if not table.online:
        raise ConflictError(
            "table_on_paper",
            gettext("Table %(table_number)s plays on paper: a robot can only fill an online table.")
            % {"table_number": table.number},
        )
    game = table_current_game(table)
    started = game is not None and (
        game.number > 1
        or game.round_count > 0
        or game.status != Game.Status.PLAYING
        or any(live.history for live in LiveRound.objects.filter(game=game).only("history"))
    )
    if started:
        raise ConflictError(
            "game_started",
            gettext(
                "The game at table %(table_number)s has started: a robot can only fill "
                "a seat before the first card of the sitting."
            )
            % {"table_number": table.number},
        )


@transaction.atomic
def seat_links_email(*, session_id: int, site: str, user: Caller) -> list[str]:
    """Email their seat link to every player seated now who has an email address (the
    links are made first where missing: `play.services.seat_links_ensure`). The mails go
    after commit, from a Celery task; returns the names of those who will get one."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("email its seat links"))
    if session.status != Session.Status.RUNNING:
        raise ConflictError(
            "session_not_running", gettext("Seat links are sent once the session has started.")
        )
    rows = services.seat_links_ensure(session_id=session_id, user=user)
    with_email = dict(
        Player.objects.filter(pk__in=[r["player_id"] for r in rows], is_robot=False)
        .exclude(email="")
        .values_list("pk", "name")
    )
    if not with_email:
        raise UserError(
            "no_email",
            gettext("None of the seated players has an email address: hand out the links."),
        )
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="play.seat_links_email",
        summary=f"Emailed the seat links to {len(with_email)} players",
        details={"players": sorted(with_email.values())},
    )
    enqueue_on_commit(
        tasks.seat_link_email, session.pk, sorted(with_email), site[:200], secrets.token_hex(8)
    )
    return sorted(with_email.values())
