"""The state machine, one rule at a time, on rigged deals."""

import pytest

from games.engine import (
    PRESETS,
    Action,
    HouseRules,
    IllegalAction,
    apply,
    dealer_swap,
    discard,
    draw,
    legal_actions,
    new_game,
    next_hand,
    parse_card,
    parse_cards,
    pass_turn,
    stop_bus,
    swap,
    take_discard,
    view_for,
)
from games.engine.game import OVER, SHOWDOWN
from tests.rigging import play, rigged, texts

C = parse_card


def cards(text):
    return list(parse_cards(text))


def refused(state, action, code):
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert info.value.code == code, info.value.message
    assert state.to_dict() == before, "an illegal action changed the state"
    return info.value.message


# -- the widow ------------------------------------------------------------------


def test_swap_takes_a_middle_card_and_leaves_the_given_card_in_its_place():
    s = rigged(hands=["2C 5D 9H", "3C 6D 10H"], widow="QS KS AS", dealer=1)
    assert s.turn == 0
    s2, events = apply(s, swap(0, [C("9H")], [C("KS")]))
    assert sorted(s2.hands[0]) == sorted(cards("2C 5D KS"))
    assert s2.widow == cards("QS 9H AS")
    assert texts(events) == ["P0 swapped 9H for KS"]
    assert s2.turn == 1
    assert s2.version == s.version + 1
    assert s.hands[0] == cards("2C 5D 9H"), "apply must not change the old state"


def test_stop_the_bus_on_the_very_first_turn_then_one_more_turn_each():
    s = rigged(hands=["2C 5D 9H", "3C 6D 10H", "4C 7D JH"], widow="QS KS AS", dealer=2)
    s, events = play(s, stop_bus(0))
    assert texts(events) == ["P0 stopped the bus"]
    assert s.stopper == 0 and s.final_left == [1, 2] and s.turn == 1
    refused(s, stop_bus(1), "already_stopped")
    s, _ = play(s, swap(1, [C("3C")], [C("QS")]))
    assert s.phase == "play" and s.turn == 2
    s, events = play(s, pass_turn(2))
    assert s.phase == SHOWDOWN, "play ends when the turn comes back to the stopper"
    assert texts(events)[0] == "P2 passed"


def test_everyone_else_gets_exactly_one_more_turn():
    s = rigged(hands=["2C 5D 9H", "3C 6D 10H", "4C 7D JH", "8C 8D 2H"], widow="QS KS AS",
               dealer=3)
    s, _ = play(s, swap(0, [C("2C")], [C("QS")]), stop_bus(1))
    assert s.final_left == [2, 3, 0]
    turns = []
    while s.phase == "play":
        turns.append(s.turn)
        s, _ = apply(s, pass_turn(s.turn))
    assert turns == [2, 3, 0]


def test_passing_only_after_the_bus_has_stopped():
    s = rigged(hands=["2C 5D 9H", "3C 6D 10H"], widow="QS KS AS", dealer=1)
    message = refused(s, pass_turn(0), "pass_not_allowed")
    assert message == "Passing is allowed only after the bus has stopped."
    assert all(a.kind != "pass" for a in legal_actions(s, 0))


def test_may_pass_allows_passing_any_time():
    s = rigged(HouseRules(may_pass=True), hands=["2C 5D 9H", "3C 6D 10H"], widow="QS KS AS",
               dealer=1)
    s, events = play(s, pass_turn(0))
    assert s.turn == 1 and s.stopper is None


def test_stop_after_swap():
    rules = HouseRules(stop_after_swap=True)
    s = rigged(rules, hands=["2C 5D 9H", "3C 6D 10H"], widow="QS KS AS", dealer=1)
    s, events = play(s, swap(0, [C("9H")], [C("QS")], stop=True))
    assert texts(events) == ["P0 swapped 9H for QS", "P0 stopped the bus"]
    assert s.stopper == 0 and s.turn == 1
    plain = rigged(hands=["2C 5D 9H", "3C 6D 10H"], widow="QS KS AS", dealer=1)
    refused(plain, swap(0, [C("9H")], [C("QS")], stop=True), "stop_after_swap")


