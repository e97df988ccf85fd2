"""The variant lab: bots play a variant many times so an admin can see how it plays.

The engine's :func:`~games.engine.simulate` does the playing and the counting.
The lab adds what a web page and a command need around it: a bot line-up read
from words ("greedy,greedy,random" or one level for everyone), plain one-line
errors, and a time budget, so that a request never runs for minutes.

To stop on time the lab asks the engine for one game at a time and adds the
reports up. It keeps the engine's seating rotation (entry *i* sits at seat
``(i + g) % n`` in game *g*) by rotating the line-up itself, so a stopped run is
as fair between seats as a finished one. Every game has its own seed derived
from the run's seed, so the same seed, line-up and number of games always give
the same figures, whether they come from the admin page or the command line.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .engine import HouseRules, simulate
from .engine.bots import BOT_LEVELS
from .engine.ranking import CATEGORY_LABELS
from .engine.simulate import SimulationReport

DEFAULT_TIME_BUDGET = 8.0
DEFAULT_PLAYERS = 4

_COUNTERS = ("games", "hands", "turns", "stops", "stopper_lost", "blitzes", "void_showdowns")


class LabError(ValueError):
    """A lab run that cannot start. The message is one line, for a person."""


def rules_of(subject) -> HouseRules:
    """The house rules of a HouseRules, a Variant or an engine Preset."""
    if isinstance(subject, HouseRules):
        return subject
    rules = getattr(subject, "rules", None)
    if isinstance(rules, HouseRules):
        return rules
    raise TypeError(f"no house rules in {subject!r}")


def default_players(rules: HouseRules) -> int:
    return min(max(DEFAULT_PLAYERS, rules.min_players), rules.max_players)


def bot_lineup(bots: str | Sequence[str], players: int | None, rules: HouseRules) -> list[str]:
    """One bot level per seat, from one level for everyone or one per seat.

    ``bots`` is a comma-separated string or a list of levels; ``players`` None
    means "as many as the line-up names" (or the usual four, for one level).
    """
    words = bots.split(",") if isinstance(bots, str) else list(bots)
    levels = [word.strip().lower() for word in words if word.strip()]
    if not levels:
        raise LabError(f"Name at least one bot level: {', '.join(BOT_LEVELS)}.")
    unknown = [level for level in levels if level not in BOT_LEVELS]
    if unknown:
        raise LabError(f"Unknown bot level {unknown[0]!r}: choose from "
                       f"{', '.join(BOT_LEVELS)}.")
    if players is None:
        players = len(levels) if len(levels) > 1 else default_players(rules)
    if not rules.min_players <= players <= rules.max_players:
        raise LabError(f"These rules are for {rules.min_players} to {rules.max_players} "
                       f"players, not {players}.")
    if len(levels) == 1:
        return levels * players
    if len(levels) != players:
        raise LabError(f"{len(levels)} bot levels for {players} players: give one level for "
                       "everyone or one per seat.")
    return levels


@dataclass
class LabResult:
    rules: HouseRules
    bots: list[str]
    games_asked: int
    seed: str
    time_budget: float | None
    report: SimulationReport

    @property
    def games_played(self) -> int:
        return self.report.games

    @property
    def stopped_early(self) -> bool:
        return self.report.games < self.games_asked

    @property
    def elapsed(self) -> float:
        return self.report.elapsed

    def categories(self) -> list[tuple[str, int, float]]:
        """(hand category in words, showdown hands, share), most frequent first."""
        total = sum(self.report.categories.values())
        ordered = sorted(self.report.categories.items(), key=lambda kv: (-kv[1], kv[0]))
        return [(CATEGORY_LABELS.get(name, name), count, count / total if total else 0.0)
                for name, count in ordered]

    # Rows for a page, with the rates already in per cent.
    def bot_rows(self) -> list[dict]:
        return [{"label": b.label, "level": b.level, "games": b.games, "wins": b.wins,
                 "win_rate": f"{b.win_rate:.1%}", "average_place": f"{b.average_place:.2f}"}
                for b in self.report.bots]

    def category_rows(self) -> list[dict]:
        return [{"label": label, "count": count, "share": f"{share:.1%}"}
                for label, count, share in self.categories()]

    @property
    def stopper_loss_percent(self) -> str:
        return f"{self.report.stopper_loss_rate:.1%}"

    def stop_note(self) -> str:
        if not self.stopped_early:
            return ""
        return (f"Stopped at the time budget of {self.time_budget:g}s: played "
                f"{self.games_played} of the {self.games_asked} games asked for.")

    def lines(self) -> list[str]:
        """The engine's report lines, the hands seen at showdowns and any early stop."""
        out = self.report.lines()
        if self.report.categories:
            out.append("hands at showdowns: " + ", ".join(
                f"{label.lower()} {share:.1%}" for label, _, share in self.categories()))
        if self.stopped_early:
            out.append(self.stop_note())
        return out

    def as_dict(self) -> dict:
        return {
            **self.report.as_dict(),
            "lineup": self.bots,
            "seed": self.seed,
            "games_asked": self.games_asked,
            "stopped_early": self.stopped_early,
            "time_budget": self.time_budget,
            "elapsed": round(self.elapsed, 3),
            "rules": self.rules.to_dict(),
        }


def run_lab(subject, players: int | None, bots: str | Sequence[str], games: int, seed=0,
            time_budget: float | None = DEFAULT_TIME_BUDGET,
            progress: Callable[[int, int], None] | None = None) -> LabResult:
    """Play up to ``games`` bot games under ``subject``'s rules, within ``time_budget`` seconds.

    ``subject`` is a Variant, HouseRules or engine Preset. At least one game is
    always played; ``time_budget`` None plays them all. ``progress(done, asked)``
    is called after every game.
    """
    rules = rules_of(subject)
    lineup = bot_lineup(bots, players, rules)
    if games < 1:
        raise LabError("Play at least one game.")
    if time_budget is not None and time_budget <= 0:
        raise LabError("The time budget must be more than 0 seconds.")
    seed = str(seed)
    n = len(lineup)
    total: SimulationReport | None = None
    started = time.perf_counter()
    for g in range(games):
        if total is not None and time_budget is not None and (
                time.perf_counter() - started >= time_budget):
            break
        # Seat s holds line-up entry (s - g) % n, as in the engine's own rotation.
        seating = [lineup[(s - g) % n] for s in range(n)]
        part = simulate(rules, seating, 1, seed=f"{seed}:{g}")
        if total is None:
            total = part  # game 0 is unrotated: its bot labels are the line-up's
        else:
            _add(total, part, shift=g)
        if progress is not None:
            progress(g + 1, games)
    total.elapsed = time.perf_counter() - started
    return LabResult(rules, lineup, games, seed, time_budget, total)


def _add(total: SimulationReport, part: SimulationReport, shift: int) -> None:
    for name in _COUNTERS:
        setattr(total, name, getattr(total, name) + getattr(part, name))
    total.longest_game_hands = max(total.longest_game_hands, part.longest_game_hands)
    for category, count in part.categories.items():
        total.categories[category] = total.categories.get(category, 0) + count
    n = len(total.bots)
    for seat, result in enumerate(part.bots):
        into = total.bots[(seat - shift) % n]
        into.games += result.games
        into.wins += result.wins
        into.place_total += result.place_total
        for place, count in result.places.items():
            into.places[place] = into.places.get(place, 0) + count


__all__ = ["DEFAULT_TIME_BUDGET", "LabError", "LabResult", "bot_lineup", "run_lab"]
