"""Game events, hand values and cards in the reader's language.

The engine (games/engine) knows no Django and writes its events' ``text`` in
English once, for everyone. Each event also carries its code (``kind``) and
parameters (``seat``, ``data``, and ``private_data`` for what only ``seat`` may
see); this module says the same thing again with gettext in the active
language, so two players at one table can each read the log in their own.

In English the sentences are exactly the engine's ``text_for`` (a test holds
this over thousands of simulated events), so switching a page from
``text_for`` to :func:`event_text` changes nothing for English readers.

Card codes ("QS") and runs of codes ("Q-K-A") stay as they are in every
language, as on the seed's Japanese rules page ("3-A-K"); card names for
screen readers are words (:func:`card_name`: "Queen of spades", "スペードのクイーン").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games.bot_names import stand_in_name
from games.engine.cards import ACE, RANK_CODES, THREE, parse_card
from games.engine.game import Event, ordinal

# Lazy, so each lookup speaks the language active at that moment, not at import.
RANK_NAMES = (
    pgettext_lazy("card rank", "Two"), pgettext_lazy("card rank", "Three"),
    pgettext_lazy("card rank", "Four"), pgettext_lazy("card rank", "Five"),
    pgettext_lazy("card rank", "Six"), pgettext_lazy("card rank", "Seven"),
    pgettext_lazy("card rank", "Eight"), pgettext_lazy("card rank", "Nine"),
    pgettext_lazy("card rank", "Ten"), pgettext_lazy("card rank", "Jack"),
    pgettext_lazy("card rank", "Queen"), pgettext_lazy("card rank", "King"),
    pgettext_lazy("card rank", "Ace"),
)
# "Prial of queens", "Pair of fives"
RANK_PLURALS = (
    pgettext_lazy("ranks", "twos"), pgettext_lazy("ranks", "threes"),
    pgettext_lazy("ranks", "fours"), pgettext_lazy("ranks", "fives"),
    pgettext_lazy("ranks", "sixes"), pgettext_lazy("ranks", "sevens"),
    pgettext_lazy("ranks", "eights"), pgettext_lazy("ranks", "nines"),
    pgettext_lazy("ranks", "tens"), pgettext_lazy("ranks", "jacks"),
    pgettext_lazy("ranks", "queens"), pgettext_lazy("ranks", "kings"),
    pgettext_lazy("ranks", "aces"),
)
# "nine kicker"
KICKER_NAMES = (
    pgettext_lazy("kicker", "two"), pgettext_lazy("kicker", "three"),
    pgettext_lazy("kicker", "four"), pgettext_lazy("kicker", "five"),
    pgettext_lazy("kicker", "six"), pgettext_lazy("kicker", "seven"),
    pgettext_lazy("kicker", "eight"), pgettext_lazy("kicker", "nine"),
    pgettext_lazy("kicker", "ten"), pgettext_lazy("kicker", "jack"),
    pgettext_lazy("kicker", "queen"), pgettext_lazy("kicker", "king"),
    pgettext_lazy("kicker", "ace"),
)
SUIT_NAMES = (
    pgettext_lazy("suit", "clubs"), pgettext_lazy("suit", "diamonds"),
    pgettext_lazy("suit", "hearts"), pgettext_lazy("suit", "spades"),
)
CATEGORY_LABELS = {
    "thirty_one": gettext_lazy("Thirty-one"),
    "prial": gettext_lazy("Prial"),
    "running_flush": gettext_lazy("Running flush"),
    "run": gettext_lazy("Run"),
    "flush": gettext_lazy("Flush"),
    "pair": gettext_lazy("Pair"),
    "high_card": gettext_lazy("High card"),
    "tricon": gettext_lazy("Tricon"),
    "sequence": gettext_lazy("Sequence"),
    "point": gettext_lazy("Point"),
}

EVENT_KINDS = (
    "cut", "commitment", "deal", "swap", "stop", "pass", "draw", "take_discard", "discard",
    "dealer_swap", "blitz", "reshuffle", "showdown", "void", "life_lost", "out",
    "point", "pot", "game_over",
)


# -- cards and hands -----------------------------------------------------------


def card_name(card) -> str:
    """A card's full name for a screen reader: "Queen of spades" / "スペードのクイーン"."""
    c = parse_card(card)
    return pgettext("card name", "%(rank)s of %(suit)s") % {
        "rank": RANK_NAMES[c >> 2], "suit": SUIT_NAMES[c & 3]}


