"""The writes of online play: a player's move, the deal, the robots, and the director's
seat links and per-table switch (docs/tournament.md, "Online play").

A player's credential is their seat token: `move_make` resolves it to its player and
finds that player's seat itself, so a token can only ever move its own seat. Every write
at a table takes the locks of `scoring.locks` in their order (the session shared, the
table, the game), then the table's `LiveRound`. A finished round is stored through
`scoring.services.round_submit` as the `ONLINE` actor, in the same transaction, so the
engine checks it again and the standings, pages and ratings follow as for a scorer; the
next round (or the next game's first) is dealt at once.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from common.errors import ConflictError, UserError
from engine import online as engine_online
from engine.online import END, MoveRefused, OnlineRound, RoundStart
from play import deadlines, duplicate, presence, push, selectors
from play.models import LiveRound, SeatLink
from scoring import locks
from scoring import services as scoring
from scoring.models import Game, GamePlayer
from scoring.records import game_check
from scoring.rounds import entry_refusal
from scoring.tables import table_current_game
from tournaments import audit
from tournaments.models import Seating, Session, Table
from tournaments.permissions import ONLINE, Caller, require_director
from workflow.selectors import current_sitting

#: The most robot moves one call makes (a table of robots plays on at the next tick).
ROBOT_MOVES_PER_CALL = 400


class MoveConflict(ConflictError):
    """A move made in a state that is no longer the table's (`stale_move`) or out of
    turn (`not_your_turn`): answered 409 with the current view, which the phone shows."""

    def __init__(self, code: str, message: str, view: dict[str, Any]) -> None:
        super().__init__(code, message)
        self.view = view


@dataclass
class Locked:
    """A table under its locks, with its current game and the round being played."""

    session: Session
    table: Table
    game: Game | None
    live: LiveRound | None
    # What the push after the commit sends (every seat's view, read under the locks
    # once the change is made): the mover's answer is their view from it, not read again.
    pushed: selectors.TableNow | None = None
    _players: list[GamePlayer] | None = None
    _tokens: dict[int, str] | None = None
    _tokens_of: frozenset[int] = frozenset()
    _round: tuple[tuple[int, int, int], OnlineRound] | None = None

    def round(self) -> OnlineRound | None:
        """The round being played, restored from its state once per state: a move made
        with `_apply` keeps the round it moved (`kept`)."""
        if self.game is None or self.live is None:
            return None
        key = (self.live.pk, self.live.number, self.live.move)
        if self._round is None or self._round[0] != key:
            self._round = (key, engine_online.restore(self.game.rules_id, self.live.state))
        return self._round[1]

    def kept(self, rnd: OnlineRound) -> None:
        """`rnd` is the round of the live state now (just moved and saved)."""
        assert self.live is not None
        self._round = ((self.live.pk, self.live.number, self.live.move), rnd)

    def game_players(self) -> list[GamePlayer]:
        """The current game's players by seat, with their `Player` rows (read once)."""
        if self.game is None:
            return []
        if self._players is None or (self._players and self._players[0].game_id != self.game.pk):
            self._players = list(self.game.game_players.select_related("player").order_by("seat"))
        return self._players

    def know(self, game_players: list[GamePlayer], tokens: dict[int, str]) -> None:
        """The game's players and their tokens, read by the caller (`table_state`)."""
        self._players = list(game_players)
        self._tokens_of = frozenset(gp.player_id for gp in game_players)
        self._tokens = dict(tokens)

    def tokens(self) -> dict[int, str]:
        """The seat tokens of the current game's players, by player id (read once, and
        again for a game with other players)."""
        ids = frozenset(gp.player_id for gp in self.game_players())
        if self._tokens is None or ids != self._tokens_of:
            self._tokens_of = ids
            self._tokens = dict(
                SeatLink.objects.filter(session=self.session, player_id__in=ids).values_list(
                    "player_id", "token"
                )
            )
        return self._tokens

    def now(self) -> selectors.TableNow:
        """What every seat and watcher sees now, from what is held (under the locks)."""
        state = selectors.table_state_of(
            self.table, self.game, self.game_players(), self.live, self.round(), self.tokens()
        )
        return selectors.table_now_of(state)


