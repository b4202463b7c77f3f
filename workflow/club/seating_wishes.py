"""Seating wishes (docs/tournament.md, "Seating wishes"): the pairs of players a club keeps
from starting at the same table and how the start of a session honours them, and the
players who stay at one physical table all night.

The writes (`keep_apart_add`, `keep_apart_remove`) are for the club's directors: each locks
the club's row (the club's own lock order: the club, then its players) and refuses anyone
else before it reads further. `session_set_fixed_table` marks a roster player who does not
move (docs/format.md, "Tables that do not move"); it locks the session first, as every
write to a session does, and `table_numbering` gives each new sitting's tables their
physical numbers. The seating itself is the format's
(`tournaments.format.keep_apart`); `start_seating` loads the pairs and names for it, for
`workflow.session.start_finish.session_start`, inside that service's transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_noop

from common.errors import ConflictError, NotFoundError, UserError
from scoring.locks import lock_session
from tournaments import audit
from tournaments import format as fmt
from tournaments.models import Club, KeepApart, Player, Session, SessionPlayer
from tournaments.permissions import Caller, as_actor, require_director


def keep_apart_pairs(club: Club | int) -> QuerySet[KeepApart]:
    """The club's pairs, by the first player's name, with both players in the query."""
    return (
        KeepApart.objects.filter(club=club)
        .select_related("first", "second")
        .order_by("first__name", "second__name", "pk")
    )


def player_choices(club: Club | int) -> list[tuple[int, str]]:
    """The club's players to choose a pair from, by name: (id, name)."""
    return list(Player.objects.filter(club=club).order_by("name", "pk").values_list("pk", "name"))


def _refuse(code: str, message: str) -> UserError:
    return UserError(code, message, field="players")


@transaction.atomic
def keep_apart_add(*, club_id: int, players: Sequence[Any], user: Caller) -> KeepApart:
    """Keep two players of the club apart at the start of its sessions. Refused, in plain
    words: anything but two player ids, a player paired with themself, a player of
    another club (or none), a pair the club keeps apart already."""
    club = Club.objects.select_for_update().get(pk=club_id)
    require_director(user, club, to=gettext_noop("keep players apart"))
    if not isinstance(players, list | tuple) or len(players) != 2:
        raise _refuse("keep_apart_two_players", "Choose two players to keep apart.")
    ids: list[int] = []
    for given in players:
        if isinstance(given, bool) or not isinstance(given, int | str):
            raise _refuse("keep_apart_two_players", "Choose two players to keep apart.")
        try:
            ids.append(int(given))
        except ValueError:
            raise _refuse("keep_apart_two_players", "Choose two players to keep apart.") from None
    if ids[0] == ids[1]:
        raise _refuse(
            "keep_apart_same_player",
            "A player cannot be kept apart from themself: choose two different players.",
        )
    found = {p.pk: p for p in Player.objects.filter(club=club, pk__in=ids)}
    for pid in ids:
        if pid not in found:
            raise _refuse("not_club_player", f"Player {pid} is not one of {club.name}'s players.")
    first, second = sorted((found[ids[0]], found[ids[1]]), key=lambda p: p.pk)
    if KeepApart.objects.filter(first=first, second=second).exists():
        raise _refuse(
            "keep_apart_exists", f"{first.name} and {second.name} are already kept apart."
        )
    try:
        with transaction.atomic():
            pair = KeepApart.objects.create(
                club=club, first=first, second=second, created_by=as_actor(user).account
            )
    except IntegrityError:  # the same pair added at the same moment by another director
        raise _refuse(
            "keep_apart_exists", f"{first.name} and {second.name} are already kept apart."
        ) from None
    audit.record(
        user,
        club=club.pk,
        action="keep_apart.add",
        summary=f"Keeps {first.name} and {second.name} apart",
        details={"pair_id": pair.pk, "players": [first.pk, second.pk]},
    )
    return pair


@transaction.atomic
def keep_apart_remove(*, club_id: int, pair_id: int, user: Caller) -> None:
    """Stop keeping a pair apart. A pair that is not the club's is a 404 (`no_such_pair`)."""
    club = Club.objects.select_for_update().get(pk=club_id)
    require_director(user, club, to=gettext_noop("keep players apart"))
    pair = KeepApart.objects.filter(club=club, pk=pair_id).select_related("first", "second").first()
    if pair is None:
        raise NotFoundError(
            "no_such_pair", gettext("This club keeps no such pair apart; reload the list.")
        )
    audit.record(
        user,
        club=club.pk,
        action="keep_apart.remove",
        summary=f"No longer keeps {pair.first.name} and {pair.second.name} apart",
        details={"pair_id": pair.pk, "players": [pair.first_id, pair.second_id]},
    )
    pair.delete()


