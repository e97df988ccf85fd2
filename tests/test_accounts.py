"""Sign-up, log-in/out, profile and password flows, through the real pages."""

import re

import pytest
from django.contrib.auth import get_user
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

SIGNUP_URL = reverse("accounts:signup")


def signup_data(**overrides):
    data = {
        "username": "ace_of_clubs",
        "email": "ace@example.com",
        "password1": "stop-the-bus-2024!",
        "password2": "stop-the-bus-2024!",
    }
    data.update(overrides)
    return data


def field_errors(response, field):
    return response.context["form"].errors.get(field, [])


# Sign-up


def test_signup_page_renders(client):
    response = client.get(SIGNUP_URL)
    assert response.status_code == 200
    assert b'name="password2"' in response.content


def confirm_link(message):
    found = re.search(r"https?://\S+/accounts/signup/confirm/\S+/", message.body)
    assert found, message.body
    return found.group(0)


def test_valid_signup_mails_a_link_that_creates_the_account_and_logs_in(client, mailoutbox):
    response = client.post(SIGNUP_URL, signup_data(), follow=True)
    assert response.redirect_chain == [(reverse("accounts:signup_sent"), 302)]
    assert b"Check your email" in response.content
    assert not User.objects.exists()  # nothing is kept until the address is confirmed
    assert [m.to for m in mailoutbox] == [["ace@example.com"]]

    link = confirm_link(mailoutbox[0])
    page = client.get(link)
    assert page.status_code == 200 and b"ace_of_clubs" in page.content
    assert not User.objects.exists()  # opening the link (a mail scanner) makes nothing
    response = client.post(link, follow=True)

    user = User.objects.get(username="ace_of_clubs")
    assert user.email == "ace@example.com"
    assert user.check_password("stop-the-bus-2024!")
    assert response.redirect_chain == [("/", 302)]
    assert get_user(client).pk == user.pk
    assert b"Welcome aboard, ace_of_clubs!" in response.content
    # the lobby under it greets a new player, not one coming back
    assert b"Welcome, <strong>ace_of_clubs</strong>" in response.content
    assert b"Welcome back" not in response.content
    # A flash message shows once; from then on they are coming back.
    later = client.get("/").content
    assert b"Welcome aboard" not in later and b"Welcome back, <strong>ace_of_clubs" in later
    # The link works once.
    assert client.post(link).status_code == 404


def test_a_confirm_link_that_does_not_exist_is_a_404(client):
    response = client.get(reverse("accounts:signup_confirm", args=["no-such-token"]))
    assert response.status_code == 404
    assert b"That link has expired" in response.content


def test_a_name_taken_between_sign_up_and_confirming_is_refused(client, mailoutbox):
    client.post(SIGNUP_URL, signup_data())
    UserFactory(username="Ace_Of_Clubs")
    response = client.post(confirm_link(mailoutbox[0]))
    assert response.status_code == 409
    assert User.objects.filter(email="ace@example.com").count() == 0


def test_signed_in_user_visiting_signup_goes_home(user_client):
    response = user_client.get(SIGNUP_URL)
    assert response.status_code == 302
    assert response.url == "/"


def test_duplicate_username_is_refused(client, user):
    response = client.post(SIGNUP_URL, signup_data(username=user.username.upper()))

    assert response.status_code == 200
    assert field_errors(response, "username") == ["A user with that username already exists."]
    assert User.objects.count() == 1


def test_sign_up_answers_the_same_whether_or_not_the_email_is_registered(
        client, user, mailoutbox):
    """The probe could tell registered addresses from the sign-up form's error."""
    def answer(**data):
        response = Client().post(SIGNUP_URL, signup_data(**data), follow=True)
        html = response.content.decode().replace(User.objects.normalize_email(data["email"]),
                                                 "EMAIL")
        html = re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF-TOKEN", html)
        return response.status_code, response.redirect_chain, html

    registered = answer(username="newcomer", email=user.email.upper())
    fresh = answer(username="newcomer", email="fresh@example.com")
    assert registered == fresh
    assert "already exists" not in registered[2]
    assert User.objects.count() == 1
    # the owner of the registered address is told by email, and gets no link
    to_owner, to_fresh = mailoutbox
    assert to_owner.to == [user.email] and to_fresh.to == ["fresh@example.com"]
    assert "already has an account" in to_owner.body
    assert "/accounts/signup/confirm/" not in to_owner.body
    assert reverse("password_reset") in to_owner.body
    assert "/accounts/signup/confirm/" in to_fresh.body


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("Zq9!x", "This password is too short. It must contain at least 8 characters."),
        ("password123", "This password is too common."),
        ("40918273645", "This password is entirely numeric."),
        ("ace_of_clubs1", "The password is too similar to the username."),
    ],
)
def test_weak_passwords_are_refused(client, password, message):
    response = client.post(SIGNUP_URL, signup_data(password1=password, password2=password))

    assert response.status_code == 200
    assert message in field_errors(response, "password2")
    assert message.encode() in response.content
    assert not User.objects.exists()