def category_label(category: str) -> str:
    """"Run" / "ラン"; an unknown key is shown as it is rather than failing a page."""
    label = CATEGORY_LABELS.get(category)
    return str(label) if label is not None else category


def _seq(ranks) -> str:
    return "-".join(RANK_CODES[r] for r in ranks)


def _points(ranks) -> int:
    return sum(11 if r == ACE else min(r + 2, 10) for r in ranks)


def _run_order(r1: int, r2: int, r3: int) -> list[int] | None:
    """The run's ranks low to high as the engine writes them, or None if no run."""
    if r1 - r3 == 2 and r1 != r2 != r3:
        return [r3, r2, r1]
    if (r1, r2, r3) == (ACE, THREE, 0):
        return [ACE, 0, THREE]
    return None


def hand_words(category: str, cards: Sequence, ranking: str = "brag") -> str:
    """A hand's value in words ("Run, Q-K-A" / "ラン（Q-K-A）") from its category and cards.

    The same words as the engine's ``HandValue.description`` in English; the
    category (which depends on the house rules) is the engine's, so only the
    wording is decided here. ``ranking`` is "brag" or "commerce", whose flush is
    said with its points.
    """
    ordered = sorted((parse_card(c) for c in cards), reverse=True)
    r1, r2, r3 = (c >> 2 for c in ordered)
    seq = _seq([r1, r2, r3])
    if category in ("prial", "tricon"):
        words = {"ranks": RANK_PLURALS[r1]}
        if category == "prial":
            return _("Prial of %(ranks)s") % words
        return _("Tricon of %(ranks)s") % words
    if category == "thirty_one":
        return _("Thirty-one, %(cards)s of %(suit)s") % {
            "cards": seq, "suit": SUIT_NAMES[ordered[0] & 3]}
    if category in ("run", "running_flush", "sequence"):
        run = _seq(_run_order(r1, r2, r3) or [r3, r2, r1])
        if category == "run":
            return _("Run, %(cards)s") % {"cards": run}
        if category == "running_flush":
            return _("Running flush, %(cards)s") % {"cards": run}
        return _("Sequence, %(cards)s") % {"cards": run}
    if category == "pair":
        pair, kicker = (r1, r3) if r1 == r2 else (r2, r1)
        return _("Pair of %(ranks)s, %(kicker)s kicker") % {
            "ranks": RANK_PLURALS[pair], "kicker": KICKER_NAMES[kicker]}
    if category == "flush":
        if ranking == "commerce":
            points = _points([r1, r2, r3])
            return ngettext("Flush, %(points)d point (%(cards)s)",
                            "Flush, %(points)d points (%(cards)s)", points) % {
                "points": points, "cards": seq}
        return _("Flush, %(cards)s") % {"cards": seq}
    if category == "point":
        return _("Point %(points)d (%(cards)s)") % {"points": _points([r1, r2, r3]),
                                                    "cards": seq}
    if category == "high_card":
        return _("High card, %(cards)s") % {"cards": seq}
    return f"{category_label(category)}, {seq}"


# -- events ----------------------------------------------------------------------


def _cards(codes) -> str:
    return pgettext("list of cards", ", ").join(codes)


def _as_dict(event) -> dict:
    return event.to_dict() if isinstance(event, Event) else event


