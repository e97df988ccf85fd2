"""Issue 15: the preset "Stop the Bus (house of seed 002)" is "Stop the Bus (aces high)".

Migration 0005 renames the existing rows; these tests run its steps with the
models as they were at 0004 (0005 changes data only, so the tables are the same).
"""

import importlib

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from games.engine import PRESETS
from games.models import Table, Variant
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0005_brag_presets_and_aces_high")
OLD = {"slug": "house-of-seed-002", "name": "Stop the Bus (house of seed 002)"}
NEW = {"slug": "aces-high", "name": "Stop the Bus (aces high)"}


@pytest.fixture
def apps_at_0004():
    loader = MigrationLoader(connection)
    return loader.project_state(("games", "0004_variant_game_kind")).apps


def names():
    return set(Variant.objects.values_list("slug", "name"))


def test_a_fresh_install_has_the_new_name_and_the_engine_agrees():
    assert Variant.objects.filter(**NEW).exists()
    assert not Variant.objects.filter(slug=OLD["slug"]).exists()
    assert not Variant.objects.filter(name=OLD["name"]).exists()
    assert PRESETS["aces-high"].name == NEW["name"]
    assert Variant.objects.get(**NEW).rules == PRESETS["aces-high"].rules


def test_an_existing_row_is_renamed_and_its_tables_follow(apps_at_0004):
    Variant.objects.filter(**NEW).update(**OLD)  # an install still on 0004
    variant = Variant.objects.get(**OLD)
    table = Table.objects.create(name="Old friends", variant=variant, host=UserFactory(),
                                 seats=3)

    migration.rename_aces_high(apps_at_0004, None)

    variant.refresh_from_db()
    assert (variant.slug, variant.name) == (NEW["slug"], NEW["name"])
    assert Table.objects.get(pk=table.pk).variant_id == variant.pk
    assert variant.rules == PRESETS["aces-high"].rules


def test_reversing_gives_the_old_name_back(apps_at_0004):
    migration.restore_old_name(apps_at_0004, None)
    assert Variant.objects.filter(**OLD).exists()
    migration.rename_aces_high(apps_at_0004, None)
    assert Variant.objects.filter(**NEW).exists()


def test_a_name_the_admins_chose_is_kept_and_only_the_slug_moves(apps_at_0004):
    Variant.objects.filter(**NEW).update(slug=OLD["slug"], name="Our aces")
    migration.rename_aces_high(apps_at_0004, None)
    assert ("aces-high", "Our aces") in names()


def test_a_taken_slug_or_name_is_left_alone(apps_at_0004):
    Variant.objects.filter(**NEW).update(**OLD)
    Variant.objects.create(slug="aces-high", name="Aces from before")
    before = names()
    migration.rename_aces_high(apps_at_0004, None)
    after = names()
    # The slug stays old (aces-high is taken); the name was free, so it moves.
    assert ("house-of-seed-002", NEW["name"]) in after
    assert ("aces-high", "Aces from before") in after
    assert len(after) == len(before)