def test_mismatched_passwords_are_refused(client):
    response = client.post(SIGNUP_URL, signup_data(password2="stop-the-bus-2025!"))

    assert response.status_code == 200
    assert field_errors(response, "password2") == ["The two password fields didn’t match."]
    assert not User.objects.exists()


def test_email_is_required(client):
    response = client.post(SIGNUP_URL, signup_data(email=""))

    assert field_errors(response, "email") == ["This field is required."]
    assert not User.objects.exists()


def test_model_refuses_case_insensitive_duplicate_email():
    UserFactory(email="Dealer@Example.com")
    clash = User(username="other", email="dealer@example.com")
    clash.set_password(PASSWORD)
    with pytest.raises(Exception, match="email address already exists"):
        clash.full_clean()


# Log in and out


def test_login_with_right_password(client, user):
    response = client.post(
        reverse("login"), {"username": user.username, "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain == [("/", 302)]
    assert get_user(client).pk == user.pk
    assert f"Welcome back, <strong>{user.username}</strong>".encode() in response.content


def test_login_with_wrong_password(client, user):
    response = client.post(reverse("login"), {"username": user.username, "password": "nope"})
    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content
    assert not get_user(client).is_authenticated
    # the name is kept; the cursor is in the password field, to type it again
    html = response.content.decode()
    name = re.search(r'<input[^>]*name="username"[^>]*>', html).group(0)
    password = re.search(r'<input[^>]*name="password"[^>]*>', html).group(0)
    assert f'value="{user.username}"' in name and "autofocus" not in name
    assert "autofocus" in password and "value=" not in password
    # a first visit starts in the name field
    fresh = client.get(reverse("login")).content.decode()
    assert "autofocus" in re.search(r'<input[^>]*name="username"[^>]*>', fresh).group(0)


def test_logout_is_a_post(user_client):
    assert user_client.get(reverse("logout")).status_code == 405

    response = user_client.post(reverse("logout"))
    assert response.status_code == 302
    assert response.url == "/"
    assert not get_user(user_client).is_authenticated


def test_logged_in_header_has_logout_form_and_profile_link(user_client):
    content = user_client.get("/").content.decode()
    assert f'action="{reverse("logout")}"' in content
    assert 'href="/accounts/profile/"' in content
    assert "Log in</a>" not in content


# Profile


def test_profile_requires_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next=/accounts/profile/"


def test_profile_shows_account_details(user_client, user):
    response = user_client.get(reverse("accounts:profile"))
    content = response.content.decode()
    assert response.status_code == 200
    assert user.username in content
    assert user.email in content
    assert user.date_joined.strftime("%Y") in content
    assert reverse("password_change") in content


def email_link(message):
    found = re.search(r"https?://\S+/accounts/email/confirm/\S+/", message.body)
    assert found, message.body
    return found.group(0)


def test_profile_changes_email_once_the_new_address_confirms(user_client, user, mailoutbox):
    old = user.email
    response = user_client.post(
        reverse("accounts:profile"), {"email": "new-address@example.com"}, follow=True
    )
    assert b"We have sent a link to new-address@example.com" in response.content
    user.refresh_from_db()
    assert user.email == old  # not before the link is opened
    [mail] = mailoutbox
    assert mail.to == ["new-address@example.com"]
    link = email_link(mail)
    assert user_client.get(link).status_code == 200
    response = user_client.post(link, follow=True)
    user.refresh_from_db()
    assert user.email == "new-address@example.com"
    assert b"Your email address has been updated." in response.content
    assert user_client.post(link).status_code == 404  # once


def test_an_email_link_works_only_for_the_account_that_asked(client, user, mailoutbox):
    client.force_login(user)
    client.post(reverse("accounts:profile"), {"email": "new-address@example.com"})
    link = email_link(mailoutbox[0])
    other = UserFactory()
    client.force_login(other)
    assert client.post(link).status_code == 404
    other.refresh_from_db()
    assert other.email != "new-address@example.com"


def test_profile_answers_the_same_for_an_address_of_another_account(
        user_client, user, mailoutbox):
    owner = UserFactory(email="taken@example.com")

    def answer(email):
        response = user_client.post(reverse("accounts:profile"), {"email": email}, follow=True)
        html = response.content.decode().replace(email, "EMAIL")
        return response.status_code, re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF-TOKEN", html)

    assert answer("TAKEN@example.com") == answer("free@example.com")
    user.refresh_from_db()
    assert user.email not in ("TAKEN@example.com", "free@example.com")
    to_owner, to_free = mailoutbox
    assert to_owner.to == [owner.email] and "already belongs to your account" in to_owner.body
    assert "/accounts/email/confirm/" not in to_owner.body
    assert to_free.to == ["free@example.com"]


def test_profile_keeps_own_email_in_another_case(user_client, user):
    response = user_client.post(reverse("accounts:profile"), {"email": user.email.upper()})
    assert response.status_code == 302


# Passwords


def test_password_change(user_client, user):
    response = user_client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "a-brand-new-hand-77",
            "new_password2": "a-brand-new-hand-77",
        },
        follow=True,
    )
    assert response.redirect_chain == [(reverse("password_change_done"), 302)]
    assert b"Password changed" in response.content
    user.refresh_from_db()
    assert user.check_password("a-brand-new-hand-77")
    # Still logged in: Django rotates the session hash instead of logging out.
    assert get_user(user_client).is_authenticated


