"""A move taken on a table's state held in memory (`play.node`; docs/architecture.md,
"A move's path"): the table read, each socket's view of it, the move checked against
it, written in one statement (`play.moves`) and published once (`play.bus`), and a
copy read past a move heard set back to the state that move made. What runs here runs
on one of the node's database threads, on that thread's own connection, kept."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from common import jsontext
from common.retry import connection_lost
from engine import online as engine_online
from play import bus, moves, presence, selectors
from play.phases import TablePhase, TableState, phase_of
from play.services import NO_GAME, STALE
from scoring.models import Game, Round
from scoring.rounds import entry_refusal
from tournaments.models import Table


@dataclass(frozen=True)
class Answer:
    """What the mover's socket is told besides the views: nothing (`code` None, the
    move taken: its view comes with the table's), the view again (`again`: the same
    move sent twice), or a refusal in words, with the view for a conflict."""

    code: str | None = None
    message: str = ""
    view: dict[str, Any] | None = None
    again: bool = False


def with_connection(fn: Any, *args: Any, again: bool = True, **kwargs: Any) -> Any:
    """Run `fn` on this node thread's own database connection, kept across calls (the
    node's few threads hold one each, so a move opens none). One that PostgreSQL
    dropped (a restart, a failover, a killed backend) is closed and, `again`, the call
    runs once more on a new one: a read, or a write that holds only at its state number
    (`take` runs its write again itself)."""
    try:
        return fn(*args, **kwargs)
    except DatabaseError as exc:
        if not connection_lost(exc):
            raise
        connection.close()
        if not again:
            raise
    return fn(*args, **kwargs)


def read_table(table_id: int) -> TableState | None:
    """The table's state from its rows (`selectors.table_state`), to be held
    (`lean`), or None when it is gone."""
    table = Table.objects.select_related("sitting__session").filter(pk=table_id).first()
    return None if table is None else lean(selectors.table_state(table))


def lean(state: TableState) -> TableState:
    """A state to be held by a node for as long as its table has sockets there: the
    round's state as its row read it (a few KiB of JSON, growing with the game's
    rounds) dropped, once the engine's round is made from it. The node moves, shows
    and writes the engine's round, never that copy."""
    if state.live is not None and state.round is not None:
        state.live.state = {}
    return state


