"""The Monte-Carlo bot's search: sample what cannot be seen, play the hand out, count.

For each choice it has (stop, pass, the most promising swaps, draw or take the
discard, each possible discard), the bot deals the cards it cannot see at
random -- the same deals for every choice, so that the comparison is fair --
and plays the rest of the hand with greedy players, itself included. The
score of a play-out is what the showdown costs or brings the bot: lives lost
(with the stopper's penalty), a point, or a share of the pot. The choice with
the best average wins.

The play-out is a small, separate simulation of one hand (no events, no
copies), several times faster than the game engine; it follows the same rules
and the greedy bot's policy.
"""

from __future__ import annotations

import itertools

from .game import (
    DEALER_SWAP,
    DEALER_SWAP_PHASE,
    DISCARD,
    DRAW,
    PASS,
    STOP,
    SWAP,
    TAKE_DISCARD,
    Action,
)
from .views import SeatView

MAX_SWAP_CANDIDATES = 3


def _unseen(view: SeatView, mine) -> list[int]:
    seen = set(mine)
    seen.update(view.widow)
    seen.update(view.discard)
    for seat, known in enumerate(view.known):
        if seat != view.viewer:
            seen.update(known)
    return [c for c in range(52) if c not in seen]


class _Hand:
    """One determinized hand in progress, for play-outs."""

    __slots__ = ("hands", "widow", "stock", "discard", "turn", "stopper", "final_left",
                 "turns", "three", "rng")

    def copy(self) -> _Hand:
        h = _Hand.__new__(_Hand)
        h.hands = {s: c[:] for s, c in self.hands.items()}
        h.widow = self.widow[:]
        h.stock = self.stock[:]
        h.discard = self.discard[:]
        h.turn = self.turn
        h.stopper = self.stopper
        h.final_left = self.final_left[:]
        h.turns = self.turns
        h.three = set(self.three)
        h.rng = self.rng
        return h


