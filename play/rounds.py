"""A table of online play under its locks, and how its round goes on (docs/tournament.md,
"Online play"): `lock` takes the locks of `scoring.locks` in their order (the session
shared, the table, the game), then the table's `LiveRound`; `deal` deals the next round
(shuffled by `secrets`, or by the duplicate sitting's key); `apply_move` makes and keeps a
move; `run_robots` makes the moves that fall to a robot until a person is to act or the
round is over; `finish` stores a round over through `scoring.services.round_submit` as
the `ONLINE` actor and deals the next (`store_round`).
Each runs under `lock`, inside the caller's transaction: the writes that call them, and
push the change after the commit, are `play.services`.
"""

from __future__ import annotations

import functools
import secrets
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.utils.translation import gettext

import engine
from common import rows
from common.errors import UserError
from engine import online as engine_online
from engine.online import END, OnlineRound, RoundStart
from play import duplicate, presence, selectors
from play.models import LiveRound, SeatLink, TableDeadline
from play.phases import Phase, TablePhase, TableState, phase_of
from scoring import locks
from scoring import services as scoring
from scoring.models import Game, GamePlayer, Round
from scoring.records import game_check
from scoring.rounds import Held, entry_refusal
from tournaments.models import Session, Table
from tournaments.permissions import ONLINE

#: The most robot moves one call makes (a table of robots plays on at the next tick).
ROBOT_MOVES_PER_CALL = 400


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
    _links: dict[int, tuple[str, datetime | None]] | None = None
    _links_of: frozenset[int] = frozenset()
    _round: tuple[tuple[int, int, int], OnlineRound] | None = None
    _stored: tuple[int, list[Round]] | None = None
    # The table's last stored round, once this change stored it (`store_round`).
    _last_round: Round | None = None
    # Who of the tokens was last seen when (`presence`), read once a step: the step
    # runs at one `now`, so a sight since changes nothing it decides.
    _seen: tuple[frozenset[str], dict[str, datetime]] | None = None

    def round(self) -> OnlineRound | None:
        """The round being played, restored from its state once per state: a move made
        with `apply_move` keeps the round it moved (`kept`)."""
        if self.game is None or self.live is None:
            return None
        key = (self.live.pk, self.live.number, self.live.move)
        if self._round is None or self._round[0] != key:
            self._round = (key, engine_online.restore(self.game.rules_id, self.live.state))
        return self._round[1]

    def round_players(self) -> tuple[str, ...] | None:
        """Who the round being played was dealt to (None: no round)."""
        rnd = self.round()
        return None if rnd is None else tuple(rnd.start.players)

    def kept(self, rnd: OnlineRound) -> None:
        """`rnd` is the round of the live state now (just moved and saved)."""
        assert self.live is not None
        self._round = ((self.live.pk, self.live.number, self.live.move), rnd)

    def game_players(self) -> list[GamePlayer]:
        """The current game's players by seat, with their `Player` rows (read once)."""
        if self.game is None:
            return []
        if self._players is None or (self._players and self._players[0].game_id != self.game.pk):
            self._players = selectors.game_players_of(self.game.pk)
        return self._players

    def stored(self) -> list[Round]:
        """The current game's stored rounds, by number (read once per game)."""
        assert self.game is not None
        if self._stored is None or self._stored[0] != self.game.pk:
            found = rows.select(
                Round,
                f"SELECT {rows.columns(Round, 'r')} FROM {Round._meta.db_table} r"
                " WHERE r.game_id = %s ORDER BY r.number",
                [self.game.pk],
            )
            self._stored = (self.game.pk, found)
        return self._stored[1]

    def stored_now(self, stored: Round) -> None:
        """`stored` is the round just stored: the game's last, and the table's."""
        self.stored().append(stored)
        self._last_round = stored

    def know(self, game_players: list[GamePlayer], state: TableState) -> None:
        """The game's players and their links, read by the caller (`table_state`)."""
        self._players = list(game_players)
        self._links_of = frozenset(gp.player_id for gp in game_players)
        self._links = {
            pid: (token, state.away_since.get(pid)) for pid, token in state.tokens.items()
        }

    def links(self) -> dict[int, tuple[str, datetime | None]]:
        """The seat links of the current game's players, by player id: the token and
        `away_since` (read once, and again for a game with other players)."""
        ids = frozenset(gp.player_id for gp in self.game_players())
        if self._links is None or ids != self._links_of:
            self._links_of = ids
            self._links = selectors.links_of(self.session.pk, ids)
        return self._links

    def tokens(self) -> dict[int, str]:
        """The seat tokens of the current game's players, by player id."""
        return {pid: token for pid, (token, _) in self.links().items()}

    def seen(self, tokens: list[str]) -> dict[str, datetime]:
        """When each of `tokens` was last seen (one cache read a step, and again for
        other tokens)."""
        wanted = frozenset(tokens)
        if self._seen is None or self._seen[0] != wanted:
            self._seen = (wanted, presence.last_seen_many(tokens))
        return dict(self._seen[1])

    def state(self) -> TableState:
        """The table's state from what is held (under the locks)."""
        return selectors.table_state_of(
            self.table,
            self.game,
            self.game_players(),
            self.live,
            self.round(),
            self.links(),
            last_round=selectors.UNREAD if self._last_round is None else self._last_round,
            seen=self.seen,
        )

    def now(self) -> selectors.TableNow:
        """What every seat and watcher sees now, and the table's phase."""
        return selectors.table_now_of(self.state())

    def phase(self, now: datetime) -> TablePhase:
        """The table's phase from what is held, reading only who is present (one cache
        read): what the robots ask before each move."""
        links = self.links()
        tokens = {pid: token for pid, (token, _) in links.items()}
        players = self.game_players()
        state = TableState(
            session=self.session,
            table=self.table,
            game=self.game,
            game_players=players,
            live=self.live,
            round=self.round(),
            tokens=tokens,
            robots={gp.player_id for gp in players if gp.player.is_robot},
            seen=self.seen(list(tokens.values())),
            last_round=None,
            seated=[],
            away_since={pid: since for pid, (_, since) in links.items() if since is not None},
            now=now,
        )
        return phase_of(state, now)


