"""The Brag variant lab: bots play many games under one set of rules, and we count.

``simulate(rules, ["mc", "greedy", "random"], games=2000, seed=1)`` plays
``games`` complete games. The bots change seats every game (entry *i* sits at
seat ``(i + g) % n`` in game *g*), so that no bot keeps the advantage of a seat
(the first to bet, the last to deal). Everything is deterministic from ``seed``.
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field

from .bots import make_bot
from .game import LOOK, OVER, SHOWDOWN, apply, new_game, next_hand
from .rules import BragRules
from .views import seat_view

MAX_ACTIONS_PER_GAME = 1_000_000


@dataclass
class BragBotResult:
    label: str
    level: str
    games: int = 0
    wins: int = 0
    place_total: int = 0
    net_chips: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average_place(self) -> float:
        return self.place_total / self.games if self.games else 0.0

    @property
    def chips_per_game(self) -> float:
        return self.net_chips / self.games if self.games else 0.0


@dataclass
class BragSimulationReport:
    rules: BragRules
    players: int
    games: int = 0
    hands: int = 0
    actions: int = 0
    pot_total: int = 0
    biggest_pot: int = 0
    bets: int = 0
    blind_bets: int = 0
    player_hands: int = 0
    blind_player_hands: int = 0
    looks: int = 0
    folds: int = 0
    sees: int = 0
    sees_won: int = 0
    covers: int = 0
    hands_with_cover: int = 0
    void_hands: int = 0  # no ante, and everyone but one folded before a bet
    prial_shuffles: int = 0
    longest_game_hands: int = 0
    bots: list[BragBotResult] = field(default_factory=list)
    elapsed: float = 0.0
    cpu: float = 0.0  # this process's CPU seconds: the one-core figure on a shared machine

    def _per(self, a, b) -> float:
        return a / b if b else 0.0

    @property
    def hands_per_game(self) -> float:
        return self._per(self.hands, self.games)

    @property
    def average_pot(self) -> float:
        return self._per(self.pot_total, self.hands)

    @property
    def blind_bet_rate(self) -> float:
        """The share of bets made blind."""
        return self._per(self.blind_bets, self.bets)

    @property
    def blind_play_rate(self) -> float:
        """The share of players' hands with at least one blind bet."""
        return self._per(self.blind_player_hands, self.player_hands)

    @property
    def see_rate(self) -> float:
        """The share of hands ended by a see."""
        return self._per(self.sees, self.hands)

    @property
    def cover_rate(self) -> float:
        """The share of hands in which somebody covered the pot."""
        return self._per(self.hands_with_cover, self.hands)

    @property
    def void_hand_rate(self) -> float:
        """The share of hands void: with no ante, everyone but one folded before a bet."""
        return self._per(self.void_hands, self.hands)

    @property
    def hands_per_second(self) -> float:
        return self._per(self.hands, self.elapsed)

    @property
    def hands_per_cpu_second(self) -> float:
        return self._per(self.hands, self.cpu)

    def by_level(self) -> dict[str, dict]:
        levels: dict[str, dict] = {}
        for b in self.bots:
            entry = levels.setdefault(b.level, {"games": 0, "wins": 0, "net_chips": 0})
            entry["games"] += b.games
            entry["wins"] += b.wins
            entry["net_chips"] += b.net_chips
        for entry in levels.values():
            entry["win_rate"] = round(self._per(entry["wins"], entry["games"]), 4)
            entry["chips_per_game"] = round(self._per(entry["net_chips"], entry["games"]), 2)
        return levels

    def to_dict(self) -> dict:
        return {
            "game": "brag",
            "players": self.players,
            "games": self.games,
            "hands": self.hands,
            "hands_per_game": round(self.hands_per_game, 2),
            "average_pot": round(self.average_pot, 2),
            "biggest_pot": self.biggest_pot,
            "blind_bet_rate": round(self.blind_bet_rate, 4),
            "blind_play_rate": round(self.blind_play_rate, 4),
            "see_rate": round(self.see_rate, 4),
            "seer_win_rate": round(self._per(self.sees_won, self.sees), 4),
            "cover_rate": round(self.cover_rate, 4),
            "covers": self.covers,
            "prial_shuffles": self.prial_shuffles,
            **({"void_hands": self.void_hands, "void_hand_rate": round(self.void_hand_rate, 4)}
               if not self.rules.ante else {}),
            "longest_game_hands": self.longest_game_hands,
            "hands_per_second": round(self.hands_per_second, 1),
            "hands_per_cpu_second": round(self.hands_per_cpu_second, 1),
            "bots": [
                {"label": b.label, "level": b.level, "games": b.games, "wins": b.wins,
                 "win_rate": round(b.win_rate, 4), "average_place": round(b.average_place, 3),
                 "net_chips": b.net_chips, "chips_per_game": round(b.chips_per_game, 2)}
                for b in self.bots
            ],
            "levels": self.by_level(),
        }

    as_dict = to_dict

    def lines(self) -> list[str]:
        """The report as text, for the command line and the admin page."""
        out = [
            f"{self.games} Brag games of {self.players} players in {self.elapsed:.2f}s "
            f"({self.hands_per_second:.0f} hands/s; {self.cpu:.2f}s of CPU, "
            f"{self.hands_per_cpu_second:.0f} hands per CPU second)",
            f"hands per game {self.hands_per_game:.2f}; average pot {self.average_pot:.1f} "
            f"chips; biggest pot {self.biggest_pot}",
            f"blind: {self.blind_bet_rate:.1%} of bets, in {self.blind_play_rate:.1%} of "
            f"players' hands; a see ends {self.see_rate:.1%} of hands (the seer wins "
            f"{self._per(self.sees_won, self.sees):.1%}); a cover in {self.cover_rate:.1%}",
        ]
        if not self.rules.ante:
            out.append(f"no ante: {self.void_hand_rate:.1%} of hands void (everyone but one "
                       "folded before anyone bet)")
        for b in self.bots:
            out.append(f"  {b.label:<10} win rate {b.win_rate:6.1%}  average place "
                       f"{b.average_place:.2f}  chips per game {b.chips_per_game:+8.2f}")
        return out


