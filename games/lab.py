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

Everything the lab says (its errors, the figures' names, the report as text) is in
the active language: an admin's on the admin page, the site's default (English) on
the command line. In English the report's lines are word for word the engine's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from .engine.simulate import SimulationReport
from .event_text import category_label
from .kinds import BRAG, KINDS, STOP_THE_BUS, GameKind, kind_for

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
        raise LabError(_("Name at least one bot level: %(levels)s.")
                       % {"levels": ", ".join(bot_levels)})
    unknown = [level for level in levels if level not in bot_levels]
    if unknown:
        raise LabError(_("Unknown bot level %(level)s: choose from %(levels)s.")
                       % {"level": repr(unknown[0]), "levels": ", ".join(bot_levels)})
    if players is None:
        players = len(levels) if len(levels) > 1 else default_players(rules)
    if not rules.min_players <= players <= rules.max_players:
        raise LabError(_("These rules are for %(min)d to %(max)d players, not %(players)d.")
                       % {"min": rules.min_players, "max": rules.max_players,
                          "players": players})
    if len(levels) == 1:
        return levels * players
    if len(levels) != players:
        # "levels" for any number: the line-up names two or more here
        raise LabError(_("%(levels)d bot levels for %(players)d players: give one level for "
                         "everyone or one per seat.") % {"levels": len(levels),
                                                         "players": players})
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
        return [(category_label(name), count, count / total if total else 0.0)
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
        return [{"label": figure_label(key), "value": _figure(key, value)}
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
            rows = [[_figure(c, row.get(c, "")) for c in columns] for row in value]
            tables.append({
                "caption": figure_label(key),
                "columns": [figure_label(c) for c in columns],
                "rows": rows,
                # for a page: each cell with whether it is a level code or a bot's label
                "cells": [[{"text": cell, "code": c in CODE_COLUMNS}
                           for c, cell in zip(columns, row, strict=True)] for row in rows],
            })
        return tables

    def stop_note(self) -> str:
        if not self.stopped_early:
            return ""
        return _("Stopped at the time budget of %(budget)ss: played %(played)d of the "
                 "%(asked)d games asked for.") % {
            "budget": f"{self.time_budget:g}", "played": self.games_played,
            "asked": self.games_asked}

    def lines(self) -> list[str]:
        """The report's lines (or the figures, one a line) and any early stop: in English
        the engine's own lines, word for word."""
        report_lines = _REPORT_LINES.get(self.kind.slug)
        if report_lines is not None:
            out = report_lines(self.report)
        elif getattr(self.report, "lines", None) is not None:
            out = self.report.lines()
        else:
            out = [_games_line(self.games_played, self.players, self.elapsed,
                               self.games_per_second)]
            out += [f"{row['label'].lower()}: {row['value']}" for row in self.figure_rows()]
            for table in self.figure_tables():
                out.append(f"{table['caption'].lower()}:")
                out += ["  " + "  ".join(str(cell) for cell in row) for row in table["rows"]]
        categories = getattr(self.report, "categories", None)
        if isinstance(categories, dict) and categories:
            out.append(_("hands at showdowns: %(shares)s") % {
                "shares": pgettext("list separator", ", ").join(
                    f"{label.lower()} {share:.1%}" for label, _count, share in self.categories())})
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
_NOT_FIGURES = {"rules", "players", "games", "elapsed", "seed", "game"}


# Names of figures that are fractions of a whole, shown in per cent.
_FRACTIONS = ("rate", "rates", "share", "shares", "frequency")


def _is_figure(value) -> bool:
    return isinstance(value, (int, float, str)) and not isinstance(value, bool)


def _words(key: str) -> str:
    return str(key).replace("_", " ").capitalize()


# The names of the figures the engines' reports give, in the reader's language; in
# English as _words says them. A figure not named here is shown by its key in words.
FIGURE_LABELS = {
    "average_place": pgettext_lazy("lab figures", "Average place"),
    "average_pot": pgettext_lazy("lab figures", "Average pot"),
    "biggest_pot": pgettext_lazy("lab figures", "Biggest pot"),
    "blind_bet_rate": pgettext_lazy("lab figures", "Blind bet rate"),
    "blind_play_rate": pgettext_lazy("lab figures", "Blind play rate"),
    "blitzes": pgettext_lazy("lab figures", "Blitzes"),
    "bots": pgettext_lazy("lab figures", "Bots"),
    "categories": pgettext_lazy("lab figures", "Categories"),
    "chips_per_game": pgettext_lazy("lab figures", "Chips per game"),
    "cover_rate": pgettext_lazy("lab figures", "Cover rate"),
    "covers": pgettext_lazy("lab figures", "Covers"),
    "games": pgettext_lazy("lab figures", "Games"),
    "games_per_second": pgettext_lazy("lab figures", "Games per second"),
    "hands": pgettext_lazy("lab figures", "Hands"),
    "hands_per_cpu_second": pgettext_lazy("lab figures", "Hands per CPU second"),
    "hands_per_game": pgettext_lazy("lab figures", "Hands per game"),
    "hands_per_second": pgettext_lazy("lab figures", "Hands per second"),
    "label": pgettext_lazy("lab figures", "Label"),
    "level": pgettext_lazy("lab figures", "Level"),
    "levels": pgettext_lazy("lab figures", "Levels"),
    "longest_game_hands": pgettext_lazy("lab figures", "Longest game hands"),
    "net_chips": pgettext_lazy("lab figures", "Net chips"),
    "players": pgettext_lazy("lab figures", "Players"),
    "prial_shuffles": pgettext_lazy("lab figures", "Prial shuffles"),
    "see_rate": pgettext_lazy("lab figures", "See rate"),
    "seer_win_rate": pgettext_lazy("lab figures", "Seer win rate"),
    "stopper_loss_rate": pgettext_lazy("lab figures", "Stopper loss rate"),
    "turns_per_hand": pgettext_lazy("lab figures", "Turns per hand"),
    "void_hand_rate": pgettext_lazy("lab figures", "Void hand rate"),
    "void_hands": pgettext_lazy("lab figures", "Void hands"),
    "void_showdowns": pgettext_lazy("lab figures", "Void showdowns"),
    "win_rate": pgettext_lazy("lab figures", "Win rate"),
    "wins": pgettext_lazy("lab figures", "Wins"),
}
# The level codes and bots' labels ("greedy #1") are what an admin types in a line-up:
# shown as they are in every language.
CODE_COLUMNS = frozenset(("", "label", "level"))


def figure_label(key: str) -> str:
    label = FIGURE_LABELS.get(key)
    return str(label) if label is not None else _words(key)


# -- the reports as text, in the reader's language ---------------------------------------------
# The engines write "games", "hands" and "blitzes" for any number (the command line's
# words): English stays word for word with them.


def _games_line(games: int, players: int, elapsed: float, rate: float) -> str:
    return _("%(games)d games of %(players)d players in %(elapsed)ss (%(rate)s games/s)") % {
        "games": games, "players": players, "elapsed": f"{elapsed:.2f}", "rate": f"{rate:.1f}"}


def _stop_the_bus_lines(report: SimulationReport) -> list[str]:
    stopper = _("the stopper lost %(share)s of %(stops)d stopped hands") % {
        "share": f"{report.stopper_loss_rate:.1%}", "stops": report.stops}
    if report.blitzes:
        stopper += _("; %(count)d blitzes") % {"count": report.blitzes}
    if report.void_showdowns:
        stopper += _("; %(count)d showdowns changed nothing") % {"count": report.void_showdowns}
    out = [
        _games_line(report.games, report.players, report.elapsed, report.games_per_second),
        _("hands per game %(hands)s; turns per hand %(turns)s; longest game %(longest)d "
          "hands") % {"hands": f"{report.hands_per_game:.2f}",
                      "turns": f"{report.turns_per_hand:.2f}",
                      "longest": report.longest_game_hands},
        stopper,
    ]
    for b in report.bots:
        out.append(_("  %(bot)s win rate %(rate)s  average place %(place)s") % {
            "bot": f"{b.label:<12}", "rate": f"{b.win_rate:6.1%}",
            "place": f"{b.average_place:.2f}"})
    return out


def _brag_lines(report) -> list[str]:
    out = [
        _("%(games)d Brag games of %(players)d players in %(elapsed)ss (%(hands_rate)s "
          "hands/s; %(cpu)ss of CPU, %(cpu_rate)s hands per CPU second)") % {
            "games": report.games, "players": report.players,
            "elapsed": f"{report.elapsed:.2f}", "hands_rate": f"{report.hands_per_second:.0f}",
            "cpu": f"{report.cpu:.2f}", "cpu_rate": f"{report.hands_per_cpu_second:.0f}"},
        _("hands per game %(hands)s; average pot %(pot)s chips; biggest pot %(biggest)d") % {
            "hands": f"{report.hands_per_game:.2f}", "pot": f"{report.average_pot:.1f}",
            "biggest": report.biggest_pot},
        _("blind: %(blind_bets)s of bets, in %(blind_hands)s of players' hands; a see ends "
          "%(sees)s of hands (the seer wins %(seer_wins)s); a cover in %(covers)s") % {
            "blind_bets": f"{report.blind_bet_rate:.1%}",
            "blind_hands": f"{report.blind_play_rate:.1%}",
            "sees": f"{report.see_rate:.1%}",
            "seer_wins": f"{report._per(report.sees_won, report.sees):.1%}",
            "covers": f"{report.cover_rate:.1%}"},
    ]
    if not report.rules.ante:
        out.append(_("no ante: %(void)s of hands void (everyone but one folded before anyone "
                     "bet)") % {"void": f"{report.void_hand_rate:.1%}"})
    for b in report.bots:
        out.append(_("  %(bot)s win rate %(rate)s  average place %(place)s  chips per game "
                     "%(chips)s") % {
            "bot": f"{b.label:<10}", "rate": f"{b.win_rate:6.1%}",
            "place": f"{b.average_place:.2f}", "chips": f"{b.chips_per_game:+8.2f}"})
    return out


# The kinds whose report the lab says in the reader's language; others: the engine's lines.
_REPORT_LINES = {STOP_THE_BUS.slug: _stop_the_bus_lines, BRAG.slug: _brag_lines}


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
        raise LabError(_("Play at least one game."))
    if time_budget is not None and time_budget <= 0:
        raise LabError(_("The time budget must be more than 0 seconds."))
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
