"""Writes for running a club between sessions: seasons, players, merging two records of
one player, calling off a session and the club's time zone (docs/tournament.md, "Running
the club"). Its directors are invited and removed in `workflow.club.directors`.

Like `workflow.session.services`, each service is keyword-only and atomic, locks the rows it
changes, refuses anyone who does not direct the club (`require_director`), and refuses
with a `UserError` (a stable code, plain words) before writing anything.

Why one module of over 400 lines: it is the one workflow of running a club, and its
services share the lock-then-refuse helpers below; split by model it would scatter that
workflow across files that each repeat them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date as Date
from functools import partial
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import ForeignObjectRel
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_noop

from common.errors import ConflictError, UserError
from common.matching import did_you_mean, look_alikes, spelled
from common.text import refuse_hidden_characters
from scoring.locks import lock_session
from scoring.models import GamePlayer
from tournaments import audit, pagecache
from tournaments.models import (
    Club,
    Player,
    Season,
    Session,
    SessionPlayer,
    validate_time_zone,
)
from tournaments.permissions import Caller, require_director
from workflow.club import tasks

NAME_MAX = 60


#: A name's refusals, by what it names: translated where they are raised.
_NAME_WORDS = {
    "season": (
        gettext_noop("Season names"),
        gettext_noop("Give the season a name."),
        gettext_noop("A season name has at most %(NAME_MAX)s characters."),
    ),
    "player": (
        gettext_noop("Player names"),
        gettext_noop("Give the player a name."),
        gettext_noop("A player name has at most %(NAME_MAX)s characters."),
    ),
}


def _clean_name(raw: str, *, what: str = "player") -> str:
    names, required, too_long = _NAME_WORDS[what]
    refuse_hidden_characters(raw, what=names, field="name")
    name = " ".join(raw.split())
    if not name:
        raise UserError("name_required", gettext(required), field="name")
    if len(name) > NAME_MAX:
        too_long = gettext(too_long) % {"NAME_MAX": NAME_MAX}
        raise UserError("name_too_long", too_long, field="name")
    return name


def _lock_club(club_id: int) -> Club:
    return Club.objects.select_for_update().get(pk=club_id)


def _refresh_seasons(season_ids: set[int]) -> None:
    """The cached season ladders name players: recompute them once the change is in."""
    for season_id in sorted(season_ids):
        transaction.on_commit(partial(tasks.season_standings_refresh.delay, season_id))


# Seasons


@transaction.atomic
def season_open(*, club_id: int, name: str, starts_on: Date, ends_on: Date, user: Caller) -> Season:
    club = _lock_club(club_id)
    require_director(user, club, to=gettext_noop("open its seasons"))
    name = _clean_name(name, what="season")
    if ends_on < starts_on:
        raise UserError(
            "season_dates", gettext("A season ends on or after the day it starts."), field="ends_on"
        )
    if club.seasons.filter(name__iexact=name).exists():
        raise ConflictError(
            "season_name_taken",
            gettext("The club already has a season called “%(name)s”.") % {"name": name},
            field="name",
        )
    season = Season.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on)
    audit.record(
        user,
        club=club,
        action="season.open",
        summary=f"Opened the season {name} ({starts_on} to {ends_on})",
        details={
            "season": {"id": season.pk, "name": name},
            "starts_on": starts_on,
            "ends_on": ends_on,
        },
    )
    return season


@transaction.atomic
def season_close(*, season_id: int, user: Caller) -> Season:
    """A closed season takes no new session. Its sessions must be finished (or called off)
    first, so that its ladder is final."""
    season = Season.objects.select_for_update().get(pk=season_id)
    require_director(user, season.club_id, to=gettext_noop("close its seasons"))
    if season.closed_at is not None:
        raise ConflictError(
            "season_closed",
            gettext("The season %(season)s is already closed.") % {"season": season.name},
        )
    open_sessions = list(
        season.sessions.filter(
            status__in=[Session.Status.SETUP, Session.Status.RUNNING]
        ).values_list("name", "date")
    )
    if open_sessions:
        names = "; ".join(f"{n} ({d:%Y-%m-%d})" for n, d in open_sessions)
        raise ConflictError(
            "season_has_open_sessions",
            gettext("Finish or cancel these sessions before closing the season: %(names)s.")
            % {"names": names},
        )
    season.closed_at = timezone.now()
    season.save(update_fields=["closed_at"])
    audit.record(
        user,
        club=season.club_id,
        action="season.close",
        summary=f"Closed the season {season.name}",
        details={"season": {"id": season.pk, "name": season.name}},
    )
    return season


# Players


def _name_taken(club_id: int, name: str, *, besides: int | None = None) -> Player | None:
    # Names written alike (`common.matching.spelled`: only case and spaces differ) are one
    # name, as typing names on a session's roster has it; in Python, since a database's
    # case-insensitive match may know only ASCII's cases.
    players = Player.objects.filter(club_id=club_id).only("pk", "name").order_by("pk")
    return next((p for p in players if p.pk != besides and spelled(p.name) == spelled(name)), None)


@transaction.atomic
def player_add(*, club_id: int, name: str, new_anyway: bool = False, user: Caller) -> Player:
    """A new player of the club. A name the club has already (any case) is refused; one
    that is a player's name written with other accents or punctuation (`common.matching`)
    asks "Did you mean …?" unless `new_anyway` (the director confirmed a different
    person)."""
    club = _lock_club(club_id)
    require_director(user, club, to=gettext_noop("add its players"))
    name = _clean_name(name)
    if (other := _name_taken(club.pk, name)) is not None:
        raise ConflictError(
            "player_name_taken",
            gettext("The club already has a player called “%(other)s”.") % {"other": other.name},
            field="name",
        )
    known = Player.objects.filter(club=club).values_list("name", flat=True)
    if not new_anyway and (found := look_alikes(name, known)):
        raise ConflictError(
            "player_name_looks_like",
            gettext(
                "%(did_you_mean)s The club has that player already; confirm that "
                "“%(name)s” is a different person to add them."
            )
            % {"did_you_mean": did_you_mean({name: found}), "name": name},
            field="name",
        )
    player = Player.objects.create(club=club, name=name)
    _record_player(user, player, "player.add", f"Added the player {name}")
    return player


def _record_player(user: Caller, player: Player, action: str, summary: str, **more: Any) -> None:
    audit.record(
        user,
        club=player.club_id,
        action=action,
        summary=summary,
        details={"player": {"id": player.pk, "name": player.name}, **more},
    )


@transaction.atomic
def player_rename(*, player_id: int, name: str, user: Caller) -> Player:
    """The new name shows everywhere from now on; stored game records keep the name the
    game was played under (`GamePlayer.name`), so a finished record never changes."""
    # The club first, then the player (the club's lock order); a name is not a key, so
    # rows that refer to the player (a movement seating them) are not held up.
    _lock_club(Player.objects.values_list("club_id", flat=True).get(pk=player_id))
    player = Player.objects.select_for_update(no_key=True).get(pk=player_id)
    require_director(user, player.club_id, to=gettext_noop("rename its players"))
    name = _clean_name(name)
    if (other := _name_taken(player.club_id, name, besides=player.pk)) is not None:
        raise ConflictError(
            "player_name_taken",
            gettext(
                "The club already has a player called “%(other)s”. If they are the same "
                "person, merge the two records instead."
            )
            % {"other": other.name},
            field="name",
        )
    before = player.name
    player.name = name
    player.save(update_fields=["name"])
    _record_player(
        user,
        player,
        "player.rename",
        f"Renamed {before} to {name}",
        changed={"name": {"before": before, "after": name}},
    )
    # Every page of their sessions shows the new name: the boards and live screens of those
    # under way, and the stored standings of finished ones too (tournaments/pagecache.py).
    for session_id in player.entries.values_list("session_id", flat=True):
        pagecache.board_changed(session_id)
    _refresh_seasons(set(player.standings.values_list("session__season_id", flat=True)))
    return player


@transaction.atomic
def player_set_active(*, player_id: int, active: bool, user: Caller) -> Player:
    player = Player.objects.select_for_update(no_key=True).get(pk=player_id)
    require_director(user, player.club_id, to=gettext_noop("change its players"))
    if player.active == active:
        words = {"player": player.name}
        if active:
            raise ConflictError(
                "player_unchanged", gettext("%(player)s is already active.") % words
            )
        raise ConflictError("player_unchanged", gettext("%(player)s is already inactive.") % words)
    player.active = active
    player.save(update_fields=["active"])
    _record_player(
        user,
        player,
        "player.active",
        f"Marked {player.name} {'active' if active else 'inactive'}",
        changed={"active": {"before": not active, "after": active}},
    )
    return player


@dataclass(frozen=True)
class MergePlan:
    """What merging `merged` into `kept` moves: rows per kind, for the confirmation."""

    kept: Player
    merged: Player
    moves: list[tuple[str, int]]


def _player_links() -> list[tuple[type[models.Model], str]]:
    """Every foreign key to Player in every app (sessions, games, placings, standings,
    awards, sit-outs, ratings, …): found from the models, so a new app's link is
    re-pointed too."""
    links: list[tuple[type[models.Model], str]] = []
    # include_hidden: links declared with related_name="+" (a game's players and first
    # dealer, a session's Big Loser) are links all the same.
    for rel in Player._meta.get_fields(include_hidden=True):
        if isinstance(rel, ForeignObjectRel) and not rel.many_to_many and rel.related_model:
            links.append((rel.related_model, rel.field.name))
    return sorted(links, key=lambda link: (link[0]._meta.label, link[1]))


def merge_refusal(kept: Player, merged: Player) -> UserError | None:
    """Why `merged` cannot be folded into `kept`, or None. Asked by the confirmation page
    and by `player_merge`."""
    if kept.pk == merged.pk:
        return UserError("merge_same_player", gettext("Pick two different records to merge."))
    if kept.club_id != merged.club_id:
        return UserError("merge_other_club", gettext("Both records must belong to the same club."))
    # The game first: it says more precisely where the two sat together.
    game = (
        GamePlayer.objects.filter(player=kept, game__game_players__player=merged)
        .select_related("game__table__sitting__session")
        .first()
    )
    if game is not None:
        session = game.game.table.sitting.session
        return UserError(
            "merge_same_game",
            gettext(
                "%(kept)s and %(merged)s sat at the same game (game %(game_number)s of "
                "“%(session)s”): they are two people, not one."
            )
            % {
                "kept": kept.name,
                "merged": merged.name,
                "game_number": game.game.number,
                "session": session.name,
            },
        )
    shared = (
        Session.objects.filter(entries__player=kept)
        .filter(entries__player=merged)
        .order_by("date")
        .first()
    )
    if shared is not None:
        return UserError(
            "merge_same_session",
            gettext(
                "%(kept)s and %(merged)s both played in “%(shared)s” on %(date)s: they "
                "are two people, not one."
            )
            % {
                "kept": kept.name,
                "merged": merged.name,
                "shared": shared.name,
                "date": date_format(shared.date, "SHORT_DATE_FORMAT"),
            },
        )
    if kept.user_id and merged.user_id and kept.user_id != merged.user_id:
        return UserError(
            "merge_two_accounts",
            gettext(
                "%(kept)s and %(merged)s are linked to two different accounts; a person "
                "has one account."
            )
            % {"kept": kept.name, "merged": merged.name},
        )
    return None


def merge_plan(kept: Player, merged: Player) -> MergePlan:
    moves = []
    for model, field in _player_links():
        count = model._default_manager.filter(**{field: merged}).count()
        if count:
            moves.append((str(model._meta.verbose_name_plural), count))
    return MergePlan(kept=kept, merged=merged, moves=moves)


@transaction.atomic
def player_merge(*, kept_id: int, merged_id: int, user: Caller) -> Player:
    """Fold the record `merged_id` into `kept_id` (the same person entered twice): every
    row that points at it points at `kept_id` instead, in one transaction, and the
    duplicate record is deleted. Refused when both records sat in one session or game."""
    players = {
        p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[kept_id, merged_id])
    }
    if kept_id in players:
        # The kept record's club is the one merging; a record of another club is refused
        # by `merge_refusal` below, in words.
        require_director(user, players[kept_id].club_id, to=gettext_noop("merge its players"))
    if kept_id not in players or merged_id not in players:
        raise UserError("unknown_player", gettext("That player is not in this club."))
    kept, merged = players[kept_id], players[merged_id]
    if (refusal := merge_refusal(kept, merged)) is not None:
        raise refusal
    season_ids = set(
        Session.objects.filter(entries__player__in=[kept, merged]).values_list(
            "season_id", flat=True
        )
    )
    session_ids = set(
        SessionPlayer.objects.filter(player=merged).values_list("session_id", flat=True)
    )
    for model, field in _player_links():
        try:
            with transaction.atomic():
                model._default_manager.filter(**{field: merged}).update(**{field: kept})
        except IntegrityError:
            raise UserError(
                "merge_conflict",
                gettext("Both records have %(verbose_name_plural)s that cannot be joined.")
                % {"verbose_name_plural": model._meta.verbose_name_plural},
            ) from None
    if merged.user_id and not kept.user_id:
        kept.user_id = merged.user_id
    kept.active = kept.active or merged.active
    merged_label = {"id": merged.pk, "name": merged.name}
    merged.delete()
    kept.save(update_fields=["user", "active"])
    _record_player(
        user,
        kept,
        "player.merge",
        f"Merged {merged_label['name']} into {kept.name}",
        merged=merged_label,
    )
    for session_id in session_ids:
        pagecache.board_changed(session_id)
    _refresh_seasons(season_ids)
    return kept


# Sessions


@transaction.atomic
def session_cancel(*, session_id: int, user: Caller) -> Session:
    """Call off a session that has not started: it stays on record as cancelled."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("cancel its sessions"))
    if session.status == Session.Status.CANCELLED:
        raise ConflictError("session_cancelled", gettext("This session is already cancelled."))
    if session.status != Session.Status.SETUP:
        raise ConflictError(
            "session_started",
            gettext(
                "This session has started: it cannot be cancelled. Finish it (early, if need be)."
            ),
        )
    session.status = Session.Status.CANCELLED
    session.save(update_fields=["status"])
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="session.cancel",
        summary=f"Cancelled the session {session.name} of {session.date:%Y-%m-%d}",
        details={"name": session.name, "date": session.date},
    )
    pagecache.live_changed(session.pk)
    return session


