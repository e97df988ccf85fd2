"""A variant's description as players read it after an admin changes the variant: in
Japanese where the admin wrote Japanese words, and the admin told when the rules change
under an unchanged description (a probe found "Three lives each" over "Everyone starts
with 5 lives", and an edited description shown in English on Japanese pages)."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import translation

from games.models import Variant
from games.rules_text import variant_description
from tests.test_variants_admin import form_data

pytestmark = pytest.mark.django_db


def _save(admin_client, variant, **changes):
    response = admin_client.post(reverse("admin:games_variant_change", args=[variant.pk]),
                                 form_data(variant, **changes))
    assert response.status_code == 302, response.content.decode()[:2000]
    said = [str(m) for m in get_messages(response.wsgi_request)]
    admin_client.get(response.url)  # shown: the next save's messages are its own
    return said


def test_changing_the_rules_but_not_the_description_warns_the_admin(admin_client):
    classic = Variant.objects.get(slug="classic")
    said = _save(admin_client, classic, starting_lives=5)
    assert any("changed but its description did not" in m for m in said), said
    classic.refresh_from_db()
    said = _save(admin_client, classic, starting_lives=4,
                 description="Four lives each, and the rest as the pub plays it.",
                 description_ja="ライフは各4。ほかはパブのとおり。")
    assert not any("description did not" in m or "in Japanese" in m for m in said), said


def test_a_new_description_without_its_japanese_words_warns_the_admin(admin_client):
    classic = Variant.objects.get(slug="classic")
    said = _save(admin_client, classic, description="Our house's way.")
    assert any("description in Japanese" in m for m in said), said


def test_the_japanese_description_is_read_in_japanese_only(client):
    variant = Variant.objects.get(slug="classic")
    variant.description = "Our house's way: five lives."
    variant.description_ja = "うちのやり方：ライフは5。"
    variant.save()
    with translation.override("ja"):
        assert variant_description(variant) == "うちのやり方：ライフは5。"
    with translation.override("en"):
        assert variant_description(variant) == "Our house's way: five lives."
    page = client.get(reverse("games:rules"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "うちのやり方：ライフは5。" in page and "Our house's way" not in page
    # without Japanese words: a preset's own words are translated, as before
    variant.description_ja = ""
    variant.description = Variant.objects.get(slug="commerce").description
    variant.save()
    with translation.override("ja"):
        assert variant_description(variant) != variant.description


def test_a_copy_does_not_keep_the_originals_japanese_words(admin_client):
    classic = Variant.objects.get(slug="classic")
    classic.description_ja = "元の説明"
    classic.save()
    admin_client.post(reverse("admin:games_variant_changelist"),
                      {"action": "duplicate", "_selected_action": [classic.pk]})
    copy = Variant.objects.exclude(pk=classic.pk).get(name__contains=classic.name,
                                                      active=False)
    assert copy.description_ja == ""
