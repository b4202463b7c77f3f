"""Every model of the project has a factory, and each factory builds a row the model
itself accepts, so that tests can stand up any state without fixture dumps."""

from __future__ import annotations

import inspect
from typing import Any

import factory
import pytest
from django.apps import apps
from django.db import models

import engine
from scoring.records import game_record
from tests import factories
from tests.snapshots import PROJECT_APPS

pytestmark = pytest.mark.django_db

Factory = type[factory.django.DjangoModelFactory[Any]]


def factory_classes() -> dict[type[models.Model], Factory]:
    found: dict[type[models.Model], Factory] = {}
    for _, cls in inspect.getmembers(factories, inspect.isclass):
        mine = cls.__module__ == factories.__name__
        if mine and issubclass(cls, factory.django.DjangoModelFactory):
            found[cls._meta.model] = cls
    return found


def test_every_model_of_the_project_has_a_factory() -> None:
    models_ = {m for label in PROJECT_APPS for m in apps.get_app_config(label).get_models()}
    missing = sorted(m.__name__ for m in models_ - set(factory_classes()))
    assert missing == []


def model_name(model: type[models.Model]) -> str:
    return model.__name__


FACTORY_MODELS: list[type[models.Model]] = sorted(factory_classes().keys(), key=model_name)


@pytest.mark.parametrize("model", FACTORY_MODELS, ids=model_name)
def test_each_factory_builds_a_row_its_model_accepts(model: type[models.Model]) -> None:
    made = factory_classes()[model].create_batch(2)
    for obj in made:
        # A nullable field left empty is how the services write it too (no user, say).
        empty = [f.name for f in obj._meta.fields if f.null and getattr(obj, f.attname) is None]
        obj.full_clean(exclude=empty)
    assert model._default_manager.filter(pk__in=[o.pk for o in made]).count() == 2


def test_a_factory_game_is_a_valid_record_for_the_engine() -> None:
    game = factories.GameFactory.create(table__sitting__session__rules_id="huckley-buck")
    record = game_record(game)
    assert len(record["players"]) == 4
    assert record["first_dealer"] in record["players"]
    assert engine.check(record)["valid"] is True


def test_a_seating_stays_inside_the_sessions_club() -> None:
    seating = factories.SeatingFactory.create()
    assert seating.player.club_id == seating.sitting.session.club_id
    assert seating.table.sitting_id == seating.sitting_id
