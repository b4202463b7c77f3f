"""factory_boy factories for the tournament models."""

from __future__ import annotations

from datetime import date

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Club, Player, Season, Session


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests-only")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: str(2000 + n))
    starts_on = factory.LazyAttribute(lambda o: date(int(o.name), 1, 1))
    ends_on = factory.LazyAttribute(lambda o: date(int(o.name), 12, 31))


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class SessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Session

    club = factory.SubFactory(ClubFactory)
    season = factory.SubFactory(SeasonFactory, club=factory.SelfAttribute("..club"))
    name = "Club night"
    date = factory.LazyAttribute(lambda o: o.season.starts_on)
    seed = 7
