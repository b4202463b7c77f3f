"""What the directors did: the one function that records a director's write.

Every director write service calls `record` inside its own transaction, after its change
and before it returns: a write that is refused records nothing (the refusal comes first),
and an entry never outlives a change that was rolled back (docs/tournament.md, "What the
directors did"). It lives in the core layer so that both scoring (a director's correction
or restore) and the workflow can call it.
`tests/tournaments/test_every_write_is_audited.py` holds every write service to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from tournaments.models import AuditEntry, Club, Session
from tournaments.permissions import Caller, as_actor

#: What the machine's entries name as who did it (commands, tasks, the simulation).
SYSTEM_LABEL = "system"
SUMMARY_MAX = AuditEntry._meta.get_field("summary").max_length or 500


def who_label(who: Caller) -> str:
    """The name an entry keeps of who made the write: the account's, or "system"."""
    actor = as_actor(who)
    if actor.is_system:
        return SYSTEM_LABEL
    account = actor.account
    return account.get_username() if account is not None else "anonymous"


def record(
    who: Caller,
    *,
    club: Club | int,
    session: Session | int | None = None,
    action: str,
    summary: str,
    details: Mapping[str, Any] | None = None,
) -> AuditEntry:
    """Keep that `who` did `action` to `club` (and `session`): `summary` in plain words,
    `details` what changed (before and after for settings; ids and names otherwise).

    Must be called inside the write's transaction: outside one, the entry could be kept
    for a change that then failed, so it refuses to."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("tournaments.audit.record runs inside the write's transaction.")
    if not summary.strip() or not action:
        raise ValueError("An audit entry needs an action and a summary.")
    if len(summary) > SUMMARY_MAX:
        summary = summary[: SUMMARY_MAX - 1] + "…"
    return AuditEntry.objects.create(
        club_id=club if isinstance(club, int) else club.pk,
        session_id=session if session is None or isinstance(session, int) else session.pk,
        who=as_actor(who).account,
        who_label=who_label(who),
        action=action,
        summary=summary,
        details=dict(details or {}),
    )


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The settings that changed, as {"name": {"before": …, "after": …}}."""
    return {
        key: {"before": before.get(key), "after": value}
        for key, value in after.items()
        if before.get(key) != value
    }


def said(changed: Mapping[str, Mapping[str, Any]], labels: Mapping[str, str]) -> str:
    """The changed settings in words: "sitting length 2 → 3, public yes → no"."""

    def word(value: Any) -> str:
        if value is True:
            return "yes"
        if value is False:
            return "no"
        return "none" if value in (None, "") else str(value)

    return ", ".join(
        f"{labels.get(key, key)} {word(c['before'])} → {word(c['after'])}"
        for key, c in changed.items()
    )


def settings_changed(
    who: Caller,
    club: Club,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    labels: Mapping[str, str],
) -> dict[str, dict[str, Any]]:
    """Keep a change of the club's own settings (`before` and `after` by field, `labels`
    their words) as "Changed the club's settings: …", inside the write's transaction;
    what changed (`changes`)."""
    changed = changes(before, after)
    record(
        who,
        club=club,
        action="club.settings",
        summary="Changed the club's settings: " + (said(changed, labels) or "nothing changed"),
        details={"changed": changed},
    )
    return changed
