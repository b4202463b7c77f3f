"""Model instances from SQL written once (`common.rows`): the instance the ORM makes,
field by field, on SQLite and on PostgreSQL (dates, times with their zone, JSON,
booleans, empty values), several models read from one row, and the rows written back
(an update, an insert, a delete) as the ORM writes them."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Model
from django.db.models.signals import post_save
from django.utils import timezone

from common import rows
from play import services as play_services
from play.models import LiveRound, SeatLink
from scoring.models import Game, GamePlayer, PendingRound, Round, RoundChange
from tests.play.conftest import online_session  # noqa: F401  # the fixture
from tests.play.helpers import choice_body, up_to_last_card
from tournaments.models import Player, Seating, Session, Sitting, Table

pytestmark = pytest.mark.django_db

MODELS: list[type[Model]] = [
    Session,
    Sitting,
    Table,
    Game,
    GamePlayer,
    Player,
    Seating,
    Round,
    LiveRound,
    SeatLink,
]


def values(instance: Model) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def played(online_session: Any, director: Any) -> Session:  # noqa: F811
    """A started online session whose table has stored a round, one player gone."""
    session: Session = online_session(4)
    tokens = {
        row["player"]: row["token"]
        for row in play_services.seat_links_ensure(session_id=session.pk, user=director)
    }
    token, view = up_to_last_card(tokens)
    body = choice_body(view, view["legal"][0])
    play_services.move_make(token=token, move=body.pop("move"), action=body)
    assert Round.objects.filter(game__table__sitting__session=session).exists()
    SeatLink.objects.filter(token=token).update(away_since=timezone.now())
    return session


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_an_instance_is_the_one_the_orm_makes(played: Session, model: type[Model]) -> None:
    table = model._meta.db_table
    stored = list(model.objects.all())
    assert stored, f"no {model.__name__} to read"
    for orm in stored:
        (row,) = rows.fetch(
            f"SELECT {rows.columns(model, 'x')} FROM {table} x WHERE x.id = %s", [orm.pk]
        )
        built = rows.build(model, row)
        assert type(built) is model
        assert values(built) == values(orm)
        assert (built._state.adding, built._state.db) == (False, "default")
        # Saved again, it writes what it read: nothing changes.
        built.save()
        orm.refresh_from_db()
        assert values(orm) == values(built)


def test_several_models_from_one_row(played: Session) -> None:
    seating = Seating.objects.select_related("player", "table").first()
    assert seating is not None
    (row,) = rows.fetch(
        f"SELECT {rows.columns(Seating, 's')}, {rows.columns(Player, 'p')},"
        f" {rows.columns(Table, 't')} FROM {Seating._meta.db_table} s"
        f" JOIN {Player._meta.db_table} p ON p.id = s.player_id"
        f" JOIN {Table._meta.db_table} t ON t.id = s.table_id WHERE s.id = %s",
        [seating.pk],
    )
    assert len(row) == rows.width(Seating) + rows.width(Player) + rows.width(Table)
    assert values(rows.build(Seating, row)) == values(seating)
    assert values(rows.build(Player, row, rows.width(Seating))) == values(seating.player)
    at = rows.width(Seating) + rows.width(Player)
    assert values(rows.build(Table, row, at)) == values(seating.table)


def test_an_update_writes_what_the_orm_would_and_stamps_auto_now(played: Session) -> None:
    """`rows.update` against `save(update_fields=...)`: the same fields of the same row
    changed the same way read back the same, JSON and times included, and only those."""
    live = LiveRound.objects.get()
    before = values(live)
    live.move += 7
    live.state = {**live.state, "mark": ["ü", 1.5, None]}
    live.history = [*live.history, {"move": 1, "at": "now"}]
    live.turn_started_at = timezone.now()
    live.number += 1  # not among the fields written
    rows.update(live, ["move", "state", "history", "turn_started_at", "updated_at"])

    stored = LiveRound.objects.get()
    assert stored.updated_at > before["updated_at"]
    assert values(stored) == {**values(live), "number": before["number"]}

    game = Game.objects.get(table__sitting__session=played, number=1)
    game.round_count, game.status = 9, Game.Status.FINISHED
    game.finished_at = timezone.now()
    rows.update(game, ["round_count", "status", "finished_at"])
    assert values(Game.objects.get(pk=game.pk)) == values(game)


def test_an_update_of_a_model_with_receivers_goes_through_django(
    played: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model a `post_save` receiver listens to (the session: its pages' cache) is
    saved by Django, so that its receivers run."""
    heard: list[tuple[Any, Any]] = []

    def receiver(sender: Any, instance: Any, update_fields: Any, **kwargs: Any) -> None:
        heard.append((instance.pk, update_fields))

    post_save.connect(receiver, sender=Session, dispatch_uid="test-rows-update")
    try:
        played.name = "Renamed"
        rows.update(played, ["name"])
    finally:
        post_save.disconnect(dispatch_uid="test-rows-update", sender=Session)
    assert heard == [(played.pk, frozenset({"name"}))]
    assert Session.objects.get(pk=played.pk).name == "Renamed"


