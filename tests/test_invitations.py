"""Inviting a player by name: the host of a waiting table names a registered player, who is
told (the "invited" notification, in their language) with the table's link and may open
it even when it is private. Bad names are refused in words and change nothing."""

import pytest
from django.core.cache import cache
from django.test import override_settings

from games import actions
from games.access import may_watch
from games.models import Invitation
from notify.actions import do_save_preferences
from notify.models import Delivery, Notification, PushSubscription
from notify.texts import text_for
from tests.factories import UserFactory, preset_variant

pytestmark = pytest.mark.django_db


def waiting_table(host, **options):
    options.setdefault("seats", 4)
    return actions.do_create_table(host, name="Oak", variant=preset_variant(), **options)


def test_the_host_invites_a_player_who_is_told_with_the_link(client):
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    table = waiting_table(ann)
    client.force_login(ann)
    response = client.post(f"/t/{table.pk}/invite/", {"player": "Bob"})  # any case
    assert response.status_code == 302
    assert Invitation.objects.filter(table=table, user=bob, invited_by=ann).exists()
    note = Notification.objects.get(user=bob, event="invited")
    assert note.table_id == table.pk and note.in_bell
    text = text_for(note, "en")
    assert text.title == "ann invited you to Oak"
    assert text.url == table.get_absolute_url()
    client.force_login(bob)
    bell = client.get("/notifications/").content.decode()
    assert "ann invited you to Oak" in bell and table.get_absolute_url() in bell


def test_the_invitation_is_in_the_players_language_and_pushed_as_they_chose():
    ann = UserFactory(username="ann")
    hanako = UserFactory(username="hanako", language="ja")
    PushSubscription.objects.create(user=hanako, endpoint="https://push.example/x",
                                    p256dh="k", auth="a")
    with override_settings(VAPID_PUBLIC_KEY="pub", VAPID_PRIVATE_KEY="priv"):
        actions.do_invite(waiting_table(ann), ann, "hanako")
    note = Notification.objects.get(user=hanako)
    assert text_for(note).title == "annさんがOakにあなたを招待しました"
    assert Delivery.objects.filter(notification=note, kind=Delivery.Kind.PUSH).count() == 1


def test_the_invitation_is_put_away_once_the_player_sits_down():
    ann = UserFactory(username="ann")
    bob = UserFactory(username="bob")
    PushSubscription.objects.create(user=bob, endpoint="https://push.example/x",
                                    p256dh="k", auth="a")
    table = waiting_table(ann)
    with override_settings(VAPID_PUBLIC_KEY="pub", VAPID_PRIVATE_KEY="priv"):
        actions.do_invite(table, ann, "bob")
    note = Notification.objects.get(user=bob, event="invited")
    assert note.read_at is None
    actions.do_join_table(table, bob)
    note.refresh_from_db()
    assert note.read_at is not None  # no longer waiting in the bell
    push = Delivery.objects.get(notification=note, kind=Delivery.Kind.PUSH)
    assert push.done_at is not None and push.result == "withdrawn"
    # someone else sitting down leaves their own invitation alone
    cat = UserFactory()
    actions.do_invite(table, ann, cat.username)
    actions.do_join_table(table, UserFactory())
    assert Notification.objects.get(user=cat).read_at is None


def test_an_invitation_turned_off_in_the_grid_is_not_sent():
    ann, bob = UserFactory(), UserFactory()
    do_save_preferences(bob, {"invited": {"site": False, "push": False}})
    actions.do_invite(waiting_table(ann), ann, bob.username)
    assert not Notification.objects.filter(user=bob).exists()


def test_an_invited_player_may_open_a_private_table_and_sit_down(client):
    ann, bob, eve = UserFactory(), UserFactory(), UserFactory()
    table = waiting_table(ann, private=True)
    assert may_watch(table.pk, bob, []) is False
    actions.do_invite(table, ann, bob.username)
    assert may_watch(table.pk, bob, []) is True
    assert may_watch(table.pk, eve, []) is False  # nobody else
    client.force_login(bob)
    assert client.get(table.get_absolute_url()).status_code == 200
    client.post(f"/t/{table.pk}/join/")
    assert table.seat_set.filter(user=bob).exists()
    client.force_login(eve)
    assert client.get(table.get_absolute_url()).status_code == 403


