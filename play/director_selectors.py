"""What the director's pages and the projector read of online play: each table of the
sitting with its online state, the seat links of its seated players, the robots' moves a
director must see, and the current trick of every online table for the wall. Reads only;
no hand is ever read out here (the projector's tricks come from the watcher's view,
`play.selectors.watch_view`)."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q
from django.utils.translation import ngettext

from engine import online as engine_online
from play import selectors
from play.models import LiveRound, SeatLink
from play.phases import TableState
from play.replay import card_label
from scoring.models import Game
from tournaments import format as fmt
from tournaments.models import Seating, Session, Sitting, Table
from workflow.session.selectors import current_sitting


@dataclass
class OnlineTable:
    """One table of the sitting on the director's page."""

    id: int
    number: int
    rank: int
    online: bool
    players: int
    robots: int
    short: int  # seats a robot could fill (0 when the table is full)
    dealt: bool  # a round is dealt and not over
    played: bool  # a card or a call was made in the dealt round
    robot_lines: list[str] = field(default_factory=list)


#: Why a robot played for a player (`LiveRound.history`'s `reason`), in words.
REASONS = {"clock", "away"}


def robot_lines(live: LiveRound | None) -> list[str]:
    """The moves a robot made for a person in the round being played, in words a director
    reads: "Round 2 of game 1: the move clock ran out for Ann; a robot played 1 move for
    them". A robot seated by the director plays every move of its seat: not news."""
    if live is None:
        return []
    moves = Counter(
        (str(h.get("player")), str(h.get("reason")))
        for h in live.history
        if isinstance(h, dict) and h.get("robot") and h.get("reason") in REASONS
    )
    return [_robot_line(live, name, reason, n) for (name, reason), n in sorted(moves.items())]


def _robot_line(live: LiveRound, name: str, reason: str, n: int) -> str:
    words = {"round": live.number, "game": live.game.number, "player": name, "n": n}
    if reason == "away":
        return (
            ngettext(
                "Round %(round)s of game %(game)s: %(player)s was away longer than the grace "
                "time; a robot played %(n)s move for them",
                "Round %(round)s of game %(game)s: %(player)s was away longer than the grace "
                "time; a robot played %(n)s moves for them",
                n,
            )
            % words
        )
    return (
        ngettext(
            "Round %(round)s of game %(game)s: the move clock ran out for %(player)s; a robot "
            "played %(n)s move for them",
            "Round %(round)s of game %(game)s: the move clock ran out for %(player)s; a robot "
            "played %(n)s moves for them",
            n,
        )
        % words
    )


def online_tables(sitting: Sitting) -> list[OnlineTable]:
    """Every table of the sitting with what the director's online controls need, in
    two queries whatever the number of tables (one on a night on paper)."""
    ideal = fmt.format_for(sitting.session.rules_id).ideal
    tables = list(
        Table.objects.filter(sitting=sitting)
        .annotate(
            seated=Count("seatings", filter=Q(seatings__left_at__isnull=True)),
            robots=Count(
                "seatings",
                filter=Q(seatings__left_at__isnull=True, seatings__player__is_robot=True),
            ),
        )
        .order_by("rank")
    )
    live_by_table: dict[int, LiveRound] = {}
    if any(t.online for t in tables):  # a night on paper asks no more
        for found in (
            LiveRound.objects.filter(game__table__sitting=sitting)
            .select_related("game")
            .order_by("game__number")
        ):
            live_by_table[found.game.table_id] = found  # the latest game's round
    rows = []
    for t in tables:
        live = live_by_table.get(t.pk)
        # A round stored with its game is over; the next one is dealt at once.
        over = live is not None and live.game.round_count >= live.number
        rows.append(
            OnlineTable(
                id=t.pk,
                number=t.number,
                rank=t.rank,
                online=t.online,
                players=t.seated,
                robots=t.robots,
                short=max(0, ideal - t.seated),
                dealt=live is not None and not over,
                played=live is not None and bool(live.history),
                robot_lines=robot_lines(live) if t.online else [],
            )
        )
    return rows


def robots_seated(table_id: int) -> list[str]:
    """The names of the robots seated at a table."""
    return list(
        Seating.objects.filter(table_id=table_id, left_at__isnull=True, player__is_robot=True)
        .order_by("seat")
        .values_list("player__name", flat=True)
    )


