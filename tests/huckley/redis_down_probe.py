"""Run as a script by tests/huckley/test_faults.py: the app on a fresh SQLite file with
REDIS_URL pointing at a Redis that is not answering (nothing listening, or a server the
test started and then stopped). It prints one JSON object of what each request answered
and how long it took; the test asserts on it. No part of the app is mocked."""

from __future__ import annotations

import contextlib
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "huckley.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402


def timed(call: Any) -> tuple[Any, float]:
    start = time.monotonic()
    result = call()
    return result, round(time.monotonic() - start, 3)


def main() -> None:
    call_command("migrate", verbosity=0)
    from django.conf import settings

    from tests.factories import ClubFactory, SeasonFactory, UserFactory
    from workflow.club import selectors as club_selectors
    from workflow.session import services, start_finish
    from workflow.session.simulation import finish_sitting_unplayed, generated_names

    assert not settings.CELERY_TASK_ALWAYS_EAGER, "the probe needs a real (unreachable) broker"
    director = UserFactory(username="probe-director")
    director.set_password("probe-password-1")
    director.save()
    club = ClubFactory(name="Probe Club", slug="probe")
    club.directors.add(director)
    season = SeasonFactory(club=club, name="2026")
    session = services.session_create(
        club=club,
        season=season,
        name="Probe night",
        date=season.starts_on,
        rules_id="huckley-buck",
        games_per_sitting=2,
        new_names=generated_names(8),
        seed=7,
        is_public=True,
        double_entry=False,
        user=director,
    )
    session.entries.update(checked_in=True)
    start_finish.session_start(session_id=session.pk, user=director)
    # A night counts on the ladder once a game of it finished.
    finish_sitting_unplayed(session.sittings.get(), random.Random(7))

    client = Client(raise_request_exception=False)
    out: dict[str, Any] = {}
    if os.getenv("PROBE_SHUTDOWN_REDIS"):
        # Redis is up: the first page fills the cache; then Redis stops for good.
        import redis

        out["warm_session_page"] = client.get(f"/sessions/{session.pk}/").status_code
        client.get(f"/clubs/{club.slug}/")
        with contextlib.suppress(redis.ConnectionError):  # SHUTDOWN drops its connection
            redis.Redis.from_url(settings.REDIS_URL).shutdown(nosave=True)
        try:
            redis.Redis.from_url(settings.REDIS_URL).ping()
            out["redis_stopped"] = False
        except redis.ConnectionError:
            out["redis_stopped"] = True
    page, out["session_page_s"] = timed(lambda: client.get(f"/sessions/{session.pk}/"))
    out["session_page"] = page.status_code
    page, out["club_page_s"] = timed(lambda: client.get(f"/clubs/{club.slug}/"))
    out["club_page"] = page.status_code
    token, out["token_s"] = timed(
        lambda: client.post(
            "/api/auth/token/",
            {"username": "probe-director", "password": "probe-password-1"},
            content_type="application/json",
        )
    )
    out["token"] = token.status_code
    out["token_type"] = token.headers.get("Content-Type", "")

    client.force_login(director)
    finish, out["finish_s"] = timed(
        lambda: client.post(f"/director/sessions/{session.pk}/finish/", {"early": "1"})
    )
    out["finish"] = finish.status_code
    session.refresh_from_db()
    out["finished"] = session.status == "finished"
    # The season ladder, computed whether or not the refresh task reached a worker.
    out["ladder_rows"] = len(club_selectors.season_standings_cached(season.pk))
    page, out["club_page_after_s"] = timed(lambda: client.get(f"/clubs/{club.slug}/"))
    out["club_page_after"] = page.status_code
    # More of an evening's requests (each reads the cache, and the API's counts its rate):
    # about 20 in all, for the log's figures (docs/operations.md, Faults).
    more = [f"/sessions/{session.pk}/", f"/clubs/{club.slug}/", f"/api/sessions/{session.pk}/"]
    out["more"] = sorted({client.get(more[i % 3]).status_code for i in range(14)})
    out["requests"] = 6 + 14
    print(json.dumps(out))


if __name__ == "__main__":
    main()
