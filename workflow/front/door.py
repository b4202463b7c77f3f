"""Self check-in at the door (docs/tournament.md, "Self check-in at the door").

A player opens the session's check-in page (the lobby's QR code), types their name and
the door code shown on the projector and the director's page, and is checked in. The
rule of `self_check_in` is the door code, not an account: anyone who knows it may check
in a name on the roster (or, when the director allows walk-ins, a new name) while the
session is being set up and self check-in is open. Once the session has started, late
arrivals go to the director, who seats them at the bottom table
(`workflow.session.services.session_add_players`): a phone should not change the tables of a
running sitting.

Wrong door codes are counted in the cache (locmem or Redis), per client and per session
and door code: past `WRONG_PER_CLIENT` (or `WRONG_PER_SESSION` from everyone together)
in `WINDOW` seconds, every attempt is refused until the window ends
(`TooManyAttempts`, HTTP 429 with Retry-After). A new door code starts the session's
count afresh, so a director who sees the door blocked changes the code.

The director's writes (`door_code_change`, `door_settings_update`) lock the session and
call `require_director` first; taking a check-in back is the director's existing
`workflow.session.services.session_check_in` with `checked_in=False`.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from common.errors import ConflictError, UserError
from common.matching import match_key, near_misses, spelled
from common.text import refuse_hidden_characters
from scoring.locks import lock_session
from tournaments import audit, pagecache
from tournaments.models import Session, SessionPlayer
from tournaments.models.session import new_door_code
from tournaments.permissions import Caller, require_director
from workflow.session.services import players_get_or_create

#: Seconds over which wrong door codes are counted.
WINDOW = 600
#: Wrong codes one client (an IP address) may type for one session in a window.
WRONG_PER_CLIENT = 5
#: Wrong codes everyone together may type for one session and door code in a window: a
#: code of four digits then takes days to guess.
WRONG_PER_SESSION = 30
#: The most names a "which one are you?" question offers.
CHOICES_LIMIT = 6


class TooManyAttempts(UserError):
    """Too many wrong door codes: every attempt waits `retry_after` seconds (HTTP 429)."""

    status = 429

    def __init__(self, retry_after: int) -> None:
        minutes = max(1, (retry_after + 59) // 60)
        super().__init__(
            "too_many_attempts",
            ngettext(
                "Too many wrong door codes. Wait %(minutes)s minute and try "
                "again, or ask the director to check you in.",
                "Too many wrong door codes. Wait %(minutes)s minutes and try "
                "again, or ask the director to check you in.",
                minutes,
            )
            % {"minutes": minutes},
            field="door_code",
        )
        self.retry_after = retry_after


class WhichName(UserError):
    """The typed name fits more than one player, or none exactly but some nearly: the
    player picks one (`choices`); never a guess."""

    def __init__(self, typed: str, choices: list[str]) -> None:
        names = " or ".join(f"“{c}”" for c in choices)
        super().__init__(
            "which_name",
            gettext(
                "Which one are you: %(names)s? Pick your name, or ask the director if "
                "it is not there."
            )
            % {"names": names},
            field="name",
        )
        self.typed = typed
        self.choices = choices

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "choices": self.choices}


@dataclass(frozen=True)
class SelfCheckIn:
    """What the door tells the player: their name as the roster has it, and whether they
    were checked in already (`already`) or joined the roster as a walk-in (`walk_in`)."""

    session_id: int
    player_id: int
    name: str
    already: bool
    walk_in: bool

    @property
    def message(self) -> str:
        if self.already:
            return gettext("You are already checked in, %(name)s. Nothing more to do.") % {
                "name": self.name
            }
        return gettext("Welcome, %(name)s: you are checked in.") % {"name": self.name}


def _client_key(session_id: int, client: str) -> str:
    digest = hashlib.sha256(client.encode()).hexdigest()[:16]
    return f"door:wrong:{session_id}:client:{digest}"


def _session_key(session_id: int, code: str) -> str:
    digest = hashlib.sha256(code.encode()).hexdigest()[:16]
    return f"door:wrong:{session_id}:code:{digest}"


def _waiting(key: str, limit: int) -> int:
    """Seconds until `key`'s window ends when it has reached `limit`, else 0."""
    count = cache.get(key)
    if count is None or int(count) < limit:
        return 0
    ends = cache.get(f"{key}:ends")
    return max(1, int((ends or time.time() + WINDOW) - time.time()))


