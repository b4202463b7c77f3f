"""Self check-in at the door (docs/tournament.md, "Self check-in at the door"): the
service's rule (the door code, the session in setup, self check-in open), how a typed
name finds its player, walk-ins, the throttle on wrong codes, the director's door code,
settings and undo. The pages are tests/web/test_door_pages.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from common.errors import ConflictError, UserError
from tests.common.test_text import HIDDEN
from tests.factories import PlayerFactory, UserFactory
from tests.rows import DOOR_NAMES, make_door_night
from tournaments.models import Player, Session, SessionPlayer
from tournaments.permissions import SYSTEM
from workflow.front import door
from workflow.session import services

pytestmark = pytest.mark.django_db

CHARS = [char for char, _ in HIDDEN]
IDS = [words for _, words in HIDDEN]


@pytest.fixture
def night(club: Any, season: Any, director: Any) -> Session:
    return make_door_night(club, season, director)


def check_in(session: Session, name: str, code: str = "4821", client: str = "10.0.0.1") -> Any:
    return door.self_check_in(
        session_id=session.pk, name=name, door_code=code, client=client, user=SYSTEM
    )


def entry(session: Session, name: str) -> SessionPlayer:
    return SessionPlayer.objects.get(session=session, player__name=name)


# The service's rule ----------------------------------------------------------------


def test_a_new_session_has_a_door_code_of_four_digits_drawn_for_it(night: Session) -> None:
    fresh = Session.objects.get(pk=night.pk)
    made = [
        services.session_create(
            club=night.club,
            season=night.season,
            name=f"Night {i}",
            date=night.date,
            rules_id="huckley-buck",
            games_per_sitting=2,
            user=SYSTEM,
        )
        for i in range(6)
    ]
    codes = {session.door_code for session in made}
    assert all(len(c) == 4 and c.isdigit() for c in codes)
    assert len(codes) > 1  # drawn per session, not one default for all
    assert fresh.self_check_in_open is True
    assert fresh.walk_ins_allowed is False


def test_a_player_on_the_roster_checks_in_with_the_door_code(night: Session) -> None:
    done = check_in(night, "  rosa   DIAZ ")  # case, accents, spaces do not count
    assert done.name == "Rosa Díaz"
    assert not done.already
    assert done.message == "Welcome, Rosa Díaz: you are checked in."
    rosa = entry(night, "Rosa Díaz")
    assert rosa.checked_in
    assert rosa.self_checked_in_at is not None


def test_punctuation_does_not_count_either(night: Session) -> None:
    assert check_in(night, "pete obrien").name == "Pete O'Brien"


@pytest.mark.parametrize(
    ("stored", "typed"),
    [
        ("Pete O'Brien", "Pete O Brien"),
        ("Pete O'Brien", "pete o\u2019brien"),
        ("Anne-Marie Costello", "ANNE MARIE COSTELLO"),
        ("Pádraig McGettigan", "padraig mc gettigan"),
        ("Ewan MacDonald", "Ewan Mac Donald"),
    ],
)
def test_hyphens_spaces_apostrophes_and_mc_mac_joins_do_not_count(
    night: Session, director: Any, stored: str, typed: str
) -> None:
    if stored not in DOOR_NAMES:
        services.session_add_players(session_id=night.pk, new_names=[stored], user=director)
    done = check_in(night, typed)
    assert done.name == stored
    assert entry(night, stored).checked_in


def test_a_check_in_moves_the_live_version_the_directors_page_polls(night: Session) -> None:
    before = Session.objects.get(pk=night.pk).live_version
    check_in(night, "Bob Stone")
    assert Session.objects.get(pk=night.pk).live_version == before + 1


def test_already_checked_in_is_said_and_changes_nothing(night: Session) -> None:
    check_in(night, "Bob Stone")
    version = Session.objects.get(pk=night.pk).live_version
    done = check_in(night, "bob stone")
    assert done.already
    assert done.message == "You are already checked in, Bob Stone. Nothing more to do."
    assert Session.objects.get(pk=night.pk).live_version == version


def test_a_wrong_door_code_is_refused_in_plain_words_and_checks_nobody_in(
    night: Session,
) -> None:
    with pytest.raises(UserError) as refused:
        check_in(night, "Bob Stone", code="1111")
    assert refused.value.code == "wrong_door_code"
    assert refused.value.field == "door_code"
    assert "not the door code" in refused.value.message
    assert not entry(night, "Bob Stone").checked_in


def test_closed_self_check_in_is_refused(night: Session, director: Any) -> None:
    door.door_settings_update(
        session_id=night.pk, self_check_in_open=False, walk_ins_allowed=False, user=director
    )
    with pytest.raises(ConflictError) as refused:
        check_in(night, "Bob Stone")
    assert refused.value.code == "self_check_in_closed"
    assert "Ask the director" in refused.value.message
    assert not entry(night, "Bob Stone").checked_in


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (Session.Status.RUNNING, "session_started"),
        (Session.Status.FINISHED, "session_finished"),
        (Session.Status.CANCELLED, "session_cancelled"),
    ],
)
def test_only_a_session_being_set_up_takes_check_in_at_the_door(
    night: Session, status: str, code: str
) -> None:
    Session.objects.filter(pk=night.pk).update(status=status)
    with pytest.raises(ConflictError) as refused:
        check_in(night, "Bob Stone")
    assert refused.value.code == code


def test_a_running_session_sends_late_arrivals_to_the_director(make_session: Any) -> None:
    session = make_session(8)
    with pytest.raises(ConflictError) as refused:
        check_in(session, "anyone", code=session.door_code)
    assert "Ask the director" in refused.value.message


# Finding the name -------------------------------------------------------------------


def test_part_of_a_name_asks_which_never_guesses(night: Session) -> None:
    with pytest.raises(door.WhichName) as asked:
        check_in(night, "ann")
    assert asked.value.choices == ["Ann Lee", "Anna Berg"]
    assert "Which one are you" in asked.value.message
    assert not SessionPlayer.objects.filter(session=night, checked_in=True).exists()


def test_one_part_of_a_name_also_asks_first(night: Session) -> None:
    with pytest.raises(door.WhichName) as asked:
        check_in(night, "rosa")
    assert asked.value.choices == ["Rosa Díaz"]


def test_a_near_miss_asks_which(night: Session) -> None:
    with pytest.raises(door.WhichName) as asked:
        check_in(night, "Rosa Dias")
    assert asked.value.choices == ["Rosa Díaz"]


def test_a_near_miss_of_two_players_offers_both_closest_first(
    night: Session, director: Any
) -> None:
    services.session_add_players(session_id=night.pk, new_names=["Rosa Diez"], user=director)
    with pytest.raises(door.WhichName) as asked:
        check_in(night, "Rosa Dyaz")  # a typo from Díaz, two from Diez
    assert asked.value.choices == ["Rosa Díaz", "Rosa Diez"]
    assert not SessionPlayer.objects.filter(session=night, checked_in=True).exists()


def test_mac_is_not_mc_at_the_door(night: Session, director: Any) -> None:
    services.session_add_players(session_id=night.pk, new_names=["Ewan McDonald"], user=director)
    with pytest.raises(door.WhichName) as asked:
        check_in(night, "Ewan Mac Donald")  # a near miss, asked about: never taken for him
    assert asked.value.choices == ["Ewan McDonald"]


def test_two_players_with_the_same_name_but_accents_ask_and_the_exact_name_picks(
    night: Session, director: Any
) -> None:
    services.session_add_players(
        session_id=night.pk, new_names=["Rosa Diaz"], new_anyway=True, user=director
    )
    with pytest.raises(door.WhichName) as asked:
        check_in(night, "ROSA diaz!")
    assert asked.value.choices == ["Rosa Diaz", "Rosa Díaz"]
    # The choice sends the name as the roster has it back: that one, exactly.
    assert check_in(night, "Rosa Díaz").name == "Rosa Díaz"
    assert not entry(night, "Rosa Diaz").checked_in


def test_an_empty_name_is_refused(night: Session) -> None:
    with pytest.raises(UserError) as refused:
        check_in(night, " '. ")
    assert refused.value.code == "name_required"


def test_a_name_not_on_the_list_is_refused_when_walk_ins_are_not_allowed(
    night: Session,
) -> None:
    with pytest.raises(UserError) as refused:
        check_in(night, "Zed Zulu")
    assert refused.value.code == "not_on_roster"
    assert refused.value.message == (
        "“Zed Zulu” is not on tonight's list. Check how you spelled it, or ask the "
        "director to add you."
    )
    assert not Player.objects.filter(name="Zed Zulu").exists()


def test_a_walk_in_joins_the_roster_checked_in_when_allowed(night: Session, director: Any) -> None:
    door.door_settings_update(
        session_id=night.pk, self_check_in_open=True, walk_ins_allowed=True, user=director
    )
    done = check_in(night, "Zed Zulu")
    assert done.walk_in
    zed = entry(night, "Zed Zulu")
    assert zed.checked_in
    assert zed.self_checked_in_at is not None
    assert zed.player.club_id == night.club_id


def test_a_walk_in_who_is_a_club_player_is_that_player(night: Session, director: Any) -> None:
    door.door_settings_update(
        session_id=night.pk, self_check_in_open=True, walk_ins_allowed=True, user=director
    )
    regular = PlayerFactory.create(club=night.club, name="Mo Kahn")
    assert check_in(night, "mo kahn").player_id == regular.pk
    assert Player.objects.filter(club=night.club, name__iexact="mo kahn").count() == 1


def test_a_walk_in_who_looks_like_a_club_player_is_asked_not_doubled(
    night: Session, director: Any
) -> None:
    door.door_settings_update(
        session_id=night.pk, self_check_in_open=True, walk_ins_allowed=True, user=director
    )
    PlayerFactory.create(club=night.club, name="Zoë Hart")
    with pytest.raises(door.WhichName) as asked:
        check_in(night, "zoe hart")
    assert asked.value.choices == ["Zoë Hart"]
    assert check_in(night, "Zoë Hart").name == "Zoë Hart"
    assert Player.objects.filter(club=night.club, name__icontains="hart").count() == 1


@pytest.mark.parametrize("char", CHARS, ids=IDS)
def test_a_walk_in_with_a_hidden_character_is_refused_and_nothing_is_written(
    night: Session, director: Any, char: str
) -> None:
    door.door_settings_update(
        session_id=night.pk, self_check_in_open=True, walk_ins_allowed=True, user=director
    )
    players = Player.objects.count()
    with pytest.raises(UserError) as refused:
        check_in(night, f"Zed{char} Zulu")
    assert refused.value.code == "name_hidden_character"
    assert Player.objects.count() == players


# The throttle -----------------------------------------------------------------------


def test_wrong_codes_from_one_client_are_throttled(night: Session) -> None:
    for _ in range(door.WRONG_PER_CLIENT):
        with pytest.raises(UserError):
            check_in(night, "Bob Stone", code="0000")
    with pytest.raises(door.TooManyAttempts) as throttled:
        check_in(night, "Bob Stone")  # even the right code waits
    assert throttled.value.status == 429
    assert 0 < throttled.value.retry_after <= door.WINDOW
    assert "Wait 10 minutes" in throttled.value.message
    assert not entry(night, "Bob Stone").checked_in
    # Another phone is not held up by this one.
    assert check_in(night, "Bob Stone", client="10.0.0.2").name == "Bob Stone"


def test_wrong_codes_from_everyone_together_are_throttled_until_the_code_changes(
    night: Session, director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(door, "WRONG_PER_SESSION", 3)
    for n in range(3):
        with pytest.raises(UserError):
            check_in(night, "Bob Stone", code="0000", client=f"10.0.1.{n}")
    with pytest.raises(door.TooManyAttempts):
        check_in(night, "Bob Stone", client="10.0.2.1")
    door.door_code_change(session_id=night.pk, code="7777", user=director)
    assert check_in(night, "Bob Stone", code="7777", client="10.0.2.1").name == "Bob Stone"


def test_right_codes_are_not_counted(night: Session) -> None:
    for name in DOOR_NAMES * 2:
        check_in(night, name)
    assert SessionPlayer.objects.filter(session=night, checked_in=True).count() == len(DOOR_NAMES)


# The director's side ----------------------------------------------------------------


def test_the_director_types_a_door_code_or_draws_one(night: Session, director: Any) -> None:
    assert door.door_code_change(session_id=night.pk, code=" 0042 ", user=director).door_code == (
        "0042"
    )
    drawn = door.door_code_change(session_id=night.pk, code="", user=director).door_code
    assert len(drawn) == 4
    assert drawn.isdigit()
    with pytest.raises(UserError) as refused:
        check_in(night, "Bob Stone", code="0042")  # the old code no longer opens the door
    assert refused.value.code == "wrong_door_code"


@pytest.mark.parametrize("code", ["123", "12345", "12a4", "١٢٣٤"])
def test_a_door_code_is_four_digits(night: Session, director: Any, code: str) -> None:
    with pytest.raises(UserError) as refused:
        door.door_code_change(session_id=night.pk, code=code, user=director)
    assert refused.value.code == "door_code_four_digits"
    assert Session.objects.get(pk=night.pk).door_code == "4821"


def test_who_may_not_direct_the_club_may_not_change_the_door(night: Session) -> None:
    stranger = UserFactory.create(username="stranger")
    with pytest.raises(PermissionDenied):
        door.door_code_change(session_id=night.pk, code="1234", user=stranger)
    with pytest.raises(PermissionDenied):
        door.door_settings_update(
            session_id=night.pk, self_check_in_open=False, walk_ins_allowed=True, user=stranger
        )
    night.refresh_from_db()
    assert (night.door_code, night.self_check_in_open, night.walk_ins_allowed) == (
        "4821",
        True,
        False,
    )


def test_the_director_undoes_a_check_in_at_the_door(night: Session, director: Any) -> None:
    check_in(night, "Bob Stone")
    bob = entry(night, "Bob Stone")
    services.session_check_in(
        session_id=night.pk, player_ids=[bob.player_id], checked_in=False, user=director
    )
    bob.refresh_from_db()
    assert not bob.checked_in
    assert bob.self_checked_in_at is None
