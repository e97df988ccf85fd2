"""Three Card Brag's events in English and Japanese (games/event_text.py,
``brag_event_text``): said from each event's data, in English word for word the engine's
text for every viewer, in Japanese no English left. Events stored before their data carried
every fact are read back from their English words and said the same; words it cannot read
back are shown as stored."""

import random
import re
from types import SimpleNamespace

import pytest
from django.utils import translation

from games.engine.brag import (
    BRAG_PRESETS,
    BragRules,
    apply,
    bet,
    cover,
    fold,
    look,
    make_bot,
    new_game,
    next_hand,
    see,
)
from games.engine.brag.game import OVER, SHOWDOWN
from games.engine.brag.views import seat_view
from games.event_text import BRAG_EVENT_KINDS, brag_event_text
from tests.i18n_games import NAMES, bot_game_events
from tests.test_i18n_events import english_left

# A deal names the first twelve digits of its pack's commitment: a hash, not words.
HASH_PREFIX = re.compile(r"\b[0-9a-f]{12}…")

RULE_SETS = [p.rules for p in BRAG_PRESETS.values()] + [
    BragRules(starting_chips=6),  # covers, closed pots and players out
    BragRules(starting_chips=4, ante=2),
    BragRules(blind_play=False, shuffle="every_hand"),
    # the house rules "no ante" (void hands, the deal without an ante) and "fixed stakes"
    BragRules(starting_chips=8, ante=0, max_raise=0, max_hands=20),
    BragRules(starting_chips=8, ante=0, betting="pot_limit", max_hands=20),
]


BRAG = SimpleNamespace(new_game=new_game, apply=apply, next_hand=next_hand, make_bot=make_bot,
                       seat_view=seat_view, over=OVER, showdown=SHOWDOWN)


def brag_events(games_per_rules=5, seed=23):
    """(names, event) of bot games under RULE_SETS."""
    rng = random.Random(seed)
    for r, rules in enumerate(RULE_SETS):
        for g in range(games_per_rules):
            names = NAMES[:rng.randint(2, 4)]
            yield from ((names, e) for e in bot_game_events(
                BRAG, rules, names, f"brag-i18n:{seed}:{r}:{g}".encode(), rng))


def rigged_events():
    """(names, event) of chosen hands for the sentences bots seldom bring: a closed pot
    tied, a closed pot won by the covered hand, a deal after a prial, first place shared."""
    from tests.test_brag_game import pack_for

    def game(hands, *actions, dealer=None, chips=None, **rules):
        names = NAMES[:len(hands)]
        dealer = len(hands) - 1 if dealer is None else dealer
        state, found = new_game(BragRules(**rules), names, bytes(32), dealer=dealer,
                                pack=pack_for(hands, dealer))
        if chips is not None:
            state = state.clone()
            state.chips = list(chips)
        for action in actions:
            state, events = apply(state, action)
            found += events
        return [(names, e) for e in found]

    # (tests/test_brag_game.py has each of these hand by hand, in English)
    yield from game(["5D 6H 7S", "5C 6D 7H", "KC KD 2H", "9S 9H 4C"], look(2), bet(2, 10),
                    look(3), bet(3, 10), cover(0), look(0), cover(1), bet(2, 10), fold(3),
                    dealer=1, chips=[2, 3, 99, 99])
    yield from game(["AS KS QS", "2C 5D 9H", "KC KD 2H"], bet(0, 2), look(1), bet(1, 10),
                    bet(2, 10), cover(0), fold(1), chips=[2, 99, 99])
    yield from game(["3C 3D 3H", "KC KD 2H"], look(0), bet(0, 2), look(1), see(1), next_hand())
    yield from game(["7H 7S KD", "2C 5D 9H"], fold(0), chips=[7, 5], max_hands=1)
    # two blind players: one sees the other without looking (and loses, then wins)
    yield from game(["3C 3D 3H", "KC KD 2H"], bet(0, 2), see(1))
    yield from game(["KC KD 2H", "3C 3D 3H"], bet(0, 2), see(1))
    # no ante: a deal after a prial, a void hand, a player out with no chips
    yield from game(["3C 3D 3H", "KC KD 2H"], look(0), bet(0, 2), look(1), see(1), next_hand(),
                    ante=0, max_hands=5)
    yield from game(["2C 5D 9H", "7H 7S KD", "AS KS QS"], fold(0), fold(1), ante=0,
                    max_hands=5)
    yield from game(["2C 5D 9H", "7H 7S KD"], look(0), bet(0, 1), look(1), see(1),
                    chips=[1, 5], ante=0, max_hands=5)


