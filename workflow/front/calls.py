"""Calling the director from a table (docs/tournament.md, "Calling the director").

- `director_call_make`: whoever may score a table (its scorer link, its table card's
  link, a director), or a player seated at it with their seat link (an online table's
  phone: `play.seat_calls`), calls the director, with a reason and a short text. Refused on a
  session that is not running and on a table whose sitting has moved on; a second call
  from a table whose call is still open is refused (`director_already_called`) and the
  first one is kept, so the director is not flooded.
- `director_call_handle` and `director_call_reopen`: the director marks a call handled,
  or takes that back.
- `session_calls` and `open_calls`: the calls of a session for the director, open ones
  first (reads).

Each write bumps the session's live version (`pagecache.live_changed`), which the
director's page polls. Locks: a call takes the session shared and then the table (the
order of `scoring.locks`), so it waits for a movement being confirmed and sees its
result; handling a call locks that call's row alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from common.errors import ConflictError, UserError
from common.text import refuse_hidden_characters
from scoring import locks
from tournaments import audit, pagecache
from tournaments.models import DirectorCall, Seating, Session, Table
from tournaments.permissions import (
    Caller,
    as_actor,
    live_links,
    require_caller,
    require_director,
)

REASONS = dict(DirectorCall.Reason.choices)


def _english_reason(call: DirectorCall) -> str:
    """The reason as the audit log stores it: English, whatever the request's language."""
    with translation.override("en"):
        return str(call.get_reason_display())


def _already_called(call: DirectorCall, session: Session) -> ConflictError:
    when = timezone.localtime(call.created_at, session.club.zone()).strftime("%H:%M")
    reason = call.get_reason_display().lower()
    return ConflictError(
        "director_already_called",
        gettext(
            "The director has already been called to this table (%(reason)s, at "
            "%(when)s) and will come; there is no need to call again."
        )
        % {"reason": reason, "when": when},
    )


def _clean_text(reason: str, text: str) -> str:
    if reason not in REASONS:
        raise UserError(
            "call_reason_unknown",
            gettext(
                "Choose why you call the director: a dispute, a misdeal, a renege, a "
                "question or other."
            ),
            field="reason",
        )
    text = text.strip()
    if reason == DirectorCall.Reason.OTHER and not text:
        raise UserError(
            "call_text_required",
            gettext("Say in a few words what the director is needed for."),
            field="text",
        )
    if len(text) > DirectorCall.TEXT_MAX:
        raise UserError(
            "call_text_too_long",
            gettext("Keep it short: at most %(TEXT_MAX)s characters (this is %(n_text)s).")
            % {"TEXT_MAX": DirectorCall.TEXT_MAX, "n_text": len(text)},
            field="text",
        )
    refuse_hidden_characters(text, what=gettext_noop("A call"), field="text")
    return text


@transaction.atomic
def director_call_make(*, table_id: int, reason: str, text: str, user: Caller) -> DirectorCall:
    """Call the director to a table of the current sitting of a running session."""
    table = Table.objects.select_related("sitting__session").filter(pk=table_id).first()
    if table is None:
        raise UserError("table_not_found", gettext("There is no such table."))
    require_caller(user, table)
    session_id = table.sitting.session_id
    locks.share_session(session_id)
    try:
        locks.lock_table(table.pk)
    except Table.DoesNotExist:  # an undone movement took the table away while we waited
        raise ConflictError(
            "table_gone",
            gettext(
                "This table is no longer played (the movement was undone): scan the "
                "card on your table and call from there."
            ),
        ) from None
    table = Table.objects.select_related("sitting__session__club").get(pk=table.pk)
    session = table.sitting.session
    if session.status != Session.Status.RUNNING:
        raise ConflictError(
            "session_not_running",
            gettext(
                "The session is %(lower)s: there is no director to call through "
                "Huckley. Ask the director in person."
            )
            % {"lower": session.get_status_display().lower()},
        )
    if table.sitting.moved_at is not None:
        raise ConflictError(
            "sitting_moved_on",
            gettext(
                "This table's sitting has moved on: open your new table (scan the card "
                "on it) and call from there."
            ),
        )
    text = _clean_text(reason, text)
    open_call = DirectorCall.objects.filter(table=table, handled_at__isnull=True).first()
    if open_call is not None:
        raise _already_called(open_call, session)
    actor = as_actor(user)
    tokens = actor.scorer_tokens
    link = live_links(tokens).filter(table=table).first() if tokens else None
    try:
        with transaction.atomic():
            call = DirectorCall.objects.create(
                session=session,
                table=table,
                reason=reason,
                text=text,
                scorer_link=link,
                called_by=actor.account,
            )
    except IntegrityError:  # pragma: no cover - the table's lock keeps this from racing
        first = DirectorCall.objects.get(table=table, handled_at__isnull=True)
        raise _already_called(first, session) from None
    pagecache.live_changed(session_id)
    return call


