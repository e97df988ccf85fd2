"""A socket's sign-in, checked before each action: read from the database once, then kept
for a while in the cache, and forgotten the moment the sign-in ends."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import signins
from games.signins import session_is_valid
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _signed_in(username="alice"):
    user = UserFactory(username=username)
    client = Client()
    client.force_login(user)
    return user, client, client.session


def test_a_valid_answer_is_kept_and_asked_again_without_a_query(django_assert_num_queries):
    alice, _client, session = _signed_in()
    with django_assert_num_queries(1):
        assert session_is_valid(session, alice) is True
    with django_assert_num_queries(0):
        for _ in range(5):
            assert session_is_valid(session, alice) is True


def test_a_refusal_is_never_kept(django_assert_num_queries):
    alice, _client, session = _signed_in()
    bob = UserFactory(username="bob")
    for _ in range(2):
        with django_assert_num_queries(1):
            assert session_is_valid(session, bob) is False
    assert session_is_valid(session, AnonymousUser()) is False
    assert session_is_valid(None, alice) is False


@pytest.mark.parametrize("change", ["logout", "password", "deactivated", "session deleted",
                                    "sessions deleted in bulk", "cache emptied"])
def test_each_end_of_a_sign_in_is_seen_at_the_next_action(change, django_assert_num_queries):
    """The answer was kept a moment before; the sign-in ends; the next check reads the
    database again and says no (but for an emptied cache, which only costs a read)."""
    alice, client, session = _signed_in()
    other_user, _other_client, other_session = _signed_in("carol")
    assert session_is_valid(session, alice) is True
    assert session_is_valid(other_session, other_user) is True
    if change == "logout":
        client.post(reverse("logout"))
    elif change == "password":
        alice.set_password("a whole new secret")
        alice.save()
    elif change == "deactivated":
        alice.is_active = False
        alice.save()
    elif change == "session deleted":
        Session.objects.get(session_key=session.session_key).delete()
    elif change == "sessions deleted in bulk":  # the admin's "delete selected"
        Session.objects.filter(session_key=session.session_key).delete()
    elif change == "cache emptied":
        cache.clear()
    with django_assert_num_queries(1):
        assert session_is_valid(session, alice) is (change == "cache emptied")
    # nobody else's sign-in is touched
    with django_assert_num_queries(1 if change == "cache emptied" else 0):
        assert session_is_valid(other_session, other_user) is True


def test_a_password_changed_in_a_transaction_is_seen_after_it_commits(
        django_assert_num_queries, django_capture_on_commit_callbacks):
    """A check that reads the old password while the change is not yet committed keeps
    its answer under the epoch before: the commit makes it stale."""
    alice, _client, session = _signed_in()
    with django_capture_on_commit_callbacks(execute=True):
        alice.set_password("a whole new secret")
        alice.save()
        # read inside the transaction (the row as it was, for a reader elsewhere): kept
        signins.forget_session(session.session_key)
        cache.set(signins._session_key(session.session_key),
                  [alice.pk, cache.get(signins._epoch_key(alice.pk))], 30)
    with django_assert_num_queries(1):
        assert session_is_valid(session, alice) is False


def test_a_session_about_to_expire_is_not_kept_past_its_expiry(django_assert_num_queries):
    alice, _client, session = _signed_in()
    Session.objects.filter(session_key=session.session_key).update(
        expire_date=timezone.now() + timedelta(milliseconds=500))
    assert session_is_valid(session, alice) is True
    with django_assert_num_queries(1):  # not kept: it ends in under a second
        assert session_is_valid(session, alice) is True


def test_the_session_key_never_names_a_cache_entry():
    alice, _client, session = _signed_in()
    assert session_is_valid(session, alice) is True
    name = signins._session_key(session.session_key)
    assert session.session_key not in name
    assert cache.get(name) is not None
