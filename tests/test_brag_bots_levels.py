"""The three Brag bot levels: seat views only, legal moves everywhere, a beginner's mistakes
but never an absurd move, an expert that reads the table and varies its play.

How well each level plays is measured by benchmarks/brag_arena.py, not here.
"""

import copy
import dataclasses
import random

import pytest

from games.engine.brag import (
    BET,
    BETTING,
    BRAG_PRESETS,
    COVER,
    FOLD,
    LOOK,
    OVER,
    SHOWDOWN,
    BragRules,
    apply,
    check,
    legal_actions,
    make_bot,
    new_game,
    next_hand,
    seat_view,
)
from games.engine.brag.opponents import OpponentBook
from games.kinds import BRAG

LEVELS = ["random", "greedy", "mc"]
LIMIT = BRAG_PRESETS["three-card-brag"].rules
POT = BRAG_PRESETS["pot-limit-brag"].rules
RULE_SETS = [
    LIMIT,
    POT,
    BragRules(blind_play=False, starting_chips=12),
    BragRules(starting_chips=15, ante=2, min_bet=2, max_bet=6, max_raise=3),
    dataclasses.replace(POT, starting_chips=20, max_hands=0),
]


def random_positions(count, seed=0):
    """(state, seat) pairs on a seat's turn, from games of random legal play."""
    rng = random.Random(seed)
    out = []
    game = 0
    while len(out) < count:
        rules = RULE_SETS[game % len(RULE_SETS)]
        players = 2 + game % 5
        state, _ = new_game(rules, [f"P{i}" for i in range(players)],
                            rng.randbytes(32))
        game += 1
        for _ in range(600):
            if state.phase == OVER or len(out) >= count:
                break
            if state.phase == SHOWDOWN:
                state, _ = apply(state, next_hand())
                continue
            seat = state.turn
            out.append((state, seat))
            legal = legal_actions(state, seat)
            move = rng.choice(legal)
            if move.kind == BET:
                # mostly small stakes, so that games last and positions vary
                stake = move.min_stake if rng.random() < 0.7 else rng.randint(
                    move.min_stake, move.max_stake)
                action = move.action(stake)
            else:
                action = move.action()
            state, _ = apply(state, action)
    return out


POSITIONS = random_positions(10_000)


def test_the_positions_cover_every_kind_of_moment():
    kinds = {m.kind for state, seat in POSITIONS for m in legal_actions(state, seat)}
    assert {LOOK, FOLD, BET, COVER, "see"} <= kinds
    assert any(not s.seen[seat] for s, seat in POSITIONS)
    assert any(s.rules.betting == "pot_limit" for s, _ in POSITIONS)


@pytest.mark.parametrize("level", LEVELS)
def test_no_illegal_move_over_ten_thousand_random_positions(level):
    assert len(POSITIONS) == 10_000
    bots = {}
    for i, (state, seat) in enumerate(POSITIONS):
        rules = state.rules
        bot = bots.get(rules)
        if bot is None or i % 97 == 0:  # now and then a fresh bot, as the server makes
            bot = bots[rules] = make_bot(level, rules, random.Random(i))
        action = bot.choose(seat_view(state, seat))
        check(state, action)  # raises IllegalAction on an illegal move


def _hide_others(state, keep, rng):
    """The same moment with every hidden card dealt differently: the others' hands, the
    pack, and ``keep``'s own hand while ``keep`` is blind."""
    other = state.clone()
    hidden = [s for s in range(other.players) if other.hands[s]
              and (s != keep or not other.seen[keep])]
    pool = [c for s in hidden for c in other.hands[s]] + other.pack
    rng.shuffle(pool)
    hands = [h[:] for h in other.hands]
    for s in hidden:
        hands[s], pool = pool[:3], pool[3:]
    other.hands = hands
    other.pack = pool
    return other


@pytest.mark.parametrize("level", LEVELS)
def test_each_bot_decides_from_its_seats_view_only(level):
    """Dealing every card the seat cannot see differently never changes its move, also
    for a bot that has read the table over many hands."""
    rng = random.Random(5)
    for n, (state, seat) in enumerate(POSITIONS[:1500]):
        if state.phase != BETTING:
            continue
        twin = _hide_others(state, seat, rng)
        one = make_bot(level, state.rules, random.Random(n))
        two = make_bot(level, state.rules, random.Random(n))
        assert one.choose(seat_view(state, seat)) == two.choose(seat_view(twin, seat))


