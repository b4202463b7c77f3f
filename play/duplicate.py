"""Duplicate deals: which deals of a sitting are still being played somewhere, so that
their cards stay hidden (docs/tournament.md, "Duplicate deals").

In a duplicate sitting every online table of the same size is dealt the same cards for
the same game and round (`play.services`): a *board*, named by the table size, the game's
number and the round's ("4/1/3"). A board is *open* while some online table of that size
may still play it: a table whose game of that number is not finished and has stored fewer
rounds, or has not started yet. Once the sitting has moved on, or the session is over,
none is. While a board is open its cards (the upcard, the hands, the tricks, the draws,
the discards: `scoring.records.without_cards`) are shown to its club's directors only:
a player at a table that finished it must not show a player still playing it its hands,
on the game page, in the API, in an export, or on the projector.

`comparison` is the sitting's page of them: each deal that every table has played, its
hands place by place from the dealer's left, and what each table made of it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import Count, Max, Prefetch
from django.utils.translation import gettext

import engine
from common.ordinals import ordinal
from engine import online as engine_online
from play.replay import card_label
from scoring.models import Game, GamePlayer, Round, RoundChange
from scoring.records import game_record, without_cards
from tournaments import pagecache
from tournaments.models import Session, Sitting
from tournaments.permissions import Actor, can_direct

#: A board: the table size, the game's number in the sitting, the round's in the game.
Board = tuple[int, int, int]


@dataclass(frozen=True)
class Boards:
    """The open boards of a sitting: for each table size and game number, the first round
    that some table may still play (every later round is open too)."""

    sitting_id: int
    open_from: Mapping[tuple[int, int], int] = field(default_factory=dict)
    # For each table size and game number, the most rounds a table has stored.
    played_to: Mapping[tuple[int, int], int] = field(default_factory=dict)
    # The online tables of the sitting.
    tables: frozenset[int] = frozenset()

    def is_open(self, size: int, game_number: int, round_number: int) -> bool:
        first = self.open_from.get((size, game_number))
        return first is not None and round_number >= first

    def played_open(self) -> int:
        """How many open boards some table has played already."""
        return sum(
            max(0, self.played_to.get(key, 0) - first + 1) for key, first in self.open_from.items()
        )


NONE_OPEN = Boards(sitting_id=0)


def boards_of(sitting: Sitting) -> Boards:
    """The sitting's open boards, in one query (none for a sitting that is not duplicate,
    has moved on, or whose session is over)."""
    if not sitting.duplicate or sitting.moved_at is not None:
        return NONE_OPEN
    if sitting.session.status != Session.Status.RUNNING:
        return NONE_OPEN
    rows = (
        Game.objects.filter(table__sitting=sitting, table__online=True)
        .values("table_id", "number", "status", "round_count")
        .annotate(size=Count("game_players"))
    )
    tables: dict[int, dict[int, tuple[str, int]]] = {}
    sizes: dict[int, int] = {}
    for row in rows:
        tables.setdefault(row["table_id"], {})[row["number"]] = (row["status"], row["round_count"])
        sizes[row["table_id"]] = row["size"]
    open_from: dict[tuple[int, int], int] = {}
    played_to: dict[tuple[int, int], int] = {}
    for table_id, games in tables.items():
        for number, (_, played) in games.items():
            key = (sizes[table_id], number)
            played_to[key] = max(played_to.get(key, 0), played)
        for number in range(1, sitting.games_per_sitting + 1):
            status, played = games.get(number, (Game.Status.PLAYING, 0))
            if status == Game.Status.FINISHED:
                continue
            key = (sizes[table_id], number)
            open_from[key] = min(open_from.get(key, played + 1), played + 1)
    return Boards(
        sitting_id=sitting.pk, open_from=open_from, played_to=played_to, tables=frozenset(tables)
    )


def hidden_rounds(game: Game, boards: Boards | None = None) -> frozenset[int]:
    """The numbers of the game's stored rounds whose cards are hidden now. `boards` is its
    sitting's, when the caller has read them for several games."""
    sitting = game.table.sitting
    if not sitting.duplicate:
        return frozenset()
    if boards is None or boards.sitting_id != sitting.pk:
        boards = boards_of(sitting)
    size = len(game.game_players.all())
    return frozenset(
        n for n in range(1, game.round_count + 1) if boards.is_open(size, game.number, n)
    )


