"""The online session of the director's page tests: a started session of `make_session`
with the session and every table online."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.play.helpers import settle
from tournaments.models import Session, Table


def online_session(make_session: Callable[..., Session], players: int = 8, **kw: Any) -> Session:
    session = make_session(players, **kw)
    Session.objects.filter(pk=session.pk).update(online=True)
    Table.objects.filter(sitting__session=session).update(online=True)
    settle(session.pk)  # the tables switched online are dealt, as the switch's commit would
    session.refresh_from_db()
    return session