def test_out_of_turn_and_cards_not_held():
    s = rigged(hands=["2C 5D 9H", "3C 6D 10H"], widow="QS KS AS", dealer=1)
    assert refused(s, swap(1, [C("3C")], [C("QS")]), "not_your_turn") == (
        "It is not your turn: it is P0's turn.")
    assert refused(s, swap(0, [C("3C")], [C("QS")]), "card_not_in_hand") == (
        "3C is not in your hand.")
    assert refused(s, swap(0, [C("2C")], [C("JD")]), "not_in_widow") == "JD is not in the middle."
    refused(s, swap(0, [C("2C"), C("5D")], [C("QS"), C("KS")]), "swap_limit")
    refused(s, draw(0), "wrong_exchange")
    refused(s, Action("swap", 0, (C("2C"),), ()), "bad_swap")
    refused(s, Action("swap", 7), "not_seated")
    refused(s, next_hand(), "wrong_phase")


def test_legal_actions_in_the_widow_game():
    s = rigged(hands=["2C 5D 9H", "3C 6D 10H"], widow="QS KS AS", dealer=1)
    kinds = [a.kind for a in legal_actions(s, 0)]
    assert kinds.count("swap") == 9 and kinds.count("stop") == 1 and "pass" not in kinds
    assert legal_actions(s, 1) == []
    for action in legal_actions(s, 0):
        apply(s, action)  # every listed action is accepted


# -- the stock and discard pile -----------------------------------------------------------


def stock_game(**kw):
    return rigged(PRESETS["draw-and-discard"].rules, **kw)


def test_draw_then_discard_any_of_the_four():
    s = stock_game(hands=["2C 5D 9H", "3C 6D 10H"], discard="QS", stock="KH 4S 7C", dealer=1)
    s, events = play(s, draw(0))
    assert C("KH") in s.hands[0] and s.pending == C("KH")
    assert events[0].text == "P0 drew from the stock"
    assert events[0].text_for(0) == "You drew KH from the stock"
    assert events[0].text_for(1) == "P0 drew from the stock"
    refused(s, stop_bus(0), "must_discard")
    s, events = play(s, discard(0, C("KH")))  # the drawn card itself may go
    assert s.discard[-1] == C("KH") and s.turn == 1 and len(s.hands[0]) == 3
    assert texts(events) == ["P0 discarded KH"]


def test_taking_the_discard_then_discarding_a_different_card():
    s = stock_game(hands=["2C 5D 9H", "3C 6D 10H"], discard="4S QS", stock="KH 7C", dealer=1)
    s, events = play(s, take_discard(0))
    assert texts(events) == ["P0 took QS from the discard pile"]
    assert s.known[0] == [C("QS")]
    message = refused(s, discard(0, C("QS")), "same_discard")
    assert message == "You must discard a different card than the discard you took."
    refused(s, discard(0, C("AH")), "card_not_in_hand")
    s, _ = play(s, discard(0, C("2C")))
    assert s.discard == cards("4S 2C")


def test_discarding_before_drawing_is_refused():
    s = stock_game(hands=["2C 5D 9H", "3C 6D 10H"], discard="QS", stock="KH", dealer=1)
    refused(s, discard(0, C("2C")), "must_draw")
    refused(s, swap(0, [C("2C")], [C("QS")]), "wrong_exchange")


def test_empty_stock_is_reshuffled_from_the_discard_pile_but_its_top():
    s = stock_game(hands=["2C 5D 9H", "3C 6D 10H"], discard="4S 8S JD QS", stock="KH",
                   dealer=1)
    s, events = play(s, draw(0), discard(0, C("2C")))
    assert s.discard == [C("2C")]
    assert sorted(s.stock) == sorted(cards("4S 8S JD QS"))
    assert "shuffled into a new stock of 4 cards" in events[-1].text
    assert s.fairness[-1]["label"] == f"hand:{s.hand_no}:reshuffle:1"


def test_stopping_with_the_stock_takes_no_card():
    s = stock_game(hands=["2C 5D 9H", "3C 6D 10H"], discard="QS", stock="KH 4S", dealer=1)
    s, _ = play(s, stop_bus(0))
    assert s.hands[0] == cards("2C 5D 9H") and s.turn == 1
    kinds = {a.kind for a in legal_actions(s, 1)}
    assert kinds == {"draw", "take_discard", "pass"}


# -- blitz -----------------------------------------------------------------------------


