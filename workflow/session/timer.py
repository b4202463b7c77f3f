"""The sitting timer, for a club that plays to time (docs/tournament.md, "The sitting
timer"): the session's minutes per sitting, a timer per sitting that starts with the
sitting (or when the director starts it), and the director's pause, resume and extend.

The server keeps only an end time (running) or the seconds left (paused); a screen
counts down to the end time itself, so a laptop that slept shows the right time when it
wakes and every screen agrees. Each change bumps the session's live version, so the
projector shows it within one poll. The writes are keyword-only and atomic, take the
session's lock first and refuse with plain words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from common.errors import ConflictError, UserError
from scoring import locks
from tournaments import audit, pagecache
from tournaments.models import Session, Sitting
from tournaments.permissions import Caller, require_director
from workflow.session import selectors

#: The longest sitting a club may time, and the most one "extend" adds.
MAX_MINUTES = 240
#: What "extend" adds when the director does not say.
EXTEND_MINUTES = 5


@dataclass(frozen=True)
class Timer:
    """What a screen shows of a sitting's timer: `state` is "ready" (not started),
    "running" or "paused"; `ends_at` is set while running (the screen finds "time is up"
    itself when it passes); `left` is in seconds while ready or paused."""

    state: str
    ends_at: datetime | None
    left: int | None

    @property
    def ends_ms(self) -> int | None:
        return int(self.ends_at.timestamp() * 1000) if self.ends_at else None

    def over(self, now: datetime | None = None) -> bool:
        return self.ends_at is not None and self.ends_at <= (now or timezone.now())

    def clock(self, now: datetime | None = None) -> str:
        """The time left as m:ss (h:mm:ss past an hour), as the page first shows it."""
        if self.ends_at is not None:
            seconds = max(0, math.ceil((self.ends_at - (now or timezone.now())).total_seconds()))
        else:
            seconds = self.left or 0
        hours, rest = divmod(seconds, 3600)
        minutes, secs = divmod(rest, 60)
        return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def sitting_timer(session: Session, sitting: Sitting | None) -> Timer | None:
    """The current sitting's timer, or None when the session plays without one."""
    if sitting is None or session.status != Session.Status.RUNNING:
        return None
    if sitting.timer_ends_at is not None:
        return Timer("running", sitting.timer_ends_at, None)
    if sitting.timer_paused_left is not None:
        return Timer("paused", None, sitting.timer_paused_left)
    if session.sitting_minutes:
        return Timer("ready", None, session.sitting_minutes * 60)
    return None


def _minutes(value: int | None, *, what: str) -> int:
    if value is None or not 1 <= value <= MAX_MINUTES:
        raise UserError(
            "timer_minutes",
            gettext("%(what)s must be a whole number of minutes from 1 to %(MAX_MINUTES)s.")
            % {"what": gettext(what), "MAX_MINUTES": MAX_MINUTES},
            field="minutes",
        )
    return value


def _directed(session_id: int, user: Caller) -> Session:
    session = locks.lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("run its timer"))
    return session


@transaction.atomic
def session_set_sitting_minutes(*, session_id: int, minutes: int | None, user: Caller) -> Session:
    """Play to time (`minutes` per sitting) or not (`None`). Sittings that start from now on
    start their timer with them; the current one's timer is left as it is (start it from
    the session page)."""
    session = _directed(session_id, user)
    if session.status in (Session.Status.FINISHED, Session.Status.CANCELLED):
        raise ConflictError(
            "session_finished", gettext("This session is over; its timer cannot change.")
        )
    before = session.sitting_minutes
    session.sitting_minutes = (
        None if minutes is None else _minutes(minutes, what=gettext_noop("A sitting"))
    )
    session.save(update_fields=["sitting_minutes"])
    changed = audit.changes(
        {"sitting_minutes": before}, {"sitting_minutes": session.sitting_minutes}
    )
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="session.settings",
        summary="Changed the settings: "
        + (audit.said(changed, {"sitting_minutes": "minutes per sitting"}) or "nothing changed"),
        details={"changed": changed},
    )
    pagecache.live_changed(session.pk)
    return session