def test_a_blind_bot_never_holds_its_cards():
    for state, seat in POSITIONS[:3000]:
        view = seat_view(state, seat)
        if not state.seen[seat]:
            assert view.hand is None and view.blind


def test_a_bot_reading_a_whole_game_still_sees_only_its_view():
    """An expert kept for a whole game (told every hand's end) decides the same whatever
    the hidden cards of the moment are."""
    rules = LIMIT
    for g in range(4):
        bots = [make_bot("mc", rules, random.Random(10 * g + i)) for i in range(3)]
        state, _ = new_game(rules, ["A", "B", "C"], bytes([g]) * 32)
        rng = random.Random(g)
        for _ in range(400):
            if state.phase == OVER:
                break
            if state.phase == SHOWDOWN:
                for s in range(3):
                    bots[s].observe(seat_view(state, s))
                state, _ = apply(state, next_hand())
                continue
            seat = state.turn
            bot = bots[seat]
            twin = make_bot("mc", rules, random.Random(0))
            twin.book = copy.deepcopy(bot.book)
            twin.rng.setstate(bot.rng.getstate())
            action = bot.choose(seat_view(state, seat))
            assert twin.choose(seat_view(_hide_others(state, seat, rng), seat)) == action
            state, _ = apply(state, action)


# -- the beginner's mistakes, never an absurd move --------------------------------------


def _beginner_moves():
    """Every beginner decision over the random positions and over games it plays."""
    for i, (state, seat) in enumerate(POSITIONS):
        bot = make_bot("random", state.rules, random.Random(i))
        view = seat_view(state, seat)
        yield view, bot.choose(view)
    for g in range(30):
        rules = RULE_SETS[g % len(RULE_SETS)]
        bots = [make_bot(level, rules, random.Random(g * 7 + i))
                for i, level in enumerate(["random", "greedy", "mc", "random"])]
        state, _ = new_game(rules, list("ABCD"), bytes([g + 1]) * 32)
        for _ in range(3000):
            if state.phase == OVER:
                break
            if state.phase == SHOWDOWN:
                state, _ = apply(state, next_hand())
                continue
            seat = state.turn
            view = seat_view(state, seat)
            action = bots[seat].choose(view)
            if bots[seat].level == "random":
                yield view, action
            state, _ = apply(state, action)


def test_the_beginner_never_makes_an_absurd_move():
    decisions = 0
    for view, action in _beginner_moves():
        decisions += 1
        moves = {m.kind: m for m in view.legal}
        if action.kind == FOLD:
            # never folds what it could look at for free, or stay in for nothing
            assert LOOK not in moves
            assert not (COVER in moves and moves[COVER].min_cost == 0)
        if action.kind == BET and view.blind:
            # no blind raise at all, so never the largest one with nothing
            assert action.stake == moves[BET].min_stake
        if action.kind == BET and action.stake == moves[BET].max_stake > moves[BET].min_stake:
            assert view.hand is not None
            assert view.rules.hand_ranking.evaluate(view.hand).category not in (
                "high_card", "pair")
    assert decisions > 12_000


def test_the_beginner_looks_early_calls_a_lot_and_raises_little():
    looks = blind_turns = stays = seen_turns = raises = 0
    for view, action in _beginner_moves():
        moves = {m.kind: m for m in view.legal}
        if view.blind and LOOK in moves:
            blind_turns += 1
            looks += action.kind == LOOK
        elif BET in moves:
            seen_turns += 1
            stays += action.kind != FOLD
            raises += action.kind == BET and action.stake > moves[BET].min_stake
    assert looks == blind_turns  # looks at once, every time
    assert stays / seen_turns > 0.6  # stays in with most hands
    assert raises / seen_turns < 0.03  # and rarely raises


