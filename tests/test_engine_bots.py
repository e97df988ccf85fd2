"""Bots play every preset to the end, from their seat's view only; the variant lab counts."""

import dataclasses
import random

import pytest

from games.engine import (
    PRESETS,
    GreedyBot,
    MonteCarloBot,
    RandomBot,
    is_legal,
    make_bot,
    new_game,
    play_bot_game,
    seat_view,
    simulate,
    view_for,
)
from games.engine.game import OVER

LEVELS = ["random", "greedy", "mc"]


@pytest.mark.parametrize("slug", sorted(PRESETS))
def test_every_preset_is_played_to_the_end_by_bots(slug):
    rules = PRESETS[slug].rules
    if rules.scoring == "pot":
        rules = dataclasses.replace(rules, starting_chips=4)  # keep the test short
    n = max(rules.min_players, 3)
    bots = [make_bot(LEVELS[i % 3], rules, random.Random(i)) for i in range(n)]
    for bot in bots:
        if isinstance(bot, MonteCarloBot):
            bot.samples = 8
    state = play_bot_game(rules, bots, bytes([7]) * 32)
    assert state.phase == OVER
    assert state.places[state.winner] == 1
    assert all(p is not None for p in state.places)


@pytest.mark.parametrize("cls", [RandomBot, GreedyBot, MonteCarloBot])
def test_bots_choose_legal_actions(cls):
    for slug in ("classic", "draw-and-discard", "commerce"):
        rules = PRESETS[slug].rules
        bot = cls(rules, random.Random(1))
        state, _ = new_game(rules, ["A", "B", "C"], bytes(32))
        for _ in range(30):
            if state.phase != "play" and state.phase != "dealer_swap":
                break
            action = bot.choose(seat_view(state, state.turn))
            assert is_legal(state, action), (slug, action)
            from games.engine import apply

            state, _ = apply(state, action)


def test_a_view_is_the_same_whatever_the_hidden_cards_are():
    """So a bot deciding from its view cannot be peeking."""
    rules = PRESETS["draw-and-discard"].rules
    state, _ = new_game(rules, ["A", "B", "C"], bytes(32))
    me = state.turn
    other = state.clone()
    others = [s for s in range(3) if s != me]
    # give the two opponents each other's hands, and reverse the stock
    other.hands[others[0]], other.hands[others[1]] = state.hands[others[1]], state.hands[
        others[0]]
    other.stock = state.stock[::-1]
    assert view_for(state, me) == view_for(other, me)
    assert seat_view(state, me) == seat_view(other, me)
    a = MonteCarloBot(rules, random.Random(3)).choose(seat_view(state, me))
    b = MonteCarloBot(rules, random.Random(3)).choose(seat_view(other, me))
    assert a == b


def test_the_simulator_reports_and_is_deterministic():
    rules = PRESETS["classic"].rules
    one = simulate(rules, ["greedy", "greedy", "random"], games=30, seed=4)
    two = simulate(rules, ["greedy", "greedy", "random"], games=30, seed=4)
    a, b = one.as_dict(), two.as_dict()
    a.pop("games_per_second"), b.pop("games_per_second")
    assert a == b
    assert one.games == 30 and one.hands >= 30 * 3
    assert sum(bot.wins for bot in one.bots) == 30
    assert [bot.label for bot in one.bots] == ["greedy #1", "greedy #2", "random"]
    assert one.bots[2].win_rate < 0.2, "random should rarely beat two greedy bots"
    assert 0 < one.stopper_loss_rate < 1
    lines = one.lines()
    assert "games/s" in lines[0] and "random" in lines[-1]


def _heads_up_wins(rules, make_strong, make_weak, games):
    wins = 0
    for g in range(games):
        strong, weak = make_strong(g), make_weak(g)
        seats = [strong, weak] if g % 2 == 0 else [weak, strong]
        state = play_bot_game(rules, seats, bytes([g // 2]) * 32)  # each deal twice
        wins += state.winner == g % 2
    return wins / games


def test_the_expert_and_the_casual_bot_beat_the_beginner():
    """Heads-up, the same deals with the seats swapped (the expert with fewer deals than in
    play, to be quick). Against players written outside them: benchmarks/stb_arena.py."""
    rules = PRESETS["classic"].rules

    def beginner(g):
        return make_bot("random", rules, random.Random(1000 + g))

    expert = _heads_up_wins(
        rules, lambda g: MonteCarloBot(rules, random.Random(g), samples=16), beginner, 40)
    casual = _heads_up_wins(
        rules, lambda g: make_bot("greedy", rules, random.Random(g)), beginner, 40)
    assert expert > 0.6 and casual > 0.6, (expert, casual)


def test_the_simulator_refuses_a_table_the_rules_do_not_allow():
    with pytest.raises(ValueError, match="3 to 10 players"):
        simulate(PRESETS["commerce"].rules, ["greedy", "greedy"], games=1)
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("genius", PRESETS["classic"].rules)