def sentence(event) -> tuple:
    """Which of its kind's sentences an event is said with."""
    data = event.data
    return (event.kind, *{
        "deal": lambda: (data["shuffled"], data["after_prial"], data["ante"] > 0),
        "bet": lambda: (data["blind"],),
        "cover": lambda: (data["chips"] > 0,),
        "see": lambda: (data["blind"], data["seer_won"]),
        "pot": lambda: (data["shown"],),
        "closed_pot": lambda: (event.seat == data["coverer"], data["tie"]),
        "out": lambda: (data["chips"] > 0, data["ante"] > 0),
        "game_over": lambda: (event.seat is not None,),
    }.get(event.kind, tuple)())


@pytest.fixture(scope="module")
def events():
    found = list(brag_events()) + list(rigged_events())
    assert len(found) > 2000
    return found


def test_every_brag_event_kind_is_seen_and_said(events):
    assert {e.kind for _, e in events} == set(BRAG_EVENT_KINDS)


def test_every_sentence_of_every_kind_is_among_the_events(events):
    said = {sentence(e) for _, e in events}
    assert said == {
        ("cut",), ("look",), ("fold",), ("prial",), ("bet", True), ("bet", False),
        ("deal", False, False, True), ("deal", True, False, True), ("deal", True, True, True),
        ("deal", False, False, False), ("deal", True, False, False),
        ("deal", True, True, False), ("void_hand",),
        ("cover", True), ("cover", False), ("out", True, True), ("out", False, True),
        ("out", False, False),
        ("see", True, True), ("see", True, False), ("see", False, True), ("see", False, False),
        ("pot", True), ("pot", False), ("game_over", True), ("game_over", False),
        ("closed_pot", True, False), ("closed_pot", False, False),
        ("closed_pot", False, True),
    }


def without_words(event) -> dict:
    """``event`` stored without its English words: what is said must come from its data."""
    stored = event.to_dict()
    stored["text"] = "(no words)"
    stored.pop("private", None)
    return stored


def test_english_is_exactly_the_engines_text_for_every_viewer(events):
    compared = 0
    with translation.override("en-gb"):
        for names, event in events:
            for viewer in (None, *range(len(names))):
                assert brag_event_text(event.to_dict(), names, viewer) == (
                    event.text_for(viewer)), (event.kind, viewer)
                compared += 1
    assert compared > 8000


def test_english_said_from_the_data_alone_is_exactly_the_engines_text(events):
    """Not read back from the words: they are not there to read."""
    compared = 0
    with translation.override("en-gb"):
        for names, event in events:
            stored = without_words(event)
            for viewer in (None, *range(len(names))):
                assert brag_event_text(stored, names, viewer) == event.text_for(viewer), (
                    event.kind, viewer)
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
            # the bot that plays on is named in the reader's language too (the event keeps
            # its English name: tests/test_ux_bot_names.py)
            said = say(left, None)
            assert said.startswith("ひろしがテーブルを離れ") and "ひろしの代打ちボット" in said
            assert bot not in said


# -- events stored before their data carried every fact -------------------------------------

# What each kind's data held before (the look's cards were only in its private words).
OLD_DATA = {
    "deal": {"hand", "dealer", "shuffled", "commitment"},
    "see": {"against", "cost", "blind", "seer_won"},
    "pot": {"chips", "kind"},
    "closed_pot": {"chips", "coverer", "holder"},
}


def as_stored_before(event) -> dict:
    """``event`` (an Event or its dict) as a game played before this data was stored it."""
    stored = event.to_dict() if hasattr(event, "to_dict") else dict(event)
    stored.pop("private_data", None)
    if stored["kind"] in OLD_DATA:
        stored["data"] = {k: v for k, v in stored["data"].items() if k in OLD_DATA[stored["kind"]]}
    return stored


def stored_before(events):
    """The events a game stored before could hold: the house rule "no ante" came with the
    data (a deal with no ante never lacked its ``ante``)."""
    return [(names, e) for names, e in events if not (e.kind == "deal" and not e.data["ante"])]


def test_an_old_event_reads_in_english_as_its_stored_words(events):
    with translation.override("en-gb"):
        for names, event in stored_before(events):
            old = as_stored_before(event)
            for viewer in (None, *range(len(names))):
                assert brag_event_text(old, names, viewer) == event.text_for(viewer)


