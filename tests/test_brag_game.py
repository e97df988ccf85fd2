"""Three Card Brag: one test (or a few) per rule line of RULES.md, "Three Card Brag",
with hand-worked stake sequences on chosen cards.

The helpers at the top are shared by the other Brag test files.
"""

import pytest

from games.engine import fairness
from games.engine.brag import (
    BETTING,
    COVERED,
    FOLDED,
    OVER,
    SHOWDOWN,
    BragAction,
    BragRules,
    BragState,
    IllegalAction,
    apply,
    bet,
    cover,
    fairness_reveals,
    fold,
    legal_actions,
    look,
    new_game,
    next_hand,
    replay,
    see,
    verify_fairness,
    view_for,
)
from games.engine.cards import CODES, PACK, parse_cards

SEED = bytes(32)
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def pack_for(hands, dealer):
    """A pack (top first) that deals ``hands`` (codes per seat), one card at a time from
    the dealer's left, followed by the other cards in pack order."""
    n = len(hands)
    cards = [list(parse_cards(h)) for h in hands]
    order = [(dealer + k) % n for k in range(1, n + 1)]
    top = [cards[seat][r] for r in range(3) for seat in order]
    return top + [c for c in PACK if c not in top]


def rigged(hands, rules=None, dealer=None, chips=None, **fields):
    """A new game whose first hand deals ``hands``; the last seat deals, so seat 0 bets first.

    ``chips`` replaces the stacks after the ante, as if earlier hands had moved them.
    """
    rules = rules or BragRules(**fields)
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    state, _ = new_game(rules, NAMES[:n], SEED, dealer=dealer, pack=pack_for(hands, dealer))
    if chips is not None:
        state = state.clone()
        state.chips = list(chips)
    return state


def play(state, *actions):
    """Apply actions in order; return the final state and every event."""
    events = []
    for action in actions:
        state, new_events = apply(state, action)
        events.extend(new_events)
    return state, events


def texts(events):
    return [e.text for e in events]


def refused(state, action, code):
    """The action is refused with ``code`` and a sentence, and changes nothing."""
    before = state.to_dict()
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    assert caught.value.code == code, caught.value.message
    assert caught.value.message
    assert state.to_dict() == before
    return caught.value.message


def bet_move(state, seat):
    return next(m for m in legal_actions(state, seat) if m.kind == "bet")


def kinds(state, seat):
    return {m.kind for m in legal_actions(state, seat)}


def codes_in_view(view):
    import json

    text = json.dumps(view)
    return {c for c in CODES if f'"{c}"' in text}


# -- 1. the ante and the deal -------------------------------------------------


def test_everyone_antes_and_gets_three_cards_one_at_a_time_from_the_dealers_left():
    hands = ["7H 7S KD", "2C 5D 9H", "AS KS QS"]
    state = rigged(hands, dealer=1)  # Bob deals: Cat, Ann, Bob receive in that order
    assert state.chips == [99, 99, 99]
    assert state.pot == 3
    assert [list(parse_cards(h)) for h in hands] == state.hands
    top = pack_for(hands, 1)
    assert top[:3] == [parse_cards(h)[0] for h in (hands[2], hands[0], hands[1])]
    assert state.pack == top[9:]
    assert state.turn == 2  # betting starts at the dealer's left
    assert state.phase == BETTING


def test_a_bigger_ante_and_the_deal_event():
    state, events = new_game(BragRules(ante=5), ["Ann", "Bob", "Cat", "Dan"], SEED)
    assert state.chips == [95] * 4 and state.pot == 20
    assert "Everyone antes 5 chips; the pot is 20." in events[-1].text
    assert events[-1].data == {"hand": 1, "dealer": state.dealer, "shuffled": True,
                               "after_prial": False, "ante": 5, "pot": 20,
                               "commitment": state.fairness[-1]["commitment"]}
    assert events[0].kind == "cut" and "lowest card and deals" in events[0].text
    assert sorted([c for h in state.hands for c in h] + state.pack) == list(PACK)


# -- 2. blind at the deal; looking ----------------------------------------------