def screen_version(sitting: Sitting | None) -> str:
    """What the projector's online tricks show changes exactly when this does: every
    online table's round and move number, in one query."""
    if sitting is None:
        return "none"
    rows = LiveRound.objects.filter(game__table__sitting=sitting, game__table__online=True)
    parts = rows.order_by("pk").values_list("pk", "number", "move")
    digest = hashlib.sha256(repr(list(parts)).encode()).hexdigest()[:16]
    return f"{sitting.pk}.{digest}"


#: The keys of a watcher's view that `tricks_of` gives: the round's public play.
TRICK_KEYS = ("round", "phase", "to_act", "trick", "tricks_won", "last_trick")


def tricks_of(sitting: Sitting) -> list[tuple[Table, dict[str, Any]]]:
    """The round's public play at each online table of the sitting (`TRICK_KEYS` of its
    watcher's view: the projector), table by table in rank order, in three queries
    however many tables:
    `selectors.watch_view` reads a table in eight, and a busy night changes every table between
    two polls of the projector."""
    session = sitting.session
    tables = list(Table.objects.filter(sitting=sitting, online=True).order_by("rank"))
    current: dict[int, Game] = {}
    for played in Game.objects.filter(table__in=[t.pk for t in tables]).order_by("number"):
        current[played.table_id] = played  # the highest number last: `table_current_game`
    lives = {
        live.game_id: live
        for live in LiveRound.objects.filter(game__in=list(current.values())).defer("history")
    }
    found: list[tuple[Table, dict[str, Any]]] = []
    for table in tables:
        table.sitting = sitting
        game = current.get(table.pk)
        if game is not None:
            game.table = table  # its phase reads the sitting and session held here
        live = lives.get(game.pk) if game is not None else None
        rnd = engine_online.restore(game.rules_id, live.state) if game and live else None
        # The table's public facts (players, scores, the last round) are not read: only
        # the round's play is kept from the view.
        state = TableState(
            session=session,
            table=table,
            game=game,
            game_players=[],
            live=live,
            round=rnd,
            tokens={},
            robots=set(),
            seen={},
            last_round=None,
            seated=[],
        )
        view = selectors.watcher_view(state)
        found.append((table, {key: view[key] for key in TRICK_KEYS}))
    return found


def screen_tricks(sitting: Sitting | None) -> list[dict[str, Any]]:
    """The current trick of each online table of the sitting, from the watcher's view
    (no hand): table number, whose turn, the cards on the table written for people (none
    in a duplicate sitting). In a fixed number of queries (`tricks_of`)."""
    if sitting is None:
        return []
    found = []
    for table, view in tricks_of(sitting):
        # Duplicate deals: another table of the size may not have played this trick yet
        # (play.duplicate); the projector says whose turn it is, never the cards.
        trick = [] if sitting.duplicate else (view.get("trick") or [])
        found.append(
            {
                "table": table.number,
                "table_id": table.pk,
                "round": view.get("round"),
                "phase": view.get("phase"),
                "to_act": view.get("to_act"),
                # `code` for the projector's card faces (static/cards.js), `card` in text.
                "trick": [
                    {"player": c["player"], "card": card_label(str(c["card"])), "code": c["card"]}
                    for c in trick
                ],
                "tricks_won": {} if sitting.duplicate else (view.get("tricks_won") or {}),
                "duplicate": sitting.duplicate,
            }
        )
    return found


def seat_list(session: Session) -> list[dict[str, Any]]:
    """The seat links of the current sitting's seated players, table by table (read by
    the director's seats list once the links exist: `play.services.seat_links_ensure`)."""
    sitting = current_sitting(session)
    if sitting is None:
        return []
    seated = (
        Seating.objects.filter(sitting=sitting, left_at__isnull=True)
        .select_related("player", "table")
        .order_by("table__rank", "seat")
    )
    tokens = dict(SeatLink.objects.filter(session=session).values_list("player_id", "token"))
    return [
        {
            "player": s.player.name,
            "player_id": s.player_id,
            "table": s.table.rank,
            "table_number": s.table.number,
            "online": s.table.online,
            "seat": s.seat,
            "robot": s.player.is_robot,
            "token": tokens.get(s.player_id),
        }
        for s in seated
    ]
