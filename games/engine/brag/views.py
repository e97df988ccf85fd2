"""What one seat, or a spectator, may see of a Brag game.

:func:`seat_view` is the one place that decides visibility; bots read it
directly (card ints, legal moves) and :func:`view_for` turns it into plain JSON
data for templates and clients. What each may see:

* a seat's own cards, once that seat has looked (and until the next deal,
  also after a fold); a blind player's own cards are not in their view;
* every other hand only as the settlement shows it: the seen player of a see,
  a seer who won, the hands compared for a closed pot. A folded hand and the
  losing seer's hand are in no view at all;
* who is blind and who is seen (everyone is told when a player looks), every
  bet, the pots and the stake;
* each shuffle's commitment, and a pack's order once :func:`fairness_reveals`
  allows it (at the next shuffle or at the end of the game).

The seed and the pack's current order are never part of a view. A revealed pack
lets anyone work out every hand dealt from it, folded ones included; the rules
accept that, because by then none of those hands is in play.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import CODES, NAMES, parse_card
from .game import (
    BETTING,
    COVERED,
    FOLDED,
    IN,
    OUT,
    BragState,
    fairness_commitments,
    fairness_reveals,
    legal_actions,
)
from .rules import BragRules


@dataclass(slots=True)
class BragSeatView:
    viewer: int | None
    rules: BragRules
    version: int
    phase: str
    hand_no: int
    names: tuple[str, ...]
    dealer: int
    turn: int | None
    chips: tuple[int, ...]
    out: tuple[bool, ...]
    status: tuple[str, ...]
    seen: tuple[bool, ...]
    stake: int
    min_stake: int
    max_stake: int
    pot: int
    closed: tuple[tuple[int, int], ...]
    put_in: tuple[int, ...]
    bets: tuple[int, ...]
    blind_bets: tuple[int, ...]
    hand: tuple[int, ...] | None
    legal: list
    settlement: dict | None
    places: tuple[int | None, ...]
    winner: int | None

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def active(self) -> list[int]:
        return [s for s in range(len(self.names)) if not self.out[s]]

    @property
    def betting(self) -> list[int]:
        return [s for s, st in enumerate(self.status) if st == IN]

    @property
    def middle(self) -> int:
        return self.pot + sum(c[0] for c in self.closed)

    @property
    def blind(self) -> bool:
        """Whether the viewer is still blind in this hand."""
        return self.viewer is not None and not self.seen[self.viewer]

    @property
    def my_turn(self) -> bool:
        return self.viewer is not None and self.turn == self.viewer


def _own_hand(s: BragState, viewer: int | None):
    if viewer is None or s.status[viewer] == OUT or not s.hands[viewer]:
        return None
    if s.seen[viewer]:
        return tuple(s.hands[viewer])
    settlement = s.settlement
    if settlement is not None and str(viewer) in settlement["shown"]:
        return tuple(s.hands[viewer])  # shown to everyone, so to its owner too
    return None


def seat_view(s: BragState, viewer: int | None) -> BragSeatView:
    if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < len(s.names)):
        viewer = None
    betting = s.phase == BETTING
    # positional: this is built for every bot decision, and keywords cost
    return BragSeatView(
        viewer, s.rules, s.version, s.phase, s.hand_no, s.names, s.dealer, s.turn,
        tuple(s.chips), tuple(s.out), tuple(s.status), tuple(s.seen), s.stake,
        s.min_stake() if betting else 0, s.max_stake() if betting else 0,
        s.pot, tuple(s.closed), tuple(s.put_in), tuple(s.bets), tuple(s.blind_bets),
        _own_hand(s, viewer), legal_actions(s, viewer) if viewer is not None else [],
        s.settlement, tuple(s.places), s.winner,
    )


def _card(c: int) -> dict:
    return {"code": CODES[c], "name": NAMES[c]}


def view_for(s: BragState, viewer: int | None) -> dict:
    """Plain data (JSON-ready) for ``viewer``; ``None`` is a spectator."""
    v = seat_view(s, viewer)
    ranking = s.rules.hand_ranking
    settlement = v.settlement
    shown = settlement["shown"] if settlement is not None else {}
    seats = []
    for i, name in enumerate(v.names):
        status = v.status[i]
        in_hand = status in (IN, COVERED)
        show = shown.get(str(i))
        seats.append({
            "seat": i,
            "name": name,
            "is_viewer": i == v.viewer,
            "chips": v.chips[i],
            "out": v.out[i],
            "status": status,
            "folded": status == FOLDED,
            "covered": status == COVERED,
            "blind": in_hand and not v.seen[i],
            "seen": in_hand and v.seen[i],
            "dealer": i == v.dealer,
            "turn": i == v.turn,
            "place": v.places[i],
            "put_in": v.put_in[i],
            "bets": v.bets[i],
            "card_count": 3 if in_hand and v.phase == BETTING else 0,
            "shown": None if show is None else {
                "cards": [_card(parse_card(c)) for c in show["cards"]],
                "description": show["description"],
                "category": show["category"],
            },
        })
    hand_value = None
    if v.hand is not None:
        value = ranking.evaluate(v.hand)
        hand_value = {"description": value.description, "category": value.category}
    in_hand = v.viewer is not None and v.status[v.viewer] in (IN, COVERED)
    return {
        "game": "brag",
        "viewer": v.viewer,
        "version": v.version,
        "phase": v.phase,
        "hand_no": v.hand_no,
        "max_hands": s.rules.max_hands,
        "betting": s.rules.betting,
        "dealer": v.dealer,
        "turn": v.turn,
        "stake": v.stake,
        "min_stake": v.min_stake,
        "max_stake": v.max_stake,
        "pot": v.pot,
        "closed_pots": [{"chips": chips, "coverer": seat, "name": v.names[seat],
                         "face_down_cards": 3} for chips, seat in v.closed],
        "middle": v.middle,
        "seats": seats,
        "hand": None if v.hand is None else [_card(c) for c in v.hand],
        "hand_hidden": bool(in_hand and v.hand is None),
        "hand_value": hand_value,
        "legal": [a.to_dict() for a in v.legal],
        "settlement": settlement,
        "places": list(v.places),
        "winner": v.winner,
        "commitments": fairness_commitments(s),
        "reveals": fairness_reveals(s),
    }
