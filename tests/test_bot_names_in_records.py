"""Bots keep their names in the reader's language on the pages of finished games too:
the replays of both games and the lists of games (a profile's history), where the game
recorded them in one language ("Casual bot 2"); and the daily digest speaks its
reader's language whatever language the worker sending it runs in."""

import random

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory, finished_game
from tests.test_brag_stats import brag_table, play_to_the_end

pytestmark = pytest.mark.django_db

JA_BOT = "カジュアル・ボット"
EN_BOT = "Casual bot"


def _bots(game):
    return [p for p in game.players.order_by("seat") if p.user_id is None]


def _page(client, url, language):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_a_stop_the_bus_replay_and_history_name_bots_in_the_readers_language(client):
    ann = UserFactory(username="ann")
    game = finished_game([ann], bots=("greedy", "greedy"))
    assert all(p.name.startswith(EN_BOT) for p in _bots(game))  # as recorded
    last = game.actions.count() - 1
    for url in (reverse("stats:replay", args=[game.pk]),
                reverse("stats:replay", args=[game.pk]) + f"?step={last}",
                reverse("stats:replay", args=[game.pk]) + "?step=1",
                reverse("stats:history", args=["ann"]),
                reverse("stats:profile", args=["ann"])):
        ja = _page(client, url, "ja")
        assert JA_BOT in ja and EN_BOT not in ja, url
        en = _page(client, url, "en")
        assert EN_BOT in en and JA_BOT not in en, url


def test_a_brag_replay_names_bots_in_the_readers_language(client):
    table, game, ann, bob = brag_table(bot=True, max_hands=3)
    game = play_to_the_end(game, random.Random(3))
    assert _bots(game)
    url = reverse("stats:replay", args=[game.pk])
    steps = game.actions.count()
    seen_ja = seen_en = False
    for step in range(steps):
        ja = _page(client, f"{url}?step={step}", "ja")
        en = _page(client, f"{url}?step={step}", "en")
        assert "Casual bot" not in ja and "Bot for" not in ja and "ボット" not in en
        seen_ja = seen_ja or "ボット" in ja
        seen_en = seen_en or " bot " in en
    assert seen_ja and seen_en


def test_the_digest_is_written_in_its_readers_language_whatever_the_worker_speaks():
    from notify.actions import do_run_due_deliveries, do_schedule_digests
    from notify.models import DigestSetting
    from tests.test_post_pace import post_game, until_persons_turn

    ann = UserFactory(username="ann", email="ann@example.com")
    ann.language = "ja"
    ann.save(update_fields=["language"])
    game = post_game(ann)
    until_persons_turn(game)
    DigestSetting.objects.update_or_create(user=ann, defaults={"enabled": True, "hour": 0})
    mail.outbox.clear()
    with translation.override("en"):  # the worker's own language
        do_schedule_digests()
        do_run_due_deliveries()
    digests = [m for m in mail.outbox if m.to == ["ann@example.com"]]
    assert len(digests) == 1
    body = digests[0].body
    from games.turns import tables_waiting_for

    with translation.override("ja"):
        japanese = [row.what for row in tables_waiting_for(ann) if row.my_turn]
    with translation.override("en"):
        english = [row.what for row in tables_waiting_for(ann) if row.my_turn]
    assert japanese and japanese != english
    assert all(words in body for words in japanese), body
    assert not any(words in body for words in english), body
