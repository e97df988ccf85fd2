"""Issue 16.13: player limits are enforced everywhere, with clear errors.

RULES.md, "Players, lives and the deal": Stop the Bus family 2-9 (max default 6),
Commerce 3-10, Three Card Brag 2-8. The engine's rules refuse limits outside the
game's range, the admin and the model show those words, and a table is never
opened (or a game started) for fewer or more players than its variant takes.
"""

import importlib

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.urls import reverse

from games import actions
from games.engine import HouseRules, IllegalAction, RulesError, new_game
from games.engine.brag import BragRules
from games.kinds import KINDS, EngineMissing, GameKind
from games.models import Table, Variant

migration = importlib.import_module("games.migrations.0005_brag_presets_and_aces_high")


def errors(rules_class, **fields):
    with pytest.raises(RulesError) as refused:
        rules_class(**fields)
    return refused.value.errors


# -- the engine's rules ------------------------------------------------------------------------


@pytest.mark.parametrize(("rules_class", "base", "fewest", "most"), [
    (HouseRules, {}, 2, 9),
    (HouseRules, {"ranking": "commerce", "scoring": "pot"}, 3, 10),
    (BragRules, {}, 2, 8),
])
def test_each_game_takes_its_own_range(rules_class, base, fewest, most):
    for low in range(fewest, most + 1):
        for high in range(low, most + 1):
            rules = rules_class(**base, min_players=low, max_players=high)
            assert (rules.min_players, rules.max_players) == (low, high)
    for low, high, field in ((fewest, most + 1, "max_players"),
                             (fewest - 1, most, "min_players"),
                             (fewest + 1, fewest, "max_players")):
        problems = errors(rules_class, **base, min_players=low, max_players=high)
        assert set(problems) == {field} and all(problems[field])


@pytest.mark.parametrize(("base", "game", "fewest", "most"), [
    ({}, "Stop the Bus", 2, 9),
    ({"ranking": "commerce", "scoring": "pot"}, "Commerce", 3, 10),
])
def test_the_stop_the_bus_family_says_which_game_and_range(base, game, fewest, most):
    assert errors(HouseRules, **base, min_players=fewest, max_players=most + 1) == {
        "max_players": [f"{game} is for {fewest} to {most} players: the most cannot be "
                        f"{most + 1}."]}
    assert errors(HouseRules, **base, min_players=fewest - 1, max_players=most) == {
        "min_players": [f"{game} is for {fewest} to {most} players: the fewest cannot be "
                        f"{fewest - 1}."]}
    assert errors(HouseRules, **base, min_players=fewest + 1, max_players=fewest) == {
        "max_players": ["The most players cannot be fewer than the fewest."]}


@pytest.mark.parametrize("players", [10, 12, 16])
def test_the_probes_player_counts_are_refused(players):
    # The outside probe started Stop the Bus with 10-16 and Commerce with 2 or 12.
    assert "max_players" in errors(HouseRules, max_players=players)
    assert "max_players" in errors(HouseRules, ranking="commerce", min_players=3,
                                   max_players=max(players, 12))
    assert "min_players" in errors(HouseRules, ranking="commerce", min_players=2,
                                   max_players=10)


def test_defaults_stay_inside_the_ranges():
    assert (HouseRules().min_players, HouseRules().max_players) == (2, 6)
    assert (BragRules().min_players, BragRules().max_players) == (2, 8)
    for kind in KINDS.values():
        for preset in kind.presets.values():
            low, high = kind.player_range
            assert low <= preset.rules.min_players <= preset.rules.max_players <= high


def test_the_engine_never_deals_to_more_or_fewer_than_the_rules_take():
    rules = HouseRules(max_players=3)
    with pytest.raises(IllegalAction, match="for 2 to 3 players, not 4"):
        new_game(rules, ["A", "B", "C", "D"])
    with pytest.raises(IllegalAction, match="not 1"):
        new_game(rules, ["A"])


# -- the model and the admin -------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("slug", "changes", "field"), [
    ("classic", {"max_players": 10}, "max_players"),
    ("commerce", {"min_players": 2}, "min_players"),
    ("commerce", {"max_players": 12}, "max_players"),
    ("three-card-brag", {"max_players": 9}, "max_players"),
])
def test_a_variant_outside_its_range_does_not_validate(slug, changes, field):
    from django.core.exceptions import ValidationError

    variant = Variant.objects.get(slug=slug)
    for name, value in changes.items():
        setattr(variant, name, value)
    with pytest.raises(ValidationError) as refused:
        variant.full_clean()
    assert "players" in refused.value.message_dict[field][0]


# -- opening a table ---------------------------------------------------------------------------


def open_table(client, variant, seats):
    return client.post(reverse("games:create_table"), {
        "name": "Limits", "variant": variant.pk, "seats": seats})


