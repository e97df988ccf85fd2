"""House rules: validation with clear messages, and the presets of RULES.md."""

import dataclasses

import pytest

from games.engine import PRESETS, HouseRules, RulesError


def problems(**fields):
    with pytest.raises(RulesError) as info:
        HouseRules(**fields)
    return info.value.errors


def test_defaults_are_the_classic_game():
    rules = HouseRules()
    assert rules.exchange == "widow"
    assert rules.threes_high and rules.floating
    assert rules.ace_low_run == "top"
    assert rules.tie_rule == "share"
    assert rules.scoring == "lives" and rules.starting_lives == 3
    assert rules.stopper_penalty == 1
    assert (rules.min_players, rules.max_players) == (2, 6)


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        HouseRules().starting_lives = 5


def test_blitz_needs_thirty_one():
    errors = problems(blitz=True)
    assert "thirty_one" in errors["blitz"][0]


def test_blitz_prials_need_blitz():
    assert "blitz" in problems(thirty_one=True, blitz_prials=True)["blitz_prials"][0]


def test_player_limits_of_rules_md():
    # Stop the Bus family 2-9, Commerce (its hands) 3-10: "Players, lives and the deal".
    message = problems(max_players=10)["max_players"][0]
    assert message == "Stop the Bus is for 2 to 9 players: the most cannot be 10."
    assert HouseRules(max_players=9).max_players == 9
    assert HouseRules(exchange="stock", max_players=9).max_players == 9
    commerce = {"ranking": "commerce", "max_players": 10}
    assert problems(**commerce, min_players=2)["min_players"] == [
        "Commerce is for 3 to 10 players: the fewest cannot be 2."]
    assert problems(ranking="commerce", min_players=3, max_players=12)["max_players"] == [
        "Commerce is for 3 to 10 players: the most cannot be 12."]
    assert HouseRules(**commerce, min_players=3).max_players == 10
    assert problems(min_players=5, max_players=4)["max_players"] == [
        "The most players cannot be fewer than the fewest."]
    assert set(problems(min_players=12, max_players=16)) == {"min_players", "max_players"}


def test_a_target_of_zero_points():
    message = problems(scoring="points", target_points=0)["target_points"][0]
    assert "0 points" in message and "at least 1" in message


def test_unknown_choices_and_types():
    errors = problems(exchange="telepathy", starting_lives="three", floating="yes")
    assert "exchange" in errors and "starting_lives" in errors and "floating" in errors


def test_every_problem_is_reported_at_once():
    errors = problems(blitz=True, max_players=40, min_players=1)
    assert set(errors) == {"blitz", "max_players", "min_players"}
    assert "; " in str(RulesError(errors))


def test_widow_only_rules_with_the_stock():
    errors = problems(exchange="stock", swap_limit=3, dealer_blind_swap=True,
                      stop_after_swap=True)
    assert set(errors) == {"swap_limit", "dealer_blind_swap", "stop_after_swap"}


def test_thirty_one_is_not_a_commerce_hand():
    assert "thirty_one" in problems(ranking="commerce", thirty_one=True)


def test_round_trip_through_a_dict():
    rules = PRESETS["commerce"].rules
    assert HouseRules.from_dict(rules.to_dict()) == rules
    assert HouseRules.from_dict({**rules.to_dict(), "unrelated": 1}) == rules


def test_presets_of_rules_md():
    assert set(PRESETS) == {"classic", "draw-and-discard", "aces-high",
                            "thirty-one-blitz", "race-to-five", "commerce",
                            "double-or-nothing"}
    assert PRESETS["classic"].rules == HouseRules()
    dd = PRESETS["draw-and-discard"].rules
    assert (dd.exchange, dd.tie_rule) == ("stock", "suits")
    h2 = PRESETS["aces-high"].rules
    assert (h2.threes_high, h2.ace_low_run, h2.stop_after_swap, h2.floating) == (
        False, "none", True, False)
    tb = PRESETS["thirty-one-blitz"].rules
    assert (tb.exchange, tb.thirty_one, tb.blitz, tb.starting_lives) == ("stock", True, True, 3)
    r5 = PRESETS["race-to-five"].rules
    assert (r5.scoring, r5.target_points) == ("points", 5)
    c = PRESETS["commerce"].rules
    assert (c.ranking, c.exchange, c.scoring, c.swap_limit, c.dealer_blind_swap,
            c.min_players, c.max_players) == ("commerce", "widow", "pot", 3, True, 3, 10)
    assert PRESETS["double-or-nothing"].rules.stopper_penalty == 2


def test_summary_speaks_plainly():
    lines = HouseRules(stopper_penalty=2, floating=False).summary()
    text = " ".join(lines)
    assert "3-3-3 is the best prial" in text
    assert "lose 2 lives" in text
    assert "out when your lives reach 0" in text
    assert "knock" in " ".join(PRESETS["commerce"].rules.summary())