def test_everyone_starts_blind_and_nobody_sees_an_unlooked_hand():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"])
    assert state.seen == [False, False, False]
    for viewer in (0, 1, 2, None):
        view = view_for(state, viewer)
        assert view["hand"] is None
        assert codes_in_view(view) == set()
        assert all(seat["blind"] for seat in view["seats"])
    assert view_for(state, 0)["hand_hidden"] is True


def test_looking_is_free_takes_no_turn_works_out_of_turn_and_everyone_is_told():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"])
    assert state.turn == 0
    after, events = apply(state, look(2))
    assert after.turn == 0 and after.chips == state.chips and after.pot == state.pot
    assert after.seen == [False, False, True]
    assert events[0].text == "Cat looks at their cards and is now seen"
    assert events[0].text_for(2).startswith("You look at your cards: AS KS QS")
    assert events[0].private_data == {"category": "running_flush", "cards": ["AS", "KS", "QS"]}
    assert events[0].data == {}  # the cards are Cat's alone
    assert "AS" not in events[0].text_for(0)
    assert [c["code"] for c in view_for(after, 2)["hand"]] == ["AS", "KS", "QS"]
    assert view_for(after, 2)["hand_value"]["category"] == "running_flush"
    assert codes_in_view(view_for(after, 0)) == set()
    assert view_for(after, 0)["seats"][2]["seen"] is True
    refused(after, look(2), "already_seen")
    assert "look" not in kinds(after, 2)


def test_a_player_who_looked_keeps_seeing_their_cards_after_a_fold_and_nobody_else_does():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"])
    state, _ = play(state, look(0), fold(0))
    assert state.status[0] == FOLDED
    assert [c["code"] for c in view_for(state, 0)["hand"]] == ["7H", "7S", "KD"]
    for viewer in (1, 2, None):
        assert codes_in_view(view_for(state, viewer)) == set()
    refused(state, look(0), "folded")


def test_a_blind_fold_stays_unseen_even_by_its_owner():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"])
    state, _ = play(state, fold(0))
    assert view_for(state, 0)["hand"] is None
    refused(state, look(0), "folded")


def test_without_blind_play_every_hand_is_looked_at_as_it_is_dealt():
    state = rigged(["7H 7S KD", "2C 5D 9H"], blind_play=False)
    assert state.seen == [True, True]
    assert [c["code"] for c in view_for(state, 0)["hand"]] == ["7H", "7S", "KD"]
    assert "look" not in kinds(state, 0) and "look" not in kinds(state, 1)
    refused(state, look(1), "no_blind_play")
    assert bet_move(state, 0).blind is False


# -- 3. betting: order, fold, bet (limit and pot limit) ----------------------------


def test_betting_goes_round_from_the_dealers_left_skipping_folded_players():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS", "4C 8D JH"], dealer=2)
    assert state.turn == 3
    state, _ = play(state, bet(3, 2), fold(0), bet(1, 2), bet(2, 2))
    assert state.turn == 3
    state, _ = play(state, bet(3, 2))
    assert state.turn == 1  # Ann folded
    refused(state, bet(0, 2), "folded")
    refused(state, bet(2, 2), "not_your_turn")


def test_folded_cards_go_under_the_pack_in_the_order_dealt():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"])
    before = state.pack[:]
    state, _ = play(state, fold(0))
    assert state.pack == before + list(parse_cards("7H 7S KD"))
    assert state.pot == 3 and state.chips == [99, 99, 99]


def test_limit_stakes_blind_and_seen_mixed_hand_worked():
    # limit 1-10, raise 10; Cat deals, Ann bets first; everyone has 99 after the ante
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"])
    state, events = play(state, bet(0, 8))
    assert events[0].text == "Ann, blind, bets 4 (stake 8)"
    assert (state.chips, state.pot, state.stake) == ([95, 99, 99], 7, 8)

    state, _ = play(state, look(1))
    move = bet_move(state, 1)
    assert (move.min_stake, move.max_stake, move.min_cost, move.max_cost) == (8, 18, 8, 18)
    refused(state, bet(1, 7), "stake_too_low")
    refused(state, bet(1, 19), "stake_too_high")
    state, events = play(state, bet(1, 8))
    assert events[0].text == "Bob bets 8"
    assert (state.chips, state.pot) == ([95, 91, 99], 15)

    move = bet_move(state, 2)
    assert (move.min_stake, move.max_stake, move.min_cost, move.max_cost) == (8, 18, 4, 9)
    state, events = play(state, bet(2, 18))
    assert events[0].text == "Cat, blind, bets 9 (stake 18)"
    assert (state.chips, state.pot) == ([95, 91, 90], 24)

    state, events = play(state, bet(0, 27))  # an odd stake: blind pays half, rounded up
    assert events[0].text == "Ann, blind, bets 14 (stake 27)"
    assert (state.chips, state.pot, state.stake) == ([81, 91, 90], 38, 27)
    move = bet_move(state, 1)
    assert (move.min_stake, move.max_stake, move.min_cost, move.max_cost) == (27, 37, 27, 37)


