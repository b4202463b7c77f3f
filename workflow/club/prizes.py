"""Entry fees and prizes (docs/tournament.md, "Entry fees and prizes"): a session's fee
and prize pool rule, who paid, the club's payout tables and its currency; and the reads
that say what each player wins are `workflow.club.prize_selectors`.

The writes follow the house rule: keyword-only, atomic, the row that names the club
locked first (the session through `scoring.locks.lock_session`, or the club) and the
caller checked by `require_director` before any other refusal. The arithmetic is
`tournaments.format.prizes` (pure); what is typed is passed here as text and refused
here in plain words.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext

from common.errors import ConflictError, UserError
from common.text import refuse_hidden_characters
from scoring.locks import lock_session
from tournaments import audit, pagecache
from tournaments import format as fmt
from tournaments.models import Club, PayoutTable, Session, SessionPlayer
from tournaments.permissions import Caller, require_director

FREE_SESSION = gettext_lazy(
    "This session is free: it has no entry fee to pay. Give it an entry fee first."
)


def _user_error(e: fmt.PrizeError, code: str) -> UserError:
    return UserError(code, e.message, field=e.field or None)


def fees_refusal(session: Session) -> UserError | None:
    """Why nobody can be marked paid in `session` (a free session), or None."""
    if session.entry_fee is None:
        return UserError("fees_on_free_session", str(FREE_SESSION), field="paid")
    return None


def _amount(text: str | None, *, what: str, field: str) -> Decimal | None:
    if text is None or not str(text).strip():
        return None
    try:
        return fmt.parse_amount(str(text), what=what, field=field)
    except fmt.PrizeError as e:
        raise _user_error(e, "bad_amount") from None


# The session's fee and pool ---------------------------------------------------------


@transaction.atomic
def session_prizes_set(
    *,
    session_id: int,
    entry_fee: str | None,
    pool_share: str | None = None,
    pool_fixed: str | None = None,
    payout_table_id: int | None = None,
    user: Caller,
) -> Session:
    """Set the session's entry fee (empty: a free session) and its prize pool rule: a
    share of the fees collected (empty: all of them) or a fixed amount, split by a payout
    table of the club (empty: the club's default)."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("set its entry fees and prizes"))
    if session.status == Session.Status.CANCELLED:
        raise ConflictError("session_cancelled", gettext("This session is cancelled."))
    fee = _amount(entry_fee, what="The entry fee", field="entry_fee")
    fixed = _amount(pool_fixed, what="The fixed prize pool", field="pool_fixed")
    share = None
    if pool_share is not None and str(pool_share).strip():
        try:
            share = fmt.parse_percent(
                str(pool_share), what="The share of the fees", field="pool_share"
            )
        except fmt.PrizeError as e:
            raise _user_error(e, "bad_percent") from None
    if share is not None and fixed is not None:
        raise UserError(
            "pool_share_and_fixed",
            gettext("Give a share of the fees or a fixed prize pool, not both."),
            field="pool_share",
        )
    if fee is None and share is not None:
        raise UserError(
            "fees_on_free_session",
            gettext(
                "A free session collects no fees to share: give an entry fee, or a "
                "fixed prize pool."
            ),
            field="pool_share",
        )
    if fee is None:
        paid = SessionPlayer.objects.filter(session=session, paid=True).count()
        if paid:
            raise ConflictError(
                "players_paid",
                ngettext(
                    "%(paid)s player is marked paid; mark them unpaid before making "
                    "the session free.",
                    "%(paid)s players are marked paid; mark them unpaid before making "
                    "the session free.",
                    paid,
                )
                % {"paid": paid},
                field="entry_fee",
            )
    table = None
    if payout_table_id is not None:
        table = PayoutTable.objects.filter(pk=payout_table_id, club_id=session.club_id).first()
        if table is None:
            raise UserError(
                "unknown_payout_table",
                gettext("That payout table is not one of this club's."),
                field="payout_table",
            )
    before = {
        "entry_fee": _text(session.entry_fee),
        "pool_share": _text(session.pool_share),
        "pool_fixed": _text(session.pool_fixed),
        "payout_table": session.payout_table_id,
    }
    session.entry_fee, session.pool_share, session.pool_fixed = fee, share, fixed
    session.payout_table = table
    session.save(update_fields=["entry_fee", "pool_share", "pool_fixed", "payout_table"])
    pagecache.live_changed(session.pk)
    changed = audit.changes(
        before,
        {
            "entry_fee": _text(fee),
            "pool_share": _text(share),
            "pool_fixed": _text(fixed),
            "payout_table": session.payout_table_id,
        },
    )
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="prizes.settings",
        summary="Fees and prizes: "
        + (
            audit.said(
                changed,
                {
                    "entry_fee": "entry fee",
                    "pool_share": "share of the fees",
                    "pool_fixed": "fixed pool",
                    "payout_table": "payout table",
                },
            )
            or "saved"
        ),
        details=changed,
    )
    return session


