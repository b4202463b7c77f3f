"""Security settings: the deployment check, sign-in rate limiting, CSRF, the content
security policy and secure cookies."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]


def production_env() -> dict[str, str]:
    # The browser tests allow async-unsafe calls in this process; a deployment must not.
    unset = {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(
        HUCKLEY_PRODUCTION="1",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="huckley.example.org",
        DJANGO_SETTINGS_MODULE="huckley.settings",
    )
    return env


def test_production_settings_pass_the_deployment_check_with_no_warning() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_cookies_are_secure_and_https_is_required() -> None:
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS > 0, s.DEBUG)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stdout.split() == ["True", "True", "True", "True", "False"], result.stderr


@pytest.mark.django_db
def test_sign_in_is_locked_after_five_wrong_passwords() -> None:
    UserFactory(username="dana")
    client = Client()
    url = reverse("login")
    for _ in range(4):
        response = client.post(url, {"username": "dana", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    response = client.post(url, {"username": "dana", "password": "wrong"})
    assert response.status_code == 429
    # Even the right password is refused while the lock lasts.
    response = client.post(url, {"username": "dana", "password": "pw-for-tests-only"})
    assert response.status_code == 429
    assert "Too many sign-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_right_password_signs_in_before_the_limit() -> None:
    UserFactory(username="eli")
    client = Client()
    client.post(reverse("login"), {"username": "eli", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "eli", "password": "pw-for-tests-only"})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


@pytest.mark.django_db
def test_writes_without_a_csrf_token_are_refused(make_session: Any, director: Any) -> None:
    session = make_session(8, start=False)
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    response = client.post(reverse("tournaments:start", args=[session.pk]))
    assert response.status_code == 403
    session.refresh_from_db()
    assert session.status == "setup"


@pytest.mark.django_db
def test_pages_send_a_content_security_policy_and_carry_no_inline_code(
    make_session: Any, director: Any
) -> None:
    session = make_session(8)
    client = Client()
    client.force_login(director)
    table = session.sittings.get().tables.get(rank=1)
    for url in [
        reverse("tournaments:home"),
        reverse("tournaments:session", args=[session.pk]),
        reverse("tournaments:manage", args=[session.pk]),
        reverse("scoring:table", args=[table.pk]),
        reverse("tournaments:scorer_links", args=[table.pk]),
    ]:
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy
        assert "script-src 'self'" in policy
        assert "style-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy
        html = response.content.decode()
        assert not re.search(r"<style|\sstyle=|<script(?![^>]*\ssrc=)|\son[a-z]+=", html), url