def game_seed(seed, index: int) -> bytes:
    return hashlib.sha256(f"brag-simulate:{seed}:{index}".encode()).digest()


def play_bot_game(rules: BragRules, bots, seed: bytes, names=None, report=None,
                  on_action=None):
    """Play one complete game with ``bots`` (one per seat). Returns the final state.

    ``on_action(state)`` is called with every state after the first, for checks.
    """
    names = names or [f"Bot {i + 1}" for i in range(len(bots))]
    state, _ = new_game(rules, names, seed)
    counting = report is not None
    if counting:
        _count_deal(report, state)
    deal = next_hand()
    for _ in range(MAX_ACTIONS_PER_GAME):
        phase = state.phase
        if phase == OVER:
            break
        if phase == SHOWDOWN:
            state, events = apply(state, deal)
            if counting:
                _count_deal(report, state)
        else:
            seat = state.turn
            action = bots[seat].choose(seat_view(state, seat))
            state, events = apply(state, action)
            if counting:
                _count(report, state, events)
        if on_action is not None:
            on_action(state)
    else:
        raise RuntimeError("a simulated Brag game did not end")
    return state


def _count_deal(report: BragSimulationReport, state) -> None:
    report.hands += 1
    report.player_hands += len(state.active)


def _count(report: BragSimulationReport, state, events) -> None:
    report.actions += 1
    for e in events:
        kind = e.kind
        if kind == "bet":
            report.bets += 1
            if e.data["blind"]:
                report.blind_bets += 1
        elif kind == LOOK:
            report.looks += 1
        elif kind == "fold":
            report.folds += 1
        elif kind == "see":
            report.sees += 1
            report.sees_won += e.data["seer_won"]
        elif kind == "cover":
            report.covers += 1
        elif kind == "prial":
            report.prial_shuffles += 1
        elif kind == "pot":  # once per hand, as it is settled
            _count_settlement(report, state)
        elif kind == "void_hand":  # instead of a pot: nothing was bet
            report.void_hands += 1
            _count_settlement(report, state)


def _count_settlement(report: BragSimulationReport, state) -> None:
    settlement = state.settlement
    if settlement is not None:
        pot = sum(p["chips"] for p in settlement["pots"])
        report.pot_total += pot
        report.biggest_pot = max(report.biggest_pot, pot)
        report.blind_player_hands += sum(1 for b in state.blind_bets if b)
        if any(p["kind"] == "closed" for p in settlement["pots"]):
            report.hands_with_cover += 1


def simulate(rules: BragRules, bots: list[str], games: int, seed=0,
             progress=None) -> BragSimulationReport:
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
        results.append(BragBotResult(label, level))
    report = BragSimulationReport(rules, n, bots=results)
    rng = random.Random(f"brag-bots:{seed}")
    entries = [make_bot(level, rules, random.Random(rng.random())) for level in bots]
    start_chips = rules.starting_chips
    started = time.perf_counter()
    cpu_started = time.process_time()
    for g in range(games):
        seating = [entries[(s - g) % n] for s in range(n)]  # entry i at seat (i + g) % n
        hands_before = report.hands
        state = play_bot_game(rules, seating, game_seed(seed, g), report=report)
        report.games += 1
        report.longest_game_hands = max(report.longest_game_hands, report.hands - hands_before)
        for i, result in enumerate(results):
            seat = (i + g) % n
            place = state.places[seat]
            result.games += 1
            result.place_total += place
            result.wins += place == 1
            result.net_chips += state.chips[seat] - start_chips
        if progress is not None:
            progress(g + 1)
    report.elapsed = time.perf_counter() - started
    report.cpu = time.process_time() - cpu_started
    return report


__all__ = ["BragSimulationReport", "play_bot_game", "simulate"]
