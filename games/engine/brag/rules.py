"""House rules of a Three Card Brag variant: one frozen, validated object per game.

Field names are the setting names of RULES.md ("Three Card Brag", Settings).
``BragRules(**fields)`` raises :class:`~games.engine.rules.RulesError`, mapping
each field to its messages, exactly as :class:`~games.engine.rules.HouseRules`
does, so that the admin form shows the engine's own messages.

Choices the rules leave open, made here:

* The ante is 0 to the starting chips. An ante of 0 is the house rule "no
  ante": the middle starts empty and the first bet opens the pot. If everyone
  but one player folds before anybody has bet, there is nothing to win: the
  hand is **void** (as a real table throws such a hand in), nobody wins or pays
  anything, the last player's cards go unshown under the pack with the others,
  the hand counts towards ``max_hands``, and the deal passes left as after any
  hand (:mod:`.game`). With no ante a game needs a ``max_hands``: a table where
  nobody ever bets would otherwise never end.
* ``min_bet``, ``max_bet`` and ``max_raise`` are whole chips counted as *seen*
  chips (the stake); ``max_bet`` may not be below ``min_bet``. ``max_raise`` 0
  is the house rule "fixed stakes" (limit play): the first bet sets the stake,
  from ``min_bet`` to ``max_bet``, and no later bet may raise it. With
  ``pot_limit`` betting ``max_bet`` and ``max_raise`` are kept but unused.
* Up to 8 players: 24 cards dealt from one pack keep 28 in it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from ..ranking import RankingConfig, ranking_for
from ..rules import ACE_LOW_RUNS, Preset, Problem, RulesError

BETTINGS = {"limit": "Limit", "pot_limit": "Pot limit"}
SHUFFLES = {
    "prial_only": "Only after a pot is won with a prial shown",
    "every_hand": "Before every hand",
}
MAX_CHIPS = 100_000
MAX_HANDS = 1000
MIN_PLAYERS, MAX_PLAYERS = 2, 8


@dataclass(frozen=True, slots=True)
class BragRules:
    starting_chips: int = 100
    ante: int = 1
    betting: str = "limit"
    min_bet: int = 1
    max_bet: int = 10
    max_raise: int = 10
    blind_play: bool = True
    shuffle: str = "prial_only"
    max_hands: int = 50
    threes_high: bool = True
    ace_low_run: str = "top"
    min_players: int = 2
    max_players: int = 8

    game = "brag"  # the game kind, as a class attribute: not a house rule

    def __post_init__(self):
        errors = brag_rule_problems(self)
        if errors:
            raise RulesError(errors)

    @classmethod
    def from_dict(cls, data: dict) -> BragRules:
        """Build from a dict, ignoring keys that are not Brag house rules."""
        names = set(BRAG_RULE_NAMES)
        return cls(**{k: v for k, v in data.items() if k in names})

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def ranking_config(self) -> RankingConfig:
        return RankingConfig(kind="brag", threes_high=self.threes_high,
                             ace_low_run=self.ace_low_run)

    @property
    def hand_ranking(self):
        # looked up at every look, see and settlement: skip building the config
        key = (self.threes_high, self.ace_low_run)
        ranking = _RANKINGS.get(key)
        if ranking is None:
            ranking = _RANKINGS[key] = ranking_for(self.ranking_config)
        return ranking

    def summary(self) -> list[str]:
        """The rules in force, in a player's words, one sentence each."""
        return describe_brag_rules(self)


_RANKINGS: dict = {}

BRAG_RULE_NAMES = tuple(f.name for f in fields(BragRules))


def brag_rule_problems(rules) -> dict[str, list[str]]:
    """Every problem with a set of Brag rules (any object with the rule attributes)."""
    errors: dict[str, list[str]] = {}

    def problem(field: str, message: str, reason: str, **params) -> None:
        errors.setdefault(field, []).append(Problem(message, reason, **params))

    for field, allowed in (("betting", BETTINGS), ("shuffle", SHUFFLES),
                           ("ace_low_run", ACE_LOW_RUNS)):
        value = getattr(rules, field)
        if not isinstance(value, str) or value not in allowed:
            problem(field, f"{value!r} is not one of: {', '.join(allowed)}.", "not_one_of",
                    value=repr(value), allowed=", ".join(allowed))
    for field in ("blind_play", "threes_high"):
        if not isinstance(getattr(rules, field), bool):
            problem(field, "Must be on or off.", "on_or_off")
    for field in ("starting_chips", "ante", "min_bet", "max_bet", "max_raise", "max_hands",
                  "min_players", "max_players"):
        value = getattr(rules, field)
        if not isinstance(value, int) or isinstance(value, bool):
            problem(field, "Must be a whole number.", "whole_number")
    if errors:
        return errors

    if not 1 <= rules.starting_chips <= MAX_CHIPS:
        problem("starting_chips", f"Players start with 1 to {MAX_CHIPS} chips.",
                "starting_chips_range", most=MAX_CHIPS)
    if rules.ante < 0:
        problem("ante", "The ante cannot be negative (0: no ante).", "ante_negative")
    elif rules.ante > rules.starting_chips:
        problem("ante", f"An ante of {rules.ante} is more than the {rules.starting_chips} "
                "chips everyone starts with.", "ante_above_chips", ante=rules.ante,
                chips=rules.starting_chips)
    if rules.min_bet < 1:
        problem("min_bet", "The smallest stake is at least 1 chip.", "min_bet_too_low")
    if rules.max_bet < rules.min_bet:
        problem("max_bet", f"The largest opening stake ({rules.max_bet}) cannot be below "
                f"the smallest ({rules.min_bet}).", "max_bet_below_min",
                largest=rules.max_bet, smallest=rules.min_bet)
    if rules.max_raise < 0:
        problem("max_raise", "The largest raise cannot be negative (0: fixed stakes).",
                "raise_negative")
    if not 0 <= rules.max_hands <= MAX_HANDS:
        problem("max_hands", f"Play 1 to {MAX_HANDS} hands, or 0 to play until one player "
                "has every chip.", "max_hands_range", most=MAX_HANDS)
    elif rules.ante == 0 and rules.max_hands == 0:
        problem("max_hands", "With no ante, set a number of hands: a game in which nobody "
                "bets would never end.", "no_ante_needs_max_hands")
    if rules.min_players < MIN_PLAYERS:
        problem("min_players", f"It takes at least {MIN_PLAYERS} players.",
                "min_players_too_low", fewest=MIN_PLAYERS)
    if rules.max_players > MAX_PLAYERS:
        problem("max_players", f"Brag is for at most {MAX_PLAYERS} players "
                f"({rules.max_players} asked).", "brag_max_players", most=MAX_PLAYERS,
                asked=rules.max_players)
    if rules.max_players < rules.min_players:
        problem("max_players", "The most players cannot be fewer than the fewest.",
                "most_below_fewest")
    return errors


