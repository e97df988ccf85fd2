"""Hints for a learning player: only ever in their own private part of the board.

Three things, in the reader's language: what the viewer's hand is worth (its name
and the share of all 22,100 three-card hands it beats), what each move they may make
now does, and after a hand, one line on the best move at their last decision. They
are built from the viewer's own view (``view_for`` of their seat) and, for the line
after a hand, from the log of the hand, which the viewer's own seat played: nothing
in a hint is more than the viewer may see (a blind Brag player is told nothing about
cards they have not looked at).

Hints show at practice tables, or wherever the player turned them on
(``User.hints``: None is the default, on at practice tables only).
"""

from __future__ import annotations

from django.db.models import Max
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from .engine.cards import code, parse_card
from .event_text import card_name, hand_words
from .kinds import kind_for
from .memo import Once
from .models import Action

# The line after a hand replays the game's log once per game version, seat and language.
_AFTER = Once(256)


def hints_on(table, user) -> bool:
    """Does ``user`` get hints at ``table``?"""
    if not getattr(user, "is_authenticated", False):
        return False
    chosen = getattr(user, "hints", None)
    return bool(table.practice) if chosen is None else bool(chosen)


def board_hints(data, user, context: dict) -> dict | None:
    """The hints for ``user``'s board (``context`` as the kind's board builder made it),
    or None: not a player of this game, or hints off."""
    if context.get("me") is None or data.game is None or not hints_on(data.table, user):
        return None
    return kind_for(data.game).hook("hints")(data, context)


def _beats(cards: list[str], rules) -> int:
    value = rules.hand_ranking.evaluate(tuple(parse_card(c) for c in cards))
    return round(value.percentile * 100)


def _own_hand(view: dict, rules) -> dict | None:
    """The viewer's own hand in words, if they hold cards they have seen."""
    if view.get("hand_hidden") or not view.get("hand") or not view.get("hand_value"):
        return None  # not looked at yet (a blind Brag player, Commerce's dealer)
    cards = [c["code"] for c in view["hand"]]
    if len(cards) != 3:
        return None
    return {"description": view["hand_value"]["description"], "beats": _beats(cards, rules)}


# -- Stop the Bus --------------------------------------------------------------------------------


def _stop_the_bus_moves(controls: dict) -> list[dict]:
    moves = []
    if controls.get("swap"):
        moves.append({"name": _("Swap"), "text": _(
            "Give one of yours for one in the middle. Pick a card of yours and one from the "
            "widow, then press Swap.")})
    if controls.get("dealer_swap"):
        moves.append({"name": _("Unseen swap"), "text": _(
            "As dealer you may swap your cards for the middle ones before looking, or keep "
            "them.")})
    if controls.get("draw"):
        moves.append({"name": _("Draw"), "text": _(
            "Take the top card of the stock, then discard one of your four.")})
    if controls.get("take_discard"):
        moves.append({"name": _("Take the discard"), "text": _(
            "Take the card on the discard pile, then discard one of your four.")})
    if controls.get("discard"):
        moves.append({"name": _("Discard"), "text": _(
            "Put one card on the discard pile to keep three.")})
    if controls.get("stop"):
        moves.append({"name": controls.get("stop_label") or _("Stop the bus"), "text": _(
            "Keep your hand: everyone else has one more turn, then all hands are shown and "
            "the worst loses a life. Stop when your hand is good.")})
    if controls.get("pass"):
        moves.append({"name": _("Pass"), "text": _("Keep your hand and change nothing.")})
    return moves


def _move_words(action, before: list[int], widow: list[int]) -> str:
    """A Stop the Bus move of the viewer's, in words."""
    if action.kind == "swap":
        gave = ", ".join(card_name(code(c)) for c in action.give)
        took = ", ".join(card_name(code(c)) for c in action.take)
        return _("swap %(gave)s for %(took)s") % {"gave": gave, "took": took}
    if action.kind == "discard":
        return _("discard %(card)s") % {"card": card_name(code(action.give[0]))}
    if action.kind == "stop":
        return _("stop the bus")
    return _("pass")


def _stop_the_bus_after(data, me: int) -> str | None:
    """The line after a hand: the best move at the viewer's last decision of the hand
    (every legal swap, discard, stop or pass tried on a copy of that moment, the hand it
    leaves valued by the ranking), against the one they made."""
    kind = kind_for(data.game)
    rules = kind.rules_from(data.game.rules)
    names = [p.name for p in data.players]
    state, _events = kind.new_game(rules, names, bytes.fromhex(data.game.seed))
    hand_no = data.state.hand_no
    last = None
    for seat, payload in (Action.objects.filter(game=data.game, seq__gte=1).order_by("seq")
                          .values_list("seat", "payload")):
        action = kind.action_from_dict(payload)
        if seat == me and state.hand_no == hand_no and action.kind in (
                "swap", "stop", "pass", "discard"):
            last = (state, action)
        state, _events = kind.apply(state, action)
    if last is None:
        return None
    before, chosen = last
    ranking = rules.hand_ranking

    def result(action):
        after, _events = kind.apply(before, action)
        return ranking.evaluate(tuple(after.hands[me]))

    tried = [(a, result(a)) for a in kind.legal_actions(before, me)
             if a.kind in ("swap", "stop", "pass", "discard")]
    if not tried:
        return None
    mine = result(chosen)
    best_action, best = max(tried, key=lambda t: (t[1].strength, t[0].kind != "swap"))
    hand = list(before.hands[me])

    def words(value, cards):
        return hand_words(value.category, [code(c) for c in cards], rules.ranking)

    if mine.strength >= best.strength:
        return _("Your last move (%(move)s) was the best you could make: it left you %(hand)s, "
                 "which beats %(beats)d%% of hands.") % {
            "move": _move_words(chosen, hand, before.widow), "hand": words(mine, mine.cards),
            "beats": round(mine.percentile * 100)}
    return _("Best last move: %(best)s, for %(hand)s (beats %(beats)d%% of hands). You "
             "made %(mine)s.") % {
        "best": _move_words(best_action, hand, before.widow),
        "hand": words(best, best.cards), "beats": round(best.percentile * 100),
        "mine": words(mine, mine.cards)}


