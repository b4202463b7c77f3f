"""Every director write keeps its entry in the club's audit log, in its own transaction.

The write services are the ones `test_every_write_checks.py` finds and calls (the
`CALLS` and `OWN_RULE` tables of write_services.py, with the same arguments). Each one is either

- in `AUDITED`, with the actions (`tournaments.models.AuditEntry.action`) it records
  when the club's director makes it: exactly those entries, for the right club and
  session, naming the director, with a summary in words; and none when a stranger is
  refused; or
- in `NOT_DIRECTOR_WRITES`, with the reason it is not a director's write (a result
  entered at the table, a player's own claim, the machine's derived ratings), and it
  records nothing.

A new write service fails here until it is one or the other. To add one to the log:
call `tournaments.audit.record(user, club=..., session=..., action=..., summary=...,
details=...)` inside its transaction, after its change, and add its line to `AUDITED`.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction

from exchange import club_upload
from exchange import services as exchange
from play import director as play_director
from play import services as play
from printing import services as printing
from ratings import services as ratings
from scoring import corrections
from scoring import services as scoring
from scoring.models import Game, RoundChange
from tests.factories import UserFactory
from tests.scoring.helpers import split
from tests.tournaments.write_services import CALLS, OWN_RULE
from tests.tournaments.write_world import Function, World, call, label, signed_in_without_a_role
from tournaments import audit
from tournaments.models import (
    AuditEntry,
    DirectorCall,
    Registration,
    Table,
)
from tournaments.permissions import SYSTEM, Actor
from workflow.club import accounts, prizes, seating_wishes
from workflow.club import directors as club_directors
from workflow.club import language as club_language
from workflow.club import services as club_services
from workflow.front import calls, door, registrations
from workflow.session import movements, online_settings, services, start_finish, timer, withdrawals
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db


HOW = (
    "call tournaments.audit.record(user, club=..., session=..., action=..., summary=...) "
    "inside its transaction, after its change"
)

# What each director write records when the club's director makes it (the actions, in
# the order written). The slugs are stable: the filters, the API and the club file name
# them (docs/tournament.md, "What the directors did").
AUDITED: dict[Function, tuple[str, ...]] = {
    services.session_create: ("session.create",),
    services.session_update_settings: ("session.settings",),
    online_settings.session_online_settings: ("session.settings",),
    play_director.table_robot_seat: ("table.robot",),
    play_director.seat_links_email: ("play.seat_links", "play.seat_links_email"),
    services.session_add_players: ("session.late_arrival",),
    services.session_check_in: ("session.check_out",),
    start_finish.session_start: ("session.start",),
    start_finish.session_finish: ("session.finish",),
    start_finish.big_loser_award: ("big_loser.award",),
    movements.sitting_move_players: ("movement.confirm",),
    movements.sitting_undo_movement: ("movement.undo",),
    withdrawals.session_withdraw: ("session.withdraw",),
    movements.session_rebalance: ("session.rebalance",),
    timer.session_set_sitting_minutes: ("session.settings",),
    timer.sitting_timer_change: ("timer.start",),
    club_services.season_open: ("season.open",),
    club_services.season_close: ("season.close",),
    club_services.player_add: ("player.add",),
    club_services.player_rename: ("player.rename",),
    club_services.player_set_active: ("player.active",),
    club_services.player_merge: ("player.merge",),
    club_services.session_cancel: ("session.cancel",),
    club_services.session_delete: ("session.delete",),
    club_directors.director_invite: ("director.invite",),
    club_directors.director_remove: ("director.remove",),
    club_services.club_set_time_zone: ("club.settings",),
    club_language.club_language_set: ("club.settings",),
    table_links.scorer_link_create: ("scorer_link.create",),
    table_links.scorer_link_revoke: ("scorer_link.revoke",),
    table_links.scorer_link_replace: ("scorer_link.revoke", "scorer_link.create"),
    table_links.table_card_replace: ("table_card.replace",),
    table_links.club_cards_issue: ("club_cards.issue",),
    registrations.session_registration_settings: ("registration.settings",),
    registrations.registration_remove: ("registration.cancel",),
    door.door_code_change: ("door.code",),
    door.door_settings_update: ("door.settings",),
    calls.director_call_handle: ("call.handled",),
    calls.director_call_reopen: ("call.reopen",),
    prizes.session_prizes_set: ("prizes.settings",),
    prizes.session_mark_paid: ("prizes.paid",),
    prizes.payout_table_create: ("payout_table.create",),
    prizes.payout_table_update: ("payout_table.update",),
    prizes.payout_table_delete: ("payout_table.delete",),
    prizes.club_set_money: ("club.settings",),
    seating_wishes.keep_apart_add: ("keep_apart.add",),
    seating_wishes.keep_apart_remove: ("keep_apart.remove",),
    seating_wishes.session_set_fixed_table: ("session.fixed_table",),
    exchange.roster_import: ("roster.import",),
    exchange.club_ladder_update: ("club.settings",),
    printing.club_paper_set: ("club.settings",),
    accounts.player_unlink: ("player.unlink",),
    play.seat_links_ensure: ("play.seat_links",),
    play.table_online_set: ("play.table_online",),
    # A director's correction, deletion or restore (a scorer's is not audited: below).
    scoring.round_correct: ("round.correct",),
    scoring.round_delete: ("round.delete",),
    corrections.round_change_restore: ("round.restore",),
    # Open to any signed-in account, who becomes the new club's director.
    accounts.club_create: ("club.create",),
    club_upload.club_file_import: ("club.import",),
}

# Writes that are not a director's, each with why; they record nothing.
NOT_DIRECTOR_WRITES: dict[Function, str] = {
    scoring.round_submit: (
        "a result entered at the table, by its scorer or a director standing in: the "
        "round's own history (RoundChange) keeps who entered it; only changing a stored "
        "round is a director's write"
    ),
    ratings.ratings_recompute: (
        "the machine's derived ratings, rebuilt from the results after every game: "
        "nothing a director decided changes"
    ),
    ratings.ratings_game_changed: "as ratings_recompute: the machine, after a result",
    ratings.ratings_rebuild: "as ratings_recompute: the operator's command",
    accounts.player_claim: "a player's own act: linking their account to the record",
    club_upload.club_file_preview: "writes nothing: the import run and rolled back",
    calls.director_call_make: (
        "a call made at the table, by its scorer (a director standing in may make it too): "
        "the call itself keeps who made it and when"
    ),
}


def expected_session(function: Function, arguments: dict[str, Any], result: Any) -> int | None:
    """The session a write's entries belong to: the one it was for, or none (a club's
    write, or a session deleted with the write)."""
    if function is club_services.session_delete:
        return None
    if function is services.session_create:
        return int(result.pk)
    if "session_id" in arguments:
        return int(arguments["session_id"])
    if function is seating_wishes.keep_apart_remove:
        return None
    if function.__module__ == "workflow.club.prizes" and "table_id" in arguments:
        return None  # a payout table's id: a club's write
    if "table_id" in arguments:
        return Table.objects.get(pk=arguments["table_id"]).sitting.session_id
    if "game_id" in arguments:
        return Game.objects.get(pk=arguments["game_id"]).table.sitting.session_id
    if "change_id" in arguments:
        return RoundChange.objects.get(pk=arguments["change_id"]).game.table.sitting.session_id
    if "registration_id" in arguments:
        return Registration.objects.get(pk=arguments["registration_id"]).session_id
    if "call_id" in arguments:
        return DirectorCall.objects.get(pk=arguments["call_id"]).session_id
    return None


def new_entries(since: int) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(pk__gt=since).order_by("pk"))


def last_entry() -> int:
    return AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def test_every_write_service_is_audited_or_named_as_not_a_directors_write() -> None:
    for function in [*CALLS, *OWN_RULE]:
        audited, excused = function in AUDITED, function in NOT_DIRECTOR_WRITES
        assert audited != excused, (
            f"{label(function)} is a write service with no line here. If a director makes "
            f"it, {HOW}, and add its actions to AUDITED in {__name__}; if not, name it in "
            "NOT_DIRECTOR_WRITES with the reason."
            if not audited
            else f"{label(function)} is in both AUDITED and NOT_DIRECTOR_WRITES."
        )
    assert set(AUDITED) | set(NOT_DIRECTOR_WRITES) <= {*CALLS, *OWN_RULE}


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in CALLS if f in AUDITED])
def test_the_directors_write_records_its_entries_and_a_refused_one_none(
    world: World, function: Function
) -> None:
    arguments = CALLS[function](world)
    since = last_entry()
    with pytest.raises(PermissionDenied):
        call(function, arguments, signed_in_without_a_role(world))
    assert new_entries(since) == [], f"{label(function)} recorded a refused write"

    result = call(function, arguments, world.director)
    entries = new_entries(since)
    assert [e.action for e in entries] == list(AUDITED[function]), (
        f"{label(function)} recorded {[e.action for e in entries]}, not "
        f"{list(AUDITED[function])}: {HOW}."
    )
    session_id = expected_session(function, arguments, result)
    for entry in entries:
        assert entry.club_id == world.club.pk, label(function)
        assert entry.session_id == session_id, label(function)
        assert entry.who == world.director, label(function)
        assert entry.who_label == world.director.username, label(function)
        assert entry.summary.strip(), label(function)


@pytest.mark.parametrize(
    "function", [pytest.param(f, id=label(f)) for f in OWN_RULE if f in AUDITED]
)
def test_a_club_opened_or_imported_by_an_account_records_it_in_the_new_club(
    world: World, function: Function
) -> None:
    arguments = OWN_RULE[function](world)
    since = last_entry()
    founder = signed_in_without_a_role(world)
    club = call(function, arguments, founder)
    entries = new_entries(since)
    assert [e.action for e in entries] == list(AUDITED[function]), HOW
    assert all(e.club_id == club.pk and e.who == founder for e in entries)


@pytest.mark.parametrize(
    "function", [pytest.param(f, id=label(f)) for f in CALLS if f in NOT_DIRECTOR_WRITES]
)
def test_a_write_that_is_not_a_directors_records_nothing(world: World, function: Function) -> None:
    arguments = CALLS[function](world)
    since = last_entry()
    call(function, arguments, world.director)
    assert new_entries(since) == [], NOT_DIRECTOR_WRITES[function]


def test_a_scorers_correction_is_kept_in_the_rounds_history_not_in_the_audit_log(
    world: World,
) -> None:
    game = world.with_round()
    link = table_links.scorer_link_create(table_id=game.table_id, user=SYSTEM)
    scorer = Actor(scorer_tokens=frozenset([link.token]), device="browser:scorer")
    since = last_entry()
    scoring.round_correct(game_id=game.pk, number=1, data=split(game, 2, 3), actor=scorer)
    scoring.round_delete(game_id=game.pk, number=1, actor=scorer)
    assert new_entries(since) == []
    assert RoundChange.objects.filter(game=game, scorer_link=link).count() == 2


def test_the_machine_is_named_system(world: World) -> None:
    since = last_entry()
    club_services.player_add(club_id=world.club.pk, name="Night owl", user=SYSTEM)
    [entry] = new_entries(since)
    assert (entry.who, entry.who_label) == (None, "system")
    assert entry.summary == "Added the player Night owl"


def test_a_write_refused_after_its_first_steps_records_nothing(world: World) -> None:
    session = world.unstarted()
    session.entries.update(checked_in=False)
    since = last_entry()
    with pytest.raises(Exception, match="Nobody is checked in"):
        start_finish.session_start(session_id=session.pk, user=world.director)
    assert new_entries(since) == []


def test_an_entry_is_rolled_back_with_its_change(world: World) -> None:
    since = last_entry()

    @transaction.atomic
    def add_then_fail() -> None:
        club_services.player_add(club_id=world.club.pk, name="Gone again", user=world.director)
        raise RuntimeError("a later step failed")

    with pytest.raises(RuntimeError, match="later step failed"):
        add_then_fail()
    assert new_entries(since) == []


@pytest.mark.django_db(transaction=True)
def test_record_refuses_to_run_outside_a_transaction(world: World) -> None:
    with pytest.raises(RuntimeError, match="inside the write's transaction"):
        audit.record(SYSTEM, club=world.club, action="club.settings", summary="Nothing")


def test_an_entry_outlives_the_account_and_the_session_it_names(world: World) -> None:
    helper = UserFactory.create(username="helper-director")
    world.club.directors.add(helper)
    session = world.unstarted()
    since = last_entry()
    services.session_update_settings(
        session_id=session.pk,
        games_per_sitting=3,
        is_public=False,
        double_entry=False,
        user=helper,
    )
    club_services.session_delete(session_id=session.pk, user=world.director)
    User.objects.filter(pk=helper.pk).delete()
    settings, deleted = new_entries(since)
    assert (settings.who, settings.who_label, settings.session_id) == (
        None,
        "helper-director",
        None,
    )
    assert settings.summary == "Changed the settings: games per sitting 2 → 3, public yes → no"
    assert settings.details == {
        "changed": {
            "games_per_sitting": {"before": 2, "after": 3},
            "is_public": {"before": True, "after": False},
        }
    }
    assert deleted.details["session"] == {"id": session.pk, "name": session.name}


def test_a_withdrawal_with_a_substitute_names_both(world: World) -> None:
    game = world.with_round()  # a game under way: the substitute takes the seat's score
    player = game.game_players.first()
    since = last_entry()
    withdrawals.session_withdraw(
        session_id=world.running.pk,
        player_id=player.player_id,
        substitute="Stand In",
        user=world.director,
    )
    [entry] = new_entries(since)
    assert entry.summary == f"Withdrew {player.name} (in game 1), Stand In took the seat"


def test_a_tick_on_the_check_in_list_names_its_player(world: World) -> None:
    session = world.unstarted()
    entry = session.entries.select_related("player").first()
    since = last_entry()
    services.session_check_in(
        session_id=session.pk, player_ids=[entry.player_id], checked_in=False, user=world.director
    )
    services.session_check_in(
        session_id=session.pk, player_ids=None, checked_in=True, user=world.director
    )
    ticked, everyone = new_entries(since)
    assert ticked.summary == f"Took back the check-in of {entry.player.name}"
    assert everyone.summary == "Checked in 8 players (the whole roster)"
