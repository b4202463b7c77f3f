"""What each phone and each watcher of an online table sees (docs/api.md, "Online play").

A view is built from the engine's `view(player)` of the round being played, which holds
only what that player may see (their own hand, the cards played, the upcard while it is
face up, the counts, the bids, the scores), plus the table's public facts: who sits where,
who is away or a robot, whose turn it is, the last round's public record. Nothing here
reads the stored state's other hands or the undealt pack: only the engine's view does.

`seat_view(token)` answers one phone; `table_views(table_id)` every phone of a table from
one load of its state (the push after a move); `watch_view(table_id)` a watcher (the
projector, a director), who sees no hand at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, Literal, TypeVar

from django.utils.translation import gettext

from common import rows
from common.errors import NotFoundError
from engine import online as engine_online
from engine.online import END, OnlineRound
from play import presence
from play.models import LiveRound, SeatLink
from play.phases import Phase, TablePhase, TableState, phase_of
from scoring.models import Game, GamePlayer, Round
from scoring.tables import table_current_game
from tournaments.models import Player, Seating, Session, Table
from workflow.sittings import current_sittings

M = TypeVar("M", GamePlayer, Seating)

#: A view's statuses: a round is being played at the seat's online table (`playing`);
#: no online game at the table now, the sitting over and the movement not confirmed yet
#: (`waiting`); the seat's table plays on paper (`paper`); the player has no seat in the
#: current sitting (`not_seated`, also before the start); the session is over (`finished`).
PLAYING, WAITING, PAPER, NOT_SEATED, FINISHED = (
    "playing",
    "waiting",
    "paper",
    "not_seated",
    "finished",
)
#: The phase once the game is over (the game's own names before, `play`, `end`).
DONE = "done"
#: The view's status in each phase of the table (`play.phases`): no round dealt yet
#: reads as waiting.
STATUS_OF = {
    Phase.PAPER: PAPER,
    Phase.WAITING: WAITING,
    Phase.DEALING: WAITING,
    Phase.TO_ACT: PLAYING,
    Phase.ROBOT_DUE: PLAYING,
    Phase.STORING: PLAYING,
    Phase.FINISHED: FINISHED,
}


def seat_link(token: str) -> SeatLink:
    """The seat link of `token`; `no_such_seat` (404) for a token that is none."""
    link = (
        SeatLink.objects.select_related("session", "player").filter(token=str(token)[:64]).first()
    )
    if link is None:
        raise NotFoundError(
            "no_such_seat", gettext("This seat link does not exist; ask the director.")
        )
    return link


@dataclass(frozen=True)
class Place:
    """Where a seat token's player sits now, read lean for a move: the player, the
    session, and the table of the current sitting (None when not seated) and whether it
    plays online."""

    token: str
    player_id: int
    session_id: int
    table_id: int | None
    online: bool
    language: str = ""  # the club's (`Club.language`): a socket's words


def place_of(token: str) -> Place:
    """The `Place` of a seat token, in two small queries; `no_such_seat` (404) for a
    token that is none."""
    token = str(token)[:64]
    row = (
        SeatLink.objects.filter(token=token)
        .values_list("player_id", "session_id", "session__club__language")
        .first()
    )
    if row is None:
        raise NotFoundError(
            "no_such_seat", gettext("This seat link does not exist; ask the director.")
        )
    player_id, session_id, language = row
    seat = (
        Seating.objects.filter(
            sitting__in=current_sittings(session_id), player_id=player_id, left_at__isnull=True
        )
        .values_list("table_id", "table__online")
        .first()
    )
    table_id, online = seat if seat is not None else (None, False)
    return Place(token, player_id, session_id, table_id, online, language)


def seating_of(link: SeatLink) -> Seating | None:
    """Where the link's player sits in the session's current sitting, or None (one
    query)."""
    return (
        Seating.objects.select_related("table__sitting__session")
        .filter(
            sitting__in=current_sittings(link.session),
            player_id=link.player_id,
            left_at__isnull=True,
        )
        .first()
    )


def table_state(table: Table) -> TableState:
    """The table's online state, read in a fixed number of queries."""
    game = table_current_game(table)
    game_players: list[GamePlayer] = []
    live = None
    rnd = None
    if game is not None:
        game.table = table  # with its sitting and session as the caller read them
        game_players = game_players_of(game.pk)
        live = LiveRound.objects.filter(game=game).first()
        if live is not None:
            rnd = engine_online.restore(game.rules_id, live.state)
    return table_state_of(table, game, game_players, live, rnd)