ACTIONS = ("start", "pause", "resume", "extend", "reset")
# What each button did, in the words of the audit log.
_DONE = dict(zip(ACTIONS, ("Started", "Paused", "Resumed", "Extended", "Reset"), strict=True))


@transaction.atomic
def sitting_timer_change(
    *, session_id: int, action: str, minutes: int | None = None, user: Caller
) -> Timer | None:
    """Start, pause, resume, extend (by `minutes`, 5 by default) or reset the current
    sitting's timer. Each refusal says what to do instead."""
    session = _directed(session_id, user)
    if session.status != Session.Status.RUNNING:
        raise ConflictError(
            "session_not_running", gettext("The timer runs only while the session is running.")
        )
    sitting = locks.lock_sitting(selectors.require_current_sitting(session).pk)
    now = timezone.now()
    timer = sitting_timer(session, sitting)
    state = timer.state if timer else "off"
    if action == "start":
        if state in ("running", "paused"):
            raise ConflictError(
                "timer_started",
                gettext(
                    "The timer has already started: pause, resume or extend it, or reset it first."
                ),
            )
        length = minutes if minutes is not None else session.sitting_minutes
        if length is None:
            raise UserError(
                "timer_minutes",
                gettext(
                    "Say how many minutes the timer runs, or set the minutes per sitting first."
                ),
                field="minutes",
            )
        sitting.timer_ends_at = now + timedelta(
            minutes=_minutes(length, what=gettext_noop("The timer"))
        )
    elif action == "pause":
        if timer is None or timer.state != "running" or timer.over(now):
            raise ConflictError(
                "timer_not_running",
                (
                    gettext("The timer is not running, so there is nothing to pause.")
                    if state != "running"
                    else gettext("Time is already up; extend the timer or reset it.")
                ),
            )
        assert sitting.timer_ends_at is not None
        sitting.timer_paused_left = math.ceil((sitting.timer_ends_at - now).total_seconds())
        sitting.timer_ends_at = None
    elif action == "resume":
        if state != "paused":
            raise ConflictError(
                "timer_not_paused", gettext("The timer is not paused; nothing to resume.")
            )
        sitting.timer_ends_at = now + timedelta(seconds=sitting.timer_paused_left or 0)
        sitting.timer_paused_left = None
    elif action == "extend":
        extra = timedelta(
            minutes=_minutes(minutes or EXTEND_MINUTES, what=gettext_noop("An extension"))
        )
        if state == "running":
            assert sitting.timer_ends_at is not None
            # Time that is already up starts again from now.
            sitting.timer_ends_at = max(sitting.timer_ends_at, now) + extra
        elif state == "paused":
            sitting.timer_paused_left = (sitting.timer_paused_left or 0) + int(
                extra.total_seconds()
            )
        else:
            raise ConflictError(
                "timer_not_started", gettext("The timer has not started; start it first.")
            )
    elif action == "reset":
        if state not in ("running", "paused"):
            raise ConflictError(
                "timer_not_started", gettext("The timer has not started; nothing to reset.")
            )
        sitting.timer_ends_at = None
        sitting.timer_paused_left = None
    else:
        raise UserError("timer_action", gettext("That timer button is unknown; reload the page."))
    sitting.save(update_fields=["timer_ends_at", "timer_paused_left"])
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action=f"timer.{action}",
        summary=f"{_DONE[action]} the timer of sitting {sitting.number}"
        + (
            f" ({minutes} minutes)" if minutes is not None and action in ("start", "extend") else ""
        ),
        details={"sitting": sitting.number, "minutes": minutes},
    )
    pagecache.live_changed(session.pk)
    return sitting_timer(session, sitting)
