"""Three Card Brag's house rules: one frozen, validated object per game, and the presets.

Field names are those of RULES.md ("Three Card Brag (seed 000)", "Settings").
``BragRules(**fields)`` raises :class:`~games.engine.rules.RulesError` listing
every problem, each tied to the field it concerns, exactly like the Stop the
Bus rules, so the admin shows the engine's words next to the fields.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from ..rules import ACE_LOW_RUNS, Preset, RulesError, player_limit_problems

BETTINGS = {"limit": "Limit", "pot_limit": "Pot limit"}
SHUFFLES = {
    "prial_only": "Only after a pot is won with a prial shown",
    "every_hand": "Before every hand",
}

PLAYER_RANGE = (2, 8)
MAX_CHIPS = 10_000
MAX_HANDS = 1000


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

    def __post_init__(self):
        errors = brag_rule_problems(self)
        if errors:
            raise RulesError(errors)

    @classmethod
    def from_dict(cls, data: dict) -> BragRules:
        """Build from a dict, ignoring keys that are not Brag rules."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})

    def to_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> list[str]:
        """The rules in force, in a player's words, one sentence each."""
        return describe_brag_rules(self)


BRAG_RULE_NAMES = tuple(f.name for f in fields(BragRules))


def brag_rule_problems(rules) -> dict[str, list[str]]:
    """Every problem with a set of Brag rules (any object with the rule attributes)."""
    errors: dict[str, list[str]] = {}

    def problem(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    for field, allowed in (("betting", BETTINGS), ("shuffle", SHUFFLES),
                           ("ace_low_run", ACE_LOW_RUNS)):
        value = getattr(rules, field)
        if value not in allowed:
            problem(field, f"{value!r} is not one of: {', '.join(allowed)}.")
    for field in ("blind_play", "threes_high"):
        if not isinstance(getattr(rules, field), bool):
            problem(field, "Must be on or off.")
    for field in ("starting_chips", "ante", "min_bet", "max_bet", "max_raise", "max_hands",
                  "min_players", "max_players"):
        value = getattr(rules, field)
        if not isinstance(value, int) or isinstance(value, bool):
            problem(field, "Must be a whole number.")
    if errors:
        return errors

    if not 1 <= rules.starting_chips <= MAX_CHIPS:
        problem("starting_chips", f"Players start with 1 to {MAX_CHIPS} chips.")
    if rules.ante < 1:
        problem("ante", "The ante is at least 1 chip: without it a hand can be free for all.")
    elif rules.ante > rules.starting_chips:
        problem("ante", f"An ante of {rules.ante} is more than the {rules.starting_chips} "
                "starting chips: nobody could play a hand.")
    if not 1 <= rules.min_bet <= MAX_CHIPS:
        problem("min_bet", f"The smallest opening stake is 1 to {MAX_CHIPS} chips.")
    if rules.max_bet > MAX_CHIPS:
        problem("max_bet", f"The largest opening stake is at most {MAX_CHIPS} chips.")
    elif rules.max_bet < rules.min_bet:
        problem("max_bet", f"The largest opening stake ({rules.max_bet}) cannot be below the "
                f"smallest ({rules.min_bet}).")
    if not 1 <= rules.max_raise <= MAX_CHIPS:
        problem("max_raise", f"A bet may raise the stake by 1 to {MAX_CHIPS} chips.")
    if not 0 <= rules.max_hands <= MAX_HANDS:
        problem("max_hands", f"The game lasts 1 to {MAX_HANDS} hands, or 0 for until one "
                "player has every chip.")
    for field, messages in player_limit_problems(rules.min_players, rules.max_players,
                                                 "Three Card Brag", *PLAYER_RANGE).items():
        for message in messages:
            problem(field, message)
    return errors


def describe_brag_rules(rules: BragRules) -> list[str]:
    """Plain-English sentences for the Brag rules in force."""
    lines = [
        "No exchange: you bet on the three cards you are dealt.",
        f"Everyone starts with {rules.starting_chips} chips and antes {rules.ante} "
        f"{'chip' if rules.ante == 1 else 'chips'} before each deal.",
    ]
    if rules.blind_play:
        lines.append("Everyone starts each hand blind and may look at any time; a blind "
                     "player pays half the stake, so a blind bet counts double.")
    else:
        lines.append("Everyone looks at their cards as they are dealt: there is no blind "
                     "play.")
    if rules.betting == "limit":
        lines.append(f"Limit betting: the first stake is {rules.min_bet} to {rules.max_bet} "
                     f"chips, and each later bet raises it by at most {rules.max_raise}.")
    else:
        lines.append(f"Pot-limit betting: a stake may be as large as every chip in the "
                     f"middle (at least {rules.min_bet}).")
    lines.append("With two players left betting, either may see the other for twice the "
                 "cost of staying in; a seen player cannot see a blind one, and ties go "
                 "against the seer.")
    lines.append("A player who cannot afford the smallest bet may cover the pot with "
                 "every chip they have left.")
    prial = ("3-3-3 is the best prial, then A-A-A down to 2-2-2." if rules.threes_high
             else "A-A-A is the best prial, 2-2-2 the lowest.")
    lines.append("Brag hands: prial > running flush > run > flush > pair > high card. "
                 + prial)
    lines.append({
        "top": "A-2-3 is the best run, above A-K-Q.",
        "bottom": "A-2-3 is the lowest run, below 2-3-4.",
        "none": "A-2-3 is not a run; Q-K-A is the best run.",
    }[rules.ace_low_run])
    if rules.shuffle == "prial_only":
        lines.append("The pack is not shuffled between hands, unless a pot is won with a "
                     "prial shown.")
    else:
        lines.append("The pack is shuffled before every hand.")
    if rules.max_hands:
        lines.append(f"The game ends after {rules.max_hands} "
                     f"{'hand' if rules.max_hands == 1 else 'hands'}, or sooner when one "
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
            "The seed's betting game: ante 1, stakes of 1 to 10 with raises up to 10, blind "
            "play, and the pack shuffled only after a prial wins.",
            BragRules(),
        ),
        Preset(
            "pot-limit-brag",
            "Pot-limit Brag",
            "Three Card Brag where a stake may be as big as the pot, with a fresh shuffle "
            "before every hand.",
            BragRules(betting="pot_limit", shuffle="every_hand"),
        ),
    )
}

__all__ = ["BETTINGS", "BRAG_PRESETS", "BRAG_RULE_NAMES", "SHUFFLES", "BragRules",
           "brag_rule_problems", "describe_brag_rules"]