@transaction.atomic
def session_delete(*, session_id: int, user: Caller) -> None:
    """Delete a session that never started (no sitting). A started or finished session is
    part of the club's history and is never deleted."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("delete its sessions"))
    if session.status in (Session.Status.RUNNING, Session.Status.FINISHED) or (
        session.sittings.exists()
    ):
        raise ConflictError(
            "session_not_empty",
            gettext(
                "Only a session that never started can be deleted; a started or "
                "finished session stays in the club's history."
            ),
        )
    # Its entries stay with the club: the session's name and date are in their details.
    audit.record(
        user,
        club=session.club_id,
        action="session.delete",
        summary=f"Deleted the session {session.name} of {session.date:%Y-%m-%d}",
        details={"session": {"id": session.pk, "name": session.name}, "date": session.date},
    )
    session.delete()


# The club


@transaction.atomic
def club_set_time_zone(*, club_id: int, time_zone: str, user: Caller) -> Club:
    club = _lock_club(club_id)
    require_director(user, club, to=gettext_noop("set its time zone"))
    time_zone = time_zone.strip()
    try:
        validate_time_zone(time_zone)
    except ValidationError:
        raise UserError(
            "bad_time_zone",
            gettext(
                "“%(time_zone)s” is not a time zone name; use one such as Europe/London "
                "or America/Chicago."
            )
            % {"time_zone": time_zone},
            field="time_zone",
        ) from None
    before = club.time_zone
    club.time_zone = time_zone
    club.save(update_fields=["time_zone"])
    audit.settings_changed(
        user, club, {"time_zone": before}, {"time_zone": time_zone}, {"time_zone": "time zone"}
    )
    return club
