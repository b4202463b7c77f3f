"""Which sitting of a session is the current one: the latest by number (or, once the
session is finished, its last one). One rule, read by the session's reads
(`workflow.session.selectors`, which hands it on to pages, the API and services) and by
the table cards (`workflow.tables.card_selectors`), which sit beside the session's layer
and so cannot ask it."""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import Session, Sitting


def current_sittings(session: Session | int) -> QuerySet[Sitting]:
    """`current_sitting` as a query of one row (or none), to filter by inside another
    query: `sitting__in=current_sittings(session)` (the session or its id). From the
    session itself, the sitting read carries it (`sitting.session` reads nothing more)."""
    rows = (
        session.sittings
        if isinstance(session, Session)
        else Sitting.objects.filter(session_id=session)
    )
    return rows.order_by("-number")[:1]


def current_sitting(session: Session) -> Sitting | None:
    """The sitting being played (or, once the session is finished, its last one): the
    latest by number. None before the session starts."""
    return current_sittings(session).first()
