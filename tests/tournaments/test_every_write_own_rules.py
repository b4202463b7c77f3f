"""The write services whose rule is not "a director of the club" each refuse whom their
rule excludes, before they write anything: a director-only action that writes nothing,
a service open to any account, one open to the public, one whose rule is the session's
door code. The services and their arguments are in write_services.py; the director-only
writes are in test_every_write_checks.py.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.errors import UserError
from tests.snapshots import changed_tables, db_snapshot
from tests.tournaments.write_services import (
    DIRECTOR_READS,
    KNOWS_THE_DOOR_CODE,
    OWN_RULE,
    PUBLIC_RULE,
)
from tests.tournaments.write_world import (
    STRANGERS,
    Function,
    World,
    anonymous,
    call,
    label,
    nobody,
    signed_in_without_a_role,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in DIRECTOR_READS])
def test_a_director_only_action_that_writes_nothing_refuses_strangers(
    world: World, function: Function
) -> None:
    arguments = DIRECTOR_READS[function](world)
    for stranger in STRANGERS:
        with pytest.raises(PermissionDenied):
            call(function, arguments, stranger(world))
    call(function, arguments, world.director)


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in OWN_RULE])
def test_a_service_open_to_any_account_refuses_nobody_and_the_anonymous_before_writing(
    world: World, function: Function
) -> None:
    arguments = OWN_RULE[function](world)
    for stranger in (nobody, anonymous):
        before = db_snapshot()
        with pytest.raises((PermissionDenied, UserError)):
            call(function, arguments, stranger(world))
        assert changed_tables(before) == [], stranger.__name__
    call(function, arguments, signed_in_without_a_role(world))  # the arguments are valid


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in PUBLIC_RULE])
def test_a_public_service_refuses_strangers_its_rule_excludes_before_writing(
    world: World, function: Function
) -> None:
    refused, allowed = PUBLIC_RULE[function]
    arguments = refused(world)
    for stranger in STRANGERS:
        caller = stranger(world)
        before = db_snapshot()
        with CaptureQueriesContext(connection) as queries, pytest.raises(PermissionDenied):
            call(function, arguments, caller)
        writes = [
            q["sql"]
            for q in queries.captured_queries
            if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        ]
        assert writes == [], stranger.__name__
        assert changed_tables(before) == [], stranger.__name__
    arguments = allowed(world)
    before = db_snapshot()
    call(function, arguments, anonymous(world))
    assert changed_tables(before) != []


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in KNOWS_THE_DOOR_CODE])
def test_a_service_whose_rule_is_the_door_code_refuses_everyone_without_it(
    world: World, function: Function
) -> None:
    arguments = KNOWS_THE_DOOR_CODE[function](world)
    wrong = {**arguments, "door_code": "x" + arguments["door_code"]}
    callers = [caller(world) for caller in STRANGERS] + [world.director]
    for n, caller in enumerate(callers):
        before = db_snapshot()
        with CaptureQueriesContext(connection) as queries, pytest.raises(UserError):
            function(**wrong, client=f"wrong-{n}", user=caller)
        writes = [
            q["sql"]
            for q in queries.captured_queries
            if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        ]
        assert writes == [], n
        assert changed_tables(before) == [], n
    before = db_snapshot()
    function(**arguments, client="right", user=anonymous(world))
    assert changed_tables(before) != []