def event_text(event, names: Sequence[str] | Mapping[int, str], viewer: int | None = None,
               *, ranking: str = "brag") -> str:
    """``event`` (an engine Event or its dict) as a sentence for ``viewer`` (a seat or None).

    ``names`` are the seats' names (the game state's ``names``); ``ranking`` is the
    rules' ranking ("brag" or "commerce": Commerce words a few hands differently).
    The seat an event is private to reads the private sentence ("You drew QS from
    the stock"); everyone else reads the public one. An event stored before events
    carried their parameters is shown in its stored English words.
    """
    event = _as_dict(event)
    kind = event.get("kind")
    say = _SAYERS.get(kind)
    if say is None:
        return event.get("text", "")
    private = (viewer is not None and viewer == event.get("seat")
               and event.get("private_data") is not None)
    try:
        return say(event, event.get("data", {}), names, private, ranking)
    except (KeyError, IndexError, TypeError, ValueError):
        return event.get("text", "")


def _name(names, seat) -> str:
    return str(names[seat])


def _say_cut(event, data, names, private, ranking):
    entries = pgettext("list separator", ", ").join(
        pgettext("cut entry", "%(name)s %(card)s") % {"name": _name(names, i), "card": code}
        for i, code in enumerate(data["cut"]))
    return _("Cut for the deal: %(entries)s. %(dealer)s has the lowest card and deals.") % {
        "entries": entries, "dealer": _name(names, data["dealer"])}


def _say_deal(event, data, names, private, ranking):
    words = {"hand": data["hand"], "dealer": _name(names, data["dealer"]),
             "pot": data.get("pot"), "card": data.get("discard")}
    # Whole sentences for each case, so that no language has to join pieces.
    if "widow" in data:
        words["cards"] = _cards(data["widow"])
        if "pot" in data:
            return _("Hand %(hand)d: %(dealer)s deals. Everyone antes 1 chip; the pot is "
                     "%(pot)d. The widow: %(cards)s.") % words
        return _("Hand %(hand)d: %(dealer)s deals. The widow: %(cards)s.") % words
    if "discard" not in data:
        raise KeyError("discard")  # stored before deals carried their cards
    if "pot" in data:
        return _("Hand %(hand)d: %(dealer)s deals. Everyone antes 1 chip; the pot is "
                 "%(pot)d. The discard pile starts with %(card)s.") % words
    return _("Hand %(hand)d: %(dealer)s deals. The discard pile starts with %(card)s.") % words


def _say_swap(event, data, names, private, ranking):
    return _("%(name)s swapped %(given)s for %(taken)s") % {
        "name": _name(names, event["seat"]), "given": _cards(data["give"]),
        "taken": _cards(data["take"])}


def _say_stop(event, data, names, private, ranking):
    name = {"name": _name(names, event["seat"])}
    if data["knock"]:
        return _("%(name)s knocked") % name
    return _("%(name)s stopped the bus") % name


def _say_pass(event, data, names, private, ranking):
    return _("%(name)s passed") % {"name": _name(names, event["seat"])}


def _say_draw(event, data, names, private, ranking):
    if private:
        return _("You drew %(card)s from the stock") % {"card": event["private_data"]["card"]}
    return _("%(name)s drew from the stock") % {"name": _name(names, event["seat"])}


def _say_take_discard(event, data, names, private, ranking):
    return _("%(name)s took %(card)s from the discard pile") % {
        "name": _name(names, event["seat"]), "card": data["card"]}


def _say_discard(event, data, names, private, ranking):
    return _("%(name)s discarded %(card)s") % {
        "name": _name(names, event["seat"]), "card": data["card"]}


def _say_dealer_swap(event, data, names, private, ranking):
    name = _name(names, event["seat"])
    if not data.get("take"):
        return _("%(name)s keeps the dealt hand unseen") % {"name": name}
    count = len(data["take"])
    return ngettext(
        "%(name)s swapped %(count)d card unseen for %(taken)s; %(given)s went face up "
        "to the middle",
        "%(name)s swapped %(count)d cards unseen for %(taken)s; %(given)s went face up "
        "to the middle", count) % {
        "name": name, "count": count, "taken": _cards(data["take"]),
        "given": _cards(data["give"])}


def _say_blitz(event, data, names, private, ranking):
    return _("%(name)s blitzes with %(hand)s! Play ends at once.") % {
        "name": _name(names, event["seat"]),
        "hand": _hand(data["category"], data["cards"], ranking)}


