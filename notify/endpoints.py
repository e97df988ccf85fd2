"""Which push endpoints the site sends to: only the browsers' own push services.

A subscription's endpoint is an address the browser hands over, and the site later
POSTs to it: anything else than a known push service would let a player make the
server open connections wherever they chose (its own loopback, the cloud's metadata
address, the internal network). So an endpoint must be https on the default port, on
a host of ``STOPBUS_PUSH_HOSTS`` (by name: never an IP address, never with a user or
password), checked when subscribing and again before each push.

``STOPBUS_PUSH_HOSTS`` lists host names; "*.push.apple.com" means any host under
push.apple.com. Hosts in ``NOTIFY_PLAIN_HTTP_PUSH_HOSTS`` (a local fake push service in
tests) are taken on any port, over http too.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from django.conf import settings

MAX_LENGTH = 1000
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\Z")


def push_hosts() -> tuple[str, ...]:
    """The push services' hosts (``STOPBUS_PUSH_HOSTS``: Chrome's, Firefox's, Safari's and
    Edge's by default)."""
    return tuple(settings.STOPBUS_PUSH_HOSTS)


def _plain_hosts() -> tuple[str, ...]:
    return tuple(getattr(settings, "NOTIFY_PLAIN_HTTP_PUSH_HOSTS", ()) or ())


def _host_listed(host: str, patterns) -> bool:
    for pattern in patterns:
        pattern = pattern.strip().lower()
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]) and len(host) > len(pattern) - 1:
                return True
        elif pattern and host == pattern:
            return True
    return False


def _printable(endpoint: str) -> bool:
    """No white space, control character or anything past ASCII."""
    return all(33 <= ord(c) <= 126 for c in endpoint)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def allowed(endpoint) -> bool:
    """May pushes go to ``endpoint``?"""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_LENGTH:
        return False
    if not _printable(endpoint) or "\\" in endpoint:
        return False
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:  # a port that is not a number, or out of range
        return False
    host = parts.hostname or ""
    if not host or "@" in parts.netloc or parts.fragment:
        return False
    if host in _plain_hosts():
        return parts.scheme in ("http", "https")
    if parts.scheme != "https" or port not in (None, 443) or parts.netloc.endswith(":"):
        return False
    if "[" in parts.netloc or _is_ip(host) or host.replace(".", "").isdigit():
        return False
    if not all(_LABEL.match(label) for label in host.split(".")):
        return False  # also a trailing dot, an empty label, "%2e", "_"
    return _host_listed(host, push_hosts())


def plain_https(endpoint: str) -> bool:
    """Is ``endpoint`` at least an https address without a user or password (the first
    thing a subscription is told when it is not)?"""
    try:
        parts = urlsplit(endpoint)
    except ValueError:  # "https://[x": a bracket that opens no IPv6 address (was a 500)
        return False
    plain_ok = parts.scheme == "http" and parts.hostname in _plain_hosts()
    return ((parts.scheme == "https" or plain_ok) and bool(parts.hostname)
            and not parts.username and _printable(endpoint))
