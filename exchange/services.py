"""Writes of the exchange app: a roster import, and the club's ladder scoring.

A roster import runs in two steps. `roster_preview` reads the file and says, row by row,
what confirming would do (add a player, match one, or refuse the row) and writes
nothing. `roster_import` reads the same file again, with the club locked, and writes all
of it in one transaction, or nothing: when any row is refused, or when the club's
players changed since the preview (the director sees the new preview first).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from django.db import transaction
from django.utils.translation import gettext, gettext_noop, ngettext, pgettext

from common.errors import ConflictError, UserError
from common.matching import match_key, near_misses, spelled
from exchange.roster import RosterRow, parse_roster
from tournaments import audit
from tournaments.models import Club, Player
from tournaments.permissions import Caller, require_director

Action = Literal["add", "match", "refuse"]


@dataclass(frozen=True)
class PreviewRow:
    line: int
    name: str
    action: Action
    player_id: int | None = None
    # Refused: why. Matched: how (by external id or by name). Added: a near miss, if any.
    reason: str = ""
    # Matched: what confirming changes on the player, in words.
    changes: tuple[str, ...] = ()
    email: str = ""
    external_id: str = ""
    rating: float | None = None


@dataclass(frozen=True)
class RosterPreview:
    rows: tuple[PreviewRow, ...]
    columns: tuple[str, ...] = field(default=())
    #: The file's columns that are not read, by their headings ("Phone", "Notes").
    ignored: tuple[str, ...] = field(default=())

    def of(self, action: Action) -> list[PreviewRow]:
        return [r for r in self.rows if r.action == action]

    @property
    def added(self) -> list[PreviewRow]:
        return self.of("add")

    @property
    def matched(self) -> list[PreviewRow]:
        return self.of("match")

    @property
    def refused(self) -> list[PreviewRow]:
        return self.of("refuse")

    @property
    def can_confirm(self) -> bool:
        return not self.refused and any(r.action == "add" or r.changes for r in self.rows)

    def fingerprint(self) -> str:
        """What confirming would do, as a digest: a confirm whose file or club changed
        since the preview the director saw is refused."""
        text = json.dumps([asdict(r) for r in self.rows], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    def as_dict(self) -> dict[str, Any]:
        return {
            "columns": list(self.columns),
            "ignored_columns": list(self.ignored),
            "can_confirm": self.can_confirm,
            "fingerprint": self.fingerprint(),
            "added": len(self.added),
            "matched": len(self.matched),
            "refused": len(self.refused),
            "rows": [{**asdict(r), "changes": list(r.changes)} for r in self.rows],
        }


def _shown(value: object) -> str:
    if value is None or value == "":
        return gettext("(none)")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


#: Near misses are looked for while the new rows times the club's players stay below this:
#: a first import of thousands into a club of thousands is not held up by them.
NEAR_MISS_BUDGET = 250_000


def _near_note(name: str, players: Sequence[Player]) -> str:
    """What an added row says when the name is a typo or two from a player's."""
    near = near_misses(name, [p.name for p in players], limit=3)
    if not near:
        return ""
    between = pgettext("between names", "or")
    return gettext(
        "a new player; did you mean %(names)s? Write the name as the club has it to match "
        "that player"
    ) % {"names": f" {between} ".join(near)}