def _lock(table_id: int, session_id: int | None = None) -> Locked:
    """Lock a table's rows in the order of `scoring.locks`: the session shared, the table,
    its current game, then the game's `LiveRound`. `session_id` is the table's session
    when the caller has read it (a table never changes session)."""
    if session_id is None:
        session_id = (
            Table.objects.filter(pk=table_id).values_list("sitting__session_id", flat=True).first()
        )
    if session_id is None:
        raise UserError("no_such_table", "That table does not exist.")
    locks.share_session(session_id)
    table = locks.lock_table(table_id, related=True)
    game = locks.lock_current_game(table)
    live = None
    if game is not None:
        live = LiveRound.objects.select_for_update().filter(game=game).first()
    return Locked(session=table.sitting.session, table=table, game=game, live=live)


def _next_move(session: Session) -> int:
    """The first state number of a new game's rounds: above every number the session's
    phones hold, so a move sent from an earlier table or game is always stale."""
    last = (
        LiveRound.objects.filter(game__table__sitting__session=session)
        .order_by("-move")
        .values_list("move", flat=True)
        .first()
    )
    return (last or 0) + 1


def _deal(at: Locked, now: datetime) -> bool:
    """Deal the next round of the table's current game when none is dealt; whether it
    dealt. Under `_lock`."""
    table, game, live = at.table, at.game, at.live
    if not table.online or game is None or game.status == Game.Status.FINISHED:
        return False
    if entry_refusal(game) is not None:
        return False
    number = game.round_count + 1
    if live is not None and live.number == number:
        return False
    verdict = game_check(game)
    if not verdict["valid"] or verdict["finished"] or verdict["next_dealer"] is None:
        return False
    players = tuple(gp.name for gp in at.game_players())
    start = RoundStart(
        rules_id=game.rules_id,
        players=players,
        dealer=verdict["next_dealer"],
        number=number,
        options=duplicate.round_options(game.rules_id, game.options),
        scores=dict(verdict["scores"]),
        earlier=[r.data for r in game.rounds.order_by("number")],
    )
    rnd = engine_online.deal(start, _shuffled(at, engine_online.pack(start)))
    if live is None:
        live = LiveRound(game=game, move=_next_move(at.session))
    else:
        live.move += 1
    live.number = number
    live.state = rnd.to_json()
    live.history = []
    live.dealt_at = now
    live.turn_started_at = now
    live.save()
    at.live = live
    at.kept(rnd)
    return True


def _shuffled(at: Locked, cards: list[str]) -> list[str]:
    """The pack in the order it is dealt from: shuffled by `secrets`, or in a duplicate
    sitting by its key, the same for every table of the same size at the same game and
    round (docs/tournament.md, "Duplicate deals"). The deal goes round from the dealer's
    left, so each place from the dealer gets the same cards at every such table."""
    sitting = at.table.sitting
    if not sitting.duplicate:
        secrets.SystemRandom().shuffle(cards)
        return cards
    assert at.game is not None
    size = len(at.game_players())
    return duplicate.shuffled(sitting, cards, (size, at.game.number, at.game.round_count + 1))


def _apply(
    live: LiveRound,
    rnd: OnlineRound,
    name: str,
    action: Mapping[str, Any],
    *,
    robot: str | None,
    now: datetime,
) -> None:
    """Make a move (refused with `MoveRefused`, nothing changed) and keep it."""
    rnd.apply(name, dict(action))
    live.history = [
        *live.history,
        {
            "move": live.move,
            "player": name,
            "action": dict(action),
            "robot": robot is not None,
            "reason": robot,
            "at": now.isoformat(),
        },
    ]
    live.move += 1
    live.state = rnd.to_json()
    live.turn_started_at = now
    live.save(update_fields=["history", "move", "state", "turn_started_at", "updated_at"])