def test_the_first_stake_is_min_bet_to_max_bet():
    state = rigged(["7H 7S KD", "2C 5D 9H"], min_bet=2, max_bet=6)
    refused(state, bet(0, 1), "stake_too_low")
    refused(state, bet(0, 7), "stake_too_high")
    move = bet_move(state, 0)
    assert (move.min_stake, move.max_stake, move.min_cost, move.max_cost) == (2, 6, 1, 3)
    assert move.quick_stakes == (2, 4, 6)
    assert move.to_dict()["quick"] == [{"stake": 2, "cost": 1}, {"stake": 4, "cost": 2},
                                        {"stake": 6, "cost": 3}]
    refused(state, BragAction("bet", 0), "malformed")
    refused(state, BragAction("fold", 0, 3), "malformed")


def test_a_bet_is_capped_by_the_chips_a_player_has():
    state = rigged(["7H 7S KD", "2C 5D 9H"], chips=[3, 99])
    move = bet_move(state, 0)  # blind: 3 chips pay a stake of up to 6
    assert (move.max_stake, move.max_cost) == (6, 3)
    refused(state, bet(0, 7), "not_enough_chips")
    state, _ = play(state, look(0))
    assert bet_move(state, 0).max_stake == 3


def test_pot_limit_maxima_hand_worked():
    rules = BragRules(betting="pot_limit")
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], rules=rules)
    assert (bet_move(state, 0).min_stake, bet_move(state, 0).max_stake) == (1, 3)
    state, _ = play(state, bet(0, 3))  # blind: pays 2, pot 5
    state, _ = play(state, look(1))
    assert (bet_move(state, 1).min_stake, bet_move(state, 1).max_stake) == (3, 5)
    refused(state, bet(1, 6), "stake_too_high")
    state, _ = play(state, bet(1, 5))  # pot 10
    assert bet_move(state, 2).max_stake == 10
    state, _ = play(state, bet(2, 10))  # blind: pays 5, pot 15
    assert (state.pot, state.chips) == (15, [97, 94, 94])
    assert (bet_move(state, 0).max_stake, bet_move(state, 0).max_cost) == (15, 8)


def test_pot_limit_is_never_below_the_smallest_stake():
    state = rigged(["7H 7S KD", "2C 5D 9H"], betting="pot_limit", min_bet=5)
    move = bet_move(state, 0)
    assert (move.min_stake, move.max_stake) == (5, 5)  # the pot is only 2


def test_pot_limit_counts_closed_pots_and_later_bets_go_to_a_new_pot():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS", "4C 8D JH"], betting="pot_limit",
                   chips=[99, 3, 99, 99])
    state, _ = play(state, look(0), bet(0, 4))  # pot 8
    state, _ = play(state, look(1))  # seen, Bob's 3 chips no longer pay the stake of 4
    assert kinds(state, 1) == {"fold", "cover"}
    state, events = play(state, cover(1))
    assert state.closed == [(11, 1)] and state.pot == 0 and state.stake == 4
    assert events[0].text.startswith("Bob covers the pot with their last 3 chips")
    move = bet_move(state, 2)
    assert (move.min_stake, move.max_stake) == (4, 11)
    state, _ = play(state, bet(2, 11))  # blind: pays 6 into the new open pot
    assert state.pot == 6 and state.closed == [(11, 1)]
    assert bet_move(state, 3).max_stake == 17


# -- 3. see -------------------------------------------------------------------


