"""A variant's house rules in plain words, in the reader's language.

The engine's ``describe_rules`` (games/engine/rules.py) stays free of Django
and says the rules in English; this module builds the same sentences from the
rules' values with gettext, so the summary reads as plain Japanese in
Japanese. In English the two agree word for word (tests/test_i18n_rules.py).

The presets' names and descriptions are stored in the database by a data
migration, in English; :func:`variant_name` and :func:`variant_description`
translate them while they are still the preset's own words, and show any text
an admin wrote as it is.
"""

from __future__ import annotations

import importlib
import json

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext, pgettext

from games.engine.brag.rules import BRAG_PRESETS
from games.engine.rules import PRESETS, HouseRules


def describe(rules: HouseRules) -> list[str]:
    """The rules in force, one sentence each, in the active language."""
    lines = []
    if rules.exchange == "widow":
        if rules.swap_limit == 1:
            lines.append(_("Three cards lie face up in the middle; on your turn swap one of "
                           "your cards for one of them."))
        elif rules.swap_limit == 3:
            lines.append(_("Three cards lie face up in the middle; on your turn swap 1 to "
                           "%(limit)d of your cards for them (three at once only once a "
                           "hand).") % {"limit": rules.swap_limit})
        else:
            lines.append(_("Three cards lie face up in the middle; on your turn swap 1 to "
                           "%(limit)d of your cards for them.") % {"limit": rules.swap_limit})
        if rules.dealer_blind_swap:
            lines.append(_("Before looking at the hand, the dealer may swap cards unseen "
                           "with the middle."))
    else:
        lines.append(_("Draw the top of the stock or take the top discard, then discard "
                       "one card (not the discard you just took)."))
    if rules.ranking == "commerce":
        lines.append(_("Instead of exchanging you may knock: everyone else gets one more "
                       "turn, then all hands are shown."))
    else:
        lines.append(_("Instead of exchanging you may stop the bus: everyone else gets one "
                       "more turn, then all hands are shown."))
    if rules.stop_after_swap:
        lines.append(_("You may swap and then stop the bus in the same turn."))
    if rules.may_pass:
        lines.append(_("You may pass your turn at any time."))
    else:
        lines.append(_("Passing is allowed only in the final round, after the bus is "
                       "stopped."))

    if rules.ranking == "commerce":
        lines.append(_("Commerce hands: tricon > sequence > flush > pair > point "
                       "(A = 11, pictures 10)."))
    else:
        if rules.threes_high:
            lines.append(_("Brag hands: prial > running flush > run > flush > pair > high "
                           "card. 3-3-3 is the best prial, then A-A-A down to 2-2-2."))
        else:
            lines.append(_("Brag hands: prial > running flush > run > flush > pair > high "
                           "card. A-A-A is the best prial, 2-2-2 the lowest."))
        lines.append({
            "top": _("A-2-3 is the best run, above A-K-Q."),
            "bottom": _("A-2-3 is the lowest run, below 2-3-4."),
            "none": _("A-2-3 is not a run; Q-K-A is the best run."),
        }[rules.ace_low_run])
        if rules.thirty_one:
            lines.append(_("Thirty-one (three cards of one suit worth 31, A = 11, pictures "
                           "10) beats every prial."))
        if rules.blitz:
            lines.append(_("Holding thirty-one at the end of your turn is a blitz: play "
                           "ends at once."))
        if rules.blitz_prials:
            lines.append(_("3-3-3 and A-A-A also blitz, and beat thirty-one."))
    if rules.tie_rule == "suits":
        lines.append(_("Equal hands: the suit of the highest card decides (spades > hearts "
                       "> diamonds > clubs)."))
    else:
        lines.append(_("Equal hands: they share the result."))

    if rules.scoring == "lives":
        lines.append(ngettext(
            "Everyone starts with %(lives)d life; the worst hand loses one.",
            "Everyone starts with %(lives)d lives; the worst hand loses one.",
            rules.starting_lives) % {"lives": rules.starting_lives})
        if rules.stopper_penalty > 1:
            lines.append(ngettext(
                "If the player who stopped has the worst hand, they lose %(lives)d life.",
                "If the player who stopped has the worst hand, they lose %(lives)d lives.",
                rules.stopper_penalty) % {"lives": rules.stopper_penalty})
        if rules.floating:
            lines.append(_("With no lives left you float on; losing again puts you out."))
        else:
            lines.append(_("You are out when your lives reach 0."))
        lines.append(_("The last player in wins."))
    elif rules.scoring == "points":
        lines.append(ngettext(
            "The best hand of each showdown scores a point; the first to %(target)d alone "
            "wins.",
            "The best hand of each showdown scores a point; the first to %(target)d alone "
            "wins.", rules.target_points) % {"target": rules.target_points})
    else:
        lines.append(ngettext(
            "Everyone starts with %(chips)d chip and antes 1 a hand; the best hand takes the "
            "pot. The last player with chips wins.",
            "Everyone starts with %(chips)d chips and antes 1 a hand; the best hand takes the "
            "pot. The last player with chips wins.",
            rules.starting_chips) % {"chips": rules.starting_chips})
    lines.append(_("%(min)d to %(max)d players.") % {"min": rules.min_players,
                                                     "max": rules.max_players})
    return lines


