"""Game events, hands and cards in English and Japanese (games/event_text.py).

English must be word for word what the engine writes today (``Event.text_for``), so
that pages can switch to the translated sentences without changing anything for
English readers; Japanese must leave no English sentence behind.
"""

import itertools
import re

import pytest
from django.utils import translation

from games.engine.cards import NAMES, PACK, code
from games.engine.game import Event, apply, draw, new_game
from games.engine.ranking import RankingConfig, ranking_for
from games.engine.rules import HouseRules
from games.event_text import (
    CATEGORY_LABELS,
    EVENT_KINDS,
    card_name,
    category_label,
    event_text,
    hand_words,
    place_label,
)
from tests.i18n_games import NAMES as PLAYER_NAMES
from tests.i18n_games import rare_events, simulated_events

# Card codes and runs of ranks are the same in every language.
CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9JQKA])[CDHS](?![A-Za-z])")
RANK_RUN = re.compile(r"(?<![A-Za-z])(?:10|[2-9JQKA])(?:-(?:10|[2-9JQKA]))+(?![A-Za-z])")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# The deal's commitment is published in the log: a hash is not words in any language.
HASH = re.compile(r"SHA-256|(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")


def english_left(text: str) -> list[str]:
    """Latin words left once card codes, runs and hashes are taken out (names here are
    Japanese)."""
    return LATIN_WORD.findall(RANK_RUN.sub(" ", CARD_CODE.sub(" ", HASH.sub(" ", text))))


@pytest.fixture(scope="module")
def events():
    """A few thousand events of bot games under many house rules, and the rare ones."""
    found = list(simulated_events(games_per_rules=2)) + list(rare_events())
    assert len(found) > 3000
    return found


def test_every_event_kind_the_engine_emits_is_covered(events):
    kinds = {event.kind for _, _, event in events}
    assert kinds == set(EVENT_KINDS)


def test_english_is_exactly_the_engines_text_for_every_viewer(events):
    compared = 0
    with translation.override("en-gb"):
        for rules, names, event in events:
            as_stored = event.to_dict()
            for viewer in (None, *range(len(names))):
                assert event_text(as_stored, names, viewer, ranking=rules.ranking) == (
                    event.text_for(viewer)), (event.kind, viewer)
                compared += 1
    assert compared > 15000


def test_japanese_has_no_untranslated_sentence(events):
    with translation.override("ja"):
        for rules, names, event in events:
            for viewer in (None, event.seat):
                text = event_text(event.to_dict(), names, viewer, ranking=rules.ranking)
                assert text and text != event.text_for(viewer), event.kind
                assert english_left(text) == [], (event.kind, text)


def test_each_reader_gets_their_own_language_from_one_stored_event():
    """Two players at one table, one reading English and one Japanese."""
    rules = HouseRules(exchange="stock")
    names = ("Alice", "さくら")
    state, _ = new_game(rules, names, b"two readers")
    seat = state.turn
    state, (drew,) = apply(state, draw(seat))
    stored = drew.to_dict()
    card = stored["private_data"]["card"]
    me, other = names[seat], names[1 - seat]
    with translation.override("en-gb"):
        assert event_text(stored, names, seat) == f"You drew {card} from the stock"
        assert event_text(stored, names, 1 - seat) == f"{me} drew from the stock"
    with translation.override("ja"):
        assert event_text(stored, names, seat) == f"あなたは山札から{card}を引きました"
        assert event_text(stored, names, 1 - seat) == f"{me}が山札から1枚引きました"
    assert other != me


def test_a_drawn_card_is_named_only_to_the_player_who_drew_it(events):
    for language in ("en-gb", "ja"):
        with translation.override(language):
            for _, names, event in events:
                if event.kind != "draw":
                    continue
                card = event.private_data["card"]
                stored = event.to_dict()
                public = {k: v for k, v in stored.items() if k not in ("private", "private_data")}
                assert card not in str(public)
                for viewer in (None, *range(len(names))):
                    text = event_text(event.to_dict(), names, viewer)
                    assert (card in text) == (viewer == event.seat), (language, viewer, text)


def test_an_event_stored_before_events_carried_parameters_keeps_its_words():
    """Games in progress when this shipped still have old events in their logs."""
    old = {"kind": "deal", "text": "Hand 2: Bob deals. The widow: QS, 3H, 4D.",
           "data": {"hand": 2, "dealer": 1, "commitment": "ab"}}
    with translation.override("ja"):
        assert event_text(old, ("Ann", "Bob"), None) == old["text"]
        assert event_text({"kind": "new_kind", "text": "Something new"}, (), None) == (
            "Something new")
        assert event_text(Event("pass", "Bob passed", 1), ("Ann", "Bob")) == "Bobがパスしました"


RANKING_CONFIGS = [
    RankingConfig(),
    RankingConfig(threes_high=False, ace_low_run="none"),
    RankingConfig(ace_low_run="bottom", suit_tiebreak=True),
    RankingConfig(thirty_one=True, blitz_prials=True),
    RankingConfig(kind="commerce"),
]