def test_see_only_with_exactly_two_still_betting():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"])
    refused(state, see(0), "see_not_allowed")
    assert "see" not in kinds(state, 0)
    state, _ = play(state, fold(0))
    assert "see" in kinds(state, 1)


def test_see_costs_twice_the_cost_of_staying_in_and_before_any_bet_the_min_bet():
    state = rigged(["7H 7S KD", "2C 5D 9H"], min_bet=4)
    move = next(m for m in legal_actions(state, 0) if m.kind == "see")
    assert move.cost() == 4  # blind: staying in costs 2
    state, _ = play(state, look(0), look(1))
    move = next(m for m in legal_actions(state, 0) if m.kind == "see")
    assert move.cost() == 8 and move.against == 1


def test_a_seen_player_sees_a_seen_player_for_double_and_the_better_hand_wins():
    state = rigged(["7H 7S KD", "KC 9D 4H"])
    state, _ = play(state, look(0), bet(0, 8), look(1))
    state, events = play(state, see(1))
    assert events[0].text == ("Bob sees Ann for 16 — Ann's pair of sevens, king kicker wins; "
                              "Bob's hand is not shown")
    assert events[0].data == {"against": 0, "cost": 16, "blind": False, "seer_won": False,
                              "against_hand": {"category": "pair", "cards": ["7H", "7S", "KD"]}}
    assert events[1].kind == "pot" and events[1].data["shown"] is True
    assert state.chips == [91 + 26, 83] and state.pot == 0
    assert state.phase == SHOWDOWN
    assert set(state.settlement["shown"]) == {"0"}


def test_you_cant_see_a_blind_man():
    state = rigged(["7H 7S KD", "KC 9D 4H"])
    state, _ = play(state, look(0))
    message = refused(state, see(0), "blind_man")
    assert "blind man" in message and "Bob" in message
    assert "see" not in kinds(state, 0)
    state, _ = play(state, bet(0, 2))
    assert "see" in kinds(state, 1)  # a blind player can see a seen one


def test_a_blind_player_sees_a_seen_player_and_wins_showing_the_hand():
    state = rigged(["7H 7S KD", "AS KS QS"])
    state, _ = play(state, look(0), bet(0, 6))
    state, events = play(state, see(1))  # blind: staying in costs 3, seeing 6
    assert events[0].text == ("Bob, blind, sees Ann for 6 — Bob's running flush, Q-K-A beats "
                              "Ann's pair of sevens, king kicker")
    assert events[0].data["seer_hand"] == {"category": "running_flush",
                                           "cards": ["AS", "KS", "QS"]}
    assert events[0].data["against_hand"] == {"category": "pair", "cards": ["7H", "7S", "KD"]}
    assert state.chips == [93, 93 + 14]  # the pot: 2 antes, 6 and 6
    assert set(state.settlement["shown"]) == {"0", "1"}
    for viewer in (0, 1, None):
        assert {"AS", "KS", "QS", "7H", "7S", "KD"} <= codes_in_view(view_for(state, viewer))


def test_two_blind_players_may_see_each_other():
    state = rigged(["7H 7S KD", "AS KS QS"])
    state, _ = play(state, bet(0, 2))
    assert "see" in kinds(state, 1)
    state, _ = play(state, see(1))
    assert state.settlement["see"]["seer_won"] is True


def test_a_player_who_cannot_pay_the_whole_see_cannot_see():
    state = rigged(["7H 7S KD", "AS KS QS"], chips=[99, 7])
    state, _ = play(state, look(0), bet(0, 4), look(1))
    assert "see" not in kinds(state, 1)
    refused(state, see(1), "not_enough_chips")
    state, _ = play(state, bet(1, 4))  # a bet of 4 is still open to Bob


def test_a_tie_goes_against_the_seer_whose_cards_are_never_shown():
    state = rigged(["7H 7S KD", "7C 7D KH"])
    state, _ = play(state, look(0), bet(0, 8), look(1))
    state, events = play(state, see(1))
    assert state.settlement["see"]["seer_won"] is False
    assert state.chips == [91 + 26, 83]
    assert set(state.settlement["shown"]) == {"0"}
    for viewer in (0, None):
        assert codes_in_view(view_for(state, viewer)) == {"7H", "7S", "KD"}
    # Bob looked, so Bob alone still sees his own cards
    assert codes_in_view(view_for(state, 1)) == {"7H", "7S", "KD", "7C", "7D", "KH"}
    assert "7C" not in " ".join(texts(events))
    assert "seer_hand" not in events[0].data  # nor in the event's data
    assert "7C" not in repr([e.to_dict() for e in events])