def test_the_casual_bot_plays_blind_for_a_bet_or_two_then_looks_and_folds_weak_hands():
    bot_rules = LIMIT
    blind_bets = []
    folded_weak = stayed_weak = 0
    for g in range(40):
        bots = [make_bot("greedy", bot_rules, random.Random(g * 5 + i)) for i in range(4)]
        state, _ = new_game(bot_rules, list("ABCD"), bytes([g + 3]) * 32)
        for _ in range(3000):
            if state.phase == OVER:
                break
            if state.phase == SHOWDOWN:
                blind_bets.extend(state.blind_bets[s] for s in range(4) if not state.out[s])
                state, _ = apply(state, next_hand())
                continue
            seat = state.turn
            view = seat_view(state, seat)
            action = bots[seat].choose(view)
            if view.hand is not None and view.bets[seat] == 0 and len(view.betting) > 2:
                weak = bot_rules.hand_ranking.evaluate(view.hand).percentile < 0.4
                if weak:
                    folded_weak += action.kind == FOLD
                    stayed_weak += action.kind != FOLD
            state, _ = apply(state, action)
    assert max(blind_bets) <= 2 and sum(blind_bets) > 0
    assert folded_weak > 10 * max(1, stayed_weak)


# -- the expert ---------------------------------------------------------------------------


def test_the_expert_varies_its_play():
    """The same moment, another shuffle of the bot's own dice: now and then another move."""
    differ = 0
    for state, seat in POSITIONS[:2000]:
        view = seat_view(state, seat)
        moves = {make_bot("mc", state.rules, random.Random(k)).choose(view) for k in range(4)}
        differ += len(moves) > 1
    assert differ > 40


def test_the_expert_plays_blind_at_half_price_with_even_stakes():
    """A blind stake costs half, rounded up: the expert bets an even stake for the same
    chips, so the others pay full price for it."""
    found = 0
    for i, (state, seat) in enumerate(POSITIONS):
        view = seat_view(state, seat)
        moves = {m.kind: m for m in view.legal}
        if not view.blind or BET not in moves:
            continue
        action = make_bot("mc", state.rules, random.Random(i)).choose(view)
        if action.kind == BET and action.stake == moves[BET].min_stake + 1 == 2:
            found += 1
            assert moves[BET].cost(action.stake) == moves[BET].min_cost
    assert found > 10


def _scripted(state, seat):
    """Seat 1 looks and folds; seat 2 looks and raises by 2; seat 0 looks, bets the least
    and sees when it may."""
    moves = {m.kind: m for m in legal_actions(state, seat)}
    if LOOK in moves:
        return moves[LOOK].action()
    if seat == 1:
        return moves[FOLD].action()
    if seat == 2 and BET in moves:
        bet = moves[BET]
        return bet.action(min(bet.max_stake, bet.min_stake + 2))
    if "see" in moves:
        return moves["see"].action()
    for kind in (BET, COVER, FOLD):
        if kind in moves:
            return moves[kind].action()


def test_the_opponent_book_counts_folds_raises_and_shown_hands():
    book = OpponentBook()
    state, _ = new_game(BragRules(starting_chips=1000, max_hands=20), ["Me", "Folder",
                                                                       "Raiser"], bytes(32))
    hands = 0
    while state.phase != OVER:
        if state.phase == SHOWDOWN:
            book.update(seat_view(state, 0))  # the end of the hand, settlement and all
            hands += 1
            state, _ = apply(state, next_hand())
            continue
        seat = state.turn
        if seat == 0:
            book.update(seat_view(state, 0))
        state, _ = apply(state, _scripted(state, seat))
    book.update(seat_view(state, 0))
    hands += 1
    folder, raiser = book.reads[1], book.reads[2]
    assert folder.hands == raiser.hands == hands == 20
    assert folder.fold_rate > 0.8 and raiser.fold_rate < 0.1
    assert raiser.raises >= 5 and folder.raises == 0
    assert raiser.raise_rate > folder.raise_rate
    assert len(raiser.shown) == hands  # every hand ended in a see against the raiser
    assert folder.shown == []


def test_the_opponent_book_starts_afresh_for_another_game():
    book = OpponentBook()
    state, _ = new_game(LIMIT, ["A", "B"], bytes(32))
    book.update(seat_view(state, 0))
    book.reads[1].folds = 9
    other, _ = new_game(LIMIT, ["C", "D"], bytes(32))
    book.update(seat_view(other, 0))
    assert book.reads[1].folds == 0


def test_the_server_path_makes_and_asks_each_level():
    """games.actions.moves.bot_choice makes a bot through the kind and asks it once."""
    state, _ = new_game(LIMIT, ["A", "B", "C"], bytes(32))
    for level in BRAG.bot_levels:
        bot = BRAG.make_bot(level, state.rules, random.Random(1))
        action = BRAG.to_action(bot.choose(BRAG.seat_view(state, state.turn)))
        check(state, action)
