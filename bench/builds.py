"""What the server benches build inside Django, in their build child (bench/load.py,
bench/play.py, bench/flood.py, bench/room.py, bench/parallel.py): the club of the bench's
director and a running session."""

from __future__ import annotations

from typing import Any


def bench_club(slug: str) -> tuple[Any, Any, Any]:
    """Inside Django: the database migrated, and a director with their club and its 2026
    season (the account "<slug>-director")."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournaments.models import Club, Season

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user(f"{slug}-director", password=f"{slug}-pw-1")
    club = Club.objects.create(name=f"{slug.title()} Club", slug=slug)
    club.directors.add(user)
    season = Season.objects.create(
        club=club, name="2026", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    return user, club, season


def running_session(
    *, user: Any, club: Any, season: Any, name: str, names: list[str], games: int, seed: int
) -> Any:
    """Inside Django: a public Huckley Buck session of `names`, all checked in, started."""
    from workflow.session import services, start_finish

    session = services.session_create(
        club=club,
        season=season,
        name=name,
        date=season.starts_on,
        rules_id="huckley-buck",
        games_per_sitting=games,
        new_names=names,
        seed=seed,
        is_public=True,
        double_entry=False,
        user=user,
    )
    session.entries.update(checked_in=True)
    start_finish.session_start(session_id=session.pk, user=user)
    return session
