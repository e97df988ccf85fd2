"""Brag house rules: the settings table of RULES.md, validation, summary, presets."""

import dataclasses

import pytest

from games.engine import brag
from games.engine.brag import BRAG_PRESETS, BRAG_RULE_NAMES, BragRules
from games.engine.rules import Preset, RulesError


def test_the_defaults_are_the_settings_table_of_the_rules():
    assert BragRules().to_dict() == {
        "starting_chips": 100, "ante": 1, "betting": "limit", "min_bet": 1, "max_bet": 10,
        "max_raise": 10, "blind_play": True, "shuffle": "prial_only", "max_hands": 50,
        "threes_high": True, "ace_low_run": "top", "min_players": 2, "max_players": 8,
    }
    assert tuple(BragRules().to_dict()) == BRAG_RULE_NAMES
    assert BragRules.game == "brag"


def test_presets_are_the_seeds_rules_and_pot_limit():
    assert set(BRAG_PRESETS) == {"three-card-brag", "pot-limit-brag"}
    seed = BRAG_PRESETS["three-card-brag"]
    assert isinstance(seed, Preset) and seed.name == "Three Card Brag"
    assert seed.rules == BragRules()
    pot = BRAG_PRESETS["pot-limit-brag"]
    assert pot.name == "Pot-limit Brag"
    assert pot.rules == BragRules(betting="pot_limit", shuffle="every_hand")


@pytest.mark.parametrize("fields, field", [
    ({"betting": "spread"}, "betting"),
    ({"shuffle": "never"}, "shuffle"),
    ({"ace_low_run": "middle"}, "ace_low_run"),
    ({"blind_play": "yes"}, "blind_play"),
    ({"ante": -1}, "ante"),
    ({"ante": 0, "max_hands": 0}, "max_hands"),
    ({"ante": 101}, "ante"),
    ({"starting_chips": 0}, "starting_chips"),
    ({"min_bet": 0}, "min_bet"),
    ({"min_bet": 5, "max_bet": 4}, "max_bet"),
    ({"max_raise": -1}, "max_raise"),
    ({"max_hands": -1}, "max_hands"),
    ({"min_players": 1}, "min_players"),
    ({"max_players": 9}, "max_players"),
    ({"min_players": 5, "max_players": 4}, "max_players"),
    ({"ante": "1"}, "ante"),
    ({"max_hands": True}, "max_hands"),
])
def test_impossible_rules_raise_with_the_field_named(fields, field):
    with pytest.raises(RulesError) as caught:
        BragRules(**fields)
    assert field in caught.value.errors
    assert all(caught.value.errors[field])


def test_player_limits_are_two_to_eight():
    assert BragRules(min_players=2, max_players=8)
    assert BragRules(min_players=8, max_players=8)


def test_from_dict_ignores_unknown_keys_and_round_trips():
    rules = BragRules(betting="pot_limit", ante=2, max_hands=0)
    data = rules.to_dict() | {"exchange": "widow", "game": "brag"}
    assert BragRules.from_dict(data) == rules


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        BragRules().ante = 3


def test_summary_is_plain_sentences_that_follow_the_settings():
    lines = BragRules().summary()
    assert all(isinstance(line, str) and line.endswith(".") for line in lines)
    text = " ".join(lines)
    assert "100 chips" in text and "blind" in text and "first stake is 1 to 10" in text
    assert "not shuffled between hands" in text and "after 50 hands" in text
    other = " ".join(BragRules(betting="pot_limit", shuffle="every_hand", blind_play=False,
                               max_hands=0, threes_high=False, ace_low_run="none").summary())
    assert "Pot-limit" in other and "shuffled before every hand" in other
    assert "No blind play" in other and "every chip" in other
    assert "A-A-A is the best prial" in other and "A-2-3 is not a run" in other


def test_the_ranking_follows_threes_high_and_ace_low_run():
    from games.engine.cards import parse_cards

    high = BragRules().hand_ranking
    assert high.compare(parse_cards("3C 3D 3H"), parse_cards("AC AD AH")) == 1
    low = BragRules(threes_high=False).hand_ranking
    assert low.compare(parse_cards("3C 3D 3H"), parse_cards("AC AD AH")) == -1
    bottom = BragRules(ace_low_run="bottom").hand_ranking
    assert bottom.compare(parse_cards("AC 2D 3H"), parse_cards("2C 3D 4H")) == -1
    none = BragRules(ace_low_run="none").hand_ranking
    assert none.evaluate(parse_cards("AC 2D 3H")).category == "high_card"


def test_the_engine_exports_a_brag_namespace():
    import games.engine as engine

    assert engine.brag is brag
    for name in ("BragRules", "BRAG_PRESETS", "new_game", "apply", "legal_actions", "view_for",
                 "seat_view", "replay", "make_bot", "simulate", "BragState"):
        assert hasattr(brag, name), name
