"""The writes of online play: a player's move, the deal, the robots, and the director's
seat links and per-table switch (docs/tournament.md, "Online play").

A player's credential is their seat token: `move_make` resolves it to its player and
finds that player's seat itself, so a token can only ever move its own seat. Every write
at a table takes the locks of `scoring.locks` in their order (the session shared, the
table, the game), then the table's `LiveRound`. A finished round is stored through
`scoring.services.round_submit` as the `ONLINE` actor, in the same transaction, so the
engine checks it again and the standings, pages and ratings follow as for a scorer; the
next round (or the next game's first) is dealt at once. The table under its locks and
the steps of its round (the deal, a move, the robots, the round stored) are
`play.rounds`; these writes take the locks with it and push the change after the commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from common.errors import ConflictError, UserError
from engine import online as engine_online
from engine.online import END, MoveRefused
from play import deadlines, director_selectors, presence, push, rounds, selectors
from play.models import LiveRound, SeatLink
from scoring import locks
from scoring.models import Game
from scoring.rounds import entry_refusal
from scoring.tables import table_current_game
from tournaments import audit
from tournaments.models import Seating, Session, Table
from tournaments.permissions import Caller, require_director
from tournaments.signals import seats_changed_on_commit
from workflow.session.selectors import current_sitting


class MoveConflict(ConflictError):
    """A move made in a state that is no longer the table's (`stale_move`) or out of
    turn (`not_your_turn`): answered 409 with the current view, which the phone shows."""

    def __init__(self, code: str, message: str, view: dict[str, Any]) -> None:
        super().__init__(code, message)
        self.view = view


def _changed(at: rounds.Locked) -> None:
    """Once the change is made, under the locks: every view read now, and sent (with the
    tick at the next deadline scheduled) once it commits."""
    pushed = at.pushed = at.now()
    transaction.on_commit(lambda: _send(at.table.pk, pushed))


def _send(table_id: int, pushed: selectors.TableNow) -> None:
    push.send(table_id, pushed)
    deadlines.schedule_tick(table_id, pushed.due)


def move_make(*, token: str, move: Any, action: Mapping[str, Any]) -> dict[str, Any]:
    """The move `action` of the holder of `token`, made in the state numbered `move`;
    the seat's new view.

    The token is the credential: it names one player, whose seat this finds. A stale
    `move` or a move out of turn is a `MoveConflict` (409, with the current view); the
    same move sent again answers the current view and changes nothing; a move the rules
    refuse is a `UserError` with the rule in words (400)."""
    place = selectors.place_of(token)
    presence.seen(place.token)
    if place.table_id is None or not place.online:
        raise _no_game(token)
    at = _move_locked(place, place.table_id, move, action)
    pushed = at.pushed if at is not None else None
    if pushed is not None and token in pushed.views:
        return pushed.views[token]
    return selectors.seat_view(token)


@transaction.atomic
def _move_locked(
    place: selectors.Place, table_id: int, move: Any, action: Mapping[str, Any]
) -> rounds.Locked | None:
    """The move under the table's locks; the locked table (its push, once committed), or
    None when the same move was sent twice."""
    at = rounds.lock(table_id, place.session_id)
    now = timezone.now()
    # The movement holds the session exclusively: under the shared lock the seat is
    # as the last movement left it.
    still = Seating.objects.filter(
        table_id=table_id, player_id=place.player_id, left_at__isnull=True
    ).exists()
    if not still or at.game is None or at.live is None:
        raise _no_game(place.token)
    name = next((gp.name for gp in at.game_players() if gp.player_id == place.player_id), None)
    if name is None or at.game.status == Game.Status.FINISHED or entry_refusal(at.game):
        raise _no_game(place.token)
    live = at.live
    if not isinstance(move, int) or isinstance(move, bool) or move != live.move:
        if any(
            h["move"] == move and h["player"] == name and h["action"] == dict(action)
            for h in live.history
        ):
            return None  # sent twice: taken once
        raise MoveConflict(
            "stale_move",
            f"The table has moved on (move {live.move}, not {move!r}): here is where it "
            "stands now.",
            selectors.seat_view(place.token),
        )
    rnd = at.round()
    assert rnd is not None
    if rnd.to_act() != name:
        who = rnd.to_act()
        raise MoveConflict(
            "not_your_turn",
            f"It is {who}'s turn, not yours; wait for your turn." if who else "The round is over.",
            selectors.seat_view(place.token),
        )
    try:
        rounds.apply_move(live, rnd, name, action, robot=None, now=now)
    except MoveRefused as refused:
        raise UserError(refused.code, refused.message) from None
    at.kept(rnd)
    if rnd.phase == END:
        rounds.store_round(at, rnd, now)
    rounds.run_robots(at, now)
    _changed(at)
    return at


def seat_read(token: str) -> dict[str, Any]:
    """The seat's view as every read gives it (`GET /api/play/{seat_token}/`, the seat
    page, a WebSocket's connect): the player marked present, the table ticked (a round
    dealt when none is, the robots' due moves made), then the view. `no_such_seat` (404)
    for an unknown token. The table's state read to see whether it needs a tick is the
    view's when it does not (a phone that polls asks this every few seconds)."""
    link = selectors.seat_link(token)
    presence.seen(link.token)
    seating = selectors.seating_of(link)
    if seating is None or not seating.table.online:
        return selectors.seat_view_at(link, seating)
    state = selectors.table_state(seating.table)
    if _work_in(state, timezone.now()):
        tick(table_id=seating.table_id)
        return selectors.seat_view_at(link, seating)  # the table read again
    return selectors.seat_view_at(link, seating, state)


