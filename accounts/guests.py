"""Guests: a visitor plays at once, without an account.

A guest is a real ``User`` row flagged ``is_guest`` with a generated name ("Guest
4821") and no usable password, logged in through the session like anyone else. So
every table, seat, game and stat works for them unchanged; what a guest may not do
(open a private table, chat unless ``STOPBUS_GUEST_CHAT``, rated play, post tables)
is refused where it happens, asking ``user.is_guest``.

Signing up from a guest session turns that very row into the member's account when
the emailed link is opened (:func:`become_member`): the games and stats are already
theirs, nothing is copied, and a second opening finds no guest left to convert.
Guests are made at most ``STOPBUS_GUESTS_PER_HOUR`` an hour per address; guests idle
for ``STOPBUS_GUEST_DAYS`` days are removed by ``manage.py clean_guests`` (which calls
``games.actions.do_forget_guests``).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.client_address import client_ip, limit_group
from accounts.forms import check_username, email_taken
from accounts.language import browser_language
from accounts.models import User
from games import ratelimit

NAME_ATTEMPTS = 20


class GuestRefused(Exception):
    """A guest could not be made (too many from this address): ``message`` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def is_guest(user) -> bool:
    return bool(getattr(user, "is_guest", False))


def guest_name() -> str:
    """A name not yet taken that passes the usernames' checks (``accounts.names``)."""
    for _attempt in range(NAME_ATTEMPTS):
        name = f"Guest {secrets.randbelow(9000) + 1000}"
        if User.objects.filter(username__iexact=name).exists():
            continue
        try:
            check_username(name)
        except ValidationError:
            continue  # looks like a member's name ("Guest 482l"): draw again
        return name
    # a crowded hour: a longer number, still checked
    for _attempt in range(NAME_ATTEMPTS):
        name = f"Guest {secrets.randbelow(900_000) + 100_000}"
        try:
            check_username(name)
        except ValidationError:
            continue
        return name
    raise GuestRefused(_("No guest name is free right now; try again in a moment."))


def start_guest(request) -> User:
    """The request's guest, logged in: the signed-in user if any, else a new guest
    (at most ``STOPBUS_GUESTS_PER_HOUR`` new guests an hour per address)."""
    if request.user.is_authenticated:
        return request.user
    limit = getattr(settings, "STOPBUS_GUESTS_PER_HOUR", 10)
    if not ratelimit.allow(f"guests:{limit_group(client_ip(request))}", limit, 3600):
        raise GuestRefused(_("Too many guests from your address this hour. Sign up, or try "
                             "again later."))
    for _attempt in range(3):
        try:
            with transaction.atomic():
                # a unique address no mail reaches (.invalid is reserved for that): the
                # accounts' addresses are unique, and a guest has none
                # in the language of the browser that asked (its pushes are written in
                # it): a guest has no other browser
                user = User(username=guest_name(), is_guest=True,
                            email=f"{secrets.token_hex(12)}@guest.invalid",
                            language=browser_language(request) or "")
                user.set_unusable_password()
                user.save()
            break
        except IntegrityError:  # the same name drawn by another visitor at that instant
            continue
    else:
        raise GuestRefused(_("No guest name is free right now; try again in a moment."))
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def become_member(guest_pk: int, *, username: str, email: str, password: str,
                  language: str = "") -> User | None:
    """Turn guest ``guest_pk`` into the member account ``username``: once.

    The row is locked, so two openings of the link at once (two tabs) queue; the second
    finds the row a member already and gets None, as does one whose name or address
    was taken since the sign-up. The guest's games were unrated and stay so; their
    stats rows are already the account's (same user). ``language`` (the one the sign-up
    was read in) is saved unless the guest has one saved already (their switch wins).
    """
    try:
        with transaction.atomic():
            guest = User.objects.select_for_update().filter(pk=guest_pk, is_guest=True).first()
            if guest is None:
                return None
            if email_taken(email, exclude_pk=guest_pk) or User.objects.filter(
                    username__iexact=username).exclude(pk=guest_pk).exists():
                return None
            check_username(username, exclude_pk=guest_pk)
            guest.username = username
            guest.email = email
            guest.password = password  # already hashed at sign-up
            guest.is_guest = False
            fields = ["username", "email", "password", "is_guest"]
            if language and not guest.language:
                guest.language = language
                fields.append("language")
            guest.save(update_fields=fields)
            return guest
    except (ValidationError, IntegrityError):
        return None


def remember_kind(request, user, slug: str) -> None:
    """*Play now* offers ``slug`` first next time: in the session, and on the account."""
    request.session["last_kind"] = slug
    if user.last_kind != slug:
        User.objects.filter(pk=user.pk).update(last_kind=slug)
        user.last_kind = slug
