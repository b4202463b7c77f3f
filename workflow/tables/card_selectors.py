"""Reads for table cards (docs/tournament.md, "Table cards"): the cards to print, and
what a card opens now.

- `table_cards(session)` and `club_table_cards(club)`: the live cards, one per table
  number, as `CardLink` (number, short URL path, rules name): what the printed sheet and
  the director's pages show.
- `session_card_target(card)` and `club_card_target(card, session_id)`: where a card
  leads now, as a `CardTarget` (a table to score, or the plain reason why not).

The writes (making, replacing and rotating cards) are in `workflow.tables.links`. The
cards sit below the running session (docs/architecture.md), which makes them as it
seats its sittings: they read the session's rows themselves, not its reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import quote

from django.urls import reverse
from django.utils.translation import gettext, ngettext

import engine
from tournaments.models import Club, ClubTableCard, Session, Table, TableCard
from workflow.sittings import current_sittings


@dataclass(frozen=True)
class CardLink:
    """One printed card: its table number, the short URL's path (`/t/<token>/`, absolute
    path without the host) and the name of the rules played ("" on a club card, which
    serves every session)."""

    number: int
    url: str
    rules_name: str
    token: str
    created_at: datetime


def _card_url(name: str) -> Callable[[str], str]:
    """The card URL for a token: reversed once, the token put in per card (250 cards at a
    big event; tokens are URL-safe, so nothing in them needs quoting)."""
    pattern = reverse(name, args=["TOKEN"])
    before, after = pattern.split("TOKEN", 1)
    return lambda token: f"{before}{quote(token, safe='')}{after}"


def table_cards(session: Session) -> list[CardLink]:
    """The session's live table cards, by number (one query)."""
    rules = engine.RULES.get(session.rules_id)
    rules_name = rules.name if rules is not None else session.rules_id
    url = _card_url("tournaments:table_card")
    return [
        CardLink(
            number=card.number,
            url=url(card.token),
            rules_name=rules_name,
            token=card.token,
            created_at=card.created_at,
        )
        for card in TableCard.objects.filter(session=session, replaced_at__isnull=True).order_by(
            "number"
        )
    ]


def club_table_cards(club: Club) -> list[CardLink]:
    """The club's live laminated cards, by number (one query)."""
    return [
        CardLink(
            number=card.number,
            url=reverse("tournaments:club_card", args=[card.token]),
            rules_name="",
            token=card.token,
            created_at=card.created_at,
        )
        for card in ClubTableCard.objects.filter(club=club, replaced_at__isnull=True).order_by(
            "number"
        )
    ]


@dataclass(frozen=True)
class CardTarget:
    """Where a card leads now: `table` to score, or a `reason` in plain words (and the
    session it concerns, for a link to its tables or standings). `choices` lists the
    running sessions when a club card must ask which one."""

    table: Table | None = None
    session: Session | None = None
    reason: str = ""
    title: str = ""
    choices: tuple[Session, ...] = ()
    replaced_at: datetime | None = None


def _table_now(session: Session, number: int) -> CardTarget:
    if session.status == Session.Status.SETUP:
        return CardTarget(
            session=session,
            title=gettext("Not started yet"),
            reason=gettext(
                "%(session)s has not started yet. This card opens table %(number)s "
                "once the director starts the session."
            )
            % {"session": session.name, "number": number},
        )
    if session.status != Session.Status.RUNNING:
        finished = session.status == Session.Status.FINISHED
        words = {"session": session.name, "number": number}
        return CardTarget(
            session=session,
            title=gettext("Session finished") if finished else gettext("Session cancelled"),
            reason=(
                gettext(
                    "%(session)s is finished; there is nothing more to score at table %(number)s."
                )
                if finished
                else gettext(
                    "%(session)s is cancelled; there is nothing more to score at table %(number)s."
                )
            )
            % words,
        )
    table = (
        Table.objects.filter(
            sitting__in=current_sittings(session),
            sitting__moved_at__isnull=True,
            # The physical table: the rank it hosts changes when a player does not move.
            number=number,
        )
        .select_related("sitting__session__club")
        .first()
    )
    if table is None:
        return CardTarget(
            session=session,
            title=gettext("No table %(number)s now") % {"number": number},
            reason=gettext(
                "Nobody plays at table %(number)s in this sitting of %(session)s (the "
                "director has fewer tables now). Ask the director where to sit."
            )
            % {"number": number, "session": session.name},
        )
    return CardTarget(table=table, session=session)


def session_card_target(card: TableCard) -> CardTarget:
    """The game a session's card opens now, or why it opens none."""
    if card.replaced_at is not None:
        return CardTarget(
            session=card.session,
            title=gettext("This card was replaced"),
            replaced_at=card.replaced_at,
            reason=gettext(
                "The director replaced this card for table %(number)s; it no longer "
                "opens the table. Ask the director for the new card."
            )
            % {"number": card.number},
        )
    return _table_now(card.session, card.number)


def club_card_target(card: ClubTableCard, session_id: int | None = None) -> CardTarget:
    """The table a club card opens now: that number in the club's running session; when
    two run at once, the page asks which (`session_id` is the answer)."""
    if card.replaced_at is not None:
        return CardTarget(
            title=gettext("This card was replaced"),
            replaced_at=card.replaced_at,
            reason=gettext(
                "The club's cards were replaced; this card for table %(number)s no "
                "longer opens a table. Ask the director for the new card."
            )
            % {"number": card.number},
        )
    running = tuple(
        Session.objects.filter(club_id=card.club_id, status=Session.Status.RUNNING).order_by(
            "-date", "name", "pk"
        )
    )
    if session_id is not None:
        chosen = [s for s in running if s.pk == session_id]
        if chosen:
            return _table_now(chosen[0], card.number)
    if len(running) == 1:
        return _table_now(running[0], card.number)
    if not running:
        return CardTarget(
            title=gettext("No session running"),
            reason=gettext(
                "No session of %(club)s is running now. This card opens table "
                "%(number)s once the director starts one."
            )
            % {"club": card.club.name, "number": card.number},
        )
    return CardTarget(
        title=gettext("Which session?"),
        reason=ngettext(
            "%(count)s session of %(club)s is running now. Which one are you playing at "
            "table %(number)s?",
            "%(count)s sessions of %(club)s are running now. Which one are you playing at "
            "table %(number)s?",
            len(running),
        )
        % {"count": len(running), "club": card.club.name, "number": card.number},
        choices=running,
    )
