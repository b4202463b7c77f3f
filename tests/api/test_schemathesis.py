"""Schemathesis against the API in-process (WSGI), bounded: for every operation of
/api/schema/, generated requests, valid and invalid, sent as a director with the ids of
a running session, so that the authenticated paths run too. No answer may be a 5xx, and
every answer must be one the schema documents, with its content type and body shape.

(Schemathesis' own pytest plugin does not run under this pytest; its Hypothesis
strategies are used directly instead, one test per operation.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from huckley.wsgi import application
from scoring import services as scoring
from scoring.models import Game
from tests.api.conftest import first_round
from tournaments import table_links
from tournaments.models import Season, Session

MAX_EXAMPLES = 15
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

SCHEMA = schemathesis.openapi.from_wsgi("/api/schema/", application)
OPERATIONS = {op.label: op for op in (result.ok() for result in SCHEMA.get_all_operations())}


@pytest.fixture
def world(make_session: Callable[..., Session], director: Any, season: Season) -> dict[str, Any]:
    """A running public session with a round entered and a scorer link, and the
    director's token; the path parameters every operation gets."""
    from rest_framework.authtoken.models import Token

    session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    data = first_round(game)
    del data["number"]
    scoring.round_submit(game_id=game.pk, number=1, data=data, actor=director)
    link = table_links.scorer_link_create(table_id=game.table_id, user=director)
    token, _ = Token.objects.get_or_create(user=director)
    return {
        "director": {"Authorization": f"Token {token.key}"},
        "scorer": {"X-Scorer-Token": link.token},
        "anonymous": {},
        "path": {
            "slug": "tuesday",
            "season_id": season.pk,
            "session_id": session.pk,
            "sitting_id": game.table.sitting_id,
            "table_id": game.table_id,
            "game_id": game.pk,
            "number": 1,
            "rules_id": "huckley-buck",
        },
    }


@pytest.fixture(autouse=True)
def _one_connection() -> Iterator[None]:
    """The real WSGI handler closes the database connection after each request, as it
    should in production; here that connection holds the test's transaction (as in
    Django's test client, which does the same)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def test_every_operation_is_covered() -> None:
    assert len(OPERATIONS) >= 38


@pytest.mark.django_db
@pytest.mark.parametrize("caller", ["director", "scorer", "anonymous"])
@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_the_api_answers_as_its_schema_says(label: str, caller: str, world: dict[str, Any]) -> None:
    operation = OPERATIONS[label]
    wanted = {p.name for p in operation.path_parameters}
    path = {name: value for name, value in world["path"].items() if name in wanted}
    if caller == "anonymous":
        path = {}  # generated ids: unknown ones must be a documented 404
    strategy = st.one_of(
        operation.as_strategy(mode, path_parameters=path or None)
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    )

    @given(case=strategy)
    @settings(
        max_examples=MAX_EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: schemathesis.Case) -> None:
        case.call_and_validate(headers=world[caller], checks=CHECKS)

    run()