def test_a_blind_seer_who_loses_never_sees_their_own_cards():
    state = rigged(["AS KS QS", "7C 7D KH"])
    state, _ = play(state, look(0), bet(0, 2))
    state, _ = play(state, see(1))
    assert state.settlement["see"]["seer_won"] is False
    assert view_for(state, 1)["hand"] is None
    assert codes_in_view(view_for(state, 1)) == {"AS", "KS", "QS"}


# -- 3. cover -----------------------------------------------------------------


def test_cover_only_when_the_smallest_bet_cannot_be_paid():
    state = rigged(["7H 7S KD", "2C 5D 9H"], chips=[1, 99])
    message = refused(state, cover(1), "not_your_turn")
    assert message
    state, _ = play(state, bet(0, 2))  # blind: costs 1, Ann has nothing left
    refused(state, cover(1), "cover_not_allowed")
    state, _ = play(state, bet(1, 2))  # blind too
    assert kinds(state, 0) == {"look", "fold", "cover"}
    refused(state, bet(0, 2), "cannot_afford")


def test_a_player_with_no_chips_covers_with_nothing_and_a_cover_settles_against_the_last():
    # ante 1 of a single chip: nobody can bet, Ann covers with nothing
    state = rigged(["7H 7S KD", "2C 5D 9H"], starting_chips=1)
    assert state.chips == [0, 0]
    assert kinds(state, 0) == {"look", "fold", "cover"}
    state, events = play(state, cover(0))
    assert "with nothing left to bet" in events[0].text
    assert state.phase == OVER  # Bob, alone, won an empty open pot; Ann's pair took 2
    assert state.chips == [2, 0]
    assert [p["kind"] for p in state.settlement["pots"]] == ["open", "closed"]
    assert set(state.settlement["shown"]) == {"0", "1"}
    assert state.places == [1, 2] and state.winner == 0


def test_two_covers_settled_newest_first_with_a_tie_to_the_later_pots_winner():
    hands = ["5D 6H 7S", "5C 6D 7H", "KC KD 2H", "9S 9H 4C"]
    # Bob deals: Cat, Dan, Ann, Bob bet in that order; Ann and Bob are short
    state = rigged(hands, dealer=1, chips=[2, 3, 99, 99])
    state, _ = play(state, look(2), bet(2, 10), look(3), bet(3, 10))
    assert state.pot == 24
    state, _ = play(state, cover(0))  # blind: 5 to stay, she has 2
    assert state.closed == [(26, 0)] and state.pot == 0 and state.stake == 10
    assert state.status[0] == COVERED and state.turn == 1
    state, _ = play(state, look(0))  # a covered player may still look
    state, _ = play(state, cover(1))
    assert state.closed == [(26, 0), (3, 1)]
    assert state.turn == 2
    state, _ = play(state, bet(2, 10))
    state, events = play(state, fold(3))
    settlement = state.settlement
    assert [(p["kind"], p["chips"], p["winner"]) for p in settlement["pots"]] == [
        ("open", 10, 2), ("closed", 3, 1), ("closed", 26, 1)]
    assert state.chips == [0, 29, 89, 89]
    assert set(settlement["shown"]) == {"0", "1", "2"}  # Dan folded: never shown
    assert any(t.startswith("Bob's run, 5-6-7 beats Ann's covered run, 5-6-7 (a tie goes to "
                            "the later pot's winner)") for t in texts(events))
    closed = [e.data for e in events if e.kind == "closed_pot"]
    assert [(d["chips"], d["holder"], d["coverer"], d["tie"]) for d in closed] == [
        (3, 2, 1, False), (26, 1, 0, True)]
    assert closed[1]["holder_hand"] == {"category": "run", "cards": ["5C", "6D", "7H"]}
    assert closed[1]["coverer_hand"] == {"category": "run", "cards": ["5D", "6H", "7S"]}
    assert state.out == [True, False, False, False]


