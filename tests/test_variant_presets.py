"""Issue 4: a fresh install offers the presets of RULES.md, equal to the engine's.

Issue 14 added the Brag presets (migration 0005, which also renamed the aces-high
preset; tests/test_migration_aces_high.py tests that migration on its own).
"""

import importlib

import pytest
from django.apps import apps as django_apps

from games.kinds import all_presets
from games.models import Table, Variant
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

presets_migration = importlib.import_module("games.migrations.0002_variant_presets")
brag_migration = importlib.import_module("games.migrations.0005_brag_presets_and_aces_high")
PRESETS = {slug: preset for slug, (_, preset) in all_presets().items()}

NAMES = [
    "Stop the Bus (classic)",
    "Stop the Bus (draw & discard)",
    "Stop the Bus (aces high)",
    "Thirty-One Blitz",
    "Race to Five",
    "Commerce",
    "Double-or-nothing stop",
    "Three Card Brag",
    "Pot-limit Brag",
]


def test_the_test_database_was_migrated_with_every_preset_in_order():
    # pytest-django builds the test database by running every migration on an empty one.
    assert list(Variant.objects.values_list("name", flat=True)) == NAMES
    assert list(Variant.objects.values_list("display_order", flat=True)) == list(range(1, 10))
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


@pytest.mark.parametrize("name", ["0002_variant_presets", "0005_brag_presets_and_aces_high"])
def test_the_migration_writes_its_values_out_instead_of_reading_the_engine(name):
    source = importlib.util.find_spec(f"games.migrations.{name}").origin
    with open(source, encoding="utf-8") as f:
        text = f.read()
    assert "games.engine" not in text
    assert "import" not in text.replace("from django.db import migrations", "")


def reverse_both():
    brag_migration.remove_brag_presets(django_apps, None)
    brag_migration.restore_old_name(django_apps, None)
    presets_migration.remove_presets(django_apps, None)


def forward_both():
    presets_migration.add_presets(django_apps, None)
    brag_migration.rename_aces_high(django_apps, None)
    brag_migration.add_brag_presets(django_apps, None)


def test_reversing_removes_unused_presets_and_running_again_restores_them():
    reverse_both()
    assert not Variant.objects.exists()
    forward_both()
    assert list(Variant.objects.values_list("name", flat=True)) == NAMES
    for slug, preset in PRESETS.items():
        assert Variant.objects.get(slug=slug).rules == preset.rules


def test_reversing_keeps_presets_that_tables_use():
    classic = Variant.objects.get(slug="classic")
    Table.objects.create(name="Friday", variant=classic, host=UserFactory(), seats=4)
    reverse_both()
    assert list(Variant.objects.values_list("slug", flat=True)) == ["classic"]


def test_running_again_leaves_existing_variants_alone():
    Variant.objects.filter(slug="classic").update(starting_lives=5)
    Variant.objects.filter(slug="three-card-brag").update(ante=2)
    brag_migration.restore_old_name(django_apps, None)  # 0002 runs after 0004, before 0005
    forward_both()
    assert Variant.objects.count() == len(PRESETS)
    assert Variant.objects.get(slug="classic").starting_lives == 5
    assert Variant.objects.get(slug="three-card-brag").ante == 2
