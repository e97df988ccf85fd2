"""How many account mails the site sends, so that its forms cannot be used to flood an
inbox or to send mail in bulk.

Two limits, counted in the cache with ``games.ratelimit.allow``:

- per recipient address: at most ``STOPBUS_MAILS_TO_AN_ADDRESS`` sign-up, address-change
  and password-reset mails an hour, whichever form asked. Past it, the mail is simply
  not sent: the page says what it always says, so it still tells nobody whether the
  address has an account.
- per client address (IP): at most ``STOPBUS_MAIL_REQUESTS_FROM_AN_IP`` sign-ups and
  password resets an hour, and per account ``STOPBUS_EMAIL_CHANGES_A_USER`` address
  changes. These count every request that would mail (whether or not the address has an
  account), so the visitor is told in words to try again later: the form comes back with
  the reason as its own error, status 429 (Too Many Requests, as for too many log-ins)
  and a ``Retry-After`` header (:func:`refuse`).
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings

from accounts.client_address import client_ip, limit_group
from games.ratelimit import allow

WINDOW = 3600  # seconds


def _limit(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def _hashed(text: str) -> str:
    # short, and safe as a cache key whatever the address holds
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def may_mail(address: str) -> bool:
    """One more account mail to ``address`` (counted, in any letter case)?"""
    return allow(f"mail-to:{_hashed(address.strip().casefold())}",
                 _limit("STOPBUS_MAILS_TO_AN_ADDRESS", 3), WINDOW)


def may_ask_from(request) -> bool:
    """One more sign-up or password reset from this request's client address (counted)?"""
    return allow(f"mail-from:{_hashed(limit_group(client_ip(request)))}",
                 _limit("STOPBUS_MAIL_REQUESTS_FROM_AN_IP", 10), WINDOW)


def may_change_email(user) -> bool:
    """One more address change (a mail) for this account (counted)?"""
    return allow(f"mail-change:{user.pk}", _limit("STOPBUS_EMAIL_CHANGES_A_USER", 5), WINDOW)


def seconds_to_wait() -> int:
    """Until the current window ends (``allow`` counts in fixed windows)."""
    return WINDOW - int(time.time()) % WINDOW


def refuse(view, form, message, field=None):
    """``view`` (a FormView) shows ``form`` again with ``message`` as the form's own error
    (or ``field``'s): a request over a limit is no success, so it is a 429 saying when to
    come back."""
    form.add_error(field, message)
    response = view.form_invalid(form)
    response.status_code = 429
    response["Retry-After"] = str(seconds_to_wait())
    return response
