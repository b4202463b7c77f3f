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

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from common.errors import ConflictError, UserError
from engine import online as engine_online
from engine.online import MoveRefused
from play import director_selectors, presence, push, rounds, selectors
from play.models import LiveRound, SeatLink
from play.phases import AT_ONCE, TablePhase
from scoring import engine_words, locks
from scoring.models import Game
from scoring.rounds import entry_refusal
from scoring.tables import table_current_game
from tournaments import audit, pagecache
from tournaments.models import Seating, Session, Table
from tournaments.permissions import Caller, require_director
from tournaments.signals import seats_changed_on_commit
from workflow.session.selectors import current_sitting

logger = logging.getLogger(__name__)


class MoveConflict(ConflictError):
    """A move made in a state that is no longer the table's (`stale_move`) or out of
    turn (`not_your_turn`): answered 409 with the current view, which the phone shows."""

    def __init__(self, code: str, message: str, view: dict[str, Any]) -> None:
        super().__init__(code, message)
        self.view = view


#: The one sentence a move that arrives late answers (`stale_move`).
STALE = gettext_lazy("Too late: the table had moved on; here is where it stands now.")
#: What a move at a seat with no online game now answers (`no_game`).
NO_GAME = gettext_lazy("There is no online game at your seat now.")


def _changed(at: rounds.Locked, last: push.LastMove | None = None) -> None:
    """Once the change is made, under the locks: every view read now, the table's one
    deadline moved to its phase (`rounds.plan`), and the views sent once it commits
    (after `last`, the move the change followed: `push.send`)."""
    pushed = at.pushed = at.now()
    rounds.plan(at, pushed.phase)
    table_id = at.table.pk
    transaction.on_commit(lambda: push.send(table_id, pushed, last))


@dataclass(frozen=True)
class Moved:
    """A move taken: the mover's view now, and whether it went out to the table's
    phones with the push (False: the same move sent twice, which changed nothing)."""

    view: dict[str, Any]
    pushed: bool


def move_body(body: Any) -> tuple[int, dict[str, Any]]:
    """A move's body as a phone sends it (`{"move": k, "action": ..., ...}`, over HTTP
    or the socket): the state number and the rest, as sent; `invalid_input` (400) for a
    body that is not one."""
    if not isinstance(body, Mapping) or "move" not in body:
        raise UserError(
            "invalid_input",
            gettext(
                'A move is an object with the view\'s "move" and the choice, like '
                '{"move": 12, "action": "play", "card": "QS"}.'
            ),
            field="move",
        )
    move = body["move"]
    if not isinstance(move, int) or isinstance(move, bool):
        raise UserError(
            "invalid_input",
            gettext('"move" is the view\'s number, not %(move)r.') % {"move": move},
            field="move",
        )
    return move, {k: v for k, v in body.items() if k not in ("move", "type")}


def move_take(*, token: str, body: Any) -> Moved:
    """The one service of a player's move, from `POST /api/play/{seat_token}/moves/` or
    the socket's `{"type": "move"}`: the body read (`move_body`), the move made
    (`move_make`)."""
    move, action = move_body(body)
    return move_make(token=token, move=move, action=action)


def move_make(*, token: str, move: Any, action: Mapping[str, Any]) -> Moved:
    """The move `action` of the holder of `token`, made in the state numbered `move`.

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
    if pushed is not None and pushed.phase.phase in AT_ONCE:
        # The round's end (and what follows it) once the card is written and pushed;
        # the mover's answer is their view after it, as a read would give it.
        advance(table_id=place.table_id)
        return Moved(selectors.seat_view(token), pushed=True)
    if pushed is not None and token in pushed.views:
        return Moved(pushed.views[token], pushed=True)
    return Moved(selectors.seat_view(token), pushed=False)


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
    if move != live.move:
        if any(
            h["move"] == move and h["player"] == name and h["action"] == dict(action)
            for h in live.history
        ):
            return None  # sent twice: taken once
        raise MoveConflict("stale_move", str(STALE), selectors.seat_view(place.token))
    rnd = at.round()
    assert rnd is not None
    if rnd.to_act() != name:
        who = rnd.to_act()
        raise MoveConflict(
            "not_your_turn",
            (
                gettext("It is %(who)s's turn, not yours; wait for your turn.") % {"who": who}
                if who
                else gettext("The round is over.")
            ),
            selectors.seat_view(place.token),
        )
    try:
        rounds.apply_move(live, rnd, name, action, robot=None, now=now)
    except MoveRefused as refused:
        raise UserError(
            refused.code, engine_words.move_message(refused.code, refused.message)
        ) from None
    at.kept(rnd)
    rounds.run_robots(at, now)
    _changed(at)
    return at


def seat_place(token: str) -> selectors.Place:
    """Where the holder of `token` sits now (`selectors.place_of`: `no_such_seat`, 404,
    for an unknown token), the player marked present: a socket's connect."""
    place = selectors.place_of(token)
    presence.seen(place.token)
    return place


def seat_read(token: str) -> dict[str, Any]:
    """The seat's view as every read gives it (`GET /api/play/{seat_token}/`, the seat
    page, a WebSocket's connect): the player marked present, then the view. A read
    never writes: the deal, the robots and the clocks are the scheduler's
    (`play.scheduler`). `no_such_seat` (404) for an unknown token."""
    link = selectors.seat_link(token)
    presence.seen(link.token)
    return selectors.seat_view_at(link, selectors.seating_of(link))