class _Unread(Enum):
    UNREAD = 0


#: `table_state_of`'s `last_round` when the caller has not read it.
UNREAD = _Unread.UNREAD


def table_state_of(
    table: Table,
    game: Game | None,
    game_players: list[GamePlayer],
    live: LiveRound | None,
    rnd: OnlineRound | None,
    links: dict[int, tuple[str, datetime | None]] | None = None,
    *,
    last_round: Round | Literal[_Unread.UNREAD] | None = UNREAD,
    seen: Callable[[list[str]], dict[str, datetime]] | None = None,
) -> TableState:
    """`table_state` from the table's game, players and round already in hand (a move,
    under its locks, has read them, and maybe their seat `links`: player id to token and
    `away_since`, and the table's `last_round`, just stored): who sits there, their
    links, the last round, in at most three queries and one cache read (`seen`: who
    is present, by token; the caller's, when it has read them already)."""
    session = table.sitting.session
    seated = seated_at(table)
    ids = {s.player_id for s in seated} | {gp.player_id for gp in game_players}
    links = dict(links or {})
    if missing := ids - set(links):
        links |= links_of(session.pk, missing)
    tokens = {pid: token for pid, (token, _) in links.items()}
    robots = {s.player_id for s in seated if s.player.is_robot} | {
        gp.player_id for gp in game_players if gp.player.is_robot
    }
    if last_round is UNREAD:
        last_round = (
            Round.objects.filter(game__table=table).order_by("-game__number", "-number").first()
        )
    return TableState(
        session=session,
        table=table,
        game=game,
        game_players=game_players,
        live=live,
        round=rnd,
        tokens=tokens,
        robots=robots,
        seen=(seen or presence.last_seen_many)(list(tokens.values())),
        last_round=last_round,
        seated=seated,
        away_since={pid: since for pid, (_, since) in links.items() if since is not None},
    )


def links_of(
    session_id: int, player_ids: set[int] | frozenset[int]
) -> dict[int, tuple[str, datetime | None]]:
    """The seat links of some of a session's players: player id to token and
    `away_since` (one query)."""
    if not player_ids:
        return {}
    ids = sorted(player_ids)
    links = rows.select(
        SeatLink,
        f"SELECT {rows.columns(SeatLink, 'l')} FROM {SeatLink._meta.db_table} l"
        f" WHERE l.session_id = %s AND l.player_id IN ({', '.join(['%s'] * len(ids))})",
        [session_id, *ids],
    )
    return {link.player_id: (link.token, link.away_since) for link in links}


def game_players_of(game_id: int) -> list[GamePlayer]:
    """A game's players by seat, each with its `Player` (one query, written once:
    `common.rows`; every move over HTTP and every scheduler's step reads it)."""
    return _with_players(GamePlayer, "x.game_id = %s", [game_id])


def seated_at(table: Table) -> list[Seating]:
    """Who sits at the table now, by seat, each with its `Player` (one query, written
    once: `common.rows`)."""
    seated = _with_players(Seating, "x.table_id = %s AND x.left_at IS NULL", [table.pk])
    for seating in seated:
        seating.table = table
    return seated


