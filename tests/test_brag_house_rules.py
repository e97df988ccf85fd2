"""Two Brag house rules: "no ante" (``ante`` 0: the first bet opens the pot, and a hand that
everyone but one player folds before anybody bets is void) and "fixed stakes" (``max_raise``
0 with limit betting: no bet may raise the stake). The engine's choices are written in
games/engine/brag/game.py ("No ante", "Fixed stakes") and said on the rules page."""

import random

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from games.engine.brag import (
    BOT_LEVELS,
    OVER,
    SHOWDOWN,
    BragRules,
    bet,
    fold,
    legal_actions,
    look,
    make_bot,
    next_hand,
    play_bot_game,
    see,
    simulate,
    view_for,
)
from games.engine.cards import parse_cards
from games.engine.rules import RulesError
from games.event_text import brag_event_text
from games.lab import run_lab
from games.models import Variant
from games.rules_text import describe_brag
from tests.test_brag_game import NAMES, bet_move, codes_in_view, play, refused, rigged, texts
from tests.test_variants_admin import form_data, url

NO_ANTE = {"ante": 0, "max_hands": 20}
FIXED = {"max_raise": 0}
HOUSE_RULES = {"no ante": NO_ANTE, "fixed stakes": FIXED, "both": {**NO_ANTE, **FIXED}}


# -- the rules themselves -------------------------------------------------------------------


def test_no_ante_and_fixed_stakes_are_house_rules_the_engine_accepts():
    assert BragRules(ante=0, max_hands=1).ante == 0
    assert BragRules(max_raise=0).max_raise == 0
    assert BragRules(betting="pot_limit", ante=0, max_raise=0, max_hands=5)


@pytest.mark.parametrize("fields, field, reason", [
    ({"ante": -1}, "ante", "ante_negative"),
    ({"max_raise": -1}, "max_raise", "raise_negative"),
    ({"ante": 0, "max_hands": 0}, "max_hands", "no_ante_needs_max_hands"),
])
def test_what_the_house_rules_still_refuse(fields, field, reason):
    with pytest.raises(RulesError) as caught:
        BragRules(**fields)
    assert [p.reason for p in caught.value.errors[field]] == [reason]


def test_the_summary_says_them_in_english_and_japanese():
    lines = BragRules(ante=0, max_raise=0, max_hands=30).summary()
    assert lines[0] == ("Everyone starts with 100 chips. There is no ante: the first bet opens "
                        "the pot. If everyone but one player folds before anybody bets, the "
                        "hand is void: nobody wins anything, and the deal passes.")
    assert ("Limit betting with fixed stakes: the first stake is 1 to 10, and no later bet "
            "may raise it.") in lines
    pot = BragRules(betting="pot_limit", ante=0, max_hands=30).summary()
    assert ("Pot-limit betting: the first stake is 1, as the pot starts empty; no stake may be "
            "more than all the chips in the middle.") in pot
    with translation.override("ja"):
        said = describe_brag(BragRules(ante=0, max_raise=0, max_hands=30))
    assert "アンティ" in said[0] and "無効" in said[0]
    assert said != lines


# -- fixed stakes ------------------------------------------------------------------------------


def test_with_fixed_stakes_the_first_bet_sets_the_stake_and_nobody_raises_it():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], max_raise=0)
    first = bet_move(state, 0)
    assert (first.min_stake, first.max_stake) == (1, 10)  # the opening stake is free
    state, _ = play(state, bet(0, 4))  # blind: pays 2
    move = bet_move(state, 1)
    assert (move.min_stake, move.max_stake) == (4, 4) and move.quick_stakes == (4,)
    refused(state, bet(1, 5), "stake_too_high")
    state, _ = play(state, look(1), bet(1, 4))  # seen: pays the stake
    assert state.chips[:2] == [100 - 1 - 2, 100 - 1 - 4]
    assert (bet_move(state, 2).min_stake, bet_move(state, 2).max_stake) == (4, 4)
    state, _ = play(state, bet(2, 4))
    refused(state, bet(0, 5), "stake_too_high")
    state, _ = play(state, bet(0, 4))
    assert state.stake == 4