def test_an_old_event_reads_in_japanese_exactly_as_a_new_one(events):
    """Read back from its English words, an old event says what the data says now."""
    old_kinds = set()
    with translation.override("ja"):
        for names, event in stored_before(events):
            old = as_stored_before(event)
            for viewer in (None, event.seat):
                said = brag_event_text(old, names, viewer)
                assert said == brag_event_text(event, names, viewer), (event.kind, said)
                if old != event.to_dict():
                    old_kinds.add(event.kind)
    assert old_kinds == {*OLD_DATA, "look"}


def test_old_deals_and_closed_pots_in_japanese():
    deal = {"kind": "deal", "data": {"hand": 4, "dealer": 1, "shuffled": True,
                                     "commitment": "0123456789abcdef" * 4},
            "text": "Hand 4: ひろし deals from a freshly shuffled pack (commitment "
                    "0123456789ab…), because the last pot was won with a prial. Everyone "
                    "antes 2 chips; the pot is 6."}
    tie = {"kind": "closed_pot", "seat": 1, "data": {"chips": 26, "coverer": 0, "holder": 1},
           "text": "ひろし's run, 5-6-7 beats さくら's covered run, 5-6-7 (a tie goes to the "
                   "later pot's winner): ひろし takes the closed pot of 26"}
    with translation.override("ja"):
        said = brag_event_text(deal, NAMES, None)
        assert "0123456789ab" in said and "6" in said and "2" in said
        assert said == brag_event_text(deal | {"data": deal["data"] | {
            "ante": 2, "pot": 6, "after_prial": True}, "text": ""}, NAMES, None)
        assert brag_event_text(tie, NAMES, None) == brag_event_text(tie | {"data": tie["data"] | {
            "tie": True, "holder_hand": {"category": "run", "cards": ["5C", "6D", "7H"]},
            "coverer_hand": {"category": "run", "cards": ["5D", "6H", "7S"]}}, "text": ""},
            NAMES, None)
        assert english_left(brag_event_text(tie, NAMES, None)) == []


def random_rules_games(games=60, seed=31):
    """(names, event) of ``games`` games of uniformly random legal play under rules drawn at
    random (small stacks, so covers, closed pots and players out come often)."""
    rng = random.Random(seed)
    for g in range(games):
        starting = rng.choice((4, 6, 10, 20))
        rules = BragRules(starting_chips=starting, ante=rng.choice((1, 1, 2)),
                          betting=rng.choice(("limit", "pot_limit")),
                          min_bet=rng.choice((1, 2)), max_bet=rng.choice((4, 10)),
                          max_raise=rng.choice((2, 10)), blind_play=rng.random() < 0.7,
                          shuffle=rng.choice(("prial_only", "every_hand")),
                          threes_high=rng.random() < 0.5,
                          ace_low_run=rng.choice(("top", "bottom", "none")),
                          max_hands=rng.choice((6, 12)))
        names = NAMES[:rng.randint(2, 6)]
        state, events = new_game(rules, names, f"stored:{seed}:{g}".encode().ljust(32, b"."))
        yield from ((names, e) for e in events)
        while state.phase != OVER:
            if state.phase == SHOWDOWN:
                state, events = apply(state, next_hand())
            else:
                seat = state.turn
                moves = seat_view(state, seat).legal
                move = rng.choice(moves)
                action = (move.action(rng.randint(move.min_stake, move.max_stake))
                          if move.kind == "bet" else move.action())
                state, events = apply(state, action)
            yield from ((names, e) for e in events)


def test_stored_games_read_back_from_their_words_say_what_the_data_says():
    """Many random games, each event stored as games were before their data carried every
    fact: read back from the English words, every sentence is the one the data says, in
    English (the stored words themselves) and in Japanese, for every viewer."""
    read_back = set()
    compared = 0
    for names, event in random_rules_games():
        old = as_stored_before(event)
        for viewer in (None, *range(len(names))):
            with translation.override("en-gb"):
                assert brag_event_text(old, names, viewer) == event.text_for(viewer)
                assert brag_event_text(event, names, viewer) == event.text_for(viewer)
            with translation.override("ja"):
                said = brag_event_text(old, names, viewer)
                assert said == brag_event_text(event, names, viewer), (event.kind, said)
            compared += 1
        if old != event.to_dict():
            read_back.add(event.kind)
    assert read_back == {*OLD_DATA, "look"}
    assert compared > 10_000
