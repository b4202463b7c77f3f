"""Writes for the ways into a table without an account: scorer links and table cards.

- A **scorer link** opens one table of one sitting; it dies at the movement.
- A **table card** (`TableCard`) is the permanent link of one table number of a session:
  it opens the game now played at that number whatever the movements did. The session's
  cards are made as its tables are (the start, a rebalance that adds a table).
- A **club card** (`ClubTableCard`) opens that table number of whichever session of the
  club is running.

A card opens its table through a scorer link of its own (`ScorerLink.card` or
`.club_card`), made the first time the card is opened for that table (`card_link`). So a
card lets its holder do exactly what a scorer link does (score that table's current game,
see that session), `tournaments.permissions` needs no second kind of token, and a round
entered through a card is on record as entered through the table's scorer link. Replacing
a card revokes its links at once.

Each service is keyword-only and atomic, and refuses anyone who does not direct the club
(`tournaments.permissions.require_director`) before it writes. Opening a card
(`card_link`) asks no account: holding the card is what lets its holder in.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from common.errors import ConflictError, NotFoundError, UserError
from scoring.locks import lock_session
from tournaments import audit
from tournaments.models import Club, ClubTableCard, ScorerLink, Session, Table, TableCard
from tournaments.permissions import Caller, as_actor, require_director

# A card's token is printed as a short URL (/t/<token>/): 12 characters of URL-safe
# base64, 72 random bits; far beyond guessing, short enough to type from the card.
CARD_TOKEN_BYTES = 9
# The most table cards a club keeps: more tables than any club room holds.
CLUB_CARDS_MAX = 60


def _card_token() -> str:
    return secrets.token_urlsafe(CARD_TOKEN_BYTES)


# Scorer links -----------------------------------------------------------------------------


@transaction.atomic
def scorer_link_create(*, table_id: int, user: Caller) -> ScorerLink:
    """A new scorer link for a table of the running sitting."""
    table = Table.objects.select_related("sitting__session").get(pk=table_id)
    session = lock_session(table.sitting.session_id)
    require_director(user, session.club_id, to=gettext_noop("hand out scorer links"))
    if session.status != Session.Status.RUNNING or table.sitting.moved_at is not None:
        raise ConflictError(
            "sitting_closed",
            gettext("Scorer links are only for the tables of the current sitting."),
        )
    link = ScorerLink.objects.create(
        table=table,
        token=secrets.token_urlsafe(24),
        created_by=as_actor(user).account,
    )
    _record_link(user, table, "scorer_link.create", "Handed out a scorer link")
    return link


@transaction.atomic
def scorer_link_revoke(*, table_id: int, user: Caller) -> int:
    """Revoke every live link of a table; whoever holds one can no longer enter results.
    A table card keeps working: it makes a new link the next time it is opened."""
    table = Table.objects.select_related("sitting__session").get(pk=table_id)
    require_director(user, table.sitting.session.club_id, to=gettext_noop("revoke scorer links"))
    revoked = ScorerLink.objects.filter(
        table_id=table.pk, revoked_at__isnull=True, card__isnull=True, club_card__isnull=True
    ).update(revoked_at=timezone.now())
    _record_link(user, table, "scorer_link.revoke", f"Revoked {_links(revoked)}")
    return revoked


def _links(count: int) -> str:
    return f"{count} scorer link{'s' if count != 1 else ''}"


def _record_link(user: Caller, table: Table, action: str, done: str) -> None:
    session = table.sitting.session
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action=action,
        summary=f"{done} for table {table.rank} of sitting {table.sitting.number}",
        details={"table": table.rank, "sitting": table.sitting.number},
    )


@dataclass(frozen=True)
class ScorerLinkReplaced:
    link: ScorerLink
    revoked: int


@transaction.atomic
def scorer_link_replace(*, table_id: int, user: Caller) -> ScorerLinkReplaced:
    """Hand out a new scorer link in place of the table's live ones, all or nothing: if
    the new link is refused, the old ones keep working."""
    # Two entries in the audit log: the links revoked, the new one handed out.
    revoked = scorer_link_revoke(table_id=table_id, user=user)
    link = scorer_link_create(table_id=table_id, user=user)
    return ScorerLinkReplaced(link=link, revoked=revoked)


# A session's table cards ------------------------------------------------------------------


def table_cards_ensure(*, session: Session) -> int:
    """Give every table number of the session a live card; called (inside their
    transaction) by the writes that add tables. Returns how many cards were made."""
    # Every physical number a table of the session has had, and those below it.
    top = Table.objects.filter(sitting__session=session).aggregate(m=Max("number"))["m"] or 0
    have = set(
        TableCard.objects.filter(session=session, replaced_at__isnull=True).values_list(
            "number", flat=True
        )
    )
    new = [
        TableCard(session=session, number=n, token=_card_token())
        for n in range(1, top + 1)
        if n not in have
    ]
    TableCard.objects.bulk_create(new)
    return len(new)


def _revoke_card_links(**match: object) -> int:
    return ScorerLink.objects.filter(revoked_at__isnull=True, **match).update(
        revoked_at=timezone.now()
    )


@transaction.atomic
def table_card_replace(*, session_id: int, number: int, user: Caller) -> TableCard:
    """A new card for one table number in place of its live one: the old card stops
    opening the table at once and its page says when it was replaced."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("replace its table cards"))
    if session.status in (Session.Status.FINISHED, Session.Status.CANCELLED):
        raise ConflictError(
            "session_over",
            gettext("This session is %(lower)s.") % {"lower": session.get_status_display().lower()},
        )
    old = (
        TableCard.objects.select_for_update()
        .filter(session=session, number=number, replaced_at__isnull=True)
        .first()
    )
    if old is None:
        raise NotFoundError(
            "no_such_card",
            gettext("This session has no card for table %(number)s.") % {"number": number},
        )
    old.replaced_at = timezone.now()
    old.save(update_fields=["replaced_at"])
    _revoke_card_links(card=old)
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="table_card.replace",
        summary=f"Replaced the table card of table {number}",
        details={"table": number},
    )
    return TableCard.objects.create(session=session, number=number, token=_card_token())