def _classify(rows: Sequence[RosterRow], players: Sequence[Player]) -> tuple[PreviewRow, ...]:
    # Names match by `common.matching.match_key` (case, accents, punctuation and spacing do
    # not count); of two stored names that differ only so, the one written as in the file
    # (`common.matching.spelled`) wins. A match on a name written otherwise says so in the
    # preview ("did you mean"), which the director confirms: never a second player, never a
    # silent merge. A new name a typo or two from a player's says so too (`_near_note`).
    by_name: dict[str, list[Player]] = {}
    for p in sorted(players, key=lambda p: p.pk):
        by_name.setdefault(match_key(p.name), []).append(p)
    written = {spelled(p.name): p for p in players}
    by_external = {p.external_id: p for p in players if p.external_id}
    claimed: dict[int, int] = {}
    result: list[PreviewRow] = []
    near = len(rows) * len(players) <= NEAR_MISS_BUDGET
    for row in rows:

        def preview(action: Action, row: RosterRow = row, **kw: Any) -> PreviewRow:
            return PreviewRow(
                line=row.line,
                name=row.name,
                email=row.email,
                external_id=row.external_id,
                rating=row.rating,
                action=action,
                **kw,
            )

        if row.error is not None:
            result.append(preview("refuse", reason=row.error))
            continue
        player = by_external.get(row.external_id) if row.external_id else None
        how = gettext("by external id")
        by_id = player is not None
        if player is None:
            player = written.get(spelled(row.name))
            same = by_name.get(match_key(row.name), [])
            if player is None and len(same) > 1:
                between = pgettext("between names", "and")
                reason = gettext(
                    "the club has %(count)s players of that name (%(names)s): write it as the "
                    "club writes the one it is"
                ) % {"count": len(same), "names": f" {between} ".join(p.name for p in same)}
                result.append(preview("refuse", reason=reason))
                continue
            player = player or (same[0] if same else None)
            how = gettext("by name")
            if player is not None and spelled(player.name) != spelled(row.name):
                how = gettext("by name written otherwise: did you mean %(name)s?") % {
                    "name": player.name
                }
        if player is None:
            result.append(preview("add", reason=_near_note(row.name, players) if near else ""))
            continue
        if player.pk in claimed:
            reason = gettext("matches the same player (%(name)s) as line %(line)s") % {
                "name": player.name,
                "line": claimed[player.pk],
            }
            result.append(preview("refuse", player_id=player.pk, reason=reason))
            continue
        if row.external_id and player.external_id and player.external_id != row.external_id:
            reason = gettext(
                "%(name)s has the external id %(old)s already; the file says %(new)s"
            ) % {"name": player.name, "old": repr(player.external_id), "new": repr(row.external_id)}
            result.append(preview("refuse", player_id=player.pk, reason=reason))
            continue
        claimed[player.pk] = row.line
        changes: list[str] = []
        if row.email and row.email != player.email:
            changes.append(
                gettext("email: %(old)s → %(new)s")
                % {"old": _shown(player.email), "new": row.email}
            )
        if row.external_id and row.external_id != player.external_id:
            changes.append(
                gettext("external id: %(old)s → %(new)s")
                % {"old": _shown(player.external_id), "new": row.external_id}
            )
        if row.rating is not None and row.rating != player.seed_rating:
            changes.append(
                gettext("rating: %(old)s → %(new)s")
                % {"old": _shown(player.seed_rating), "new": _shown(row.rating)}
            )
        if by_id and match_key(player.name) != match_key(row.name):
            how = gettext("by external id (the name stays %(name)s)") % {"name": player.name}
        result.append(preview("match", player_id=player.pk, reason=how, changes=tuple(changes)))
    return tuple(result)


def roster_preview(*, club: Club, content: bytes) -> RosterPreview:
    """What importing `content` would do; writes nothing. A file that cannot be read at
    all raises `UserError`."""
    parsed = parse_roster(content)
    players = list(Player.objects.filter(club=club))
    return RosterPreview(
        rows=_classify(parsed.rows, players), columns=parsed.columns, ignored=parsed.ignored
    )


@dataclass(frozen=True)
class RosterResult:
    added: int
    updated: int
    unchanged: int


