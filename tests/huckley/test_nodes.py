"""Two web nodes on one PostgreSQL and one Redis (docs/operations.md, Several machines):
what one node writes, the other serves at once, and the locks that guard a movement and a
round are the database's, so two nodes cannot both accept the same one."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from rest_framework.authtoken.models import Token

from scoring.models import Game, Round
from tests.api.conftest import first_round
from tests.servers import Answer, Node, gunicorn_nodes, needs_gunicorn, server_errors
from tournaments.models import Seating, Session, Sitting
from workflow.session.simulation import play_sitting
from workflow.tables import links as table_links

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def at_once(calls: list[Callable[[], Answer]]) -> list[Answer]:
    """Each call on its own thread, all released together."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait(timeout=30)
        try:
            answers[i] = calls[i]()
        except BaseException as exc:  # reported on the test's thread
            answers[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert all(isinstance(a, Answer) for a in answers), answers
    return answers


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[list[Node]]:
    needs_gunicorn()
    with gunicorn_nodes(2, tmp_path) as started:
        yield started
    for node in started:
        assert not server_errors(node), server_errors(node)


@pytest.fixture
def played(make_session: Callable[..., Session], director: Any) -> Session:
    """Sitting 1 of 8 players played to the end: the movement is due."""
    session = make_session(8)
    play_sitting(session.sittings.get(number=1), seed=5)
    return session


def test_a_movement_confirmed_on_one_node_is_read_at_once_on_the_other(
    nodes: list[Node], played: Session, director: Any
) -> None:
    token = Token.objects.create(user=director).key
    for node in nodes:
        node.headers["Authorization"] = f"Token {token}"
        # Both nodes have served the session (and cached its pages) before the movement.
        assert node.get(f"/api/sessions/{played.pk}/").json()["current_sitting"]["number"] == 1
        assert node.get(f"/sessions/{played.pk}/").status == 200
    url = f"/api/sessions/{played.pk}/movement/"

    # The same movement confirmed on both nodes at the same moment: one wins.
    answers = at_once([lambda n=n: n.post(url, {"sitting": 1}) for n in nodes])
    assert sorted(a.status for a in answers) == [201, 409]
    winner = next(i for i, a in enumerate(answers) if a.status == 201)
    loser = answers[1 - winner].json()
    assert loser["code"] == "movement_already_confirmed"
    assert Sitting.objects.filter(session=played).count() == 2

    # The other node serves the new seats at once, with no wait and no stale cache.
    other = nodes[1 - winner]
    moved = answers[winner].json()
    assert moved["number"] == 2
    read = other.get(f"/api/sittings/{moved['id']}/").json()
    assert read["tables"] == moved["tables"]
    assert other.get(f"/api/sessions/{played.pk}/").json()["current_sitting"]["number"] == 2
    seatings = Seating.objects.filter(sitting__number=2, sitting__session=played)
    for seating in seatings.select_related("player", "table"):
        query = urlencode({"name": seating.player.name})
        page = other.get(f"/sessions/{played.pk}/?{query}").body.decode()
        assert f"table <strong>{seating.table.rank}</strong>" in page, seating.player.name
        assert f"seat <strong>{seating.seat}</strong>" in page, seating.player.name


def test_two_nodes_cannot_both_accept_a_round(
    nodes: list[Node], make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8)
    for attempt, rank in enumerate((1, 2)):
        game = Game.objects.get(table__sitting__session=session, table__rank=rank, number=1)
        link = table_links.scorer_link_create(table_id=game.table_id, user=director)
        players = [gp.name for gp in game.game_players.order_by("seat")]
        # Different numbers for round 1 from a scorer on each node, at the same moment.
        rounds = [first_round(game, taker=players[0]), first_round(game, taker=players[1])]
        url = f"/api/games/{game.pk}/rounds/"
        headers = {"X-Scorer-Token": link.token}
        answers = at_once(
            [
                lambda n=n, r=r, u=url, h=headers: n.post(u, r, headers=h)  # type: ignore[misc]
                for n, r in zip(nodes, rounds, strict=True)
            ]
        )
        assert sorted(a.status for a in answers) == [201, 409], (attempt, answers)
        refused = next(a for a in answers if a.status == 409).json()
        assert refused["code"] == "round_number_taken"
        assert refused["game"]["round_count"] == 1
        stored = Round.objects.get(game=game)
        won = next(r for r, a in zip(rounds, answers, strict=True) if a.status == 201)
        assert stored.data["tricks"] == won["tricks"]
