"""Output shapes of the entry fees and prizes endpoints (`api.views.prizes`), and the
functions that fill them from `workflow.club.prize_selectors`. Amounts are strings: exact
decimals, never floats (docs/api.md, "Entry fees and prizes")."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rest_framework import serializers

from api.serializers import Data
from tournaments.models import PayoutTable, Session
from workflow.club.prize_selectors import SessionPrizes


def money(**kwargs: Any) -> serializers.CharField:
    return serializers.CharField(**kwargs)


class PayoutTableSerializer(serializers.Serializer[PayoutTable]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    places = serializers.ListField(
        child=serializers.CharField(),
        help_text="Each place's percentage of the place money, best first, adding up to 100.",
    )
    big_loser = serializers.CharField(
        help_text='The night\'s Big Loser (last place): an amount ("10.00") or a percentage '
        'of the pool ("5.00%"); empty: none.'
    )
    most_hooks = serializers.CharField(help_text="Most hooks of the night, the same way.")
    is_default = serializers.BooleanField(help_text="Used by sessions that name no table.")


class PayoutTableRefSerializer(serializers.Serializer[Data]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PayoutSerializer(serializers.Serializer[Data]):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    position = serializers.IntegerField()
    amount = money(help_text="Place money and extra prizes together.")


class ExtraPrizeSerializer(serializers.Serializer[Data]):
    prize = serializers.ChoiceField(choices=["big_loser", "most_hooks"])
    player_ids = serializers.ListField(
        child=serializers.IntegerField(), help_text="Its winners (several when tied)."
    )
    amount = money(help_text="The whole prize, shared by its winners.")


class SessionPrizesSerializer(serializers.Serializer[Data]):
    entry_fee = money(allow_null=True, help_text="null: a free session.")
    pool_share = money(
        allow_null=True, help_text="The share of the fees in the pool, in %; null: 100."
    )
    pool_fixed = money(allow_null=True, help_text="A fixed pool instead of the share.")
    payout_table = PayoutTableRefSerializer(
        allow_null=True,
        help_text="The table that splits the pool (the club's default if "
        "the session names none); null: the club has none.",
    )
    currency = serializers.CharField(help_text="The club's currency; empty: none.")
    paid_count = serializers.IntegerField(
        allow_null=True, help_text="Players marked paid; only for the club's directors."
    )
    fees_collected = money(
        allow_null=True, help_text="paid_count times the fee; only for the club's directors."
    )
    pool = money()
    final = serializers.BooleanField(
        help_text="true once the session is finished; before, what it would pay if it ended now."
    )
    payouts = PayoutSerializer(many=True, help_text="Players who win something, by position.")
    extras = ExtraPrizeSerializer(many=True)


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def session_prizes_data(
    session: Session, found: SessionPrizes, names: dict[int, tuple[int, str]], directs: bool
) -> dict[str, Any]:
    """`names`: each player's position and name on the standings."""
    amounts = found.payouts.amounts if found.payouts else {}
    ranked = sorted((names[pid][0], pid, a) for pid, a in amounts.items() if pid in names)
    payouts = [
        {"player_id": pid, "position": position, "name": names[pid][1], "amount": str(a)}
        for position, pid, a in ranked
        if a > 0
    ]
    extras = found.payouts.extras if found.payouts else []
    table = found.table
    return {
        "entry_fee": _text(session.entry_fee),
        "pool_share": _text(session.pool_share),
        "pool_fixed": _text(session.pool_fixed),
        "payout_table": {"id": table.pk, "name": table.name} if table else None,
        "currency": found.currency,
        "paid_count": found.paid_count if directs else None,
        "fees_collected": str(found.fees_collected) if directs else None,
        "pool": str(found.pool),
        "final": session.status == Session.Status.FINISHED,
        "payouts": payouts,
        "extras": [
            {"prize": e.name, "player_ids": list(e.winners), "amount": str(e.total)} for e in extras
        ],
    }
