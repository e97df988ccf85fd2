"""Issue 14, "Two games, one room": the registry of game kinds.

The tests at the end marked "needs the Brag engine" import the Brag engine's game
functions from ``games.engine.brag``; they run once that engine is in the tree.
"""

import pathlib
import random
import subprocess
import sys

import pytest
from django.template.loader import get_template
from django.urls import reverse
from django.utils.html import escape

from games import actions, engine
from games.engine import PRESETS, HouseRules, RulesError
from games.engine.brag import BRAG_PRESETS, BRAG_RULE_NAMES, BragRules
from games.engine.rules import Preset
from games.kinds import (
    BRAG,
    KIND_CHOICES,
    KINDS,
    STOP_THE_BUS,
    EngineMissing,
    UnknownKind,
    all_presets,
    find_preset,
    kind_for,
)
from games.models import Variant

SEED = b"kinds" * 6
ROOT = pathlib.Path(__file__).resolve().parent.parent


# -- the registry ------------------------------------------------------------------------------


def test_two_kinds_and_the_variants_choices_are_theirs():
    assert list(KINDS) == ["stop_the_bus", "brag"]
    assert Variant._meta.get_field("game").choices == KIND_CHOICES
    assert Variant._meta.get_field("game").default == "stop_the_bus"


@pytest.mark.parametrize("kind", list(KINDS.values()), ids=list(KINDS))
def test_each_kind_describes_itself_completely(kind):
    variant_fields = {f.name for f in Variant._meta.fields}
    assert set(kind.rule_names) <= variant_fields  # every rule has a column
    shown = {name for _, names in kind.rule_sections for name in names}
    assert shown | {"min_players", "max_players"} == set(kind.rule_names)
    assert set(kind.glance_fields) <= set(kind.rule_names)
    assert set(kind.variant_defaults) <= set(kind.rule_names)
    assert set(kind.bot_levels) == {"random", "greedy", "mc"}
    assert kind.presets and all(isinstance(p.rules, kind.rules_class)
                                for p in kind.presets.values())
    get_template(kind.rules_template)
    get_template(kind.lab_template)
    low, high = kind.player_range
    rules = kind.rules_class()
    assert low <= rules.min_players <= rules.max_players <= high


def test_stop_the_bus_is_the_existing_engine():
    assert STOP_THE_BUS.rules_class is HouseRules
    assert dict(STOP_THE_BUS.presets) == PRESETS
    assert STOP_THE_BUS.engine is engine
    get_template(STOP_THE_BUS.board_template)


def test_brag_has_the_rules_of_rules_md():
    assert BRAG.rules_class is BragRules
    assert BRAG.rule_names == BRAG_RULE_NAMES == (
        "starting_chips", "ante", "betting", "min_bet", "max_bet", "max_raise", "blind_play",
        "shuffle", "max_hands", "threes_high", "ace_low_run", "min_players", "max_players")
    assert dict(BRAG.presets) == BRAG_PRESETS
    assert BRAG_PRESETS["three-card-brag"].rules == BragRules()
    assert BRAG_PRESETS["pot-limit-brag"].rules == BragRules(betting="pot_limit",
                                                             shuffle="every_hand")
    assert dict(BRAG.variant_defaults) == {"starting_chips": 100, "max_players": 8}
    assert BRAG.player_range == (2, 8)


def test_kind_for_reads_a_rules_object_a_preset_a_slug_or_a_kind():
    assert kind_for(HouseRules()) is STOP_THE_BUS
    assert kind_for(BragRules()) is BRAG
    assert kind_for(PRESETS["commerce"]) is STOP_THE_BUS
    assert kind_for(BRAG_PRESETS["pot-limit-brag"]) is BRAG
    assert kind_for("brag") is BRAG and kind_for(BRAG) is BRAG
    with pytest.raises(UnknownKind, match="Unknown game kind 'snap': choose from "
                                          "stop_the_bus, brag."):
        kind_for("snap")
    with pytest.raises(UnknownKind, match="No game kind for"):
        kind_for(42)


def test_presets_of_every_kind_and_their_aliases():
    assert list(all_presets()) == [*PRESETS, *BRAG_PRESETS]
    assert find_preset("brag") == (BRAG, BRAG_PRESETS["three-card-brag"])
    assert find_preset("pot-limit-brag") == (BRAG, BRAG_PRESETS["pot-limit-brag"])
    assert find_preset("stop-the-bus") == (STOP_THE_BUS, PRESETS["classic"])
    assert find_preset("aces-high")[1].name == "Stop the Bus (aces high)"
    with pytest.raises(UnknownKind, match="three-card-brag, pot-limit-brag"):
        find_preset("house-of-seed-002")


def test_rules_from_data_ignore_the_other_games_keys():
    both = {**HouseRules(starting_lives=4).to_dict(), **BragRules(ante=3).to_dict()}
    assert STOP_THE_BUS.rules_from(both).starting_lives == 4
    assert BRAG.rules_from(both) == BragRules(ante=3)


