"""Three Card Brag, the betting game of seed 000: pure Python, no Django.

    from games.engine import brag

    rules = brag.BRAG_PRESETS["three-card-brag"].rules
    state, events = brag.new_game(rules, ["Ann", "Bob", "Cat"])
    state, events = brag.apply(state, brag.bet(state.turn, 2))
    brag.view_for(state, 0)          # what Ann may see

Cards, the hand ranking and the fair shuffles are shared with Stop the Bus
(:mod:`games.engine.cards`, :mod:`~games.engine.ranking`,
:mod:`~games.engine.fairness`); the events and ``IllegalAction`` are the same
classes. Modules: :mod:`.rules`, :mod:`.game` (the state machine), :mod:`.views`,
:mod:`.bots` and :mod:`.simulate` (the variant lab).
"""

from ..game import Event, IllegalAction
from .bots import BOT_LEVELS, make_bot
from .game import (
    ACTION_KINDS,
    BET,
    BETTING,
    COVER,
    COVERED,
    FOLD,
    FOLDED,
    IN,
    LOOK,
    NEXT_HAND,
    OUT,
    OVER,
    SEE,
    SHOWDOWN,
    BragAction,
    BragState,
    LegalAction,
    apply,
    bet,
    check,
    cost_of,
    cover,
    fairness_commitments,
    fairness_reveals,
    fold,
    is_legal,
    legal_actions,
    look,
    new_game,
    next_hand,
    replay,
    see,
    verify_fairness,
)
from .rules import BRAG_PRESETS, BRAG_RULE_NAMES, BragRules, brag_rule_problems
from .simulate import BragSimulationReport, play_bot_game, simulate
from .views import BragSeatView, seat_view, view_for

Action = BragAction
GameState = BragState

__all__ = [
    "ACTION_KINDS", "BET", "BETTING", "BOT_LEVELS", "BRAG_PRESETS", "BRAG_RULE_NAMES", "COVER",
    "COVERED", "FOLD", "FOLDED", "IN", "LOOK", "NEXT_HAND", "OUT", "OVER", "SEE", "SHOWDOWN",
    "Action", "BragAction", "BragRules", "BragSeatView", "BragSimulationReport", "BragState",
    "Event", "GameState", "IllegalAction", "LegalAction", "apply", "bet", "brag_rule_problems",
    "check", "cost_of", "cover", "fairness_commitments", "fairness_reveals", "fold",
    "is_legal", "legal_actions", "look", "make_bot", "new_game", "next_hand", "play_bot_game",
    "replay", "see", "seat_view", "simulate", "verify_fairness", "view_for",
]
