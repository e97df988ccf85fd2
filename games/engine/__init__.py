"""The Stop the Bus rules engine: pure Python, no Django.

    from games.engine import PRESETS, evaluate_hand, new_game, view_for

    rules = PRESETS["classic"].rules
    evaluate_hand("QS KH AC", rules).description        # 'Run, Q-K-A'
    state, events = new_game(rules, ["Alice", "Bob"])
    view = view_for(state, 0)                           # what Alice may see

The modules: :mod:`.cards`, :mod:`.ranking`, :mod:`.rules`, :mod:`.game` (the
state machine), :mod:`.views`, :mod:`.fairness`, :mod:`.bots`,
:mod:`.montecarlo` and :mod:`.simulate` (the variant lab). Three Card Brag, the
betting game on the same cards, is the :mod:`.brag` package (``engine.brag``).
"""

from . import brag
from .bots import BOT_LEVELS, GreedyBot, MonteCarloBot, RandomBot, make_bot
from .cards import CardError, code, codes, name, parse_card, parse_cards
from .fairness import verify as verify_deck
from .game import (
    Action,
    Event,
    GameState,
    IllegalAction,
    apply,
    check,
    dealer_swap,
    discard,
    draw,
    fairness_reveals,
    is_legal,
    legal_actions,
    new_game,
    next_hand,
    pass_turn,
    replay,
    stop_bus,
    swap,
    take_discard,
)
from .ranking import HandValue, Ranking, RankingConfig, ranking_for
from .rules import PRESETS, HouseRules, Preset, RulesError
from .simulate import SimulationReport, play_bot_game, simulate
from .views import SeatView, seat_view, view_for


def evaluate_hand(hand, rules: HouseRules | None = None) -> HandValue:
    """Evaluate a hand given as codes (``"QS KH AC"`` or a list) or card ints."""
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(
        parse_card(c) for c in hand)
    return (rules or HouseRules()).hand_ranking.evaluate(cards)


__all__ = [
    "BOT_LEVELS", "PRESETS", "Action", "CardError", "Event", "GameState", "GreedyBot",
    "HandValue", "HouseRules", "IllegalAction", "MonteCarloBot", "Preset", "RandomBot",
    "Ranking", "RankingConfig", "RulesError", "SeatView", "SimulationReport", "apply", "check",
    "code", "codes", "dealer_swap", "discard", "draw", "evaluate_hand", "fairness_reveals",
    "is_legal", "legal_actions", "make_bot", "name", "new_game", "next_hand", "parse_card",
    "parse_cards", "pass_turn", "play_bot_game", "ranking_for", "replay", "seat_view",
    "simulate", "stop_bus", "swap", "take_discard", "verify_deck", "view_for", "brag",
]