@pytest.mark.django_db
@pytest.mark.parametrize(("slug", "seats", "message"), [
    ("classic", 7, "Stop the Bus (classic) is for 2 to 6 players, not 7."),
    ("classic", 10, "Stop the Bus (classic) is for 2 to 6 players, not 10."),
    ("commerce", 2, "Commerce is for 3 to 10 players, not 2."),
    ("three-card-brag", 9, "Three Card Brag is for 2 to 8 players, not 9."),
])
def test_the_table_form_refuses_seats_outside_the_variants_limits(user_client, slug, seats,
                                                                   message):
    response = open_table(user_client, Variant.objects.get(slug=slug), seats)
    assert response.status_code == 400
    assert response.context["form"].errors["seats"] == [message]
    assert message in response.content.decode()
    assert not Table.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("seats", [11, 16])
def test_no_game_takes_that_many_seats(user_client, seats):
    response = open_table(user_client, Variant.objects.get(slug="commerce"), seats)
    assert response.status_code == 400
    assert "less than or equal to 10" in response.context["form"].errors["seats"][0]


@pytest.mark.django_db
@pytest.mark.parametrize(("slug", "seats"), [("classic", 2), ("classic", 6), ("commerce", 3),
                                             ("commerce", 10)])
def test_the_table_form_takes_the_variants_own_limits(user_client, slug, seats):
    response = open_table(user_client, Variant.objects.get(slug=slug), seats)
    assert response.status_code == 302
    assert Table.objects.get().seats == seats


@pytest.mark.django_db
@pytest.mark.parametrize("seats", [2, 8])
def test_a_brag_table_takes_two_to_eight(user_client, seats):
    from games.engine.brag import new_game  # noqa: F401 -- needs the Brag engine

    response = open_table(user_client, Variant.objects.get(slug="three-card-brag"), seats)
    assert response.status_code == 302
    assert Table.objects.get().seats == seats


@pytest.mark.django_db
def test_a_game_whose_engine_is_missing_is_refused_not_a_500(user_client, monkeypatch):
    def missing(kind, name):
        raise EngineMissing(f"The {kind.label} engine ({kind.engine_module}) has no {name!r}.")

    monkeypatch.setattr(GameKind, "entry", missing)
    response = open_table(user_client, Variant.objects.get(slug="three-card-brag"), 4)
    assert response.status_code == 400
    assert response.context["form"].errors["variant"] == [
        "Three Card Brag cannot be played here yet: The Three Card Brag engine "
        "(games.engine.brag) has no 'new_game'."]
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_a_variant_stored_with_limits_now_refused_is_named_not_a_500(user_client):
    Variant.objects.filter(slug="classic").update(max_players=12)
    response = open_table(user_client, Variant.objects.get(slug="classic"), 4)
    assert response.status_code == 400
    [message] = response.context["form"].errors["variant"]
    assert message.startswith("Stop the Bus (classic) cannot be played until its rules are "
                              "fixed: Stop the Bus is for 2 to 9 players")
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_actions_layer_refuses_them_too(user):
    for slug, seats in (("classic", 10), ("commerce", 2), ("three-card-brag", 9)):
        with pytest.raises(actions.Refused) as refused:
            actions.do_create_table(user, name="x", variant=Variant.objects.get(slug=slug),
                                 seats=seats)
        assert refused.value.code == "seats"
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_a_game_does_not_start_with_fewer_than_the_fewest(user):
    commerce = Variant.objects.get(slug="commerce")
    table = actions.do_create_table(user, name="Knock", variant=commerce, seats=3)
    actions.do_add_bot(table, user, "greedy")
    with pytest.raises(actions.Refused, match="needs at least 3 players"):
        actions.do_start_game(table, user)
    assert not table.games.exists()


# -- variants saved before the limits ---------------------------------------------------------


@pytest.mark.django_db
def test_the_migration_brings_old_limits_inside_the_ranges():
    apps = MigrationLoader(connection).project_state(
        ("games", "0005_brag_presets_and_aces_high")).apps
    Variant.objects.filter(slug="classic").update(min_players=2, max_players=16)
    Variant.objects.filter(slug="commerce").update(min_players=2, max_players=12)
    Variant.objects.filter(slug="race-to-five").update(min_players=12, max_players=14)
    Variant.objects.filter(slug="three-card-brag").update(min_players=2, max_players=10)

    migration.keep_player_limits_in_range(apps, None)

    limits = {slug: (low, high) for slug, low, high in Variant.objects.values_list(
        "slug", "min_players", "max_players")}
    assert limits["classic"] == (2, 9)
    assert limits["commerce"] == (3, 10)
    assert limits["race-to-five"] == (9, 9)
    assert limits["three-card-brag"] == (2, 8)
    assert limits["draw-and-discard"] == (2, 6)  # already inside: untouched
    for variant in Variant.objects.all():
        variant.full_clean()
