"""Writes for a session's life outside its start, its movements and its finish: creating
it and its players, its settings, the roster and arrivals. Starting it (the split and the
first sitting), seating a sitting, finishing it and the season's Big Loser are in
`workflow.session.start_finish`; the movements and rebalancing in
`workflow.session.movements`; withdrawals in `workflow.session.withdrawals`; the club's
own writes (seasons, players) in `workflow.club.services`, its directors in
`workflow.club.directors`; scorer links and table cards in `workflow.tables.links`.

Each service is keyword-only and atomic. Services that change a session lock its row
first, exclusively (`scoring.locks.lock_session`, the lock order), so that two
directors or a director and a scorer cannot interleave, and then refuse anyone who does
not direct the club (`tournaments.permissions.require_director`) before writing. The
format itself is decided by the pure functions in `tournaments.format`; the rules that
are reads (the current sitting, the ranking, the ladders) by `workflow.session.selectors`.

`players_get_or_create` is shared with a substitute's seat (`workflow.session.withdrawals`) and
the door (`workflow.front.door`); `refresh_unstarted_game` with the withdrawals and the
rebalance, which change who sits at a table whose game has not begun.
`PUBLIC_BY_DEFAULT` is the visibility of a new session for the page, the API and this
module alike.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date as Date

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext, gettext_noop

import engine
from common.errors import ConflictError, UserError
from common.matching import did_you_mean, look_alikes, spelled
from common.text import refuse_hidden_characters
from scoring.locks import lock_session
from scoring.models import Game
from scoring.tables import game_refresh_players, table_current_game
from tournaments import audit, pagecache, signals
from tournaments import format as fmt
from tournaments.models import (
    Club,
    Player,
    Season,
    Seating,
    Session,
    SessionPlayer,
    SitOut,
    Sitting,
    Table,
)
from tournaments.permissions import Caller, as_actor, require_director
from workflow.club import prizes
from workflow.names import clean_names
from workflow.session import selectors
from workflow.session.online_settings import (
    KEEP,
    Keep,
    apply_online_settings,
    check_fill,
    check_online,
    read_seconds,
)

# A new session is public unless the director says otherwise (docs/tournament.md).
PUBLIC_BY_DEFAULT = Session.PUBLIC_BY_DEFAULT


def players_get_or_create(
    *, club: Club, names: Sequence[str], new_anyway: bool = False
) -> list[Player]:
    """Players of the club by name, creating the ones the club does not know yet.
    Names written alike (`common.matching.spelled`) are the same player; an inactive
    player named is active again. A new name that is a player's written otherwise ("ANNE
    MARIE COSTELLO" for Anne-Marie Costello: one `match_key`) is refused with "Did you
    mean …?" unless `new_anyway` (the director confirmed they are new players): never a
    second player by mistake, never one merged into another without asking."""
    wanted = clean_names(names)
    known = {spelled(p.name): p for p in Player.objects.filter(club=club)}
    if not new_anyway:
        _refuse_look_alikes([n for n in wanted if spelled(n) not in known], known)
    new = Player.objects.bulk_create(
        [Player(club=club, name=name) for name in wanted if spelled(name) not in known]
    )
    if any(p.pk is None for p in new):  # a backend that returns no ids from bulk_create
        new = list(Player.objects.filter(club=club, name__in=[p.name for p in new]))
    known.update((spelled(p.name), p) for p in new)
    chosen = [known[spelled(name)] for name in wanted]
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
        gettext("Choose the season %(season)s, which covers that date, or change the date.")
        % {"season": covering.name}
        if covering is not None
        else gettext("Change the date, or open a season that covers it first.")
    )
    raise UserError(
        "date_outside_season",
        gettext(
            "%(date)s is outside the season %(season)s (%(starts_on)s to "
            "%(ends_on)s): its results would count on the wrong ladder. "
        )
        # A date as str() writes it: 2026-11-26.
        % dict(date=date, season=season.name, starts_on=season.starts_on, ends_on=season.ends_on)
        + advice,
        field="date",
    )


def _refuse_look_alikes(new: Sequence[str], known: dict[str, Player]) -> None:
    names = [p.name for p in known.values()]
    look = {name: found for name in new if (found := look_alikes(name, names))}
    if look:
        raise ConflictError(
            "player_name_looks_like",
            gettext(
                "%(did_you_mean)s Type the name as the club has it to add that player, "
                "or confirm that it is someone else to add the name as typed."
            )
            % {"did_you_mean": did_you_mean(look)},
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
    online: bool = False,
    online_grace_seconds: int | str | None = 60,
    move_clock_seconds: int | str | None = None,
    duplicate: bool = False,
    fill_with_robots: bool = False,
    user: Caller,
) -> Session:
    require_director(user, club, to=gettext_noop("create its sessions"))
    if season.club_id != club.pk:
        raise UserError(
            "season_not_in_club", gettext("That season belongs to another club."), field="season"
        )
    if season.closed_at is not None:
        raise ConflictError(
            "season_closed",
            gettext("The season %(season)s is closed; pick an open one.") % {"season": season.name},
            field="season",
        )
    _check_date_in_season(club=club, season=season, date=date)
    if rules_id not in fmt.FORMATS or rules_id not in engine.RULES:
        raise UserError(
            "unknown_rules",
            gettext("Unknown rules “%(rules_id)s”.") % {"rules_id": rules_id},
            field="rules_id",
        )
    if games_per_sitting not in (2, 3):
        raise UserError(
            "games_per_sitting", gettext("A sitting is 2 or 3 games."), field="games_per_sitting"
        )
    _check_seeding(seeding)
    grace = read_seconds(online_grace_seconds, field="online_grace_seconds", empty=60)
    clock = read_seconds(move_clock_seconds, field="move_clock_seconds", empty=None)
    # The box the director ticked is named: robots first, as they need the others.
    check_fill(rules_id=rules_id, online=online, fill_with_robots=fill_with_robots)
    if online or duplicate:
        check_online(rules_id, field="duplicate" if duplicate and not online else "online")
    refuse_hidden_characters(name, what=gettext_noop("Session names"), field="name")
    if not name.strip():
        raise UserError("name_required", gettext("Give the session a name."), field="name")
    if len(name.strip()) > 120:
        raise UserError(
            "name_too_long", gettext("A session name has at most 120 characters."), field="name"
        )
    players = list(Player.objects.filter(club=club, pk__in=player_ids))
    if len(players) != len(set(player_ids)):
        raise UserError(
            "unknown_player", gettext("Some of the chosen players are not in this club.")
        )
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
        online=online,
        online_grace_seconds=grace,
        move_clock_seconds=clock,
        duplicate=duplicate,
        fill_with_robots=fill_with_robots,
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
        summary=f"Created the session {session.name} of {date} ({len(roster)} players)",
        details={
            "name": session.name,
            "date": date,
            "rules_id": rules_id,
            "players": len(roster),
            "online": online,
            "duplicate": duplicate,
            "fill_with_robots": fill_with_robots,
        },
    )
    return session


def _check_seeding(seeding: str) -> None:
    if seeding not in Session.Seeding.values:
        known = ", ".join(Session.Seeding.values)
        raise UserError(
            "unknown_seeding",
            gettext("Unknown seeding “%(seeding)s”; use one of: %(known)s.")
            % {"seeding": seeding, "known": known},
            field="seeding",
        )


@transaction.atomic
def session_update_settings(
    *,
    session_id: int,
    games_per_sitting: int,
    is_public: bool,
    double_entry: bool,
    seeding: str | None = None,
    online: bool | Keep = KEEP,
    online_grace_seconds: int | str | Keep = KEEP,
    move_clock_seconds: int | str | Keep | None = KEEP,
    duplicate: bool | Keep = KEEP,
    fill_with_robots: bool | Keep = KEEP,
    user: Caller,
) -> Session:
    """The sitting length can change until the next sitting starts and applies from then;
    visibility and double entry apply at once; the seeding and `online` until the session
    starts; the online grace time and move clock at once (from the next turn); duplicate
    deals from the next sitting made (the first, before the start); robots that fill
    seats from the start, or the next movement once it runs."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("change its sessions"))
    before = {f: getattr(session, f) for f in _SETTINGS}
    if seeding is not None and seeding != session.seeding:
        _check_seeding(seeding)
        if session.status != Session.Status.SETUP:
            raise ConflictError(
                "session_started",
                gettext("The first sitting is already seated; the seeding can no longer change."),
                field="seeding",
            )
        session.seeding = seeding
    if games_per_sitting not in (2, 3):
        raise UserError(
            "games_per_sitting", gettext("A sitting is 2 or 3 games."), field="games_per_sitting"
        )
    if session.status == Session.Status.FINISHED and games_per_sitting != session.games_per_sitting:
        raise ConflictError("session_finished", gettext("This session is finished."))
    finished = session.status == Session.Status.FINISHED
    for field, value in (("duplicate", duplicate), ("fill_with_robots", fill_with_robots)):
        if finished and not isinstance(value, Keep) and value != getattr(session, field):
            raise ConflictError(
                "session_finished", gettext("This session is finished."), field=field
            )
    apply_online_settings(
        session,
        online=online,
        online_grace_seconds=online_grace_seconds,
        move_clock_seconds=move_clock_seconds,
        duplicate=duplicate,
        fill_with_robots=fill_with_robots,
    )
    session.games_per_sitting = games_per_sitting
    session.is_public = is_public
    session.double_entry = double_entry
    session.save(
        update_fields=[
            "games_per_sitting",
            "is_public",
            "double_entry",
            "seeding",
            "online",
            "online_grace_seconds",
            "move_clock_seconds",
            "duplicate",
            "fill_with_robots",
        ]
    )
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
    "online": "online",
    "online_grace_seconds": "online grace seconds",
    "move_clock_seconds": "move clock seconds",
    "duplicate": "duplicate deals",
    "fill_with_robots": "fill with robots",
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
    require_director(user, session.club_id, to=gettext_noop("add players to its sessions"))
    if session.status == Session.Status.FINISHED:
        raise ConflictError("session_finished", gettext("This session is finished."))
    if session.status == Session.Status.CANCELLED:
        raise ConflictError("session_cancelled", gettext("This session is cancelled."))
    players = list(Player.objects.filter(club=session.club, pk__in=player_ids))
    if len(players) != len(set(player_ids)):
        # As on creation: an id that is not the club's is refused, never quietly dropped.
        raise UserError(
            "unknown_player", gettext("Some of the chosen players are not in this club.")
        )
    players += players_get_or_create(club=session.club, names=new_names, new_anyway=new_anyway)
    if not players:
        raise UserError("no_players", gettext("Pick a player or type a new name."))
    added = []
    running = session.status == Session.Status.RUNNING
    sitting = selectors.current_sitting(session) if running else None
    pagecache.board_changed(session.pk)
    for player in players:
        entry, created = SessionPlayer.objects.get_or_create(session=session, player=player)
        if not created and entry.withdrawn_at is None and (entry.checked_in or not running):
            raise ConflictError(
                "already_on_roster",
                gettext("%(player)s is already playing in this session.") % {"player": player.name},
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
    signals.seats_changed_on_commit(sitting.session_id, tables=[bottom.pk])  # its phones see it


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
    unchanged; refused on a free session, `workflow.club.prizes`)."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("check players in"))
    if session.status == Session.Status.CANCELLED:
        raise ConflictError("session_cancelled", gettext("This session is cancelled."))
    if session.status != Session.Status.SETUP:
        raise ConflictError(
            "session_started",
            gettext("The session has started: add a late arrival or withdraw a player instead."),
        )
    entries = SessionPlayer.objects.filter(session=session)
    if player_ids is not None:
        wanted = set(player_ids)
        entries = entries.filter(player_id__in=wanted)
        if entries.count() != len(wanted):
            raise UserError(
                "not_on_roster", gettext("That player is not on this session's roster.")
            )
    paid_field = {}
    if paid is not None:
        if (refusal := prizes.fees_refusal(session)) is not None:
            raise refusal
        paid_field = {"paid": paid}
    changed = dict(entries.values_list("player_id", "player__name"))
    # Taking a check-in back also forgets that it was made at the door (workflow.front.door).
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
