"""Every write service refuses a caller who may not make it, before it writes anything.

The services are found by walking their modules (`MODULES`): a public function defined
there that takes its caller (`user` or `actor`) is a write service and must have a line
in `CALLS`, which builds valid arguments for it in a real club; every other public
function must be named in `TAKES_NO_CALLER`, with the reason. So a new service fails
here the day it is written, until it says how it is called.

Each service is called as four callers who do not direct the club (nobody at all, an
anonymous visitor, a signed-in account with no role, a director of another club) and
must raise `PermissionDenied` without sending one INSERT, UPDATE or DELETE to the
database; the rows are compared as well. Then the club's director makes the same call,
which must write: so a refusal above cannot be a bad argument passing as "refused".
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from types import ModuleType
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.errors import UserError
from exchange import club_upload
from exchange import services as exchange
from exchange.clubfile import club_export
from play import director as play_director
from play import services as play
from printing import services as printing
from ratings import services as ratings
from scoring import corrections, locks, records, rounds, substitutes, tables
from scoring import services as scoring
from scoring.models import Game, RoundChange
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, UserFactory
from tests.scoring.helpers import split, top_game
from tests.snapshots import changed_tables, db_snapshot
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
from workflow.club import accounts, prizes, seating_wishes
from workflow.club import directors as club_directors
from workflow.club import services as club_services
from workflow.front import calls, door, registrations
from workflow.session import movements, online_settings, services, start_finish, timer, withdrawals
from workflow.session.simulation import finish_sitting_unplayed
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db

MODULES: list[ModuleType] = [
    services,
    start_finish,
    movements,
    withdrawals,
    club_services,
    club_directors,
    table_links,
    timer,
    exchange,
    printing,
    ratings,
    scoring,
    corrections,
    substitutes,
    rounds,
    tables,
    records,
    locks,
    accounts,
    club_upload,
    prizes,
    door,
    registrations,
    calls,
    seating_wishes,
    online_settings,
    play_director,
    play,
]
# The packages whose modules hold the write services: a module of theirs with a public
# function that takes a caller must be in MODULES (or named in READ_MODULES).
SERVICE_PACKAGES = ("workflow", "exchange", "printing", "ratings", "scoring", "play")
READ_MODULES: dict[str, str] = {
    "scoring.pages": "what a table's pages show the caller: reads",
    "workflow.session.simulation": "drives the services above as the caller it is given (SYSTEM)",
    "play.selectors": "what a seat, a table's phones and its watchers see: reads",
    "play.duplicate": "which duplicate deals' cards the caller may see: reads",
}
CALLER_PARAMETERS = ("user", "actor")

Function = Callable[..., Any]


def public_functions() -> list[Function]:
    return [
        function
        for module in MODULES
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if function.__module__ == module.__name__ and not name.startswith("_")
    ]


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


# Valid arguments (all but the caller) for each write service, in the world above.
CALLS: dict[Function, Arguments] = {
    online_settings.session_online_settings: lambda w: {
        "session_id": w.running.pk,
        "online_grace_seconds": "90",
        "move_clock_seconds": "30",
    },
    play_director.table_robot_seat: _a_short_online_table,
    play_director.seat_links_email: _seated_with_an_email,
    accounts.player_unlink: _a_claimed_player,
    services.session_create: lambda w: {
        "club": w.club,
        "season": w.season,
        "name": "Extra night",
        "date": w.season.starts_on,
        "rules_id": "huckley-buck",
        "games_per_sitting": 2,
        "new_names": ["Ann", "Bob", "Cy"],
    },
    services.session_update_settings: lambda w: {
        "session_id": w.running.pk,
        "games_per_sitting": 3,
        "is_public": False,
        "double_entry": True,
    },
    services.session_add_players: lambda w: {"session_id": w.running.pk, "new_names": ["Zed"]},
    services.session_check_in: lambda w: {
        "session_id": w.unstarted().pk,
        "player_ids": None,
        "checked_in": False,
    },
    start_finish.session_start: lambda w: {"session_id": w.unstarted().pk},
    prizes.session_prizes_set: lambda w: {"session_id": w.unstarted().pk, "entry_fee": "5"},
    prizes.session_mark_paid: _with_fee,
    prizes.payout_table_create: lambda w: {"club_id": w.club.pk, "name": "All", "places": ["100"]},
    prizes.payout_table_update: lambda w: {
        "table_id": _a_payout_table(w).pk,
        "name": "Top two",
        "places": ["60", "40"],
    },
    prizes.payout_table_delete: lambda w: {"table_id": _a_payout_table(w).pk},
    prizes.club_set_money: lambda w: {"club_id": w.club.pk, "currency": "£", "money_unit": "cent"},
    start_finish.session_finish: lambda w: {"session_id": w.running.pk, "early": True},
    start_finish.big_loser_award: lambda w: {
        "season_id": w.season.pk,
        "player_id": w.running.entries.first().player_id,
    },
    movements.sitting_move_players: lambda w: {
        "session_id": w.finished_sitting().pk,
        "sitting_number": 1,
    },
    movements.sitting_undo_movement: lambda w: {"session_id": w.moved().pk},
    withdrawals.session_withdraw: lambda w: {
        "session_id": w.running.pk,
        "player_id": w.top.game_players.first().player_id,
    },
    movements.session_rebalance: lambda w: {"expected": w.uneven(), "session_id": w.running.pk},
    timer.session_set_sitting_minutes: lambda w: {"session_id": w.running.pk, "minutes": 30},
    timer.sitting_timer_change: lambda w: {
        "session_id": w.running.pk,
        "action": "start",
        "minutes": 10,
    },
    club_services.season_open: lambda w: {
        "club_id": w.club.pk,
        "name": "2031",
        "starts_on": date(2031, 1, 1),
        "ends_on": date(2031, 12, 31),
    },
    club_services.season_close: _season_to_close,
    club_services.player_add: lambda w: {"club_id": w.club.pk, "name": "Newcomer"},
    club_services.player_rename: lambda w: {
        "player_id": PlayerFactory.create(club=w.club).pk,
        "name": "Renamed",
    },
    club_services.player_set_active: lambda w: {
        "player_id": PlayerFactory.create(club=w.club).pk,
        "active": False,
    },
    club_services.player_merge: _two_records,
    club_services.session_cancel: lambda w: {"session_id": w.unstarted().pk},
    club_services.session_delete: lambda w: {"session_id": w.unstarted().pk},
    club_directors.director_invite: lambda w: {
        "club_id": w.club.pk,
        "login": UserFactory.create(username="helper").username,
    },
    club_directors.director_remove: _second_director,
    club_services.club_set_time_zone: lambda w: {
        "club_id": w.club.pk,
        "time_zone": "America/Chicago",
    },
    table_links.scorer_link_create: lambda w: {"table_id": w.top.table_id},
    table_links.scorer_link_revoke: _live_link,
    table_links.scorer_link_replace: lambda w: {"table_id": w.top.table_id},
    table_links.table_card_replace: lambda w: {"session_id": w.running.pk, "number": 1},
    table_links.club_cards_issue: lambda w: {"club_id": w.club.pk, "count": 4},
    exchange.roster_import: lambda w: {"club_id": w.club.pk, "content": b"name\nNewcomer\n"},
    exchange.club_ladder_update: lambda w: {
        "club_id": w.club.pk,
        "scoring": "totals",
        "best_nights": None,
    },
    printing.club_paper_set: lambda w: {"club_id": w.club.pk, "paper": "letter"},
    ratings.ratings_recompute: lambda w: {
        "club_id": w.club.pk,
        "rules_id": w.finished_game().rules_id,
    },
    ratings.ratings_game_changed: _ratings_of_a_finished_game,
    ratings.ratings_rebuild: lambda w: {"club_id": w.finished_game().table.sitting.session.club_id},
    scoring.round_submit: lambda w: {
        "game_id": w.top.pk,
        "number": 1,
        "data": split(w.top, 3, 2),
    },
    scoring.round_correct: lambda w: {
        "game_id": w.with_round().pk,
        "number": 1,
        "data": split(w.top, 2, 3),
    },
    scoring.round_delete: lambda w: {"game_id": w.with_round().pk, "number": 1},
    corrections.round_change_restore: lambda w: {"change_id": w.restorable_change().pk},
    registrations.session_registration_settings: lambda w: {
        "session_id": w.unstarted().pk,
        "registration_open": True,
        "capacity": 20,
    },
    registrations.registration_remove: lambda w: {"registration_id": _a_sign_up(w).pk},
    door.door_code_change: lambda w: {"session_id": w.unstarted().pk, "code": "2468"},
    door.door_settings_update: lambda w: {
        "session_id": w.unstarted().pk,
        "self_check_in_open": False,
        "walk_ins_allowed": True,
    },
    calls.director_call_make: lambda w: {
        "table_id": w.top.table_id,
        "reason": "other",
        "text": "A card on the floor",
    },
    calls.director_call_handle: _an_open_call,
    calls.director_call_reopen: _a_handled_call,
    seating_wishes.keep_apart_add: lambda w: {
        "club_id": w.club.pk,
        "players": [p.pk for p in PlayerFactory.create_batch(2, club=w.club)],
    },
    seating_wishes.keep_apart_remove: _a_pair_kept_apart,
    seating_wishes.session_set_fixed_table: lambda w: {
        "session_id": w.running.pk,
        "player_id": w.running.entries.first().player_id,
        "table": 5,
    },
    play.seat_links_ensure: lambda w: {"session_id": w.running.pk},
    play.table_online_set: lambda w: {"table_id": w.top.table_id, "online": True},
}

# Writes that do not refuse yet, each with why: strict, so the mark must go the day they
# do. None today.
NOT_CHECKING_YET: dict[Function, str] = {}


def _a_club_file(w: World) -> dict[str, Any]:
    elsewhere = ClubFactory.create(name="From a file", slug="from-a-file")
    data = club_export(elsewhere)
    elsewhere.delete()
    return {"data": data}


# Services whose rule is not "a director of the club": opening a club, or bringing one in
# from a club file, is for any signed-in account (who becomes its director), a claim for
# the account that follows the link a director gave. Each refuses nobody and the
# anonymous before it writes; the rest of their rule is tested with its pages
# (tests/tournaments/test_accounts.py, tests/exchange/test_club_import_page.py).
OWN_RULE: dict[Function, Arguments] = {
    club_upload.club_file_preview: _a_club_file,
    club_upload.club_file_import: _a_club_file,
    accounts.club_create: lambda w: {"name": "New Club", "slug": "", "time_zone": "UTC"},
    accounts.player_claim: lambda w: {
        "token": accounts.player_invitation(
            player_id=PlayerFactory.create(club=w.club).pk, user=w.director
        ).token
    },
}

# Services open to the public, whose rule says who else is refused: signing up for a
# night is for anyone when the session is public, and for those who hold its invitation
# (or may see it) when it is private. Each gives the arguments strangers are refused
# with (a private night, no invitation) and those an anonymous visitor gets through with
# (the same night with its invitation); the rest of the rule is tested with the service
# (tests/tournaments/test_registrations.py).
PUBLIC_RULE: dict[Function, tuple[Arguments, Arguments]] = {
    registrations.registration_create: (
        lambda w: {"session_id": _open_night(w, is_public=False).pk, "name": "Someone"},
        lambda w: {
            "session_id": (night := _open_night(w, is_public=False)).pk,
            "name": "Someone",
            "invite": night.registration_invite,
        },
    ),
}


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


KNOWS_THE_DOOR_CODE: dict[Function, Arguments] = {door.self_check_in: _someone_at_the_door}

# Director-only actions that write nothing (a signed link): refused to strangers all the
# same.
DIRECTOR_READS: dict[Function, Arguments] = {
    accounts.player_invitation: lambda w: {"player_id": PlayerFactory.create(club=w.club).pk},
}

# Every other public function of the modules: reads, and steps of a write that run inside
# that write's transaction, after it has refused whoever may not make it.
STEP = "a step inside a checked write's transaction"
TAKES_NO_CALLER: dict[Function, str] = {
    online_settings.read_seconds: "a director's typed seconds read (session_create, "
    "session_online_settings)",
    start_finish.last_season_big_loser: "read",
    start_finish.start_refusal: "read",
    prizes.fees_refusal: "read",
    services.players_get_or_create: STEP + " (session_create, session_add_players, a substitute)",
    start_finish.sitting_create: STEP + " (session_start, sitting_move_players)",
    services.refresh_unstarted_game: STEP + " (an arrival, a withdrawal, a rebalance)",
    movements.movement_preview: "read",
    movements.movement_undo_refusal: "read",
    movements.movement_refusal: "read",
    movements.playable_tables: "read: the next sitting's tables, evened where one cannot play",
    movements.movement_can_undo: "read",
    movements.rebalance_proposal: "read",
    withdrawals.withdrawal_game: "read",
    withdrawals.substitute_candidates: "read",
    withdrawals.game_under_way: "read: the game a seated player is in the middle of",
    club_services.merge_refusal: "read",
    club_services.merge_plan: "read",
    table_links.table_cards_ensure: STEP + " (session_start, session_rebalance)",
    table_links.card_link: "opening a table card: holding the card is the permission",
    timer.sitting_timer: "read",
    exchange.roster_preview: "read",
    printing.paper_refusal: "read",
    ratings.order_key: "read",
    ratings.game_order_key: "read",
    records.game_record: "read",
    records.game_check: "read",
    records.without_cards: "a round's fields without its cards: a pure function",
    rounds.plan_next_game: "read",
    rounds.entry_refusal: "read",
    rounds.clean_round: "read",
    rounds.recheck: "read: the engine's verdict on the game's rounds",
    rounds.lock_for_change: "a lock, taken by the result writes before they refuse",
    rounds.author_of: "who makes a change at a table: refuses whoever may not score it",
    rounds.store_outcome: STEP + " (a round entered, corrected, deleted or restored)",
    rounds.sync_next_game: STEP + " (a round entered, corrected, deleted or restored)",
    rounds.audit_director_change: STEP + " (a round corrected, deleted or restored)",
    tables.table_start_game: STEP + " (a new sitting, a rebalance, the next game)",
    tables.tables_start_first_games: STEP + " (sitting_create)",
    tables.game_refresh_players: STEP + " (refresh_unstarted_game)",
    tables.table_current_game: "read",
    locks.lock_session: "a lock, taken by the checked writes before they refuse",
    locks.share_session: "a lock, taken by the result writes before they refuse",
    locks.lock_sitting: "a lock, taken by the timer before it refuses",
    locks.lock_table: "a lock, taken by the result writes before they refuse",
    locks.lock_game: "a lock, taken by the result writes before they refuse",
    locks.lock_current_game: "a lock, taken by an online move before it refuses",
    corrections.correction_preview: "read",
    corrections.restorable: "read",
    substitutes.game_substitute: STEP + " (session_withdraw)",
    accounts.account_create: "opening an account: for anyone, limited per address by its page",
    accounts.club_slug: "read",
    accounts.invitation_read: "read",
    accounts.claim_refusal: "read",
    club_upload.club_file_size_check: "read",
    club_upload.club_file_read: "read",
    registrations.may_sign_up: "read: who may sign up for a night",
    registrations.signup_refusal: "read",
    registrations.places_taken: "read",
    registrations.position: "read",
    registrations.session_registrations: "read: the pages and the API let only directors ask",
    registrations.registration_by_token: "read: holding the personal link is the permission",
    registrations.registration_cancel: "cancelling a sign-up: holding its personal link is the "
    "permission (a wrong link is a 404)",
    door.door_open: "read",
    door.door_refusal: "read",
    door.throttled: "read: the count of wrong door codes",
    door.sessions_at_the_door: "read",
    calls.session_calls: "read: the director's list (its views ask for a director first)",
    calls.call_row: "read",
    calls.open_calls: "read: the director's list (its views ask for a director first)",
    seating_wishes.keep_apart_pairs: "read",
    seating_wishes.player_choices: "read",
    seating_wishes.start_seating: STEP + " (session_start)",
    seating_wishes.fixed_tables: "read",
    seating_wishes.roster_tables: "read",
    seating_wishes.table_numbering: STEP + " (sitting_create) and read (the movement preview)",
    play.move_make: "a player's move at an online table: the seat token is the credential "
    "(an unknown one is a 404); the service finds the token's seat and refuses any move "
    "not of that seat's turn (tests/play/test_moves.py)",
    play.deal_if_needed: "the machine dealing an online table's next round under its locks "
    "(the reads after a movement call it): no person's decision",
    play.tick: "the machine making the robots' moves that are due (a robot player, an "
    "absent player after the grace time, a clock run out): no person's decision",
    play.seat_read: "read: a seat's view for its token's holder, after the machine's tick "
    "(the reads of the API, the seat page and the WebSocket)",
}


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

WRITES = [
    pytest.param(
        function,
        id=label(function),
        marks=[pytest.mark.xfail(strict=True, reason=NOT_CHECKING_YET[function])]
        if function in NOT_CHECKING_YET
        else [],
    )
    for function in CALLS
]


@pytest.fixture
def world(club: Club, season: Season, director: Any, make_session: Callable[..., Session]) -> World:
    return World(club=club, season=season, director=director, make_session=make_session)


def call(function: Function, arguments: dict[str, Any], caller: Any) -> Any:
    parameter = caller_parameter(function)
    assert parameter is not None
    return function(**arguments, **{parameter: caller})


def test_every_module_with_a_service_that_takes_a_caller_is_walked() -> None:
    walked = {module.__name__ for module in MODULES}
    unwalked = set()
    for package_name in SERVICE_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            if ".migrations" in info.name or info.name in walked or info.name in READ_MODULES:
                continue
            module = importlib.import_module(info.name)
            takes_a_caller = [
                name
                for name, function in inspect.getmembers(module, inspect.isfunction)
                if function.__module__ == module.__name__
                and not name.startswith("_")
                and caller_parameter(function) is not None
            ]
            if takes_a_caller:
                unwalked.add(info.name)
    assert unwalked == set()


def test_every_write_service_of_the_modules_has_its_call_in_the_table() -> None:
    found = {label(f) for f in public_functions() if caller_parameter(f) is not None}
    assert found == {
        label(f) for f in [*CALLS, *OWN_RULE, *DIRECTOR_READS, *PUBLIC_RULE, *KNOWS_THE_DOOR_CODE]
    }


def test_every_other_public_function_is_named_with_why_it_takes_no_caller() -> None:
    found = {label(f) for f in public_functions() if caller_parameter(f) is None}
    assert found == {label(f) for f in TAKES_NO_CALLER}


def test_every_write_service_must_be_told_who_calls_it() -> None:
    """No default: leaving the caller out cannot quietly mean "anyone" or "the system"."""
    for function in [*CALLS, *OWN_RULE, *DIRECTOR_READS, *PUBLIC_RULE, *KNOWS_THE_DOOR_CODE]:
        parameter = inspect.signature(function).parameters[caller_parameter(function) or ""]
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, label(function)
        assert parameter.default is inspect.Parameter.empty, label(function)


@pytest.mark.parametrize("function", WRITES)
def test_a_caller_who_does_not_direct_the_club_is_refused_before_anything_is_written(
    world: World, function: Function
) -> None:
    arguments = CALLS[function](world)
    for stranger in STRANGERS:
        caller = stranger(world)
        before = db_snapshot()
        with CaptureQueriesContext(connection) as queries, pytest.raises(PermissionDenied):
            call(function, arguments, caller)
        writes = [
            q["sql"]
            for q in queries.captured_queries
            if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        ]
        assert writes == [], stranger.__name__
        assert changed_tables(before) == [], stranger.__name__


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in CALLS])
def test_the_clubs_director_makes_the_same_call_and_it_writes(
    world: World, function: Function
) -> None:
    arguments = CALLS[function](world)
    before = db_snapshot()
    call(function, arguments, world.director)
    assert changed_tables(before) != []


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in DIRECTOR_READS])
def test_a_director_only_action_that_writes_nothing_refuses_strangers(
    world: World, function: Function
) -> None:
    arguments = DIRECTOR_READS[function](world)
    for stranger in STRANGERS:
        with pytest.raises(PermissionDenied):
            call(function, arguments, stranger(world))
    call(function, arguments, world.director)


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in OWN_RULE])
def test_a_service_open_to_any_account_refuses_nobody_and_the_anonymous_before_writing(
    world: World, function: Function
) -> None:
    arguments = OWN_RULE[function](world)
    for stranger in (nobody, anonymous):
        before = db_snapshot()
        with pytest.raises((PermissionDenied, UserError)):
            call(function, arguments, stranger(world))
        assert changed_tables(before) == [], stranger.__name__
    call(function, arguments, signed_in_without_a_role(world))  # the arguments are valid


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in PUBLIC_RULE])
def test_a_public_service_refuses_strangers_its_rule_excludes_before_writing(
    world: World, function: Function
) -> None:
    refused, allowed = PUBLIC_RULE[function]
    arguments = refused(world)
    for stranger in STRANGERS:
        caller = stranger(world)
        before = db_snapshot()
        with CaptureQueriesContext(connection) as queries, pytest.raises(PermissionDenied):
            call(function, arguments, caller)
        writes = [
            q["sql"]
            for q in queries.captured_queries
            if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        ]
        assert writes == [], stranger.__name__
        assert changed_tables(before) == [], stranger.__name__
    arguments = allowed(world)
    before = db_snapshot()
    call(function, arguments, anonymous(world))
    assert changed_tables(before) != []


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in KNOWS_THE_DOOR_CODE])
def test_a_service_whose_rule_is_the_door_code_refuses_everyone_without_it(
    world: World, function: Function
) -> None:
    arguments = KNOWS_THE_DOOR_CODE[function](world)
    wrong = {**arguments, "door_code": "x" + arguments["door_code"]}
    callers = [caller(world) for caller in STRANGERS] + [world.director]
    for n, caller in enumerate(callers):
        before = db_snapshot()
        with CaptureQueriesContext(connection) as queries, pytest.raises(UserError):
            function(**wrong, client=f"wrong-{n}", user=caller)
        writes = [
            q["sql"]
            for q in queries.captured_queries
            if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        ]
        assert writes == [], n
        assert changed_tables(before) == [], n
    before = db_snapshot()
    function(**arguments, client="right", user=anonymous(world))
    assert changed_tables(before) != []
