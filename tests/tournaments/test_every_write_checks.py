"""Every write service refuses a caller who may not make it, before it writes anything.

The services are found by walking their modules (`MODULES` of write_services.py): a
public function defined there that takes its caller (`user` or `actor`) is a write
service and must have a line in `CALLS`, which builds valid arguments for it in a real
club (write_world.py); every other public function must be named in `TAKES_NO_CALLER`,
with the reason. So a new service fails here the day it is written, until it says how
it is called.

Each service is called as four callers who do not direct the club (nobody at all, an
anonymous visitor, a signed-in account with no role, a director of another club) and
must raise `PermissionDenied` without sending one INSERT, UPDATE or DELETE to the
database; the rows are compared as well. Then the club's director makes the same call,
which must write: so a refusal above cannot be a bad argument passing as "refused".
The services with a rule of their own (open to any account, to the public, to whoever
knows the door code, or a director-only action that writes nothing) are in
test_every_write_own_rules.py.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.snapshots import changed_tables, db_snapshot
from tests.tournaments.write_services import (
    CALLS,
    DIRECTOR_READS,
    KNOWS_THE_DOOR_CODE,
    MODULES,
    OWN_RULE,
    PUBLIC_RULE,
    READ_MODULES,
    SERVICE_PACKAGES,
    TAKES_NO_CALLER,
    WRITES,
    public_functions,
)
from tests.tournaments.write_world import STRANGERS, Function, World, call, caller_parameter, label

pytestmark = pytest.mark.django_db


def test_every_module_with_a_service_that_takes_a_caller_is_walked() -> None:
    walked = {module.__name__ for module in MODULES}
    unwalked = set()
    for package_name in SERVICE_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            if ".migrations" in info.name or info.name in walked or info.name in READ_MODULES:
                continue
            module = importlib.import_module(info.name)
            takes_a_caller = [
                name
                for name, function in inspect.getmembers(module, inspect.isfunction)
                if function.__module__ == module.__name__
                and not name.startswith("_")
                and caller_parameter(function) is not None
            ]
            if takes_a_caller:
                unwalked.add(info.name)
    assert unwalked == set()


def test_every_write_service_of_the_modules_has_its_call_in_the_table() -> None:
    found = {label(f) for f in public_functions() if caller_parameter(f) is not None}
    assert found == {
        label(f) for f in [*CALLS, *OWN_RULE, *DIRECTOR_READS, *PUBLIC_RULE, *KNOWS_THE_DOOR_CODE]
    }


def test_every_other_public_function_is_named_with_why_it_takes_no_caller() -> None:
    found = {label(f) for f in public_functions() if caller_parameter(f) is None}
    assert found == {label(f) for f in TAKES_NO_CALLER}


def test_every_write_service_must_be_told_who_calls_it() -> None:
    """No default: leaving the caller out cannot quietly mean "anyone" or "the system"."""
    for function in [*CALLS, *OWN_RULE, *DIRECTOR_READS, *PUBLIC_RULE, *KNOWS_THE_DOOR_CODE]:
        parameter = inspect.signature(function).parameters[caller_parameter(function) or ""]
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, label(function)
        assert parameter.default is inspect.Parameter.empty, label(function)


@pytest.mark.parametrize("function", WRITES)
def test_a_caller_who_does_not_direct_the_club_is_refused_before_anything_is_written(
    world: World, function: Function
) -> None:
    arguments = CALLS[function](world)
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


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in CALLS])
def test_the_clubs_director_makes_the_same_call_and_it_writes(
    world: World, function: Function
) -> None:
    arguments = CALLS[function](world)
    before = db_snapshot()
    call(function, arguments, world.director)
    assert changed_tables(before) != []