def _say_reshuffle(event, data, names, private, ranking):
    count = data["count"]
    return ngettext(
        "The stock ran out: the discard pile but its top card was shuffled into a new "
        "stock of %(count)d card, sealed as SHA-256 %(commitment)s.",
        "The stock ran out: the discard pile but its top card was shuffled into a new "
        "stock of %(count)d cards, sealed as SHA-256 %(commitment)s.", count) % {
            "count": count, "commitment": data["commitment"]}


def _say_commitment(event, data, names, private, ranking):
    return _("Hand %(hand)d's deck is sealed: SHA-256 %(commitment)s. The deck and salt are "
             "revealed after the showdown.") % {"hand": data["hand"],
                                                 "commitment": data["commitment"]}


def _say_showdown(event, data, names, private, ranking):
    entries = pgettext("showdown separator", "; ").join(
        pgettext("showdown entry", "%(name)s %(hand)s (%(cards)s)") % {
            "name": _name(names, seat), "hand": _hand(category, cards, ranking),
            "cards": _cards(cards)}
        for seat, category, cards in zip(data["seats"], data["categories"], data["cards"],
                                         strict=True))
    return _("Showdown: %(hands)s") % {"hands": entries}


def _say_void(event, data, names, private, ranking):
    return _("Everyone left would be out, so nobody loses a life this hand.")


def _say_life_lost(event, data, names, private, ranking):
    lost, lives = data["lost"], data["lives"]
    words = {"name": _name(names, event["seat"]), "lost": lost, "lives": lives}
    if data["floating"]:
        if data["penalty"]:
            return ngettext(
                "%(name)s lost a life (the stopper's penalty) and is floating",
                "%(name)s lost %(lost)d lives (the stopper's penalty) and is floating",
                lost) % words
        return ngettext("%(name)s lost a life and is floating",
                        "%(name)s lost %(lost)d lives and is floating", lost) % words
    words["left"] = ngettext("%(lives)d life left", "%(lives)d lives left", lives) % words
    if data["penalty"]:
        return ngettext("%(name)s lost a life (the stopper's penalty) (%(left)s)",
                        "%(name)s lost %(lost)d lives (the stopper's penalty) (%(left)s)",
                        lost) % words
    return ngettext("%(name)s lost a life (%(left)s)",
                    "%(name)s lost %(lost)d lives (%(left)s)", lost) % words


def _say_out(event, data, names, private, ranking):
    place = data["place"]
    # English says "3rd"; other languages use the number (both are offered).
    words = {"name": _name(names, event["seat"]), "place": place,
             "ordinal": ordinal(place) if _speaks_english() else str(place)}
    shared = data["shared"]
    if data["reason"] == "no_chips":
        if shared:
            return _("%(name)s has no chips left to ante and is out in %(ordinal)s place "
                     "(shared)") % words
        return _("%(name)s has no chips left to ante and is out in %(ordinal)s place") % words
    if shared:
        return _("%(name)s has the worst hand and is out in %(ordinal)s place (shared)") % words
    return _("%(name)s has the worst hand and is out in %(ordinal)s place") % words


def _say_point(event, data, names, private, ranking):
    return _("%(name)s has the best hand and scores a point (%(points)d)") % {
        "name": _name(names, event["seat"]), "points": data["points"]}


def _say_pot(event, data, names, private, ranking):
    pot = data["pot"]
    if "winners" in data:
        joined = pgettext("names joined", " and ").join(
            _name(names, seat) for seat in data["winners"])
        return ngettext("%(names)s split the pot of %(pot)d chip",
                        "%(names)s split the pot of %(pot)d chips", pot) % {
            "names": joined, "pot": pot}
    return ngettext("%(name)s wins the pot of %(pot)d chip",
                    "%(name)s wins the pot of %(pot)d chips", pot) % {
        "name": _name(names, event["seat"]), "pot": pot}


def _say_game_over(event, data, names, private, ranking):
    return _("%(name)s wins the game!") % {"name": _name(names, event["seat"])}


def _speaks_english() -> bool:
    return (translation.get_language() or "en").split("-")[0] == "en"


def _hand(category, cards, ranking):
    return hand_words(category, cards, ranking)