def _text(amount: Decimal | None) -> str | None:
    """An amount as the audit log keeps it: exact, as a string."""
    return None if amount is None else str(amount)


@transaction.atomic
def session_mark_paid(
    *, session_id: int, player_ids: Sequence[int] | None, paid: bool, user: Caller
) -> int:
    """Mark players paid or unpaid (`player_ids=None`: the whole roster), at any time
    before, during or after the session. All or nothing: if one of them is not on the
    roster, nobody changes. Refused on a free session."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("record who paid"))
    if session.status == Session.Status.CANCELLED:
        raise ConflictError("session_cancelled", gettext("This session is cancelled."))
    if (refusal := fees_refusal(session)) is not None:
        raise refusal
    entries = SessionPlayer.objects.filter(session=session)
    if player_ids is not None:
        wanted = set(player_ids)
        entries = entries.filter(player_id__in=wanted)
        if entries.count() != len(wanted):
            raise UserError(
                "not_on_roster", gettext("That player is not on this session's roster.")
            )
    names = sorted(entries.values_list("player__name", flat=True))
    changed = entries.update(paid=paid)
    pagecache.live_changed(session.pk)
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="prizes.paid",
        summary=f"Marked {'paid' if paid else 'unpaid'}: "
        + (
            ", ".join(names) if player_ids is not None and len(names) <= 5 else f"{changed} players"
        ),
        details={
            "player_ids": sorted(player_ids) if player_ids is not None else None,
            "paid": paid,
        },
    )
    return changed


# The club's payout tables and currency ----------------------------------------------


def _lock_club(club_id: int) -> Club:
    return Club.objects.select_for_update().get(pk=club_id)


def _checked_table(
    *,
    club: Club,
    name: str,
    places: Sequence[str],
    big_loser: str,
    most_hooks: str,
    besides: int | None,
) -> tuple[str, list[str], str, str]:
    refuse_hidden_characters(name, what=gettext_noop("Payout table names"), field="name")
    name = name.strip()
    if not name:
        raise UserError("name_required", gettext("Give the payout table a name."), field="name")
    if len(name) > 60:
        raise UserError(
            "name_too_long", gettext("A payout table name has at most 60 characters."), field="name"
        )
    taken = PayoutTable.objects.filter(club=club, name__iexact=name)
    if besides is not None:
        taken = taken.exclude(pk=besides)
    if taken.exists():
        raise ConflictError(
            "payout_table_name_taken",
            gettext("The club already has a payout table “%(name)s”.") % {"name": name},
            field="name",
        )
    try:
        percents = fmt.parse_places([str(p) for p in places])
        extras = [
            fmt.parse_prize(big_loser, what="The Big Loser's prize", field="big_loser"),
            fmt.parse_prize(most_hooks, what="The most hooks prize", field="most_hooks"),
        ]
        fmt.check_extras(extras)
    except fmt.PrizeError as e:
        raise _user_error(e, "bad_payout_table") from None
    shown = ["" if p is None else str(p) for p in extras]
    return name, [str(p) for p in percents], shown[0], shown[1]


def _make_default(table: PayoutTable) -> None:
    others = PayoutTable.objects.filter(club_id=table.club_id, is_default=True)
    if table.pk is not None:
        others = others.exclude(pk=table.pk)
    others.update(is_default=False)


def _bump_club_sessions(club_id: int) -> None:
    """A payout table or the currency shows on the standings of the club's sessions."""
    sessions = Session.objects.filter(club_id=club_id).exclude(entry_fee=None, pool_fixed=None)
    ids = list(sessions.values_list("pk", flat=True))
    Session.objects.filter(pk__in=ids).update(live_version=F("live_version") + 1)
    pagecache.bump_many(ids)


@transaction.atomic
def payout_table_create(
    *,
    club_id: int,
    name: str,
    places: Sequence[str],
    big_loser: str = "",
    most_hooks: str = "",
    is_default: bool = False,
    user: Caller,
) -> PayoutTable:
    """A new payout table of the club. The club's first table is its default."""
    club = _lock_club(club_id)
    require_director(user, club, to=gettext_noop("change its payout tables"))
    name, percents, big_loser, most_hooks = _checked_table(
        club=club,
        name=name,
        places=places,
        big_loser=big_loser,
        most_hooks=most_hooks,
        besides=None,
    )
    first = not PayoutTable.objects.filter(club=club).exists()
    table = PayoutTable(
        club=club, name=name, places=percents, big_loser=big_loser, most_hooks=most_hooks
    )
    table.is_default = is_default or first
    if table.is_default:
        _make_default(table)
    table.save()
    _bump_club_sessions(club.pk)
    audit.record(
        user,
        club=club.pk,
        action="payout_table.create",
        summary=f"Made the payout table {table.name}",
        details={"payout_table_id": table.pk, "places": [str(p) for p in table.places]},
    )
    return table