def _with_players(model: type[M], where: str, params: list[Any]) -> list[M]:
    """The rows of `model` (alias `x`) that `where` finds, by seat, each with its
    `Player` read alongside."""
    found = rows.fetch(
        f"SELECT {rows.columns(model, 'x')}, {rows.columns(Player, 'p')}"
        f" FROM {model._meta.db_table} x"
        f" INNER JOIN {Player._meta.db_table} p ON p.id = x.player_id"
        f" WHERE {where} ORDER BY x.seat",
        params,
    )
    out = []
    for row in found:
        instance = rows.build(model, row)
        instance.player = rows.build(Player, row, rows.width(model))
        out.append(instance)
    return out


def _status(state: TableState) -> str:
    """The view's `status`, from the table's phase (`play.phases`)."""
    return STATUS_OF[phase_of(state).phase]


def _phase(state: TableState) -> str | None:
    if state.round is None or state.game is None:
        return None
    if state.game.status == Game.Status.FINISHED:
        return DONE
    return state.round.phase


def _turn(state: TableState) -> dict[str, Any]:
    """When the turn began, and the grace and clock that run from it."""
    live, session = state.live, state.session
    return {
        "turn_started_at": live.turn_started_at.isoformat() if live else None,
        "grace_seconds": session.online_grace_seconds,
        "clock_seconds": session.move_clock_seconds,
    }


def _last_round(state: TableState) -> dict[str, Any] | None:
    """The last finished round at the table, as its record says (the hands are public
    once a round is over)."""
    r = state.last_round
    if r is None:
        return None
    return {"game": r.game_id, "number": r.number, "record": r.data}


def _players(state: TableState) -> list[dict[str, Any]]:
    return [
        {
            "name": gp.name,
            "seat": gp.seat,
            "robot": gp.player_id in state.robots,
            "away": state.away(gp.player_id),
        }
        for gp in state.game_players
    ]


def _scores(state: TableState) -> dict[str, int]:
    """The scores before the round being played (the engine's, Buck Euchre's 25s
    included), else the game's stored totals."""
    game, live, rnd = state.game, state.live, state.round
    if rnd is None or game is None or live is None or live.number != game.round_count + 1:
        return {gp.name: gp.score for gp in state.game_players}
    return dict(rnd.start.scores)


def view_facts(state: TableState) -> dict[str, Any]:
    """What every view of one table state shows alike (its status, phase, scores,
    players, last round, turn): worked out once for the table's sockets."""
    game, live = state.game, state.live
    status = _status(state)
    return {
        "status": status,
        "phase": _phase(state) if status in (PLAYING, WAITING) else None,
        "session": state.session.pk,
        "rules": state.session.rules_id,
        "sitting": state.table.sitting.number,
        "table": state.table.rank,
        "table_number": state.table.number,
        "game": game.pk if game is not None else None,
        "game_number": game.number if game is not None else None,
        "round": live.number if live is not None else None,
        "move": live.move if live is not None else None,
        "scores": _scores(state),
        "players": _players(state),
        "last_round": _last_round(state),
        **_turn(state),
    }


