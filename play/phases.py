"""The phase of an online table: one answer, worked out here only, to "what is this
table doing and when does it next need the scheduler" (docs/architecture.md, "The
phases of a table").

A table's phase follows from six facts: the session's status, whether the table plays
online, whether its sitting has moved on, its current game (none, under way, finished)
and the round dealt in it, and the round's own phase with the player to act. Every
reader (the views, the push) and every writer (a move, the deal, the robots, the
scheduler) asks `phase_of`; the writes that move a table from one phase to the next are
`play.services`, under the locks of `scoring.locks`.

    PAPER     the table's rounds are typed in on paper
    WAITING   no round to play: no game at the table, its game is over, or its sitting
              has moved on or the session is not running
    DEALING   the current game has no round dealt for its next number: due at once
    TO_ACT    a person is to act; due when their grace time or move clock runs out
    ROBOT_DUE a robot is to act (a robot player, an absent player's cover, a clock that
              ran out): due at once
    STORING   the round's last card is played and its record not stored yet: due at
              once (the round's end is the scheduler's, off the card's path)
    FINISHED  the session is over
"""

from __future__ import annotations

import base64
import dataclasses
import pickle
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from django.utils import timezone

from engine import online as engine_online
from engine.online import END, OnlineRound
from play.models import LiveRound
from scoring.models import Game, GamePlayer, Round
from scoring.rounds import entry_refusal
from tournaments.models import Seating, Session, Table


class Phase(StrEnum):
    PAPER = "paper"
    WAITING = "waiting"
    DEALING = "dealing"
    TO_ACT = "to_act"
    ROBOT_DUE = "robot_due"
    STORING = "storing"
    FINISHED = "finished"


#: The phases in which the scheduler has work the moment they begin.
AT_ONCE = frozenset({Phase.DEALING, Phase.ROBOT_DUE, Phase.STORING})

#: How long after a grace time or a clock runs out its deadline falls: the moment itself
#: would find the player a hair inside it.
SLACK = timedelta(seconds=0.5)


@dataclass
class TableState:
    """One load of an online table: its game, the round being played, who sits where,
    and what is known of each player's presence."""

    session: Session
    table: Table
    game: Game | None
    game_players: list[GamePlayer]
    live: LiveRound | None
    round: OnlineRound | None
    tokens: dict[int, str]  # player id to seat token, for the players who have a link
    robots: set[int]  # the players who are robots (`Player.is_robot`)
    seen: dict[str, datetime]  # token to last sight
    last_round: Round | None
    seated: list[Seating]  # who sits at the table now, by seat
    # Player id to when a robot took over for them (`SeatLink.away_since`).
    away_since: dict[int, datetime] = field(default_factory=dict)
    now: datetime = field(default_factory=timezone.now)

    def name_of(self, player_id: int) -> str | None:
        for gp in self.game_players:
            if gp.player_id == player_id:
                return gp.name
        return None

    def player_of(self, name: str) -> int | None:
        for gp in self.game_players:
            if gp.name == name:
                return gp.player_id
        return None

    def last_seen(self, player_id: int) -> datetime | None:
        token = self.tokens.get(player_id)
        return self.seen.get(token) if token else None

    def covered(self, player_id: int) -> bool:
        """A robot covers the player: it took over while they were away, and they have
        not been seen since (`SeatLink.away_since`)."""
        since = self.away_since.get(player_id)
        if since is None:
            return False
        last = self.last_seen(player_id)
        return last is None or last <= since

    def away(self, player_id: int) -> bool:
        """Covered by a robot, or not seen within the session's grace time (a robot
        player never is)."""
        if player_id in self.robots:
            return False
        if self.covered(player_id):
            return True
        last = self.last_seen(player_id)
        if last is None:
            return True
        return (self.now - last).total_seconds() > self.session.online_grace_seconds


#: The form of `state_text`: a node that reads another form reads the table's rows.
STATE_FORM = 1


def state_text(state: TableState) -> str:
    """A table's state as text, for the message of the change that read it under the
    table's locks (`play.push.send`): each node holding the table takes it as its copy
    instead of reading the rows again (`state_from`). Pickled, as the cache keeps its
    rows on the same Redis; the round is left out (its row's `state` makes it again)."""
    held = dataclasses.replace(state, round=None)
    return f"{STATE_FORM}:" + base64.b64encode(pickle.dumps(held, protocol=5)).decode()


