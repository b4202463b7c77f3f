"""Changing your password and resetting a forgotten one, with Django's own views: the
pages, the limit on reset emails, the email settings read from the environment, and a
reset email sent through a real SMTP server (aiosmtpd, started by the test) whose link
sets a new password that then signs in."""

from __future__ import annotations

import email
import re
import socket
from collections.abc import Iterator
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import UserFactory
from tests.huckley.test_settings import run_settings
from tests.limits import forget_limits

OLD = "pw-for-tests-only"  # tests.factories.UserFactory's password
NEW = "Hooks-And-Tricks-88"


@pytest.fixture(autouse=True)
def _no_counts_left() -> Iterator[None]:
    forget_limits()
    yield
    forget_limits()


def signs_in(username: str, password: str) -> bool:
    """Through the sign-in page, as a person would (and past django-axes)."""
    client = Client()
    client.post(reverse("login"), {"username": username, "password": password})
    return "_auth_user_id" in client.session


def reset_link(body: str) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", body)
    assert match, body
    return match.group(1)


def choose_password(link: str, password: str) -> Any:
    """Open the emailed link and set `password`: Django swaps the token for a session key
    and redirects to the form."""
    client = Client()
    form = client.get(link, follow=True)
    assert "Choose a password" in form.content.decode()
    return client.post(
        form.redirect_chain[-1][0], {"new_password1": password, "new_password2": password}
    )


# Changing it


@pytest.mark.django_db
def test_a_signed_in_user_changes_their_password_and_stays_signed_in() -> None:
    dana = UserFactory(username="dana")
    client = Client()
    client.force_login(dana)
    page = client.get(reverse("password_change"))
    assert page.status_code == 200
    assert "Current password" in page.content.decode()
    response = client.post(
        reverse("password_change"),
        {"old_password": OLD, "new_password1": NEW, "new_password2": NEW},
        follow=True,
    )
    assert "Your password is changed" in response.content.decode()
    assert "_auth_user_id" in client.session
    assert signs_in("dana", NEW)
    assert not signs_in("dana", OLD)


@pytest.mark.django_db
def test_a_wrong_current_password_changes_nothing() -> None:
    dana = UserFactory(username="dana")
    client = Client()
    client.force_login(dana)
    response = client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW, "new_password2": NEW},
    )
    assert "old password was entered incorrectly" in response.content.decode()
    dana.refresh_from_db()
    assert dana.check_password(OLD)


@pytest.mark.django_db
def test_changing_a_password_needs_signing_in() -> None:
    response = Client().get(reverse("password_change"))
    assert response["Location"].startswith(reverse("login"))


def test_the_standard_paths_are_kept() -> None:
    assert reverse("password_change") == "/accounts/password_change/"
    assert reverse("password_change_done") == "/accounts/password_change/done/"
    assert reverse("password_reset") == "/accounts/password_reset/"
    assert reverse("password_reset_done") == "/accounts/password_reset/done/"
    assert reverse("password_reset_confirm", args=["uid", "tok"]) == "/accounts/reset/uid/tok/"
    assert reverse("password_reset_complete") == "/accounts/reset/done/"


# Resetting it (the test settings' in-memory outbox)