def _view(
    state: TableState, name: str | None, facts: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The view of player `name` (None: a watcher). The engine's keys first, then the
    table's (`facts`, `view_facts` of the state: given when several views are made)."""
    rnd = state.round
    facts = view_facts(state) if facts is None else facts
    view: dict[str, Any] = {
        "phase": None,
        "player": name,
        "dealer": None,
        "hand": None if name is None else [],
        "upcard": None,
        "trump": None,
        "to_act": None,
        "legal": [],
        "trick": [],
        "tricks": [],
        "tricks_won": {},
        "counts": {},
        "out": [],
        "last_trick": None,
    }
    status = facts["status"]
    if rnd is not None and status in (PLAYING, WAITING):
        view.update(rnd.view(name if name in rnd.start.players else None))
        if name is not None and view["hand"] is None:
            view["hand"] = []
    if status != PLAYING:
        view["legal"] = []
        view["to_act"] = None
    view.update(facts)
    return view


def _unseated(link: SeatLink, status: str) -> dict[str, Any]:
    return {
        "status": status,
        "session": link.session_id,
        "rules": link.session.rules_id,
        "player": link.player.name,
        "seat": None,
        "table": None,
        "table_number": None,
        "game": None,
        "round": None,
        "phase": None,
        "hand": [],
        "upcard": None,
        "trump": None,
        "to_act": None,
        "legal": [],
        "trick": [],
        "tricks_won": {},
        "scores": {},
        "move": None,
        "players": [],
    }


def seat_view(token: str) -> dict[str, Any]:
    """What the holder of `token` sees now (docs/api.md, "Online play")."""
    link = seat_link(token)
    return seat_view_at(link, seating_of(link))


def seat_view_at(
    link: SeatLink, seating: Seating | None, state: TableState | None = None
) -> dict[str, Any]:
    """`seat_view` of a link whose seating (`seating_of`) and maybe table's state
    (`table_state`) the caller has read."""
    if seating is None:
        finished = link.session.status == Session.Status.FINISHED
        return _unseated(link, FINISHED if finished else NOT_SEATED)
    if state is None:
        state = table_state(seating.table)
    return player_view(state, link.player_id, seating.seat, fallback=link.player.name)


def player_view(
    state: TableState,
    player_id: int,
    seat: int,
    *,
    fallback: str,
    facts: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The view of the player seated at `seat` from a table's state in hand (a node's,
    `play.node`); `fallback` their name when the game does not list them; `facts` the
    state's `view_facts` when the caller has them."""
    name = state.name_of(player_id) or fallback
    view = _view(state, name, facts)
    view["seat"] = seat
    return view


def watcher_view(state: TableState, facts: dict[str, Any] | None = None) -> dict[str, Any]:
    """A watcher's view from a table's state in hand: no hand at all."""
    view = _view(state, None, facts)
    view["seat"] = None
    return view


def table_views(table_id: int) -> dict[str, dict[str, Any]]:
    """Every seat's view at the table, by seat token (the players with a link), from one
    load of the state."""
    return table_now(table_id).views


@dataclass(frozen=True)
class TableNow:
    """Everything a change at a table sends, from one load of its state: each seat's
    view (by token), the watchers' view, and the table's phase (`play.phases`), whose
    `due` the scheduler keeps; and which state of the live round they show (`mark`).
    """

    views: dict[str, dict[str, Any]]
    watch: dict[str, Any]
    phase: TablePhase
    mark: tuple[int, int] | None = None
    #: The state they were made from (what a node holding the table takes as its copy).
    state: TableState | None = None


def table_now(table_id: int) -> TableNow:
    table = Table.objects.select_related("sitting__session").get(pk=table_id)
    return table_now_of(table_state(table))


def table_now_of(state: TableState) -> TableNow:
    """`table_now` from a state in hand."""
    views: dict[str, dict[str, Any]] = {}
    facts = view_facts(state)
    for s in state.seated:
        token = state.tokens.get(s.player_id)
        if token is not None:
            views[token] = player_view(
                state, s.player_id, s.seat, fallback=s.player.name, facts=facts
            )
    return TableNow(
        views=views,
        watch=watcher_view(state, facts),
        phase=phase_of(state),
        mark=mark_of(state),
        state=state,
    )


def mark_of(state: TableState) -> tuple[int, int] | None:
    """Which state of the table's live round a view of `state` shows: the round's row
    and its state number (None with no round dealt). A live round's number only grows
    (each move, each deal of the game's next round), so two marks of one row are
    ordered; a row made since (another game) is another round."""
    live = state.live
    return None if live is None or live.pk is None else (live.pk, live.move)


def watch_view(table_id: int) -> dict[str, Any]:
    """What a watcher of the table sees: the engine's `view(None)`, no hand at all."""
    table = Table.objects.select_related("sitting__session").get(pk=table_id)
    return watcher_view(table_state(table))


def round_ended(state: TableState) -> bool:
    """The round at the table is over (its record is stored with the game)."""
    return state.round is not None and state.round.phase == END
