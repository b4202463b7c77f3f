"""Reads of the audit log (what the directors did): the club's entries, newest first,
with the filters the club's page and the API share, and the choices the page offers.

Dates are the club's: "from 3 March" starts at midnight of 3 March in the club's time
zone (`Club.zone()`), and "to 5 March" takes in the whole of 5 March.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db.models import QuerySet

from tournaments.models import AuditEntry, Club, Session


@dataclass(frozen=True)
class AuditFilter:
    """What to keep of a club's log; each empty field keeps everything."""

    session_id: int | None = None
    # An action's slug (`movement.undo`), or its subject alone (`movement`) for all of them.
    action: str = ""
    # Who made the write, as the entry names them (a username, or "system").
    who: str = ""
    since: date | None = None
    until: date | None = None


def club_audit(club: Club, filters: AuditFilter = AuditFilter()) -> QuerySet[AuditEntry]:
    """The club's audit entries that pass `filters`, newest first, each with its session."""
    entries = AuditEntry.objects.filter(club=club).select_related("session")
    if filters.session_id is not None:
        entries = entries.filter(session_id=filters.session_id)
    if filters.action:
        if "." in filters.action:
            entries = entries.filter(action=filters.action)
        else:
            entries = entries.filter(action__startswith=f"{filters.action}.")
    if filters.who:
        entries = entries.filter(who_label=filters.who)
    zone = club.zone()
    if filters.since is not None:
        entries = entries.filter(at__gte=datetime.combine(filters.since, time.min, tzinfo=zone))
    if filters.until is not None:
        end = datetime.combine(filters.until + timedelta(days=1), time.min, tzinfo=zone)
        entries = entries.filter(at__lt=end)
    return entries.order_by("-at", "-pk")


@dataclass(frozen=True)
class AuditChoices:
    """What the club's filters offer: its sessions, and the actions and people its log
    names."""

    sessions: list[tuple[int, str]]
    actions: list[str]
    who: list[str]


def audit_choices(club: Club) -> AuditChoices:
    """Three queries, whatever the length of the log."""
    sessions = [
        (pk, f"{name} ({day:%Y-%m-%d})")
        for pk, name, day in Session.objects.filter(club=club)
        .order_by("-date", "-pk")
        .values_list("pk", "name", "date")
    ]
    log = AuditEntry.objects.filter(club=club).order_by()
    actions = sorted(log.values_list("action", flat=True).distinct())
    who = sorted(log.values_list("who_label", flat=True).distinct(), key=str.casefold)
    return AuditChoices(sessions=sessions, actions=actions, who=who)