def _store(at: Locked, rnd: OnlineRound, now: datetime) -> None:
    """The round is over: store its record (with the robots' marks) as a scorer's round
    would be, then deal the next round or the next game's first."""
    assert at.game is not None
    assert at.live is not None
    record = rnd.record()
    played = Counter(h["player"] for h in at.live.history if h.get("robot"))
    if played:
        record["play"] = {
            **record.get("play", {}),
            "robots": [{"player": p, "moves": played[p]} for p in rnd.start.players if played[p]],
        }
    scoring.round_submit(
        game_id=at.game.pk,
        number=at.live.number,
        data=record,
        actor=ONLINE,
        entry_key=f"online-{at.game.pk}-{at.live.number}",
    )
    game = locks.lock_current_game(at.table)
    if game is not None and game.pk != at.game.pk:
        at.live = LiveRound.objects.select_for_update().filter(game=game).first()
    at.game = game
    _deal(at, now)


def _robot_reason(at: Locked, rnd: OnlineRound, who: str, now: datetime) -> str | None:
    """Why a robot plays `who`'s move now (`robot`, `clock`, `away`), or None."""
    assert at.game is not None
    assert at.live is not None
    gp = next((g for g in at.game_players() if g.name == who), None)
    if gp is None:
        return None
    if gp.player.is_robot:
        return "robot"
    session, live = at.session, at.live
    waited = (now - live.turn_started_at).total_seconds()
    if session.move_clock_seconds is not None and waited >= session.move_clock_seconds:
        return "clock"
    token = at.tokens().get(gp.player_id)
    last = presence.last_seen(token) if token else None
    since = max(last, live.turn_started_at) if last else live.turn_started_at
    if (now - since).total_seconds() > session.online_grace_seconds:
        return "away"
    # A robot took over for them in this round and they have not been seen since: it
    # plays on at once until they come back.
    for h in reversed(live.history):
        if h["player"] == who:
            took_over = h.get("reason") == "away"
            if took_over and (last is None or datetime.fromisoformat(h["at"]) > last):
                return "away"
            break
    return None


def _run_robots(at: Locked, now: datetime) -> int:
    """Make the robots' moves while the player to act is played by one; how many."""
    made = 0
    while made < ROBOT_MOVES_PER_CALL and at.live is not None and at.game is not None:
        if at.game.status == Game.Status.FINISHED or entry_refusal(at.game) is not None:
            break
        if at.live.number != at.game.round_count + 1:
            break
        rnd = at.round()
        assert rnd is not None
        who = rnd.to_act()
        if who is None:
            break
        reason = _robot_reason(at, rnd, who, now)
        if reason is None:
            break
        _apply(at.live, rnd, who, rnd.robot_move(who), robot=reason, now=now)
        at.kept(rnd)
        made += 1
        if rnd.phase == END:
            _store(at, rnd, now)
            if reason != "robot":
                break  # an absent player's robot stops at the round's end
    return made


def _changed(at: Locked) -> None:
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
) -> Locked | None:
    """The move under the table's locks; the locked table (its push, once committed), or
    None when the same move was sent twice."""
    at = _lock(table_id, place.session_id)
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
        _apply(live, rnd, name, action, robot=None, now=now)
    except MoveRefused as refused:
        raise UserError(refused.code, refused.message) from None
    at.kept(rnd)
    if rnd.phase == END:
        _store(at, rnd, now)
    _run_robots(at, now)
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
    at = Locked(session=state.session, table=state.table, game=game, live=live)
    at.know(state.game_players, state.tokens)
    return _robot_reason(at, rnd, who, now) is not None


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
        at = _lock(table_id)
        changed = _deal(at, now)
        if robots:
            changed = _run_robots(at, now) > 0 or changed
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
    return selectors.seat_list(session)


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
    transaction.on_commit(lambda: push.table_changed(table_id))
    return table
