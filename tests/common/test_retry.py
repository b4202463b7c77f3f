"""When `common.retry` may run a request again after its database connection was lost:
the bookkeeping of what may have committed, on real queries (the fault itself is
injected for real in test_connection_loss.py)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.db import connection, transaction
from django.http import JsonResponse
from django.test import RequestFactory

from common import retry
from tournaments.models import Club


def watched(work: Any) -> retry._Watch:
    watch = retry._Watch()
    with connection.execute_wrapper(watch):
        work()
    return watch


@pytest.mark.django_db(transaction=True)
def test_reads_alone_leave_nothing_that_may_have_committed() -> None:
    assert not watched(lambda: list(Club.objects.all())).unsure


@pytest.mark.django_db(transaction=True)
def test_a_write_whose_transaction_never_ended_is_unsure() -> None:
    # As when the connection is lost at COMMIT: written, and no statement seen after.
    def work() -> None:
        with transaction.atomic():
            Club.objects.create(name="A", slug="a")

    assert watched(work).unsure


@pytest.mark.django_db(transaction=True)
def test_a_statement_after_a_committed_write_marks_it_committed() -> None:
    def work() -> None:
        with transaction.atomic():
            Club.objects.create(name="A", slug="a")
        list(Club.objects.all())

    watch = watched(work)
    assert watch.may_have_committed
    assert watch.unsure


@pytest.mark.django_db(transaction=True)
def test_a_write_outside_a_transaction_commits_at_once() -> None:
    assert watched(lambda: Club.objects.create(name="A", slug="a")).may_have_committed


@pytest.mark.parametrize(
    ("method", "unsure", "headers", "again"),
    [
        ("GET", True, {}, True),  # a read may always run again
        ("POST", False, {}, True),  # nothing committed: PostgreSQL rolled it all back
        ("POST", True, {}, False),  # a write may have committed: never twice
        ("POST", True, {"Idempotency-Key": "k1"}, True),  # the retry replays the answer
    ],
)
def test_which_requests_run_again(
    method: str, unsure: bool, headers: dict[str, str], again: bool
) -> None:
    request = RequestFactory().generic(method, "/api/x/", b"{}", headers=headers)
    watch = retry._Watch()
    watch.may_have_committed = unsure
    body = retry._keep_body(request)
    assert retry._may_run_again(request, watch, body) is again


def test_a_body_too_large_to_keep_is_not_sent_twice(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    request = RequestFactory().post("/x/", b"x" * 11, content_type="text/plain")
    assert retry._keep_body(request) is None
    assert not retry._may_run_again(request, retry._Watch(), None)


def test_a_write_that_may_have_committed_is_answered_503_in_plain_words() -> None:
    api = retry._unsure(RequestFactory().post("/api/games/1/rounds/"))
    assert api.status_code == 503
    assert api["Retry-After"] == "1"
    assert b"connection_lost_after_write" in api.content
    assert b"may or may not have been kept" in api.content


@pytest.mark.parametrize(
    ("path", "again"),
    [
        ("/games/1/rounds/", True),  # the score sheet's round entry: a second run stores once
        ("/api/games/1/rounds/", True),  # the API's: a second run answers 409 with the game
        ("/api/sessions/1/movement/", False),  # not marked: a 503 that says "reload"
    ],
)
def test_views_marked_repeatable_run_again_after_a_write(path: str, again: bool) -> None:
    from django.urls import resolve

    request = RequestFactory().post(path, b"{}", content_type="application/json")
    request.resolver_match = resolve(path)
    watch = retry._Watch()
    watch.may_have_committed = True
    assert retry._may_run_again(request, watch, retry._keep_body(request)) is again


@pytest.mark.django_db
def test_a_page_that_lost_its_connection_three_times_says_so_in_plain_words() -> None:
    page = retry._unavailable(RequestFactory().get("/sessions/1/"))
    assert page.status_code == 503
    assert page["Retry-After"] == "1"
    assert b"The database could not be reached just now" in page.content


# What the log says: one warning for a request run again, an error only for a failure ----


class Flaky:
    """The rest of the middleware chain, losing its connection `losses` times first: as
    Django does, each lost attempt is turned into a 500 (`got_request_exception` notes
    the lost connection on the request) and logged as an Internal Server Error."""

    def __init__(self, losses: int) -> None:
        self.losses = losses

    def __call__(self, request: Any) -> Any:
        from django.core.handlers.exception import response_for_exception
        from django.db import OperationalError

        if self.losses:
            self.losses -= 1
            try:
                raise OperationalError("server closed the connection unexpectedly")
            except OperationalError as exc:
                return response_for_exception(request, exc)
        return JsonResponse({"ok": True})


@pytest.fixture
def on_postgres(monkeypatch: pytest.MonkeyPatch) -> None:
    # The lost connection is PostgreSQL's; SQLite (venue mode) has none to lose.
    monkeypatch.setattr(connection, "vendor", "postgresql")


def records(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str, bool]]:
    return [(r.levelname, r.getMessage(), r.exc_info is not None) for r in caplog.records]


@pytest.mark.django_db
@pytest.mark.parametrize("losses", [1, 2])
def test_a_request_run_again_and_answered_is_one_warning_line_and_no_error(
    on_postgres: None, caplog: pytest.LogCaptureFixture, losses: int
) -> None:
    caplog.set_level(logging.INFO)
    middleware = retry.LostConnectionRetryMiddleware(Flaky(losses))
    response = middleware(RequestFactory().get("/api/sessions/1/"))
    assert response.status_code == 200
    assert records(caplog) == [
        (
            "WARNING",
            f"database connection lost on GET /api/sessions/1/ ({losses} "
            f"{'time' if losses == 1 else 'times'}); ran it again: 200",
            False,
        )
    ]


@pytest.mark.django_db
def test_a_request_that_lost_its_connection_every_time_is_one_error_with_its_traceback(
    on_postgres: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    middleware = retry.LostConnectionRetryMiddleware(Flaky(retry.ATTEMPTS))
    response = middleware(RequestFactory().get("/api/sessions/1/"))
    assert response.status_code == 503
    assert records(caplog) == [
        (
            "ERROR",
            "database connection lost on GET /api/sessions/1/ (3 times); "
            "answered 503 database_unavailable",
            True,
        )
    ]


@pytest.mark.django_db
def test_any_other_server_error_is_still_logged_with_its_traceback(
    on_postgres: None, caplog: pytest.LogCaptureFixture
) -> None:
    from django.core.handlers.exception import response_for_exception

    def broken(request: Any) -> Any:
        try:
            raise ValueError("a bug")
        except ValueError as exc:
            return response_for_exception(request, exc)

    response = retry.LostConnectionRetryMiddleware(broken)(RequestFactory().get("/api/x/"))
    assert response.status_code == 500
    assert [(r.levelname, r.exc_info is not None) for r in caplog.records] == [("ERROR", True)]
    assert "Internal Server Error: /api/x/" in caplog.records[0].getMessage()