def start_seating(
    *,
    session: Session,
    tables: Sequence[Sequence[int]],
    big_loser_id: int | None,
    strength: Mapping[int, float] | None,
) -> fmt.Apart[int]:
    """The first sitting's tables with the club's pairs kept apart when possible (a step of
    `session_start`, inside its transaction). `strength` is the seeding's, None for a
    random split."""
    pairs = [
        (a, b)
        for a, b in KeepApart.objects.filter(club=session.club_id).values_list(
            "first_id", "second_id"
        )
    ]
    if not pairs:
        return fmt.Apart([list(t) for t in tables])
    seated = {p for t in tables for p in t}
    names = dict(
        Player.objects.filter(pk__in={p for pair in pairs for p in pair} & seated).values_list(
            "pk", "name"
        )
    )
    return fmt.keep_apart(
        tables,
        pairs,
        rng=fmt.make_rng(session.seed, "keep-apart"),
        pinned=[big_loser_id] if big_loser_id is not None else [],
        strength=strength,
        names=names,
    )


def fixed_tables(session: Session) -> dict[int, int]:
    """The roster's players who do not move: player id -> their physical table."""
    rows = SessionPlayer.objects.filter(
        session=session, fixed_table__isnull=False, withdrawn_at__isnull=True
    ).values_list("player_id", "fixed_table")
    return {pid: number for pid, number in rows if number is not None}


def table_numbering(*, session: Session, tables: Sequence[Sequence[int]]) -> fmt.Numbering[int]:
    """The physical table of each rank of a new sitting (`tables` in rank order), so that
    each player who does not move finds the rank they play at at their own table (a step
    of `sitting_create`, and what the movement preview says will happen)."""
    fixed = fixed_tables(session)
    if not fixed:
        return fmt.Numbering(list(range(1, len(tables) + 1)))
    names = dict(Player.objects.filter(pk__in=fixed).values_list("pk", "name"))
    return fmt.table_numbers(tables, fixed, names=names)


FIXED_TABLE_MAX = 99


def roster_tables(session: Session) -> list[tuple[int, str, int | None]]:
    """The roster still playing, by name: (player id, name, the table they stay at or None)."""
    return list(
        SessionPlayer.objects.filter(session=session, withdrawn_at__isnull=True)
        .order_by("player__name", "player_id")
        .values_list("player_id", "player__name", "fixed_table")
    )


@transaction.atomic
def session_set_fixed_table(
    *, session_id: int, player_id: int, table: Any, user: Caller
) -> SessionPlayer:
    """Mark a roster player as staying at one physical table all night (`table`, from 1),
    or as moving like everyone (`table` None or ""). From the start, or from the next
    sitting on once the session runs: the tables of the sitting under way keep their
    numbers. Refused: a player not on the roster, a table that is not a whole number from
    1 to 99, a session that is over."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("seat its players"))
    if session.status in (Session.Status.FINISHED, Session.Status.CANCELLED):
        raise ConflictError(
            "session_over", gettext("This session is over: its tables no longer change.")
        )
    entry = (
        SessionPlayer.objects.filter(session=session, player_id=player_id)
        .select_related("player")
        .first()
    )
    if entry is None:
        raise UserError(
            "not_on_roster",
            gettext("That player is not on this session's roster."),
            field="player_id",
        )
    number: int | None
    if table is None or (isinstance(table, str) and not table.strip()):
        number = None
    else:
        try:
            number = int(str(table).strip())
        except ValueError:
            number = 0
        if isinstance(table, bool) or not 1 <= number <= FIXED_TABLE_MAX:
            raise UserError(
                "fixed_table_invalid",
                gettext(
                    "A table number is a whole number from 1 to %(FIXED_TABLE_MAX)s; leave "
                    "it empty for a player who moves like everyone."
                )
                % {"FIXED_TABLE_MAX": FIXED_TABLE_MAX},
                field="fixed_table",
            )
    before = entry.fixed_table
    entry.fixed_table = number
    entry.save(update_fields=["fixed_table"])
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="session.fixed_table",
        summary=f"{entry.player.name} "
        + (f"stays at table {number}" if number is not None else "moves like everyone"),
        details={"player_id": player_id, "fixed_table": {"before": before, "after": number}},
    )
    return entry