def test_a_missing_entry_point_is_named():
    with pytest.raises(EngineMissing, match=r"The Three Card Brag engine \(games.engine.brag\) "
                                            "has no 'no_such_move'"):
        BRAG.entry("no_such_move")


# -- Brag's rules, as the room uses them (RULES.md, "Settings") ------------------------------


def test_brag_rules_defaults_and_data():
    rules = BragRules()
    assert rules.to_dict() == {
        "starting_chips": 100, "ante": 1, "betting": "limit", "min_bet": 1, "max_bet": 10,
        "max_raise": 10, "blind_play": True, "shuffle": "prial_only", "max_hands": 50,
        "threes_high": True, "ace_low_run": "top", "min_players": 2, "max_players": 8}
    assert BragRules.from_dict({**rules.to_dict(), "exchange": "widow"}) == rules
    with pytest.raises(AttributeError):
        rules.ante = 2  # frozen
    summary = rules.summary()
    assert summary and all(isinstance(line, str) and line for line in summary)
    assert BragRules(betting="pot_limit").summary() != summary


@pytest.mark.parametrize(("field", "value"), [
    ("betting", "no_limit"), ("shuffle", "never"), ("ace_low_run", "middle"),
    ("min_players", 1), ("max_players", 9), ("max_hands", -1), ("starting_chips", 0),
])
def test_brag_rules_refuse_what_rules_md_does_not_allow(field, value):
    with pytest.raises(RulesError) as refused:
        BragRules(**{field: value})
    assert field in refused.value.errors
    assert all(refused.value.errors[field])


# -- Stop the Bus through the registry ---------------------------------------------------------


def test_stop_the_bus_games_go_through_the_kind_as_through_the_engine():
    rules = PRESETS["classic"].rules
    names = ["Ann", "Bob", "Cy"]
    state, events = STOP_THE_BUS.new_game(rules, names, SEED)
    direct, direct_events = engine.new_game(rules, names, SEED)
    assert state.to_dict() == direct.to_dict() and events == direct_events

    seat = state.turn
    legal = STOP_THE_BUS.legal_actions(state, seat)
    assert legal == engine.legal_actions(state, seat)
    assert STOP_THE_BUS.to_action(legal[0]) is legal[0]  # its moves are actions already
    after, _ = STOP_THE_BUS.apply(state, legal[0])
    assert after.to_dict() == engine.apply(state, legal[0])[0].to_dict()
    assert STOP_THE_BUS.view_for(after, 0) == engine.view_for(after, 0)
    assert STOP_THE_BUS.seat_view(after, 1) == engine.seat_view(after, 1)
    assert STOP_THE_BUS.state_from_dict(after.to_dict()).to_dict() == after.to_dict()
    replayed = STOP_THE_BUS.replay(rules, names, SEED, [legal[0]])
    assert replayed.to_dict() == after.to_dict()
    assert STOP_THE_BUS.fairness_reveals(after) == engine.fairness_reveals(after)

    bot = STOP_THE_BUS.make_bot("greedy", rules, random.Random(1))
    move = bot.choose(STOP_THE_BUS.seat_view(after, after.turn))
    assert engine.is_legal(after, move)
    report = STOP_THE_BUS.simulate(rules, ["greedy", "random"], 2, seed=1)
    assert report.games == 2


# -- variants, games and tables ---------------------------------------------------------------


@pytest.mark.django_db
def test_a_variant_game_and_table_know_their_kind(user):
    classic = Variant.objects.get(slug="classic")
    brag = Variant.objects.get(slug="three-card-brag")
    assert kind_for(classic) is STOP_THE_BUS and classic.kind is STOP_THE_BUS
    assert kind_for(brag) is BRAG and brag.rules == BragRules()
    table = actions.do_create_table(user, name="Kinds", variant=classic, seats=3)
    actions.do_add_bot(table, user, "greedy")
    game = actions.do_start_game(table, user)
    assert kind_for(table) is STOP_THE_BUS
    assert kind_for(game) is STOP_THE_BUS
    assert kind_for(game.actions.first()) is STOP_THE_BUS
    assert kind_for(game).rules_from(game.rules) == classic.rules


@pytest.mark.django_db
def test_a_variants_rules_are_its_own_games_only():
    classic = Variant.objects.get(slug="classic")
    classic.ante, classic.betting = 7, "pot_limit"  # Brag rules: no meaning here
    assert classic.rules == PRESETS["classic"].rules
    assert "ante" not in classic.rule_values()
    brag = Variant.objects.get(slug="pot-limit-brag")
    brag.exchange, brag.starting_lives = "stock", 9
    assert brag.rules == BRAG_PRESETS["pot-limit-brag"].rules
    assert set(brag.rule_values()) == set(BRAG_RULE_NAMES)