def test_pot_limit_does_not_use_max_raise():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], betting="pot_limit", max_raise=0)
    state, _ = play(state, bet(0, 3))
    assert bet_move(state, 1).max_stake == state.middle > 3


# -- no ante -----------------------------------------------------------------------------------


def test_with_no_ante_the_middle_starts_empty_and_the_deal_says_so():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], **NO_ANTE)
    assert state.pot == 0 and state.middle == 0 and state.chips == [100, 100, 100]
    assert state.put_in == [0, 0, 0]
    from games.engine.brag import new_game

    _, events = new_game(BragRules(**NO_ANTE), NAMES[:3], bytes(32))
    deal = events[-1]
    assert deal.kind == "deal" and deal.data["ante"] == 0 and deal.data["pot"] == 0
    assert deal.text.endswith(". There is no ante: the first bet opens the pot.")


@pytest.mark.parametrize("blind", [True, False])
def test_everyone_folding_before_a_bet_makes_the_hand_void(blind):
    hands = ["7H 7S KD", "2C 5D 9H", "AS KS QS"]
    state = rigged(hands, blind_play=blind, **NO_ANTE)
    pack_before = list(state.pack)
    state, events = play(state, fold(0), fold(1))
    assert [e.kind for e in events] == ["fold", "fold", "void_hand"]
    assert events[-1].seat == 2 and events[-1].data == {"last_in": 2}
    assert events[-1].text == ("Everyone but Cat folded before anyone bet: there is no pot, "
                               "and the hand is void")
    assert state.phase == SHOWDOWN and state.chips == [100, 100, 100]
    settled = state.settlement
    assert settled["void"] is True and settled["pots"] == [] and settled["shown"] == {}
    assert settled["won"] == settled["net"] == [0, 0, 0] and settled["see"] is None
    # the folded hands went under as they folded, the last player's at the settlement
    assert state.pack == pack_before + [*parse_cards(hands[0]), *parse_cards(hands[1]),
                                        *parse_cards(hands[2])]
    # nobody sees the last player's hand, blind or not (its owner, if it looked, does)
    last_hand = set(hands[2].split())
    for viewer in (None, 0, 1):
        assert not codes_in_view(view_for(state, viewer)) & last_hand
    assert (codes_in_view(view_for(state, 2)) >= last_hand) == (not blind)
    # the deal passes left, and the void hand counted as a hand
    state, events = play(state, next_hand())
    assert state.dealer == 0 and state.hand_no == 2 and state.turn == 1


def test_a_void_hand_in_the_last_hand_ends_the_game():
    state = rigged(["7H 7S KD", "2C 5D 9H"], ante=0, max_hands=1)
    state, events = play(state, fold(0))
    assert [e.kind for e in events] == ["fold", "void_hand", "game_over"]
    assert state.phase == OVER and state.places == [1, 1]


def test_a_first_bet_and_folds_is_an_ordinary_hand_won_unshown():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], **NO_ANTE)
    state, events = play(state, bet(0, 2), fold(1), fold(2))
    assert "Ann wins the pot of 1 without showing" in texts(events)
    assert state.settlement["void"] is False and state.chips == [100, 100, 100]


def test_with_no_ante_pot_limit_opens_at_the_smallest_stake():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], betting="pot_limit", min_bet=2,
                   **NO_ANTE)
    first = bet_move(state, 0)
    assert (first.min_stake, first.max_stake) == (2, 2)
    state, _ = play(state, look(0), bet(0, 2))
    assert bet_move(state, 1).max_stake == 2  # the pot now holds 2