def _count_wrong(key: str) -> None:
    if cache.add(key, 0, timeout=WINDOW):
        cache.set(f"{key}:ends", time.time() + WINDOW, timeout=WINDOW)
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls: a new window
        cache.set(key, 1, timeout=WINDOW)


def throttled(*, session_id: int, door_code: str, client: str) -> int:
    """Seconds the client must wait before trying the door again (0: it may try now)."""
    return max(
        _waiting(_client_key(session_id, client), WRONG_PER_CLIENT),
        _waiting(_session_key(session_id, door_code), WRONG_PER_SESSION),
    )


def door_open(session: Session) -> bool:
    """Whether players may check themselves in at this session's door now."""
    return session.status == Session.Status.SETUP and session.self_check_in_open


def sessions_at_the_door(today: date) -> list[Session]:
    """The public sessions taking check-in at the door now, dated the day before `today`
    to the day after (a club's night in any time zone): what the venue's lobby points
    at. At most two, enough to tell one from several."""
    return list(
        Session.objects.filter(
            status=Session.Status.SETUP,
            self_check_in_open=True,
            is_public=True,
            date__range=(today - timedelta(days=1), today + timedelta(days=1)),
        )
        .select_related("club")
        .order_by("date", "pk")[:2]
    )


def door_refusal(session: Session) -> ConflictError | None:
    """Why nobody can check in at this session's door now, in plain words, or None. The
    check-in page shows it instead of the form; `self_check_in` raises it."""
    if session.status == Session.Status.CANCELLED:
        return ConflictError("session_cancelled", gettext("This session is cancelled."))
    if session.status == Session.Status.FINISHED:
        return ConflictError("session_finished", gettext("This session is finished."))
    if session.status == Session.Status.RUNNING:
        return ConflictError(
            "session_started",
            gettext(
                "The games have started, so check-in at the door is over. Ask the "
                "director: they add late arrivals at the bottom table."
            ),
        )
    if not session.self_check_in_open:
        return ConflictError(
            "self_check_in_closed",
            gettext(
                "Check-in at the door is closed for this session. Ask the director to check you in."
            ),
        )
    return None


def _find(typed: str, roster: list[SessionPlayer]) -> SessionPlayer | None:
    """The roster's player the typed name is, or None when it is nobody on the roster.
    A name the roster has twice by its match key, a part of a name ("rosa") or a near
    miss ("Rosa Dias", `common.matching.near_misses`) asks which (`WhichName`)."""
    exact = [e for e in roster if spelled(e.player.name) == spelled(typed)]
    if len(exact) == 1:
        return exact[0]
    key = match_key(typed)
    by_key: dict[str, list[SessionPlayer]] = {}
    for entry in roster:
        by_key.setdefault(match_key(entry.player.name), []).append(entry)
    same = by_key.get(key, [])
    if len(same) == 1:
        return same[0]
    if same:
        raise WhichName(typed, sorted(e.player.name for e in same)[:CHOICES_LIMIT])
    part = sorted(e.player.name for k in by_key if key and key in k for e in by_key[k])
    near = part or near_misses(typed, [e.player.name for e in roster], limit=CHOICES_LIMIT)
    if near:
        raise WhichName(typed, near[:CHOICES_LIMIT])
    return None


@transaction.atomic
def self_check_in(
    *, session_id: int, name: str, door_code: str, client: str = "", user: Caller
) -> SelfCheckIn:
    """Check in the player named `name` at the door of a session in setup, for whoever
    knows its door code (the caller may be anonymous: the code is the rule). Refusals,
    in this order: too many wrong codes (`TooManyAttempts`), the session not taking
    check-ins at the door (`door_refusal`), a wrong door code (`wrong_door_code`), no
    name, a name that fits several players or nearly one (`WhichName`), a name not on
    the roster when walk-ins are not allowed (`not_on_roster`). A player already checked
    in is told so; nothing changes."""
    del user  # the door code is the rule; the caller is anyone in the hall
    typed_code = door_code.strip()
    # The refusals that need no lock first: a wrong code never waits for the session's.
    session = Session.objects.select_related("club").get(pk=session_id)
    wait = throttled(session_id=session_id, door_code=session.door_code, client=client)
    if wait:
        raise TooManyAttempts(wait)
    if (refusal := door_refusal(session)) is not None:
        raise refusal
    if not secrets.compare_digest(typed_code.encode(), session.door_code.encode()):
        _count_wrong(_client_key(session_id, client))
        _count_wrong(_session_key(session_id, session.door_code))
        raise UserError(
            "wrong_door_code",
            gettext(
                "That is not the door code. It is the four digits on the screen in the "
                "hall (the director has it too)."
            ),
            field="door_code",
        )
    refuse_hidden_characters(name, what=gettext_noop("Names"), field="name")
    if not match_key(name):
        raise UserError(
            "name_required", gettext("Type your name as the club knows it."), field="name"
        )
    session = lock_session(session_id)
    if (refusal := door_refusal(session)) is not None:  # changed while we waited
        raise refusal
    roster = list(
        SessionPlayer.objects.filter(session=session, withdrawn_at__isnull=True).select_related(
            "player"
        )
    )
    entry = _find(name, roster)
    walk_in = entry is None
    if entry is None:
        entry = _walk_in(session, name)
    elif entry.checked_in:
        return SelfCheckIn(session.pk, entry.player_id, entry.player.name, True, False)
    entry.checked_in = True
    entry.self_checked_in_at = timezone.now()
    entry.save(update_fields=["checked_in", "self_checked_in_at"])
    pagecache.live_changed(session.pk)
    return SelfCheckIn(session.pk, entry.player_id, entry.player.name, False, walk_in)


