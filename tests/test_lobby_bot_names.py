"""The lobby names a seat as its table does: the bot that plays on for a player who left
is "Bot for bert" (in the reader's language), not a numbered bot; and the list reads
those names with one query, however many tables it lists."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from games import actions
from games.board import board_for, load_table
from games.views import lobby_tables
from tests.factories import UserFactory, preset_variant

pytestmark = pytest.mark.django_db


def playing_table(names, leaver, name="Oak"):
    people = [UserFactory(username=n) for n in names]
    table = actions.do_create_table(people[0], name=name, variant=preset_variant(),
                                    seats=len(people))
    for person in people[1:]:
        actions.do_join_table(table, person)  # the last one starts the game
    actions.do_leave_table(table, next(p for p in people if p.username == leaver))
    return table


def row_of(html: str, table) -> str:
    return html.split(f'href="{table.get_absolute_url()}"')[1].split("</li>")[0]


def test_the_lobby_names_a_leavers_bot_as_the_table_does(client):
    table = playing_table(["ann", "bert", "cleo"], "bert")
    client.force_login(UserFactory(username="walt"))
    row = row_of(client.get("/").content.decode(), table)
    assert "Bot for bert" in row
    assert "Casual bot 2" not in row
    # as the table itself names the seat
    board = board_for(load_table(table.pk), None)
    assert "Bot for bert" in [p["name"] for p in board["players"]]
    # the names of the others stay theirs
    assert "ann" in row and "cleo" in row


def test_in_the_readers_language():
    table = playing_table(["ann", "bert", "cleo"], "bert")
    with translation.override("ja"):
        names = [s.lobby_name for t in lobby_tables(UserFactory()) if t.pk == table.pk
                 for s in t.seated]
        expected = translation.gettext("Bot for %(name)s") % {"name": "bert"}
    assert expected != "Bot for bert"  # the Japanese catalogue says it its own way
    assert names == ["ann", expected, "cleo"]


def test_a_bot_added_by_the_host_keeps_its_numbered_name():
    ann = UserFactory(username="ann")
    table = actions.do_create_table(ann, name="Oak", variant=preset_variant(), seats=3)
    actions.do_add_bot(table, ann, "greedy")
    [row] = [t for t in lobby_tables(ann) if t.pk == table.pk]
    assert [s.lobby_name for s in row.seated] == ["ann", "Casual bot 2"]
    actions.do_add_bot(table, ann, "random")  # the last seat: the game starts
    [row] = [t for t in lobby_tables(ann) if t.pk == table.pk]
    assert [s.lobby_name for s in row.seated] == ["ann", "Casual bot 2", "Beginner bot 3"]


def test_one_query_for_the_whole_list_not_one_per_row():
    playing_table(["ann", "bert", "cleo"], "bert")
    reader = UserFactory()
    with CaptureQueriesContext(connection) as one:
        list(lobby_tables(reader))
    for i in range(3):
        playing_table([f"p{i}a", f"p{i}b", f"p{i}c"], f"p{i}b", name=f"T{i}")
    with CaptureQueriesContext(connection) as four:
        tables = list(lobby_tables(reader))
    assert len(four.captured_queries) == len(one.captured_queries)
    assert sum(s.lobby_name.startswith("Bot for") for t in tables for s in t.seated) == 4