def test_blitz_ends_play_at_once():
    rules = PRESETS["thirty-one-blitz"].rules
    s = rigged(rules, hands=["AH KH 2C", "3C 6D 10S", "4C 7D JD"], discard="10H",
               stock="5S 6S", dealer=2)
    s, events = play(s, take_discard(0), discard(0, C("2C")))
    assert "P0 blitzes with Thirty-one, A-K-10 of hearts! Play ends at once." in texts(events)
    assert s.phase == SHOWDOWN and s.blitzer == 0
    assert s.showdown["losers"] == [1]


def test_blitz_needs_the_rule():
    rules = HouseRules(exchange="stock", thirty_one=True)
    s = rigged(rules, hands=["AH KH 2C", "3C 6D 10S"], discard="10H", stock="5S", dealer=1)
    s, _ = play(s, take_discard(0), discard(0, C("2C")))
    assert s.phase == "play"


# -- the showdown ------------------------------------------------------------------------


def showdown_of(rules=None, hands=(), **kw):
    """Play straight to the showdown: the first player stops, the others pass."""
    s = rigged(rules, hands=hands, widow="2S 7S 9S", dealer=len(hands) - 1, **kw)
    first, n = s.turn, len(hands)
    return play(s, stop_bus(first), *[pass_turn((first + i) % n) for i in range(1, n)])


def test_worst_hand_loses_a_life():
    s, events = showdown_of(hands=["AC AD 4H", "2C 5D 8H", "KC KD 3H"])
    assert s.showdown["losers"] == [1]
    assert s.lives == [3, 2, 3]
    assert "P1 lost a life (2 lives left)" in texts(events)


def test_everyone_tied_for_worst_loses_with_share():
    s, _ = showdown_of(hands=["AC AD 4H", "2C 5D 8H", "2D 5H 8C"])
    assert sorted(s.showdown["losers"]) == [1, 2]
    assert s.lives == [3, 2, 2]


def test_suits_decide_a_tie():
    s, _ = showdown_of(HouseRules(tie_rule="suits"), hands=["AC AD 4H", "2C 5D 8H",
                                                            "2D 5H 8C"])
    assert s.showdown["losers"] == [2]  # 8C is worse than 8H


def test_stopper_penalty():
    s, events = showdown_of(HouseRules(stopper_penalty=2), hands=["2C 5D 8H", "AC AD 4H"])
    assert s.lives == [1, 3]
    assert "P0 lost 2 lives (the stopper's penalty) (1 life left)" in texts(events)
    s, _ = showdown_of(HouseRules(stopper_penalty=2), hands=["AC AD 4H", "2C 5D 8H"])
    assert s.lives == [3, 2], "only the stopper pays the penalty"


def test_floating_then_out():
    s, events = showdown_of(hands=["AC AD 4H", "2C 5D 8H", "KC KD 3H"], lives=[3, 1, 3])
    assert s.lives[1] == 0 and not s.out[1] and s.floating(1)
    assert "P1 lost a life and is floating" in texts(events)
    s2, events = showdown_of(hands=["AC AD 4H", "2C 5D 8H", "KC KD 3H"], lives=[3, 0, 3])
    assert s2.out[1] and s2.places[1] == 3
    assert "P1 has the worst hand and is out in 3rd place" in texts(events)


def test_without_floating_zero_lives_is_out():
    rules = HouseRules(floating=False)
    s, _ = showdown_of(rules, hands=["AC AD 4H", "2C 5D 8H", "KC KD 3H"], lives=[3, 1, 3])
    assert s.out[1] and s.places[1] == 3


def test_nobody_is_put_out_if_everyone_would_be():
    s, events = showdown_of(hands=["2D 5H 8C", "2C 5D 8H"], lives=[0, 0])
    assert s.showdown["void"] and s.phase == SHOWDOWN
    assert s.lives == [0, 0] and s.out == [False, False]
    assert "nobody loses a life" in texts(events)[-1]


def test_players_out_at_the_same_showdown_share_a_place():
    s, events = showdown_of(hands=["AC AD 4H", "2C 5D 8H", "2D 5H 8C", "KC KD 3H"],
                            lives=[3, 0, 0, 3])
    assert s.out == [False, True, True, False]
    assert s.places[1] == s.places[2] == 3
    assert "P1 has the worst hand and is out in 3rd place (shared)" in texts(events)


