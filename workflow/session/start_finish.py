"""Writes that start and end a session: starting it (the split into ranked
tables and the first sitting, `session_start`, with `start_refusal` to say beforehand
why it cannot), seating a new sitting (`sitting_create`, shared with the movement in
`workflow.session.movements`), finishing it (`session_finish`, which keeps its standings for the
season ladder) and the season's Big Loser (`big_loser_award`, and
`last_season_big_loser`, who starts at the bottom table). The session's other writes,
its creation, settings and roster, are in `workflow.session.services`.

Each service is keyword-only and atomic. `session_start` and `session_finish` lock the
session's row first, exclusively (`scoring.locks.lock_session`, the lock order), and then
refuse anyone who does not direct the club (`tournaments.permissions.require_director`)
before writing; `big_loser_award` locks its season. The format itself is decided by the
pure functions in `tournaments.format`; the reads (the current sitting, the progress,
the standings) by `workflow.session.selectors`.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from common.backups import backup_on_commit
from common.errors import ConflictError, UserError
from common.tasks import enqueue_on_commit
from ratings import selectors as rating_selectors
from scoring.locks import lock_session
from scoring.models import Game
from scoring.tables import tables_start_first_games
from tournaments import audit, pagecache
from tournaments import format as fmt
from tournaments.models import (
    BigLoserAward,
    Placing,
    Player,
    Season,
    Seating,
    Session,
    SessionPlayer,
    SessionStanding,
    SitOut,
    Sitting,
    Table,
)
from tournaments.permissions import Caller, as_actor, require_director
from tournaments.signals import seats_changed_on_commit
from workflow.club import seating_wishes
from workflow.club import services as club_services
from workflow.club import tasks as club_tasks
from workflow.session import robots, selectors
from workflow.tables import links as table_links


def last_season_big_loser(session: Session) -> Player | None:
    previous = (
        Season.objects.filter(club=session.club, starts_on__lt=session.season.starts_on)
        .order_by("-starts_on")
        .first()
    )
    if previous is None:
        return None
    award = BigLoserAward.objects.filter(season=previous).select_related("player").first()
    return award.player if award else None


def start_refusal(session: Session, checked_in: int) -> UserError | None:
    """Why a session in check-in cannot start with `checked_in` players, in words that say
    what to do, or None when it can. The session page shows this instead of the Start
    button; `session_start` refuses with it. A session that fills with robots starts with
    one player: robots take the other seats."""
    need = 1 if robots.fills_with_robots(session) else fmt.format_for(session.rules_id).play_min
    if checked_in == 0:
        return ConflictError(
            "nobody_checked_in",
            gettext(
                "Nobody is checked in yet. Check players in as they arrive (or “Check "
                "everyone in”), then start."
            ),
        )
    if checked_in < need:
        return ConflictError(
            "too_few_players",
            ngettext(
                "Only %(checked_in)s player is checked in; a table needs at least "
                "%(need)s. Check in more players, or add them to the roster.",
                "Only %(checked_in)s players are checked in; a table needs at least "
                "%(need)s. Check in more players, or add them to the roster.",
                checked_in,
            )
            % {"checked_in": checked_in, "need": need},
        )
    return None


@transaction.atomic
def session_start(*, session_id: int, user: Caller) -> Sitting:
    """Split the checked-in players into ranked tables and start the first games. The
    club's keep-apart pairs are parted when possible; those that could not be are on the
    sitting (`Sitting.not_kept_apart`), with why. In a session that fills with robots
    nobody sits out: robots take the seats the format leaves them (`format.robot_split`),
    after the players of the bottom tables."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("start its sessions"))
    if session.status == Session.Status.CANCELLED:
        raise ConflictError("session_cancelled", gettext("This session is cancelled."))
    if session.status != Session.Status.SETUP:
        raise ConflictError("session_started", gettext("This session has already started."))
    rules = fmt.format_for(session.rules_id)
    fill = robots.fills_with_robots(session)
    entries = SessionPlayer.objects.filter(
        session=session, checked_in=True, withdrawn_at__isnull=True
    )
    if fill:
        # The robots are the format's to seat, never players of the split.
        entries = entries.filter(player__is_robot=False)
    ids = sorted(entries.values_list("player_id", flat=True))
    refusal = start_refusal(session, len(ids))
    if refusal is not None:
        raise refusal
    big_loser = last_season_big_loser(session)
    big_loser_id = big_loser.pk if big_loser and big_loser.pk in ids else None
    try:
        # The Big Loser's place is the bottom table, so they sit out last of all.
        sitting_out = fmt.choose_sit_outs(
            ids,
            0 if fill else fmt.sit_out_count(len(ids), rules),
            sat_out={big_loser_id: len(ids)} if big_loser_id else {},
            rng=fmt.make_rng(session.seed, "sit-out", 1),
        )
        seated = [pid for pid in ids if pid not in sitting_out]
        strength = None
        if session.seeding == Session.Seeding.RANDOM:
            tables = fmt.split(
                seated, fmt=rules, seed=session.seed, big_loser=big_loser_id, robots=fill
            )
        else:
            # A player with no rating, earned or imported, counts as a newcomer (0).
            strength = rating_selectors.seeding_strengths(seated, session.rules_id)
            tables = fmt.seeded_split(
                seated,
                fmt=rules,
                seed=session.seed,
                strength=strength,
                balanced=session.seeding == Session.Seeding.BALANCED,
                big_loser=big_loser_id,
                robots=fill,
            )
    except fmt.FormatError as e:
        # Too few or too many checked in: the roster's state, not the request, is wrong.
        raise ConflictError(e.code, str(e)) from None
    # The club's keep-apart pairs (docs/format.md, "Keep apart"): parted when possible.
    apart = seating_wishes.start_seating(
        session=session, tables=tables, big_loser_id=big_loser_id, strength=strength
    )
    # Keep-apart keeps the table sizes: the robots' seats are where the split left them.
    places = fmt.robot_split(len(seated), rules).robots if fill else []
    sitting = sitting_create(
        session=session,
        number=1,
        tables=robots.seat_robots(session=session, tables=apart.tables, robots=places),
        sitting_out=sitting_out,
    )
    if apart.not_kept:
        names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
        sitting.not_kept_apart = [
            {
                "players": [n.first, n.second],
                "names": [names[n.first], names[n.second]],
                "reason": n.reason,
                # For the pages, which word the reason in the reader's language.
                "code": n.code,
                "values": dict(n.values),
            }
            for n in apart.not_kept
        ]
        sitting.save(update_fields=["not_kept_apart"])
    session.status = Session.Status.RUNNING
    session.started_at = timezone.now()
    session.big_loser_id = big_loser_id
    session.save(update_fields=["status", "started_at", "big_loser"])
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="session.start",
        summary=f"Started the session: {len(seated)} players at {len(tables)} tables"
        + (f", {len(sitting_out)} sitting out" if sitting_out else "")
        + (f", {sum(places)} robot{'s' if sum(places) != 1 else ''}" if sum(places) else ""),
        details={
            "players": len(seated),
            "tables": len(tables),
            "sitting_out": list(sitting_out),
            "robots": sum(places),
        },
    )
    backup_on_commit("session-start")
    return sitting