def test_one_cover_won_by_the_covered_hand():
    hands = ["AS KS QS", "2C 5D 9H", "KC KD 2H"]
    state = rigged(hands, chips=[2, 99, 99])
    state, _ = play(state, bet(0, 2), look(1), bet(1, 10))  # Ann blind pays 1; 1 left
    state, _ = play(state, bet(2, 10))  # blind: 5
    state, _ = play(state, cover(0))  # blind: 5 to stay, 1 chip
    assert state.closed == [(3 + 1 + 10 + 5 + 1, 0)]
    state, _ = play(state, fold(1))
    # Cat wins the empty open pot unshown, then shows against Ann's covered hand and loses
    pots = state.settlement["pots"]
    assert [(p["kind"], p["chips"], p["winner"]) for p in pots] == [
        ("open", 0, 2), ("closed", 20, 0)]
    assert set(state.settlement["shown"]) == {"0", "2"}


# -- 4. the last one in wins unshown -------------------------------------------


def test_the_last_player_betting_wins_the_open_pot_without_showing():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"])
    state, events = play(state, bet(0, 2), fold(1), fold(2))
    assert state.chips == [99 - 1 + 4, 99, 99]
    assert state.settlement["shown"] == {}
    assert "Ann wins the pot of 4 without showing" in texts(events)
    assert events[-1].data == {"chips": 4, "kind": "open", "shown": False}
    for viewer in (1, 2, None):
        assert codes_in_view(view_for(state, viewer)) == set()
    assert view_for(state, 0)["hand"] is None  # Ann never looked


def test_betting_never_closes_on_its_own():
    state = rigged(["7H 7S KD", "2C 5D 9H"], blind_play=False)
    for _ in range(6):
        state, _ = play(state, bet(state.turn, state.stake or 1))
    assert state.phase == BETTING


# -- 6. the deal passes left -----------------------------------------------------


def test_the_deal_passes_left_to_the_next_player_still_in():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"])
    assert state.dealer == 2
    state, _ = play(state, fold(0), fold(1))
    state, events = play(state, next_hand())
    assert state.dealer == 0 and state.turn == 1 and state.hand_no == 2
    assert events[0].text.startswith("Hand 2: Ann deals from the unshuffled pack")
    refused(state, next_hand(), "wrong_phase")


def test_the_deal_skips_a_player_who_is_out():
    state2 = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], chips=[0, 99, 99])
    state2, _ = play(state2, fold(0), fold(1))
    assert state2.out == [True, False, False]
    state2, _ = play(state2, next_hand())
    assert state2.dealer == 1 and state2.turn == 2
    assert state2.hands[0] == [] and state2.status[0] == "out"
    assert state2.pot == 2


def test_only_the_table_deals_the_next_hand():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"])
    refused(state, next_hand(), "wrong_phase")
    state, _ = play(state, fold(0), fold(1))
    refused(state, BragAction("next_hand", 0), "not_yours")
    refused(state, bet(2, 2), "wrong_phase")
    assert legal_actions(state, None) == [next_hand()]
    assert legal_actions(state, 2) == []


# -- the pack between hands -------------------------------------------------------


def test_the_unshuffled_pack_in_its_exact_order_after_a_hand():
    hands = ["7H 7S KD", "2C 5D 9H", "AS KS QS"]
    state = rigged(hands)  # Cat deals
    rest = pack_for(hands, 2)[9:]
    state, _ = play(state, bet(0, 2), fold(1), look(2), bet(2, 2))
    state, _ = play(state, see(0))  # Ann, blind, sees Cat and loses: unshown
    ann, bob, cat = (list(parse_cards(h)) for h in hands)
    # Bob's fold went under first; then the hands not folded, from the dealer's left:
    # Ann's, then Cat's (the dealer's hand lowest)
    assert state.pack == rest + bob + ann + cat
    state, events = play(state, next_hand())  # Ann deals from the top: Bob, Cat, Ann
    assert state.hands[1] == [rest[0], rest[3], rest[6]]
    assert state.hands[2] == [rest[1], rest[4], rest[7]]
    assert state.hands[0] == [rest[2], rest[5], rest[8]]
    assert state.pack == rest[9:] + bob + ann + cat
    assert state.shuffles == 1 and events[0].data["shuffled"] is False