@pytest.mark.django_db
def test_a_brag_variant_is_checked_by_brags_rules():
    from django.core.exceptions import ValidationError

    variant = Variant(name="Broken Brag", slug="broken-brag", game="brag", starting_chips=100,
                      max_players=8, betting="no_limit")
    with pytest.raises(ValidationError) as refused:
        variant.full_clean()
    assert "betting" in refused.value.message_dict
    variant.betting, variant.max_players = "limit", 9  # 9 is fine for Stop the Bus
    with pytest.raises(ValidationError) as refused:
        variant.full_clean()
    with pytest.raises(RulesError) as engine_says:
        BragRules(max_players=9)
    assert refused.value.message_dict == engine_says.value.errors == {
        "max_players": engine_says.value.errors["max_players"]}
    with pytest.raises(RulesError):
        variant.rules  # noqa: B018


@pytest.mark.django_db
def test_an_unknown_game_is_refused_by_the_field():
    from django.core.exceptions import ValidationError

    variant = Variant(name="Snap", slug="snap", game="snap")
    with pytest.raises(ValidationError) as refused:
        variant.full_clean()
    assert "game" in refused.value.message_dict


# -- the rules page ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_rules_page_lists_each_games_variants_with_their_rules_in_words(client):
    response = client.get(reverse("games:rules"))
    assert response.status_code == 200
    games = response.context["games"]
    assert [game["kind"] for game in games] == [STOP_THE_BUS, BRAG]
    assert [e["variant"].slug for e in games[1]["variants"]] == list(BRAG_PRESETS)
    page = response.content.decode()
    assert 'id="three-card-brag"' in page and 'id="pot-limit-brag"' in page
    assert 'id="aces-high"' in page
    for preset in BRAG_PRESETS.values():
        for sentence in preset.rules.summary():
            assert escape(sentence) in page
    assert page.index("Stop the Bus (classic)") < page.index("Pot-limit Brag")


@pytest.mark.django_db
def test_the_rules_page_survives_a_variant_stored_before_todays_checks(client):
    Variant.objects.filter(slug="classic").update(max_players=14)
    response = client.get(reverse("games:rules"))
    assert response.status_code == 200
    assert "These rules cannot be played until an admin fixes them" in (
        response.content.decode())


@pytest.mark.django_db
def test_inactive_variants_are_not_on_the_rules_page(client):
    Variant.objects.filter(game="brag").update(active=False)
    response = client.get(reverse("games:rules"))
    assert [game["kind"] for game in response.context["games"]] == [STOP_THE_BUS]
    assert 'id="three-card-brag"' not in response.content.decode()


# -- Brag through the registry (needs the Brag engine) ----------------------------------------


def test_brag_games_go_through_the_kind_as_through_the_engine():
    from games.engine import brag as brag_engine
    from games.engine.brag import BragState, new_game  # noqa: F401 -- needs the Brag engine

    rules = BragRules()
    names = ["Ann", "Bob", "Cy"]
    state, events = BRAG.new_game(rules, names, SEED)
    direct, _ = brag_engine.new_game(rules, names, SEED)
    assert state.to_dict() == direct.to_dict()
    assert BRAG.state_from_dict(state.to_dict()).to_dict() == state.to_dict()

    log = []
    for _ in range(6):
        seats = [s for s in range(len(names)) if BRAG.legal_actions(state, s)]
        if not seats:
            break
        # Brag lists moves with their price; the kind makes the action a move stands for
        action = BRAG.to_action(BRAG.legal_actions(state, seats[0])[0])
        state, _ = BRAG.apply(state, action)
        log.append(action)
    assert BRAG.replay(rules, names, SEED, log).to_dict() == state.to_dict()
    assert BRAG.view_for(state, 0) == brag_engine.view_for(state, 0)
    assert BRAG.view_for(state, None) == brag_engine.view_for(state, None)


def test_brag_bots_and_the_simulator_go_through_the_kind():
    from games.engine.brag import make_bot, simulate  # noqa: F401 -- needs the Brag engine

    rules = BragRules(max_hands=5)
    report = BRAG.simulate(rules, ["greedy", "random", "mc"], 2, seed=1)
    data = report.to_dict()
    text = str(data).lower()
    for words in ("pot", "blind", "see", "cover", "hands", "win"):
        assert words in text
    state, _ = BRAG.new_game(rules, ["A", "B"], SEED)
    for level in BRAG.bot_levels:
        assert BRAG.make_bot(level, rules, random.Random(2)) is not None


def test_every_brag_preset_plays_through_the_kind():
    from games.engine.brag import new_game  # noqa: F401 -- needs the Brag engine

    for preset in BRAG_PRESETS.values():
        assert isinstance(preset, Preset)
        state, _ = BRAG.new_game(preset.rules, ["A", "B", "C", "D"], SEED)
        assert BRAG.state_from_dict(state.to_dict()).to_dict() == state.to_dict()


def test_the_brag_package_imports_nothing_from_django():
    # The engine is a library (ARCHITECTURE.md); its Brag package is no exception.
    code = ("import sys, games.engine.brag;"
            "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'));"
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
