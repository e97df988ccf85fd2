"""The presets every fresh install offers (RULES.md, "Presets every fresh install has").

The values are written out here in full rather than read from the engine's
PRESETS, so this migration means the same thing whatever the engine later
becomes. A test checks that they match the engine's presets today.
"""

from django.db import migrations

# Every house rule at its default (RULES.md); each preset below names what differs.
DEFAULT_RULES = {
    "exchange": "widow",
    "ranking": "brag",
    "threes_high": True,
    "ace_low_run": "top",
    "tie_rule": "share",
    "thirty_one": False,
    "blitz": False,
    "blitz_prials": False,
    "may_pass": False,
    "stop_after_swap": False,
    "swap_limit": 1,
    "dealer_blind_swap": False,
    "starting_lives": 3,
    "stopper_penalty": 1,
    "floating": True,
    "scoring": "lives",
    "target_points": 5,
    "starting_chips": 10,
    "min_players": 2,
    "max_players": 6,
}

PRESETS = [
    {
        "slug": "classic",
        "name": "Stop the Bus (classic)",
        "description": "The pub game: swap one card at a time with the three in the middle, "
                       "or stop the bus. 3-3-3 is the best hand, A-2-3 the best run. Three "
                       "lives each, and with none left you float on until you lose again.",
        "turn_seconds": 45,
        "rules": {},
    },
    {
        "slug": "draw-and-discard",
        "name": "Stop the Bus (draw & discard)",
        "description": "Draw from the stock or take the top discard, then throw one away. "
                       "Equal hands are split by suit: the best suit of the highest card wins.",
        "turn_seconds": 45,
        "rules": {"exchange": "stock", "tie_rule": "suits"},
    },
    {
        "slug": "house-of-seed-002",
        "name": "Stop the Bus (house of seed 002)",
        "description": "Aces high: A-A-A is the best prial and A-2-3 is no run. You may swap "
                       "and stop the bus in the same turn, and you are out at zero lives.",
        "turn_seconds": 45,
        "rules": {"threes_high": False, "ace_low_run": "none", "stop_after_swap": True,
                  "floating": False},
    },
    {
        "slug": "thirty-one-blitz",
        "name": "Thirty-One Blitz",
        "description": "Draw and discard, chasing thirty-one in one suit: it beats every "
                       "other hand, and holding it at the end of your turn ends play at once.",
        "turn_seconds": 45,
        "rules": {"exchange": "stock", "thirty_one": True, "blitz": True,
                  "starting_lives": 3},
    },
    {
        "slug": "race-to-five",
        "name": "Race to Five",
        "description": "No lives to lose: the best hand at each showdown scores a point, and "
                       "the first to five points alone wins.",
        "turn_seconds": 45,
        "rules": {"scoring": "points", "target_points": 5},
    },
    {
        "slug": "commerce",
        "name": "Commerce",
        "description": "The old French game for 3 to 10: swap up to three cards with the "
                       "middle, the dealer may swap blind, knock to end the play. Everyone "
                       "antes a chip and the best hand takes the pot.",
        "turn_seconds": 60,
        "rules": {"ranking": "commerce", "scoring": "pot", "swap_limit": 3,
                  "dealer_blind_swap": True, "min_players": 3, "max_players": 10},
    },
    {
        "slug": "double-or-nothing",
        "name": "Double-or-nothing stop",
        "description": "Classic rules with a sting: if you stop the bus and end up with the "
                       "worst hand, you lose two lives.",
        "turn_seconds": 45,
        "rules": {"stopper_penalty": 2},
    },
]


def add_presets(apps, schema_editor):
    Variant = apps.get_model("games", "Variant")
    for order, preset in enumerate(PRESETS, start=1):
        # An install that already has a variant under this slug or name keeps its own.
        if Variant.objects.filter(slug=preset["slug"]).exists() or (
                Variant.objects.filter(name=preset["name"]).exists()):
            continue
        Variant.objects.create(
            slug=preset["slug"],
            name=preset["name"],
            description=preset["description"],
            turn_seconds=preset["turn_seconds"],
            rated=True,
            active=True,
            display_order=order,
            **{**DEFAULT_RULES, **preset["rules"]},
        )


def remove_presets(apps, schema_editor):
    """Remove the presets no table or game uses; those in use are history and stay."""
    Variant = apps.get_model("games", "Variant")
    (Variant.objects.filter(slug__in=[preset["slug"] for preset in PRESETS])
     .filter(tables__isnull=True, games__isnull=True)
     .delete())


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(add_presets, remove_presets),
    ]
