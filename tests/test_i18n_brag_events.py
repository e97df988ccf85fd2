"""Three Card Brag's events in English and Japanese (games/event_text.py,
``brag_event_text``): in English word for word the engine's text for every viewer, in
Japanese no English left; words it cannot read back are shown as stored."""

import random
import re

import pytest
from django.utils import translation

from games.engine.brag import BRAG_PRESETS, BragRules, apply, make_bot, new_game, next_hand
from games.engine.brag.game import OVER, SHOWDOWN
from games.engine.brag.views import seat_view
from games.event_text import BRAG_EVENT_KINDS, brag_event_text
from tests.i18n_games import NAMES
from tests.test_i18n_events import english_left

# A deal names the first twelve digits of its pack's commitment: a hash, not words.
HASH_PREFIX = re.compile(r"\b[0-9a-f]{12}…")

RULE_SETS = [p.rules for p in BRAG_PRESETS.values()] + [
    BragRules(starting_chips=6),  # covers, closed pots and players out
    BragRules(starting_chips=4, ante=2),
    BragRules(blind_play=False, shuffle="every_hand"),
]


def brag_events(games_per_rules=5, seed=23):
    """(names, event) of bot games under RULE_SETS."""
    rng = random.Random(seed)
    for r, rules in enumerate(RULE_SETS):
        for g in range(games_per_rules):
            names = NAMES[:rng.randint(2, 4)]
            bots = [make_bot(rng.choice(("random", "greedy")), rules, random.Random(rng.random()))
                    for _ in names]
            state, events = new_game(rules, names, f"brag-i18n:{seed}:{r}:{g}".encode())
            yield from ((names, e) for e in events)
            for _ in range(5000):
                if state.phase == OVER:
                    break
                if state.phase == SHOWDOWN:
                    state, events = apply(state, next_hand())
                else:
                    state, events = apply(state, bots[state.turn].choose(
                        seat_view(state, state.turn)))
                yield from ((names, e) for e in events)


@pytest.fixture(scope="module")
def events():
    found = list(brag_events())
    assert len(found) > 2000
    return found


def test_every_brag_event_kind_is_seen_and_said(events):
    assert {e.kind for _, e in events} == set(BRAG_EVENT_KINDS)


def test_english_is_exactly_the_engines_text_for_every_viewer(events):
    compared = 0
    with translation.override("en-gb"):
        for names, event in events:
            for viewer in (None, *range(len(names))):
                assert brag_event_text(event.to_dict(), names, viewer) == (
                    event.text_for(viewer)), (event.kind, viewer)
                compared += 1
    assert compared > 8000


def test_japanese_leaves_no_english(events):
    with translation.override("ja"):
        for names, event in events:
            for viewer in (None, event.seat):
                text = brag_event_text(event.to_dict(), names, viewer)
                assert english_left(HASH_PREFIX.sub(" ", text)) == [], (event.kind, text)


def test_a_blind_see_and_a_look_in_japanese():
    see = {"kind": "see", "seat": 0, "data": {"against": 1, "cost": 4, "blind": True,
                                              "seer_won": True},
           "text": "さくら, blind, sees ひろし for 4 — さくら's pair of threes, king kicker beats "
                   "ひろし's high card, A-10-7"}
    look = {"kind": "look", "seat": 1, "text": "ひろし looks at their cards and is now seen",
            "private": "You look at your cards: QS QH 2C, pair of queens, two kicker"}
    with translation.override("ja"):
        assert brag_event_text(see, NAMES, None) == (
            "さくらがブラインドで4を払ってひろしにシー — さくらの3のペア（キッカー：キング）が"
            "ひろしのハイカード（A-10-7）に勝ちました")
        assert "ひろしが手札を見ました" in brag_event_text(look, NAMES, None)
        assert brag_event_text(look, NAMES, 1) == (
            "手札を見ました：QS QH 2C、クイーンのペア（キッカー：2）")


def test_words_it_cannot_read_back_are_shown_as_stored():
    odd = {"kind": "see", "seat": 0, "text": "Old words of a see",
           "data": {"against": 1, "cost": 4, "blind": False, "seer_won": True}}
    with translation.override("ja"):
        assert brag_event_text(odd, NAMES, None) == "Old words of a see"
        assert brag_event_text({"kind": "new_kind", "text": "A new event"}, NAMES) == (
            "A new event")


def test_a_player_leaving_is_said_in_both_games_and_both_languages():
    from games.actions import bot_name_for
    from games.event_text import event_text

    bot = bot_name_for("ひろし")
    left = {"kind": "left", "seat": 1, "data": {"bot": bot},
            "text": f"ひろし left the table; {bot} plays their seat."}
    for say in (lambda e, v: event_text(e, NAMES, v), lambda e, v: brag_event_text(e, NAMES, v)):
        with translation.override("en-gb"):
            assert say(left, None) == left["text"] and say(left, 1) == left["text"]
        with translation.override("ja"):
            said = say(left, None)
            assert said.startswith("ひろしがテーブルを離れ") and bot in said
