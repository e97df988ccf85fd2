"""Reading Brag opponents from what a seat may see: how often each folds, raises and
bets blind, and the hands they showed at sees.

A :class:`OpponentBook` is fed the bot's own views (:class:`~.views.BragSeatView`),
at each of its decisions and, when the table offers it, at the end of each hand.
Everything it counts is public: who is blind or seen, each seat's bets, the stake,
who folded, and the hands a settlement showed. A book keeps one game: a view of
another game (other names, or an earlier hand) starts it afresh.

From the counts it gives each opponent's likely range in the hand being played as
a *floor*: the weakest hand (as a percentile of all hands) their play so far
suggests, with the hands above it taken as equally likely.
"""

from __future__ import annotations

from ..cards import parse_card


class Reads:
    """One opponent's counts in this game (with a prior of a middling player)."""

    __slots__ = ("hands", "looked", "folds", "seen_folds", "stays", "bets", "seen_bets",
                 "raises", "blind_bets", "shown")

    def __init__(self):
        self.hands = self.looked = self.folds = self.seen_folds = self.stays = 0
        self.bets = self.seen_bets = self.raises = self.blind_bets = 0
        self.shown: list[tuple[float, int]] = []  # (percentile, seen bets made) at a see

    @property
    def fold_rate(self) -> float:
        """How often they fold a hand they looked at."""
        return (self.seen_folds + 1.0) / (self.looked + 2.5)

    @property
    def stay_rate(self) -> float:
        """How often a hand they looked at gets a seen bet from them."""
        return (self.stays + 1.5) / (self.looked + 3.0)

    @property
    def raise_rate(self) -> float:
        return (self.raises + 0.5) / (self.seen_bets + 3.0)

    @property
    def blind_rate(self) -> float:
        return (self.blind_bets + 0.5) / (self.hands + 2.0)

    def shown_floor(self) -> float | None:
        """The weakest hands they went to a see with (a low quartile), once there are some."""
        if len(self.shown) < 3:
            return None
        values = sorted(p for p, _ in self.shown)
        return values[len(values) // 4]


class OpponentBook:
    def __init__(self):
        self.reads: dict[int, Reads] = {}
        self._game = None
        self._hand = -1
        self._last = None  # the last view of the hand being played
        self._stake = 0
        self._bets: tuple = ()
        self.raised: dict[int, int] = {}  # raises seen this hand, by seat
        self._closed = False

    def update(self, view) -> None:
        if view.names != self._game or view.hand_no < self._hand:
            self._game = view.names
            self.reads = {s: Reads() for s in range(len(view.names))}
            self._hand = view.hand_no
            self._start_hand(view)
        elif view.hand_no != self._hand:
            if not self._closed and self._last is not None:
                self._close(self._last)
            self._hand = view.hand_no
            self._start_hand(view)
        if self._closed:
            return
        if view.phase == "betting":
            stake = view.stake
            if stake > self._stake and self._bets:
                risers = [s for s in range(len(view.bets))
                          if s != view.viewer and view.bets[s] > self._bets[s]
                          and view.seen[s]]
                # the stake went up since we last looked: the last seen bettor raised
                if risers and self._stake:
                    s = risers[-1]
                    self.raised[s] = self.raised.get(s, 0) + 1
            self._stake = stake
            self._bets = view.bets
            self._last = view
        else:
            self._close(view)

    def _start_hand(self, view) -> None:
        self._stake = view.stake
        self._bets = view.bets
        self._last = view
        self.raised = {}
        self._closed = False

    def _close(self, view) -> None:
        """Count the hand from its last view (its settlement, when there is one)."""
        self._closed = True
        shown = (view.settlement or {}).get("shown", {})
        evaluate = view.rules.hand_ranking.evaluate
        for seat, read in self.reads.items():
            status = view.status[seat]
            if seat == view.viewer or status == "out":
                continue
            read.hands += 1
            seen_bets = view.bets[seat] - view.blind_bets[seat]
            read.bets += view.bets[seat]
            read.blind_bets += view.blind_bets[seat]
            read.seen_bets += seen_bets
            read.raises += self.raised.get(seat, 0)
            if view.seen[seat]:
                read.looked += 1
                if seen_bets:
                    read.stays += 1
                if status == "folded":
                    read.seen_folds += 1
            if status == "folded":
                read.folds += 1
            show = shown.get(str(seat))
            if show is not None:
                cards = tuple(parse_card(c) for c in show["cards"])
                read.shown.append((evaluate(cards).percentile, seen_bets))

    def floor(self, view, seat: int) -> float:
        """The weakest hand ``seat``'s play in this hand suggests (0: any hand)."""
        if not view.seen[seat]:
            return 0.0
        read = self.reads.get(seat) or Reads()
        seen_bets = view.bets[seat] - view.blind_bets[seat]
        if view.status[seat] == "covered":
            seen_bets = max(seen_bets, 1)
        if seen_bets <= 0:
            return 0.0
        stay = min(0.95, max(0.05, read.stay_rate))
        # a player who raises often keeps betting weaker hands
        narrowing = 0.72 + 0.25 * min(1.0, 2.5 * read.raise_rate)
        width = stay * narrowing ** min(seen_bets - 1, 3)
        raises = self.raised.get(seat, 0)
        if raises:
            width *= (0.55 + 0.4 * min(1.0, 2.5 * read.raise_rate)) ** raises
        floor = 1.0 - width
        shown = read.shown_floor()
        if shown is not None and shown < floor:
            floor = 0.5 * (floor + shown)
        return max(0.0, min(0.995, floor))