# The club's cards -------------------------------------------------------------------------


@transaction.atomic
def club_cards_issue(*, club_id: int, count: int, user: Caller) -> list[ClubTableCard]:
    """Issue the club's cards for tables 1 to `count`, replacing every live one: the
    one action that rotates the club's cards (the old ones say they were replaced)."""
    require_director(user, club_id, to=gettext_noop("issue its table cards"))
    if not 1 <= count <= CLUB_CARDS_MAX:
        raise UserError(
            "card_count",
            gettext("A club has from 1 to %(CLUB_CARDS_MAX)s table cards.")
            % {"CLUB_CARDS_MAX": CLUB_CARDS_MAX},
            field="count",
        )
    # The club's row is the lock: two rotations at once run one after the other.
    Club.objects.select_for_update().get(pk=club_id)
    live = ClubTableCard.objects.filter(club_id=club_id, replaced_at__isnull=True)
    old_ids = list(live.values_list("pk", flat=True))
    ClubTableCard.objects.filter(pk__in=old_ids).update(replaced_at=timezone.now())
    _revoke_card_links(club_card_id__in=old_ids)
    audit.record(
        user,
        club=club_id,
        action="club_cards.issue",
        summary=f"Issued the club's table cards for tables 1 to {count}"
        + (f", replacing {len(old_ids)}" if old_ids else ""),
        details={"count": count, "replaced": len(old_ids)},
    )
    return ClubTableCard.objects.bulk_create(
        ClubTableCard(club_id=club_id, number=n, token=_card_token()) for n in range(1, count + 1)
    )


# Opening a card ---------------------------------------------------------------------------


@transaction.atomic
def card_link(*, table: Table, card: TableCard | ClubTableCard) -> ScorerLink:
    """The card's scorer link for this table (made on first use; every phone that opens
    the card for this table shares it, and double entry tells them apart by browser)."""
    field = "card" if isinstance(card, TableCard) else "club_card"
    type(card).objects.select_for_update().filter(pk=card.pk).first()
    link = ScorerLink.objects.filter(table=table, revoked_at__isnull=True, **{field: card}).first()
    if link is None:
        link = ScorerLink.objects.create(
            table=table, token=secrets.token_urlsafe(24), **{field: card}
        )
    return link
