"""Which address a request comes from, for the log-in lockout.

``X-Forwarded-For`` is a list every hop may append to, and its left end is
whatever the client chose to send. So the header is read only when the request
comes straight from a proxy listed in ``STOPBUS_TRUSTED_PROXIES``, and then from
the right: the first address that is not one of our proxies is the one our
outermost proxy saw, which the client cannot choose. With no proxy configured
the header is ignored and the peer's own address counts.
"""

from __future__ import annotations

import ipaddress
from functools import cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


@cache
def _networks(entries: tuple[str, ...]) -> tuple:
    try:
        return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"STOPBUS_TRUSTED_PROXIES holds something that is not an address or network: "
            f"{exc}") from exc


def trusted_proxies() -> tuple:
    return _networks(tuple(getattr(settings, "STOPBUS_TRUSTED_PROXIES", ()) or ()))


def _address(text: str):
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _trusted(address, networks) -> bool:
    return address is not None and any(address in network for network in networks)


def client_address(peer: str, forwarded_for: str | None) -> str:
    """The client's address, given the peer's and the ``X-Forwarded-For`` header."""
    networks = trusted_proxies()
    if not networks or not _trusted(_address(peer), networks):
        return peer
    hops = [hop for hop in (forwarded_for or "").split(",") if hop.strip()]
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            # a hop our proxy did not write cleanly: the proxy is the last address we know
            return peer
        if not _trusted(address, networks):
            return str(address)
    # every hop was one of our proxies (or there were none): the first is the client
    return str(_address(hops[0])) if hops else peer


def client_ip(request) -> str:
    """django-axes' AXES_CLIENT_IP_CALLABLE."""
    return client_address(request.META.get("REMOTE_ADDR", ""),
                          request.META.get("HTTP_X_FORWARDED_FOR"))


def socket_client(scope) -> str:
    """A websocket's client address, from its ASGI scope, as :func:`client_ip` reads a
    request's (the peer's, or behind a trusted proxy the address it saw)."""
    client = scope.get("client") or ("", 0)
    forwarded = b",".join(value for name, value in scope.get("headers") or ()
                          if name.lower() == b"x-forwarded-for")
    return client_address(str(client[0] or ""), forwarded.decode("latin-1") or None)


def limit_group(address: str) -> str:
    """What a per-address limit counts: an IPv4 address itself; an IPv6 address's /64,
    the least one subscriber is given (they could otherwise use a new address for every
    try)."""
    parsed = _address(address)
    if parsed is None or parsed.version == 4:
        return address
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