def test_last_player_in_wins():
    s, events = showdown_of(hands=["AC AD 4H", "2C 5D 8H"], lives=[1, 0])
    assert s.phase == OVER and s.winner == 0 and s.places == [1, 2]
    assert texts(events)[-1] == "P0 wins the game!"
    message = refused(s, next_hand(), "game_over")
    assert message == "The game is over."
    refused(s, stop_bus(0), "game_over")


# -- dealing and rotation ------------------------------------------------------------------


def test_first_dealer_is_the_lowest_cut_card():
    s, events = new_game(HouseRules(), ["A", "B", "C", "D"], bytes(32))
    assert s.dealer == min(range(4), key=lambda i: s.cut[i])
    assert events[0].text.startswith("Cut for the deal: A ")
    assert "has the lowest card and deals" in events[0].text
    assert s.turn == s.starter == (s.dealer + 1) % 4
    assert [len(h) for h in s.hands] == [3, 3, 3, 3] and len(s.widow) == 3


def test_deal_is_one_card_at_a_time_from_the_dealers_left():
    from games.engine.fairness import shuffled

    s, _ = new_game(HouseRules(), ["A", "B", "C"], bytes(32))
    deck = shuffled(bytes(32), "hand:1")
    order = [(s.dealer + 1 + i) % 3 for i in range(3)]
    for round_ in range(3):
        for i, seat in enumerate(order):
            assert s.hands[seat][round_] == deck[round_ * 3 + i]
    assert s.widow == deck[9:12]


def test_the_deal_passes_left():
    s, _ = showdown_of(hands=["AC AD 4H", "2C 5D 8H", "KC KD 3H"])
    dealer = s.dealer
    s, events = play(s, next_hand())
    assert s.dealer == (dealer + 1) % 3 and s.turn == (dealer + 2) % 3
    assert s.hand_no == 2 and events[0].text.startswith("Hand 2: P")


def test_the_same_player_deals_again_if_the_next_dealer_was_just_put_out():
    # dealer 2; P0 starts; P0 is put out: P2 deals again and P1 starts
    s = rigged(hands=["2C 5D 8H", "AC AD 4H", "KC KD 3H"], widow="2S 7S 9S", dealer=2,
               lives=[0, 3, 3])
    s, _ = play(s, stop_bus(0), pass_turn(1), pass_turn(2))
    assert s.out[0]
    s, _ = play(s, next_hand())
    assert s.dealer == 2 and s.turn == 1


def test_cards_dealt_only_to_players_still_in():
    s = rigged(hands=["2C 5D 8H", "AC AD 4H", "KC KD 3H"], widow="2S 7S 9S", dealer=2,
               lives=[0, 3, 3])
    s, _ = play(s, stop_bus(0), pass_turn(1), pass_turn(2), next_hand())
    assert s.hands[0] == [] and len(s.hands[1]) == len(s.hands[2]) == 3
    assert refused(s, stop_bus(0), "out") == "You are out of the game."


# -- points and pot ----------------------------------------------------------------------------


def test_points_best_hand_scores_and_first_to_target_alone_wins():
    rules = PRESETS["race-to-five"].rules
    s, events = showdown_of(rules, hands=["AC AD 4H", "2C 5D 8H"], points=[4, 4])
    assert s.points == [5, 4] and s.phase == OVER and s.winner == 0
    assert "P0 has the best hand and scores a point (5)" in texts(events)


def test_points_tie_at_the_target_plays_on():
    rules = PRESETS["race-to-five"].rules
    s, _ = showdown_of(rules, hands=["2D 5H 8C", "2C 5D 8H", "2H 3C 6D"], points=[4, 4, 0])
    assert s.points == [5, 5, 0] and s.phase == SHOWDOWN


def test_pot_winner_takes_it_and_broke_players_are_out():
    rules = PRESETS["commerce"].rules
    s = rigged(rules, hands=["AC AD 4H", "2C 5D 8H", "KC KD 3H"], widow="2S 7S 9S",
               dealer=2, chips=[9, 0, 9], pot=3)
    s.phase = "play"
    s.turn = 0
    s, events = play(s, stop_bus(0), pass_turn(1), pass_turn(2))
    assert s.chips == [12, 0, 9] and s.pot == 0
    assert "P0 wins the pot of 3 chips" in texts(events)
    assert s.out[1] and s.places[1] == 3