@pytest.mark.parametrize("name, says", [
    ("", "Enter the username of the player to invite."),
    ("nobody-here", "There is no player called “nobody-here”."),
    ("ann", "You are at this table already."),
    ("Guest 4821", "plays as a guest: guests cannot be invited by name"),
    ("bob", "bob sits at this table already."),
])
def test_bad_names_are_refused_in_words(client, name, says):
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    UserFactory(username="Guest 4821", is_guest=True)
    table = waiting_table(ann)
    actions.do_join_table(table, bob)
    client.force_login(ann)
    response = client.post(f"/t/{table.pk}/invite/", {"player": name}, follow=True)
    assert response.status_code == 200
    assert says in response.content.decode()
    assert not Invitation.objects.exists()
    assert not Notification.objects.filter(event="invited").exists()


def test_htmx_gets_the_answer_as_a_notice(client):
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    table = waiting_table(ann)
    client.force_login(ann)
    response = client.post(f"/t/{table.pk}/invite/", {"player": "bob"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "bob is invited" in response.content.decode()
    assert 'notice--success' in response.content.decode()
    assert response["HX-Trigger"] == "stopbus:invited"
    response = client.post(f"/t/{table.pk}/invite/", {"player": "bob"}, HTTP_HX_REQUEST="true")
    assert "bob is invited already." in response.content.decode()
    assert 'role="alert"' in response.content.decode()
    assert Notification.objects.filter(user=bob, event="invited").count() == 1


def test_only_the_host_and_only_before_the_start():
    ann, bob, cat = UserFactory(), UserFactory(), UserFactory()
    table = waiting_table(ann)
    actions.do_join_table(table, bob)
    with pytest.raises(actions.Refused):
        actions.do_invite(table, bob, cat.username)
    actions.do_start_game(table, ann)
    with pytest.raises(actions.Refused) as exc:
        actions.do_invite(table, ann, cat.username)
    assert exc.value.code == "started"
    assert not Invitation.objects.exists()


def test_invitations_are_rate_limited(client):
    ann = UserFactory()
    table = waiting_table(ann, seats=6)
    players = [UserFactory() for _ in range(3)]
    client.force_login(ann)
    cache.clear()
    from games import views

    views_limit = views.INVITES_PER_HOUR
    views.INVITES_PER_HOUR = 2
    try:
        for player in players:
            response = client.post(f"/t/{table.pk}/invite/", {"player": player.username},
                                   follow=True)
    finally:
        views.INVITES_PER_HOUR = views_limit
    assert "You have sent many invitations this hour" in response.content.decode()
    assert Invitation.objects.count() == 2


def test_the_host_sees_the_invite_form_and_others_do_not(client):
    ann, bob = UserFactory(), UserFactory()
    table = waiting_table(ann)
    actions.do_join_table(table, bob)
    client.force_login(ann)
    assert 'id="invite-name"' in client.get(table.get_absolute_url()).content.decode()
    client.force_login(bob)
    assert 'id="invite-name"' not in client.get(table.get_absolute_url()).content.decode()


def test_admins_read_invitations_and_cannot_make_or_change_them(admin_client):
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    table = waiting_table(ann)
    invitation = actions.do_invite(table, ann, "bob")
    listing = admin_client.get("/admin/games/invitation/")
    assert listing.status_code == 200
    html = listing.content.decode()
    assert "Oak" in html and "bob" in html and "ann" in html
    page = admin_client.get(f"/admin/games/invitation/{invitation.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert admin_client.get("/admin/games/invitation/add/").status_code == 403
    response = admin_client.post(f"/admin/games/invitation/{invitation.pk}/delete/",
                                 {"post": "yes"})
    assert response.status_code == 403
    assert Invitation.objects.filter(pk=invitation.pk, user=bob).exists()


def test_a_guest_host_is_not_offered_and_cannot_send_invitations_by_name(client):
    """A visitor without an account would reach any member's bell, and phone, with a table
    name of their choosing: guests send the table's link (and cannot chat either)."""
    guest, bob = UserFactory(is_guest=True), UserFactory(username="bob")
    table = waiting_table(guest)
    client.force_login(guest)
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="invite-name"' not in page
    response = client.post(f"/t/{table.pk}/invite/", {"player": "bob"}, follow=True)
    assert "Guests cannot invite players by name" in response.content.decode()
    assert not Invitation.objects.exists()
    assert not Notification.objects.filter(user=bob).exists()