def _lock_call(call_id: int) -> DirectorCall:
    call = (
        DirectorCall.objects.select_related("session", "table")
        .select_for_update(of=("self",))
        .filter(pk=call_id)
        .first()
    )
    if call is None:
        raise UserError("call_not_found", gettext("There is no such call."))
    return call


@transaction.atomic
def director_call_handle(*, call_id: int, user: Caller) -> DirectorCall:
    """Mark a call handled. Handling it again changes nothing."""
    call = _lock_call(call_id)
    require_director(user, call.session.club_id, to=gettext_noop("handle calls to the director"))
    if call.handled_at is not None:
        return call
    call.handled_at = timezone.now()
    call.handled_by = as_actor(user).account
    call.save(update_fields=["handled_at", "handled_by"])
    pagecache.live_changed(call.session_id)
    audit.record(
        user,
        club=call.session.club_id,
        session=call.session,
        action="call.handled",
        summary=f"Handled a call from table {call.table.rank} ({_english_reason(call)})",
        details={"call_id": call.pk, "table_id": call.table_id},
    )
    return call


@transaction.atomic
def director_call_reopen(*, call_id: int, user: Caller) -> DirectorCall:
    """Take back "handled": the call is open again. Refused when the table has called
    again since (one open call per table)."""
    call = _lock_call(call_id)
    require_director(user, call.session.club_id, to=gettext_noop("handle calls to the director"))
    if call.handled_at is None:
        return call
    newer = DirectorCall.objects.filter(table_id=call.table_id, handled_at__isnull=True).first()
    if newer is not None:
        raise ConflictError(
            "call_reopen_newer_open",
            gettext("This table has called again since; handle or read that call instead."),
        )
    call.handled_at = None
    call.handled_by = None
    call.save(update_fields=["handled_at", "handled_by"])
    pagecache.live_changed(call.session_id)
    audit.record(
        user,
        club=call.session.club_id,
        session=call.session,
        action="call.reopen",
        summary=f"Reopened a call from table {call.table.rank} ({_english_reason(call)})",
        details={"call_id": call.pk, "table_id": call.table_id},
    )
    return call


@dataclass(frozen=True)
class CallRow:
    """One call as the director's page and the API show it."""

    call: DirectorCall
    table_rank: int
    sitting_number: int
    players: tuple[str, ...]
    who: str

    @property
    def created_at(self) -> datetime:
        return self.call.created_at


def _who(call: DirectorCall) -> str:
    if call.called_by is not None:
        return call.called_by.get_username()
    link = call.scorer_link
    if link is None:
        return gettext("the table")
    if link.card_id is not None and link.card is not None:
        return gettext("the card of table %(number)s") % {"number": link.card.number}
    if link.club_card_id is not None and link.club_card is not None:
        return gettext("the club's card of table %(number)s") % {"number": link.club_card.number}
    return gettext("the table's scorer link")


def _rows(calls: list[DirectorCall]) -> list[CallRow]:
    """The calls with their tables' players (one query for all)."""
    seats: dict[int, list[str]] = {}
    for table_id, name in (
        Seating.objects.filter(table_id__in={c.table_id for c in calls}, left_at__isnull=True)
        .order_by("table_id", "seat")
        .values_list("table_id", "player__name")
    ):
        seats.setdefault(table_id, []).append(name)
    return [
        CallRow(
            call=c,
            table_rank=c.table.rank,
            sitting_number=c.table.sitting.number,
            players=tuple(seats.get(c.table_id, ())),
            who=_who(c),
        )
        for c in calls
    ]


def _calls() -> QuerySet[DirectorCall]:
    return DirectorCall.objects.select_related(
        "table__sitting", "scorer_link__card", "scorer_link__club_card", "called_by", "handled_by"
    )


def session_calls(session: Session | int, *, open_only: bool = False) -> list[CallRow]:
    """The session's calls, open ones first (oldest first: the longest wait on top), then
    the handled ones (latest first), with the table and its players, in two queries."""
    found = _calls().filter(session_id=session if isinstance(session, int) else session.pk)
    if open_only:
        found = found.filter(handled_at__isnull=True)
    rows = list(found)
    opened = sorted((c for c in rows if c.handled_at is None), key=lambda c: c.created_at)
    handled = sorted(
        (c for c in rows if c.handled_at is not None), key=lambda c: c.created_at, reverse=True
    )
    return _rows([*opened, *handled])


def call_row(call_id: int) -> CallRow:
    """One call as the lists show it."""
    return _rows([_calls().get(pk=call_id)])[0]


def open_calls(session: Session | int) -> list[CallRow]:
    """The session's calls not handled yet, oldest first."""
    return session_calls(session, open_only=True)
