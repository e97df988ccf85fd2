"""What one seat, or a spectator, may see of a game.

:func:`seat_view` is the one place that decides visibility; bots read it
directly (card ints, actions), and :func:`view_for` turns it into plain JSON
data for templates and clients. Neither ever holds another player's hand
before the showdown, the stock's order, the seed, or an unrevealed deck.

``known`` lists, per seat, the cards everybody saw go into that seat's hand
(taken from the widow or the discard pile) and not seen leaving it since --
what a player with a good memory knows anyway.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CODES, NAMES, parse_card
from .fairness import public_part
from .game import DEALER_SWAP_PHASE, OVER, SHOWDOWN, GameState, fairness_reveals, legal_actions


@dataclass(slots=True)
class SeatView:
    viewer: int | None
    version: int
    phase: str
    hand_no: int
    exchange: str
    scoring: str
    names: tuple[str, ...]
    dealer: int
    starter: int
    turn: int | None
    stopper: int | None
    blitzer: int | None
    final_left: tuple[int, ...]
    out: tuple[bool, ...]
    floating: tuple[bool, ...]
    lives: tuple[int, ...]
    points: tuple[int, ...]
    chips: tuple[int, ...]
    pot: int
    card_counts: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    places: tuple[int | None, ...]
    hand: tuple[int, ...] | None
    hand_hidden: bool
    pending: int | None
    pending_from_discard: bool
    widow: tuple[int, ...]
    discard: tuple[int, ...]
    stock_count: int
    turns: int
    three_swapped: bool
    legal: list
    showdown: dict | None
    winner: int | None

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def active(self) -> list[int]:
        return [s for s in range(len(self.names)) if not self.out[s]]

    @property
    def my_turn(self) -> bool:
        return self.viewer is not None and self.turn == self.viewer


def seat_view(s: GameState, viewer: int | None) -> SeatView:
    if viewer is not None and not 0 <= viewer < len(s.names):
        viewer = None
    n = len(s.names)
    hand_hidden = s.phase == DEALER_SWAP_PHASE and viewer == s.dealer
    hand = None
    if viewer is not None and not hand_hidden:
        hand = tuple(s.hands[viewer])
    return SeatView(
        viewer=viewer,
        version=s.version,
        phase=s.phase,
        hand_no=s.hand_no,
        exchange=s.rules.exchange,
        scoring=s.rules.scoring,
        names=s.names,
        dealer=s.dealer,
        starter=s.starter,
        turn=s.turn,
        stopper=s.stopper,
        blitzer=s.blitzer,
        final_left=tuple(s.final_left),
        out=tuple(s.out),
        floating=tuple(s.floating(i) for i in range(n)),
        lives=tuple(s.lives),
        points=tuple(s.points),
        chips=tuple(s.chips),
        pot=s.pot,
        card_counts=tuple(len(h) for h in s.hands),
        known=tuple(tuple(k) for k in s.known),
        places=tuple(s.places),
        hand=hand,
        hand_hidden=hand_hidden,
        pending=s.pending if viewer is not None and viewer == s.turn else None,
        pending_from_discard=s.pending_from_discard,
        widow=tuple(s.widow),
        discard=tuple(s.discard),
        stock_count=len(s.stock),
        turns=s.turns,
        three_swapped=bool(viewer is not None and s.three_swapped[viewer]),
        legal=legal_actions(s, viewer) if viewer is not None else [],
        showdown=s.showdown if s.phase in (SHOWDOWN, OVER) else None,
        winner=s.winner,
    )


def _card(c: int) -> dict:
    return {"code": CODES[c], "name": NAMES[c]}


def view_for(s: GameState, viewer: int | None) -> dict:
    """Plain data (JSON-ready) for ``viewer``; ``None`` is a spectator."""
    v = seat_view(s, viewer)
    ranking = s.rules.hand_ranking
    showdown = v.showdown
    seats = []
    for i, name in enumerate(v.names):
        shown = None
        if showdown is not None and str(i) in showdown["hands"]:
            shown = {
                "cards": [_card(parse_card(c)) for c in showdown["hands"][str(i)]],
                "description": showdown["values"][str(i)],
                "category": showdown["categories"][str(i)],
            }
        seats.append({
            "seat": i,
            "name": name,
            "is_viewer": i == v.viewer,
            "lives": v.lives[i],
            "floating": v.floating[i],
            "out": v.out[i],
            "points": v.points[i],
            "chips": v.chips[i],
            "card_count": v.card_counts[i],
            "dealer": i == v.dealer,
            "turn": i == v.turn,
            "stopper": i == v.stopper,
            "final_turn_left": i in v.final_left,
            "place": v.places[i],
            "known": [CODES[c] for c in v.known[i]],
            "shown": shown,
        })
    hand_value = None
    if v.hand is not None and len(v.hand) == 3:
        value = ranking.evaluate(v.hand)
        hand_value = {"description": value.description, "category": value.category}
    current = [public_part(r) for r in s.fairness if r["hand"] == s.hand_no
               and s.phase not in (SHOWDOWN, OVER)]
    # The seal of the deck in play (the latest shuffle of this hand), public from the deal
    # on: players can note it down before a card is played.
    sealed = next((r["commitment"] for r in reversed(s.fairness)
                   if r["hand"] == s.hand_no and s.hand_no > 0), None)
    reveals = [r for r in fairness_reveals(s) if r["hand"] == s.hand_no] if showdown else []
    return {
        "viewer": v.viewer,
        "version": v.version,
        "phase": v.phase,
        "hand_no": v.hand_no,
        "exchange": v.exchange,
        "scoring": v.scoring,
        "dealer": v.dealer,
        "turn": v.turn,
        "stopper": v.stopper,
        "blitzer": v.blitzer,
        "final_left": list(v.final_left),
        "seats": seats,
        "hand": None if v.hand is None else [_card(c) for c in v.hand],
        "hand_hidden": v.hand_hidden,
        "hand_value": hand_value,
        "pending": None if v.pending is None else _card(v.pending),
        "pending_from_discard": v.pending_from_discard and v.pending is not None,
        "widow": [_card(c) for c in v.widow],
        "discard_top": _card(v.discard[-1]) if v.discard else None,
        "discard_count": len(v.discard),
        "stock_count": v.stock_count,
        "pot": v.pot,
        "turns": v.turns,
        "legal": [a.to_dict() for a in v.legal],
        "showdown": showdown,
        "winner": v.winner,
        "places": list(v.places),
        "commitments": current,
        "commitment": sealed,
        "reveals": reveals,
    }
