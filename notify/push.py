"""Sending one web push (pywebpush, VAPID). No database writes: the caller records what
happened. Never called inside a move's transaction (only from the deliveries' loop)."""

from __future__ import annotations

import functools
import json
import logging
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from django.conf import settings
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from . import endpoints

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Sent:
    status: int | None  # the push service's HTTP status; None when it could not be reached
    detail: str = ""
    refused: bool = False  # not sent: the endpoint is not on a browser's push service

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def gone(self) -> bool:
        """The push service says the subscription no longer exists."""
        return self.status in (404, 410)

    @property
    def retry(self) -> bool:
        """Worth trying again later: the service failed, was busy, or was not reached."""
        if self.refused:
            return False
        return self.status is None or self.status == 429 or self.status >= 500


def vapid_claims(endpoint: str) -> dict:
    parts = urlsplit(endpoint)
    return {"sub": getattr(settings, "VAPID_SUBJECT", "") or "mailto:noreply@localhost",
            "aud": f"{parts.scheme}://{parts.netloc}"}


@functools.lru_cache(maxsize=4)
def _vapid(private_key: str) -> Vapid02:
    """The signing key, parsed once (pywebpush would parse the string on every push)."""
    return Vapid02.from_string(private_key)


_local = threading.local()


class _NoRedirects(requests.Session):
    """A push goes to the endpoint checked and nowhere else: a redirect from it is an
    answer (a failed push), never followed (it could lead anywhere)."""

    def request(self, method, url, *args, **kwargs):
        kwargs["allow_redirects"] = False
        return super().request(method, url, *args, **kwargs)


def _session() -> requests.Session:
    """One HTTP session per sending thread: connections to a push service are kept
    open between pushes (a new TLS handshake per push costs more than the push)."""
    session = getattr(_local, "session", None)
    if session is None:
        session = _local.session = _NoRedirects()
    return session


def send(subscription_info: dict, payload: dict, ttl: int = 3600, topic: str | None = None) -> Sent:
    if not endpoints.allowed(subscription_info.get("endpoint")):
        # kept before endpoints were checked, or the push services' list changed since
        return Sent(None, "endpoint is not on a browser's push service", refused=True)
    headers = {"Urgency": "high"}
    if topic:
        headers["Topic"] = topic
    try:
        response = webpush(
            subscription_info, json.dumps(payload, ensure_ascii=False),
            vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
            vapid_claims=vapid_claims(subscription_info["endpoint"]),
            ttl=ttl, headers=headers, timeout=getattr(settings, "NOTIFY_PUSH_TIMEOUT", 5.0),
            requests_session=_session())
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        return Sent(status, str(exc)[:200])
    except (requests.RequestException, OSError) as exc:
        return Sent(None, f"{type(exc).__name__}: {exc}"[:200])
    return Sent(response.status_code)
