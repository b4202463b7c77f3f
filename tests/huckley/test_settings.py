"""The embedded default and the production path are both real configurations."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.db import connection

from huckley.celery import app as celery_app

USING_SERVICES = bool(os.getenv("DATABASE_URL")) and bool(os.getenv("REDIS_URL"))


def run_settings(env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env={**clean, "DJANGO_SETTINGS_MODULE": "huckley.settings"},
        capture_output=True,
        text=True,
        check=False,
    )


def test_it_defaults_to_sqlite_locmem_and_eager_celery() -> None:
    result = run_settings(
        {},
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CACHES['default']['BACKEND'], "
        "s.CELERY_TASK_ALWAYS_EAGER)",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "django.core.cache.backends.locmem.LocMemCache",
        "True",
    ]


def test_it_switches_to_postgres_and_redis_from_the_environment() -> None:
    result = run_settings(
        {"DATABASE_URL": "postgres://u@db.example:5432/h", "REDIS_URL": "redis://r:6379/2"},
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CACHES['default']['BACKEND'], "
        "s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER)",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "django_redis.cache.RedisCache",
        "redis://r:6379/2",
        "False",
    ]


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = run_settings({"HUCKLEY_PRODUCTION": "1", "SECRET_KEY": ""}, "pass")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_a_malformed_boolean_fails_loudly() -> None:
    result = run_settings({"DEBUG": "maybe"}, "pass")
    assert result.returncode != 0
    assert "DEBUG must be true or false" in result.stderr


@pytest.mark.services
@pytest.mark.django_db
def test_the_ci_run_really_uses_postgres_and_redis() -> None:
    if not USING_SERVICES:
        pytest.skip("needs DATABASE_URL and REDIS_URL (PostgreSQL and Redis); .ci/run sets them")
    assert connection.vendor == "postgresql"
    from django.core.cache import cache

    cache.set("huckley-ci-probe", "ok", 30)
    assert cache.get("huckley-ci-probe") == "ok"
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    assert celery_app.conf.broker_url.startswith("redis://")


@pytest.mark.parametrize("rate", ["", "20", "lots/minute", "0/minute", "20/fortnight"])
def test_an_anonymous_sheet_rate_that_is_not_a_rate_stops_the_start(rate: str) -> None:
    result = run_settings({"API_ANON_SHEET_RATE": rate}, "pass")
    assert result.returncode != 0
    assert "API_ANON_SHEET_RATE must be a number of requests per" in result.stderr
