"""Writes for a session's life outside its movements: creating it and its players,
its settings, arrivals, starting it (the split and the first sitting),
finishing it and the season's Big Loser. The movements, withdrawals and rebalancing are
in `workflow.movements`; the club's own writes (seasons, players, directors) in
`workflow.club_services`; scorer links and table cards in `workflow.table_links`.

Each service is keyword-only and atomic. Services that change a session lock its row
first, exclusively (`scoring.locks.lock_session`, the lock order), so that two
directors or a director and a scorer cannot interleave, and then refuse anyone who does
not direct the club (`tournaments.permissions.require_director`) before writing. The
format itself is decided by the pure functions in `tournaments.format`; the rules that
are reads (the current sitting, the ranking, the ladders) by `workflow.selectors`.

`sitting_create` and `refresh_unstarted_game` are shared with `workflow.movements`,
which seats a new sitting the same way the start does.
`PUBLIC_BY_DEFAULT` is the visibility of a new session for the page, the API and this
module alike.

Why one module of over 400 lines: it is one workflow, a session from its creation to its
finish, and its writes share the session lock and the helpers above; what grew beside it
(movements, scorer links and cards, the timer, the club) has its own module.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date as Date
from datetime import timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

import engine
from common.backups import backup_on_commit
from common.errors import ConflictError, UserError
from common.matching import did_you_mean, look_alikes
from common.tasks import enqueue_on_commit
from common.text import refuse_hidden_characters
from ratings import selectors as rating_selectors
from scoring.locks import lock_session
from scoring.models import Game
from scoring.tables import game_refresh_players, table_current_game, tables_start_first_games
from tournaments import audit, pagecache
from tournaments import format as fmt
from tournaments.models import (
    BigLoserAward,
    Club,
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
from workflow import prizes, seating_wishes, selectors, table_links, tasks
from workflow.names import clean_names

# A new session is public unless the director says otherwise (docs/tournament.md).
PUBLIC_BY_DEFAULT = Session.PUBLIC_BY_DEFAULT


def players_get_or_create(
    *, club: Club, names: Sequence[str], new_anyway: bool = False
) -> list[Player]:
    """Players of the club by name, creating the ones the club does not know yet.
    Names match regardless of case and extra spaces; an inactive player named is active
    again. A new name that is a player's name written with other accents or punctuation
    ("rosa diaz" for Rosa Díaz, `common.matching`) is refused with "Did you mean …?"
    unless `new_anyway` (the director confirmed they are new players): never a second
    player by mistake, never one merged into another without asking."""
    wanted = clean_names(names)
    known = {p.name.casefold(): p for p in Player.objects.filter(club=club)}
    if not new_anyway:
        _refuse_look_alikes([n for n in wanted if n.casefold() not in known], known)
    new = Player.objects.bulk_create(
        [Player(club=club, name=name) for name in wanted if name.casefold() not in known]
    )
    if any(p.pk is None for p in new):  # a backend that returns no ids from bulk_create
        new = list(Player.objects.filter(club=club, name__in=[p.name for p in new]))
    known.update((p.name.casefold(), p) for p in new)
    chosen = [known[name.casefold()] for name in wanted]
    # Typing the name of someone marked inactive means they are back: active again.
    if back := [p.pk for p in chosen if not p.active]:
        Player.objects.filter(pk__in=back).update(active=True)
        for p in chosen:
            p.active = True
    return chosen


def _check_date_in_season(*, club: Club, season: Season, date: Date) -> None:
    """A session counts on its season's ladder: one dated outside the season would put its
    results on the wrong ladder. The refusal names the club's season that covers the date,
    when there is one."""
    if season.starts_on <= date <= season.ends_on:
        return
    covering = (
        Season.objects.filter(
            club=club, starts_on__lte=date, ends_on__gte=date, closed_at__isnull=True
        )
        .order_by("starts_on")
        .first()
    )
    advice = (
        f"Choose the season {covering.name}, which covers that date, or change the date."
        if covering is not None
        else "Change the date, or open a season that covers it first."
    )
    raise UserError(
        "date_outside_season",
        f"{date:%Y-%m-%d} is outside the season {season.name} ({season.starts_on:%Y-%m-%d} "
        f"to {season.ends_on:%Y-%m-%d}): its results would count on the wrong ladder. " + advice,
        field="date",
    )


def _refuse_look_alikes(new: Sequence[str], known: dict[str, Player]) -> None:
    names = [p.name for p in known.values()]
    look = {name: found for name in new if (found := look_alikes(name, names))}
    if look:
        raise ConflictError(
            "player_name_looks_like",
            f"{did_you_mean(look)} Type the name as the club has it to add that player, "
            "or confirm that it is someone else to add the name as typed.",
            field="new_names",
        )


@transaction.atomic
def session_create(
    *,
    club: Club,
    season: Season,
    name: str,
    date: Date,
    rules_id: str,
    games_per_sitting: int,
    player_ids: Sequence[int] = (),
    new_names: Sequence[str] = (),
    seed: int | None = None,
    is_public: bool = PUBLIC_BY_DEFAULT,
    double_entry: bool = False,
    seeding: str = Session.Seeding.RANDOM,
    new_anyway: bool = False,
    user: Caller,
) -> Session:
    require_director(user, club, to="create its sessions")
    if season.club_id != club.pk:
        raise UserError(
            "season_not_in_club", "That season belongs to another club.", field="season"
        )
    if season.closed_at is not None:
        raise ConflictError(
            "season_closed",
            f"The season {season.name} is closed; pick an open one.",
            field="season",
        )
    _check_date_in_season(club=club, season=season, date=date)
    if rules_id not in fmt.FORMATS or rules_id not in engine.RULES:
        raise UserError("unknown_rules", f"Unknown rules “{rules_id}”.", field="rules_id")
    if games_per_sitting not in (2, 3):
        raise UserError(
            "games_per_sitting", "A sitting is 2 or 3 games.", field="games_per_sitting"
        )
    _check_seeding(seeding)
    refuse_hidden_characters(name, what="Session names", field="name")
    if not name.strip():
        raise UserError("name_required", "Give the session a name.", field="name")
    if len(name.strip()) > 120:
        raise UserError("name_too_long", "A session name has at most 120 characters.", field="name")
    players = list(Player.objects.filter(club=club, pk__in=player_ids))
    if len(players) != len(set(player_ids)):
        raise UserError("unknown_player", "Some of the chosen players are not in this club.")
    players += players_get_or_create(club=club, names=new_names, new_anyway=new_anyway)
    session = Session.objects.create(
        club=club,
        season=season,
        name=name.strip(),
        date=date,
        rules_id=rules_id,
        games_per_sitting=games_per_sitting,
        seed=seed if seed is not None else random.SystemRandom().randrange(1, 2**31),
        is_public=is_public,
        double_entry=double_entry,
        seeding=seeding,
        created_by=as_actor(user).account,
    )
    roster = {p.pk: p for p in players}
    SessionPlayer.objects.bulk_create(
        [SessionPlayer(session=session, player=p) for p in roster.values()]
    )
    audit.record(
        user,
        club=club,
        session=session,
        action="session.create",
        summary=f"Created the session {session.name} of {date:%Y-%m-%d} ({len(roster)} players)",
        details={"name": session.name, "date": date, "rules_id": rules_id, "players": len(roster)},
    )
    return session


def _check_seeding(seeding: str) -> None:
    if seeding not in Session.Seeding.values:
        known = ", ".join(Session.Seeding.values)
        raise UserError(
            "unknown_seeding", f"Unknown seeding “{seeding}”; use one of: {known}.", field="seeding"
        )


@transaction.atomic
def session_update_settings(
    *,
    session_id: int,
    games_per_sitting: int,
    is_public: bool,
    double_entry: bool,
    seeding: str | None = None,
    user: Caller,
) -> Session:
    """The sitting length can change until the next sitting starts and applies from then;
    visibility and double entry apply at once; the seeding until the session starts."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to="change its sessions")
    before = {f: getattr(session, f) for f in _SETTINGS}
    if seeding is not None and seeding != session.seeding:
        _check_seeding(seeding)
        if session.status != Session.Status.SETUP:
            raise ConflictError(
                "session_started",
                "The first sitting is already seated; the seeding can no longer change.",
                field="seeding",
            )
        session.seeding = seeding
    if games_per_sitting not in (2, 3):
        raise UserError(
            "games_per_sitting", "A sitting is 2 or 3 games.", field="games_per_sitting"
        )
    if session.status == Session.Status.FINISHED and games_per_sitting != session.games_per_sitting:
        raise ConflictError("session_finished", "This session is finished.")
    session.games_per_sitting = games_per_sitting
    session.is_public = is_public
    session.double_entry = double_entry
    session.save(update_fields=["games_per_sitting", "is_public", "double_entry", "seeding"])
    changed = audit.changes(before, {f: getattr(session, f) for f in _SETTINGS})
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="session.settings",
        summary="Changed the settings: " + (audit.said(changed, _SETTINGS) or "nothing changed"),
        details={"changed": changed},
    )
    return session


