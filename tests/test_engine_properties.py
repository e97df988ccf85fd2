"""Properties that hold in every game: hypothesis plays random legal games."""

import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    PRESETS,
    Action,
    IllegalAction,
    apply,
    is_legal,
    legal_actions,
    new_game,
    next_hand,
    replay,
    view_for,
)
from games.engine.cards import CODES, PACK
from games.engine.game import OVER, SHOWDOWN

presets = st.sampled_from(sorted(PRESETS))
seeds = st.binary(min_size=32, max_size=32)


def quick(rules):
    """The preset, with short pot games so that random play ends soon."""
    return dataclasses.replace(rules, starting_chips=3) if rules.scoring == "pot" else rules


def players_for(rules, draw):
    return draw(st.integers(rules.min_players, min(rules.max_players, 5)))


def random_game(slug, seed, n, rng, steps):
    """Yield (state, action) along a random legal game of at most ``steps`` actions."""
    rules = quick(PRESETS[slug].rules)
    state, _ = new_game(rules, [f"P{i}" for i in range(n)], seed)
    for _ in range(steps):
        if state.phase == OVER:
            break
        seat = None if state.phase == SHOWDOWN else state.turn
        action = rng.choice(legal_actions(state, seat))
        yield state, action
        state, _ = apply(state, action)
    yield state, None


def all_cards(state):
    piles = [*state.hands, state.widow, state.stock, state.discard, state.stub]
    return [c for pile in piles for c in pile]


def codes_in(data):
    """Every card code anywhere in a JSON-like structure."""
    found = set()
    text = json.dumps(data)
    for token in text.replace('"', " ").replace(",", " ").replace("[", " ").replace(
            "]", " ").replace("{", " ").replace("}", " ").replace(":", " ").split():
        if token in CODES:
            found.add(token)
    return found


@settings(max_examples=60, deadline=None)
@given(slug=presets, seed=seeds, data=st.data())
def test_the_52_cards_are_always_accounted_for(slug, seed, data):
    n = players_for(PRESETS[slug].rules, data.draw)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for state, _ in random_game(slug, seed, n, rng, 400):
        cards = all_cards(state)
        assert sorted(cards) == list(PACK), "a card was lost or duplicated"


@settings(max_examples=40, deadline=None)
@given(slug=presets, seed=seeds, data=st.data())
def test_random_legal_play_always_ends(slug, seed, data):
    n = players_for(PRESETS[slug].rules, data.draw)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    *_, (last, _) = random_game(slug, seed, n, rng, 30_000)
    assert last.phase == OVER
    assert sorted(p for p in last.places if p is not None)[0] == 1
    assert last.places[last.winner] == 1


@settings(max_examples=60, deadline=None)
@given(slug=presets, seed=seeds, data=st.data())
def test_a_view_never_holds_a_hidden_card(slug, seed, data):
    n = players_for(PRESETS[slug].rules, data.draw)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for state, _ in random_game(slug, seed, n, rng, 300):
        in_play = state.phase not in (SHOWDOWN, OVER)
        for viewer in [None, *range(n)]:
            view = view_for(state, viewer)
            text = json.dumps(view)
            assert state.seed.hex() not in text, "the seed leaked"
            seen = codes_in(view)
            hidden = set()
            if in_play:
                for seat in range(n):
                    if seat != viewer:
                        hidden |= {CODES[c] for c in state.hands[seat]
                                   if c not in state.known[seat]}
                hidden |= {CODES[c] for c in state.stock}
                hidden |= {CODES[c] for c in state.stub}
                if viewer is not None and view["hand_hidden"]:
                    hidden |= {CODES[c] for c in state.hands[viewer]}
            assert not seen & hidden, f"viewer {viewer} saw {seen & hidden}"


@settings(max_examples=40, deadline=None)
@given(slug=presets, seed=seeds, data=st.data())
def test_replaying_the_log_reproduces_the_state(slug, seed, data):
    rules = quick(PRESETS[slug].rules)
    n = players_for(rules, data.draw)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    steps = list(random_game(slug, seed, n, rng, 500))
    final = steps[-1][0]
    log = [action.to_dict() for _, action in steps if action is not None]
    rebuilt = replay(rules, [f"P{i}" for i in range(n)], seed,
                     [Action.from_dict(json.loads(json.dumps(a))) for a in log])
    assert rebuilt.to_dict() == final.to_dict()


def normal(action):
    """An action up to the order its cards were listed in."""
    pairs = frozenset(zip(action.positions, action.take)) if action.positions else None  # noqa: B905
    return (action.kind, action.seat, frozenset(action.give), frozenset(action.take),
            len(action.positions), pairs, action.stop)


any_action = st.builds(
    Action,
    kind=st.sampled_from(["swap", "stop", "pass", "draw", "take_discard", "discard",
                          "dealer_swap", "next_hand"]),
    seat=st.one_of(st.none(), st.integers(-1, 6)),
    give=st.lists(st.sampled_from(PACK), max_size=3).map(tuple),
    take=st.lists(st.sampled_from(PACK), max_size=3).map(tuple),
    positions=st.lists(st.integers(-1, 3), max_size=3).map(tuple),
    stop=st.booleans(),
)


@settings(max_examples=80, deadline=None)
@given(slug=presets, seed=seeds, data=st.data())
def test_illegal_actions_never_change_the_state(slug, seed, data):
    n = players_for(PRESETS[slug].rules, data.draw)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    states = [s for s, _ in random_game(slug, seed, n, rng, 60)]
    for state in data.draw(st.lists(st.sampled_from(states), min_size=1, max_size=5)):
        action = data.draw(any_action)
        before = state.to_dict()
        listed = {normal(a) for a in legal_actions(state, action.seat)}
        try:
            apply(state, action)
        except IllegalAction as exc:
            assert exc.message
            assert normal(action) not in listed
        else:
            assert normal(action) in listed, f"{action} was applied but is not listed"
        assert state.to_dict() == before


def test_every_listed_action_is_legal():
    rng = random.Random(5)
    for slug in PRESETS:
        for state, _ in random_game(slug, bytes(32), 3, rng, 200):
            seat = None if state.phase == SHOWDOWN else state.turn
            for action in legal_actions(state, seat):
                assert is_legal(state, action), (slug, action)
            if state.phase == SHOWDOWN:
                assert legal_actions(state, None) == [next_hand()]