def view_of(
    state: TableState, socket: Any, facts: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """What one socket of the table sees: a watcher's view, or the player's at their
    seat (None: the player no longer sits here; the push of the seats tells them).
    `facts`: the state's `selectors.view_facts`, when several sockets are sent views."""
    if socket.player_id is None:
        return selectors.watcher_view(state, facts)
    for seating in state.seated:
        if seating.player_id == socket.player_id:
            return selectors.player_view(
                state, seating.player_id, seating.seat, fallback=seating.player.name, facts=facts
            )
    return None


def rewind(state: TableState, message: dict[str, Any]) -> bool:
    """A copy read again from the row while moves were still on their way to this node
    (it was behind, busy, or had just heard a deal's views) may be past the move heard:
    set back to the state that move made (the message carries it), so that this node's
    sockets get that move's view, and then the next ones' as they are heard: across the
    round's end too (the next round dealt on the same row, the last card's message
    heard after). Another game since (its own row) leaves the copy as read: its sockets
    get that game's view without the last card's. Whether it set the copy back: then
    the copy is behind the row, and must be read again before it is used for anything
    but those views. Across a round's end it reads one row (the round before): on a
    database thread, when `past` says it sets the copy back."""
    if not past(state, message):
        return False
    live, made = state.live, message["move"]
    assert live is not None
    assert state.game is not None
    at = datetime.fromtimestamp(message["at"], tz=timezone.get_current_timezone())
    state.round = engine_online.restore(state.game.rules_id, bus.more(message, "state"))
    number = state.round.start.number
    if live.number != number:
        # The round's end came meanwhile: the round stored and the next dealt on the
        # same row. Set back to before the store as well: the game's count of rounds,
        # and the table's last round the one stored before this round.
        live.number = number
        state.game.round_count = number - 1
        state.game.status = Game.Status.PLAYING
        state.last_round = round_before(state.table, state.game, number)
    live.move = made + 1
    live.history = [h for h in live.history if h.get("move", made) <= made]
    live.turn_started_at = at
    state.now = at
    return True


def past(state: TableState, message: dict[str, Any]) -> bool:
    """Whether the copy is past the move `message` made, on the same row: what
    `rewind` sets back."""
    live, made = state.live, message.get("move")
    return not (
        live is None
        or state.game is None
        or not isinstance(made, int)
        or live.pk != message.get("live")
        or live.move <= made + 1
        or not isinstance(bus.more(message, "state"), dict)
    )


def round_before(table: Table, game: Game, number: int) -> Round | None:
    """The table's last round stored before round `number` of `game` (one query)."""
    earlier = Q(game=game, number__lt=number) | Q(game__number__lt=game.number)
    return (
        Round.objects.filter(earlier, game__table=table)
        .order_by("-game__number", "-number")
        .first()
    )


def check(
    state: TableState | None, socket: Any, move: Any, action: Mapping[str, Any]
) -> tuple[Answer | None, str]:
    """Why the move cannot be taken (an `Answer`), or the mover's name in the round."""
    if state is None or socket.player_id is None:
        return Answer("no_game", str(NO_GAME)), ""
    game, live, rnd = state.game, state.live, state.round
    name = state.name_of(socket.player_id)
    seated = any(s.player_id == socket.player_id for s in state.seated)
    if (
        not seated
        or not state.table.online
        or game is None
        or live is None
        or rnd is None
        or name is None
        or game.status == Game.Status.FINISHED
        or entry_refusal(game) is not None
        or live.number != game.round_count + 1
    ):
        return Answer("no_game", str(NO_GAME), view_of(state, socket)), ""
    if move != live.move:
        sent = dict(action)
        if any(
            h["move"] == move and h["player"] == name and h["action"] == sent for h in live.history
        ):
            return Answer(view=view_of(state, socket), again=True), ""
        return Answer("stale_move", str(STALE), view_of(state, socket)), ""
    who = rnd.to_act()
    if who != name:
        words = (
            gettext("It is %(who)s's turn, not yours; wait for your turn.") % {"who": who}
            if who
            else gettext("The round is over.")
        )
        return Answer("not_your_turn", words, view_of(state, socket)), ""
    return None, name


def take(
    state: TableState,
    token: str | None,
    player_id: int,
    entry: dict[str, Any],
    now: datetime,
    *,
    origin: str = "",
) -> tuple[bool, TablePhase]:
    """On a database thread: the mover seen (a person's `token`; None for a robot, which
    changes nobody's presence), the table's phase after the move (who is present now),
    the move written (`play.moves`) and, once written, published, from the node
    `origin`. `play.node_io.Links.take` does the same on the node's event loop."""
    if token is not None:
        if sights_known(state, token, now):
            presence.seen(token, now)
        else:
            state.seen = presence.seen_and_read(token, list(state.tokens.values()), now)
    phase, after = advance(state, entry, now)
    # A connection lost on the write: once more on a new one. Had the first committed,
    # the second finds the next state number and writes nothing: the move is answered
    # as stale, with the view read again, which shows it.
    written = with_connection(moves.write, **write_of(state, player_id, entry, now, after, phase))
    if written:
        bus.publish(state.table.pk, published(state, entry, now, origin), texts={"state": after})
    return written, phase


def sights_known(state: TableState, token: str, now: datetime) -> bool:
    """Whether the sights the copy holds, the mover's `token` seen `now` among them,
    decide all that a read of who is present would: every person at the table seen
    within half the session's grace time, and since a robot began to cover them, if
    one did. A read finds only later sights, so it would change nothing: nobody is away
    or covered either way (`TableState.away`, `covered`: the views), and the next to
    act's grace time starts with their turn, now, either way (`phase_of`). Then a move
    writes the mover's sight and reads none (a robot player's presence counts for
    nothing)."""
    state.seen = {**state.seen, token: now}
    half = state.session.online_grace_seconds / 2
    for player_id, held in state.tokens.items():
        if player_id in state.robots:
            continue
        last = state.seen.get(held)
        if last is None or (now - last).total_seconds() > half:
            return False
        since = state.away_since.get(player_id)
        if since is not None and last <= since:
            return False
    return True


def advance(state: TableState, entry: dict[str, Any], now: datetime) -> tuple[TablePhase, str]:
    """The held state made the move's (its round already applied it): the state
    number, the turn's start, the history; the table's phase then (who is present as
    `state.seen` says), and the round's state as JSON text, to be written."""
    live = state.live
    assert live is not None
    assert state.round is not None
    live.move += 1
    live.turn_started_at = now
    live.history = [*live.history, entry]
    state.now = now
    return phase_of(state, now), jsontext.dumps(state.round.json_data())


def write_of(
    state: TableState,
    player_id: int,
    entry: dict[str, Any],
    now: datetime,
    after: str,
    phase: TablePhase,
) -> moves.Move:
    """`play.moves.write`'s arguments for the move `advance` made."""
    live = state.live
    assert live is not None
    return moves.Move(
        live_id=live.pk,
        move=live.move - 1,
        state=after,
        entry=entry,
        now=now,
        table_id=state.table.pk,
        player_id=player_id,
        phase=phase,
    )


def published(
    state: TableState, entry: dict[str, Any], now: datetime, origin: str
) -> dict[str, Any]:
    """The move's message (`play.bus.move_message`), once written."""
    live = state.live
    assert live is not None
    seen = {token: stamp.timestamp() for token, stamp in state.seen.items()}
    return bus.move_message(
        node=origin, live_id=live.pk, entry=entry, at=now.timestamp(), seen=seen
    )


def later(mark: tuple[int, int] | None, state: TableState | None) -> bool:
    """Whether a change's `mark` is a later state of the table than the copy `state`:
    its round's row made later (rows are numbered as they are made), or the same row at
    a higher state number."""
    held = selectors.mark_of(state) if state is not None else None
    return mark is not None and (held is None or mark > held)


def mark_from(sent: Any) -> tuple[int, int] | None:
    """A views message's `mark`, as JSON carried it."""
    if isinstance(sent, list) and len(sent) == 2 and all(isinstance(n, int) for n in sent):
        return (sent[0], sent[1])
    return None