def _walk_in(session: Session, name: str) -> SessionPlayer:
    """A name not on the roster: added to it (a club player of that name, else a new
    one) when the director allows walk-ins. A club player whose name it nearly is
    ("rosa diaz" for Rosa Díaz) is asked about, never taken or doubled by mistake."""
    if not session.walk_ins_allowed:
        raise UserError(
            "not_on_roster",
            gettext(
                "“%(join)s” is not on tonight's list. Check how you spelled it, or ask "
                "the director to add you."
            )
            % {"join": " ".join(name.split())},
            field="name",
        )
    try:
        (player,) = players_get_or_create(club=session.club, names=[name])
    except ConflictError as e:
        if e.code != "player_name_looks_like":
            raise
        known = [
            p
            for p in session.club.players.values_list("name", flat=True)
            if match_key(p) == match_key(name)
        ]
        raise WhichName(name, sorted(known)[:CHOICES_LIMIT]) from None
    entry, _ = SessionPlayer.objects.get_or_create(session=session, player=player)
    entry.withdrawn_at = None
    return entry


def _clean_code(code: str) -> str:
    code = code.strip()
    if len(code) != 4 or not code.isascii() or not code.isdigit():
        raise UserError(
            "door_code_four_digits",
            gettext("A door code is four digits, 0 to 9."),
            field="door_code",
        )
    return code


@transaction.atomic
def door_code_change(*, session_id: int, code: str = "", user: Caller) -> Session:
    """A new door code for the session: the four digits the director typed, or, when
    `code` is empty, four drawn with `secrets`. The projector shows it at once; the count
    of wrong codes starts again."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("change its door code"))
    new = _clean_code(code) if code.strip() else new_door_code()
    session.door_code = new
    session.save(update_fields=["door_code"])
    pagecache.live_changed(session.pk)
    # The code itself is not written down: the log is read by every director of the club,
    # and an old code is of no use to anyone.
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="door.code",
        summary="Changed the door code" + ("" if code.strip() else " (new random digits)"),
    )
    return session


@transaction.atomic
def door_settings_update(
    *, session_id: int, self_check_in_open: bool, walk_ins_allowed: bool, user: Caller
) -> Session:
    """Open or close self check-in at the door, and allow or refuse walk-ins (names not
    on the roster). Either applies to the next player at the door."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("change how players check in"))
    if session.status in (Session.Status.FINISHED, Session.Status.CANCELLED):
        raise ConflictError(f"session_{session.status}", f"This session is {session.status}.")
    changed = audit.changes(
        {
            "self_check_in_open": session.self_check_in_open,
            "walk_ins_allowed": session.walk_ins_allowed,
        },
        {"self_check_in_open": self_check_in_open, "walk_ins_allowed": walk_ins_allowed},
    )
    session.self_check_in_open = self_check_in_open
    session.walk_ins_allowed = walk_ins_allowed
    session.save(update_fields=["self_check_in_open", "walk_ins_allowed"])
    pagecache.live_changed(session.pk)
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="door.settings",
        summary="Check-in at the door: "
        + (
            audit.said(changed, {"self_check_in_open": "open", "walk_ins_allowed": "walk-ins"})
            or "saved"
        ),
        details=changed,
    )
    return session