def stop_the_bus_hints(data, context: dict) -> dict:
    view, me, rules = context["view"], context["me"], context["rules"]
    hints = {"hand": _own_hand(view, rules), "moves": [], "after": None}
    if context.get("in_showdown") or context.get("over"):
        key = (data.game.pk, data.game.version, me, translation.get_language())
        hints["after"] = _AFTER.get(key, lambda: _stop_the_bus_after(data, me))
    else:
        hints["moves"] = _stop_the_bus_moves(context.get("controls") or {})
    return hints


# -- Three Card Brag -----------------------------------------------------------------------------


def _brag_moves(controls: dict) -> list[dict]:
    moves = []
    if controls.get("look"):
        moves.append({"name": _("Look"), "text": _(
            "See your cards. From then on a bet costs you the whole stake, not half.")})
    if controls.get("bet"):
        moves.append({"name": _("Bet"), "text": _(
            "Put in the stake (or raise it) to stay in the hand. Playing blind, you pay half.")})
    if controls.get("fold"):
        moves.append({"name": _("Fold"), "text": _(
            "Give up the hand and what you have put in; you lose no more.")})
    if controls.get("see"):
        moves.append({"name": _("See"), "text": _(
            "Pay to end the hand: both hands are shown and the better one takes the pot.")})
    if controls.get("cover"):
        moves.append({"name": _("Cover"), "text": _(
            "Put in all your chips: the pot so far is set aside for the showdown.")})
    return moves


BRAG_VERDICTS = {
    # (the viewer's last move, was it right)
    ("see", True):
        gettext_noop("With %(hand)s, seeing was right: you beat %(beats)d%% of hands."),
    ("see", False):
        gettext_noop("With %(hand)s, seeing was risky: you beat only %(beats)d%% of hands."),
    ("bet", True):
        gettext_noop("With %(hand)s, betting was right: you beat %(beats)d%% of hands."),
    ("bet", False):
        gettext_noop("With %(hand)s, betting was risky: you beat only %(beats)d%% of hands."),
    ("cover", True):
        gettext_noop("With %(hand)s, covering was right: you beat %(beats)d%% of hands."),
    ("cover", False):
        gettext_noop("With %(hand)s, covering was risky: you beat only %(beats)d%% of hands."),
    ("fold", True):
        gettext_noop("With %(hand)s, folding was right: you beat only %(beats)d%% of hands."),
    ("fold", False):
        gettext_noop("With %(hand)s, folding gave up a good hand: you beat %(beats)d%% of hands."),
}


def _brag_after(data, view: dict, me: int, rules) -> str | None:
    """The line after a hand: the viewer's last bet, see, cover or fold against their
    chance to beat every other hand in it (a hand beating a share p of all hands beats k
    random hands about p^k of the time). Nothing if they never looked and the hand was
    not shown: a blind player's cards stay unsaid."""
    cards = [c["code"] for c in view["hand"]] if view.get("hand") else None
    shown = (view.get("settlement") or {}).get("shown", {}).get(str(me))
    if not cards and shown:
        cards = list(shown["cards"])
    if not cards or len(cards) != 3:
        return None
    start = (Action.objects.filter(game=data.game, seat__isnull=True)
             .aggregate(seq=Max("seq"))["seq"]) or 0
    last = (Action.objects.filter(game=data.game, seat=me, seq__gt=start)
            .exclude(payload__kind="look").order_by("-seq").values_list("payload", flat=True)
            .first())
    if not last or last.get("kind") not in ("see", "bet", "cover", "fold"):
        return None
    value = rules.hand_ranking.evaluate(tuple(parse_card(c) for c in cards))
    others = max(1, sum(1 for s in view["seats"] if not s["out"]) - 1)
    staying_pays = value.percentile ** others >= 0.5
    right = staying_pays if last["kind"] != "fold" else not staying_pays
    return _(BRAG_VERDICTS[(last["kind"], right)]) % {
        "hand": hand_words(value.category, cards, "brag"),
        "beats": round(value.percentile * 100)}


def brag_hints(data, context: dict) -> dict:
    view, me, rules = context["view"], context["me"], context["rules"]
    hints = {"hand": _own_hand(view, rules), "moves": [], "after": None}
    if context.get("settlement") or context.get("over"):
        key = (data.game.pk, data.game.version, me, translation.get_language())
        hints["after"] = _AFTER.get(key, lambda: _brag_after(data, view, me, rules))
    else:
        hints["moves"] = _brag_moves(context.get("controls") or {})
    return hints


def clear() -> None:
    _AFTER.clear()