def _say_left(event, data, names, private, ranking=None):
    # not the engine's: the table's, when a player leaves a game under way (actions.presence);
    # the bot is named in the reader's language (the event stores its English name)
    name = _name(names, event["seat"])
    return _("%(name)s left the table; %(bot)s plays their seat.") % {
        "name": name, "bot": stand_in_name(name)}


_SAYERS = {
    "cut": _say_cut,
    "deal": _say_deal,
    "swap": _say_swap,
    "stop": _say_stop,
    "pass": _say_pass,
    "draw": _say_draw,
    "take_discard": _say_take_discard,
    "discard": _say_discard,
    "dealer_swap": _say_dealer_swap,
    "blitz": _say_blitz,
    "reshuffle": _say_reshuffle,
    "commitment": _say_commitment,
    "showdown": _say_showdown,
    "void": _say_void,
    "life_lost": _say_life_lost,
    "out": _say_out,
    "point": _say_point,
    "pot": _say_pot,
    "game_over": _say_game_over,
    "left": _say_left,
}


def place_label(place: int) -> str:
    """A finishing place: "3rd" / "3位"."""
    # English has its ordinals; other languages get the number to place in their words.
    return pgettext("finishing place", "%(ordinal)s") % {
        "ordinal": ordinal(place) if _speaks_english() else str(place)}


# -- Three Card Brag's events --------------------------------------------------------------------
#
# A Brag event's data carries every fact its words say (games/engine/brag/game.py, "Words"):
# a deal's ante and pot, the hands a see or a closed pot shows, a look's cards (its
# private_data), whether a pot was won showing, a closed pot's tie, the last player in a
# void hand (no ante, nobody bet). The sentences below are built from it; the regular
# expressions further down are for stored events alone.
#
# Events stored before the data carried those facts (games played earlier, kept in the
# database) lack the keys. For them alone, the readers further down (_BRAG_READERS) take the
# facts back out of the engine's English words, which are exact (the engine wrote them from
# the hand values: a hand's English description gives its category and ranks), and the
# sentence is said from those. An event that cannot be read either way is shown as stored.


def _chips_words(count: int) -> str:
    return ngettext("%(count)d chip", "%(count)d chips", count) % {"count": count}


def _brag_hand(hand: Mapping) -> str:
    """A shown hand (``{"category", "cards"}``) in the reader's words: lower-cased in
    English, as the engine writes it inside a sentence ("pair of threes, king kicker")."""
    words = hand_words(hand["category"], hand["cards"], "brag")
    return words[:1].lower() + words[1:] if _speaks_english() else words


def _brag_deal(event, data, names, private):
    words = {"hand": data["hand"], "dealer": _name(names, data["dealer"]),
             "ante": _chips_words(data["ante"]), "pot": data["pot"]}
    if not data["ante"]:
        return _brag_deal_without_ante(data, words)
    if not data.get("shuffled"):
        return _("Hand %(hand)d: %(dealer)s deals from the unshuffled pack. Everyone antes "
                 "%(ante)s; the pot is %(pot)d.") % words
    words["commitment"] = data["commitment"][:12]
    if data["after_prial"]:
        return _("Hand %(hand)d: %(dealer)s deals from a freshly shuffled pack (commitment "
                 "%(commitment)s…), because the last pot was won with a prial. Everyone "
                 "antes %(ante)s; the pot is %(pot)d.") % words
    return _("Hand %(hand)d: %(dealer)s deals from a freshly shuffled pack (commitment "
             "%(commitment)s…). Everyone antes %(ante)s; the pot is %(pot)d.") % words


def _brag_deal_without_ante(data, words):
    """A deal under the house rule "no ante" (ante 0): the first bet opens the pot."""
    if not data.get("shuffled"):
        return _("Hand %(hand)d: %(dealer)s deals from the unshuffled pack. There is no ante: "
                 "the first bet opens the pot.") % words
    words["commitment"] = data["commitment"][:12]
    if data["after_prial"]:
        return _("Hand %(hand)d: %(dealer)s deals from a freshly shuffled pack (commitment "
                 "%(commitment)s…), because the last pot was won with a prial. There is no "
                 "ante: the first bet opens the pot.") % words
    return _("Hand %(hand)d: %(dealer)s deals from a freshly shuffled pack (commitment "
             "%(commitment)s…). There is no ante: the first bet opens the pot.") % words