def test_with_no_ante_only_a_player_with_no_chips_goes_out():
    state = rigged(["2C 5D 9H", "7H 7S KD"], chips=[1, 5], **NO_ANTE)
    state, events = play(state, look(0), bet(0, 1), look(1), see(1))
    out = next(e for e in events if e.kind == "out")
    assert out.text == "Ann has no chips left and is out" and out.data == {"chips": 0, "ante": 0}
    assert state.phase == OVER and state.winner == 1


def test_the_void_hand_and_the_deal_in_the_log_in_both_languages():
    state = rigged(["7H 7S KD", "2C 5D 9H", "AS KS QS"], **NO_ANTE)
    state, events = play(state, fold(0), fold(1), next_hand())
    names = NAMES[:3]
    for event in events:
        with translation.override("en-gb"):
            assert brag_event_text(event, names) == event.text
        with translation.override("ja"):
            said = brag_event_text(event, names)
        assert said != event.text
    with translation.override("ja"):
        assert "Cat" in brag_event_text(events[2], names)


# -- playing whole games -----------------------------------------------------------------------


class UniformPlayer:
    """Any legal move, uniformly, and any stake in the range: the random player of the
    yardsticks, written here without the bots' code."""

    def __init__(self, rng):
        self.rng = rng

    def choose(self, view):
        move = self.rng.choice(view.legal)
        if move.kind == "bet":
            return move.action(self.rng.randint(move.min_stake, move.max_stake))
        return move.action()


@pytest.mark.parametrize("betting", ["limit", "pot_limit"])
@pytest.mark.parametrize("house", list(HOUSE_RULES))
def test_the_house_rules_play_to_the_end_with_every_bot_level(betting, house):
    rules = BragRules(betting=betting, starting_chips=30, **HOUSE_RULES[house])
    rng = random.Random(f"{betting}:{house}")
    levels = list(BOT_LEVELS)
    lineups = [levels, [*levels, "uniform"], ["uniform"] * 3, *([lv, lv] for lv in levels)]
    total_games = 0
    for g, lineup in enumerate(lineups):
        bots = [UniformPlayer(random.Random(rng.random())) if lv == "uniform"
                else make_bot(lv, rules, random.Random(rng.random())) for lv in lineup]
        total = rules.starting_chips * len(bots)
        stakes = []

        def check(state, total=total, stakes=stakes):
            assert sum(state.chips) + state.middle == total and min(state.chips) >= 0
            stakes.append(state.stake)
            if rules.betting == "limit" and rules.max_raise == 0 and state.phase == "betting":
                for seat in range(state.players):
                    for move in legal_actions(state, seat):
                        if move.kind == "bet" and state.stake:
                            assert move.max_stake <= state.stake

        final = play_bot_game(rules, bots, f"house:{betting}:{house}:{g}".encode().ljust(32,
                              b"."), on_action=check)
        assert final.phase == OVER and final.hand_no <= rules.max_hands
        assert sorted(p for p in final.places if p is not None)[0] == 1
        total_games += 1
    assert total_games == len(lineups)


def test_the_engines_lab_counts_void_hands_and_says_so():
    rules = BragRules(ante=0, max_hands=20)
    report = simulate(rules, ["random", "random", "random"], games=4, seed=3)
    assert 0 < report.void_hands < report.hands
    assert report.to_dict()["void_hands"] == report.void_hands
    assert any(line.startswith("no ante: ") for line in report.lines())
    assert "void_hands" not in simulate(BragRules(), ["random"] * 2, 1).to_dict()


def test_the_variant_lab_and_the_command_line_show_them(capsys):
    rules = BragRules(ante=0, max_raise=0, max_hands=10)
    with translation.override("en-gb"):
        result = run_lab(rules, 3, "random", 3, time_budget=None)
        assert result.lines()[:4] == result.report.lines()[:4]
        assert "Void hands" in [row["label"] for row in result.figure_rows()]
    with translation.override("ja"):
        assert not any(line.startswith("no ante") for line in run_lab(
            rules, 3, "random", 2, time_budget=None).lines())
    call_command("simulate", "--preset", "brag", "--rule", "ante=0", "--rule", "max_raise=0",
                 "--rule", "max_hands=5", "--games", "2", "--bots", "random")
    out = capsys.readouterr().out
    assert "There is no ante: the first bet opens the pot." in out
    assert "Limit betting with fixed stakes" in out and "of hands void" in out
    with pytest.raises(CommandError, match="never end"):
        call_command("simulate", "--preset", "brag", "--rule", "ante=0", "--rule",
                     "max_hands=0", "--games", "1")
    with pytest.raises(CommandError, match="NAME=VALUE"):
        call_command("simulate", "--preset", "brag", "--rule", "antes=0", "--games", "1")



