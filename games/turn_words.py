"""What a player must do now, in words, from the moves their seat's view allows.

The list of turns (``games.turns``) asks a game kind through the registry
(``GameKind.move_words``): each kind names its own function here, which reads the
seat's legal moves and says them ("Swap or stop", "Bet 4 or fold: you are blind").
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def either(phrases: list[str]) -> str:
    """"Swap or stop", "Draw, take the discard or stop"."""
    phrases = [p for p in phrases if p]
    if not phrases:
        return ""
    if len(phrases) == 1:
        return phrases[0]
    head = pgettext("between choices", ", ").join(phrases[:-1])
    return _("%(first)s or %(last)s") % {"first": head, "last": phrases[-1]}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def stop_the_bus_words(view) -> str:
    kinds = {getattr(move, "kind", None) for move in view.legal}
    if "dealer_swap" in kinds:
        return _("Swap unseen with the middle, or keep your cards")
    if "discard" in kinds:
        return _("Discard a card")
    phrases = []
    if "swap" in kinds:
        phrases.append(pgettext("your move", "swap"))
    if "draw" in kinds:
        phrases.append(pgettext("your move", "draw from the stock"))
    if "take_discard" in kinds:
        phrases.append(pgettext("your move", "take the discard"))
    if "stop" in kinds:
        phrases.append(pgettext("your move", "stop the bus"))
    if "pass" in kinds:
        phrases.append(pgettext("your move", "pass"))
    return _capital(either(phrases))


def brag_words(view) -> str:
    phrases = []
    for move in view.legal:
        if move.kind == "bet":
            phrases.append(pgettext("your move", "bet %(cost)d") % {"cost": move.min_cost})
        elif move.kind == "see":
            phrases.append(pgettext("your move", "see for %(cost)d") % {"cost": move.min_cost})
        elif move.kind == "cover":
            phrases.append(pgettext("your move", "cover for %(cost)d") % {
                "cost": move.min_cost})
    if any(move.kind == "fold" for move in view.legal):
        phrases.append(pgettext("your move", "fold"))
    words = _capital(either(phrases))
    if words and view.blind:
        return _("%(moves)s: you are blind") % {"moves": words}
    return words
