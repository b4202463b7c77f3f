"""Template helpers for the pages: table links, times in the club's time zone, and the
address printed cards carry; amounts of money in the club's currency."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django import template
from django.http.request import split_domain_port
from django.utils import timezone

from workflow.session import format_words

register = template.Library()


@register.simple_tag
def table_link(pattern: str, table_id: int) -> str:
    """A table's URL from a pattern reversed once per page (see `views.session_public`)."""
    return pattern.format(table_id)


@register.filter
def apart_reason(pair: dict[str, Any]) -> str:
    """Why a pair of `Sitting.not_kept_apart` sits together, in the reader's language."""
    return format_words.apart_reason(pair.get("code", ""), pair.get("values", {}), pair["reason"])


@register.filter
def local_time(value: datetime | None) -> str:
    """ "19:30 (Europe/London)": the time in the active time zone (the club's, on its
    pages), saying which."""
    if value is None:
        return ""
    return f"{timezone.localtime(value):%H:%M} ({timezone.get_current_timezone_name()})"


@register.filter
def local_datetime(value: datetime | None) -> str:
    """ "2026-03-10 19:30 (Europe/London)"."""
    if value is None:
        return ""
    return f"{timezone.localtime(value):%Y-%m-%d %H:%M} ({timezone.get_current_timezone_name()})"


@dataclass(frozen=True)
class CardAddress:
    """The address the printed cards and QR codes carry (the one this page was asked at),
    and whether only this computer can open it."""

    url: str
    loopback: bool


def is_loopback(host: str) -> bool:
    domain, _port = split_domain_port(host)
    name = (domain or host).strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@register.simple_tag(takes_context=True)
def card_address(context: dict[str, Any]) -> CardAddress | None:
    """`{% card_address as address %}`: what the cards printed from this page will open.
    Under `make run` that is http://127.0.0.1:8000/, which no phone can reach."""
    request = context.get("request")
    if request is None:
        return None
    return CardAddress(request.build_absolute_uri("/"), is_loopback(request.get_host()))


@register.simple_tag
def money(amount: Decimal | None, prizes: Any) -> str:
    """An amount as the club writes it (`workflow.club.prize_selectors.SessionPrizes.money`);
    empty for None."""
    return "" if amount is None else str(prizes.money(amount))


@register.filter
def of(mapping: dict[Any, Any] | None, key: Any) -> Any:
    """`mapping[key]`, or empty: `{{ prizes|of:r.player.pk }}`."""
    return "" if not mapping else mapping.get(key, "")
