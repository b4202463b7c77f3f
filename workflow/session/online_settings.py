"""A session's online settings (docs/tournament.md, "Online play"): how long an online
player may be away before a robot plays for them (`online_grace_seconds`), the move
clock (`move_clock_seconds`, none by default), duplicate deals (`duplicate`, from the
next sitting made: a sitting keeps the deals it began with, docs/tournament.md), and
robots that fill seats (`fill_with_robots`, an online session only: from the start, or
the next movement once it runs; docs/tournament.md, "Robots fill seats").

The director types the seconds on a page: the text comes here as typed, and a number that
is not one, or out of range, is refused in words that quote it (as the sign-up capacity
is, `workflow.front.registrations`). `session_create` reads the same text with `read_seconds`,
and `session_update_settings` (the API's `PATCH`) applies them with `apply_online_settings`.
"""

from __future__ import annotations

from typing import overload

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

import engine
from common.errors import ConflictError, UserError
from engine import online as engine_online
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
_SAVED = {**_WORDS, "duplicate": "duplicate deals", "fill_with_robots": "fill with robots"}


@overload
def read_seconds(given: int | str | None, *, field: str, empty: int) -> int: ...
@overload
def read_seconds(given: int | str | None, *, field: str, empty: None) -> int | None: ...
def read_seconds(given: int | str | None, *, field: str, empty: int | None) -> int | None:
    """A number of seconds as a director gave it: a whole number from `MIN_SECONDS` to
    `MAX_SECONDS`, or `empty` for an empty text (None: the setting may be empty, as the
    clock). Anything else is refused with what was typed."""
    words = {"grace time": gettext("grace time"), "move clock": gettext("move clock")}[
        _WORDS[field]
    ]
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
            how = (
                gettext("or leave it empty for no clock")
                if empty is None
                else gettext("such as %(empty)s") % {"empty": empty}
            )
            raise UserError(
                f"{field}_invalid",
                gettext(
                    "“%(given)s” is not a number of seconds: write the %(words)s as a whole "
                    "number of seconds, %(how)s."
                )
                % {"given": given, "words": words, "how": how},
                field=field,
            )
    if value is None:
        if empty is None:
            return None
        raise UserError(
            f"{field}_invalid",
            gettext("Give the %(words)s in seconds.") % {"words": words},
            field=field,
        )
    if not MIN_SECONDS <= value <= MAX_SECONDS:
        raise UserError(
            f"{field}_invalid",
            gettext("The %(words)s is from %(min)s to %(max)s seconds; %(value)s is out of range.")
            % {"words": words, "min": MIN_SECONDS, "max": MAX_SECONDS, "value": value},
            field=field,
        )
    return value


def check_online(rules_id: str, *, field: str = "online") -> None:
    """Refuse a setting `field` that needs online play for a game that has none."""
    if not engine_online.playable(rules_id):
        raise UserError(
            "not_playable_online",
            gettext("%(RULES)s cannot be played online yet.")
            % {"RULES": engine.RULES[rules_id].name},
            field=field,
        )


def check_fill(
    *, rules_id: str, online: bool, fill_with_robots: bool, field: str = "fill_with_robots"
) -> None:
    """Robots fill seats only at online tables: refuse `fill_with_robots` for a game that
    cannot be played online (`not_playable_online`) or in a session that is not online
    (`fill_needs_online`; a hybrid night's paper tables could not play a robot's cards).
    `field` names what the director changed: the box, or `online` turned off."""
    if not fill_with_robots:
        return
    check_online(rules_id, field="fill_with_robots")
    if not online:
        raise UserError(
            "fill_needs_online",
            gettext(
                "Robots fill seats only when every table plays online: make the session "
                "online too, or leave “fill with robots” off."
            ),
            field=field,
        )


class Keep:
    """A setting left as it is (None is a value: no move clock)."""


KEEP = Keep()


def apply_online_settings(
    session: Session,
    *,
    online: bool | Keep = KEEP,
    online_grace_seconds: int | str | Keep = KEEP,
    move_clock_seconds: int | str | Keep | None = KEEP,
    duplicate: bool | Keep = KEEP,
    fill_with_robots: bool | Keep = KEEP,
) -> None:
    """The online settings of `workflow.session.services.session_update_settings`, set on
    `session` (the caller saves it): `online` until the start (then each table is switched
    on its own), the grace and the clock at any time; `duplicate` at any time, for the
    sittings made after (a sitting keeps the deals it began with); `fill_with_robots` at
    any time, for the start or the next movement, only while the session is online."""
    if not isinstance(online, Keep) and online != session.online:
        if session.status != Session.Status.SETUP:
            raise ConflictError(
                "session_started",
                gettext(
                    "The session has started: switch its tables online or to paper one by one."
                ),
                field="online",
            )
        if online:
            check_online(session.rules_id)
        session.online = online
    if not isinstance(online_grace_seconds, Keep):
        grace = read_seconds(online_grace_seconds, field="online_grace_seconds", empty=60)
        session.online_grace_seconds = grace
    if not isinstance(move_clock_seconds, Keep):
        session.move_clock_seconds = read_seconds(
            move_clock_seconds, field="move_clock_seconds", empty=None
        )
    if not isinstance(duplicate, Keep):
        if duplicate:
            check_online(session.rules_id, field="duplicate")
        session.duplicate = duplicate
    fill = session.fill_with_robots if isinstance(fill_with_robots, Keep) else fill_with_robots
    # Turning `online` off leaves robots nowhere to play: refused on the box that did it.
    check_fill(
        rules_id=session.rules_id,
        online=session.online,
        fill_with_robots=fill,
        field="fill_with_robots" if not isinstance(fill_with_robots, Keep) else "online",
    )
    session.fill_with_robots = fill


@transaction.atomic
def session_online_settings(
    *,
    session_id: int,
    online_grace_seconds: int | str | None,
    move_clock_seconds: int | str | None,
    duplicate: bool | None = None,
    fill_with_robots: bool | None = None,
    user: Caller,
) -> Session:
    """Change the grace time and the move clock, which apply from the next turn on (the
    robots' tick reads them at every turn), `duplicate` (None: as it is), which applies
    to the sittings made after, and `fill_with_robots` (None: as it is), from the start or
    the next movement (`check_fill`). A finished session keeps its own."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("change its sessions"))
    grace = read_seconds(online_grace_seconds, field="online_grace_seconds", empty=60)
    clock = read_seconds(move_clock_seconds, field="move_clock_seconds", empty=None)
    if session.status in (Session.Status.FINISHED, Session.Status.CANCELLED):
        raise ConflictError(
            "session_over", gettext("This session is over: its settings no longer change.")
        )
    before = {f: getattr(session, f) for f in _SAVED}
    session.online_grace_seconds = grace
    session.move_clock_seconds = clock
    if duplicate is not None:
        session.duplicate = duplicate
    if fill_with_robots is not None:
        check_fill(
            rules_id=session.rules_id, online=session.online, fill_with_robots=fill_with_robots
        )
        session.fill_with_robots = fill_with_robots
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