def _brag_void_hand(event, data, names, private):
    return _("Everyone but %(name)s folded before anyone bet: there is no pot, and the hand "
             "is void") % {"name": _name(names, data["last_in"])}


def _brag_look(event, data, names, private):
    if private:
        hand = event["private_data"]
        return _("You look at your cards: %(cards)s, %(hand)s") % {
            "cards": " ".join(hand["cards"]), "hand": _brag_hand(hand)}
    return _("%(name)s looks at their cards and is now seen") % {
        "name": _name(names, event["seat"])}


def _brag_fold(event, data, names, private):
    return _("%(name)s folds") % {"name": _name(names, event["seat"])}


def _brag_bet(event, data, names, private):
    words = {"name": _name(names, event["seat"]), "cost": data["cost"], "stake": data["stake"]}
    if data["blind"]:
        return _("%(name)s, blind, bets %(cost)d (stake %(stake)d)") % words
    return _("%(name)s bets %(cost)d") % words


def _brag_cover(event, data, names, private):
    words = {"name": _name(names, event["seat"]), "pot": data["pot"]}
    if data["chips"]:
        words["chips"] = _chips_words(data["chips"])
        return _("%(name)s covers the pot with their last %(chips)s: a closed pot of "
                 "%(pot)d; the others play on for a new pot") % words
    return _("%(name)s covers the pot with nothing left to bet: a closed pot of %(pot)d; "
             "the others play on for a new pot") % words


def _brag_see(event, data, names, private):
    words = {"name": _name(names, event["seat"]), "other": _name(names, data["against"]),
             "cost": data["cost"], "theirs": _brag_hand(data["against_hand"])}
    if data["seer_won"]:
        words["mine"] = _brag_hand(data["seer_hand"])
        if data["blind"]:
            return _("%(name)s, blind, sees %(other)s for %(cost)d — %(name)s's %(mine)s "
                     "beats %(other)s's %(theirs)s") % words
        return _("%(name)s sees %(other)s for %(cost)d — %(name)s's %(mine)s beats "
                 "%(other)s's %(theirs)s") % words
    if data["blind"]:
        return _("%(name)s, blind, sees %(other)s for %(cost)d — %(other)s's %(theirs)s "
                 "wins; %(name)s's hand is not shown") % words
    return _("%(name)s sees %(other)s for %(cost)d — %(other)s's %(theirs)s wins; "
             "%(name)s's hand is not shown") % words


def _brag_pot(event, data, names, private):
    words = {"name": _name(names, event["seat"]), "chips": data["chips"]}
    if not data["shown"]:
        return _("%(name)s wins the pot of %(chips)d without showing") % words
    return _("%(name)s wins the pot of %(chips)d") % words


def _brag_closed_pot(event, data, names, private):
    words = {"coverer": _name(names, data["coverer"]), "holder": _name(names, data["holder"]),
             "chips": data["chips"], "theirs": _brag_hand(data["coverer_hand"]),
             "mine": _brag_hand(data["holder_hand"])}
    if event["seat"] == data["coverer"]:
        return _("%(coverer)s's covered %(theirs)s beats %(holder)s's %(mine)s: "
                 "%(coverer)s takes the closed pot of %(chips)d") % words
    if data["tie"]:
        return _("%(holder)s's %(mine)s beats %(coverer)s's covered %(theirs)s (a tie goes "
                 "to the later pot's winner): %(holder)s takes the closed pot of "
                 "%(chips)d") % words
    return _("%(holder)s's %(mine)s beats %(coverer)s's covered %(theirs)s: %(holder)s "
             "takes the closed pot of %(chips)d") % words


def _brag_prial(event, data, names, private):
    return _("A pot was won with a prial shown: the pack will be shuffled before the next "
             "hand.")


