"""Properties of every Brag game: hypothesis plays random legal games under random rules."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.brag import (
    ACTION_KINDS,
    BET,
    OVER,
    SHOWDOWN,
    BragAction,
    BragRules,
    IllegalAction,
    apply,
    check,
    legal_actions,
    new_game,
    replay,
    seat_view,
    view_for,
)
from games.engine.brag.game import fairness_reveals
from games.engine.cards import CODES, PACK


@st.composite
def brag_rules(draw):
    starting = draw(st.integers(1, 30))
    min_bet = draw(st.integers(1, 4))
    ante = draw(st.integers(0, min(3, starting)))  # 0: the house rule "no ante"
    return BragRules(
        starting_chips=starting,
        ante=ante,
        betting=draw(st.sampled_from(["limit", "pot_limit"])),
        min_bet=min_bet,
        max_bet=draw(st.integers(min_bet, 12)),
        max_raise=draw(st.integers(0, 12)),  # 0: the house rule "fixed stakes"
        blind_play=draw(st.booleans()),
        shuffle=draw(st.sampled_from(["prial_only", "every_hand"])),
        max_hands=draw(st.integers(0 if ante else 1, 8)),  # no ante needs a hand limit
        threes_high=draw(st.booleans()),
        ace_low_run=draw(st.sampled_from(["top", "bottom", "none"])),
    )


games = st.tuples(brag_rules(), st.integers(2, 8), st.binary(min_size=32, max_size=32),
                  st.integers(0, 2**32))
FEW = settings(max_examples=60, deadline=None,
               suppress_health_check=[HealthCheck.too_slow])


def moves_of(state):
    """Every legal move at this moment, for every seat and for the table."""
    out = list(legal_actions(state, None))
    for seat in range(state.players):
        out.extend(legal_actions(state, seat))
    return out


def concrete(move, rng):
    """Actions a legal move allows: a bet at its least, its most and one stake between."""
    if isinstance(move, BragAction):
        return [move]
    if move.kind == BET:
        return [move.action(s) for s in {move.min_stake, move.max_stake,
                                         rng.randint(move.min_stake, move.max_stake)}]
    return [move.action()]


def random_game(rules, n, seed, rng_seed, steps=250):
    """Yield each state of a random legal game, with the action taken from it."""
    rng = random.Random(rng_seed)
    state, _ = new_game(rules, [f"P{i}" for i in range(n)], seed)
    for _ in range(steps):
        if state.phase == OVER:
            break
        action = rng.choice(concrete(rng.choice(moves_of(state)), rng))
        yield state, action
        state, _ = apply(state, action)
    yield state, None


def allowed_codes(state, viewer):
    """The cards ``viewer`` may see: their own once looked, and hands the settlement shows."""
    allowed = set()
    if viewer is not None and state.hands[viewer] and state.seen[viewer]:
        allowed |= {CODES[c] for c in state.hands[viewer]}
    if state.settlement is not None:
        for shown in state.settlement["shown"].values():
            allowed |= set(shown["cards"])
    return allowed


def codes_in(data):
    text = json.dumps(data)
    return {c for c in CODES if f'"{c}"' in text}


@FEW
@given(games)
def test_every_legal_action_applies_and_chips_are_conserved(game):
    rules, n, seed, rng_seed = game
    total = rules.starting_chips * n
    rng = random.Random(rng_seed)
    for state, _ in random_game(rules, n, seed, rng_seed):
        assert sum(state.chips) + state.middle == total
        assert all(c >= 0 for c in state.chips)
        # the pack and the hands still in play are always the 52 cards, once each
        in_play = [c for seat, hand in enumerate(state.hands)
                   if state.status[seat] in ("in", "covered") and state.phase == "betting"
                   for c in hand]
        assert sorted(state.pack + in_play) == list(PACK)
        before = state.to_dict()
        for move in moves_of(state):
            for action in concrete(move, rng):
                after, events = apply(state, action)
                assert sum(after.chips) + after.middle == total
                assert after.version == state.version + 1
                assert events and all(e.text for e in events)
        assert state.to_dict() == before  # applying never changes the state it was given


def candidates(state):
    """Actions of every kind, for every seat and none, with stakes in and out of range."""
    stakes = {None, 0, -1, 1, state.stake, state.stake + 1, state.max_stake(),
              state.max_stake() + 1, 10**6}
    for kind in ACTION_KINDS:
        for seat in (None, -1, state.players, *range(state.players)):
            for stake in stakes:
                yield BragAction(kind, seat, stake)


def legal_set(state):
    allowed = set()
    for move in moves_of(state):
        if isinstance(move, BragAction):
            allowed.add(move)
        elif move.kind == BET:
            allowed |= {move.action(s) for s in range(move.min_stake, move.max_stake + 1)}
        else:
            allowed.add(move.action())
    return allowed


@FEW
@given(games)
def test_every_other_action_is_refused_with_a_reason_and_changes_nothing(game):
    rules, n, seed, rng_seed = game
    for state, _ in random_game(rules, n, seed, rng_seed, steps=120):
        before = state.to_dict()
        allowed = legal_set(state)
        for action in candidates(state):
            if action in allowed:
                check(state, action)
                continue
            try:
                apply(state, action)
            except IllegalAction as exc:
                assert exc.code and exc.message
            else:
                raise AssertionError(f"{action} applied but is not in legal_actions")
        assert state.to_dict() == before


@FEW
@given(games)
def test_no_view_holds_a_card_its_viewer_may_not_see(game):
    rules, n, seed, rng_seed = game
    for state, _ in random_game(rules, n, seed, rng_seed):
        revealed = fairness_reveals(state)
        assert all(r["shuffle"] == 0 or r["shuffle"] < state.shuffles or state.phase == OVER
                   for r in revealed)
        for viewer in (None, *range(n)):
            view = view_for(state, viewer)
            json.dumps(view)
            public = {k: v for k, v in view.items() if k != "reveals"}
            assert codes_in(public) <= allowed_codes(state, viewer), (viewer, state)
            hand = seat_view(state, viewer).hand
            if viewer is not None and hand is not None:
                assert {CODES[c] for c in hand} <= allowed_codes(state, viewer)
            assert "seed" not in json.dumps(view)
            assert state.seed.hex() not in json.dumps(view)
            if state.phase != OVER:
                # packs still in play are never revealed
                assert all(r["shuffle"] != state.shuffles for r in view["reveals"])
                assert json.dumps(state.fairness[-1]["salt"]) not in json.dumps(view)


@FEW
@given(games)
def test_no_event_data_holds_a_card_its_readers_may_not_see(game):
    """An event's data (said to everyone) names only cards the table may see once it has
    happened; its private_data, only cards its own seat may see."""
    rules, n, seed, rng_seed = game
    for state, action in random_game(rules, n, seed, rng_seed):
        if action is None:
            break
        after, events = apply(state, action)
        for event in events:
            assert codes_in(event.data) <= allowed_codes(after, None), (event.kind, event.data)
            if event.private_data is not None:
                assert codes_in(event.private_data) <= allowed_codes(after, event.seat)


@FEW
@given(games)
def test_a_game_replays_from_its_seed_and_log_and_round_trips(game):
    rules, n, seed, rng_seed = game
    log = []
    final = None
    for state, action in random_game(rules, n, seed, rng_seed):
        final = state
        if action is not None:
            log.append(action.to_dict())
    assert replay(rules, [f"P{i}" for i in range(n)], seed, log) == final
    from games.engine.brag import BragState

    assert BragState.from_dict(json.loads(json.dumps(final.to_dict()))) == final
    if final.phase in (SHOWDOWN, OVER):
        assert sum(final.settlement["won"]) == sum(p["chips"] for p in final.settlement["pots"])
