"""Where each player of a session is now, for "Follow my table" (docs/tournament.md): a
phone that follows a player asks every few seconds, so the answer for every player is
built once per generation of the session (`tournaments.pagecache.kept`) and each
phone's answer is a lookup. Each place says whether its table plays online
(`Table.online`), never how to reach the seat: the seat link is the player's credential,
and a phone that holds it shows it itself (docs/tournament.md, "Follow my table").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from tournaments import pagecache
from tournaments.models import Session, SessionPlayer
from workflow.session import selectors


@dataclass(frozen=True)
class Where:
    """Where one player is now: `state` is `seated` (with `table`, `seat`, `others`, and
    whether the table plays `online`), `sitting_out`, `withdrawn`, `waiting` (on the
    roster, tables not drawn yet, or arrived and not seated yet) or, once the session is
    over, `finished` (with the last table and seat)."""

    name: str
    state: str
    sitting: int | None = None
    table: int | None = None
    seat: int | None = None
    #: The others at the table: (name, seat), by seat.
    others: tuple[tuple[str, int], ...] = ()
    #: The table plays online: the cards are dealt and played on the players' phones.
    online: bool = False

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "state": self.state,
            "sitting": self.sitting,
            "table": self.table,
            "seat": self.seat,
            "with": [{"name": n, "seat": s} for n, s in self.others],
            "online": self.online,
            "text": self.text,
        }

    @property
    def text(self) -> str:
        """The answer in words, as the page says it and a screen reader reads it."""
        if self.state in ("seated", "finished") and self.table is not None:
            words = {
                "name": self.name,
                "sitting": self.sitting,
                "table": self.table,
                "seat": self.seat,
            }
            if self.state == "finished":
                return (
                    gettext(
                        "The session has finished. %(name)s last played at table %(table)s, "
                        "seat %(seat)s."
                    )
                    % words
                )
            if self.online:
                return (
                    gettext(
                        "Sitting %(sitting)s: %(name)s plays at table %(table)s, seat %(seat)s. "
                        "The table plays online: play on your phone."
                    )
                    % words
                )
            return (
                gettext("Sitting %(sitting)s: %(name)s plays at table %(table)s, seat %(seat)s.")
                % words
            )
        if self.state == "sitting_out":
            return gettext("Sitting %(sitting)s: %(name)s sits out; no table this sitting.") % {
                "sitting": self.sitting,
                "name": self.name,
            }
        if self.state == "withdrawn":
            return gettext("%(name)s has withdrawn from the session.") % {"name": self.name}
        return gettext("%(name)s has no table yet: wait for the director to seat the tables.") % {
            "name": self.name
        }


def where_everyone_is(session: Session) -> dict[int, Where]:
    """Every player of the session's roster by id, in four queries."""
    sitting = selectors.current_sitting(session)
    entries = SessionPlayer.objects.filter(session=session).values_list(
        "player_id", "player__name", "withdrawn_at"
    )
    places: dict[int, Where] = {}
    finished = session.status == Session.Status.FINISHED
    withdrawn: set[int] = set()
    for player_id, name, withdrawn_at in entries:
        state = "withdrawn" if withdrawn_at is not None else "waiting"
        if withdrawn_at is not None:
            withdrawn.add(player_id)
        places[player_id] = Where(name=name, state=state)
    if sitting is None:
        return places
    # Players see the physical table (its number), as on find my table and the cards.
    tables = {
        pk: (number, online)
        for pk, number, online in sitting.tables.values_list("pk", "number", "online")
    }
    for table_id, people in selectors.players_by_table(sitting).items():
        for seat, name, player_id in people:
            if player_id in withdrawn:
                continue
            number, online = tables.get(table_id, (None, False))
            places[player_id] = Where(
                name=name,
                state="finished" if finished else "seated",
                sitting=sitting.number,
                table=number,
                seat=seat,
                others=tuple((n, s) for s, n, _ in people if s != seat),
                online=online and not finished,
            )
    if not finished:
        for player_id, name in sitting.sit_outs.values_list("player_id", "player__name"):
            if player_id not in withdrawn:
                places[player_id] = Where(name=name, state="sitting_out", sitting=sitting.number)
    return places


def where_is(session: Session, player_id: int, *, current: str | None = None) -> Where | None:
    """Where one player is now (None: not on the session's roster), from what is kept
    of the session's generation."""
    places = pagecache.kept(
        session.pk, "follow", lambda: where_everyone_is(session), current=current
    )
    return places.get(player_id)
