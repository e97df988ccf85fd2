"""Cards and the hand ranking, with the seeds' own examples."""

import itertools

import pytest

from games.engine import CardError, HouseRules, RankingConfig, evaluate_hand, ranking_for
from games.engine.cards import PACK, code, name, parse_card, parse_cards, symbol


def value(hand, **rules):
    return evaluate_hand(hand, HouseRules(**rules))


def beats(a, b, **rules):
    return value(a, **rules).strength > value(b, **rules).strength


# -- cards --------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("QS", "QS"), ("10H", "10H"), ("TS", "10S"), ("ad", "AD"), ("2c", "2C"),
    (" 9d ", "9D"), ("A\u2660", "AS"), ("1h", "AH"),
])
def test_parse_and_format_codes(text, expected):
    assert code(parse_card(text)) == expected


@pytest.mark.parametrize("bad", ["", "Q", "QX", "11S", "ZZ", "10", "QSS", None, 52, "\u2660"])
def test_bad_codes_raise_a_clear_error(bad):
    with pytest.raises(CardError, match="card"):
        parse_card(bad)


def test_names_for_screen_readers():
    assert name(parse_card("QS")) == "Queen of spades"
    assert name(parse_card("10H")) == "Ten of hearts"
    assert name(parse_card("AD")) == "Ace of diamonds"
    assert name(parse_card("2C")) == "Two of clubs"
    assert symbol(parse_card("KH")) == "K\u2665"


def test_the_pack_is_52_distinct_cards_that_round_trip():
    assert len(PACK) == 52
    assert len({code(c) for c in PACK}) == 52
    assert [parse_card(code(c)) for c in PACK] == list(PACK)


def test_parse_cards_accepts_text_and_lists():
    assert parse_cards("QS 10H, AD") == parse_cards(["QS", "10H", "AD"])


# -- counts -------------------------------------------------------------------


def test_counts_over_all_22100_hands():
    counts = ranking_for(RankingConfig()).category_counts()
    assert counts == {"prial": 52, "running_flush": 48, "run": 720, "flush": 1096,
                      "pair": 3744, "high_card": 16440}
    assert sum(counts.values()) == 22100


def test_counts_without_ace_low_runs():
    counts = ranking_for(RankingConfig(ace_low_run="none")).category_counts()
    assert counts["running_flush"] == 44
    assert counts["run"] == 660


def test_commerce_counts():
    counts = ranking_for(RankingConfig(kind="commerce")).category_counts()
    assert counts == {"tricon": 52, "sequence": 48, "flush": 1096, "pair": 3744,
                      "point": 17160}


def test_every_ordering_of_a_hand_is_the_same_value():
    ranking = ranking_for(RankingConfig())
    for combo in [(0, 17, 51), (4, 5, 6), (12, 30, 44)]:
        values = {ranking.evaluate(p) for p in itertools.permutations(combo)}
        assert len(values) == 1
    assert len(ranking.table) == 22100 * 6


# -- the seeds' examples ------------------------------------------------------


def test_flush_j92_beats_j87():
    assert beats("JS 9S 2S", "JH 8H 7H")


def test_pair_553_beats_44k():
    assert beats("5S 5H 3C", "4S 4H KC")


def test_pair_compares_kicker_when_pairs_equal():
    assert beats("5S 5H 9C", "5D 5C 8C")


def test_threes_are_the_best_prial_by_default():
    assert beats("3S 3H 3C", "AS AH AC")
    assert beats("AS AH AC", "KS KH KC")
    assert beats("4S 4H 4C", "2S 2H 2C")


def test_aces_high_prials_when_threes_high_is_off():
    assert beats("AS AH AC", "3S 3H 3C", threes_high=False)
    assert beats("3S 3H 3C", "2S 2H 2C", threes_high=False)


def test_category_order():
    order = ["2S 2H 2C", "4H 5H 6H", "4H 5S 6H", "2H 9H KH", "2S 2H 3C", "AS KH 9C"]
    for better, worse in itertools.pairwise(order):
        assert beats(better, worse), (better, worse)


def test_ace_two_three_at_the_top():
    assert beats("AS 2H 3C", "QS KH AC")
    assert beats("AS 2S 3S", "QH KH AH")
    assert value("AS 2H 3C").description == "Run, A-2-3"


def test_ace_two_three_at_the_bottom():
    assert beats("2S 3H 4C", "AS 2H 3C", ace_low_run="bottom")
    assert value("AS 2H 3C", ace_low_run="bottom").category == "run"
    assert beats("AS 2H 3C", "AS KH 9C", ace_low_run="bottom")


