"""Simulated games for the translation tests: every event kind, under many house rules."""

import random
from types import SimpleNamespace

from games.engine.bots import make_bot
from games.engine.game import OVER, SHOWDOWN, apply, new_game, next_hand
from games.engine.rules import PRESETS, HouseRules
from games.engine.views import seat_view

# Names with no Latin letters, so that any English word left in a Japanese sentence shows.
NAMES = ("さくら", "ひろし", "ゆき", "けん", "あおい", "みなと")

# The presets, and the rules that bring out the rarer events: blitz prials, passing,
# several-card swaps, the stopper's penalty with and without floating, two-player pots.
RULE_SETS = [p.rules for p in PRESETS.values()] + [
    HouseRules(thirty_one=True, blitz=True, blitz_prials=True, swap_limit=3, may_pass=True),
    HouseRules(stopper_penalty=3, floating=False, stop_after_swap=True, swap_limit=2),
    HouseRules(stopper_penalty=2, starting_lives=1),
    HouseRules(scoring="pot", starting_chips=2, tie_rule="suits"),
    HouseRules(ranking="commerce", scoring="lives", exchange="stock", ace_low_run="bottom",
               min_players=3),
    HouseRules(exchange="stock", scoring="pot", starting_chips=3, may_pass=True),
]


# What bot_game_events needs of an engine: this one is Stop the Bus's.
STOP_THE_BUS = SimpleNamespace(new_game=new_game, apply=apply, next_hand=next_hand,
                               make_bot=make_bot, seat_view=seat_view, over=OVER,
                               showdown=SHOWDOWN)


def bot_game_events(engine, rules, names, seed: bytes, rng: random.Random):
    """Every event of one game under ``rules`` of ``engine`` (its new_game, apply,
    next_hand, make_bot, seat_view and its phases over and showdown), each seat a random
    or greedy bot as ``rng`` picks."""
    bots = [engine.make_bot(rng.choice(("random", "greedy")), rules, random.Random(rng.random()))
            for _ in names]
    state, events = engine.new_game(rules, names, seed)
    yield from events
    for _ in range(5000):
        if state.phase == engine.over:
            break
        if state.phase == engine.showdown:
            state, events = engine.apply(state, engine.next_hand())
        else:
            state, events = engine.apply(state, bots[state.turn].choose(
                engine.seat_view(state, state.turn)))
        yield from events


def simulated_events(games_per_rules: int = 6, seed: int = 17):
    """Yield (rules, names, event) for every event of bot games under RULE_SETS."""
    rng = random.Random(seed)
    for r, rules in enumerate(RULE_SETS):
        for g in range(games_per_rules):
            players = rng.randint(rules.min_players, min(rules.max_players, len(NAMES)))
            names = NAMES[:players]
            yield from ((rules, names, e) for e in bot_game_events(
                STOP_THE_BUS, rules, names, f"i18n:{seed}:{r}:{g}".encode(), rng))


def rare_events():
    """Yield (rules, names, event) for the events bots seldom cause: a showdown that
    would put everyone out, and a stock that runs out."""
    from games.engine.game import discard, draw, pass_turn, stop_bus

    names = NAMES[:2]
    rules = HouseRules(starting_lives=1, floating=False)
    # Found by search: with this seed both dealt hands are K-10-7 high, so both would go out.
    state, events = new_game(rules, names, b"void:1566")
    yield from ((rules, names, e) for e in events)
    for make in (stop_bus, pass_turn):
        state, events = apply(state, make(state.turn))
        yield from ((rules, names, e) for e in events)

    rules = HouseRules(exchange="stock")
    state, events = new_game(rules, names, b"reshuffle")
    yield from ((rules, names, e) for e in events)
    for _ in range(60):  # 52 - 6 dealt - 1 discard = 45 draws empty the stock once
        state, events = apply(state, draw(state.turn))
        yield from ((rules, names, e) for e in events)
        state, events = apply(state, discard(state.turn, state.pending))
        yield from ((rules, names, e) for e in events)