def cards_hidden(actor: Actor, game: Game) -> frozenset[int]:
    """The game's rounds whose cards `actor` may not see yet: `hidden_rounds`, for anyone
    but the club's directors, who see every card."""
    if can_direct(actor, game.table.sitting.session.club_id):
        return frozenset()
    return hidden_rounds(game)


def hide(game: Game, hidden: frozenset[int]) -> list[dict[str, Any]]:
    """The game's stored rounds' fields, those of the `hidden` numbers without their cards."""
    return [
        without_cards(r.data) if r.number in hidden else dict(r.data) for r in game.rounds.all()
    ]


def _from_left(players: Sequence[str], dealer: str) -> list[str]:
    """The players from the dealer's left round to the dealer."""
    d = players.index(dealer)
    return [players[(d + k) % len(players)] for k in range(1, len(players) + 1)]


def round_options(rules_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """A game's options with the rule set's defaults filled in, as a round is dealt."""
    defaults = {name: o.default for name, o in engine.rules_info(rules_id).options.items()}
    return defaults | dict(options)


def board_name(board: Board) -> str:
    """A board's name in the shuffle: the table size, the game and the round ("4/1/3")."""
    return "/".join(str(part) for part in board)


def shuffled(sitting: Sitting, cards: Sequence[str], board: Board) -> list[str]:
    """The pack of `board` in the order it is dealt from, the same at every table that
    plays it: shuffled under the sitting's secret key."""
    return engine.keyed_shuffle(cards, key=bytes.fromhex(sitting.deal_key), board=board_name(board))


# The comparison page ------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """What one player made of a deal: their place's points for the round."""

    player: str
    points: int
    robot: bool


@dataclass(frozen=True)
class Result:
    table: int  # the table's number
    table_id: int
    game_number: int
    seats: tuple[Seat, ...]  # place by place from the dealer's left, the dealer last


@dataclass(frozen=True)
class Deal:
    """A deal every table of its size has played: its hands place by place from the
    dealer's left (the dealer last), its upcard, and each table's result."""

    size: int
    game: int
    round: int
    places: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    upcard: str | None
    results: tuple[Result, ...]

    @property
    def hands_by_place(self) -> list[tuple[str, tuple[str, ...]]]:
        return list(zip(self.places, self.hands, strict=True))

    @property
    def slug(self) -> str:
        """The deal's name in a URL (`?deal=4-1-3`)."""
        return f"{self.size}-{self.game}-{self.round}"


@dataclass(frozen=True)
class Comparison:
    deals: tuple[Deal, ...]
    open: int  # the deals some table has played and another may still play
    # What the deals shown depend on: a page built from them may be kept under it.
    digest: str = ""

    def deal(self, slug: str) -> Deal | None:
        return next((d for d in self.deals if d.slug == slug), None)


def place_names(size: int) -> tuple[str, ...]:
    """The places at a table of `size`, from the dealer's left round to the dealer."""
    if size == 4:
        return (
            gettext("Dealer's left"),
            gettext("Across"),
            gettext("Dealer's right"),
            gettext("Dealer"),
        )
    return (
        *(gettext("%(ordinal)s from the dealer") % {"ordinal": ordinal(k)} for k in range(1, size)),
        gettext("Dealer"),
    )


def comparison(sitting: Sitting) -> Comparison:
    """The sitting's deals that every table of their size has played, game by game and
    round by round, each with each table's result, and how many deals some table has
    played that another may still play.

    The deals shown change only when one closes, when a table goes online or to paper, or
    when a round is corrected: a round stored at a table ahead of the others shows nothing
    new. So the deals are kept under what says those three (`boards_of` and the sitting's
    last correction, two short queries), not under the session's generation, which every
    round moves: a page that many phones open while 250 tables play is built again only
    when a deal closes (docs/performance.md, "Duplicate deals")."""
    boards = boards_of(sitting)
    corrected = (
        RoundChange.objects.filter(game__table__sitting=sitting)
        .exclude(action=RoundChange.Action.ENTER)
        .aggregate(last=Max("pk"))["last"]
    )
    # With the sitting's secret key: a digest no other sitting, and no earlier database
    # whose ids were the same, can share.
    state = repr(
        (sitting.deal_key, sorted(boards.open_from.items()), sorted(boards.tables), corrected)
    )
    digest = hashlib.sha256(state.encode()).hexdigest()[:24]
    deals = pagecache.kept(
        sitting.session_id, f"duplicate:{sitting.pk}", lambda: _deals(sitting), current=digest
    )
    return Comparison(deals=deals, open=boards.played_open(), digest=digest)


def _deals(sitting: Sitting) -> tuple[Deal, ...]:
    boards = boards_of(sitting)
    games = (
        Game.objects.filter(table__sitting=sitting, table__online=True)
        .select_related("table")
        .prefetch_related(
            Prefetch("game_players", queryset=GamePlayer.objects.order_by("seat")),
            Prefetch("rounds", queryset=Round.objects.order_by("number")),
        )
        .order_by("number", "table__number")
    )
    deals: dict[Board, tuple[Deal, list[Result]]] = {}
    for game in games:
        record = game_record(game)
        # The points and the dealers need the rounds' own fields, not the card-by-card
        # play, whose check is most of a game's (every round was checked whole when stored).
        verdict = engine.check(without_play(record))
        players = tuple(record["players"])
        size = len(players)
        for i, stored in enumerate(game.rounds.all()):
            if "play" not in stored.data or i >= len(verdict["rounds"]):
                continue  # a round entered on paper: not a dealt board
            board = (size, game.number, stored.number)
            if boards.is_open(*board):
                continue
            scored = verdict["rounds"][i]
            dealer = scored["dealer"]
            order = _from_left(players, dealer)
            robots_of = {r["player"] for r in stored.data["play"].get("robots", [])}
            if board not in deals:
                before = verdict["rounds"][i - 1]["scores"] if i else dict.fromkeys(players, 0)
                deals[board] = (_deal(sitting, game, board, players, dealer, before, record), [])
            deals[board][1].append(
                Result(
                    table=game.table.number,
                    table_id=game.table_id,
                    game_number=game.number,
                    seats=tuple(Seat(p, scored["points"].get(p, 0), p in robots_of) for p in order),
                )
            )
    return tuple(
        replace(deal, results=tuple(sorted(results, key=lambda r: r.table)))
        for deal, results in (deals[board] for board in sorted(deals))
    )


def without_play(record: engine.GameRecord) -> engine.GameRecord:
    """A game record whose rounds leave out their card-by-card play (`play`): what its
    scores and dealers are read from, at a fraction of the whole check's cost."""
    rounds = [{k: v for k, v in r.items() if k != "play"} for r in record["rounds"]]
    return {**record, "rounds": rounds}


def _deal(
    sitting: Sitting,
    game: Game,
    board: Board,
    players: tuple[str, ...],
    dealer: str,
    scores: Mapping[str, int],
    record: Mapping[str, Any],
) -> Deal:
    """The board dealt again from the sitting's key, as every table was dealt it."""
    size, _, number = board
    start = engine_online.RoundStart(
        rules_id=game.rules_id,
        players=players,
        dealer=dealer,
        number=number,
        options=round_options(game.rules_id, game.options),
        scores=dict(scores),
        earlier=list(record["rounds"][: number - 1]),
    )
    rnd = engine_online.deal(start, shuffled(sitting, engine_online.pack(start), board))
    order = _from_left(players, dealer)
    upcard = rnd.view(None).get("upcard")
    return Deal(
        size=size,
        game=board[1],
        round=number,
        places=place_names(size),
        hands=tuple(tuple(card_label(c) for c in rnd.view(p)["hand"]) for p in order),
        upcard=card_label(upcard) if upcard else None,
        results=(),
    )
