"""The client's address, taken from X-Forwarded-For only when a trusted proxy sent it.

Sign-in locks (django-axes) and the API's rate limits (DRF) count attempts per client
address. Anyone can send an `X-Forwarded-For` header, so believing it from anyone lets a
client look new on every call. HUCKLEY_TRUSTED_PROXIES lists the proxies in front of the
app (addresses or networks, e.g. `127.0.0.1` or `10.0.0.0/8`); only a request that comes
from one of them has its address taken from the header: the right-most entry that is not
itself a trusted proxy, since a proxy appends the address it saw to whatever the client
sent. With none configured (the default) REMOTE_ADDR is always the client.

The same holds for `X-Forwarded-Proto`, which production believes for HTTPS
(`SECURE_PROXY_SSL_HEADER`): from anyone but a trusted proxy the header is dropped before
Django reads it, so a client over plain HTTP cannot claim HTTPS (and skip the redirect,
or be handed secure cookies over plain HTTP).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(items: Iterable[str]) -> tuple[Network, ...]:
    try:
        return tuple(ipaddress.ip_network(item, strict=False) for item in items)
    except ValueError as e:
        raise ImproperlyConfigured(f"HUCKLEY_TRUSTED_PROXIES: {e}") from None


def _is_trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in networks)


def resolve(remote_addr: str, forwarded_for: str, networks: tuple[Network, ...]) -> str:
    """The client address of a request from `remote_addr` carrying `forwarded_for`."""
    if not networks or not _is_trusted(remote_addr, networks):
        return remote_addr
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, networks):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                # A malformed entry: the proxy before it vouches for nothing more.
                return remote_addr
    return hops[0] if hops else remote_addr


class TrustedProxyMiddleware:
    """Sets REMOTE_ADDR to the client's address, so that every later reader (axes, DRF's
    throttles, logs) agrees on it without trusting headers on its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.networks = parse_networks(settings.HUCKLEY_TRUSTED_PROXIES)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        meta = request.META
        if not _is_trusted(meta.get("REMOTE_ADDR", ""), self.networks):
            meta.pop("HTTP_X_FORWARDED_PROTO", None)
        if self.networks:
            meta["REMOTE_ADDR"] = resolve(
                meta.get("REMOTE_ADDR", ""), meta.get("HTTP_X_FORWARDED_FOR", ""), self.networks
            )
        return self.get_response(request)


def client_ip(request: HttpRequest) -> str | None:
    """The address django-axes locks by (AXES_CLIENT_IP_CALLABLE): REMOTE_ADDR as the
    middleware left it. Axes may call this before the middleware ran (a sign-in outside
    a request), so it resolves again; resolving twice gives the same answer."""
    meta = request.META
    remote = meta.get("REMOTE_ADDR")
    if remote is None:
        return None
    networks = parse_networks(settings.HUCKLEY_TRUSTED_PROXIES)
    return resolve(remote, meta.get("HTTP_X_FORWARDED_FOR", ""), networks)
