"""A whole club as one JSON file: export, empty the database, `import_club`, export
again, and the two files are equal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from scoring import records
from scoring import services as scoring
from scoring.models import Game, GamePlayer, Round, RoundChange
from tests.factories import PlayerFactory, UserFactory
from tournaments.models import (
    AuditEntry,
    BigLoserAward,
    Club,
    KeepApart,
    Player,
    Season,
    Session,
    Sitting,
)
from workflow.club import seating_wishes
from workflow.session import services, start_finish
from workflow.session.simulation import PlayOptions, generated_names, play_game, play_session
from workflow.tables import links as table_links


def build_club(club: Club, season: Season, director: Any) -> None:
    """A club with a bit of everything: two seasons, a Big Loser, a finished session,
    a running one with a deleted round and a scorer link, a player with an account,
    contact fields and an imported rating."""
    earlier = Season.objects.create(
        club=club, name="2025", starts_on=season.starts_on.replace(year=2025),
        ends_on=season.ends_on.replace(year=2025),
    )  # fmt: skip
    ann = PlayerFactory(
        club=club, name="Ann Lee", email="ann@example.org", external_id="M-1", seed_rating=1500.25
    )
    ann.user = UserFactory(username="ann")
    ann.save()
    BigLoserAward.objects.create(season=earlier, player=ann, note="hooked", awarded_by=director)
    club.ladder_scoring = "placings"
    club.ladder_best_nights = 3
    club.save()
    play_session(
        club=club,
        season=season,
        name="Finished night",
        day=season.starts_on,
        players=[*generated_names(7), "Ann Lee"],
        options=PlayOptions(sittings=2, seed=4, user=director),
    )
    running = services.session_create(
        club=club,
        season=season,
        name="Running night",
        date=season.starts_on,
        rules_id="buck-euchre",
        games_per_sitting=2,
        new_names=generated_names(9),
        seed=9,
        is_public=False,
        double_entry=False,
        duplicate=True,
        user=director,
    )
    running.entries.update(checked_in=True)
    first, second = sorted(running.entries.values_list("player_id", flat=True))[:2]
    seating_wishes.keep_apart_add(club_id=club.pk, players=[first, second], user=director)
    seating_wishes.session_set_fixed_table(
        session_id=running.pk, player_id=first, table=6, user=director
    )
    start_finish.session_start(session_id=running.pk, user=director)
    game = Game.objects.filter(table__sitting__session=running).first()
    assert game is not None
    play_game(game, seed=2, rounds=3, user=director)
    last = Round.objects.filter(game=game).order_by("-number").first()
    assert last is not None
    scoring.round_delete(game_id=game.pk, number=last.number, actor=director)
    table_links.scorer_link_create(table_id=game.table_id, user=director)


def export(api: APIClient, slug: str) -> dict[str, Any]:
    response = api.get(f"/api/clubs/{slug}/export.json")
    assert response.status_code == 200
    return response.json()  # type: ignore[no-any-return]


@pytest.mark.django_db(transaction=True)
def test_a_club_exported_and_imported_into_an_empty_database_exports_the_same(
    club: Club, season: Season, director: Any, tmp_path: Path
) -> None:
    build_club(club, season, director)
    api = APIClient()
    api.force_authenticate(director)
    first = export(api, club.slug)
    counts = {
        "players": Player.objects.count(),
        "games": Game.objects.count(),
        "rounds": Round.objects.count(),
        "changes": RoundChange.objects.count(),
        "game players": GamePlayer.objects.count(),
        "audit": AuditEntry.objects.count(),
        "pairs kept apart": KeepApart.objects.count(),
    }
    assert counts["rounds"] > 0
    assert counts["audit"] > 0  # the directors' writes above, kept with the club
    assert counts["pairs kept apart"] == 1
    assert 6 in {t["number"] for t in first["tables"]["tournaments.table"]}
    assert counts["changes"] > counts["rounds"]
    path = tmp_path / "club.json"
    path.write_text(json.dumps(first))

    call_command("flush", interactive=False, verbosity=0)
    assert not Club.objects.exists()
    assert not Session.objects.exists()
    call_command("import_club", str(path), stdout=open(tmp_path / "out.txt", "w"))  # noqa: SIM115

    director = type(director).objects.get(username="dee-director")
    assert not director.has_usable_password()  # an administrator sets one
    api.force_authenticate(director)
    second = export(api, club.slug)
    assert second == first
    # A duplicate sitting keeps its key: its deals can still be compared.
    (sitting,) = Sitting.objects.filter(session__name="Running night")
    assert sitting.duplicate
    assert len(sitting.deal_key) == 64
    assert counts == {
        "players": Player.objects.count(),
        "games": Game.objects.count(),
        "rounds": Round.objects.count(),
        "changes": RoundChange.objects.count(),
        "game players": GamePlayer.objects.count(),
        "audit": AuditEntry.objects.count(),
        "pairs kept apart": KeepApart.objects.count(),
    }
    # The imported club carries on: the sequences moved past the imported ids, and the
    # engine agrees with every stored game.
    imported = Club.objects.get(slug=club.slug)
    services.players_get_or_create(club=imported, names=["A newcomer"])
    for game in Game.objects.all():
        assert records.game_check(game)["valid"]


@pytest.mark.django_db
def test_the_export_leaves_scorer_links_out(club: Club, season: Season, director: Any) -> None:
    build_club(club, season, director)
    api = APIClient()
    api.force_authenticate(director)
    text = json.dumps(export(api, club.slug))
    from tournaments.models import ScorerLink

    token = ScorerLink.objects.get().token
    assert token not in text
    assert "tournaments.scorerlink" not in text


@pytest.mark.django_db
def test_importing_a_club_that_exists_is_refused(
    club: Club, season: Season, director: Any, tmp_path: Path
) -> None:
    api = APIClient()
    api.force_authenticate(director)
    path = tmp_path / "club.json"
    path.write_text(json.dumps(export(api, club.slug)))
    before = Club.objects.count()
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_club", str(path))
    assert Club.objects.count() == before


@pytest.mark.django_db
def test_importing_a_club_whose_ids_are_taken_is_refused(
    club: Club, season: Season, director: Any, tmp_path: Path
) -> None:
    api = APIClient()
    api.force_authenticate(director)
    data = export(api, club.slug)
    data["club"]["slug"] = "another-slug"
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="empty database"):
        call_command("import_club", str(path))
    assert not Club.objects.filter(slug="another-slug").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("not json", "Cannot read"),
        ('{"format": "something-else"}', "not a club file"),
        ('{"format": "huckley-club/1", "club": {}}', "cannot be read"),
    ],
)
def test_a_file_that_is_not_a_club_file_is_refused(
    content: str, words: str, tmp_path: Path
) -> None:
    path = tmp_path / "club.json"
    path.write_text(content)
    with pytest.raises(CommandError, match=words):
        call_command("import_club", str(path))
    assert not Club.objects.exists()