# The presets' own words, marked for translation: the engine's PRESETS and the
# descriptions the data migration stored (games/migrations/0002_variant_presets.py);
# tests/test_i18n_rules.py checks that this list and those two agree.
PRESET_WORDS = frozenset((
    gettext_noop("Stop the Bus (classic)"),
    gettext_noop("Bastard as it is played in pubs: swap with three cards in the middle, "
                 "3-3-3 best, three lives, floating."),
    gettext_noop("The pub game: swap one card at a time with the three in the middle, or stop "
                 "the bus. 3-3-3 is the best hand, A-2-3 the best run. Three lives each, and "
                 "with none left you float on until you lose again."),
    gettext_noop("Stop the Bus (draw & discard)"),
    gettext_noop("Draw from the stock or take the discard, as described on pagat.com; equal "
                 "hands are split by suit."),
    gettext_noop("Draw from the stock or take the top discard, then throw one away. Equal "
                 "hands are split by suit: the best suit of the highest card wins."),
    gettext_noop("Stop the Bus (house of seed 002)"),  # the aces-high preset's first name
    gettext_noop("Stop the Bus (aces high)"),
    gettext_noop("Aces high: A-A-A is the best prial and A-2-3 is no run; you may swap and "
                 "stop in the same turn; out at zero lives."),
    gettext_noop("Aces high: A-A-A is the best prial and A-2-3 is no run. You may swap and "
                 "stop the bus in the same turn, and you are out at zero lives."),
    gettext_noop("Thirty-One Blitz"),
    gettext_noop("Stock and discard; thirty-one in one suit beats everything and ends play "
                 "at once."),
    gettext_noop("Draw and discard, chasing thirty-one in one suit: it beats every other "
                 "hand, and holding it at the end of your turn ends play at once."),
    gettext_noop("Race to Five"),
    gettext_noop("No lives: the best hand of each showdown scores a point; first to five "
                 "wins."),
    gettext_noop("No lives to lose: the best hand at each showdown scores a point, and the "
                 "first to five points alone wins."),
    gettext_noop("Commerce"),
    gettext_noop("The French forerunner: swap up to three cards, the dealer may swap unseen, "
                 "knock to end, best hand takes the pot."),
    gettext_noop("The old French game for 3 to 10: swap up to three cards with the middle, "
                 "the dealer may swap blind, knock to end the play. Everyone antes a chip and "
                 "the best hand takes the pot."),
    gettext_noop("Double-or-nothing stop"),
    gettext_noop("Classic rules, but a stopper with the worst hand loses two lives."),
    gettext_noop("Classic rules with a sting: if you stop the bus and end up with the worst "
                 "hand, you lose two lives."),
    gettext_noop("Three Card Brag"),
    gettext_noop("The British betting game: blind play, seeing, covering the pot, and no "
                 "shuffle unless a pot is won with a prial."),
    # the description 0005 stored (kept translated for a row the data migration 0012
    # left as it was), and the one 0012 stores in its place
    gettext_noop("The seed's betting game: ante 1, stakes of 1 to 10 with raises up to 10, "
                 "blind play, and the pack shuffled only after a prial wins."),
    gettext_noop("The British betting game: ante 1, stakes of 1 to 10 with raises up to 10, "
                 "blind play, and the pack shuffled only after a prial wins."),
    gettext_noop("Pot-limit Brag"),
    gettext_noop("Three Card Brag where a stake may be as large as the pot, with a fresh "
                 "shuffle before every hand."),
    gettext_noop("Three Card Brag where a stake may be as big as the pot, with a fresh "
                 "shuffle before every hand."),
))


