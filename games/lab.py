"""The variant lab: bots play a variant many times so an admin can see how it plays.

The engine of the variant's game kind (through the registry, :mod:`games.kinds`)
does the playing and the counting. The lab adds what a web page and a command need
around it: a bot line-up read from words ("greedy,greedy,random" or one level for
everyone), plain one-line errors, and a time budget, so that a request never runs
for minutes.

Stop the Bus's report can be added up game by game, so for it the lab asks the
engine for one game at a time and stops on time. It keeps the engine's seating
rotation (entry *i* sits at seat ``(i + g) % n`` in game *g*) by rotating the
line-up itself, so a stopped run is as fair between seats as a finished one. Every
game has its own seed derived from the run's seed, so the same seed, line-up and
number of games always give the same figures, whether they come from the admin
page or the command line.

A kind whose report the lab cannot add up (Brag's) is played in one engine run:
with a time budget the lab first times one game, then plays as many of the games
asked for as fit in what is left. The same seed, line-up and number of games played
give the same figures; the page and the JSON say when fewer were played than asked.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .engine.ranking import CATEGORY_LABELS
from .engine.simulate import SimulationReport
from .kinds import KINDS, STOP_THE_BUS, GameKind, kind_for

DEFAULT_TIME_BUDGET = 8.0
DEFAULT_PLAYERS = 4

_COUNTERS = ("games", "hands", "turns", "stops", "stopper_lost", "blitzes", "void_showdowns")


class LabError(ValueError):
    """A lab run that cannot start. The message is one line, for a person."""


def _is_rules(value) -> bool:
    return any(isinstance(value, kind.rules_class) for kind in KINDS.values())


def rules_of(subject):
    """The rules (of any game kind) of a rules object, a Variant or an engine Preset."""
    if _is_rules(subject):
        return subject
    rules = getattr(subject, "rules", None)
    if _is_rules(rules):
        return rules
    raise TypeError(f"no house rules in {subject!r}")


def default_players(rules) -> int:
    return min(max(DEFAULT_PLAYERS, rules.min_players), rules.max_players)


def bot_lineup(bots: str | Sequence[str], players: int | None, rules) -> list[str]:
    """One bot level per seat, from one level for everyone or one per seat.

    ``bots`` is a comma-separated string or a list of levels; ``players`` None
    means "as many as the line-up names" (or the usual four, for one level).
    """
    bot_levels = kind_for(rules).bot_levels
    words = bots.split(",") if isinstance(bots, str) else list(bots)
    levels = [word.strip().lower() for word in words if word.strip()]
    if not levels:
        raise LabError(f"Name at least one bot level: {', '.join(bot_levels)}.")
    unknown = [level for level in levels if level not in bot_levels]
    if unknown:
        raise LabError(f"Unknown bot level {unknown[0]!r}: choose from "
                       f"{', '.join(bot_levels)}.")
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
    kind: GameKind
    rules: object
    bots: list[str]
    games_asked: int
    seed: str
    time_budget: float | None
    report: object  # the kind's simulation report
    games_played: int
    elapsed: float

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def stopped_early(self) -> bool:
        return self.games_played < self.games_asked

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.elapsed if self.elapsed else 0.0

    @property
    def template(self) -> str:
        return self.kind.lab_template

    def report_dict(self) -> dict:
        """The engine's figures as data (Stop the Bus names it as_dict, Brag to_dict)."""
        as_data = getattr(self.report, "as_dict", None) or self.report.to_dict
        return as_data()

    # -- Stop the Bus's own report ------------------------------------------------------------

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

    # -- any report, from its data ------------------------------------------------------------

    def figure_rows(self) -> list[dict]:
        """Each single figure of the report: {"label", "value"} in words and per cent."""
        return [{"label": _words(key), "value": _figure(key, value)}
                for key, value in self.report_dict().items()
                if key not in _NOT_FIGURES and _is_figure(value)]

    def figure_tables(self) -> list[dict]:
        """Each group of figures (win rates by bot level, ...) as a table for a page."""
        tables = []
        for key, value in self.report_dict().items():
            if key in _NOT_FIGURES or _is_figure(value) or not value:
                continue
            if isinstance(value, dict):
                # {"greedy": {...}} or {"greedy": 0.41}: one row per name; a lone figure
                # is named by the group, so that "win_rates" still reads as per cent.
                value = [{"": name, **(row if isinstance(row, dict) else {key: row})}
                         for name, row in value.items()]
            if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
                continue
            columns = list(dict.fromkeys(c for row in value for c in row))
            tables.append({
                "caption": _words(key),
                "columns": [_words(c) for c in columns],
                "rows": [[_figure(c, row.get(c, "")) for c in columns] for row in value],
            })
        return tables

    def stop_note(self) -> str:
        if not self.stopped_early:
            return ""
        return (f"Stopped at the time budget of {self.time_budget:g}s: played "
                f"{self.games_played} of the {self.games_asked} games asked for.")

    def lines(self) -> list[str]:
        """The engine's report lines (or the figures, one a line) and any early stop."""
        report_lines = getattr(self.report, "lines", None)
        if report_lines is not None:
            out = report_lines()
        else:
            out = [f"{self.games_played} games of {self.players} players in "
                   f"{self.elapsed:.2f}s ({self.games_per_second:.1f} games/s)"]
            out += [f"{row['label'].lower()}: {row['value']}" for row in self.figure_rows()]
            for table in self.figure_tables():
                out.append(f"{table['caption'].lower()}:")
                out += ["  " + "  ".join(str(cell) for cell in row) for row in table["rows"]]
        categories = getattr(self.report, "categories", None)
        if isinstance(categories, dict) and categories:
            out.append("hands at showdowns: " + ", ".join(
                f"{label.lower()} {share:.1%}" for label, _, share in self.categories()))
        if self.stopped_early:
            out.append(self.stop_note())
        return out

    def as_dict(self) -> dict:
        return {
            **self.report_dict(),
            "game": self.kind.slug,
            "lineup": self.bots,
            "seed": self.seed,
            "games_asked": self.games_asked,
            "games_played": self.games_played,
            "stopped_early": self.stopped_early,
            "time_budget": self.time_budget,
            "elapsed": round(self.elapsed, 3),
            "rules": self.rules.to_dict(),
        }


