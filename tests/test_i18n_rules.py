"""The variant summary and the house-rule words in English and Japanese (games/rules_text.py)."""

import itertools

import pytest
from django.utils import translation

from games.engine.bots import BOT_LEVELS
from games.engine.brag import BRAG_PRESETS
from games.engine.rules import (
    ACE_LOW_RUNS,
    EXCHANGES,
    PRESETS,
    RANKINGS,
    RULE_NAMES,
    SCORINGS,
    TIE_RULES,
    HouseRules,
    RulesError,
    describe_rules,
)
from games.models import Variant
from games.rules_text import (
    CHOICE_LABELS,
    PRESET_WORDS,
    RULE_LABELS,
    describe,
    preset_words,
    translate_stored,
)
from tests.test_i18n_events import english_left


def every_rules():
    """Valid house rules across every option that changes a sentence of the summary."""
    options = itertools.product(
        EXCHANGES, RANKINGS, (True, False), ACE_LOW_RUNS, TIE_RULES, (False, True),
        (False, True), (1, 2, 3), SCORINGS, (1, 2), (1, 3), (False, True))
    for (exchange, ranking, threes_high, ace_low_run, tie_rule, thirty_one, blitz, swap_limit,
         scoring, stopper_penalty, starting, floating) in options:
        for extra in ({}, {"blitz_prials": True, "may_pass": True, "stop_after_swap": True,
                           "dealer_blind_swap": True}):
            try:
                yield HouseRules(
                    exchange=exchange, ranking=ranking, threes_high=threes_high,
                    ace_low_run=ace_low_run, tie_rule=tie_rule, thirty_one=thirty_one,
                    blitz=blitz, swap_limit=swap_limit, scoring=scoring,
                    stopper_penalty=stopper_penalty, starting_lives=starting,
                    starting_chips=starting + 1, target_points=starting, floating=floating,
                    **extra)
            except RulesError:
                continue


def test_english_summary_is_the_engines_word_for_word():
    checked = 0
    with translation.override("en-gb"):
        for rules in every_rules():
            assert describe(rules) == describe_rules(rules), rules
            checked += 1
    assert checked > 1000


def test_one_chip_is_singular():
    """The one place the summary does not copy the engine: it says "1 chips"."""
    rules = HouseRules(scoring="pot", starting_chips=1)
    with translation.override("en-gb"):
        assert "Everyone starts with 1 chip and antes 1 a hand" in describe(rules)[-2]
    assert "Everyone starts with 1 chips" in describe_rules(rules)[-2]


def test_japanese_summary_is_plain_japanese():
    with translation.override("ja"):
        for rules in every_rules():
            lines = describe(rules)
            assert len(lines) == len(describe_rules(rules))
            for line in lines:
                assert english_left(line) == [], line
        classic = describe(HouseRules())
    assert ("場に3枚のカードが表向きに置かれます。"
            "自分の手番に、手札1枚をそのうちの1枚と交換します。") in classic
    assert any("バスを止め" in line for line in classic)
    assert any("プライアル＞ランニング・フラッシュ＞ラン＞フラッシュ＞ペア" in line
               for line in classic)


def test_preset_words_are_all_marked_and_translated():
    assert preset_words() == set(PRESET_WORDS)
    with translation.override("ja"):
        for preset in PRESETS.values():
            for words in (preset.name, preset.description):
                translated = translate_stored(words)
                assert translated != words
                assert english_left(translated.replace("pagat.com", "")
                                    .replace("seed", "")) == [], translated
        assert translate_stored("Our Friday house rules") == "Our Friday house rules"


def test_engine_option_labels_are_marked_for_translation():
    labels = set()
    for options in (EXCHANGES, RANKINGS, ACE_LOW_RUNS, TIE_RULES, SCORINGS, BOT_LEVELS):
        labels |= set(options.values())
    assert labels == set(CHOICE_LABELS)


def test_house_rule_fields_and_choices_speak_japanese():
    with translation.override("ja"):
        field = Variant._meta.get_field("ranking")
        assert str(field.help_text).startswith("ブラッグの手役")
        assert dict(field.choices)["brag"] == "ブラッグの手役"
        assert dict(Variant._meta.get_field("scoring").choices)["lives"] == "ライフ"
        for name in RULE_NAMES:
            assert english_left(str(RULE_LABELS[name])) == [], name
            help_text = str(Variant._meta.get_field(name).help_text)
            assert help_text and english_left(help_text) == [], (name, help_text)
    with translation.override("en-gb"):
        assert str(Variant._meta.get_field("threes_high").help_text).startswith("3-3-3 is")


def every_brag_rules():
    """Brag rules across every option that changes a sentence of its summary."""
    from games.engine.brag.rules import BragRules

    # ante 0 ("no ante", needs a number of hands) and max_raise 0 ("fixed stakes") included
    options = itertools.product((1, 100), (0, 1, 2), (0, 10), (True, False),
                                ("limit", "pot_limit"), (True, False), ("top", "bottom", "none"),
                                ("prial_only", "every_hand"), (0, 50))
    for (chips, ante, max_raise, blind, betting, threes_high, ace_low_run, shuffle,
         hands) in options:
        if ante > chips or (ante == 0 and hands == 0):
            continue
        yield BragRules(starting_chips=chips, ante=ante, max_raise=max_raise, blind_play=blind,
                        betting=betting, threes_high=threes_high, ace_low_run=ace_low_run,
                        shuffle=shuffle, max_hands=hands)


def test_brag_summary_is_the_engines_in_english_and_plain_japanese():
    from games.rules_text import describe_brag

    checked = 0
    for rules in every_brag_rules():
        with translation.override("en-gb"):
            assert describe_brag(rules) == rules.summary(), rules
        with translation.override("ja"):
            lines = describe_brag(rules)
        assert len(lines) == len(rules.summary())
        for line in lines:
            assert english_left(line) == [], line
        checked += 1
    assert checked > 100


@pytest.mark.django_db
def test_no_preset_speaks_of_the_seed_to_a_player(client):
    """"The seed" is where the rules came from, not a word for players: the migrated
    presets, the engines' own and the lobby say what each game is instead."""
    for variant in Variant.objects.all():
        assert "seed" not in variant.description.lower(), variant.slug
        assert "seed" not in variant.name.lower(), variant.slug
    for preset in [*PRESETS.values(), *BRAG_PRESETS.values()]:
        assert "seed" not in preset.description.lower(), preset.slug
    assert "seed" not in client.get("/").content.decode().lower()