# A session's settings, with the words an audit entry names them by.
_SETTINGS = {
    "games_per_sitting": "games per sitting",
    "is_public": "public",
    "double_entry": "double entry",
    "seeding": "seeding",
}


@transaction.atomic
def session_add_players(
    *,
    session_id: int,
    player_ids: Sequence[int] = (),
    new_names: Sequence[str] = (),
    new_anyway: bool = False,
    user: Caller,
) -> list[SessionPlayer]:
    """Add players to the roster. Before the start they wait to be checked in; once the
    session runs they are late arrivals and join the bottom table (format rule 7)."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to="add players to its sessions")
    if session.status == Session.Status.FINISHED:
        raise ConflictError("session_finished", "This session is finished.")
    if session.status == Session.Status.CANCELLED:
        raise ConflictError("session_cancelled", "This session is cancelled.")
    players = list(Player.objects.filter(club=session.club, pk__in=player_ids))
    if len(players) != len(set(player_ids)):
        # As on creation: an id that is not the club's is refused, never quietly dropped.
        raise UserError("unknown_player", "Some of the chosen players are not in this club.")
    players += players_get_or_create(club=session.club, names=new_names, new_anyway=new_anyway)
    if not players:
        raise UserError("no_players", "Pick a player or type a new name.")
    added = []
    running = session.status == Session.Status.RUNNING
    sitting = selectors.current_sitting(session) if running else None
    pagecache.board_changed(session.pk)
    for player in players:
        entry, created = SessionPlayer.objects.get_or_create(session=session, player=player)
        if not created and entry.withdrawn_at is None and (entry.checked_in or not running):
            raise ConflictError(
                "already_on_roster", f"{player.name} is already playing in this session."
            )
        entry.checked_in = True if running else entry.checked_in
        entry.arrived_late = running
        entry.withdrawn_at = None
        entry.save()
        added.append(entry)
        if sitting is not None:
            rules = fmt.format_for(session.rules_id)
            if rules.split_min == rules.split_max:
                # Tables of a fixed size cannot take one more: the late arrival sits out
                # this sitting and joins the rotation from the next.
                Seating.objects.filter(sitting=sitting, player=player).delete()
                SitOut.objects.get_or_create(sitting=sitting, player=player)
            else:
                _seat_at_bottom(sitting=sitting, player=player)
    names = ", ".join(p.name for p in players)
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="session.late_arrival" if running else "session.add_players",
        summary=(f"Added late arrivals: {names}" if running else f"Added to the roster: {names}"),
        details={"players": [{"id": p.pk, "name": p.name} for p in players]},
    )
    return added


def _seat_at_bottom(*, sitting: Sitting, player: Player) -> None:
    bottom = sitting.tables.order_by("-rank").first()
    assert bottom is not None
    existing = Seating.objects.filter(sitting=sitting, player=player).first()
    next_seat = (bottom.seatings.aggregate(m=Max("seat"))["m"] or 0) + 1
    if existing is not None:
        # A player who withdrew and came back takes a new seat at the bottom table.
        existing.table, existing.seat, existing.left_at = bottom, next_seat, None
        existing.save(update_fields=["table", "seat", "left_at"])
    else:
        Seating.objects.create(sitting=sitting, table=bottom, player=player, seat=next_seat)
    refresh_unstarted_game(bottom)


def refresh_unstarted_game(table: Table) -> None:
    current = table_current_game(table)
    if current is not None and current.round_count == 0 and current.status == Game.Status.PLAYING:
        game_refresh_players(game=current)


@transaction.atomic
def session_check_in(
    *,
    session_id: int,
    player_ids: Sequence[int] | None,
    checked_in: bool,
    paid: bool | None = None,
    user: Caller,
) -> int:
    """Check players in (or take it back, a check-in at the door too); `player_ids=None`
    means the whole roster. All or nothing: if one of them is not on the roster, nobody
    changes. `paid` records at the same time whether they paid the entry fee (None:
    unchanged; refused on a free session, `workflow.prizes`)."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to="check players in")
    if session.status == Session.Status.CANCELLED:
        raise ConflictError("session_cancelled", "This session is cancelled.")
    if session.status != Session.Status.SETUP:
        raise ConflictError(
            "session_started",
            "The session has started: add a late arrival or withdraw a player instead.",
        )
    entries = SessionPlayer.objects.filter(session=session)
    if player_ids is not None:
        wanted = set(player_ids)
        entries = entries.filter(player_id__in=wanted)
        if entries.count() != len(wanted):
            raise UserError("not_on_roster", "That player is not on this session's roster.")
    paid_field = {}
    if paid is not None:
        if (refusal := prizes.fees_refusal(session)) is not None:
            raise refusal
        paid_field = {"paid": paid}
    changed = dict(entries.values_list("player_id", "player__name"))
    # Taking a check-in back also forgets that it was made at the door (workflow.door).
    count = entries.update(
        checked_in=checked_in,
        **({} if checked_in else {"self_checked_in_at": None}),
        **paid_field,
    )
    # The director's live check-in list (and a second director's page) shows it.
    pagecache.live_changed(session.pk)
    # A tick names its player; the whole roster at once says how many.
    who = (
        ", ".join(sorted(changed.values()))
        if player_ids is not None and len(changed) <= 5
        else f"{count} player{'s' if count != 1 else ''}"
        + (" (the whole roster)" if player_ids is None else "")
    )
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="session.check_in" if checked_in else "session.check_out",
        summary=f"{'Checked in' if checked_in else 'Took back the check-in of'} {who}",
        details={"player_ids": sorted(changed), "checked_in": checked_in}
        | ({} if paid is None else {"paid": paid}),
    )
    return count


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
    button; `session_start` refuses with it."""
    need = fmt.format_for(session.rules_id).play_min
    if checked_in == 0:
        return ConflictError(
            "nobody_checked_in",
            "Nobody is checked in yet. Check players in as they arrive (or “Check everyone "
            "in”), then start.",
        )
    if checked_in < need:
        return ConflictError(
            "too_few_players",
            f"Only {checked_in} player{'s are' if checked_in != 1 else ' is'} checked in; "
            f"a table needs at least {need}. Check in more players, or add them to the roster.",
        )
    return None


@transaction.atomic
def session_start(*, session_id: int, user: Caller) -> Sitting:
    """Split the checked-in players into ranked tables and start the first games. The
    club's keep-apart pairs are parted when possible; those that could not be are on the
    sitting (`Sitting.not_kept_apart`), with why."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to="start its sessions")
    if session.status == Session.Status.CANCELLED:
        raise ConflictError("session_cancelled", "This session is cancelled.")
    if session.status != Session.Status.SETUP:
        raise ConflictError("session_started", "This session has already started.")
    rules = fmt.format_for(session.rules_id)
    entries = list(
        SessionPlayer.objects.filter(session=session, checked_in=True, withdrawn_at__isnull=True)
    )
    refusal = start_refusal(session, len(entries))
    if refusal is not None:
        raise refusal
    ids = sorted(e.player_id for e in entries)
    big_loser = last_season_big_loser(session)
    big_loser_id = big_loser.pk if big_loser and big_loser.pk in ids else None
    try:
        # The Big Loser's place is the bottom table, so they sit out last of all.
        sitting_out = fmt.choose_sit_outs(
            ids,
            fmt.sit_out_count(len(ids), rules),
            sat_out={big_loser_id: len(ids)} if big_loser_id else {},
            rng=fmt.make_rng(session.seed, "sit-out", 1),
        )
        seated = [pid for pid in ids if pid not in sitting_out]
        strength = None
        if session.seeding == Session.Seeding.RANDOM:
            tables = fmt.split(seated, fmt=rules, seed=session.seed, big_loser=big_loser_id)
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
            )
    except fmt.FormatError as e:
        # Too few or too many checked in: the roster's state, not the request, is wrong.
        raise ConflictError(e.code, str(e)) from None
    # The club's keep-apart pairs (docs/format.md, "Keep apart"): parted when possible.
    apart = seating_wishes.start_seating(
        session=session, tables=tables, big_loser_id=big_loser_id, strength=strength
    )
    sitting = sitting_create(
        session=session, number=1, tables=apart.tables, sitting_out=sitting_out
    )
    if apart.not_kept:
        names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
        sitting.not_kept_apart = [
            {
                "players": [n.first, n.second],
                "names": [names[n.first], names[n.second]],
                "reason": n.reason,
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
        + (f", {len(sitting_out)} sitting out" if sitting_out else ""),
        details={"players": len(seated), "tables": len(tables), "sitting_out": list(sitting_out)},
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
        # A club that plays to time: the sitting's timer starts with it (workflow.timer).
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
    table_rows = Table.objects.bulk_create(
        [
            Table(sitting=sitting, rank=rank, number=number)
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
    return sitting


@transaction.atomic
def session_finish(*, session_id: int, early: bool = False, user: Caller) -> Session:
    """Finish the session and keep its standings for the season ladder. Ending before
    every game is finished needs `early=True`; unfinished games do not count."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to="finish its sessions")
    if session.status != Session.Status.RUNNING:
        raise ConflictError("session_not_running", "Only a running session can be finished.")
    sitting = selectors.require_current_sitting(session)
    unfinished = [p for p in selectors.sitting_progress(sitting) if not p.finished]
    if unfinished and not early:
        raise ConflictError(
            "sitting_unfinished",
            "Some tables still have games to play. Confirm that you want to end the session early.",
        )
    standings = selectors.session_standings(session)
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
    season_id = session.season_id
    enqueue_on_commit(tasks.season_standings_refresh, season_id)
    backup_on_commit("session-finish")
    return session


@transaction.atomic
def big_loser_award(
    *, season_id: int, player_id: int, note: str = "", user: Caller
) -> BigLoserAward:
    season = Season.objects.select_for_update().get(pk=season_id)
    require_director(user, season.club_id, to="award the Big Loser")
    player = Player.objects.filter(club=season.club_id, pk=player_id).first()
    if player is None:
        raise UserError("unknown_player", "That player is not in this club.", field="player")
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