def _chips(count: int) -> str:
    return ngettext("%(count)d chip", "%(count)d chips", count) % {"count": count}


def describe_brag(rules) -> list[str]:
    """A Brag variant's rules (BragRules), one sentence each, in the active language: in
    English word for word the engine's ``describe_brag_rules``."""
    if rules.ante:
        lines = [_("Everyone starts with %(chips)s and antes %(ante)s before each deal of "
                   "three cards.") % {"chips": _chips(rules.starting_chips),
                                      "ante": _chips(rules.ante)}]
    else:
        lines = [_("Everyone starts with %(chips)s. There is no ante: the first bet opens the "
                   "pot. If everyone but one player folds before anybody bets, the hand is "
                   "void: nobody wins anything, and the deal passes.") % {
            "chips": _chips(rules.starting_chips)}]
    if rules.blind_play:
        lines.append(_("Everyone starts blind: you may bet without looking, and a blind bet "
                       "costs half the stake. Looking is free, at any time."))
    else:
        lines.append(_("No blind play: everyone looks at their cards as they are dealt."))
    if rules.betting == "limit" and rules.max_raise:
        lines.append(_("Limit betting: the first stake is %(min)d to %(max)d; each later bet "
                       "may raise the stake by up to %(raise)d.") % {
            "min": rules.min_bet, "max": rules.max_bet, "raise": rules.max_raise})
    elif rules.betting == "limit":
        lines.append(_("Limit betting with fixed stakes: the first stake is %(min)d to "
                       "%(max)d, and no later bet may raise it.") % {
            "min": rules.min_bet, "max": rules.max_bet})
    elif rules.ante:
        lines.append(_("Pot-limit betting: the first stake is at least %(min)d; no stake may "
                       "be more than all the chips in the middle.") % {"min": rules.min_bet})
    else:
        lines.append(_("Pot-limit betting: the first stake is %(min)d, as the pot starts "
                       "empty; no stake may be more than all the chips in the middle.") % {
            "min": rules.min_bet})
    lines.append(_("With two players left, either may see the other for twice the cost of "
                   "staying in; ties go against the player who sees, and a losing seer's "
                   "cards are never shown. You can't see a blind man, unless you are blind "
                   "too."))
    lines.append(_("A player who cannot afford the smallest bet may cover the pot with the "
                   "chips they have left, and plays for that pot only."))
    if rules.threes_high:
        lines.append(_("Brag hands: prial > running flush > run > flush > pair > high card. "
                       "3-3-3 is the best prial, then A-A-A down to 2-2-2."))
    else:
        lines.append(_("Brag hands: prial > running flush > run > flush > pair > high card. "
                       "A-A-A is the best prial, 2-2-2 the lowest."))
    lines.append({
        "top": _("A-2-3 is the best run, above A-K-Q."),
        "bottom": _("A-2-3 is the lowest run, below 2-3-4."),
        "none": _("A-2-3 is not a run; Q-K-A is the best run."),
    }[rules.ace_low_run])
    if rules.shuffle == "prial_only":
        lines.append(_("The pack is not shuffled between hands, unless a pot was won with a "
                       "prial shown."))
    else:
        lines.append(_("The pack is shuffled before every hand."))
    if rules.max_hands:
        # the engine writes "hands" for any number; English stays word for word with it
        lines.append(_("The game ends after %(hands)d hands, or sooner when one player has "
                       "every chip; places go by chips.") % {"hands": rules.max_hands})
    else:
        lines.append(_("The game goes on until one player has every chip."))
    lines.append(_("%(min)d to %(max)d players.") % {"min": rules.min_players,
                                                     "max": rules.max_players})
    return lines


def preset_words() -> set[str]:
    """Every preset's name and description, of every game kind, as the engines and the
    data migrations write them."""
    migrations = "games.migrations."
    stored = [*importlib.import_module(migrations + "0002_variant_presets").PRESETS,
              *importlib.import_module(migrations + "0005_brag_presets_and_aces_high")
              .BRAG_PRESETS,
              *importlib.import_module(migrations + "0012_brag_description_words").BRAG_PRESETS]
    presets = [*PRESETS.values(), *BRAG_PRESETS.values()]
    return ({p.name for p in presets} | {p.description for p in presets}
            | {p["name"] for p in stored} | {p["description"] for p in stored})