# Keys of a report's data that are not figures about the play.
_NOT_FIGURES = {"rules", "players", "games", "elapsed", "seed"}


# Names of figures that are fractions of a whole, shown in per cent.
_FRACTIONS = ("rate", "rates", "share", "shares", "frequency")


def _is_figure(value) -> bool:
    return isinstance(value, (int, float, str)) and not isinstance(value, bool)


def _words(key: str) -> str:
    return str(key).replace("_", " ").capitalize()


def _figure(key: str, value) -> str:
    """A value for a page: rates and shares in per cent, other fractions to two places."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float) and str(key).endswith(_FRACTIONS) and 0 <= value <= 1:
        return f"{value:.1%}"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def run_lab(subject, players: int | None, bots: str | Sequence[str], games: int, seed=0,
            time_budget: float | None = DEFAULT_TIME_BUDGET,
            progress: Callable[[int, int], None] | None = None) -> LabResult:
    """Play up to ``games`` bot games under ``subject``'s rules, within ``time_budget`` seconds.

    ``subject`` is a Variant, a rules object or an engine Preset, of any game kind. At
    least one game is always played; ``time_budget`` None plays them all.
    ``progress(done, asked)`` is called as games are done.
    """
    rules = rules_of(subject)
    kind = kind_for(rules)
    lineup = bot_lineup(bots, players, rules)
    if games < 1:
        raise LabError("Play at least one game.")
    if time_budget is not None and time_budget <= 0:
        raise LabError("The time budget must be more than 0 seconds.")
    seed = str(seed)
    play = _RUNS.get(kind.slug, _in_one_run)
    report, played, elapsed = play(kind, rules, lineup, games, seed, time_budget, progress)
    return LabResult(kind, rules, lineup, games, seed, time_budget, report, played, elapsed)


def _game_by_game(kind, rules, lineup, games, seed, time_budget, progress):
    n = len(lineup)
    total: SimulationReport | None = None
    started = time.perf_counter()
    for g in range(games):
        if total is not None and time_budget is not None and (
                time.perf_counter() - started >= time_budget):
            break
        # Seat s holds line-up entry (s - g) % n, as in the engine's own rotation.
        seating = [lineup[(s - g) % n] for s in range(n)]
        part = kind.simulate(rules, seating, 1, seed=f"{seed}:{g}")
        if total is None:
            total = part  # game 0 is unrotated: its bot labels are the line-up's
        else:
            _add(total, part, shift=g)
        if progress is not None:
            progress(g + 1, games)
    total.elapsed = time.perf_counter() - started
    return total, total.games, total.elapsed


def _in_one_run(kind, rules, lineup, games, seed, time_budget, progress):
    started = time.perf_counter()
    playing = games
    if time_budget is not None and games > 1:
        kind.simulate(rules, lineup, 1, seed=f"{seed}:timing")
        per_game = max(time.perf_counter() - started, 1e-9)
        left = time_budget - per_game
        playing = max(1, min(games, int(left / per_game)))
    report = kind.simulate(rules, lineup, playing, seed=seed)
    if progress is not None:
        progress(playing, games)
    return report, playing, time.perf_counter() - started


# How the lab plays a kind whose report it can add up game by game; others: one run.
_RUNS = {STOP_THE_BUS.slug: _game_by_game}


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