def sitting_create(
    *,
    session: Session,
    number: int,
    tables: Sequence[Sequence[int]],
    sitting_out: Sequence[int] = (),
) -> Sitting:
    sitting = Sitting.objects.create(
        session=session,
        number=number,
        games_per_sitting=session.games_per_sitting,
        duplicate=session.duplicate,
        deal_key=secrets.token_hex(32) if session.duplicate else "",
        # A club that plays to time: the sitting's timer starts with it (workflow.session.timer).
        timer_ends_at=(
            timezone.now() + timedelta(minutes=session.sitting_minutes)
            if session.sitting_minutes
            else None
        ),
    )
    SitOut.objects.bulk_create(SitOut(sitting=sitting, player_id=pid) for pid in sitting_out)
    # The physical table of each rank: players who do not move keep theirs.
    numbering = seating_wishes.table_numbering(session=session, tables=tables)
    if numbering.notes:
        sitting.table_notes = numbering.notes
        sitting.save(update_fields=["table_notes"])
    # Online play: the first sitting's tables all follow the session; the movement gives
    # each table of the new sitting the choice of the table of its rank before (ranks
    # stay, docs/format.md), so a hybrid night keeps its online tables.
    before = dict(
        Table.objects.filter(sitting__session=session, sitting__number=number - 1).values_list(
            "rank", "online"
        )
    )
    table_rows = Table.objects.bulk_create(
        [
            Table(
                sitting=sitting,
                rank=rank,
                number=number,
                online=before.get(rank, session.online),
            )
            for rank, number in enumerate(numbering.numbers, start=1)
        ]
    )
    Seating.objects.bulk_create(
        Seating(sitting=sitting, table=table, player_id=pid, seat=seat)
        for table, seated in zip(table_rows, tables, strict=True)
        for seat, pid in enumerate(seated, start=1)
    )
    if not all(t.pk for t in table_rows):  # bulk_create returns no ids on some backends
        table_rows = list(sitting.tables.order_by("rank"))
    for table in table_rows:
        table.sitting = sitting
    tables_start_first_games(tables=table_rows, session=session)
    table_links.table_cards_ensure(session=session)
    pagecache.board_changed(session.pk)
    # The start and the movement: every seat of the session is new.
    seats_changed_on_commit(session.pk)
    return sitting


