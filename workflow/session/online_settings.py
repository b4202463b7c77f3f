"""A session's online settings (docs/tournament.md, "Online play"): how long an online
player may be away before a robot plays for them (`online_grace_seconds`), the move
clock (`move_clock_seconds`, none by default), and duplicate deals (`duplicate`, from the
next sitting made: a sitting keeps the deals it began with, docs/tournament.md).

The director types the seconds on a page: the text comes here as typed, and a number that
is not one, or out of range, is refused in words that quote it (as the sign-up capacity
is, `workflow.front.registrations`). `session_create` reads the same text with `read_seconds`.
"""

from __future__ import annotations

from typing import overload

from django.db import transaction

from common.errors import ConflictError, UserError
from scoring.locks import lock_session
from tournaments import audit
from tournaments.models import Session
from tournaments.permissions import Caller, require_director

#: The range a grace time or a move clock may take, in seconds.
MIN_SECONDS = 5
MAX_SECONDS = 3600

#: What each setting is called in a refusal and in the audit log.
_WORDS = {
    "online_grace_seconds": "grace time",
    "move_clock_seconds": "move clock",
}
_SAVED = {**_WORDS, "duplicate": "duplicate deals"}


@overload
def read_seconds(given: int | str | None, *, field: str, empty: int) -> int: ...
@overload
def read_seconds(given: int | str | None, *, field: str, empty: None) -> int | None: ...
def read_seconds(given: int | str | None, *, field: str, empty: int | None) -> int | None:
    """A number of seconds as a director gave it: a whole number from `MIN_SECONDS` to
    `MAX_SECONDS`, or `empty` for an empty text (None: the setting may be empty, as the
    clock). Anything else is refused with what was typed."""
    words = _WORDS[field]
    if given is None:
        value = empty
    elif isinstance(given, int):
        value = given
    else:
        text = given.strip()
        if not text:
            value = empty
        elif text.isascii() and text.isdigit():
            value = int(text)
        else:
            how = "or leave it empty for no clock" if empty is None else f"such as {empty}"
            raise UserError(
                f"{field}_invalid",
                f"“{given}” is not a number of seconds: write the {words} as a whole number "
                f"of seconds, {how}.",
                field=field,
            )
    if value is None:
        if empty is None:
            return None
        raise UserError(f"{field}_invalid", f"Give the {words} in seconds.", field=field)
    if not MIN_SECONDS <= value <= MAX_SECONDS:
        raise UserError(
            f"{field}_invalid",
            f"The {words} is from {MIN_SECONDS} to {MAX_SECONDS} seconds; {value} is out of range.",
            field=field,
        )
    return value


@transaction.atomic
def session_online_settings(
    *,
    session_id: int,
    online_grace_seconds: int | str | None,
    move_clock_seconds: int | str | None,
    duplicate: bool | None = None,
    user: Caller,
) -> Session:
    """Change the grace time and the move clock, which apply from the next turn on (the
    robots' tick reads them at every turn), and `duplicate` (None: as it is), which
    applies to the sittings made after. A finished session keeps its own."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to="change its sessions")
    grace = read_seconds(online_grace_seconds, field="online_grace_seconds", empty=60)
    clock = read_seconds(move_clock_seconds, field="move_clock_seconds", empty=None)
    if session.status in (Session.Status.FINISHED, Session.Status.CANCELLED):
        raise ConflictError("session_over", "This session is over: its settings no longer change.")
    before = {f: getattr(session, f) for f in _SAVED}
    session.online_grace_seconds = grace
    session.move_clock_seconds = clock
    if duplicate is not None:
        session.duplicate = duplicate
    session.save(update_fields=list(_SAVED))
    changed = audit.changes(before, {f: getattr(session, f) for f in _SAVED})
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="session.settings",
        summary="Changed the online settings: "
        + (audit.said(changed, _SAVED) or "nothing changed"),
        details={"changed": changed},
    )
    return session
