"""The round's end off the card's path (issue 31; docs/architecture.md, "The phases of a
table"): the last card is written and pushed as any other card is, and the round is
stored just after by the scheduler, exactly once, even when the process that took the
card dies in between. On PostgreSQL and Redis with a real ASGI node, killed."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest

import engine
from play import scheduler, selectors
from play.models import TableDeadline
from scoring.models import Game, Round
from scoring.records import game_record
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body, up_to_last_card
from tests.play.sockets import a_view, socket_to
from tests.servers import gunicorn_nodes, needs_gunicorn, stop_group

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_the_round_is_stored_once_after_the_node_that_took_its_last_card_dies(
    tmp_path: Path, online_session: Any, director: Any
) -> None:
    needs_gunicorn()
    session = online_session(4)
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    token, view = up_to_last_card(tokens)
    assert game.rounds.count() == 0

    # The node that takes the last card runs no scheduler, and dies once it is pushed.
    with gunicorn_nodes(1, tmp_path, asgi=True, HUCKLEY_SCHEDULER="false") as (node,):
        with socket_to(node, f"/ws/play/{token}/") as socket:
            assert a_view(socket)["move"] == view["move"]
            socket.send(json.dumps({"type": "move", **choice_body(view, view["legal"][0])}))
            last = a_view(socket)
        assert (last["round"], last["phase"], last["to_act"]) == (1, "end", None)
        stop_group(node.process, timeout=1, sig=signal.SIGKILL)

    game.refresh_from_db()
    assert game.rounds.count() == 0  # not stored: the card's path stops at the push
    assert TableDeadline.objects.get(table_id=game.table_id).phase == "storing"

    # Any scheduler finds the row and stores the round, once however often it runs.
    assert scheduler.run_due() == 1
    assert scheduler.run_due() == 0
    scheduler.run_now([game.table_id])
    game.refresh_from_db()
    assert list(Round.objects.filter(game=game).values_list("number", flat=True)) == [1]
    assert engine.check(game_record(game))["valid"]
    after = selectors.seat_view(token)
    assert (after["round"], after["status"]) == (2, "playing")