def _no_game(token: str) -> MoveConflict:
    return MoveConflict("no_game", str(NO_GAME), selectors.seat_view(token))


#: The most steps (a round stored, a round dealt, the robots' moves) one `advance` makes:
#: a table of robots plays on at the scheduler's next look.
STEPS_PER_CALL = 12


def advance(*, table_id: int, session_id: int | None = None) -> bool:
    """Move the table on to its next phase when it has one due (`play.phases`): store
    the round whose last card was played, deal its next round, make the robots' moves
    that are due (a robot player's at once, an
    absent player's after the grace time and from then on at once, a move whose clock
    ran out); keep its one deadline; whether anything changed. The scheduler's step
    (`play.scheduler`), safe to call at any time and twice. `session_id`: the table's
    session, when the caller read it with the table."""
    now = timezone.now()
    with transaction.atomic():
        try:
            at = rounds.lock(table_id, session_id)
        except UserError:  # the table is gone
            return False
        last = push.last_move(at.live)
        changed = False
        for _ in range(STEPS_PER_CALL):
            step = rounds.finish(at, now) or rounds.deal(at, now) or rounds.run_robots(at, now) > 0
            if not step:
                break
            changed = True
        if changed:
            _changed(at, last)
            return True
        phase = at.phase(now)
        if phase.phase in AT_ONCE:
            # Due at once and yet nothing to do (a game the engine cannot deal on): not
            # due again until something changes at the table.
            logger.warning("table %s is %s with nothing to do", table_id, phase.phase)
            phase = TablePhase(phase.phase)
        rounds.plan(at, phase)
    return False


@transaction.atomic
def seat_links_ensure(*, session_id: int, user: Caller) -> list[dict[str, Any]]:
    """A seat link for every player seated in the session's current sitting who has
    none; the seats list (docs/api.md, `GET /api/sessions/{id}/seats/`)."""
    session = locks.lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("hand out its seat links"))
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
def table_online_set(*, table_id: int, online: bool, user: Caller, confirm: bool = False) -> Table:
    """Switch one table of the current sitting online or to paper (a hybrid night).

    A table switched to paper while a round is dealt on its phones sets that round
    aside, which is asked first: without `confirm`, 409 `hand_in_play` saying what
    happens. With it, the round's moves so far are kept in the directors' log, the
    phones are told, and the round is dealt again with real cards and typed in on the
    score sheet. A game with rounds on paper may go online: its online rounds carry on
    from them."""
    session_id = (
        Table.objects.filter(pk=table_id).values_list("sitting__session_id", flat=True).first()
    )
    if session_id is None:
        raise UserError("no_such_table", gettext("That table does not exist."))
    session = locks.lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("switch its tables online"))
    table = locks.lock_table(table_id)
    if session.status in (Session.Status.FINISHED, Session.Status.CANCELLED):
        raise ConflictError("session_finished", gettext("This session is over."))
    if online and not engine_online.playable(session.rules_id):
        raise UserError("not_playable_online", gettext("This game cannot be played online yet."))
    sitting = current_sitting(session)
    if sitting is None or sitting.pk != table.sitting_id:
        raise ConflictError(
            "sitting_closed", gettext("Only the tables of the current sitting can be switched.")
        )
    if table.online == online:
        return table
    game = table_current_game(table)
    live = LiveRound.objects.filter(game=game).first() if game is not None else None
    in_play = (
        game is not None
        and live is not None
        and game.status != Game.Status.FINISHED
        and live.number == game.round_count + 1
    )
    set_aside: dict[str, Any] = {}
    if in_play and not online:
        assert game is not None
        assert live is not None
        if not confirm:
            raise ConflictError(
                "hand_in_play",
                gettext(
                    "Table %(table_number)s is playing round %(live_number)s of game "
                    "%(game_number)s on the phones. Switching it to paper sets that hand "
                    "aside: the players deal round %(live_number)s again with real cards "
                    "and its result is typed in on the score sheet. Confirm to switch."
                )
                % {
                    "table_number": table.number,
                    "live_number": live.number,
                    "game_number": game.number,
                },
            )
        set_aside = {"game": game.number, "round": live.number, "moves": live.history}
    if live is not None:
        live.delete()
    table.online = online
    table.save(update_fields=["online"])
    summary = f"Table {table.number} plays {'online' if online else 'on paper'}"
    if set_aside:
        summary += f"; round {set_aside['round']} of game {set_aside['game']} set aside"
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="play.table_online",
        summary=summary,
        details={
            "table": table.rank,
            "number": table.number,
            "online": online,
            **({"set_aside": set_aside} if set_aside else {}),
        },
    )
    # The pages say how the table plays; its deadline follows its phase (none on paper, a
    # round to deal online); its phones and watchers see it (`play.push.seats_changed`).
    pagecache.board_changed(session.pk)
    at = rounds.lock(table_id, session.pk)
    rounds.plan(at, at.phase(timezone.now()))
    seats_changed_on_commit(session.pk, tables=[table_id])
    return table