def test_an_update_of_a_row_that_is_gone_is_an_error(played: Session) -> None:
    live = LiveRound.objects.get()
    LiveRound.objects.filter(pk=live.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        rows.update(live, ["move"])


def test_an_insert_writes_what_create_would(played: Session, director: Any) -> None:
    """`rows.insert` against `objects.create`: the same row read back, JSON, nulls and
    keys included, the times stamped, the key read back, the instance saved."""
    game = Game.objects.get(table__sitting__session=played, number=1)
    data = {"mark": ["ü", 1.5, None], "nested": {"a": [1, 2]}}
    started = timezone.now()
    made = Round.objects.create(
        game=game, number=7, data=data, entered_by=director, entry_key="orm"
    )
    mine = Round(game=game, number=8, data=data, entered_by=director, entry_key="rows")
    rows.insert(mine)
    assert mine.pk is not None
    assert mine.pk != made.pk
    assert (mine._state.adding, mine._state.db) == (False, "default")
    assert mine.entered_at >= started
    assert mine.updated_at >= started
    stored = Round.objects.get(pk=mine.pk)
    assert values(stored) == values(mine)
    differ = {"id", "number", "entry_key", "entered_at", "updated_at"}
    assert {k: v for k, v in values(stored).items() if k not in differ} == {
        k: v for k, v in values(made).items() if k not in differ
    }

    change = RoundChange(
        game=game, round_number=8, action=RoundChange.Action.ENTER, after=data, note="n"
    )
    rows.insert(change)
    stored_change = RoundChange.objects.get(pk=change.pk)
    assert values(stored_change) == values(change)
    assert (stored_change.before, stored_change.user_id, stored_change.scorer_link_id) == (
        None,
        None,
        None,
    )


def test_an_insert_that_breaks_a_constraint_is_the_databases_error(played: Session) -> None:
    taken = Round.objects.filter(game__table__sitting__session=played).first()
    assert taken is not None
    again = Round(game_id=taken.game_id, number=taken.number, data={})
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert(again)
    assert Round.objects.filter(game_id=taken.game_id, number=taken.number).count() == 1


def test_an_insert_of_a_model_with_receivers_goes_through_django(played: Session) -> None:
    heard: list[tuple[Any, bool]] = []

    def receiver(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
        heard.append((instance.pk, created))

    game = Game.objects.get(table__sitting__session=played, number=1)
    post_save.connect(receiver, sender=Round, dispatch_uid="test-rows-insert")
    try:
        made = Round(game=game, number=9, data={})
        rows.insert(made)
    finally:
        post_save.disconnect(dispatch_uid="test-rows-insert", sender=Round)
    assert heard == [(made.pk, True)]


def test_a_delete_takes_the_rows_named_and_only_them(played: Session, director: Any) -> None:
    game = Game.objects.get(table__sitting__session=played, number=1)
    for number, device in ((4, "a"), (4, "b"), (5, "a")):
        PendingRound.objects.create(game=game, number=number, data={}, device=device)
    assert rows.delete(PendingRound, game_id=game.pk, number=4) == 2
    assert list(PendingRound.objects.values_list("number", "device")) == [(5, "a")]
    assert rows.delete(PendingRound, game_id=game.pk, number=4) == 0


def test_a_delete_of_rows_others_refer_to_goes_through_django(played: Session) -> None:
    """A game's rounds refer to it: Django's delete takes them with it."""
    game = Game.objects.get(table__sitting__session=played, number=1)
    assert game.rounds.exists()
    LiveRound.objects.filter(game=game).delete()
    assert rows.delete(Game, id=game.pk) == 1
    assert not Round.objects.filter(game_id=game.pk).exists()
