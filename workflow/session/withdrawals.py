"""Writes and reads for a player who leaves a running session: the withdrawal
(`session_withdraw`), with a substitute who takes the seat and its score when the player
leaves mid-game (docs/tournament.md, "Withdrawals"); what the withdrawal page asks first
(`withdrawal_game`, `substitute_candidates`); and `game_under_way`, the game a seated
player is in the middle of, which the rebalance in `workflow.session.movements` asks as well.

`session_withdraw` is keyword-only and atomic and takes the session's lock first,
exclusively (`scoring.locks.lock_session`), as the session's other writes do, then
refuses anyone who does not direct the club before writing.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from common.errors import ConflictError, UserError
from scoring import locks, substitutes
from scoring.models import Game
from scoring.tables import table_current_game
from tournaments import audit, pagecache
from tournaments.models import (
    Player,
    Seating,
    Session,
    SessionPlayer,
    SitOut,
    Sitting,
)
from tournaments.permissions import Caller, require_director
from tournaments.signals import seats_changed_on_commit
from workflow.session import selectors, services


def game_under_way(seating: Seating) -> Game | None:
    """The game at the player's table that has started and not ended, if they play in it."""
    game = table_current_game(seating.table)
    if game is None or game.status != Game.Status.PLAYING or not game.round_count:
        return None
    return game if game.game_players.filter(player_id=seating.player_id).exists() else None


def withdrawal_game(session: Session, player_id: int) -> tuple[Seating, Game] | None:
    """Where a withdrawal would be mid-game: the player's seat and the game under way
    there, or None. The withdrawal page asks it to offer a substitute."""
    sitting = selectors.current_sitting(session)
    if session.status != Session.Status.RUNNING or sitting is None:
        return None
    seating = (
        Seating.objects.select_related("table")
        .filter(sitting=sitting, player_id=player_id, left_at__isnull=True)
        .first()
    )
    game = game_under_way(seating) if seating is not None else None
    return (seating, game) if seating is not None and game is not None else None


def substitute_candidates(session: Session) -> list[str]:
    """Names the withdrawal page suggests for a substitute: on the roster and not playing
    now (sitting out, or withdrawn earlier)."""
    sitting = selectors.current_sitting(session)
    playing = Seating.objects.filter(sitting=sitting, left_at__isnull=True).values("player_id")
    return list(
        SessionPlayer.objects.filter(session=session)
        .exclude(player_id__in=playing)
        .order_by("player__name")
        .values_list("player__name", flat=True)
    )


