"""The Brag presets, and the aces-high preset's real name (RULES.md, "Presets every fresh
install has").

"Stop the Bus (house of seed 002)" was named after where its rules came from, which
means nothing to a player; it is "Stop the Bus (aces high)" now, slug "aces-high".
Only what still carries the old preset's name or slug is renamed, and only where the
new one is free: an install whose admins renamed it, or already made an "aces-high",
keeps its own. Tables and games point at the row, so they follow the rename.

Player limits are enforced from now on (RULES.md, "Players, lives and the deal"):
a variant saved before with limits outside its game's range is brought inside it,
so that it can still be played instead of failing the engine's check. Reversing
leaves the limits as they are.

As in 0002 the values are written out here rather than read from the engine.
"""

from django.db import migrations

OLD_SLUG, OLD_NAME = "house-of-seed-002", "Stop the Bus (house of seed 002)"
NEW_SLUG, NEW_NAME = "aces-high", "Stop the Bus (aces high)"

# Every Brag house rule at its default (RULES.md, "Settings").
BRAG_DEFAULTS = {
    "starting_chips": 100,
    "ante": 1,
    "betting": "limit",
    "min_bet": 1,
    "max_bet": 10,
    "max_raise": 10,
    "blind_play": True,
    "shuffle": "prial_only",
    "max_hands": 50,
    "threes_high": True,
    "ace_low_run": "top",
    "min_players": 2,
    "max_players": 8,
}

BRAG_PRESETS = [
    {
        "slug": "three-card-brag",
        "name": "Three Card Brag",
        "description": "The seed's betting game: ante 1, stakes of 1 to 10 with raises up "
                       "to 10, blind play, and the pack shuffled only after a prial wins.",
        "turn_seconds": 45,
        "rules": {},
    },
    {
        "slug": "pot-limit-brag",
        "name": "Pot-limit Brag",
        "description": "Three Card Brag where a stake may be as big as the pot, with a "
                       "fresh shuffle before every hand.",
        "turn_seconds": 45,
        "rules": {"betting": "pot_limit", "shuffle": "every_hand"},
    },
]


# (fewest, most) players: Stop the Bus, Commerce (the variants with its hands), Brag.
PLAYER_RANGES = {"stop_the_bus": (2, 9), "commerce": (3, 10), "brag": (2, 8)}


def keep_player_limits_in_range(apps, schema_editor):
    Variant = apps.get_model("games", "Variant")
    for variant in Variant.objects.all():
        game = "commerce" if (variant.game == "stop_the_bus"
                              and variant.ranking == "commerce") else variant.game
        fewest, most = PLAYER_RANGES.get(game, PLAYER_RANGES["stop_the_bus"])
        low = min(max(variant.min_players, fewest), most)
        high = min(max(variant.max_players, low), most)
        if (low, high) != (variant.min_players, variant.max_players):
            variant.min_players, variant.max_players = low, high
            variant.save(update_fields=["min_players", "max_players"])


def _rename(Variant, old_slug, old_name, new_slug, new_name):
    for variant in Variant.objects.filter(slug=old_slug) | Variant.objects.filter(
            name=old_name):
        changed = []
        if variant.slug == old_slug and not Variant.objects.filter(slug=new_slug).exists():
            variant.slug = new_slug
            changed.append("slug")
        if variant.name == old_name and not Variant.objects.filter(name=new_name).exists():
            variant.name = new_name
            changed.append("name")
        if changed:
            variant.save(update_fields=changed)


def rename_aces_high(apps, schema_editor):
    _rename(apps.get_model("games", "Variant"), OLD_SLUG, OLD_NAME, NEW_SLUG, NEW_NAME)


def restore_old_name(apps, schema_editor):
    _rename(apps.get_model("games", "Variant"), NEW_SLUG, NEW_NAME, OLD_SLUG, OLD_NAME)


def add_brag_presets(apps, schema_editor):
    Variant = apps.get_model("games", "Variant")
    last = Variant.objects.order_by("-display_order").values_list(
        "display_order", flat=True).first() or 0
    for order, preset in enumerate(BRAG_PRESETS, start=last + 1):
        if Variant.objects.filter(slug=preset["slug"]).exists() or (
                Variant.objects.filter(name=preset["name"]).exists()):
            continue
        Variant.objects.create(
            game="brag",
            slug=preset["slug"],
            name=preset["name"],
            description=preset["description"],
            turn_seconds=preset["turn_seconds"],
            rated=True,
            active=True,
            display_order=order,
            **{**BRAG_DEFAULTS, **preset["rules"]},
        )


def remove_brag_presets(apps, schema_editor):
    """Remove the Brag presets no table or game uses; those in use are history and stay."""
    Variant = apps.get_model("games", "Variant")
    (Variant.objects.filter(game="brag", slug__in=[p["slug"] for p in BRAG_PRESETS])
     .filter(tables__isnull=True, games__isnull=True)
     .delete())


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0004_variant_game_kind"),
    ]

    operations = [
        migrations.RunPython(rename_aces_high, restore_old_name),
        migrations.RunPython(add_brag_presets, remove_brag_presets),
        migrations.RunPython(keep_player_limits_in_range, migrations.RunPython.noop),
    ]
