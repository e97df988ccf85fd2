"""Fair shuffles: committed at the deal, revealed after the showdown, checkable by anyone."""

import collections
import random

from games.engine import PRESETS, GreedyBot, fairness_reveals, play_bot_game, verify_deck
from games.engine.cards import PACK
from games.engine.fairness import commit, new_seed, shuffled


def test_seeds_come_from_the_system_random_source():
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(len(s) == 32 for s in seeds)


def test_shuffles_are_deterministic_per_seed_and_label():
    seed = bytes(range(32))
    assert shuffled(seed, "hand:1") == shuffled(seed, "hand:1")
    assert shuffled(seed, "hand:1") != shuffled(seed, "hand:2")
    assert shuffled(seed, "hand:1") != shuffled(bytes(32), "hand:1")
    assert sorted(shuffled(seed, "hand:1")) == list(PACK)


def test_shuffles_are_uniform():
    # every ordering of four cards, 24,000 shuffles: each ordering about 1,000 times
    counts = collections.Counter(tuple(shuffled(bytes([i % 256, i // 256] * 16), "t", (0, 1, 2, 3)))
                                 for i in range(24_000))
    assert len(counts) == 24
    assert all(850 < n < 1150 for n in counts.values()), counts


def test_a_revealed_deck_verifies_and_a_tampered_one_does_not():
    seed = new_seed()
    deck = shuffled(seed, "hand:1")
    record = commit(seed, "hand:1", deck)
    ok, why = verify_deck(record["commitment"], record["salt"], record["cards"])
    assert ok, why
    swapped = record["cards"][:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    ok, why = verify_deck(record["commitment"], record["salt"], swapped)
    assert not ok and "does not match" in why
    ok, why = verify_deck(record["commitment"], "0" * 32, record["cards"])
    assert not ok
    ok, why = verify_deck(record["commitment"], record["salt"], record["cards"][:51])
    assert not ok and "52" in why
    ok, why = verify_deck(record["commitment"], record["salt"], ["XX"] * 52)
    assert not ok and "not a card" in why


def test_every_hand_of_a_game_is_committed_and_verifies_against_what_was_dealt():
    rules = PRESETS["draw-and-discard"].rules
    bots = [GreedyBot(rules, random.Random(i)) for i in range(3)]
    state = play_bot_game(rules, bots, new_seed())
    reveals = fairness_reveals(state)
    assert reveals == state.fairness
    hands = {r["hand"] for r in reveals}
    assert hands == set(range(state.hand_no + 1))
    for record in reveals:
        full = ":reshuffle:" not in record["label"]
        ok, why = verify_deck(record["commitment"], record["salt"], record["cards"],
                              full_pack=full)
        assert ok, (record["label"], why)
