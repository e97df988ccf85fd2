"""Brag bots decide from their seat's view only; the variant lab counts what happened."""

import ast
import dataclasses
import json
import pathlib
import random

import pytest

from games.engine.brag import (
    BOT_LEVELS,
    BRAG_PRESETS,
    OVER,
    SHOWDOWN,
    BragRules,
    apply,
    check,
    make_bot,
    new_game,
    next_hand,
    play_bot_game,
    seat_view,
    simulate,
)
from games.engine.brag.bots import GreedyBragBot, MonteCarloBragBot, RandomBragBot

BRAG = pathlib.Path(__file__).resolve().parent.parent / "games" / "engine" / "brag"
RULES = BRAG_PRESETS["three-card-brag"].rules


def test_levels_and_make_bot():
    assert list(BOT_LEVELS) == ["random", "greedy", "mc"]
    assert isinstance(make_bot("random", RULES), RandomBragBot)
    assert isinstance(make_bot("greedy", RULES), GreedyBragBot)
    assert isinstance(make_bot("mc", RULES), MonteCarloBragBot)
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("genius", RULES)


@pytest.mark.parametrize("level", ["random", "greedy", "mc"])
@pytest.mark.parametrize("rules", [RULES, BRAG_PRESETS["pot-limit-brag"].rules,
                                   BragRules(blind_play=False, starting_chips=12)])
def test_every_bot_choice_is_legal_and_games_end(level, rules):
    bots = [make_bot(level, rules, random.Random(i)) for i in range(4)]
    state, _ = new_game(rules, ["A", "B", "C", "D"], bytes(32))
    for _ in range(20_000):
        if state.phase == OVER:
            break
        if state.phase == SHOWDOWN:
            state, _ = apply(state, next_hand())
            continue
        action = bots[state.turn].choose(seat_view(state, state.turn))
        check(state, action)
        state, _ = apply(state, action)
    assert state.phase == OVER


def _swap_hidden(state, keep):
    """The same moment with every hand but ``keep``'s dealt differently (hidden cards only)."""
    other = state.clone()
    others = [s for s in range(other.players) if s != keep and other.hands[s]]
    pool = [c for s in others for c in other.hands[s]] + other.pack
    random.Random(7).shuffle(pool)
    hands = [h[:] for h in other.hands]
    for s in others:
        hands[s], pool = pool[:3], pool[3:]
    other.hands = hands
    other.pack = pool
    return other


@pytest.mark.parametrize("level", ["greedy", "mc"])
def test_bots_do_not_know_hidden_cards(level):
    """Dealing the unseen cards differently never changes a bot's decision."""
    rng = random.Random(3)
    for game in range(6):
        state, _ = new_game(RULES, ["A", "B", "C"], bytes([game]) * 32)
        for _ in range(12):
            if state.phase != "betting":
                break
            seat = state.turn
            decided = []
            for variant in (state, _swap_hidden(state, seat)):
                bot = make_bot(level, RULES, random.Random(11))
                decided.append(bot.choose(seat_view(variant, seat)))
            assert decided[0] == decided[1]
            state, _ = apply(state, decided[0])
        assert rng  # the loop ran


def test_a_blind_bot_does_not_know_its_own_cards():
    state, _ = new_game(RULES, ["A", "B"], bytes(32))
    seat = state.turn
    view = seat_view(state, seat)
    assert view.hand is None and view.blind
    other = state.clone()
    other.hands = [other.pack[:3], other.pack[3:6]]
    for level in ("greedy", "mc"):
        one = make_bot(level, RULES, random.Random(5)).choose(view)
        two = make_bot(level, RULES, random.Random(5)).choose(seat_view(other, seat))
        assert one == two


def test_the_simulator_reports_what_the_lab_shows():
    rules = dataclasses.replace(RULES, max_hands=15)
    report = simulate(rules, ["mc", "greedy", "random"], games=12, seed=4)
    data = report.to_dict()
    json.dumps(data)
    assert data["games"] == 12 and data["players"] == 3
    for key in ("average_pot", "hands_per_game", "blind_bet_rate", "blind_play_rate",
                "see_rate", "cover_rate", "levels", "bots"):
        assert key in data
    assert 0 < data["hands_per_game"] <= 15
    assert data["average_pot"] >= 3  # three antes at least
    assert 0 < data["blind_bet_rate"] < 1 and 0 < data["see_rate"] < 1
    assert sum(b["net_chips"] for b in data["bots"]) == 0  # chips only change hands
    assert sum(b["wins"] for b in data["bots"]) >= 12
    assert set(data["levels"]) == {"mc", "greedy", "random"}
    assert report.lines()[0].startswith("12 Brag games of 3 players")
    again = simulate(rules, ["mc", "greedy", "random"], games=12, seed=4).to_dict()
    timing = ("hands_per_second", "hands_per_cpu_second")
    assert {k: v for k, v in again.items() if k not in timing} == {
        k: v for k, v in data.items() if k not in timing}


def test_expert_beats_casual_beats_beginner_in_a_short_run():
    levels = simulate(RULES, ["mc", "greedy", "random"], games=24, seed=2).by_level()
    assert levels["mc"]["net_chips"] > levels["greedy"]["net_chips"] > levels["random"][
        "net_chips"]


def test_the_simulator_refuses_a_table_the_rules_do_not_allow():
    with pytest.raises(ValueError):
        simulate(RULES, ["random"], games=1)


def test_play_bot_game_reports_every_state():
    seen = []
    final = play_bot_game(RULES, [make_bot("random", RULES, random.Random(i)) for i in range(3)],
                          bytes(32), on_action=lambda s: seen.append(s.version))
    assert final.phase == OVER and seen == list(range(1, final.version + 1))


def test_the_brag_engine_imports_nothing_from_django():
    for path in BRAG.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert not name.startswith(("django", "accounts", "stats", "stopbus_site")), (
                    path.name, name)


def test_chips_are_conserved_in_a_few_random_games():
    from tests.support import brag_conservation

    result = brag_conservation.check(16)
    assert result.broken == []
    assert result.games == 16 and result.actions > 0
