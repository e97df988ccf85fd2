"""The Brag browser test's plan (tests/brag_script.py) played on the engine against the
casual bot, over many deals: a blind bet, a look, a see and a cover by the people every
time, the see in the first hand and the cover in the second.

The browser plays one deal per run; this plays thousands in a second, so a change to
the rules or to the casual bot that would let the browser test miss one of the four
fails here first, and every time.
"""

import random
import re

import pytest

from games.engine.brag import BragRules, apply, legal_actions, make_bot, new_game, next_hand
from games.engine.brag.game import BET, OVER, SHOWDOWN
from games.engine.brag.views import seat_view
from tests.brag_script import BET_MAX, BET_MIN, PERSON_COVERS, PERSON_SEES, scripted_move

# the browser test's variant (QUICK_BRAG there)
RULES = BragRules(starting_chips=10, ante=1, min_bet=1, max_bet=10, max_raise=10,
                  max_hands=8, min_players=2, max_players=8)
NAMES = ("ann", "bob", "bot")
BOT = 2


def person_move(state, seat: int, lines: list[str]):
    """What the script makes ``seat`` do, from what its board shows."""
    moves = {move.kind: move for move in legal_actions(state, seat)}
    choice = scripted_move(
        NAMES[seat], set(moves),
        bot_seen_betting=state.seen[BOT] and state.status[BOT] == "in",
        person_saw=any(re.search(PERSON_SEES, line) for line in lines),
        person_covered=any(re.search(PERSON_COVERS, line) for line in lines))
    if choice in (BET_MIN, BET_MAX):
        bet = moves[BET]
        return bet.action(bet.min_stake if choice == BET_MIN else bet.max_stake)
    return moves[choice].action()


def play(seed: int) -> list[tuple[int, str]]:
    """One game from ``seed``: the log as (hand, words)."""
    rng = random.Random(seed)
    state, events = new_game(RULES, NAMES, rng.randbytes(32))
    log = [(state.hand_no, e.text) for e in events]
    while state.phase != OVER:
        if state.phase == SHOWDOWN:
            action = next_hand()
        elif state.turn == BOT:
            bot = make_bot("greedy", RULES, random.Random(rng.random()))
            action = bot.choose(seat_view(state, BOT))
        else:
            action = person_move(state, state.turn, [text for _, text in log])
        state, events = apply(state, action)
        log += [(state.hand_no, e.text) for e in events]
    return log


def first_hand(log, pattern: str) -> int | None:
    return next((hand for hand, text in log if re.search(pattern, text)), None)


@pytest.mark.parametrize("block", range(4))
def test_the_plan_shows_all_four_whatever_the_cards(block):
    for seed in range(block * 500, (block + 1) * 500):
        log = play(seed)
        words = "\n".join(text for _, text in log)
        assert first_hand(log, PERSON_SEES) == 1, (seed, words)
        assert first_hand(log, PERSON_COVERS) == 2, (seed, words)
        assert first_hand(log, r"^ann, blind, bets \d+ \(stake \d+\)$") in (1, 2), (seed, words)
        assert first_hand(log, r"^bob looks at their cards") in (1, 2), (seed, words)
