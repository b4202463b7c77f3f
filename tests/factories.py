"""factory_boy factories for every model of the project's apps.

Each factory builds a row that satisfies the model's constraints and stays inside one
club: a seating's player belongs to the session's club, a game's players sit at its table.
Rows that the services keep consistent with each other (a game's summary, a round's data)
are built as plain rows here; a test that needs the engine's verdict enters its rounds
through `scoring.services` instead. `tests/test_factories.py` checks that every model
has a factory and that each factory's row passes the model's own validation.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import date, timedelta
from functools import cache
from typing import Any

import factory
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.utils import timezone

from api.models import IdempotencyRecord
from play.models import LiveRound, SeatLink, TableDeadline
from ratings.models import Rating, RatingHistory
from scoring.models import Game, GamePlayer, PendingRound, Round, RoundChange
from tournaments.models import (
    AuditEntry,
    BigLoserAward,
    Club,
    ClubTableCard,
    DirectorCall,
    KeepApart,
    PayoutTable,
    Placing,
    Player,
    Registration,
    ScorerLink,
    Season,
    Seating,
    Session,
    SessionPlayer,
    SessionStanding,
    SitOut,
    Sitting,
    Table,
    TableCard,
)


@cache
def _hashed(password: str, hashers: tuple[str, ...]) -> str:
    return make_password(password)


def hashed(password: str) -> str:
    """`password` hashed once per run and hasher setting, not once per user: the
    production hasher takes a third of a second on purpose, and most tests make a user.
    Every user gets the same salt, which no test can tell; signing in still checks the
    password with the configured hasher."""
    return _hashed(password, tuple(settings.PASSWORD_HASHERS))


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests-only", transform=hashed)


class ClubFactory(factory.django.DjangoModelFactory[Club]):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class SeasonFactory(factory.django.DjangoModelFactory[Season]):
    class Meta:
        model = Season

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: str(2000 + n))
    starts_on = factory.LazyAttribute(lambda o: date(int(o.name), 1, 1))
    ends_on = factory.LazyAttribute(lambda o: date(int(o.name), 12, 31))


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class KeepApartFactory(factory.django.DjangoModelFactory[KeepApart]):
    """A pair kept apart: two players of one club, the one made first (smaller id) first."""

    class Meta:
        model = KeepApart

    club = factory.SubFactory(ClubFactory)
    first = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..club"))
    second = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..club"))


class BigLoserAwardFactory(factory.django.DjangoModelFactory[BigLoserAward]):
    class Meta:
        model = BigLoserAward

    season = factory.SubFactory(SeasonFactory)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..season.club"))
    note = "Most hooks of the season"


class SessionFactory(factory.django.DjangoModelFactory[Session]):
    class Meta:
        model = Session

    club = factory.SubFactory(ClubFactory)
    season = factory.SubFactory(SeasonFactory, club=factory.SelfAttribute("..club"))
    name = "Club night"
    date = factory.LazyAttribute(lambda o: o.season.starts_on)
    seed = 7


class SessionPlayerFactory(factory.django.DjangoModelFactory[SessionPlayer]):
    class Meta:
        model = SessionPlayer

    session = factory.SubFactory(SessionFactory)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..session.club"))
    checked_in = True


class RegistrationFactory(factory.django.DjangoModelFactory[Registration]):
    class Meta:
        model = Registration

    session = factory.SubFactory(SessionFactory, registration_open=True)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..session.club"))
    name = factory.LazyAttribute(lambda o: o.player.name)
    status = Registration.Status.REGISTERED
    number = factory.Sequence(lambda n: n + 1)
    token = factory.LazyFunction(lambda: secrets.token_urlsafe(24))


class SittingFactory(factory.django.DjangoModelFactory[Sitting]):
    class Meta:
        model = Sitting

    session = factory.SubFactory(SessionFactory, status=Session.Status.RUNNING)
    number = factory.Sequence(lambda n: n + 1)
    games_per_sitting = factory.LazyAttribute(lambda o: o.session.games_per_sitting)


class TableFactory(factory.django.DjangoModelFactory[Table]):
    class Meta:
        model = Table

    sitting = factory.SubFactory(SittingFactory)
    rank = factory.Sequence(lambda n: n + 1)


class DirectorCallFactory(factory.django.DjangoModelFactory[DirectorCall]):
    class Meta:
        model = DirectorCall

    table = factory.SubFactory(TableFactory)
    session = factory.SelfAttribute("table.sitting.session")
    reason = DirectorCall.Reason.QUESTION


class PayoutTableFactory(factory.django.DjangoModelFactory[PayoutTable]):
    class Meta:
        model = PayoutTable

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Payouts {n}")
    places = ["50", "30", "20"]


class SeatingFactory(factory.django.DjangoModelFactory[Seating]):
    class Meta:
        model = Seating

    table = factory.SubFactory(TableFactory)
    sitting = factory.SelfAttribute("table.sitting")
    player = factory.SubFactory(
        PlayerFactory, club=factory.SelfAttribute("..table.sitting.session.club")
    )
    seat = factory.Sequence(lambda n: n + 1)


class SitOutFactory(factory.django.DjangoModelFactory[SitOut]):
    class Meta:
        model = SitOut

    sitting = factory.SubFactory(SittingFactory)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..sitting.session.club"))


class ScorerLinkFactory(factory.django.DjangoModelFactory[ScorerLink]):
    class Meta:
        model = ScorerLink

    table = factory.SubFactory(TableFactory)
    token = factory.LazyFunction(lambda: secrets.token_urlsafe(24))


class TableCardFactory(factory.django.DjangoModelFactory[TableCard]):
    class Meta:
        model = TableCard

    session = factory.SubFactory(SessionFactory)
    number = factory.Sequence(lambda n: n + 1)
    token = factory.LazyFunction(lambda: secrets.token_urlsafe(9))


class ClubTableCardFactory(factory.django.DjangoModelFactory[ClubTableCard]):
    class Meta:
        model = ClubTableCard

    club = factory.SubFactory(ClubFactory)
    number = factory.Sequence(lambda n: n + 1)
    token = factory.LazyFunction(lambda: secrets.token_urlsafe(9))


class AuditEntryFactory(factory.django.DjangoModelFactory[AuditEntry]):
    class Meta:
        model = AuditEntry

    club = factory.SubFactory(ClubFactory)
    who_label = "system"
    action = "player.add"
    summary = factory.Sequence(lambda n: f"Added the player Player {n}")


class PlacingFactory(factory.django.DjangoModelFactory[Placing]):
    class Meta:
        model = Placing

    table = factory.SubFactory(TableFactory)
    sitting = factory.SelfAttribute("table.sitting")
    player = factory.SubFactory(
        PlayerFactory, club=factory.SelfAttribute("..table.sitting.session.club")
    )
    place = factory.Sequence(lambda n: n + 1)
    score = 0
    games_won = 0
    hooks = 0
    last_game_score = 0
    direction = Placing.Direction.STAY
    to_rank = factory.SelfAttribute("table.rank")
    reason = "Stays at the table."


class SessionStandingFactory(factory.django.DjangoModelFactory[SessionStanding]):
    class Meta:
        model = SessionStanding

    session = factory.SubFactory(SessionFactory, status=Session.Status.FINISHED)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..session.club"))
    position = factory.Sequence(lambda n: n + 1)
    points = 0
    games_played = 0
    games_won = 0
    hooks = 0


class GameFactory(factory.django.DjangoModelFactory[Game]):
    """A game with no round yet. `seated=N` (4 unless told) seats the first dealer and
    N - 1 more players of the club, so that the game is a valid record for the engine;
    `seated=0` leaves the game without players."""

    class Meta:
        model = Game
        skip_postgeneration_save = True

    table = factory.SubFactory(TableFactory)
    number = factory.Sequence(lambda n: n + 1)
    rules_id = factory.LazyAttribute(lambda o: o.table.sitting.session.rules_id)
    first_dealer = factory.SubFactory(
        PlayerFactory, club=factory.SelfAttribute("..table.sitting.session.club")
    )
    first_dealer_source = Game.DealerSource.ENTERED

    @factory.post_generation
    def seated(obj: Game, create: bool, extracted: int | None, **kwargs: Any) -> None:
        if not create:
            return
        count = 4 if extracted is None else extracted
        if count == 0:
            return
        club = obj.table.sitting.session.club
        players = [obj.first_dealer, *PlayerFactory.create_batch(count - 1, club=club)]
        for seat, player in enumerate(players, start=1):
            GamePlayerFactory(game=obj, player=player, seat=seat)


class GamePlayerFactory(factory.django.DjangoModelFactory[GamePlayer]):
    class Meta:
        model = GamePlayer

    game = factory.SubFactory(GameFactory, seated=0)
    player = factory.SubFactory(
        PlayerFactory, club=factory.SelfAttribute("..game.table.sitting.session.club")
    )
    seat = factory.Sequence(lambda n: n + 1)
    name = factory.LazyAttribute(lambda o: o.player.name)


class RoundFactory(factory.django.DjangoModelFactory[Round]):
    """A stored round as a plain row: nothing checks its data against the rules."""

    class Meta:
        model = Round

    game = factory.SubFactory(GameFactory)
    number = factory.Sequence(lambda n: n + 1)
    data = factory.LazyFunction(lambda: {"misdeal": True})


class RoundChangeFactory(factory.django.DjangoModelFactory[RoundChange]):
    class Meta:
        model = RoundChange

    game = factory.SubFactory(GameFactory)
    round_number = 1
    action = RoundChange.Action.ENTER
    after = factory.LazyFunction(lambda: {"misdeal": True})


class PendingRoundFactory(factory.django.DjangoModelFactory[PendingRound]):
    class Meta:
        model = PendingRound

    game = factory.SubFactory(GameFactory)
    number = 1
    data = factory.LazyFunction(lambda: {"misdeal": True})
    device = factory.Sequence(lambda n: f"browser:device-{n}")


class IdempotencyRecordFactory(factory.django.DjangoModelFactory[IdempotencyRecord]):
    class Meta:
        model = IdempotencyRecord

    key = factory.Sequence(lambda n: f"key-{n}")
    caller = factory.LazyFunction(lambda: f"user:{UserFactory.create().pk}")
    method = "POST"
    path = "/api/games/1/rounds/"
    fingerprint = hashlib.sha256(b"{}").hexdigest()
    status_code = 201
    body = factory.LazyFunction(dict)


class RatingFactory(factory.django.DjangoModelFactory[Rating]):
    """A newcomer's rating (openskill's defaults: mu 25, sigma 25/3, ordinal 0)."""

    class Meta:
        model = Rating

    player = factory.SubFactory(PlayerFactory)
    club = factory.SelfAttribute("player.club")
    rules_id = "huckley-buck"
    mu = 25.0
    sigma = 25.0 / 3
    ordinal = factory.LazyAttribute(lambda o: o.mu - 3 * o.sigma)
    games = 0


class RatingHistoryFactory(factory.django.DjangoModelFactory[RatingHistory]):
    """A player's rating after one game of a club."""

    class Meta:
        model = RatingHistory

    game = factory.SubFactory(GameFactory)
    player = factory.LazyAttribute(lambda o: o.game.game_players.first().player)
    club = factory.SelfAttribute("game.table.sitting.session.club")
    rules_id = factory.SelfAttribute("game.rules_id")
    order_key = factory.Sequence(lambda n: f"{n:012d}")
    rank = 1
    ordinal_before = 0.0
    mu = 27.0
    sigma = 8.0
    ordinal = factory.LazyAttribute(lambda o: o.mu - 3 * o.sigma)
    games = 1