def test_password_change_needs_the_old_password(user_client, user):
    response = user_client.post(
        reverse("password_change"),
        {
            "old_password": "wrong",
            "new_password1": "a-brand-new-hand-77",
            "new_password2": "a-brand-new-hand-77",
        },
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_password_reset_by_email_link(client, user, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": user.email.upper()})
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")

    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == [user.email]
    assert mail.subject == "Reset your Stop the Bus password"
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.body)
    assert link, mail.body

    # The emailed link redirects to a token-free URL that shows the form.
    response = client.get(link.group(1), follow=True)
    assert response.status_code == 200
    assert response.context["validlink"]
    form_url = response.redirect_chain[-1][0]

    response = client.post(
        form_url,
        {"new_password1": "fresh-deck-shuffle-5", "new_password2": "fresh-deck-shuffle-5"},
    )
    assert response.status_code == 302
    assert response.url == reverse("password_reset_complete")

    response = client.post(
        reverse("login"), {"username": user.username, "password": "fresh-deck-shuffle-5"}
    )
    assert response.status_code == 302
    assert get_user(client).pk == user.pk


def test_password_reset_for_unknown_email_sends_nothing(client, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mailoutbox == []


def test_used_reset_link_is_refused(client, user, mailoutbox):
    client.post(reverse("password_reset"), {"email": user.email})
    path = re.search(r"http://testserver(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    form_url = client.get(path, follow=True).redirect_chain[-1][0]
    client.post(form_url, {"new_password1": "fresh-deck-5", "new_password2": "fresh-deck-5"})

    response = client.get(path, follow=True)
    assert not response.context["validlink"]
    assert b"That link has expired" in response.content


# Admin


def test_admin_lists_users(admin_client, user):
    response = admin_client.get(reverse("admin:accounts_user_changelist"))
    assert response.status_code == 200
    assert user.username.encode() in response.content


def test_admin_adds_a_user_with_an_email(admin_client):
    response = admin_client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "dealer",
            "email": "dealer@example.com",
            "usable_password": "true",
            "password1": "a-fine-admin-pass-42",
            "password2": "a-fine-admin-pass-42",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert User.objects.get(username="dealer").email == "dealer@example.com"


def test_admin_refuses_a_duplicate_email(admin_client, user):
    response = admin_client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "dealer",
            "email": user.email.upper(),
            "usable_password": "true",
            "password1": "a-fine-admin-pass-42",
            "password2": "a-fine-admin-pass-42",
        },
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="dealer").exists()


# Where a form sends the player on afterwards ("next")


@pytest.mark.parametrize("target", ["abc", "games:lobby", "accounts:profile", "https://evil.example/",
                                    "//evil.example/", "/\\evil.example/", ""])
def test_preferences_follow_only_a_local_path(user_client, target):
    """A bare word was taken for a URL name (NoReverseMatch: a 500)."""
    response = user_client.post(reverse("accounts:preferences"), {"sound": "on", "next": target})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:lobby")


def test_preferences_follow_a_local_path(user_client):
    response = user_client.post(reverse("accounts:preferences"),
                                {"sound": "on", "next": "/accounts/profile/?tab=1"})
    assert response["Location"] == "/accounts/profile/?tab=1"


@pytest.mark.parametrize("target", ["abc", "games:lobby", "https://evil.example/",
                                    "//evil.example/"])
def test_play_as_guest_follows_only_a_local_path(client, target):
    response = client.post(reverse("accounts:guest"), {"next": target})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:lobby")
