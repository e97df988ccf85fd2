"""The Three Card Brag preset's description spoke of "the seed" (the source text its
rules were taken from), a word that means nothing to a player: it now says what the
game is. A description an admin has reworded is left as it is."""

from django.db import migrations

SLUG = "three-card-brag"
OLD = ("The seed's betting game: ante 1, stakes of 1 to 10 with raises up to 10, blind "
       "play, and the pack shuffled only after a prial wins.")
NEW = ("The British betting game: ante 1, stakes of 1 to 10 with raises up to 10, blind "
       "play, and the pack shuffled only after a prial wins.")
# what games.rules_text.preset_words reads: the descriptions this migration stores
BRAG_PRESETS = [{"name": "Three Card Brag", "description": NEW}]


def forwards(apps, schema_editor):
    Variant = apps.get_model("games", "Variant")
    Variant.objects.filter(slug=SLUG, description=OLD).update(description=NEW)


def backwards(apps, schema_editor):
    Variant = apps.get_model("games", "Variant")
    Variant.objects.filter(slug=SLUG, description=NEW).update(description=OLD)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0011_invitation"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
