"""Clubs, seasons, players and the shape of a session: sittings, tables and seatings.

The rules of the format live in `tournaments.format` (pure Python); writes go through
`workflow.session.services` and its siblings, reads through `workflow.session.selectors`.

One app, one set of migrations, in modules by subject: `club` (clubs, seasons, players),
`session` (a night and its roster), `seating` (sittings, tables, seats, placings,
standings), `cards` (table cards and scorer links), `seating_wishes` (pairs kept apart),
`prizes` (payout tables), `registrations` (sign-up before the night), `calls` (calls for
the director), `audit` (what the directors did). Everything is imported from here.
"""

from tournaments.models.audit import AuditEntry
from tournaments.models.calls import DirectorCall
from tournaments.models.cards import ClubTableCard, ScorerLink, TableCard
from tournaments.models.club import (
    BigLoserAward,
    Club,
    Player,
    Season,
    rules_choices,
    validate_time_zone,
)
from tournaments.models.prizes import PayoutTable
from tournaments.models.registrations import Registration
from tournaments.models.seating import Placing, Seating, SessionStanding, SitOut, Sitting, Table
from tournaments.models.seating_wishes import KeepApart
from tournaments.models.session import Session, SessionPlayer

__all__ = [
    "AuditEntry",
    "BigLoserAward",
    "Club",
    "ClubTableCard",
    "DirectorCall",
    "KeepApart",
    "PayoutTable",
    "Placing",
    "Player",
    "Registration",
    "ScorerLink",
    "Season",
    "Seating",
    "Session",
    "SessionPlayer",
    "SessionStanding",
    "SitOut",
    "Sitting",
    "Table",
    "TableCard",
    "rules_choices",
    "validate_time_zone",
]
