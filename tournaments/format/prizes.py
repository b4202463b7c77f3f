"""Entry fees and prizes: the pool, and how a payout table splits it (docs/tournament.md,
"Entry fees and prizes").

Pure arithmetic on `Decimal`, exact to the club's unit (a cent, or a whole unit of the
currency). The rounding rule, in one place:

1. The pool is the fixed amount, or the fees collected times the share, rounded down to
   the unit.
2. Each extra prize (the night's Big Loser, most hooks) is its fixed amount, or its
   percentage of the pool rounded down to the unit, taken from the pool in the table's
   order and never more than what is left. Players tied for an extra prize share it: each
   gets the share rounded down to the unit, and the odd units go one each to the tied
   players in the order of the standings.
3. What is left is the place money. Each place's money is its percentage of it; players
   tied for places share the money of the places they occupy equally. When fewer players
   finish than the table has places, the places nobody reached are left out and the
   percentages of the others are scaled up in proportion, so the whole pool is paid.
4. Each player's place money is rounded down to the unit; the units left over go one
   each to the best placed players, down the standings (in a tie, in the order the
   standings list the tied players). So the payouts add up to the pool exactly, nobody
   gets a negative amount, a better place never gets less than a worse one, and tied
   players differ by at most one unit.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, Decimal, InvalidOperation
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

CENT = Decimal("0.01")
WHOLE = Decimal("1")
HUNDRED = Decimal(100)
#: The most places a payout table may pay.
MAX_PLACES = 50
#: The largest amount of money the app stores (a fee, a fixed pool, a fixed prize).
MAX_AMOUNT = Decimal("999999.99")


class PrizeError(ValueError):
    """What a director typed cannot be a fee, a percentage or a payout table; the message
    says why in plain words. `field` names what was wrong."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Prize:
    """An extra prize: a fixed amount, or a percentage of the pool (one of the two)."""

    amount: Decimal | None = None
    percent: Decimal | None = None

    def __str__(self) -> str:
        return f"{self.percent}%" if self.percent is not None else str(self.amount)


def floor_to(value: Decimal, unit: Decimal) -> Decimal:
    """`value` rounded down to a multiple of `unit` (0.01 or 1)."""
    return (value / unit).to_integral_value(rounding=ROUND_FLOOR) * unit


def parse_amount(text: str, *, what: str = "The amount", field: str = "") -> Decimal:
    """An amount of money as typed ("12", "12.50"): not negative, at most two decimals."""
    cleaned = str(text).strip()
    try:
        value = Decimal(cleaned)
    except (InvalidOperation, ValueError):
        raise PrizeError(
            f"{what} “{cleaned}” is not an amount such as 12 or 12.50.", field
        ) from None
    if not value.is_finite():
        raise PrizeError(f"{what} “{cleaned}” is not an amount such as 12 or 12.50.", field)
    if value < 0:
        raise PrizeError(f"{what} cannot be negative.", field)
    if value != value.quantize(CENT, rounding=ROUND_FLOOR):
        raise PrizeError(f"{what} has at most two decimals (cents).", field)
    if value > MAX_AMOUNT:
        raise PrizeError(f"{what} is at most {MAX_AMOUNT}.", field)
    return value.quantize(CENT)


def parse_percent(text: str, *, what: str = "The percentage", field: str = "") -> Decimal:
    """A percentage as typed ("80", "80%", "12.5"): from 0 to 100, at most two decimals."""
    cleaned = str(text).strip().removesuffix("%").strip()
    try:
        value = Decimal(cleaned)
    except (InvalidOperation, ValueError):
        raise PrizeError(f"{what} “{text}” is not a percentage such as 80.", field) from None
    if not value.is_finite() or value < 0 or value > HUNDRED:
        raise PrizeError(f"{what} is a percentage from 0 to 100.", field)
    if value != value.quantize(CENT, rounding=ROUND_FLOOR):
        raise PrizeError(f"{what} has at most two decimals.", field)
    return value.quantize(CENT)


def parse_prize(text: str, *, what: str, field: str = "") -> Prize | None:
    """An extra prize as typed: empty (none), an amount ("10") or a percentage ("5%")."""
    cleaned = str(text).strip()
    if not cleaned:
        return None
    if cleaned.endswith("%"):
        return Prize(percent=parse_percent(cleaned, what=what, field=field))
    return Prize(amount=parse_amount(cleaned, what=what, field=field))


def check_places(percents: Sequence[Decimal]) -> None:
    """A payout table's places: at least one, each above 0, none more than the place
    above it, adding up to 100."""
    if not percents:
        raise PrizeError("Give at least one place, such as 100 (the winner takes all).", "places")
    if len(percents) > MAX_PLACES:
        raise PrizeError(f"A payout table pays at most {MAX_PLACES} places.", "places")
    for number, percent in enumerate(percents, start=1):
        if percent <= 0:
            raise PrizeError(f"Place {number} gets 0 %; leave it out instead.", "places")
        if number > 1 and percent > percents[number - 2]:
            raise PrizeError(
                f"Place {number} gets more than place {number - 1}; "
                "each place gets no more than the place above it.",
                "places",
            )
    total = sum(percents, Decimal(0))
    if total != HUNDRED:
        raise PrizeError(
            f"The places add up to {total.normalize():f} %; they must add up to 100 %.", "places"
        )