def lock(table_id: int, session_id: int | None = None) -> Locked:
    """Lock a table's rows in the order of `scoring.locks`: the session shared, the table,
    its current game, then the game's `LiveRound`. `session_id` is the table's session
    when the caller has read it (a table never changes session)."""
    if session_id is None:
        session_id = (
            Table.objects.filter(pk=table_id).values_list("sitting__session_id", flat=True).first()
        )
    if session_id is None:
        raise UserError("no_such_table", gettext("That table does not exist."))
    locks.share_session(session_id)
    try:
        table = locks.lock_table(table_id, related=True)
    except Table.DoesNotExist:  # gone since its session was read
        raise UserError("no_such_table", gettext("That table does not exist.")) from None
    game, live = lock_current(table)
    return Locked(session=table.sitting.session, table=table, game=game, live=live)


def lock_current(table: Table) -> tuple[Game | None, LiveRound | None]:
    """The table's current game and its `LiveRound`, locked as `locks.lock_current_game`
    and `lock_live` lock them, under the table's lock: on PostgreSQL in one statement
    when the game has its live round (every change but a game's first deal), else those
    two. Nobody holds the game's row but under its table's lock (the lock order,
    `scoring.locks`), which the caller holds; the live round's row a move on a socket
    takes alone (`play.moves`): this waits for it, as `lock_live` would, and reads the
    row that move left."""
    both = rows.fetch(_current_sql(), [table.pk]) if connection.vendor == "postgresql" else []
    if not both:
        game = locks.lock_current_game(table)
        return game, None if game is None else lock_live(game)
    game = rows.build(Game, both[0])
    game.table = table
    return game, rows.build(LiveRound, both[0], rows.width(Game))


@functools.cache
def _current_sql() -> str:
    """`lock_current`'s one statement (PostgreSQL)."""
    games, lives = Game._meta.db_table, LiveRound._meta.db_table
    return (
        f"SELECT {rows.columns(Game, 'g')}, {rows.columns(LiveRound, 'l')}"
        f" FROM {games} g INNER JOIN {lives} l ON l.game_id = g.id"
        f" WHERE g.id = (SELECT c.id FROM {games} c WHERE c.table_id = %s"
        " ORDER BY c.number DESC LIMIT 1)"
        f"{rows.lock('NO KEY UPDATE', 'g')}{rows.lock('UPDATE', 'l')}"
    )


def lock_live(game: Game) -> LiveRound | None:
    """The game's `LiveRound` locked (`FOR UPDATE`), the last lock of `lock`; in SQL
    written once (`common.rows`)."""
    found = rows.select(
        LiveRound,
        f"SELECT {rows.columns(LiveRound, 'l')} FROM {LiveRound._meta.db_table} l"
        f" WHERE l.game_id = %s{rows.lock('UPDATE', 'l')}",
        [game.pk],
    )
    return found[0] if found else None


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


