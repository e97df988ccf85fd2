"""A variant whose tables are opened at a post pace is described by its pace on the rules
page and in the lobby's notes, not by the live clock it also carries (a probe read "One
life by post: 45 seconds a turn")."""

import pytest
from django.urls import reverse

from games.models import Variant
from tests.factories import UserFactory, preset_variant

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", ["classic", "three-card-brag"])
@pytest.mark.parametrize("language, words, clock", [
    ("en", "post: 1 day a move", "45 seconds a turn"),
    ("ja", "通信：", "45秒"),
])
def test_a_post_variant_reads_as_post(client, slug, language, words, clock):
    variant = (preset_variant(slug, turn_seconds=45, pace="1d") if slug == "classic"
               else Variant.objects.get(slug=slug))
    if slug != "classic":
        variant.turn_seconds, variant.pace = 45, "1d"
        variant.save()
    client.cookies["django_language"] = language
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    rules = client.get(reverse("games:rules"), **headers).content.decode()
    section = rules[rules.index(f'id="{variant.slug}"'):]
    section = section[:section.index("</section>")]
    assert words in section and clock not in section
    client.force_login(UserFactory(username="lou"))  # the new-table form's notes
    lobby = client.get("/", **headers).content.decode()
    assert words in lobby
    # a live variant still reads by its clock
    variant.pace = "live"
    variant.save()
    rules = client.get(reverse("games:rules"), **headers).content.decode()
    section = rules[rules.index(f'id="{variant.slug}"'):]
    assert clock in section[:section.index("</section>")]