def state_from(text: str, table_id: int) -> TableState | None:
    """The state `state_text` wrote, its round made again from its row, as of now; None
    for another form, another table, or text that does not read (then the rows are read)."""
    form, _, body = text.partition(":")
    if form != str(STATE_FORM):
        return None
    try:
        state = pickle.loads(base64.b64decode(body))  # our own publish (`state_text`)
    except Exception:
        return None
    if not isinstance(state, TableState) or state.table.pk != table_id:
        return None
    game, live = state.game, state.live
    if game is not None and live is not None:
        state.round = engine_online.restore(game.rules_id, live.state)
    state.now = timezone.now()
    return state


@dataclass(frozen=True)
class TablePhase:
    """A table's phase, and when it next needs the scheduler (`due`, None: never by
    itself); at `TO_ACT` and `ROBOT_DUE`, who is to act and, at `ROBOT_DUE`, why a robot
    plays (`robot`, `clock`, `away`)."""

    phase: Phase
    due: datetime | None = None
    to_act: str | None = None
    reason: str | None = None


def phase_of(state: TableState, now: datetime | None = None) -> TablePhase:
    """The table's phase now (the module's docstring)."""
    now = now or state.now
    session, table, game, live, rnd = (
        state.session,
        state.table,
        state.game,
        state.live,
        state.round,
    )
    if session.status in (Session.Status.FINISHED, Session.Status.CANCELLED):
        return TablePhase(Phase.FINISHED)
    if not table.online:
        return TablePhase(Phase.PAPER)
    if game is None or game.status == Game.Status.FINISHED or entry_refusal(game) is not None:
        return TablePhase(Phase.WAITING)
    if live is None or rnd is None or live.number != game.round_count + 1:
        return TablePhase(Phase.DEALING, due=now)
    if state.game_players and rnd.start.players != tuple(gp.name for gp in state.game_players):
        # A substitute took a seat mid-round: the hand is dealt again to who sits there.
        return TablePhase(Phase.DEALING, due=now)
    who = rnd.to_act()
    if rnd.phase == END:
        # The last card is played and the round not stored yet (it would be numbered
        # below): the scheduler stores it, then deals the next.
        return TablePhase(Phase.STORING, due=now)
    if who is None:
        return TablePhase(Phase.WAITING)
    player_id = state.player_of(who)
    if player_id is None:  # a reader that did not load the players (the projector's)
        return TablePhase(Phase.TO_ACT, to_act=who)
    reason = robot_reason(state, player_id, now)
    if reason is not None:
        return TablePhase(Phase.ROBOT_DUE, due=now, to_act=who, reason=reason)
    return TablePhase(Phase.TO_ACT, due=_deadline(state, player_id, now), to_act=who)


def robot_reason(state: TableState, player_id: int, now: datetime) -> str | None:
    """Why a robot makes the move of the player to act now, or None: they are a robot
    (`robot`); their move clock ran out (`clock`); a robot covers them, or they have not
    been seen within the grace time since their turn began or since they were last seen,
    whichever is later (`away`)."""
    assert state.live is not None
    if player_id in state.robots:
        return "robot"
    session, live = state.session, state.live
    waited = (now - live.turn_started_at).total_seconds()
    if session.move_clock_seconds is not None and waited >= session.move_clock_seconds:
        return "clock"
    if state.covered(player_id):
        return "away"
    last = state.last_seen(player_id)
    since = max(last, live.turn_started_at) if last else live.turn_started_at
    if (now - since).total_seconds() > session.online_grace_seconds:
        return "away"
    return None


def _deadline(state: TableState, player_id: int, now: datetime) -> datetime:
    """When the person to act's grace time (from the later of their last sight and the
    turn's start) or move clock runs out, whichever first."""
    assert state.live is not None
    session, live = state.session, state.live
    last = state.last_seen(player_id)
    since = max(last, live.turn_started_at) if last else live.turn_started_at
    due = [since + timedelta(seconds=session.online_grace_seconds) + SLACK]
    if session.move_clock_seconds is not None:
        due.append(live.turn_started_at + timedelta(seconds=session.move_clock_seconds) + SLACK)
    return max(min(due), now + SLACK)
