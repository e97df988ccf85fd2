"""Chips are conserved after every action of many random Brag games.

The check behind ``python -m benchmarks.brag_conservation`` (which parses its
arguments and prints the figures) and tests/test_brag_bots.py. Game *g* draws its
rules from the grid of both betting modes, both shuffle modes, blind play on and
off, and 2 to 8 players (every cell is played), with small stacks so that covers
and players going out are common. The house rules "no ante" (ante 0, with a
number of hands) and "fixed stakes" (max_raise 0) are among the draws. Random
legal moves throughout; after every action stacks + open pot + closed pots must
equal players x starting chips, and no stack may be negative.
"""

import hashlib
import itertools
import random
import time
from dataclasses import dataclass, field

from games.engine.brag import BragRules, make_bot, play_bot_game

GRID = list(itertools.product(("limit", "pot_limit"), ("prial_only", "every_hand"),
                              (True, False), range(2, 9)))


def rules_for(cell, rng):
    betting, shuffle, blind, _ = cell
    starting = rng.choice((5, 10, 20, 40))
    ante = rng.choice((0, 1, 1, 2))
    return BragRules(starting_chips=starting, ante=ante, betting=betting,
                     min_bet=rng.choice((1, 2)), max_bet=rng.choice((4, 10)),
                     max_raise=rng.choice((0, 2, 10)), blind_play=blind, shuffle=shuffle,
                     # with no ante a game needs a number of hands
                     max_hands=rng.choice((10, 30) if ante == 0 else (0, 10, 30)))


@dataclass
class Conservation:
    """What :func:`check` saw: counts for the report and every broken action."""

    games: int = 0
    hands: int = 0
    actions: int = 0
    broken: list[tuple[int, int]] = field(default_factory=list)  # (game, version)
    cells: dict = field(default_factory=dict)  # (betting, shuffle, blind) -> games
    house: dict = field(default_factory=lambda: {"no ante": [0, 0],
                                                 "fixed stakes": [0, 0]})  # games, hands
    void_hands: int = 0
    seconds: float = 0.0


def check(games: int, seed: str = "1") -> Conservation:
    """Play ``games`` random games; after every action stacks + open pot + closed pots
    must equal players x starting chips, and no stack may be negative."""
    rng = random.Random(f"conservation:{seed}")
    result = Conservation(games=games)
    broken, cells, house = result.broken, result.cells, result.house
    started = time.perf_counter()
    for g in range(games):
        cell = GRID[g % len(GRID)]
        rules = rules_for(cell, rng)
        n = cell[3]
        total = rules.starting_chips * n
        bots = [make_bot("random", rules, random.Random(rng.random())) for _ in range(n)]
        counted = [0]

        voids = [0]

        def conserved(state, total=total, counted=counted, voids=voids, g=g):
            counted[0] += 1
            if sum(state.chips) + state.middle != total or min(state.chips) < 0:
                broken.append((g, state.version))
            if state.phase != "betting" and (state.settlement or {}).get("void") \
                    and state.settlement["hand"] == state.hand_no:
                voids[0] += 1

        digest = hashlib.sha256(f"conservation:{seed}:{g}".encode()).digest()
        final = play_bot_game(rules, bots, digest, on_action=conserved)
        result.actions += counted[0]
        result.hands += final.hand_no
        result.void_hands += voids[0]
        for name, on in (("no ante", rules.ante == 0),
                         ("fixed stakes", rules.betting == "limit" and rules.max_raise == 0)):
            if on:
                house[name][0] += 1
                house[name][1] += final.hand_no
        cells[cell[:3]] = cells.get(cell[:3], 0) + 1
    result.seconds = time.perf_counter() - started
    return result