def deal(at: Locked, now: datetime, verdict: engine.Verdict | None = None) -> bool:
    """Deal the next round of the table's current game when none is dealt; whether it
    dealt. Under `lock`. `verdict`: the engine's on the game as stored, when the caller
    has it (`store_round`)."""
    table, game, live = at.table, at.game, at.live
    if not table.online or game is None or game.status == Game.Status.FINISHED:
        return False
    if entry_refusal(game) is not None:
        return False
    number = game.round_count + 1
    players = tuple(gp.name for gp in at.game_players())
    if live is not None and live.number == number and at.round_players() == players:
        return False
    if verdict is None:
        verdict = game_check(
            game, rounds=[r.data for r in at.stored()], game_players=at.game_players()
        )
    if not verdict["valid"] or verdict["finished"] or verdict["next_dealer"] is None:
        return False
    start = RoundStart(
        rules_id=game.rules_id,
        players=players,
        dealer=verdict["next_dealer"],
        number=number,
        options=duplicate.round_options(game.rules_id, game.options),
        scores=dict(verdict["scores"]),
        earlier=[r.data for r in at.stored()],
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
    if live.pk is None:
        live.save()
    else:
        rows.update(
            live,
            ["move", "number", "state", "history", "dealt_at", "turn_started_at", "updated_at"],
        )
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


def apply_move(
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
    rows.update(live, ["history", "move", "state", "turn_started_at", "updated_at"])


def store_round(at: Locked, rnd: OnlineRound, now: datetime) -> None:
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
    # The locks and rows `lock` took are the scorer's (`scoring.rounds.Held`): the
    # round is checked and stored as a scorer's is, with nothing locked or read twice.
    held = Held(game=at.game, game_players=at.game_players(), rounds=at.stored())
    entry = scoring.round_submit(
        game_id=at.game.pk,
        number=at.live.number,
        data=record,
        actor=ONLINE,
        entry_key=f"online-{at.game.pk}-{at.live.number}",
        held=held,
    )
    verdict = entry.verdict
    if entry.round is not None and entry.created:
        at.stored_now(entry.round)
    if at.game.status == Game.Status.FINISHED:  # the next game started, or none is left
        game = locks.lock_current_game(at.table)
        if game is not None and game.pk != at.game.pk:
            at.live = lock_live(game)
            verdict = None
        at.game = game
    deal(at, now, verdict)


def run_robots(at: Locked, now: datetime) -> int:
    """Make the robots' moves while the player to act is played by one (`play.phases`,
    `ROBOT_DUE`); how many. A robot that takes over for an absent player marks their
    link (`SeatLink.away_since`): from then it plays each of their turns at once, in
    this round and the next ones, until they are seen again."""
    made = 0
    while made < ROBOT_MOVES_PER_CALL and at.live is not None and at.game is not None:
        found = at.phase(now)
        if found.phase != Phase.ROBOT_DUE or found.to_act is None:
            break
        rnd = at.round()
        assert rnd is not None
        who = found.to_act
        if found.reason == "away":
            _cover(at, who, now)
        apply_move(at.live, rnd, who, rnd.robot_move(who), robot=found.reason, now=now)
        at.kept(rnd)
        made += 1
    return made


def finish(at: Locked, now: datetime) -> bool:
    """Store the round whose last card is played (`Phase.STORING`) and deal the next;
    whether there was one. Under `lock`: the scheduler's step, so the last card is
    pushed as fast as any other and the round is stored just after, exactly once (the
    entry key), whichever process runs it and however often."""
    rnd = at.round()
    if rnd is None or rnd.phase != END or at.game is None or at.live is None:
        return False
    if at.live.number != at.game.round_count + 1 or at.game.status == Game.Status.FINISHED:
        return False
    store_round(at, rnd, now)
    return True


def _cover(at: Locked, who: str, now: datetime) -> None:
    """A robot takes over for `who`, away: their link says so from now, unless it says
    so already (they have not been seen since it last did)."""
    player_id = next((gp.player_id for gp in at.game_players() if gp.name == who), None)
    if player_id is None:
        return
    token, since = at.links().get(player_id, ("", None))
    last = presence.last_seen(token) if token else None
    if since is not None and (last is None or last <= since):
        return
    link, _ = SeatLink.objects.get_or_create(session=at.session, player_id=player_id)
    link.away_since = now
    link.save(update_fields=["away_since"])
    at.links()[player_id] = (link.token, now)


def plan(at: Locked, phase: TablePhase) -> None:
    """Keep the table's one deadline (`TableDeadline`) at its phase's `due`, or none
    when nothing can fall due: what the scheduler runs (`play.scheduler`)."""
    TableDeadline.keep(at.table.pk, phase.due, phase.phase)
