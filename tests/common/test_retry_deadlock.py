"""A request whose transaction PostgreSQL rolled back to break a deadlock (or could not
serialize) runs again and is answered as if once; it never reaches the user as a 500.

The view below raises the real SQLSTATE from PostgreSQL (`RAISE ... USING ERRCODE`) inside
its transaction, after a write, the first `fails` times it runs.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from tournaments.models import Club

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

runs: dict[str, int] = {}


def write_then_fail(request: HttpRequest, state: str, fails: int) -> HttpResponse:
    runs[state] = runs.get(state, 0) + 1
    with transaction.atomic():
        Club.objects.create(name=f"Club {runs[state]}", slug=f"club-{state}-{runs[state]}")
        if runs[state] <= fails:
            with connection.cursor() as cursor:
                cursor.execute(
                    f"DO $$ BEGIN RAISE EXCEPTION 'raced' USING ERRCODE = '{state}'; END $$"
                )
    return HttpResponse("stored")


urlpatterns = [path("write/<str:state>/<int:fails>/", write_then_fail)]


@pytest.fixture(autouse=True)
def _fresh_runs() -> None:
    runs.clear()


@pytest.mark.urls(__name__)
@pytest.mark.parametrize("state", ["40P01", "40001"])  # a deadlock, a serialization failure
def test_a_write_rolled_back_by_a_deadlock_runs_again_and_is_stored_once(state: str) -> None:
    response = Client(raise_request_exception=False).post(f"/write/{state}/1/")
    assert (response.status_code, response.content) == (200, b"stored")
    assert runs[state] == 2
    assert Club.objects.count() == 1


@pytest.mark.urls(__name__)
def test_a_write_that_deadlocks_every_time_is_a_503_in_plain_words(caplog: Any) -> None:
    response = Client(raise_request_exception=False).post("/write/40P01/9/")
    assert response.status_code == 503
    assert b"Too many changes arrived at once" in response.content
    assert runs["40P01"] == 3
    assert not Club.objects.exists()