@transaction.atomic
def payout_table_update(
    *,
    table_id: int,
    name: str,
    places: Sequence[str],
    big_loser: str = "",
    most_hooks: str = "",
    is_default: bool = False,
    user: Caller,
) -> PayoutTable:
    """Change a payout table. The sessions that use it (finished ones too) pay by the
    new split: make a new table for a new season's split instead."""
    found = PayoutTable.objects.filter(pk=table_id).values_list("club_id", flat=True).first()
    if found is None:
        raise UserError("unknown_payout_table", gettext("There is no such payout table."))
    club = _lock_club(found)
    require_director(user, club, to=gettext_noop("change its payout tables"))
    table = PayoutTable.objects.select_for_update().get(pk=table_id)
    name, percents, big_loser, most_hooks = _checked_table(
        club=club,
        name=name,
        places=places,
        big_loser=big_loser,
        most_hooks=most_hooks,
        besides=table.pk,
    )
    if table.is_default and not is_default:
        raise ConflictError(
            "default_payout_table",
            gettext(
                "This is the club's default payout table; make another table the default instead."
            ),
            field="is_default",
        )
    table.name, table.places, table.big_loser, table.most_hooks = (
        name,
        percents,
        big_loser,
        most_hooks,
    )
    if is_default and not table.is_default:
        _make_default(table)
        table.is_default = True
    table.save()
    _bump_club_sessions(club.pk)
    audit.record(
        user,
        club=club.pk,
        action="payout_table.update",
        summary=f"Changed the payout table {table.name}",
        details={"payout_table_id": table.pk, "places": [str(p) for p in table.places]},
    )
    return table


@transaction.atomic
def payout_table_delete(*, table_id: int, user: Caller) -> None:
    """Delete a payout table that no session names. Deleting the default makes the
    club's next table (by name) the default."""
    found = PayoutTable.objects.filter(pk=table_id).values_list("club_id", flat=True).first()
    if found is None:
        raise UserError("unknown_payout_table", gettext("There is no such payout table."))
    club = _lock_club(found)
    require_director(user, club, to=gettext_noop("change its payout tables"))
    table = PayoutTable.objects.get(pk=table_id)
    using = Session.objects.filter(payout_table=table).count()
    if using:
        raise ConflictError(
            "payout_table_in_use",
            ngettext(
                "%(using)s session uses this payout table; give them another one first.",
                "%(using)s sessions use this payout table; give them another one first.",
                using,
            )
            % {"using": using},
        )
    was_default = table.is_default
    audit.record(
        user,
        club=club.pk,
        action="payout_table.delete",
        summary=f"Deleted the payout table {table.name}",
        details={"payout_table_id": table.pk},
    )
    table.delete()
    if was_default:
        PayoutTable.objects.filter(
            pk=PayoutTable.objects.filter(club=club).order_by("name").values("pk")[:1]
        ).update(is_default=True)
    _bump_club_sessions(club.pk)


@transaction.atomic
def club_set_money(*, club_id: int, currency: str, money_unit: str, user: Caller) -> Club:
    """The club's currency (a symbol such as £ or a code such as EUR, up to 8 characters;
    empty: none) and the unit its prizes are rounded to (`cent` or `whole`)."""
    club = _lock_club(club_id)
    require_director(user, club, to=gettext_noop("set its currency"))
    refuse_hidden_characters(currency, what=gettext_noop("Currencies"), field="currency")
    currency = currency.strip()
    if len(currency) > 8:
        raise UserError(
            "currency_too_long",
            gettext(
                "Write the currency as a symbol such as £ or a code such as EUR (at "
                "most 8 characters)."
            ),
            field="currency",
        )
    if money_unit not in ("cent", "whole"):
        raise UserError(
            "unknown_money_unit",
            gettext("Round prizes to `cent` or to `whole` units."),
            field="money_unit",
        )
    changed = audit.changes(
        {"currency": club.currency, "money_unit": club.money_unit},
        {"currency": currency, "money_unit": money_unit},
    )
    club.currency, club.money_unit = currency, money_unit
    club.save(update_fields=["currency", "money_unit"])
    audit.record(
        user,
        club=club.pk,
        action="club.settings",
        summary="Money: "
        + (audit.said(changed, {"currency": "currency", "money_unit": "rounded to"}) or "saved"),
        details=changed,
    )
    _bump_club_sessions(club.pk)
    return club