def translate_stored(text: str) -> str:
    return _(text) if text in PRESET_WORDS else text


def variant_name(variant) -> str:
    """A variant's name: a preset's translated, one an admin named shown as written."""
    return translate_stored(variant.name)


def variant_description(variant) -> str:
    """A variant's description in the reader's language: an admin's Japanese words where
    they gave them, else a preset's own words translated, else as written."""
    own = getattr(variant, "description_ja", "")
    if own and (translation.get_language() or "").split("-")[0] == "ja":
        return own
    return translate_stored(variant.description)


# The engine's option labels (games/engine/rules.py EXCHANGES, RANKINGS, ACE_LOW_RUNS,
# TIE_RULES, SCORINGS and games/engine/bots.py BOT_LEVELS), marked for translation:
# games/models.py shows them through gettext_lazy.
CHOICE_LABELS = frozenset((
    gettext_noop("Widow (swap with three face-up cards)"),
    gettext_noop("Stock and discard pile"),
    gettext_noop("Brag hands"),
    gettext_noop("Commerce hands"),
    gettext_noop("A-2-3 is the best run"),
    gettext_noop("A-2-3 is the lowest run"),
    gettext_noop("A-2-3 is not a run"),
    gettext_noop("Everyone tied for worst loses"),
    gettext_noop("Broken by the suit of the highest card"),
    gettext_noop("Lives"),
    gettext_noop("Points"),
    gettext_noop("Pot (chips)"),
    gettext_noop("Beginner"),
    gettext_noop("Casual"),
    gettext_noop("Expert"),
))

# Each house rule's label, for forms and the admin (the model fields keep their
# automatic English names, so that labelling them needs no migration).
RULE_LABELS = {
    "exchange": gettext_lazy("Exchange"),
    "ranking": gettext_lazy("Hand ranking"),
    "threes_high": gettext_lazy("Threes high"),
    "ace_low_run": gettext_lazy("A-2-3 run"),
    "tie_rule": gettext_lazy("Equal hands"),
    "thirty_one": gettext_lazy("Thirty-one"),
    "blitz": gettext_lazy("Blitz"),
    "blitz_prials": gettext_lazy("Blitz prials"),
    "may_pass": gettext_lazy("May pass"),
    "stop_after_swap": gettext_lazy("Stop after a swap"),
    "swap_limit": gettext_lazy("Swap limit"),
    "dealer_blind_swap": gettext_lazy("Dealer's unseen swap"),
    "starting_lives": gettext_lazy("Starting lives"),
    "stopper_penalty": gettext_lazy("Stopper's penalty"),
    "floating": gettext_lazy("Floating"),
    "scoring": gettext_lazy("Scoring"),
    "target_points": gettext_lazy("Target points"),
    "starting_chips": gettext_lazy("Starting chips"),
    "min_players": gettext_lazy("Fewest players"),
    "max_players": gettext_lazy("Most players"),
    "turn_seconds": gettext_lazy("Seconds per turn"),
    "rated": gettext_lazy("Rated"),
    "active": gettext_lazy("Active"),
    "description": gettext_lazy("Description"),
}


def fair_deal_recipe() -> str:
    """The few lines of Python that check a revealed deck against the commitment shown
    at the deal (README shows the same lines). The code is Python in every language;
    only its placeholders and its comment are in the reader's language."""
    commitment = _("the 64 characters from the log at the deal")
    salt = _("the revealed salt")
    deck = _("the revealed deck, e.g. QS 10H 2C …")
    whole = _("a whole pack (a reshuffle holds only the discards)")
    # what the lines print, as Python strings
    fair = json.dumps(pgettext("deck check", "fair"), ensure_ascii=False)
    unfair = json.dumps(_("NOT the deck that was sealed"), ensure_ascii=False)
    return (
        "import hashlib\n\n"
        f'commitment = "…{commitment}…"\n'
        f'salt = "…{salt}…"\n'
        f'deck = "…{deck}"\n\n'
        'computed = hashlib.sha256(f"{salt}:{deck}".encode()).hexdigest()\n'
        f"print({fair} if computed == commitment else {unfair})\n"
        f"print(len(set(deck.split())) == 52)  # {whole}"
    )
