"""The world in which the write services are called by the tests of who may call them
(test_every_write_checks.py, test_every_write_own_rules.py) and of what they record
(test_every_write_is_audited.py): a club with its director, a season and a running
session; the builders of each service's valid arguments in it; the callers who do not
direct the club; and how a service is handed its caller (`user` or `actor`)."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AnonymousUser

from exchange.clubfile import club_export
from scoring import services as scoring
from scoring.models import Game, RoundChange
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, UserFactory
from tests.scoring.helpers import split, top_game
from tournaments.models import (
    Club,
    PayoutTable,
    Player,
    Registration,
    Season,
    Seating,
    Session,
    Table,
)
from tournaments.permissions import SYSTEM
from workflow.club import seating_wishes
from workflow.front import calls, registrations
from workflow.session import movements, withdrawals
from workflow.session.simulation import finish_sitting_unplayed
from workflow.tables import links as table_links

CALLER_PARAMETERS = ("user", "actor")


Function = Callable[..., Any]


def caller_parameter(function: Function) -> str | None:
    names = inspect.signature(function).parameters
    return next((name for name in CALLER_PARAMETERS if name in names), None)


def label(function: Function) -> str:
    return f"{function.__module__}.{function.__name__}"


@dataclass
class World:
    """A club with its director, a season and, when asked, a running session of eight."""

    club: Club
    season: Season
    director: Any
    make_session: Callable[..., Session]

    @cached_property
    def running(self) -> Session:
        return self.make_session(8)

    def unstarted(self) -> Session:
        return self.make_session(8, start=False, seed=11)

    @cached_property
    def top(self) -> Game:
        return top_game(self.running)

    def finished_sitting(self) -> Session:
        finish_sitting_unplayed(self.running.sittings.get(), random.Random(3))
        return self.running

    def moved(self) -> Session:
        session = self.finished_sitting()
        movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
        return session

    def with_round(self) -> Game:
        scoring.round_submit(
            game_id=self.top.pk, number=1, data=split(self.top, 3, 2), actor=SYSTEM
        )
        return self.top

    def uneven(self) -> list[tuple[int, int, int]]:
        """Two of the bottom table's four withdraw: the rebalance the director is shown."""
        bottom = Seating.objects.filter(sitting__session=self.running, table__rank=2)
        for player_id in list(bottom.values_list("player_id", flat=True))[:2]:
            withdrawals.session_withdraw(
                session_id=self.running.pk, player_id=player_id, user=SYSTEM
            )
        proposal = movements.rebalance_proposal(session=self.running)
        return [(m.player, m.from_rank, m.to_rank) for m in proposal]

    def restorable_change(self) -> RoundChange:
        game = self.with_round()
        scoring.round_correct(game_id=game.pk, number=1, data=split(game, 2, 3), actor=SYSTEM)
        return RoundChange.objects.get(game=game, action=RoundChange.Action.EDIT)

    def finished_game(self) -> Game:
        self.finished_sitting()
        return self.top


Arguments = Callable[[World], dict[str, Any]]


def _with_fee(w: World) -> dict[str, Any]:
    session = w.unstarted()
    Session.objects.filter(pk=session.pk).update(entry_fee=5)
    return {"session_id": session.pk, "player_ids": None, "paid": True}


def _a_payout_table(w: World) -> PayoutTable:
    return PayoutTable.objects.create(club=w.club, name="Top three", places=["50", "30", "20"])


def _season_to_close(w: World) -> dict[str, Any]:
    return {"season_id": SeasonFactory.create(club=w.club, name="2030").pk}


def _two_records(w: World) -> dict[str, Any]:
    kept, merged = PlayerFactory.create_batch(2, club=w.club)
    return {"kept_id": kept.pk, "merged_id": merged.pk}


def _second_director(w: World) -> dict[str, Any]:
    second = UserFactory.create(username="co-director")
    w.club.directors.add(second)
    return {"club_id": w.club.pk, "user_id": second.pk}


