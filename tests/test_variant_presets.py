"""Issue 4: a fresh install offers the presets of RULES.md, equal to the engine's."""

import importlib

import pytest
from django.apps import apps as django_apps

from games.engine import PRESETS
from games.models import Table, Variant
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

presets_migration = importlib.import_module("games.migrations.0002_variant_presets")

NAMES = [
    "Stop the Bus (classic)",
    "Stop the Bus (draw & discard)",
    "Stop the Bus (house of seed 002)",
    "Thirty-One Blitz",
    "Race to Five",
    "Commerce",
    "Double-or-nothing stop",
]


def test_the_test_database_was_migrated_with_every_preset_in_order():
    # pytest-django builds the test database by running every migration on an empty one.
    assert list(Variant.objects.values_list("name", flat=True)) == NAMES
    assert list(Variant.objects.values_list("display_order", flat=True)) == list(range(1, 8))
    assert set(Variant.objects.values_list("slug", flat=True)) == set(PRESETS)


@pytest.mark.parametrize("slug", list(PRESETS))
def test_each_preset_variant_has_the_engines_rules(slug):
    variant = Variant.objects.get(slug=slug)
    assert variant.rules == PRESETS[slug].rules
    assert variant.name == PRESETS[slug].name
    assert variant.active and variant.rated
    assert variant.description
    variant.full_clean()  # the stored values pass the admin's own checks


def test_turn_clocks_are_set_and_commerce_gets_longer():
    clocks = dict(Variant.objects.values_list("slug", "turn_seconds"))
    assert clocks["commerce"] == 60
    assert all(clocks[slug] == 45 for slug in PRESETS if slug != "commerce")


def test_the_migration_writes_its_values_out_instead_of_reading_the_engine():
    source = importlib.util.find_spec("games.migrations.0002_variant_presets").origin
    with open(source, encoding="utf-8") as f:
        text = f.read()
    assert "games.engine" not in text
    assert "import" not in text.replace("from django.db import migrations", "")


def test_reversing_removes_unused_presets_and_running_again_restores_them():
    presets_migration.remove_presets(django_apps, None)
    assert not Variant.objects.exists()
    presets_migration.add_presets(django_apps, None)
    for slug, preset in PRESETS.items():
        assert Variant.objects.get(slug=slug).rules == preset.rules


def test_reversing_keeps_presets_that_tables_use():
    classic = Variant.objects.get(slug="classic")
    Table.objects.create(name="Friday", variant=classic, host=UserFactory(), seats=4)
    presets_migration.remove_presets(django_apps, None)
    assert list(Variant.objects.values_list("slug", flat=True)) == ["classic"]


def test_running_again_leaves_existing_variants_alone():
    Variant.objects.filter(slug="classic").update(starting_lives=5)
    presets_migration.add_presets(django_apps, None)
    assert Variant.objects.count() == len(PRESETS)
    assert Variant.objects.get(slug="classic").starting_lives == 5