@transaction.atomic
def session_finish(*, session_id: int, early: bool = False, user: Caller) -> Session:
    """Finish the session and keep its standings for the season ladder. Ending before
    every game is finished needs `early=True`; unfinished games do not count."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("finish its sessions"))
    if session.status != Session.Status.RUNNING:
        raise ConflictError(
            "session_not_running", gettext("Only a running session can be finished.")
        )
    sitting = selectors.require_current_sitting(session)
    unfinished = [p for p in selectors.sitting_progress(sitting) if not p.finished]
    if unfinished and not early:
        raise ConflictError(
            "sitting_unfinished",
            gettext(
                "Some tables still have games to play. Confirm that you want to end the "
                "session early."
            ),
        )
    # Only finished games count: a player with none has no place, and a session ended
    # before any game finished keeps no standing and no placing (docs/tournament.md).
    standings = selectors.session_standings(session, final=True)
    _last_placings_record(sitting)
    SessionStanding.objects.bulk_create(
        SessionStanding(
            session=session,
            player_id=row.player_id,
            position=row.position,
            points=row.points,
            games_played=row.games_played,
            games_won=row.games_won,
            hooks=row.hooks,
        )
        for row in standings
    )
    session.status = Session.Status.FINISHED
    session.finished_at = timezone.now()
    session.ended_early = bool(unfinished)
    session.save(update_fields=["status", "finished_at", "ended_early"])
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="session.finish",
        summary="Finished the session"
        + (f" early ({len(unfinished)} tables unfinished)" if unfinished else ""),
        details={"early": bool(unfinished), "standings": len(standings)},
    )
    pagecache.live_changed(session.pk)
    seats_changed_on_commit(session.pk)
    season_id = session.season_id
    enqueue_on_commit(club_tasks.season_standings_refresh, season_id)
    backup_on_commit("session-finish")
    return session


def placing_row(
    *,
    sitting: Sitting,
    table_id: int,
    placing: fmt.Placing[int],
    direction: str,
    to_rank: int,
    reason: str,
) -> Placing:
    """A player's place at their table after a sitting, with where they go (a movement,
    or the finish: they stay), as the player's page and the movement's history read it."""
    return Placing(
        sitting=sitting,
        table_id=table_id,
        player_id=placing.player,
        place=placing.place,
        score=placing.result.score,
        games_won=placing.result.games_won,
        hooks=placing.result.hooks,
        last_game_score=placing.result.last_game_score,
        decided_by=placing.decided_by or "",
        direction=direction,
        to_rank=to_rank,
        reason=reason[:300],
    )


def _last_placings_record(sitting: Sitting) -> None:
    """Each player's place at their table after the session's last sitting, which no
    movement records: the player page counts every sitting's place. Only the tables that
    finished a game have places; nobody moves on, so each stays at its table's rank."""
    played = set(
        Game.objects.filter(table__sitting=sitting, status=Game.Status.FINISHED).values_list(
            "table_id", flat=True
        )
    )
    order = selectors.sitting_order(sitting, fmt.format_for(sitting.session.rules_id))
    Placing.objects.bulk_create(
        placing_row(
            sitting=sitting,
            table_id=table.table_id,
            placing=pl,
            direction=Placing.Direction.STAY,
            to_rank=table.rank,
            reason=f"the session ended after this sitting; {pl.reason}",
        )
        for table in order.tables
        if table.table_id in played
        for pl in table.placings
    )