def _brag_out(event, data, names, private):
    name = _name(names, event["seat"])
    if data.get("ante", 1) == 0:  # (events stored before carried no ante: there was one)
        return _("%(name)s has no chips left and is out") % {"name": name}
    if data["chips"] == 0:
        return _("%(name)s has no chips, too few to ante, and is out") % {"name": name}
    return _("%(name)s has only %(chips)s, too few to ante, and is out") % {
        "name": name, "chips": _chips_words(data["chips"])}


def _brag_game_over(event, data, names, private):
    places, chips = data["places"], data["chips"]
    firsts = [seat for seat, place in enumerate(places) if place == 1]
    if event.get("seat") is not None:
        head = _("%(name)s wins the game with %(chips)s") % {
            "name": _name(names, event["seat"]), "chips": _chips_words(chips[event["seat"]])}
    else:
        head = _("%(names)s share first place with %(chips)s each") % {
            "names": _(" and ").join(_name(names, seat) for seat in firsts),
            "chips": _chips_words(chips[firsts[0]])}
    rows = pgettext("showdown separator", "; ").join(
        _("%(place)s %(name)s (%(chips)d)") % {
            "place": place_label(places[seat]), "name": _name(names, seat),
            "chips": chips[seat]}
        for seat in sorted(range(len(places)), key=lambda i: places[i]))
    return _("%(winners)s. %(places)s.") % {"winners": head, "places": rows}


_BRAG_SAYERS = {
    "cut": lambda event, data, names, private: _say_cut(event, data, names, private, "brag"),
    "deal": _brag_deal,
    "look": _brag_look,
    "fold": _brag_fold,
    "bet": _brag_bet,
    "cover": _brag_cover,
    "see": _brag_see,
    "pot": _brag_pot,
    "closed_pot": _brag_closed_pot,
    "void_hand": _brag_void_hand,
    "prial": _brag_prial,
    "out": _brag_out,
    "game_over": _brag_game_over,
}
BRAG_EVENT_KINDS = tuple(_BRAG_SAYERS)
_BRAG_SAYERS["left"] = _say_left  # the table's, in either game


def brag_event_text(event, names: Sequence[str] | Mapping[int, str],
                    viewer: int | None = None,
                    stored_names: Sequence[str] | Mapping[int, str] | None = None) -> str:
    """A Three Card Brag event as a sentence for ``viewer`` (a seat or None) in the
    active language; in English, the engine's own words. ``names`` are the seats' names
    as the reader reads them; ``stored_names`` those the game recorded, which an old
    event's words are read back with (by default ``names``)."""
    event = _as_dict(event)
    say = _BRAG_SAYERS.get(event.get("kind"))
    private = viewer is not None and viewer == event.get("seat") and (
        "private" in event or event.get("private_data") is not None)
    stored = event.get("private", event.get("text", "")) if private else event.get("text", "")
    if say is None:
        return stored
    try:
        event = _with_brag_facts(event, names if stored_names is None else stored_names,
                                 private)
        return say(event, event.get("data", {}), names, private)
    except (AttributeError, KeyError, IndexError, TypeError, ValueError):
        return stored  # words the engine no longer writes (an old game): as they were stored


# -- Brag events stored before their data carried every fact --------------------------------------
#
# Each reader takes an event dict and returns it with the facts its data lacks read back out
# of its English words (the words the engine wrote then, which it still writes); an event
# that already carries them comes back as it is. A reader raises (KeyError, AttributeError
# on a failed match) when the words are not the engine's.