@transaction.atomic
def roster_import(
    *, club_id: int, content: bytes, expected: str | None = None, user: Caller
) -> RosterResult:
    """Import the roster file: all of it, or nothing.

    `expected` is the fingerprint of the preview the director confirmed; when the club's
    players changed since (another import, a new session's players), the import is
    refused so that the director sees the new preview first.
    """
    require_director(user, club_id, to=gettext_noop("import its roster"))
    parsed = parse_roster(content)
    # The club row serialises imports of one club: two directors confirming at once
    # cannot both add the same name.
    Club.objects.select_for_update().get(pk=club_id)
    players = {p.pk: p for p in Player.objects.select_for_update().filter(club_id=club_id)}
    preview = RosterPreview(
        rows=_classify(parsed.rows, list(players.values())),
        columns=parsed.columns,
        ignored=parsed.ignored,
    )
    if preview.refused:
        lines = ", ".join(str(r.line) for r in preview.refused[:10])
        raise UserError(
            "roster_refused",
            ngettext(
                "%(count)d row is refused (line %(lines)s); fix them in the file "
                "and upload it again. Nothing was imported.",
                "%(count)d rows are refused (line %(lines)s); fix them in the file "
                "and upload it again. Nothing was imported.",
                len(preview.refused),
            )
            % {"count": len(preview.refused), "lines": lines},
        )
    if expected is not None and preview.fingerprint() != expected:
        raise ConflictError(
            "roster_changed",
            gettext(
                "The club's players changed since the preview; look at the new preview "
                "and confirm again. Nothing was imported."
            ),
        )
    new = [
        Player(
            club_id=club_id,
            name=r.name,
            email=r.email,
            external_id=r.external_id,
            seed_rating=r.rating,
        )
        for r in preview.added
    ]
    Player.objects.bulk_create(new)
    updated: list[Player] = []
    for r in preview.matched:
        if not r.changes:
            continue
        assert r.player_id is not None
        player = players[r.player_id]
        player.email = r.email or player.email
        player.external_id = r.external_id or player.external_id
        player.seed_rating = r.rating if r.rating is not None else player.seed_rating
        updated.append(player)
    Player.objects.bulk_update(updated, ["email", "external_id", "seed_rating"])
    result = RosterResult(
        added=len(new), updated=len(updated), unchanged=len(preview.matched) - len(updated)
    )
    audit.record(
        user,
        club=club_id,
        action="roster.import",
        summary=f"Imported the roster: {result.added} added, {result.updated} updated, "
        f"{result.unchanged} unchanged",
        details={
            "added": [p.name for p in new],
            "updated": [{"id": p.pk, "name": p.name} for p in updated],
            "unchanged": result.unchanged,
            "ignored_columns": list(parsed.ignored),
        },
    )
    return result


LADDER_SCORINGS = ("average", "placings", "totals")
MAX_BEST_NIGHTS = 100


@transaction.atomic
def club_ladder_update(
    *, club_id: int, scoring: str, best_nights: int | None, user: Caller
) -> Club:
    """The club's choice of season ladder scoring, for every season's ladder."""
    require_director(user, club_id, to=gettext_noop("choose its ladder scoring"))
    if scoring not in LADDER_SCORINGS:
        raise UserError(
            "ladder_scoring_unknown",
            gettext("Choose a ladder scoring: average finish, points per placing or totals."),
            field="scoring",
        )
    if best_nights is not None and not 1 <= best_nights <= MAX_BEST_NIGHTS:
        raise UserError(
            "ladder_best_nights_invalid",
            gettext(
                "Best nights must be a number from 1 to %(MAX_BEST_NIGHTS)s, or empty "
                "for every night."
            )
            % {"MAX_BEST_NIGHTS": MAX_BEST_NIGHTS},
            field="best_nights",
        )
    club = Club.objects.select_for_update().get(pk=club_id)
    fields = {"ladder_scoring": "ladder scoring", "ladder_best_nights": "best nights"}
    before = {f: getattr(club, f) for f in fields}
    club.ladder_scoring = scoring
    club.ladder_best_nights = best_nights
    club.save(update_fields=["ladder_scoring", "ladder_best_nights"])
    audit.settings_changed(user, club, before, {f: getattr(club, f) for f in fields}, fields)
    # The cached ladders need no clearing: their cache key names the scoring in force.
    return club