@transaction.atomic
def session_withdraw(
    *, session_id: int, player_id: int, user: Caller, substitute: str = ""
) -> Player | None:
    """A player leaves; their finished games still count. Between games their seat is left
    empty. In the middle of a game a substitute must take the seat (docs/tournament.md,
    "Withdrawals"): someone sitting out, someone on the roster not seated now, or a new
    name; the substitute plays on with the seat's score, and that game counts for them.
    A substitute may also take the seat between games. Returns the substitute, if any."""
    session = locks.lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("withdraw its players"))
    entry = (
        SessionPlayer.objects.select_related("player")
        .filter(session=session, player_id=player_id)
        .first()
    )
    if entry is None:
        raise UserError("not_on_roster", gettext("That player is not on this session's roster."))
    if entry.withdrawn_at is not None:
        raise ConflictError(
            "already_withdrawn",
            gettext("%(player)s has already withdrawn.") % {"player": entry.player.name},
        )
    if session.status == Session.Status.SETUP:
        if substitute.strip():
            raise UserError(
                "substitute_before_start",
                gettext(
                    "Nobody is seated before the start: remove this player, then add the "
                    "other person to the roster."
                ),
            )
        entry.delete()
        _record_withdrawal(user, session, entry.player, None, "before the start")
        return None
    if session.status != Session.Status.RUNNING:
        raise ConflictError("session_not_running", gettext("This session is not running."))
    sitting = selectors.require_current_sitting(session)
    SitOut.objects.filter(sitting=sitting, player_id=player_id).delete()
    seating = (
        Seating.objects.select_related("table")
        .filter(sitting=sitting, player_id=player_id, left_at__isnull=True)
        .first()
    )
    game = game_under_way(seating) if seating is not None else None
    if game is not None:
        # The session's lock keeps every round out; the game is read again under it.
        game = locks.lock_game(game.pk)
    name = substitute.strip()
    if game is not None and not name:
        assert seating is not None
        raise ConflictError(
            "withdrawal_mid_game",
            gettext(
                "%(player)s is in the middle of game %(game_number)s at table %(rank)s. "
                "Name a substitute to take their seat and score for the rest of that "
                "game, or withdraw them when the game ends."
            )
            % {"player": entry.player.name, "game_number": game.number, "rank": seating.table.rank},
            field="substitute",
        )
    chosen = None
    if name:
        if seating is None:
            raise UserError(
                "no_seat_to_take",
                gettext(
                    "%(player)s has no seat at a table now, so a substitute has nothing to "
                    "take. Withdraw them without one; add the other person as a late "
                    "arrival."
                )
                % {"player": entry.player.name},
                field="substitute",
            )
        chosen = _seat_substitute(session, sitting, seating, name)
        if game is not None:
            substitutes.game_substitute(game=game, player_id=player_id, substitute=chosen)
        else:
            services.refresh_unstarted_game(seating.table)
    elif seating is not None:
        seating.left_at = timezone.now()
        seating.save(update_fields=["left_at"])
        services.refresh_unstarted_game(seating.table)
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    where = f"in game {game.number}" if game is not None else "between games"
    _record_withdrawal(user, session, entry.player, chosen, where)
    pagecache.board_changed(session.pk)
    seats_changed_on_commit(
        session.pk,
        players=[player_id] + ([chosen.pk] if chosen is not None else []),
        tables=[seating.table_id] if seating is not None else [],
    )
    return chosen


def _record_withdrawal(
    user: Caller, session: Session, player: Player, substitute: Player | None, when: str
) -> None:
    by = f", {substitute.name} took the seat" if substitute is not None else ""
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="session.withdraw",
        summary=f"Withdrew {player.name} ({when}){by}",
        details={
            "player": {"id": player.pk, "name": player.name},
            "substitute": {"id": substitute.pk, "name": substitute.name} if substitute else None,
        },
    )


def _seat_substitute(session: Session, sitting: Sitting, seating: Seating, name: str) -> Player:
    """Put the substitute named `name` in `seating`'s seat (the leaver's row keeps its
    history under a free seat number) and on the roster, checked in."""
    chosen = services.players_get_or_create(club=session.club, names=[name])
    if not chosen:
        raise UserError(
            "substitute_required", gettext("Type the substitute's name."), field="substitute"
        )
    player = chosen[0]
    if player.pk == seating.player_id:
        raise UserError(
            "substitute_is_player",
            gettext("%(player)s cannot stand in for themself; name someone else.")
            % {"player": player.name},
            field="substitute",
        )
    other = Seating.objects.select_related("table").filter(sitting=sitting, player=player).first()
    if other is not None and other.left_at is None:
        raise UserError(
            "substitute_playing",
            gettext(
                "%(player)s is playing at table %(rank)s. Choose someone sitting out or "
                "not seated now, or type a new name."
            )
            % {"player": player.name, "rank": other.table.rank},
            field="substitute",
        )
    entry, created = SessionPlayer.objects.get_or_create(session=session, player=player)
    entry.checked_in = True
    entry.arrived_late = entry.arrived_late or created
    entry.withdrawn_at = None
    entry.save()
    SitOut.objects.filter(sitting=sitting, player=player).delete()
    seat = seating.seat
    seating.left_at = timezone.now()
    seating.seat = (seating.table.seatings.aggregate(m=Max("seat"))["m"] or 0) + 1
    seating.save(update_fields=["left_at", "seat"])
    if other is not None:
        other.table, other.seat, other.left_at = seating.table, seat, None
        other.save(update_fields=["table", "seat", "left_at"])
    else:
        Seating.objects.create(sitting=sitting, table=seating.table, player=player, seat=seat)
    return player
