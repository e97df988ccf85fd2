"""The engine's refusals, and what it finds wrong with a set of rules, in the reader's
language.

The engine (games/engine) knows no Django: a move it does not allow raises
``IllegalAction`` with a code, an English message, the name of its sentence
(``reason``) and that sentence's parameters. Here each sentence is said again with
gettext in the active language; in English word for word the engine's message (a
test holds this over thousands of refused moves), so callers may show
:func:`engine_refusal` to everyone. Impossible house rules (``RulesError``) are said
the same way, each problem a ``Problem`` with its reason and parameters
(:func:`rules_problems`, :func:`rules_problems_text`).

A sentence not known here (an engine newer than this table) is shown in English
rather than not at all; a test walks the engine's source so that none is missing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext

from .engine.game import IllegalAction
from .engine.rules import RulesError

# the games of the Stop the Bus family, as rules problems name them
GAME_NAMES = (gettext_noop("Stop the Bus"), gettext_noop("Commerce"))


def _chips(count: int) -> str:
    return ngettext("%(count)d chip", "%(count)d chips", count) % {"count": count}


# reason -> a function of the refusal's parameters that says it in the active language
SENTENCES: dict[str, Callable[..., str]] = {
    # frames a page sends that are no move of the game
    "not_an_object": lambda: _("An action must be an object."),
    "unknown_action": lambda kind: _("Unknown action %(kind)s.") % {"kind": kind},
    "seat_not_a_number": lambda: _("The seat must be a number."),
    "not_a_card_list": lambda field: _("'%(field)s' must be a list of up to 3 cards.") % {
        "field": field},
    "not_a_card": lambda text: _("%(text)s is not a card code") % {"text": text},
    "not_a_card_code": lambda text: _(
        "%(text)s is not a card code (expected something like QS, 10H or AD)") % {
        "text": text},
    "not_a_position_list": lambda: _("'positions' must be a list of up to 3 numbers."),
    "stop_not_a_flag": lambda: _("'stop' must be true or false."),
    "stake_not_a_number": lambda: _("The stake must be a whole number of chips."),
    "not_an_action": lambda: _("Not an action."),
    "field_not_taken": lambda kind, field: _("A %(kind)s takes no '%(field)s'.") % {
        "kind": kind, "field": field},
    "stake_not_taken": lambda kind: _("A %(kind)s takes no stake.") % {"kind": kind},
    "discard_one": lambda: _("Discard exactly one card."),
    "no_stake": lambda: _("Name a stake: a whole number of chips."),
    "not_a_pack": lambda: _("A chosen pack must hold each of the 52 cards once."),
    # starting a game
    "players": lambda fewest, most, count: _(
        "These rules are for %(fewest)d to %(most)d players, not %(count)d.") % {
        "fewest": fewest, "most": most, "count": count},
    "no_such_dealer": lambda: _("There is no such seat to deal."),
    # whose move it is, and when
    "game_over": lambda: _("The game is over."),
    "next_deal_not_yours": lambda: _("The next deal is the table's to make, not a player's."),
    "hand_in_play": lambda: _("The hand is still being played."),
    "hand_over": lambda: _("The hand is over: wait for the next deal."),
    "not_seated": lambda: _("There is no such seat at this table."),
    "out": lambda: _("You are out of the game."),
    "not_your_turn": lambda name: _("It is not your turn: it is %(name)s's turn.") % {
        "name": name},
    # Stop the Bus and Commerce
    "dealer_swap_first": lambda: _("First decide whether to swap cards unseen with the "
                                   "middle before looking at your hand."),
    "swap_positions_count": lambda: _("Choose as many middle cards as places in your hand."),
    "swap_positions_repeated": lambda: _("Choose different places in your hand, 1 to 3."),
    "dealer_swap_only": lambda: _("Only the dealer, before looking, may swap unseen."),
    "must_discard": lambda: _("You have drawn: now discard one card."),
    "card_not_in_hand": lambda card: _("%(card)s is not in your hand.") % {"card": card},
    "same_discard": lambda: _("You must discard a different card than the discard you "
                              "took."),
    "must_draw": lambda: _("Draw from the stock or take the discard first."),
    "already_stopped": lambda name: _("The bus is already stopped by %(name)s.") % {
        "name": name},
    "already_knocked": lambda name: _("%(name)s has already knocked.") % {"name": name},
    "pass_not_allowed": lambda: _("Passing is allowed only after the bus has stopped."),
    "pass_before_knock": lambda: _("Passing is allowed only after someone has knocked."),
    "no_widow": lambda: _("At this table you draw and discard; there is no widow to swap "
                          "with."),
    "swap_count": lambda: _("Swap as many cards from your hand as you take from the middle."),
    "swap_limit": lambda limit: ngettext(
        "You may swap at most %(limit)d card in a turn.",
        "You may swap at most %(limit)d cards in a turn.", limit) % {"limit": limit},
    "three_swap_used": lambda: _("You have already swapped three cards at once this hand."),
    "swap_hand_repeated": lambda: _("Choose different cards from your hand."),
    "stop_after_swap": lambda: _("At this table you cannot swap and stop in the same turn."),
    "no_stock": lambda: _("At this table you swap with the widow; there is no stock."),
    "stock_empty": lambda: _("The stock is empty."),
    "no_discard": lambda: _("The discard pile is empty."),
    "swap_widow_repeated": lambda: _("Choose different cards from the middle."),
    "not_in_widow": lambda card: _("%(card)s is not in the middle.") % {"card": card},
    # Three Card Brag
    "no_blind_play": lambda: _("At this table every hand is looked at as it is dealt."),
    "folded_unseen": lambda: _("You folded: your cards went unseen to the bottom of the "
                               "pack."),
    "already_seen": lambda: _("You have already looked at your cards."),
    "folded": lambda: _("You folded this hand."),
    "covered": lambda: _("You covered the pot: the others play on without you."),
    "cover_not_allowed": lambda cost: _(
        "You can still pay the smallest bet (%(cost)s): you may cover the pot only when you "
        "cannot.") % {"cost": _chips(cost)},
    "cannot_afford": lambda cost, chips: _(
        "The smallest bet costs you %(cost)s and you have %(chips)d: fold or cover the "
        "pot.") % {"cost": _chips(cost), "chips": chips},
    "stake_too_low": lambda lowest: _("The stake must be at least %(lowest)d.") % {
        "lowest": lowest},
    "stake_too_high": lambda highest: _("The stake may be at most %(highest)d.") % {
        "highest": highest},
    "stake_costs_too_much": lambda stake, cost, chips: _(
        "A stake of %(stake)d costs you %(cost)s and you have %(chips)d.") % {
        "stake": stake, "cost": _chips(cost), "chips": chips},
    "see_not_allowed": lambda count: ngettext(
        "You may see only when two players are still betting (%(count)d is).",
        "You may see only when two players are still betting (%(count)d are).",
        count) % {"count": count},
    "blind_man": lambda name: _("You can't see a blind man: %(name)s has not looked at "
                                "their cards.") % {"name": name},
    "seeing_costs_too_much": lambda cost, chips: _(
        "Seeing costs you %(cost)s and you have %(chips)d.") % {
        "cost": _chips(cost), "chips": chips},
}


def engine_refusal(exc: IllegalAction) -> str:
    """What the engine refused, in the active language."""
    say = SENTENCES.get(exc.reason)
    if say is None:
        return exc.message
    try:
        return say(**exc.params)
    except (TypeError, KeyError, ValueError):  # parameters this module does not expect
        return exc.message


# Problem.reason -> a function of its parameters, as SENTENCES for refusals
RULE_SENTENCES: dict[str, Callable[..., str]] = {
    "not_one_of": lambda value, allowed: _("%(value)s is not one of: %(allowed)s.") % {
        "value": value, "allowed": allowed},
    "on_or_off": lambda: _("Must be on or off."),
    "whole_number": lambda: _("Must be a whole number."),
    "fewest_out_of_range": lambda game, fewest, most, value: _(
        "%(game)s is for %(fewest)d to %(most)d players: the fewest cannot be %(value)d.") % {
        "game": _(game), "fewest": fewest, "most": most, "value": value},
    "most_out_of_range": lambda game, fewest, most, value: _(
        "%(game)s is for %(fewest)d to %(most)d players: the most cannot be %(value)d.") % {
        "game": _(game), "fewest": fewest, "most": most, "value": value},
    "most_below_fewest": lambda: _("The most players cannot be fewer than the fewest."),
    # Stop the Bus and Commerce
    "blitz_needs_thirty_one": lambda: _(
        "Blitz needs thirty-one hands: turn on 'thirty_one' first."),
    "blitz_prials_need_blitz": lambda: _("Blitz prials need blitz to be on."),
    "thirty_one_not_commerce": lambda: _(
        "Thirty-one is a Brag hand; Commerce hands have no thirty-one."),
    "swap_limit_range": lambda: _("A player can swap 1, 2 or 3 cards in a turn."),
    "several_swaps_need_widow": lambda: _("Swapping several cards needs the widow exchange."),
    "blind_swap_needs_widow": lambda: _(
        "The dealer's unseen swap is with the widow: it needs the widow exchange."),
    "stop_after_swap_needs_widow": lambda: _(
        "Swapping and then stopping is a widow rule; with the stock a player who stops does "
        "not draw."),
    "starting_lives_range": lambda most: _("Players start with 1 to %(most)d lives.") % {
        "most": most},
    "stopper_penalty_range": lambda most: _("The stopper's penalty is 1 to %(most)d lives.") % {
        "most": most},
    "target_too_low": lambda target: _(
        "A target of %(target)d points would end the game before it starts: it must be at "
        "least 1.") % {"target": target},
    "target_too_high": lambda most: _("The target is at most %(most)d points.") % {
        "most": most},
    "starting_chips_range": lambda most: _("Players start with 1 to %(most)d chips.") % {
        "most": most},
    # Three Card Brag
    "ante_negative": lambda: _("The ante cannot be negative (0: no ante)."),
    "ante_above_chips": lambda ante, chips: _(
        "An ante of %(ante)d is more than the %(chips)d chips everyone starts with.") % {
        "ante": ante, "chips": chips},
    "min_bet_too_low": lambda: _("The smallest stake is at least 1 chip."),
    "max_bet_below_min": lambda largest, smallest: _(
        "The largest opening stake (%(largest)d) cannot be below the smallest "
        "(%(smallest)d).") % {"largest": largest, "smallest": smallest},
    "raise_negative": lambda: _("The largest raise cannot be negative (0: fixed stakes)."),
    "max_hands_range": lambda most: _(
        "Play 1 to %(most)d hands, or 0 to play until one player has every chip.") % {
        "most": most},
    "no_ante_needs_max_hands": lambda: _(
        "With no ante, set a number of hands: a game in which nobody bets would never end."),
    "min_players_too_low": lambda fewest: _("It takes at least %(fewest)d players.") % {
        "fewest": fewest},
    "brag_max_players": lambda most, asked: _(
        "Brag is for at most %(most)d players (%(asked)d asked).") % {
        "most": most, "asked": asked},
}


def rules_problem(message: str) -> str:
    """One problem of a ``RulesError`` in the active language (as written if it names no
    sentence known here)."""
    say = RULE_SENTENCES.get(getattr(message, "reason", None))
    if say is None:
        return str(message)
    try:
        return say(**message.params)
    except (TypeError, KeyError, ValueError):
        return str(message)


def rules_problems(exc: RulesError) -> dict[str, list[str]]:
    """``exc.errors`` (field -> problems) in the active language."""
    return {field: [rules_problem(m) for m in messages] for field, messages in exc.errors.items()}


def rules_problems_text(exc: RulesError) -> str:
    """Every problem of ``exc`` in one line: in English, ``str(exc)``."""
    return pgettext("between rules problems", "; ").join(
        problem for problems in rules_problems(exc).values() for problem in problems)
