"""Seating wishes: the pairs of players a club keeps from starting at the same table
(docs/tournament.md, "Seating wishes"), and how the start of a session honours them.

The writes (`keep_apart_add`, `keep_apart_remove`) are for the club's directors: each locks
the club's row (the club's own lock order: the club, then its players) and refuses anyone
else before it reads further. The seating itself is the format's
(`tournaments.format.keep_apart`); `start_seating` loads the pairs and names for it, for
`workflow.services.session_start`, inside that service's transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from common.errors import NotFoundError, UserError
from tournaments import format as fmt
from tournaments.models import Club, KeepApart, Player, Session
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
    require_director(user, club, to="keep players apart")
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
            return KeepApart.objects.create(
                club=club, first=first, second=second, created_by=as_actor(user).account
            )
    except IntegrityError:  # the same pair added at the same moment by another director
        raise _refuse(
            "keep_apart_exists", f"{first.name} and {second.name} are already kept apart."
        ) from None


@transaction.atomic
def keep_apart_remove(*, club_id: int, pair_id: int, user: Caller) -> None:
    """Stop keeping a pair apart. A pair that is not the club's is a 404 (`no_such_pair`)."""
    club = Club.objects.select_for_update().get(pk=club_id)
    require_director(user, club, to="keep players apart")
    deleted, _ = KeepApart.objects.filter(club=club, pk=pair_id).delete()
    if not deleted:
        raise NotFoundError("no_such_pair", "This club keeps no such pair apart; reload the list.")


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