def test_a_split_pot_gives_the_odd_chip_nearest_the_dealers_left():
    rules = PRESETS["commerce"].rules
    s = rigged(rules, hands=["2D 5H 9C", "2C 5D 9H", "2H 3D 4C"], widow="2S 7S 9S",
               dealer=2, chips=[5, 5, 5], pot=5)
    s.phase, s.turn = "play", 0
    s, events = play(s, stop_bus(0), pass_turn(1), pass_turn(2))
    assert s.showdown["winners"] == [0, 1]
    assert s.chips == [8, 7, 5]
    assert "P0 and P1 split the pot of 5 chips" in texts(events)


# -- Commerce ----------------------------------------------------------------------------------


def test_commerce_swaps_up_to_three_and_three_only_once():
    # Commerce is for 3 to 10 players: P2 only takes its turn between P1's.
    rules = HouseRules(ranking="commerce", swap_limit=3, min_players=3)
    s = rigged(rules, hands=["2C 5D 8H", "AC AD 4H", "KC KD 3H"], widow="2S 7S 9S",
               dealer=2)
    s, events = play(s, swap(0, cards("2C 5D"), cards("2S 7S")))
    assert texts(events) == ["P0 swapped 2C, 5D for 2S, 7S"]
    s, _ = play(s, swap(1, cards("AC AD 4H"), cards("2C 5D 9S")))
    assert s.three_swapped[1]
    s, _ = play(s, swap(2, cards("3H"), cards("4H")))
    s, _ = play(s, swap(0, cards("8H"), cards("AC")))
    assert refused(s, swap(1, cards("2C 5D 9S"), cards("AD 3H 8H")), "three_swap_used") == (
        "You have already swapped three cards at once this hand.")
    assert [a for a in legal_actions(s, 1) if len(a.give) == 3] == []


def test_commerce_knocks():
    rules = PRESETS["commerce"].rules
    s = rigged(rules, hands=["2C 5D 8H", "AC AD 4H", "KC KD 3H"], widow="2S 7S 9S", dealer=2)
    s.phase, s.turn = "play", 0
    s, events = play(s, stop_bus(0))
    assert texts(events) == ["P0 knocked"]
    assert refused(s, stop_bus(1), "already_stopped") == "P0 has already knocked."


def test_commerce_dealer_swaps_unseen_before_play():
    rules = PRESETS["commerce"].rules
    s, _ = new_game(rules, ["A", "B", "C"], bytes(32))
    assert s.phase == "dealer_swap" and s.turn == s.dealer
    dealer_view = view_for(s, s.dealer)
    assert dealer_view["hand"] is None and dealer_view["hand_hidden"]
    other = (s.dealer + 1) % 3
    assert view_for(s, other)["hand"] is not None
    refused(s, stop_bus(s.dealer), "wrong_phase")
    refused(s, stop_bus(other), "not_your_turn")
    hand, widow = s.hands[s.dealer][:], s.widow[:]
    s2, events = play(s, dealer_swap(s.dealer, (0, 1, 2), widow))
    assert sorted(s2.hands[s.dealer]) == sorted(widow)
    assert sorted(s2.widow) == sorted(hand)
    assert s2.three_swapped[s.dealer] and s2.phase == "play" and s2.turn == s.starter
    assert "swapped 3 cards unseen" in texts(events)[0]
    kept, _ = play(s, dealer_swap(s.dealer))
    assert kept.hands == s.hands and "keeps the dealt hand" in texts(_)[0]
    refused(s, dealer_swap(s.dealer, (0, 0), widow[:2]), "bad_swap")


# -- actions from untrusted data ------------------------------------------------------------


@pytest.mark.parametrize("data", [
    None, [], "swap", {"kind": "fly"}, {"kind": "swap", "give": "XX"},
    {"kind": "swap", "give": ["QS"] * 4}, {"kind": "swap", "seat": "0"},
    {"kind": "dealer_swap", "positions": ["a"]}, {"kind": "swap", "stop": "yes"},
    {"kind": "swap", "give": 5},
])
def test_malformed_action_data(data):
    with pytest.raises(IllegalAction) as info:
        Action.from_dict(data)
    assert info.value.code == "malformed"


def test_action_round_trip():
    action = swap(0, cards("QS 10H"), cards("AD 2C"), stop=True)
    assert Action.from_dict(action.to_dict()) == action
    assert action.to_dict() == {"kind": "swap", "seat": 0, "give": ["QS", "10H"],
                                "take": ["AD", "2C"], "stop": True}