def parse_places(texts: Sequence[str]) -> list[Decimal]:
    """The places' percentages as typed, one per place, checked by `check_places`."""
    percents = [
        parse_percent(t, what=f"Place {n}", field="places") for n, t in enumerate(texts, start=1)
    ]
    check_places(percents)
    return percents


def check_extras(extras: Sequence[Prize | None]) -> None:
    """The extra prizes' percentages together are at most the whole pool."""
    total = sum((p.percent for p in extras if p is not None and p.percent is not None), Decimal(0))
    if total > HUNDRED:
        raise PrizeError("The extra prizes together are more than the whole pool.", "extras")


def prize_pool(
    *, fees: Decimal, share_percent: Decimal | None, fixed: Decimal | None, unit: Decimal
) -> Decimal:
    """The prize pool: the fixed amount if there is one, else the fees collected times the
    share (100 % when none is given), rounded down to the unit."""
    if fixed is not None:
        return floor_to(fixed, unit)
    share = HUNDRED if share_percent is None else share_percent
    return floor_to(fees * share / HUNDRED, unit)


@dataclass(frozen=True)
class ExtraResult(Generic[K]):
    """An extra prize as paid: its name, who won it and what each got."""

    name: str
    prize: Prize
    winners: tuple[K, ...]
    amounts: tuple[Decimal, ...]

    @property
    def total(self) -> Decimal:
        return sum(self.amounts, Decimal(0))


@dataclass(frozen=True)
class Payouts(Generic[K]):
    """Who gets what: `amounts` is each player's total (place money and extras); players
    who win nothing are in it with 0."""

    pool: Decimal
    place_money: Decimal
    amounts: dict[K, Decimal]
    places: dict[K, Decimal]
    extras: list[ExtraResult[K]] = field(default_factory=list)


def _split(total: Decimal, exact: Sequence[Decimal], unit: Decimal) -> list[Decimal]:
    """Each exact share rounded down to the unit; the units left over go one each to the
    first shares (the best placed). The shares' exact values add up to `total`."""
    shares = [floor_to(x, unit) for x in exact]
    left = int((total - sum(shares, Decimal(0))) / unit)
    for i in range(min(left, len(shares))):
        shares[i] += unit
    return shares


def payouts(
    *,
    pool: Decimal,
    percents: Sequence[Decimal],
    ranking: Sequence[Sequence[K]],
    extras: Sequence[tuple[str, Prize, Sequence[K]]] = (),
    unit: Decimal = CENT,
) -> Payouts[K]:
    """Split `pool` (a multiple of `unit`) by the payout table: `percents` per place (as
    `check_places` allows), `ranking` the final standings best first as groups of tied
    players (a group of one when nobody is tied), `extras` each extra prize with its
    winners in the order of the standings. The module's docstring is the rule."""
    check_places(percents)
    players = [k for group in ranking for k in group]
    amounts: dict[K, Decimal] = dict.fromkeys(players, Decimal(0))
    left = pool
    paid_extras: list[ExtraResult[K]] = []
    for name, prize, winners in extras:
        if not winners:
            continue
        value = prize.amount if prize.amount is not None else pool * (prize.percent or 0) / HUNDRED
        value = min(floor_to(value, unit), left)
        shares = _split(value, [value / len(winners)] * len(winners), unit)
        left -= value
        for k, share in zip(winners, shares, strict=True):
            amounts[k] = amounts.get(k, Decimal(0)) + share
        paid_extras.append(ExtraResult(name, prize, tuple(winners), tuple(shares)))
    places: dict[K, Decimal] = {}
    if players:
        occupied = list(percents[: len(players)])
        weight = sum(occupied, Decimal(0))
        exact: list[Decimal] = []
        start = 0
        for group in ranking:
            group_percent = sum(occupied[start : start + len(group)], Decimal(0))
            exact += [left * group_percent / weight / len(group)] * len(group)
            start += len(group)
        for k, share in zip(players, _split(left, exact, unit), strict=True):
            places[k] = share
            amounts[k] += share
    return Payouts(
        pool=pool,
        place_money=left if players else Decimal(0),
        amounts=amounts,
        places=places,
        extras=paid_extras,
    )


def format_money(
    amount: Decimal,
    currency: str = "",
    unit: Decimal = CENT,
    *,
    decimal: str = ".",
    thousands: str = ",",
) -> str:
    """An amount as the club writes it: "£12.50", "EUR 12.50" (a code is set apart by a
    space), "12.50" with no currency; whole units without decimals; with the reader's
    language's marks ("€1.234,50" with `decimal=","`, `thousands="."`)."""
    plain = f"{amount.quantize(unit):,f}"
    shown = "".join(
        decimal if char == "." else thousands if char == "," else char for char in plain
    )
    if not currency:
        return shown
    return f"{currency} {shown}" if currency[-1].isalpha() else f"{currency}{shown}"