# -- the admin: validation and the variant lab ---------------------------------------------------


@pytest.mark.django_db
def test_the_admin_saves_a_variant_with_no_ante_and_fixed_stakes_and_its_lab_shows_them(
        admin_client):
    brag = Variant.objects.get(slug="three-card-brag")
    data = form_data(brag, name="Friendly Brag", slug="friendly-brag", ante=0, max_raise=0,
                     max_hands=30)
    response = admin_client.post(url("add"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    made = Variant.objects.get(slug="friendly-brag")
    assert made.rules == BragRules(ante=0, max_raise=0, max_hands=30)
    # with no ante and no hand limit the engine's reason is shown at the field
    refused_form = admin_client.post(url("change", made.pk), form_data(made, max_hands=0))
    assert refused_form.status_code == 200
    assert refused_form.context["adminform"].form.errors["max_hands"] == [
        "With no ante, set a number of hands: a game in which nobody bets would never end."]
    made.refresh_from_db()
    assert made.max_hands == 30
    page = admin_client.get(url("simulate", made.pk)).content.decode()
    assert 'id="lab-rules"' in page
    assert escape("There is no ante: the first bet opens the pot.") in page
    assert "Limit betting with fixed stakes" in page
    response = admin_client.post(url("simulate", made.pk), {
        "players": 3, "bots": "random", "games": 3, "seed": "2"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Void hands" in page and "of hands void" in page


@pytest.mark.django_db
def test_the_rules_page_says_both_house_rules(client):
    Variant.objects.create(name="Friendly Brag", slug="friendly-brag", game="brag", ante=0,
                           max_raise=0, max_hands=30, starting_chips=100, max_players=8)

    page = client.get(reverse("games:rules")).content.decode()
    assert 'id="brag-house-rules"' in page and "<strong>No ante</strong>" in page
    assert "<strong>Fixed stakes</strong>" in page
    assert "Limit betting with fixed stakes: the first stake is 1 to 10" in page
    response = client.get(reverse("games:rules"), HTTP_ACCEPT_LANGUAGE="ja")
    assert response["Content-Language"] == "ja"
    page = response.content.decode()
    assert "<strong>アンティなし</strong>" in page and "<strong>固定の賭け額</strong>" in page
    assert "リミット（固定の賭け額）：最初の賭け額は1〜10" in page
    assert "Fixed stakes" not in page and "There is no ante" not in page


# -- at a live table -------------------------------------------------------------------------


@pytest.mark.django_db
def test_at_a_table_a_void_hand_is_said_on_the_board_and_in_the_log():
    from tests.test_brag_table import board_html, brag_table, play_for, state

    table, game, ann, bob = brag_table(bot=False, seats=2, ante=0, max_raise=0, max_hands=5)
    game, s = state(game)
    assert s.pot == 0 and s.chips == [100, 100]
    first = ann if s.turn == 0 else bob
    played = play_for(game, first, {"kind": "fold"})
    assert played.state.settlement["void"] and played.state.chips == [100, 100]
    html = board_html(table, ann)
    assert "the hand is void, and nobody wins anything." in html
    assert "folded before anyone bet: there is no pot, and the hand is void" in html
    assert "There is no ante: the first bet opens the pot." in html
    with translation.override("ja"):
        html = board_html(table, ann)
    assert "このハンドは無効で、誰も何も得ません。" in html and "ポットはなく" in html
