"""What a session's entry fees and prizes come to (docs/tournament.md, "Entry fees and
prizes"): the fees collected, the pool and each player's payout (`session_prizes`), and
each player's prizes over a season (`season_prizes`). Reads only; the writes are
`workflow.club.prizes`, the arithmetic `tournaments.format.prizes`.

The club sits below the session (docs/architecture.md): a session's payouts are split on
the standings its caller read (`workflow.session.selectors.session_standings`), never
read here, and any standings row with the places' fields will do (`Placed`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import Field, dataclass, replace
from decimal import Decimal
from typing import Any, ClassVar, Protocol, TypeVar

from common.languages import money_marks
from tournaments import format as fmt
from tournaments.models import Club, PayoutTable, Session, SessionPlayer, SessionStanding


class Placed(Protocol):
    """A row of a session's standings, in their order: whom it is, the hooks that break
    a tie for a prize, whether they withdrew, and the payout `with_payouts` fills in."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def player_id(self) -> int: ...

    @property
    def hooks(self) -> int: ...

    @property
    def withdrawn(self) -> bool: ...

    @property
    def payout(self) -> Decimal | None: ...


Row = TypeVar("Row", bound=Placed)


def money_unit(club: Club) -> Decimal:
    return fmt.WHOLE if club.money_unit == "whole" else fmt.CENT


@dataclass(frozen=True)
class SessionPrizes:
    """A session's fees, pool and payouts. `payouts` is None when nothing is paid out (no
    pool, or the club has no payout table)."""

    fee: Decimal | None
    paid_count: int
    fees_collected: Decimal
    pool: Decimal
    table: PayoutTable | None
    payouts: fmt.Payouts[int] | None
    currency: str
    unit: Decimal

    def money(self, amount: Decimal) -> str:
        return fmt.format_money(amount, self.currency, self.unit, **money_marks())

    def payout(self, player_id: int) -> Decimal | None:
        return None if self.payouts is None else self.payouts.amounts.get(player_id, Decimal(0))

    @property
    def has_prizes(self) -> bool:
        return self.fee is not None or self.pool > 0

    @property
    def pays(self) -> bool:
        """Whether the standings show payouts: a pool and a table to split it."""
        return self.table is not None and self.pool > 0


def default_table(club_id: int) -> PayoutTable | None:
    return PayoutTable.objects.filter(club_id=club_id, is_default=True).first()


def _split(
    *,
    pool: Decimal,
    table: PayoutTable | None,
    order: Sequence[int],
    hooks: dict[int, int],
    withdrawn: set[int],
    unit: Decimal,
) -> fmt.Payouts[int] | None:
    """The session standings have no ties (a seeded coin flip ends every tie), so each
    place is a group of one; the Big Loser is the last player who did not withdraw, most
    hooks every player with the most (more than none)."""
    if table is None or pool <= 0 or not order:
        return None
    stayed = [p for p in order if p not in withdrawn]
    most = max((hooks.get(p, 0) for p in order), default=0)
    winners = {
        "big_loser": stayed[-1:],
        "most_hooks": [p for p in order if most > 0 and hooks.get(p, 0) == most],
    }
    return fmt.payouts(
        pool=pool,
        percents=table.percents(),
        ranking=[[p] for p in order],
        extras=[(name, prize, winners[name]) for name, prize in table.extras()],
        unit=unit,
    )


def session_pool(session: Session) -> SessionPrizes:
    """The fees collected and the pool, without the payouts (no standings read): the
    director's pages. Nothing is read for a free session with no fixed pool."""
    return session_prizes(session)


def session_prizes(session: Session, rows: Sequence[Placed] | None = None) -> SessionPrizes:
    """The session's fees collected (paid players times the fee), its pool, and each
    player's payout on its standings `rows` (`session_standings`, in their order): the
    final payouts once the session is finished, what they would be if it ended now
    before. Without `rows`, the fees and the pool only (`payouts` is None)."""
    club = session.club
    unit = money_unit(club)
    if session.entry_fee is None and session.pool_fixed is None:
        zero = Decimal(0).quantize(unit)
        return SessionPrizes(None, 0, zero, zero, None, None, club.currency, unit)
    paid = SessionPlayer.objects.filter(session=session, paid=True).count()
    fees = (session.entry_fee or Decimal(0)) * paid
    pool = fmt.prize_pool(
        fees=fees, share_percent=session.pool_share, fixed=session.pool_fixed, unit=unit
    )
    table = session.payout_table or default_table(session.club_id)
    split = None
    if rows is not None and table is not None and pool > 0:
        split = _split(
            pool=pool,
            table=table,
            order=[r.player_id for r in rows],
            hooks={r.player_id: r.hooks for r in rows},
            withdrawn={r.player_id for r in rows if r.withdrawn},
            unit=unit,
        )
    return SessionPrizes(
        fee=session.entry_fee,
        paid_count=paid,
        fees_collected=fees,
        pool=pool,
        table=table,
        payouts=split,
        currency=club.currency,
        unit=unit,
    )


def season_prizes(season_id: int) -> dict[int, Decimal]:
    """Each player's prizes over the season's finished sessions, from their kept
    standings, in a fixed number of queries."""
    sessions = list(
        Session.objects.filter(season_id=season_id, status=Session.Status.FINISHED)
        .exclude(entry_fee=None, pool_fixed=None)
        .select_related("club", "payout_table")
    )
    if not sessions:
        return {}
    club = sessions[0].club
    unit = money_unit(club)
    fallback = default_table(club.pk)
    paid: dict[int, int] = defaultdict(int)
    withdrawn: dict[int, set[int]] = defaultdict(set)
    for session_id, player_id, is_paid, gone in SessionPlayer.objects.filter(
        session__in=sessions
    ).values_list("session_id", "player_id", "paid", "withdrawn_at"):
        paid[session_id] += is_paid
        if gone is not None:
            withdrawn[session_id].add(player_id)
    standings: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for session_id, player_id, hooks in (
        SessionStanding.objects.filter(session__in=sessions)
        .order_by("session_id", "position")
        .values_list("session_id", "player_id", "hooks")
    ):
        standings[session_id].append((player_id, hooks))
    totals: dict[int, Decimal] = defaultdict(Decimal)
    for session in sessions:
        pool = fmt.prize_pool(
            fees=(session.entry_fee or Decimal(0)) * paid[session.pk],
            share_percent=session.pool_share,
            fixed=session.pool_fixed,
            unit=unit,
        )
        rows = standings[session.pk]
        result = _split(
            pool=pool,
            table=session.payout_table or fallback,
            order=[p for p, _ in rows],
            hooks=dict(rows),
            withdrawn=withdrawn[session.pk],
            unit=unit,
        )
        for player_id, amount in (result.amounts if result else {}).items():
            totals[player_id] += amount
    return dict(totals)


def with_payouts(rows: Sequence[Row], found: SessionPrizes) -> list[Row]:
    """The standings with each player's payout (None on a session that pays none)."""
    return [replace(r, payout=found.payout(r.player_id)) for r in rows]
