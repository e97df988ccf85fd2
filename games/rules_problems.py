"""What is wrong with a set of house rules, in the reader's language.

The engines (games/engine/rules.py and games/engine/brag/rules.py) stay free of
Django: a ``RulesError`` maps a field to English sentences. The admin shows them at
the fields, in a variant's rules in words and on the lab page; here each sentence is
read back (its figures and names taken out) and said again with gettext. In English
the result is word for word the engine's sentence; a sentence not known here (an
engine newer than this list) is shown as the engine wrote it rather than not at all.
tests/test_i18n_admin.py makes every engine refuse every rule it checks.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _

from .engine import RulesError

_NUMBER = r"-?\d+"


def _game(name: str) -> str:
    return _(name)  # "Stop the Bus" or "Commerce", already in the catalogue


# (the engine's sentence as a pattern, the same sentence from its parts via gettext)
PROBLEMS: tuple[tuple[re.Pattern, Callable[..., str]], ...] = tuple(
    (re.compile(pattern + r"\Z", re.DOTALL), say) for pattern, say in (
        (r"(?P<value>.+) is not one of: (?P<allowed>.+)\.",
         lambda value, allowed: _("%(value)s is not one of: %(allowed)s.") % {
             "value": value, "allowed": allowed}),
        (r"Must be on or off\.", lambda: _("Must be on or off.")),
        (r"Must be a whole number\.", lambda: _("Must be a whole number.")),
        (r"Blitz needs thirty-one hands: turn on 'thirty_one' first\.",
         lambda: _("Blitz needs thirty-one hands: turn on 'thirty_one' first.")),
        (r"Blitz prials need blitz to be on\.", lambda: _("Blitz prials need blitz to be on.")),
        (r"Thirty-one is a Brag hand; Commerce hands have no thirty-one\.",
         lambda: _("Thirty-one is a Brag hand; Commerce hands have no thirty-one.")),
        (r"A player can swap 1, 2 or 3 cards in a turn\.",
         lambda: _("A player can swap 1, 2 or 3 cards in a turn.")),
        (r"Swapping several cards needs the widow exchange\.",
         lambda: _("Swapping several cards needs the widow exchange.")),
        (r"The dealer's unseen swap is with the widow: it needs the widow exchange\.",
         lambda: _("The dealer's unseen swap is with the widow: it needs the widow "
                   "exchange.")),
        (r"Swapping and then stopping is a widow rule; with the stock a player who stops "
         r"does not draw\.",
         lambda: _("Swapping and then stopping is a widow rule; with the stock a player who "
                   "stops does not draw.")),
        (rf"Players start with 1 to (?P<most>{_NUMBER}) lives\.",
         lambda most: _("Players start with 1 to %(most)s lives.") % {"most": most}),
        (rf"The stopper's penalty is 1 to (?P<most>{_NUMBER}) lives\.",
         lambda most: _("The stopper's penalty is 1 to %(most)s lives.") % {"most": most}),
        (rf"A target of (?P<target>{_NUMBER}) points would end the game before it starts: "
         r"it must be at least 1\.",
         lambda target: _("A target of %(target)s points would end the game before it "
                          "starts: it must be at least 1.") % {"target": target}),
        (rf"The target is at most (?P<most>{_NUMBER}) points\.",
         lambda most: _("The target is at most %(most)s points.") % {"most": most}),
        (rf"Players start with 1 to (?P<most>{_NUMBER}) chips\.",
         lambda most: _("Players start with 1 to %(most)s chips.") % {"most": most}),
        (rf"(?P<game>.+) is for (?P<fewest>{_NUMBER}) to (?P<most>{_NUMBER}) players: the "
         rf"fewest cannot be (?P<count>{_NUMBER})\.",
         lambda game, fewest, most, count: _(
             "%(game)s is for %(fewest)s to %(most)s players: the fewest cannot be "
             "%(count)s.") % {"game": _game(game), "fewest": fewest, "most": most,
                              "count": count}),
        (rf"(?P<game>.+) is for (?P<fewest>{_NUMBER}) to (?P<most>{_NUMBER}) players: the "
         rf"most cannot be (?P<count>{_NUMBER})\.",
         lambda game, fewest, most, count: _(
             "%(game)s is for %(fewest)s to %(most)s players: the most cannot be "
             "%(count)s.") % {"game": _game(game), "fewest": fewest, "most": most,
                              "count": count}),
        (r"The most players cannot be fewer than the fewest\.",
         lambda: _("The most players cannot be fewer than the fewest.")),
        # Three Card Brag
        (r"The ante is at least 1 chip\.", lambda: _("The ante is at least 1 chip.")),
        (rf"An ante of (?P<ante>{_NUMBER}) is more than the (?P<chips>{_NUMBER}) chips "
         r"everyone starts with\.",
         lambda ante, chips: _("An ante of %(ante)s is more than the %(chips)s chips everyone "
                               "starts with.") % {"ante": ante, "chips": chips}),
        (r"The smallest stake is at least 1 chip\.",
         lambda: _("The smallest stake is at least 1 chip.")),
        (rf"The largest opening stake \((?P<most>{_NUMBER})\) cannot be below the smallest "
         rf"\((?P<least>{_NUMBER})\)\.",
         lambda most, least: _("The largest opening stake (%(most)s) cannot be below the "
                               "smallest (%(least)s).") % {"most": most, "least": least}),
        (r"A raise is at least 1 chip\.", lambda: _("A raise is at least 1 chip.")),
        (rf"Play 1 to (?P<most>{_NUMBER}) hands, or 0 to play until one player has every "
         r"chip\.",
         lambda most: _("Play 1 to %(most)s hands, or 0 to play until one player has every "
                        "chip.") % {"most": most}),
        (rf"It takes at least (?P<fewest>{_NUMBER}) players\.",
         lambda fewest: _("It takes at least %(fewest)s players.") % {"fewest": fewest}),
        (rf"Brag is for at most (?P<most>{_NUMBER}) players \((?P<count>{_NUMBER}) asked\)\.",
         lambda most, count: _("Brag is for at most %(most)s players (%(count)s asked).") % {
             "most": most, "count": count}),
    ))


def rules_problem(message: str) -> str:
    """One of the engines' sentences about impossible rules, in the active language."""
    text = str(message)
    for pattern, say in PROBLEMS:
        found = pattern.match(text)
        if found is not None:
            return say(**found.groupdict())
    return text


def rules_problems(exc: RulesError) -> list[str]:
    """Every sentence of a ``RulesError``, in the active language."""
    return [rules_problem(message) for messages in exc.errors.values() for message in messages]
