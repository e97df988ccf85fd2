"""Games with chosen cards, for testing one rule at a time."""

from games.engine import HouseRules, new_game, parse_cards
from games.engine.game import DEALER_SWAP_PHASE, PLAY

SEED = bytes(32)


def rigged(rules: HouseRules | None = None, hands=(), widow=None, discard=None, stock=None,
           dealer=0, names=None, lives=None, chips=None, points=None, out=None, pot=None):
    """A fresh game whose hands and middle are the given cards (codes, "QS 10H AD")."""
    rules = rules or HouseRules()
    names = names or [f"P{i}" for i in range(len(hands))]
    state, _ = new_game(rules, names, SEED)
    s = state.clone()
    s.hands = [list(parse_cards(h)) if h else [] for h in hands]
    if widow is not None:
        s.widow = list(parse_cards(widow))
    if discard is not None:
        s.discard = list(parse_cards(discard))
    if stock is not None:
        # written top first; the engine keeps the top at the end of the list
        s.stock = list(parse_cards(stock))[::-1]
    if lives is not None:
        s.lives = list(lives)
    if chips is not None:
        s.chips = list(chips)
    if points is not None:
        s.points = list(points)
    if pot is not None:
        s.pot = pot
    if out is not None:
        s.out = list(out)
    s.known = [[] for _ in names]
    s.dealer = dealer
    s.starter = s.next_active(dealer)
    s.turn = dealer if s.phase == DEALER_SWAP_PHASE else s.starter
    return s


def play(state, *actions):
    """Apply actions in order; return the final state and every event."""
    from games.engine import apply

    events = []
    for action in actions:
        state, new_events = apply(state, action)
        events.extend(new_events)
    return state, events


def texts(events):
    return [e.text for e in events]


__all__ = ["PLAY", "SEED", "play", "rigged", "texts"]
