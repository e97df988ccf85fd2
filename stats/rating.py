"""Ratings: OpenSkill's Plackett-Luce model over finishing places.

Every finished *rated* game (``Game.rated``: a rated variant and at least two
people at the table) is one Plackett-Luce update in which each seat is a team
of one, ranked by its place. Players put out by the same showdown share a
place, and the model treats equal ranks as a tie. A player who left early
takes the place recorded for them when they left.

**Bots** take part as opponents with a fixed identity per level and are never
updated: beating a strong bot is worth more than beating a random one, and a
bot's rating does not drift with the people it plays. Their mu is set around
the newcomer's 25 (random 15, greedy 25, Monte-Carlo 30) with a small sigma,
so that the model treats them as well known.

**The number shown** is ``1000 + 20 x ordinal``, where OpenSkill's ordinal is
``mu - 3 sigma``: a conservative estimate of skill. A newcomer starts at 1000;
the number rises with wins and also as the model grows surer of a player, so a
player of exactly average strength climbs to about 1400 over their first
hundred or so games (sigma settles near 2, so the ordinal near 25 - 6). The
factor 20 only spreads the numbers into a range people are used to reading;
``mu`` and ``sigma`` are stored as they are.

Each user has one overall rating (every rated game) and one per variant.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

INITIAL_MU = 25.0
INITIAL_SIGMA = 25.0 / 3.0
DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 20.0

BOT_SIGMA = 1.0
BOT_MU = {"random": 15.0, "greedy": 25.0, "mc": 30.0}
DEFAULT_BOT_LEVEL = "greedy"


def display_rating(mu: float, sigma: float) -> float:
    return DISPLAY_BASE + DISPLAY_SCALE * (mu - 3.0 * sigma)


def bot_rating(level: str) -> tuple[float, float]:
    return BOT_MU.get(level, BOT_MU[DEFAULT_BOT_LEVEL]), BOT_SIGMA


@cache
def model() -> PlackettLuce:
    return PlackettLuce(mu=INITIAL_MU, sigma=INITIAL_SIGMA)


@dataclass
class Entrant:
    """One seat in a rated game: its rating before, its place, and whether it learns."""

    mu: float
    sigma: float
    place: int
    fixed: bool = False  # bots: take part, never updated


def rate(entrants: list[Entrant]) -> list[tuple[float, float]]:
    """New (mu, sigma) per entrant, in order; fixed entrants keep theirs."""
    if len(entrants) < 2:
        return [(e.mu, e.sigma) for e in entrants]
    m = model()
    teams = [[m.rating(mu=e.mu, sigma=e.sigma)] for e in entrants]
    rated = m.rate(teams, ranks=[e.place for e in entrants])
    out = []
    for entrant, team in zip(entrants, rated, strict=True):
        if entrant.fixed:
            out.append((entrant.mu, entrant.sigma))
        else:
            out.append((team[0].mu, team[0].sigma))
    return out


@dataclass(frozen=True)
class RatingChange:
    """One person's shown rating before and after one game, in whole numbers.

    The change is the difference of the two numbers shown, not of the stored ratings,
    so that "1012 -> 1035" always reads "+23" beside it."""

    before: int
    after: int

    @classmethod
    def shown(cls, before: float, after: float) -> RatingChange:
        return cls(round(before), round(after))

    @property
    def change(self) -> int:
        return self.after - self.before

    @property
    def size(self) -> int:
        return abs(self.change)

    @property
    def direction(self) -> str:
        """"up", "down" or "same": said in words beside the signed number."""
        return "up" if self.change > 0 else "down" if self.change < 0 else "same"