def _live_link(w: World) -> dict[str, Any]:
    table_links.scorer_link_create(table_id=w.top.table_id, user=SYSTEM)
    return {"table_id": w.top.table_id}


def _ratings_of_a_finished_game(w: World) -> dict[str, Any]:
    game = w.finished_game()
    return {"club_id": w.club.pk, "rules_id": game.rules_id, "game_id": game.pk}


def _an_open_call(w: World) -> dict[str, Any]:
    call = calls.director_call_make(table_id=w.top.table_id, reason="dispute", text="", user=SYSTEM)
    return {"call_id": call.pk}


def _a_handled_call(w: World) -> dict[str, Any]:
    call_id = _an_open_call(w)["call_id"]
    calls.director_call_handle(call_id=call_id, user=SYSTEM)
    return {"call_id": call_id}


def _a_pair_kept_apart(w: World) -> dict[str, Any]:
    first, second = PlayerFactory.create_batch(2, club=w.club)
    pair = seating_wishes.keep_apart_add(
        club_id=w.club.pk, players=[first.pk, second.pk], user=SYSTEM
    )
    return {"club_id": w.club.pk, "pair_id": pair.pk}


def _a_claimed_player(w: World) -> dict[str, Any]:
    return {"player_id": PlayerFactory.create(club=w.club, user=UserFactory.create()).pk}


def _open_night(w: World, *, is_public: bool = True) -> Session:
    session = w.make_session(0, start=False, seed=13, is_public=is_public)
    return registrations.session_registration_settings(
        session_id=session.pk, registration_open=True, capacity=None, user=SYSTEM
    )


def _a_short_online_table(w: World) -> dict[str, Any]:
    """A running session of three whose table plays online: one seat short of four."""
    session = w.make_session(3, seed=17)
    Table.objects.filter(sitting__session=session).update(online=True)
    short = min(
        Table.objects.filter(sitting__session=session),
        key=lambda t: t.seatings.filter(left_at__isnull=True).count(),
    )
    return {"table_id": short.pk}


def _seated_with_an_email(w: World) -> dict[str, Any]:
    session = w.running
    Player.objects.filter(seatings__sitting__session=session).update(email="p@example.org")
    return {"session_id": session.pk, "site": "https://club.example"}


def _a_sign_up(w: World) -> Registration:
    return registrations.registration_create(
        session_id=_open_night(w).pk, name="Signed Up", user=AnonymousUser()
    )


def _a_club_file(w: World) -> dict[str, Any]:
    elsewhere = ClubFactory.create(name="From a file", slug="from-a-file")
    data = club_export(elsewhere)
    elsewhere.delete()
    return {"data": data}


# Services whose rule is the session's door code, not an account: a player checks
# themselves in at the door, signed in or not (docs/tournament.md, "Self check-in at the
# door"). Without the code everyone is refused before anything is written, the club's
# director too; with it, anyone gets through.
def _someone_at_the_door(w: World) -> dict[str, Any]:
    session = w.unstarted()
    entry = session.entries.select_related("player").first()
    entry.checked_in = False
    entry.save(update_fields=["checked_in"])
    return {"session_id": session.pk, "name": entry.player.name, "door_code": session.door_code}


def nobody(w: World) -> Any:
    return None


def anonymous(w: World) -> Any:
    return AnonymousUser()


def signed_in_without_a_role(w: World) -> Any:
    return UserFactory.create(username="no-role")


def director_of_another_club(w: World) -> Any:
    other = UserFactory.create(username="runs-another-club")
    ClubFactory.create().directors.add(other)
    return other


STRANGERS: list[Callable[[World], Any]] = [
    nobody,
    anonymous,
    signed_in_without_a_role,
    director_of_another_club,
]


def call(function: Function, arguments: dict[str, Any], caller: Any) -> Any:
    parameter = caller_parameter(function)
    assert parameter is not None
    return function(**arguments, **{parameter: caller})