@pytest.mark.parametrize("config", RANKING_CONFIGS, ids=lambda c: f"{c.kind}-{c.ace_low_run}"
                         f"-{'31' if c.thirty_one else 'no31'}")
def test_hand_words_say_every_hand_as_the_engine_does_in_english(config):
    ranking = ranking_for(config)
    with translation.override("en-gb"):
        for value in ranking.values:
            words = hand_words(value.category, [code(c) for c in value.cards], config.kind)
            assert words == value.description
    with translation.override("ja"):
        for value in ranking.values[::97]:  # a spread of every kind, in Japanese
            words = hand_words(value.category, [code(c) for c in value.cards], config.kind)
            assert english_left(words) == [], words


def test_hand_words_in_japanese_use_the_seeds_terms():
    with translation.override("ja"):
        assert hand_words("run", ["QS", "KD", "AC"]) == "ラン（Q-K-A）"
        assert hand_words("running_flush", ["3H", "2H", "AH"]) == "ランニング・フラッシュ（A-2-3）"
        assert hand_words("prial", ["3S", "3H", "3D"]) == "3のプライアル"
        assert hand_words("prial", ["QS", "QH", "QD"]) == "クイーンのプライアル"
        assert hand_words("pair", ["5S", "5H", "9C"]) == "5のペア（キッカー：9）"
        assert hand_words("flush", ["JS", "9S", "2S"]) == "フラッシュ（J-9-2）"
        assert hand_words("thirty_one", ["AH", "KH", "10H"]) == "31（ハートのA-K-10）"
        assert [category_label(k) for k in ("prial", "running_flush", "run", "flush", "pair")] \
            == ["プライアル", "ランニング・フラッシュ", "ラン", "フラッシュ", "ペア"]
        assert set(map(str, CATEGORY_LABELS.values())).isdisjoint(
            {"Prial", "Run", "Flush", "Pair", "High card"})


def test_card_names_for_screen_readers():
    with translation.override("en-gb"):
        assert [card_name(c) for c in PACK] == list(NAMES)
        assert card_name("QS") == "Queen of spades"
    with translation.override("ja"):
        assert card_name("QS") == "スペードのクイーン"
        assert card_name("10H") == "ハートの10"
        assert card_name("AD") == "ダイヤのエース"
        names = [card_name(c) for c in PACK]
        assert len(set(names)) == 52
        assert all(english_left(n) == [] for n in names)


def test_places_follow_the_language():
    with translation.override("en-gb"):
        assert [place_label(n) for n in (1, 2, 3, 4, 11)] == ["1st", "2nd", "3rd", "4th", "11th"]
    with translation.override("ja"):
        assert [place_label(n) for n in (1, 2, 3)] == ["1位", "2位", "3位"]


def test_plurals_follow_the_language():
    rules = HouseRules(exchange="stock")
    names = PLAYER_NAMES[:2]
    swap_one = {"kind": "dealer_swap", "text": "", "seat": 0,
                "data": {"take": ["QS"], "give": ["2C"]}}
    swap_two = {"kind": "dealer_swap", "text": "", "seat": 0,
                "data": {"take": ["QS", "KS"], "give": ["2C", "3C"]}}
    with translation.override("en-gb"):
        assert "1 card unseen" in event_text(swap_one, names, None, ranking=rules.ranking)
        assert "2 cards unseen" in event_text(swap_two, names, None, ranking=rules.ranking)
    with translation.override("ja"):
        assert "手札1枚" in event_text(swap_one, names, None)
        assert "手札2枚" in event_text(swap_two, names, None)


def test_the_english_check_catches_english():
    """english_left is what the Japanese tests rest on: it must see English words."""
    assert english_left("Alice stopped the bus") == ["Alice", "stopped", "the", "bus"]
    assert english_left("さくらがQSを10Hと交換しました（Q-K-A、3-A-K）") == []
    assert english_left("ランドAS") == [] and english_left("AS is") == ["is"]
    assert list(itertools.islice(simulated_events(games_per_rules=1), 1))


def test_templates_reach_the_same_words_through_i18n_cards():
    from django.template import Context, Template

    template = Template('{% load i18n_cards %}{{ "QS"|card_name }}|{{ card|card_name }}|'
                        '{% hand_words "run" cards %}|{{ "prial"|category_label }}|'
                        '{% hand_words "flush" flush "commerce" %}')
    context = Context({"card": {"code": "10H"}, "cards": ["QS", "KD", "AC"],
                       "flush": ["AS", "KS", "4S"]})
    with translation.override("en-gb"):
        assert template.render(context) == (
            "Queen of spades|Ten of hearts|Run, Q-K-A|Prial|Flush, 25 points (A-K-4)")
    with translation.override("ja"):
        assert template.render(context) == (
            "スペードのクイーン|ハートの10|ラン（Q-K-A）|プライアル|フラッシュ（25点、A-K-4）")