def test_a_pot_won_with_a_prial_shown_brings_a_fresh_shuffle():
    state = rigged(["3C 3D 3H", "KC KD 2H"])
    state, _ = play(state, look(0), bet(0, 2), look(1), see(1))
    assert state.settlement["prial_shuffle"] is True
    assert [r["shuffle"] for r in fairness_reveals(state)] == []  # not yet
    state, events = play(state, next_hand())
    assert state.shuffles == 2 and events[0].data["shuffled"] is True
    deck = fairness.shuffled(SEED, "shuffle:2")
    assert state.hands[1] == [deck[0], deck[2], deck[4]]  # Ann deals now: Bob first
    assert state.hands[0] == [deck[1], deck[3], deck[5]]
    assert state.pack == deck[6:]
    assert events[0].data["commitment"] == state.fairness[-1]["commitment"]
    assert "because the last pot was won with a prial" in events[0].text
    assert events[0].data["after_prial"] is True
    # the first pack is revealed now that it has been replaced, and it checks out
    assert [r["shuffle"] for r in fairness_reveals(state)] == [1]
    assert [v["ok"] for v in verify_fairness(state)] == [True]


def test_a_prial_that_wins_unshown_brings_no_shuffle():
    state = rigged(["3C 3D 3H", "KC KD 2H"])
    state, _ = play(state, bet(0, 2), fold(1))
    assert state.settlement["prial_shuffle"] is False
    state, events = play(state, next_hand())
    assert state.shuffles == 1 and events[0].data["shuffled"] is False


def test_a_prial_shown_against_a_covered_hand_counts():
    state = rigged(["3C 3D 3H", "KC KD 2H", "4C 8D JH"], chips=[99, 0, 99])
    state, _ = play(state, bet(0, 2), cover(1), fold(2))
    assert state.settlement["prial_shuffle"] is True


def test_every_hand_shuffles_with_a_commitment_revealed_at_the_next_shuffle():
    state, _ = new_game(BragRules(shuffle="every_hand"), ["Ann", "Bob"], SEED)
    first = state.fairness[-1]
    view = view_for(state, 0)
    assert first["commitment"] in [c["commitment"] for c in view["commitments"]]
    assert all("cards" not in c and "salt" not in c for c in view["commitments"])
    assert [r["label"] for r in view["reveals"]] == ["cut"]
    state, _ = play(state, fold(state.turn))
    assert [r["label"] for r in fairness_reveals(state)] == ["cut"]
    state, _ = play(state, next_hand())
    assert state.shuffles == 2
    assert [r["label"] for r in fairness_reveals(state)] == ["cut", "shuffle:1"]
    assert all(v["ok"] for v in verify_fairness(state))
    assert fairness_reveals(state)[1]["cards"] == [CODES[c] for c in
                                                   fairness.shuffled(SEED, "shuffle:1")]


def test_every_pack_is_revealed_at_the_end_of_the_game():
    state = rigged(["7H 7S KD", "2C 5D 9H"], max_hands=1)
    state, _ = play(state, fold(0))
    assert state.phase == OVER
    assert [r["label"] for r in fairness_reveals(state)] == ["shuffle:1"]
    assert all(v["ok"] for v in verify_fairness(state))
    assert view_for(state, None)["reveals"][0]["cards"] == [
        CODES[c] for c in pack_for(["7H 7S KD", "2C 5D 9H"], 1)]


# -- end ------------------------------------------------------------------------


def test_fewer_chips_than_the_ante_puts_a_player_out_and_one_left_ends_the_game():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], starting_chips=3, ante=2)
    assert state.chips == [1, 1, 1]
    state, events = play(state, bet(0, 2), fold(1), fold(2))
    assert state.out == [False, True, True]
    assert "Bob has only 1 chip, too few to ante, and is out" in texts(events)
    assert state.phase == OVER
    assert state.places == [1, 2, 2]  # out after the same hand with equal chips: shared
    assert state.winner == 0
    assert texts(events)[-1].startswith("Ann wins the game with 7 chips")
    assert legal_actions(state, None) == [] and legal_actions(state, 0) == []
    refused(state, next_hand(), "game_over")