@lru_cache(maxsize=1)
def _brag_hands_by_words() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each Brag hand description the engine can write ("pair of threes, king kicker"),
    lower-cased, -> (category, cards with those ranks). Said in English once."""
    found = {}
    with translation.override("en"):
        for ranks in combinations_with_replacement(range(13), 3):
            # distinct suits where ranks repeat (a prial), one suit otherwise (a flush);
            # only the ranks are in the words, and the category is the engine's
            suits = "CDH" if len(set(ranks)) < 3 else "SSS"
            cards = tuple(RANK_CODES[r] + s for r, s in zip(ranks, suits, strict=True))
            for category in ("prial", "running_flush", "run", "flush", "pair", "high_card"):
                words = hand_words(category, cards, "brag")
                found.setdefault(words[:1].lower() + words[1:], (category, cards))
    return found


def _hand_from_words(description: str, cards=None) -> dict:
    """A shown hand from the engine's lower-cased description (KeyError if it is not one):
    its category, and ``cards`` when the words named them, else cards of its ranks."""
    category, like = _brag_hands_by_words()[description]
    return {"category": category, "cards": list(cards or like)}


def _with_data(event, **facts) -> dict:
    return {**event, "data": {**event.get("data", {}), **facts}}


def _read_old_deal(event, names, private):
    if "ante" in event.get("data", {}):
        return event
    said = re.search(r"(, because the last pot was won with a prial)?\. Everyone antes "
                     r"(\d+) chips?; the pot is (\d+)\.$", event["text"])
    return _with_data(event, after_prial=bool(said.group(1)), ante=int(said.group(2)),
                      pot=int(said.group(3)))


def _read_old_look(event, names, private):
    if not private or event.get("private_data") is not None:
        return event
    looked = re.fullmatch(r"You look at your cards: (\S+ \S+ \S+), (.+)", event["private"])
    return {**event, "private_data": _hand_from_words(looked.group(2),
                                                      looked.group(1).split())}


def _read_old_see(event, names, private):
    data = event["data"]
    if "against_hand" in data:
        return event
    name, other = _name(names, event["seat"]), _name(names, data["against"])
    blind = ", blind," if data["blind"] else ""
    head = re.escape(f"{name}{blind} sees {other} for {data['cost']} — ")
    if data["seer_won"]:
        hands = re.fullmatch(head + re.escape(f"{name}'s ") + "(.+) beats "
                             + re.escape(f"{other}'s ") + "(.+)", event["text"])
        return _with_data(event, seer_hand=_hand_from_words(hands.group(1)),
                          against_hand=_hand_from_words(hands.group(2)))
    hands = re.fullmatch(head + re.escape(f"{other}'s ") + "(.+) wins; "
                         + re.escape(f"{name}'s hand is not shown"), event["text"])
    return _with_data(event, against_hand=_hand_from_words(hands.group(1)))


def _read_old_pot(event, names, private):
    if "shown" in event.get("data", {}):
        return event
    return _with_data(event, shown=not event["text"].endswith(" without showing"))


def _read_old_closed_pot(event, names, private):
    data = event["data"]
    if "holder_hand" in data:
        return event
    coverer, holder = _name(names, data["coverer"]), _name(names, data["holder"])
    tail = re.escape(f": {_name(names, event['seat'])} takes the closed pot of {data['chips']}")
    if event["seat"] == data["coverer"]:
        hands = re.fullmatch(re.escape(f"{coverer}'s covered ") + "(.+) beats "
                             + re.escape(f"{holder}'s ") + "(.+)" + tail, event["text"])
        return _with_data(event, tie=False, coverer_hand=_hand_from_words(hands.group(1)),
                          holder_hand=_hand_from_words(hands.group(2)))
    tie = " (a tie goes to the later pot's winner)"
    hands = re.fullmatch(re.escape(f"{holder}'s ") + "(.+) beats " + re.escape(
        f"{coverer}'s covered ") + "(.+?)(" + re.escape(tie) + ")?" + tail, event["text"])
    return _with_data(event, tie=bool(hands.group(3)),
                      holder_hand=_hand_from_words(hands.group(1)),
                      coverer_hand=_hand_from_words(hands.group(2)))


_BRAG_READERS = {
    "deal": _read_old_deal,
    "look": _read_old_look,
    "see": _read_old_see,
    "pot": _read_old_pot,
    "closed_pot": _read_old_closed_pot,
}


def _with_brag_facts(event, names, private) -> dict:
    """``event`` with every fact its sentence needs in its data: as it is for an event the
    engine writes now, read back from its words for one stored before."""
    read = _BRAG_READERS.get(event.get("kind"))
    return event if read is None else read(event, names, private)