def _chips(n: int) -> str:
    return f"{n} chip{'s' if n != 1 else ''}"


def describe_brag_rules(rules: BragRules) -> list[str]:
    """Plain-English sentences for the rules in force."""
    if rules.ante:
        lines = [f"Everyone starts with {_chips(rules.starting_chips)} and antes "
                 f"{_chips(rules.ante)} before each deal of three cards."]
    else:
        lines = [f"Everyone starts with {_chips(rules.starting_chips)}. There is no ante: the "
                 "first bet opens the pot. If everyone but one player folds before anybody "
                 "bets, the hand is void: nobody wins anything, and the deal passes."]
    if rules.blind_play:
        lines.append("Everyone starts blind: you may bet without looking, and a blind bet "
                     "costs half the stake. Looking is free, at any time.")
    else:
        lines.append("No blind play: everyone looks at their cards as they are dealt.")
    if rules.betting == "limit" and rules.max_raise:
        lines.append(f"Limit betting: the first stake is {rules.min_bet} to {rules.max_bet}; "
                     f"each later bet may raise the stake by up to {rules.max_raise}.")
    elif rules.betting == "limit":
        lines.append(f"Limit betting with fixed stakes: the first stake is {rules.min_bet} to "
                     f"{rules.max_bet}, and no later bet may raise it.")
    elif rules.ante:
        lines.append(f"Pot-limit betting: the first stake is at least {rules.min_bet}; no "
                     "stake may be more than all the chips in the middle.")
    else:
        lines.append(f"Pot-limit betting: the first stake is {rules.min_bet}, as the pot "
                     "starts empty; no stake may be more than all the chips in the middle.")
    lines.append("With two players left, either may see the other for twice the cost of "
                 "staying in; ties go against the player who sees, and a losing seer's "
                 "cards are never shown. You can't see a blind man, unless you are blind too.")
    lines.append("A player who cannot afford the smallest bet may cover the pot with the "
                 "chips they have left, and plays for that pot only.")
    prial = ("3-3-3 is the best prial, then A-A-A down to 2-2-2." if rules.threes_high
             else "A-A-A is the best prial, 2-2-2 the lowest.")
    lines.append("Brag hands: prial > running flush > run > flush > pair > high card. " + prial)
    lines.append({
        "top": "A-2-3 is the best run, above A-K-Q.",
        "bottom": "A-2-3 is the lowest run, below 2-3-4.",
        "none": "A-2-3 is not a run; Q-K-A is the best run.",
    }[rules.ace_low_run])
    if rules.shuffle == "prial_only":
        lines.append("The pack is not shuffled between hands, unless a pot was won with a "
                     "prial shown.")
    else:
        lines.append("The pack is shuffled before every hand.")
    if rules.max_hands:
        lines.append(f"The game ends after {rules.max_hands} hands, or sooner when one "
                     "player has every chip; places go by chips.")
    else:
        lines.append("The game goes on until one player has every chip.")
    lines.append(f"{rules.min_players} to {rules.max_players} players.")
    return lines


BRAG_PRESETS: dict[str, Preset] = {
    p.slug: p
    for p in (
        Preset(
            "three-card-brag",
            "Three Card Brag",
            "The British betting game: blind play, seeing, covering the pot, and no "
            "shuffle unless a pot is won with a prial.",
            BragRules(),
        ),
        Preset(
            "pot-limit-brag",
            "Pot-limit Brag",
            "Three Card Brag where a stake may be as large as the pot, with a fresh "
            "shuffle before every hand.",
            BragRules(betting="pot_limit", shuffle="every_hand"),
        ),
    )
}