def _no_game(token: str) -> MoveConflict:
    return MoveConflict(
        "no_game", "There is no online game at your seat now.", selectors.seat_view(token)
    )


def _needs_work(table_id: int, now: datetime) -> bool:
    """Without locks: whether the table has a round to deal or a robot's move to make."""
    table = Table.objects.select_related("sitting__session").filter(pk=table_id).first()
    return table is not None and _work_in(selectors.table_state(table), now)


def _work_in(state: selectors.TableState, now: datetime) -> bool:
    """`_needs_work` from a state read (`selectors.table_state`)."""
    game, live, rnd = state.game, state.live, state.round
    if not state.table.online or game is None or game.status == Game.Status.FINISHED:
        return False
    if entry_refusal(game) is not None:
        return False
    if live is None or live.number != game.round_count + 1:
        return True
    who = rnd.to_act() if rnd is not None else None
    if rnd is None or who is None:
        return False
    at = rounds.Locked(session=state.session, table=state.table, game=game, live=live)
    at.know(state.game_players, state.tokens)
    return rounds.robot_reason(at, rnd, who, now) is not None


def deal_if_needed(table_id: int) -> bool:
    """Deal the online table's next round when its current game has none dealt (the first
    read after a movement deals); whether it dealt."""
    return tick(table_id=table_id, robots=False)


def tick(*, table_id: int, robots: bool = True) -> bool:
    """Deal when needed and make the robots' moves that are due (a robot player's at
    once, an absent player's after the grace time, a move whose clock ran out); whether
    anything changed. Called after every move, on every read, by the WebSocket timers
    and by the task scheduled at the next deadline. Safe to call at any time."""
    now = timezone.now()
    if not _needs_work(table_id, now):
        return False
    with transaction.atomic():
        at = rounds.lock(table_id)
        changed = rounds.deal(at, now)
        if robots:
            changed = rounds.run_robots(at, now) > 0 or changed
        if changed:
            _changed(at)
    return changed


@transaction.atomic
def seat_links_ensure(*, session_id: int, user: Caller) -> list[dict[str, Any]]:
    """A seat link for every player seated in the session's current sitting who has
    none; the seats list (docs/api.md, `GET /api/sessions/{id}/seats/`)."""
    session = locks.lock_session(session_id)
    require_director(user, session.club_id, to="hand out its seat links")
    sitting = current_sitting(session)
    made: list[str] = []
    if sitting is not None:
        seated = Seating.objects.filter(sitting=sitting, left_at__isnull=True).select_related(
            "player"
        )
        have = set(SeatLink.objects.filter(session=session).values_list("player_id", flat=True))
        new = [
            SeatLink(session=session, player=s.player) for s in seated if s.player_id not in have
        ]
        SeatLink.objects.bulk_create(new)
        made = [link.player.name for link in new]
    if made:
        audit.record(
            user,
            club=session.club_id,
            session=session,
            action="play.seat_links",
            summary=f"Made seat links for {len(made)} players",
            details={"players": made},
        )
    return director_selectors.seat_list(session)


@transaction.atomic
def table_online_set(*, table_id: int, online: bool, user: Caller) -> Table:
    """Switch one table of the current sitting online or to paper (a hybrid night).
    Refused once a round has been played online at the table's current game."""
    session_id = (
        Table.objects.filter(pk=table_id).values_list("sitting__session_id", flat=True).first()
    )
    if session_id is None:
        raise UserError("no_such_table", "That table does not exist.")
    session = locks.lock_session(session_id)
    require_director(user, session.club_id, to="switch its tables online")
    table = locks.lock_table(table_id)
    if session.status in (Session.Status.FINISHED, Session.Status.CANCELLED):
        raise ConflictError("session_finished", "This session is over.")
    if online and not engine_online.playable(session.rules_id):
        raise UserError("not_playable_online", "This game cannot be played online yet.")
    sitting = current_sitting(session)
    if sitting is None or sitting.pk != table.sitting_id:
        raise ConflictError(
            "sitting_closed", "Only the tables of the current sitting can be switched."
        )
    if table.online == online:
        return table
    game = table_current_game(table)
    live = LiveRound.objects.filter(game=game).first() if game is not None else None
    under_way = game is not None and game.status != Game.Status.FINISHED
    if game is not None and live is not None and under_way and (live.history or live.number > 1):
        raise ConflictError(
            "online_round_played",
            f"Table {table.number} has played online in game {game.number}; it can switch "
            "when the game is over.",
        )
    # A game with paper rounds may go online: its online rounds carry on from them.
    if live is not None:
        live.delete()
    table.online = online
    table.save(update_fields=["online"])
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="play.table_online",
        summary=f"Table {table.number} plays {'online' if online else 'on paper'}",
        details={"table": table.rank, "number": table.number, "online": online},
    )
    # Its phones and watchers see the table's new way of play (`play.push.seats_changed`).
    seats_changed_on_commit(session.pk, tables=[table_id])
    return table