def test_ace_two_three_is_no_run_with_none():
    v = value("AS 2H 3C", ace_low_run="none")
    assert v.category == "high_card"
    assert value("AS 2S 3S", ace_low_run="none").category == "flush"
    assert beats("QS KH AC", "JS QH KC", ace_low_run="none")


@pytest.mark.parametrize("ace_low_run", ["top", "bottom", "none"])
def test_king_ace_two_is_never_a_run(ace_low_run):
    assert value("KS AH 2C", ace_low_run=ace_low_run).category == "high_card"
    assert value("KS AS 2S", ace_low_run=ace_low_run).category == "flush"


def test_descriptions():
    assert value("5S 5H 9C").description == "Pair of fives, nine kicker"
    assert value("QS KH AC").description == "Run, Q-K-A"
    assert value("JS 9S 2S").description == "Flush, J-9-2"
    assert value("3S 3H 3C").description == "Prial of threes"
    assert value("4H 5H 6H").description == "Running flush, 4-5-6"
    assert value("AS JH 4C").description == "High card, A-J-4"


def test_equal_hands_tie_with_share():
    a, b = value("5S 5H 9C"), value("5D 5C 9D")
    assert a.strength == b.strength


def test_suits_break_ties_by_the_highest_card():
    rules = {"tie_rule": "suits"}
    # same ranks: the hand whose highest card is a spade wins
    assert beats("KS 9H 4C", "KH 9S 4D", **rules)
    # two cards of the top rank: the better of them counts (KS in the pair)
    assert beats("KS KC 4D", "KH KD 4C", **rules)
    # a different rank still decides first
    assert beats("AC 9H 4C", "KS 9S 4D", **rules)


def test_suits_always_decide_between_hands_from_one_pack():
    ranking = HouseRules(tie_rule="suits").hand_ranking
    by_strength = {}
    for hand in itertools.combinations(PACK, 3):
        by_strength.setdefault(ranking.evaluate(hand).strength, []).append(set(hand))
    for hands in by_strength.values():
        for a, b in itertools.combinations(hands, 2):
            assert a & b, "two disjoint hands share a strength"


def test_thirty_one_beats_every_prial():
    rules = {"thirty_one": True}
    assert value("AH KH 10H", **rules).category == "thirty_one"
    assert beats("AH KH 10H", "3S 3H 3C", **rules)
    assert value("AH KH QH", **rules).category == "thirty_one"  # suited A-K-Q counts
    assert value("AH KH 9H", **rules).category == "flush"  # 30
    assert value("AH KS 10H", **rules).category == "high_card"
    assert value("AH KH 10H", **rules).blitz


def test_blitz_prials_rank_above_thirty_one():
    rules = {"thirty_one": True, "blitz": True, "blitz_prials": True}
    assert beats("3S 3H 3C", "AH KH 10H", **rules)
    assert beats("AS AH AC", "AD KD 10D", **rules)
    assert beats("3S 3H 3C", "AS AH AC", **rules)
    assert value("AS AH AC", **rules).blitz
    assert not value("KS KH KC", **rules).blitz
    assert beats("AD KD 10D", "KS KH KC", **rules)


def test_commerce_ranking():
    rules = {"ranking": "commerce", "min_players": 3}  # Commerce is for 3 to 10
    assert beats("AS AH AC", "3S 3H 3C", **rules)  # aces high
    assert beats("2S 2H 2C", "QH KH AH", **rules)  # tricon over sequence
    assert beats("QH KH AH", "2H 3H 4H", **rules)
    assert beats("2H 3H 4H", "AH 2H 3H", **rules)  # 3-2-A is the lowest sequence
    assert value("AS 2H 3C", **rules).category == "point"  # mixed-suit run is point
    assert value("QS KH AC", **rules).category == "point"
    assert beats("2H 5H 9H", "AS AH KC", **rules)  # any flush beats a pair
    assert beats("KS JS 9S", "KH QH 8H", **rules)  # flushes by point first: 29 > 28
    assert value("AS KH 9C", **rules).description == "Point 30 (A-K-9)"
    assert value("KH QH 8H", **rules).description == "Flush, 28 points (K-Q-8)"


def test_commerce_point_compares_total_first():
    rules = {"ranking": "commerce", "min_players": 3}  # Commerce is for 3 to 10
    assert beats("KS QH 8C", "AS 9H 2C", **rules)  # 28 points beat 22, ace or not
    assert beats("AS 9H 8C", "KS QH 8C", **rules)  # equal point (28): highest card