class SeatLinkFactory(factory.django.DjangoModelFactory[SeatLink]):
    """A player's seat link for online play (play.models)."""

    class Meta:
        model = SeatLink

    session = factory.SubFactory(SessionFactory)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..session.club"))


def _dealt_round(game: Game) -> dict[str, Any]:
    """Round 1 of the game, dealt from the unshuffled pack (the engine's state)."""
    import engine
    from engine import online

    players = tuple(gp.name for gp in game.game_players.order_by("seat"))
    options = {n: o.default for n, o in engine.rules_info(game.rules_id).options.items()}
    start = online.RoundStart(
        rules_id=game.rules_id,
        players=players,
        dealer=players[0],
        number=1,
        options=options,
        scores=dict.fromkeys(players, 0),
    )
    return online.deal(start, online.pack(start)).to_json()


class LiveRoundFactory(factory.django.DjangoModelFactory[LiveRound]):
    """The round being played at an online table: round 1 of a game, just dealt."""

    class Meta:
        model = LiveRound

    game = factory.SubFactory(GameFactory, table__sitting__session__rules_id="huckley-buck")
    number = 1
    state = factory.LazyAttribute(lambda o: _dealt_round(o.game))
    move = 1
    history = factory.LazyFunction(list)
    turn_started_at = factory.LazyFunction(timezone.now)


class TableDeadlineFactory(factory.django.DjangoModelFactory[TableDeadline]):
    """An online table's one deadline: a person to act, due in a minute."""

    class Meta:
        model = TableDeadline

    table = factory.SubFactory(TableFactory, online=True)
    due_at = factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=1))
    phase = "to_act"
