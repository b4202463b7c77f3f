"""The write services and how each is called (test_every_write_checks.py).

The services are found by walking their modules (`MODULES`): a public function defined
there that takes its caller (`user` or `actor`) is a write service and must have a line
in `CALLS`, which builds valid arguments for it in a real club (write_world.py), or in one
of the tables of the services with a rule of their own; every other public function must
be named in `TAKES_NO_CALLER`, with the reason. So a new service fails
test_every_write_checks.py the day it is written, until it says how it is called.
"""

from __future__ import annotations

import inspect
from datetime import date
from types import ModuleType

import pytest

from exchange import club_upload
from exchange import services as exchange
from play import director as play_director
from play import seat_calls, seat_keep
from play import services as play
from printing import services as printing
from ratings import services as ratings
from scoring import corrections, locks, records, rounds, substitutes, tables
from scoring import services as scoring
from tests.factories import PlayerFactory, UserFactory
from tests.scoring.helpers import split
from tests.tournaments.write_world import (
    Arguments,
    Function,
    _a_claimed_player,
    _a_club_file,
    _a_handled_call,
    _a_pair_kept_apart,
    _a_payout_table,
    _a_short_online_table,
    _a_sign_up,
    _an_open_call,
    _live_link,
    _open_night,
    _ratings_of_a_finished_game,
    _season_to_close,
    _seated_with_an_email,
    _second_director,
    _someone_at_the_door,
    _two_records,
    _with_fee,
    label,
)
from workflow.club import accounts, prizes, seating_wishes
from workflow.club import directors as club_directors
from workflow.club import language as club_language
from workflow.club import services as club_services
from workflow.front import calls, door, registrations
from workflow.session import (
    movements,
    online_settings,
    robots,
    services,
    start_finish,
    timer,
    withdrawals,
)
from workflow.tables import links as table_links

MODULES: list[ModuleType] = [
    services,
    start_finish,
    movements,
    withdrawals,
    club_services,
    club_directors,
    club_language,
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
    robots,
    play_director,
    play,
    seat_keep,
    seat_calls,
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


def public_functions() -> list[Function]:
    return [
        function
        for module in MODULES
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if function.__module__ == module.__name__ and not name.startswith("_")
    ]


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
    club_language.club_language_set: lambda w: {"club_id": w.club.pk, "language": "es"},
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


# Services whose rule is not "a director of the club": opening a club, or bringing one in
# from a club file, is for any signed-in account (who becomes its director), a claim for
# the account that follows the link a director gave. Each refuses nobody and the
# anonymous before it writes; the rest of their rule is tested with its pages
# (tests/web/test_accounts.py, tests/web/test_club_import_page.py).
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
# (tests/workflow/front/test_registrations.py).
_SIGN_UP: tuple[Arguments, Arguments] = (
    lambda w: {"session_id": _open_night(w, is_public=False).pk, "name": "Someone"},
    lambda w: {
        "session_id": (night := _open_night(w, is_public=False)).pk,
        "name": "Someone",
        "invite": night.registration_invite,
    },
)
PUBLIC_RULE: dict[Function, tuple[Arguments, Arguments]] = {
    registrations.registration_create: _SIGN_UP,
    # The sign-up through the web page, which also keeps the seat link on that phone.
    seat_keep.registration_sign_up: _SIGN_UP,
}


KNOWS_THE_DOOR_CODE: dict[Function, Arguments] = {
    door.self_check_in: _someone_at_the_door,
    # The check-in at the door through the web page, which also keeps the seat link.
    seat_keep.door_check_in: _someone_at_the_door,
}


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
    online_settings.check_online: "read: whether a game can be played online",
    online_settings.check_fill: "read: whether robots can fill a session's seats",
    online_settings.apply_online_settings: STEP + " (session_update_settings)",
    robots.fills_with_robots: "read",
    start_finish.placing_row: "builds a row and writes nothing (movement, finish)",
    robots.robot_players: STEP + " (session_start, sitting_move_players, table_robot_seat)",
    robots.seat_robots: STEP + " (session_start, sitting_move_players)",
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
    rounds.held_open: "lock_for_change's refusal for locks the caller holds (read)",
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
    play.advance: "the scheduler moving an online table on under its locks (the deal, the "
    "robots' moves that are due: a robot player, an absent player after the grace time, a "
    "clock run out): no person's decision",
    play.move_take: "a player's move (the body read, then move_make): the seat token is the "
    "credential",
    play.move_body: "read: a move's body checked",
    seat_keep.registration_link: "read: the seat link a sign-up's own page gives its holder",
    seat_keep.plays_online: "read: whether a night plays online at any table",
    play.seat_read: "read: a seat's view for its token's holder (the reads of the API, the "
    "seat page and the WebSocket); it marks the player present and writes nothing else",
    play.seat_place: "read: where a seat token's holder sits now, for a WebSocket's connect; "
    "it marks the player present and writes nothing else",
    seat_calls.seat_call_make: "a player calls the director to the table they sit at now: "
    "the seat token is the credential (an unknown one is a 404) and names the table; the "
    "call's own rules are director_call_make's (tests/play/test_seat_calls.py)",
}


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
