"""Three-card hand ranking: Brag (with its house rules) and Commerce.

Every one of the C(52,3) = 22,100 hands is ranked once per ranking
configuration and stored in a dict keyed by every ordering of the hand's three
cards, so that evaluating a hand is a single dict look-up:
``ranking.evaluate((c1, c2, c3))`` is the bound ``__getitem__`` of that dict.

A :class:`HandValue` carries

* ``strength`` -- an int, higher is better; equal strengths are equal hands
  under the configuration (with the ``suits`` tie rule no two hands held at
  the same time from one pack are ever equal);
* ``category`` -- a stable key (``"pair"``, ``"run"`` ...) and its ``label``;
* ``description`` -- plain words for people ("Pair of fives, nine kicker");
* ``blitz`` -- whether the hand may blitz (thirty-one, or 3-3-3 / A-A-A with
  ``blitz_prials``);
* ``percentile`` -- the share of all 22,100 hands that are strictly worse.

Choices the rules leave open, made here:

* With ``tie_rule = suits`` the "highest-ranked card" is the card of highest
  rank in the 2 < ... < A order (so the ace of an A-2-3 run), and with two
  cards of that rank the better suit counts.
* All thirty-ones are equal to each other (a suited A-K-Q is a thirty-one, not
  a running flush). With ``blitz_prials`` the blitz prials rank above
  thirty-one and keep the ``threes_high`` order between themselves.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from .cards import ACE, PACK, RANK_CODES, RANK_NAMES, RANK_PLURALS, SUIT_NAMES, THREE

BRAG_CATEGORIES = (
    ("thirty_one", "Thirty-one"),
    ("prial", "Prial"),
    ("running_flush", "Running flush"),
    ("run", "Run"),
    ("flush", "Flush"),
    ("pair", "Pair"),
    ("high_card", "High card"),
)
COMMERCE_CATEGORIES = (
    ("tricon", "Tricon"),
    ("sequence", "Sequence"),
    ("flush", "Flush"),
    ("pair", "Pair"),
    ("point", "Point"),
)
CATEGORY_LABELS = dict(BRAG_CATEGORIES + COMMERCE_CATEGORIES)

ACE_LOW_RUN_CHOICES = ("top", "bottom", "none")


@dataclass(frozen=True, slots=True)
class RankingConfig:
    """The parts of the house rules that change how hands compare."""

    kind: str = "brag"  # "brag" or "commerce"
    threes_high: bool = True
    ace_low_run: str = "top"
    thirty_one: bool = False
    blitz_prials: bool = False
    suit_tiebreak: bool = False


class HandValue:
    __slots__ = ("strength", "category", "description", "blitz", "percentile", "cards")

    def __init__(self, strength, category, description, blitz, percentile, cards):
        self.strength = strength
        self.category = category
        self.description = description
        self.blitz = blitz
        self.percentile = percentile
        self.cards = cards  # the hand, sorted high to low for display

    @property
    def label(self) -> str:
        return CATEGORY_LABELS[self.category]

    def __lt__(self, other: HandValue) -> bool:
        return self.strength < other.strength

    def __le__(self, other: HandValue) -> bool:
        return self.strength <= other.strength

    def __gt__(self, other: HandValue) -> bool:
        return self.strength > other.strength

    def __ge__(self, other: HandValue) -> bool:
        return self.strength >= other.strength

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.strength == other.strength

    def __hash__(self) -> int:
        return hash(self.strength)

    def __repr__(self) -> str:
        return f"<HandValue {self.description} ({self.strength})>"


class Ranking:
    """One configuration's table. ``evaluate`` is the public, fast entry point."""

    def __init__(self, config: RankingConfig, table: dict, values: tuple[HandValue, ...]):
        self.config = config
        self.table = table
        self.values = values  # one HandValue per distinct 3-card combination
        self.evaluate = table.__getitem__

    def strength(self, hand) -> int:
        return self.table[tuple(hand)].strength

    def compare(self, a, b) -> int:
        """-1, 0 or 1 as hand ``a`` is worse than, equal to or better than ``b``."""
        sa, sb = self.table[tuple(a)].strength, self.table[tuple(b)].strength
        return (sa > sb) - (sa < sb)

    def best_three(self, cards) -> tuple[tuple[int, int, int], HandValue]:
        """The best three-card hand among ``cards`` (three or more), and its value."""
        table = self.table
        best = None
        best_value = None
        for combo in itertools.combinations(cards, 3):
            value = table[combo]
            if best_value is None or value.strength > best_value.strength:
                best, best_value = combo, value
        return best, best_value

    def category_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for value in self.values:
            counts[value.category] = counts.get(value.category, 0) + 1
        return counts


def _seq(ranks: list[int]) -> str:
    return "-".join(RANK_CODES[r] for r in ranks)


