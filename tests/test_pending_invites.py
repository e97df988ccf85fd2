"""Who is invited and has not sat down yet: the players of a waiting table see the list in
the waiting panel, the host may withdraw an invitation, and every page of the table
follows the list as it changes (an invitation, a withdrawal, the invited player sitting
down). Spectators and visitors never read the names; a move's read of the table costs no
query for them."""

from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import actions, render
from games.access import may_watch
from games.actions import publish
from games.actions.tables import do_withdraw_invite
from games.board import board_for, load_table
from games.models import Invitation
from notify.models import Notification
from tests.factories import UserFactory, preset_variant
from tests.test_live_frames import Groups, Page

pytestmark = pytest.mark.django_db

LIST = "Invited, not seated yet:"


def waiting_table(host, **options):
    options.setdefault("seats", 4)
    return actions.do_create_table(host, name="Oak", variant=preset_variant(), **options)


def page_of(client, user, table):
    client.force_login(user)
    response = client.get(table.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def test_the_players_at_the_table_see_who_is_invited_and_not_seated(client):
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    carol, dave = UserFactory(username="carol"), UserFactory(username="dave")
    table = waiting_table(ann, private=True)
    actions.do_join_table(table, bob)
    assert LIST not in page_of(client, ann, table)  # nobody invited: no list
    actions.do_invite(table, ann, "carol")
    actions.do_invite(table, ann, "dave")
    for player in (ann, bob):
        html = page_of(client, player, table)
        assert LIST in html and "carol" in html and "dave" in html
    context = board_for(load_table(table.pk), bob)
    assert [p["name"] for p in context["invited"]] == ["carol", "dave"]
    # the one who sits down leaves the list
    actions.do_join_table(table, carol)
    assert [p["name"] for p in board_for(load_table(table.pk), ann)["invited"]] == ["dave"]
    actions.do_join_table(table, dave)  # the last seat: the game starts
    assert board_for(load_table(table.pk), ann)["invited"] == []
    assert LIST not in page_of(client, ann, table)


def test_only_the_host_is_offered_the_withdraw_button(client):
    ann, bob, carol = (UserFactory(username=n) for n in ("ann", "bob", "carol"))
    table = waiting_table(ann)
    actions.do_join_table(table, bob)
    actions.do_invite(table, ann, "carol")
    action = f"/t/{table.pk}/invite/{carol.pk}/withdraw/"
    assert action in page_of(client, ann, table)
    html = page_of(client, bob, table)
    assert "carol" in html and action not in html


def test_spectators_and_visitors_never_read_the_invited_names(client):
    ann, carol = UserFactory(username="ann"), UserFactory(username="carolina")
    watcher = UserFactory(username="walt")
    private = waiting_table(ann, private=True)
    actions.do_invite(private, ann, "carolina")
    # a spectator who came with the private table's link
    client.force_login(watcher)
    client.get(f"/invite/{private.invite_code}/")
    html = client.get(private.get_absolute_url()).content.decode()
    assert "Oak" in html and "carolina" not in html and LIST not in html
    # the invited player, who may open it, is not seated: no list for them either
    html = page_of(client, carol, private)
    assert LIST not in html
    # a public table: seated players only
    pat = UserFactory(username="pat")
    public = actions.do_create_table(pat, name="Elm", variant=preset_variant(), seats=4)
    actions.do_invite(public, pat, "carolina")
    html = page_of(client, watcher, public)
    assert "Elm" in html and "carolina" not in html
    assert board_for(load_table(public.pk), None)["invited"] == []
    client.logout()
    assert client.get(public.get_absolute_url()).status_code == 302  # to sign in


def test_the_host_withdraws_an_invitation(client):
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    table = waiting_table(ann, private=True)
    actions.do_invite(table, ann, "bob")
    assert may_watch(table.pk, bob, [])
    client.force_login(ann)
    response = client.post(f"/t/{table.pk}/invite/{bob.pk}/withdraw/")
    assert response.status_code == 302
    assert not Invitation.objects.filter(table=table).exists()
    # their notice is put away, and the private table is closed to them again
    assert Notification.objects.get(user=bob, event="invited").read_at is not None
    assert not may_watch(table.pk, bob, [])
    assert LIST not in page_of(client, ann, table)
    assert board_for(load_table(table.pk), ann)["invited"] == []
    # invited again: the list shows them again
    actions.do_invite(table, ann, "bob")
    assert [p["name"] for p in board_for(load_table(table.pk), ann)["invited"]] == ["bob"]


def test_only_the_host_and_only_while_the_table_waits_may_withdraw():
    ann, bob, carol = UserFactory(), UserFactory(), UserFactory()
    table = waiting_table(ann, seats=3)
    actions.do_join_table(table, bob)
    actions.do_invite(table, ann, carol.username)
    with pytest.raises(actions.Refused) as refused:
        do_withdraw_invite(table, bob, carol.pk)
    assert refused.value.code == "not_host"
    with pytest.raises(actions.Refused) as refused:
        do_withdraw_invite(table, ann, bob.pk)  # bob was never invited
    assert refused.value.code == "no_invite"
    for bad in ("x", None, ""):
        with pytest.raises(actions.Refused) as refused:
            do_withdraw_invite(table, ann, bad)
        assert refused.value.code == "no_invite"
    actions.do_start_game(table, ann)
    with pytest.raises(actions.Refused) as refused:
        do_withdraw_invite(table, ann, carol.pk)
    assert refused.value.code == "started"
    assert Invitation.objects.filter(table=table, user=carol).exists()


def test_bad_withdrawals_over_http_are_refused_in_words_never_an_error(client):
    ann, bob, carol = UserFactory(), UserFactory(), UserFactory()
    table = waiting_table(ann)
    actions.do_join_table(table, bob)
    actions.do_invite(table, ann, carol.username)
    url = f"/t/{table.pk}/invite/{carol.pk}/withdraw/"
    client.force_login(bob)
    response = client.post(url, headers={"HX-Request": "true"})
    assert response.status_code == 200 and "Only the host can do that." in (
        response.content.decode())
    client.force_login(ann)
    assert client.get(url).status_code == 405  # POST only
    response = client.post(f"/t/{table.pk}/invite/{bob.pk}/withdraw/", follow=True)
    assert response.status_code == 200
    assert "There is no such invitation to withdraw." in response.content.decode()
    assert client.post(f"/t/{table.pk}/invite/bob/withdraw/").status_code == 404
    assert client.post(f"/t/{table.pk + 999}/invite/{carol.pk}/withdraw/").status_code == 404
    assert Invitation.objects.filter(table=table, user=carol).exists()
    client.logout()
    response = client.post(url)
    assert response.status_code == 302 and "/login" in response["Location"]
    assert Invitation.objects.filter(table=table, user=carol).exists()


def test_the_withdraw_form_carries_a_csrf_token(client):
    ann, carol = UserFactory(), UserFactory(username="carol")
    table = waiting_table(ann)
    actions.do_invite(table, ann, "carol")
    html = page_of(client, ann, table)
    form = html.split(f'action="/t/{table.pk}/invite/{carol.pk}/withdraw/"')[1].split("</form>")[0]
    assert 'name="csrfmiddlewaretoken"' in form


def test_every_page_of_the_table_follows_the_list_as_it_changes():
    """Invited, withdrawn, sat down: each change moves the table's revision, and the pass
    brings every open page (the players' own panels too) to the board it would be sent
    whole; no frame to a spectator names anyone invited."""
    render.clear()
    groups = Groups()
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    carol, dave = UserFactory(username="carol"), UserFactory(username="dave")
    watcher = UserFactory(username="walt")
    with mock.patch.object(actions.base, "group_send_many", groups):
        table = waiting_table(ann, seats=4)
        actions.do_join_table(table, bob)
        publish.run_pass(table.pk)
        pages = [Page(table.pk, ann, "en", "ca"), Page(table.pk, bob, "en", "cb"),
                 Page(table.pk, watcher, "en", "cw"), Page(table.pk, ann, "ja", "caj")]
        publish.run_pass(table.pk)
        groups.take()

        def change_and_check(change, shown, hidden, secret=("carol", "dave")):
            before = render.rev_of(render.table_data(table.pk))
            change()
            assert render.rev_of(render.table_data(table.pk)) != before
            publish.run_pass(table.pk)
            sent = groups.take()
            for page in pages:
                texts = page.hear(sent)
                if page.user == watcher:
                    assert not any(n in t for t in texts for n in secret)
                    assert not any(n in page.html for n in secret)
                    assert page.html == page.expected().html
                    continue
                assert page.html == page.expected().html, page.user
                panel = page.html.split('id="waiting"')[1].split("</section>")[0]
                for name in shown:
                    assert name in panel, (page.user, name)
                for name in hidden:
                    assert name not in panel, (page.user, name)

        change_and_check(lambda: actions.do_invite(table, ann, "carol"), ["carol"], ["dave"])
        change_and_check(lambda: actions.do_invite(table, ann, "dave"), ["carol", "dave"], [])
        change_and_check(lambda: do_withdraw_invite(table, ann, carol.pk), ["dave"], ["carol"])
        change_and_check(lambda: actions.do_join_table(table, dave), ["dave"], ["carol"],
                         secret=("carol",))
        # dave is seated now: named among the seats, no longer as invited
        for page in pages[:2]:
            panel = page.html.split('id="waiting"')[1].split("</section>")[0]
            assert "invited-list" not in panel


def _invitation_queries(queries) -> list[str]:
    return [q["sql"] for q in queries if "games_invitation" in q["sql"]]


def test_the_read_of_a_table_asks_for_invitations_only_while_it_waits():
    ann, bob, carol = UserFactory(), UserFactory(), UserFactory()
    table = waiting_table(ann, seats=3)
    actions.do_invite(table, ann, carol.username)
    with CaptureQueriesContext(connection) as waiting:
        load_table(table.pk)
    assert len(_invitation_queries(waiting.captured_queries)) == 1
    actions.do_join_table(table, bob)
    actions.do_start_game(table, ann)
    with CaptureQueriesContext(connection) as playing:
        data = load_table(table.pk)
    assert _invitation_queries(playing.captured_queries) == []
    assert data.invited == [] and board_for(data, ann)["invited"] == []