class _Playout:
    def __init__(self, bot, view: SeatView):
        rules = bot.rules
        self.rules = rules
        self.evaluate = bot.ranking.evaluate
        self.best_three = bot.ranking.best_three
        self.threshold = bot.greedy.threshold
        self.patience = bot.greedy.patience
        self.me = view.viewer
        self.view = view
        active = view.active
        self.active = active
        self.next_of = {s: active[(i + 1) % len(active)] for i, s in enumerate(active)}

    # -- dealing the unseen ----------------------------------------------------

    def determinize(self, rng) -> _Hand:
        view = self.view
        mine = list(view.hand) if view.hand is not None else []
        pool = _unseen(view, mine)
        rng.shuffle(pool)
        hands = {}
        if view.hand is None:  # the dealer's unseen hand
            hands[self.me] = [pool.pop() for _ in range(3)]
        else:
            hands[self.me] = mine
        # with a stock, an opponent has kept the best of what it drew: about a card a round
        drawn = (min(view.turns // max(len(self.active), 1), 3)
                 if view.exchange == "stock" else 0)
        evaluate = self.evaluate
        for seat in self.active:
            if seat == self.me:
                continue
            known = list(view.known[seat])
            need = view.card_counts[seat] - len(known)
            if drawn and need > 0 and view.card_counts[seat] == 3:
                extra = [pool.pop() for _ in range(need + drawn)]
                keep = max(itertools.combinations(extra, need),
                           key=lambda combo: evaluate((*known, *combo)).strength)
                for c in extra:
                    if c not in keep:
                        pool.insert(0, c)  # back under the stock, unseen
                hands[seat] = known + list(keep)
            else:
                hands[seat] = known + [pool.pop() for _ in range(need)]
        h = _Hand.__new__(_Hand)
        h.hands = hands
        h.widow = list(view.widow)
        h.discard = list(view.discard)
        h.stock = pool[:view.stock_count] if view.exchange == "stock" else []
        h.turn = view.turn
        h.stopper = view.stopper
        h.final_left = list(view.final_left)
        h.turns = view.turns
        h.three = {self.me} if view.three_swapped else set()
        h.rng = rng
        return h

    # -- the greedy policy, on a determinized hand -------------------------------

    def bar(self, h: _Hand) -> float:
        return self.threshold - self.patience * h.turns

    def greedy_turn(self, h: _Hand, seat: int) -> bool:
        """Play one greedy turn for ``seat``; True if the hand has ended."""
        evaluate = self.evaluate
        hand = h.hands[seat]
        current = evaluate(tuple(hand))
        can_stop = h.stopper is None
        if can_stop and current.percentile >= self.bar(h):
            return self.end_turn(h, seat, stopped=True)
        rules = self.rules
        may_pass = h.stopper is not None or rules.may_pass
        if rules.exchange == "widow":
            best = None
            for k in range(1, rules.swap_limit + 1):
                if k == 3 and seat in h.three:
                    continue
                for give in itertools.combinations(range(3), k):
                    kept = [hand[i] for i in range(3) if i not in give]
                    for take in itertools.combinations(range(3), k):
                        value = evaluate((*kept, *(h.widow[j] for j in take)))
                        if best is None or value.strength > best[0].strength:
                            best = (value, give, take)
            value, give, take = best
            if may_pass and value.strength <= current.strength:
                return self.end_turn(h, seat, stopped=False)
            self.swap(h, seat, give, take)
            stop_too = rules.stop_after_swap and can_stop and value.percentile >= self.bar(h)
            return self.end_turn(h, seat, stopped=stop_too)
        top = h.discard[-1] if h.discard else None
        if top is not None:
            _, with_top = self.best_three((*hand, top))
            if with_top.strength > current.strength:
                h.discard.pop()
                hand.append(top)
                self.greedy_discard(h, seat, forbidden=top)
                return self.end_turn(h, seat, stopped=False)
        if h.stock:
            hand.append(h.stock.pop())
            self.greedy_discard(h, seat, forbidden=None)
            return self.end_turn(h, seat, stopped=False)
        return self.end_turn(h, seat, stopped=False)

    def greedy_discard(self, h: _Hand, seat: int, forbidden) -> None:
        hand = h.hands[seat]
        evaluate = self.evaluate
        best_i, best_s = 0, -1
        for i, card in enumerate(hand):
            if card == forbidden:
                continue
            strength = evaluate(tuple(c for j, c in enumerate(hand) if j != i)).strength
            if strength > best_s:
                best_i, best_s = i, strength
        h.discard.append(hand.pop(best_i))

    def swap(self, h: _Hand, seat: int, give_idx, take_idx) -> None:
        hand = h.hands[seat]
        for gi, ti in zip(give_idx, take_idx, strict=True):
            hand[gi], h.widow[ti] = h.widow[ti], hand[gi]
        if len(give_idx) == 3:
            h.three.add(seat)

    def end_turn(self, h: _Hand, seat: int, stopped: bool) -> bool:
        h.turns += 1
        if self.rules.blitz and self.evaluate(tuple(h.hands[seat])).blitz:
            return True
        if h.stopper is not None:
            h.final_left.remove(seat)
            if not h.final_left:
                return True
            h.turn = h.final_left[0]
        elif stopped:
            h.stopper = seat
            others = []
            nxt = self.next_of[seat]
            while nxt != seat:
                others.append(nxt)
                nxt = self.next_of[nxt]
            h.final_left = others
            h.turn = others[0]
        else:
            h.turn = self.next_of[seat]
        if self.rules.exchange == "stock" and not h.stock and len(h.discard) > 1:
            rest = h.discard[:-1]
            h.rng.shuffle(rest)
            h.stock = rest
            h.discard = h.discard[-1:]
        return False

    def finish(self, h: _Hand, limit: int = 400) -> float:
        """Play the hand out greedily; the bot's payoff (higher is better)."""
        for _ in range(limit):
            if self.greedy_turn(h, h.turn):
                break
        return self.payoff(h)

    def payoff(self, h: _Hand) -> float:
        strengths = {s: self.evaluate(tuple(c)).strength for s, c in h.hands.items()}
        mine = strengths[self.me]
        scoring = self.rules.scoring
        if scoring == "lives":
            if mine > min(strengths.values()):
                return 0.0
            return -float(self.rules.stopper_penalty if h.stopper == self.me else 1)
        best = max(strengths.values())
        if mine < best:
            return 0.0
        winners = sum(1 for v in strengths.values() if v == best)
        return 1.0 / winners

    # -- applying the bot's own candidate at the root --------------------------

    def play_candidate(self, h: _Hand, action: Action) -> bool:
        """Apply the bot's candidate; True if the hand ended with it."""
        me = self.me
        hand = h.hands[me]
        kind = action.kind
        if kind == STOP:
            return self.end_turn(h, me, stopped=True)
        if kind == PASS:
            return self.end_turn(h, me, stopped=False)
        if kind == SWAP:
            give_idx = [hand.index(c) for c in action.give]
            take_idx = [h.widow.index(c) for c in action.take]
            self.swap(h, me, give_idx, take_idx)
            return self.end_turn(h, me, stopped=action.stop)
        if kind == DRAW:
            hand.append(h.stock.pop())
            self.greedy_discard(h, me, forbidden=None)
            return self.end_turn(h, me, stopped=False)
        if kind == TAKE_DISCARD:
            top = h.discard.pop()
            hand.append(top)
            self.greedy_discard(h, me, forbidden=top)
            return self.end_turn(h, me, stopped=False)
        if kind == DISCARD:
            hand.remove(action.give[0])
            h.discard.append(action.give[0])
            return self.end_turn(h, me, stopped=False)
        if kind == DEALER_SWAP:
            for position, taken in zip(action.positions, action.take, strict=True):
                w = h.widow.index(taken)
                hand[position], h.widow[w] = h.widow[w], hand[position]
            if len(action.take) == 3:
                h.three.add(me)
            h.turn = self.view.starter
            return False
        raise ValueError(kind)


def _candidates(bot, view: SeatView) -> list[Action]:
    legal = view.legal
    if view.phase == DEALER_SWAP_PHASE:
        # unseen: keep, or take the whole widow, or swap one place for the widow's best card
        keep = [a for a in legal if not a.take]
        whole = [a for a in legal if len(a.take) == 3 and a.positions == (0, 1, 2)][:1]
        best_card = max(view.widow)
        single = [a for a in legal if a.take == (best_card,) and a.positions == (0,)]
        return keep + whole + single
    swaps = [a for a in legal if a.kind == SWAP]
    others = [a for a in legal if a.kind != SWAP]
    if swaps:
        evaluate = bot.ranking.evaluate
        hand = view.hand

        def after(a: Action):
            kept = [c for c in hand if c not in a.give]
            return evaluate((*kept, *a.take)).strength

        plain = sorted((a for a in swaps if not a.stop), key=after, reverse=True)
        chosen = plain[:MAX_SWAP_CANDIDATES]
        # keep swaps that give away a card the next player may want less often: the
        # play-outs tell; add the stop variants of the chosen swaps when allowed
        stops = [a for a in swaps if a.stop and any(a.give == c.give and a.take == c.take
                                                    for c in chosen)]
        return others + chosen + stops
    return others


def choose_by_sampling(bot, view: SeatView, skip: str | None = None) -> Action:
    """The candidate with the best average play-out (leaving out those of kind ``skip``)."""
    candidates = _candidates(bot, view)
    candidates = [a for a in candidates if a.kind != skip] or candidates
    if len(candidates) == 1:
        return candidates[0]
    playout = _Playout(bot, view)
    totals = [0.0] * len(candidates)
    rng = bot.rng
    for _ in range(bot.samples_for(view)):
        root = playout.determinize(rng)
        for i, action in enumerate(candidates):
            h = root.copy()
            if playout.play_candidate(h, action):
                totals[i] += playout.payoff(h)
            else:
                totals[i] += playout.finish(h)
    best = max(range(len(candidates)), key=lambda i: totals[i])
    return candidates[best]