#: The longest note on a Big Loser award (`BigLoserAward.note`).
NOTE_LENGTH = 200


@transaction.atomic
def big_loser_award(
    *,
    season_id: int,
    player_id: int | None = None,
    name: str = "",
    new_anyway: bool = False,
    note: str = "",
    user: Caller,
) -> BigLoserAward:
    """Record the season's Big Loser, who starts the next season's sessions at the bottom
    table: any player of the club, whether or not they played the season (a new club
    records last year's, from before it used the app). A `name` typed instead is the
    club's player of that name (any case), or a new player of the club for someone who
    left or was never entered (`player_add`'s rules: a look-alike of a club player's name
    asks "Did you mean …?" unless `new_anyway`)."""
    season = Season.objects.get(pk=season_id)
    require_director(user, season.club_id, to=gettext_noop("award the Big Loser"))
    if len(note) > NOTE_LENGTH:
        raise UserError(
            "note_too_long",
            gettext("The note is %(length)d characters long; keep it to %(most)d.")
            % {"length": len(note), "most": NOTE_LENGTH},
            field="note",
        )
    name = " ".join(name.split())
    if name:
        player = Player.objects.filter(club=season.club_id, name__iexact=name).first()
        if player is None:
            # Its own write, audited as "player.add"; it locks the club, before the season.
            player = club_services.player_add(
                club_id=season.club_id, name=name, new_anyway=new_anyway, user=user
            )
    else:
        player = (
            Player.objects.filter(club=season.club_id, pk=player_id, is_robot=False).first()
            if player_id is not None
            else None
        )
        if player is None:
            raise UserError(
                "unknown_player",
                gettext("Choose a player of this club, or type the name of one who is not listed."),
                field="player",
            )
    season = Season.objects.select_for_update().get(pk=season_id)
    previous = BigLoserAward.objects.filter(season=season).select_related("player").first()
    award, _ = BigLoserAward.objects.update_or_create(
        season=season,
        defaults={
            "player": player,
            "note": note,
            "awarded_by": as_actor(user).account,
        },
    )
    audit.record(
        user,
        club=season.club_id,
        action="big_loser.award",
        summary=f"Named {player.name} the Big Loser of the season {season.name}"
        + (f" instead of {previous.player.name}" if previous else ""),
        details={
            "season": {"id": season.pk, "name": season.name},
            "player": {"id": player.pk, "name": player.name},
            "before": {"id": previous.player_id, "name": previous.player.name}
            if previous
            else None,
        },
    )
    return award
