"""The variant lab: bots play many games under one set of rules, and we count.

``simulate(rules, ["greedy", "greedy", "mc", "random"], games=2000, seed=1)``
plays ``games`` complete games. The bots change seats every game (entry *i*
sits at seat ``(i + g) % n`` in game *g*), so that no bot keeps the advantage
or handicap of a seat. Everything is deterministic from ``seed``.
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field

from .bots import make_bot
from .game import OVER, SHOWDOWN, apply, new_game, next_hand
from .rules import HouseRules
from .views import seat_view

MAX_ACTIONS_PER_GAME = 200_000


@dataclass
class BotResult:
    label: str
    level: str
    games: int = 0
    wins: int = 0
    place_total: int = 0
    places: dict[int, int] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average_place(self) -> float:
        return self.place_total / self.games if self.games else 0.0


@dataclass
class SimulationReport:
    rules: HouseRules
    players: int
    games: int = 0
    hands: int = 0
    turns: int = 0
    stops: int = 0
    stopper_lost: int = 0
    blitzes: int = 0
    void_showdowns: int = 0
    longest_game_hands: int = 0
    categories: dict[str, int] = field(default_factory=dict)
    bots: list[BotResult] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def hands_per_game(self) -> float:
        return self.hands / self.games if self.games else 0.0

    @property
    def turns_per_hand(self) -> float:
        return self.turns / self.hands if self.hands else 0.0

    @property
    def stopper_loss_rate(self) -> float:
        return self.stopper_lost / self.stops if self.stops else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.elapsed if self.elapsed else 0.0

    def as_dict(self) -> dict:
        return {
            "players": self.players,
            "games": self.games,
            "hands_per_game": round(self.hands_per_game, 2),
            "turns_per_hand": round(self.turns_per_hand, 2),
            "stopper_loss_rate": round(self.stopper_loss_rate, 4),
            "blitzes": self.blitzes,
            "void_showdowns": self.void_showdowns,
            "longest_game_hands": self.longest_game_hands,
            "games_per_second": round(self.games_per_second, 1),
            "categories": dict(sorted(self.categories.items(), key=lambda kv: -kv[1])),
            "bots": [
                {"label": b.label, "level": b.level, "games": b.games, "wins": b.wins,
                 "win_rate": round(b.win_rate, 4), "average_place": round(b.average_place, 3)}
                for b in self.bots
            ],
        }

    def lines(self) -> list[str]:
        """The report as text, for the command line and the admin page."""
        out = [
            f"{self.games} games of {self.players} players in {self.elapsed:.2f}s "
            f"({self.games_per_second:.1f} games/s)",
            f"hands per game {self.hands_per_game:.2f}; turns per hand "
            f"{self.turns_per_hand:.2f}; longest game {self.longest_game_hands} hands",
            f"the stopper lost {self.stopper_loss_rate:.1%} of {self.stops} stopped hands"
            + (f"; {self.blitzes} blitzes" if self.blitzes else "")
            + (f"; {self.void_showdowns} showdowns changed nothing" if self.void_showdowns
               else ""),
        ]
        for b in self.bots:
            out.append(f"  {b.label:<12} win rate {b.win_rate:6.1%}  average place "
                       f"{b.average_place:.2f}")
        return out


def game_seed(seed, index: int) -> bytes:
    return hashlib.sha256(f"simulate:{seed}:{index}".encode()).digest()


def play_bot_game(rules: HouseRules, bots, seed: bytes, names=None, report=None):
    """Play one complete game with ``bots`` (one per seat). Returns the final state."""
    names = names or [f"Bot {i + 1}" for i in range(len(bots))]
    state, _ = new_game(rules, names, seed)
    for _ in range(MAX_ACTIONS_PER_GAME):
        if state.phase == OVER:
            break
        if state.phase == SHOWDOWN:
            if report is not None:
                _count_showdown(report, state)
            state, _ = apply(state, next_hand())
            continue
        seat = state.turn
        action = bots[seat].choose(seat_view(state, seat))
        state, _ = apply(state, action)
    else:
        raise RuntimeError("a simulated game did not end")
    if report is not None:
        _count_showdown(report, state)
    return state


def _count_showdown(report: SimulationReport, state) -> None:
    sd = state.showdown
    report.hands += 1
    report.turns += state.turns
    for category in sd["categories"].values():
        report.categories[category] = report.categories.get(category, 0) + 1
    if sd["void"]:
        report.void_showdowns += 1
    if sd["blitzer"] is not None:
        report.blitzes += 1
    stopper = sd["stopper"]
    if stopper is not None:
        report.stops += 1
        if state.rules.scoring == "lives":
            lost = stopper in sd["losers"] and not sd["void"]
        else:
            lost = stopper not in sd["winners"]
        report.stopper_lost += lost


def simulate(rules: HouseRules, bots: list[str], games: int, seed=0,
             progress=None) -> SimulationReport:
    n = len(bots)
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(f"these rules are for {rules.min_players} to {rules.max_players} "
                         f"players, not {n}")
    counts: dict[str, int] = {}
    for level in bots:
        counts[level] = counts.get(level, 0) + 1
    seen: dict[str, int] = {}
    results = []
    for level in bots:
        seen[level] = seen.get(level, 0) + 1
        label = level if counts[level] == 1 else f"{level} #{seen[level]}"
        results.append(BotResult(label, level))
    report = SimulationReport(rules, n, bots=results)
    rng = random.Random(f"bots:{seed}")
    entries = [make_bot(level, rules, random.Random(rng.random())) for level in bots]
    started = time.perf_counter()
    for g in range(games):
        seating = [entries[(s - g) % n] for s in range(n)]  # entry i at seat (i + g) % n
        hands_before = report.hands
        state = play_bot_game(rules, seating, game_seed(seed, g), report=report)
        report.games += 1
        report.longest_game_hands = max(report.longest_game_hands, report.hands - hands_before)
        for i, result in enumerate(results):
            place = state.places[(i + g) % n]
            result.games += 1
            result.place_total += place
            result.places[place] = result.places.get(place, 0) + 1
            result.wins += place == 1
        if progress is not None:
            progress(g + 1)
    report.elapsed = time.perf_counter() - started
    return report


__all__ = ["SimulationReport", "play_bot_game", "simulate"]