def _brag_key(config: RankingConfig, hand: tuple[int, int, int]):
    """(sort key, category, description, blitz) of one hand under a Brag config."""
    cards = sorted(hand, reverse=True)
    r1, r2, r3 = (c >> 2 for c in cards)
    suits = {c & 3 for c in cards}
    flush = len(suits) == 1

    top_suit = max(c & 3 for c in cards if c >> 2 == r1)
    tail = (top_suit,) if config.suit_tiebreak else ()

    if r1 == r3:
        order = 13 if (config.threes_high and r1 == THREE) else r1
        blitz_prial = config.blitz_prials and r1 in (THREE, ACE)
        category = 8 if blitz_prial else 6
        return (category, order) + tail, "prial", f"Prial of {RANK_PLURALS[r1]}", blitz_prial

    if config.thirty_one and flush:
        points = sum(11 if r == ACE else min(r + 2, 10) for r in (r1, r2, r3))
        if points == 31:
            desc = f"Thirty-one, {_seq([r1, r2, r3])} of {SUIT_NAMES[cards[0] & 3]}"
            return (7, 0) + tail, "thirty_one", desc, True

    run_high = None
    if r1 - r3 == 2 and r1 != r2 != r3:
        run_high = r1
        ascending = [r3, r2, r1]
    elif (r1, r2, r3) == (ACE, THREE, 0) and config.ace_low_run != "none":
        run_high = 13 if config.ace_low_run == "top" else 1
        ascending = [ACE, 0, THREE]
    if run_high is not None:
        if flush:
            return (5, run_high) + tail, "running_flush", f"Running flush, {_seq(ascending)}", False
        return (4, run_high) + tail, "run", f"Run, {_seq(ascending)}", False

    if flush:
        return (3, r1, r2, r3) + tail, "flush", f"Flush, {_seq([r1, r2, r3])}", False

    if r1 == r2 or r2 == r3:
        pair, kicker = (r1, r3) if r1 == r2 else (r2, r1)
        desc = f"Pair of {RANK_PLURALS[pair]}, {_kicker_word(kicker)} kicker"
        return (2, pair, kicker) + tail, "pair", desc, False

    return (1, r1, r2, r3) + tail, "high_card", f"High card, {_seq([r1, r2, r3])}", False


def _kicker_word(rank: int) -> str:
    return RANK_NAMES[rank].lower()


def _commerce_key(config: RankingConfig, hand: tuple[int, int, int]):
    """(sort key, category, description, blitz) of one hand under Commerce."""
    cards = sorted(hand, reverse=True)
    r1, r2, r3 = (c >> 2 for c in cards)
    flush = len({c & 3 for c in cards}) == 1
    top_suit = max(c & 3 for c in cards if c >> 2 == r1)
    tail = (top_suit,) if config.suit_tiebreak else ()
    point = sum(11 if r == ACE else min(r + 2, 10) for r in (r1, r2, r3))

    if r1 == r3:
        return (5, r1) + tail, "tricon", f"Tricon of {RANK_PLURALS[r1]}", False
    if flush:
        if r1 - r3 == 2 and r1 != r2 != r3:
            return (4, r1) + tail, "sequence", f"Sequence, {_seq([r3, r2, r1])}", False
        if (r1, r2, r3) == (ACE, THREE, 0):
            # 3-2-A counts as three-high: the lowest sequence.
            return (4, 1) + tail, "sequence", f"Sequence, {_seq([ACE, 0, THREE])}", False
        desc = f"Flush, {point} points ({_seq([r1, r2, r3])})"
        return (3, point, r1, r2, r3) + tail, "flush", desc, False
    if r1 == r2 or r2 == r3:
        pair, kicker = (r1, r3) if r1 == r2 else (r2, r1)
        desc = f"Pair of {RANK_PLURALS[pair]}, {_kicker_word(kicker)} kicker"
        return (2, pair, kicker) + tail, "pair", desc, False
    return (1, point, r1, r2, r3) + tail, "point", f"Point {point} ({_seq([r1, r2, r3])})", False


_COMBINATIONS: tuple[tuple[int, int, int], ...] = tuple(itertools.combinations(PACK, 3))


@functools.cache
def _orderings() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """The six orderings of each combination, built once and shared by every table."""
    return tuple(tuple(itertools.permutations(combo)) for combo in _COMBINATIONS)


@functools.lru_cache(maxsize=64)
def ranking_for(config: RankingConfig) -> Ranking:
    if config.kind not in ("brag", "commerce"):
        raise ValueError(f"unknown ranking {config.kind!r}")
    if config.ace_low_run not in ACE_LOW_RUN_CHOICES:
        raise ValueError(f"unknown ace_low_run {config.ace_low_run!r}")
    keyer = _brag_key if config.kind == "brag" else _commerce_key
    described = [keyer(config, combo) for combo in _COMBINATIONS]
    distinct = sorted({d[0] for d in described})
    strength_of = {key: i for i, key in enumerate(distinct)}

    worse_than = [0] * len(distinct)
    hands_at = [0] * len(distinct)
    for d in described:
        hands_at[strength_of[d[0]]] += 1
    running = 0
    for i, n in enumerate(hands_at):
        worse_than[i] = running
        running += n
    total = len(_COMBINATIONS)

    values = []
    table: dict[tuple[int, int, int], HandValue] = {}
    for combo, orderings, (key, category, description, blitz) in zip(
        _COMBINATIONS, _orderings(), described, strict=True
    ):
        strength = strength_of[key]
        value = HandValue(
            strength,
            category,
            description,
            blitz,
            worse_than[strength] / total,
            tuple(sorted(combo, reverse=True)),
        )
        values.append(value)
        for ordering in orderings:
            table[ordering] = value
    return Ranking(config, table, tuple(values))


def evaluate(hand, config: RankingConfig | None = None) -> HandValue:
    """Evaluate a three-card hand (card ints, any order) under ``config`` (default Brag)."""
    return ranking_for(config or RankingConfig()).evaluate(tuple(hand))