@pytest.mark.django_db
def test_a_forgotten_password_is_reset_through_the_emailed_link() -> None:
    UserFactory(username="dana", email="dana@example.org")
    response = Client().post(reverse("password_reset"), {"email": "DANA@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    (sent,) = mail.outbox
    assert sent.to == ["dana@example.org"]
    assert "Your username is dana." in sent.body
    done = choose_password(reset_link(sent.body), NEW)
    assert done["Location"] == reverse("password_reset_complete")
    assert signs_in("dana", NEW)


@pytest.mark.django_db
def test_an_unknown_address_gets_the_same_answer_and_no_email() -> None:
    response = Client().post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


@pytest.mark.django_db
def test_a_used_link_says_how_to_get_a_new_one() -> None:
    UserFactory(username="dana", email="dana@example.org")
    Client().post(reverse("password_reset"), {"email": "dana@example.org"})
    link = reset_link(mail.outbox[0].body)
    choose_password(link, NEW)
    page = Client().get(link, follow=True).content.decode()
    assert "This link has been used or is out of date" in page
    assert reverse("password_reset") in page


@pytest.mark.django_db
@override_settings(HUCKLEY_RESETS_PER_HOUR=2)
def test_reset_emails_from_one_address_are_limited() -> None:
    UserFactory(username="dana", email="dana@example.org")
    for _ in range(2):
        Client().post(reverse("password_reset"), {"email": "dana@example.org"})
    response = Client().post(reverse("password_reset"), {"email": "dana@example.org"})
    assert response.status_code == 429
    assert "Too many reset emails from here" in response.content.decode()
    assert len(mail.outbox) == 2


# The email settings


def test_email_goes_to_the_console_unless_a_host_is_set() -> None:
    result = run_settings(
        {"EMAIL_HOST": ""},
        "from django.conf import settings as s; print(s.EMAIL_BACKEND, s.DEFAULT_FROM_EMAIL)",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.core.mail.backends.console.EmailBackend",
        "huckley@localhost",
    ]


def test_email_goes_by_smtp_as_the_environment_says() -> None:
    env = {
        "EMAIL_HOST": "smtp.example.org",
        "EMAIL_PORT": "2525",
        "EMAIL_HOST_USER": "club",
        "EMAIL_HOST_PASSWORD": "s3cret",
        "EMAIL_USE_TLS": "false",
        "DEFAULT_FROM_EMAIL": "Huckley <cards@example.org>",
    }
    result = run_settings(
        env,
        "from django.conf import settings as s; print(s.EMAIL_BACKEND, s.EMAIL_HOST, "
        "s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_HOST_PASSWORD, s.EMAIL_USE_TLS); "
        "print(s.DEFAULT_FROM_EMAIL)",
    )
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert first.split() == [
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.org",
        "2525",
        "club",
        "s3cret",
        "False",
    ]
    assert second == "Huckley <cards@example.org>"


def test_smtp_uses_tls_on_port_587_unless_told_otherwise() -> None:
    result = run_settings(
        {"EMAIL_HOST": "smtp.example.org"},
        "from django.conf import settings as s; print(s.EMAIL_PORT, s.EMAIL_USE_TLS)",
    )
    assert result.stdout.split() == ["587", "True"], result.stderr


def test_a_port_that_is_not_a_number_stops_the_start_loudly() -> None:
    result = run_settings({"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "smtp"}, "")
    assert result.returncode != 0
    assert "EMAIL_PORT must be a whole number" in result.stderr


# A real SMTP server


class Inbox:
    """aiosmtpd's handler: keeps every message it is handed."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp_server() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


@pytest.mark.django_db
def test_a_reset_email_arrives_over_smtp_and_its_link_sets_a_password_that_signs_in(
    smtp_server: tuple[Inbox, int],
) -> None:
    inbox, port = smtp_server
    UserFactory(username="dana", email="dana@example.org")
    with override_settings(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=port,
        EMAIL_HOST_USER="",
        EMAIL_HOST_PASSWORD="",
        EMAIL_USE_TLS=False,
        EMAIL_TIMEOUT=10,
        DEFAULT_FROM_EMAIL="cards@example.org",
    ):
        response = Client().post(reverse("password_reset"), {"email": "dana@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    (message,) = inbox.messages
    assert message["To"] == "dana@example.org"
    assert message["From"] == "cards@example.org"
    assert message["Subject"] == "Your Huckley password"
    body = message.get_payload(decode=True)
    assert isinstance(body, bytes)
    done = choose_password(reset_link(body.decode()), NEW)
    assert done["Location"] == reverse("password_reset_complete")
    assert signs_in("dana", NEW)
    assert not signs_in("dana", OLD)


@pytest.mark.django_db
def test_a_mail_server_that_does_not_answer_is_logged_and_the_page_still_answers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    UserFactory(username="dana", email="dana@example.org")
    with override_settings(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=free_port(),  # nothing listens there
        EMAIL_USE_TLS=False,
        EMAIL_TIMEOUT=2,
    ):
        response = Client().post(reverse("password_reset"), {"email": "dana@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert "Failed to send password reset email" in caplog.text