def test_players_out_later_place_better():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], chips=[97, 0, 1])
    state, _ = play(state, bet(0, 2), fold(1), fold(2))  # Ann takes 4; Bob is out
    assert state.out == [False, True, False] and state.out_hand[1] == 1
    state, _ = play(state, next_hand())  # Ann deals; Cat antes her last chip
    assert state.dealer == 0 and state.turn == 2 and state.chips == [99, 0, 0]
    state, _ = play(state, fold(2))
    assert state.phase == OVER and state.chips == [101, 0, 0]
    assert state.places == [1, 3, 2]  # Cat went out later than Bob


def test_players_out_after_the_same_hand_place_by_chips():
    hands = ["7H 7S KD", "2C 5D 9H", "4C 8D JH", "AS KS QS"]
    state = rigged(hands, ante=2, chips=[1, 0, 1, 90])
    state, _ = play(state, fold(0), cover(1), fold(2))
    assert state.phase == OVER
    assert state.chips == [1, 0, 1, 98]
    assert state.places == [2, 4, 2, 1]


def test_max_hands_ends_the_game_and_places_are_shared_one_one_three():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], max_hands=2)
    state, _ = play(state, fold(0), fold(1), next_hand())  # Cat 102, Ann 99, Bob 99
    assert state.dealer == 0 and state.turn == 1
    state, events = play(state, fold(1), fold(2))  # Ann takes 3
    assert state.phase == OVER
    assert state.chips == [101, 98, 101]
    assert state.places == [1, 3, 1] and state.winner is None
    assert texts(events)[-1].startswith("Ann and Cat share first place with 101 chips each")


def test_after_the_last_hand_only_players_with_no_chips_are_out():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], max_hands=1, ante=5,
                   starting_chips=10, chips=[0, 3, 5])
    state, _ = play(state, cover(0), fold(1))
    assert state.phase == OVER and state.chips == [0, 3, 20]
    assert state.out == [True, False, False]  # Bob has fewer than the ante, and stays in
    assert state.places == [3, 2, 1]


# -- persistence, replay, errors ------------------------------------------------


def test_state_round_trips_and_replays_from_its_log():
    hands = ["7H 7S KD", "2C 5D 9H", "AS KS QS"]
    actions = [bet(0, 2), look(1), bet(1, 4), fold(2), see(0), next_hand(), fold(1)]
    state = rigged(hands)
    state, _ = play(state, *actions)
    assert BragState.from_dict(state.to_dict()) == state
    again = replay(BragRules(), ["Ann", "Bob", "Cat"], SEED, [a.to_dict() for a in actions],
                   dealer=2, pack=pack_for(hands, 2))
    assert again == state and again.version == len(actions)


def test_a_seeded_game_replays_exactly():
    state, _ = new_game(BragRules(), ["Ann", "Bob", "Cat"], SEED)
    log = [look(state.turn), bet(state.turn, 3)]
    state, _ = play(state, *log)
    assert replay(BragRules(), ["Ann", "Bob", "Cat"], SEED, log) == state


def test_malformed_input_is_refused_with_a_reason():
    state = rigged(["7H 7S KD", "2C 5D 9H"])
    for data in (None, [], {"kind": "raise"}, {"kind": "bet", "seat": "0"},
                 {"kind": "bet", "seat": 0, "stake": 2.5}, {"kind": "bet", "stake": True}):
        with pytest.raises(IllegalAction) as caught:
            BragAction.from_dict(data)
        assert caught.value.code == "malformed"
    assert BragAction.from_dict({"kind": "bet", "seat": 0, "stake": "4"}) == bet(0, 4)
    refused(state, bet(7, 2), "not_seated")
    refused(state, bet(True, 2), "not_seated")
    refused(state, "fold", "malformed")


def test_the_player_count_must_fit_the_rules():
    with pytest.raises(IllegalAction):
        new_game(BragRules(), ["Ann"], SEED)
    with pytest.raises(IllegalAction):
        new_game(BragRules(), [f"P{i}" for i in range(9)], SEED)
    state, _ = new_game(BragRules(), [f"P{i}" for i in range(8)], SEED)
    assert len(state.pack) == 52 - 24
