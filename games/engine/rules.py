"""House rules: one frozen, validated object per game, and the presets.

Field names are the house-rule names of RULES.md. ``HouseRules(**fields)``
raises :class:`RulesError` listing every problem, each tied to the field it
concerns, so that a form can show the messages next to its fields (the Django
admin uses exactly this; there is no second copy of these checks).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from .ranking import RankingConfig, ranking_for

EXCHANGES = {"widow": "Widow (swap with three face-up cards)", "stock": "Stock and discard pile"}
RANKINGS = {"brag": "Brag hands", "commerce": "Commerce hands"}
ACE_LOW_RUNS = {
    "top": "A-2-3 is the best run",
    "bottom": "A-2-3 is the lowest run",
    "none": "A-2-3 is not a run",
}
TIE_RULES = {
    "share": "Everyone tied for worst loses",
    "suits": "Broken by the suit of the highest card",
}
SCORINGS = {"lives": "Lives", "points": "Points", "pot": "Pot (chips)"}

MAX_LIVES = 20
MAX_TARGET_POINTS = 50
MAX_CHIPS = 1000


class Problem(str):
    """One thing wrong with a set of rules, in English, that also names its sentence
    (``reason``) and what the sentence names (``params``): the site says it again in
    its reader's language (``games/refusals.py``), as it does an ``IllegalAction``."""

    def __new__(cls, message: str, reason: str, **params):
        self = super().__new__(cls, message)
        self.reason = reason
        self.params = params
        return self


class RulesError(ValueError):
    """Impossible house rules. ``errors`` maps a field name (or ``"__all__"``) to messages
    (each a :class:`Problem`)."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__("; ".join(msg for msgs in errors.values() for msg in msgs))


# Player limits (RULES.md, "Players, lives and the deal"): the game's own range, well
# inside what one pack could deal, because that is how many the game plays well with.
PLAYER_RANGES = {"stop_the_bus": (2, 9), "commerce": (3, 10)}
GAME_NAMES = {"stop_the_bus": "Stop the Bus", "commerce": "Commerce"}


def family_of(ranking: str) -> str:
    """Which game of the family a set of rules plays: Commerce is the one with its hands."""
    return "commerce" if ranking == "commerce" else "stop_the_bus"


def player_range(ranking: str) -> tuple[int, int]:
    return PLAYER_RANGES[family_of(ranking)]


def player_limit_problems(min_players: int, max_players: int, game: str,
                          fewest: int, most: int) -> dict[str, list[str]]:
    """What is wrong with ``min_players``..``max_players`` for a game played by fewest..most."""
    errors: dict[str, list[str]] = {}
    span = f"{game} is for {fewest} to {most} players"
    limits = {"game": game, "fewest": fewest, "most": most}
    if not fewest <= min_players <= most:
        errors["min_players"] = [Problem(f"{span}: the fewest cannot be {min_players}.",
                                         "fewest_out_of_range", value=min_players, **limits)]
    if not fewest <= max_players <= most:
        errors["max_players"] = [Problem(f"{span}: the most cannot be {max_players}.",
                                         "most_out_of_range", value=max_players, **limits)]
    elif max_players < min_players:
        errors["max_players"] = [Problem("The most players cannot be fewer than the fewest.",
                                         "most_below_fewest")]
    return errors


@dataclass(frozen=True, slots=True)
class HouseRules:
    exchange: str = "widow"
    ranking: str = "brag"
    threes_high: bool = True
    ace_low_run: str = "top"
    tie_rule: str = "share"
    thirty_one: bool = False
    blitz: bool = False
    blitz_prials: bool = False
    may_pass: bool = False
    stop_after_swap: bool = False
    swap_limit: int = 1
    dealer_blind_swap: bool = False
    starting_lives: int = 3
    stopper_penalty: int = 1
    floating: bool = True
    scoring: str = "lives"
    target_points: int = 5
    starting_chips: int = 10
    min_players: int = 2
    max_players: int = 6

    def __post_init__(self):
        errors = rule_problems(self)
        if errors:
            raise RulesError(errors)

    @classmethod
    def from_dict(cls, data: dict) -> HouseRules:
        """Build from a dict, ignoring keys that are not house rules."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def ranking_config(self) -> RankingConfig:
        return RankingConfig(
            kind=self.ranking,
            threes_high=self.threes_high,
            ace_low_run=self.ace_low_run,
            thirty_one=self.thirty_one,
            blitz_prials=self.blitz_prials,
            suit_tiebreak=self.tie_rule == "suits",
        )

    @property
    def hand_ranking(self):
        return ranking_for(self.ranking_config)

    @property
    def stop_word(self) -> str:
        """What stopping is called at this table: Commerce knocks."""
        return "knock" if self.ranking == "commerce" else "stop the bus"

    def summary(self) -> list[str]:
        """The rules in force, in a player's words, one sentence each."""
        return describe_rules(self)


RULE_NAMES = tuple(f.name for f in fields(HouseRules))


def rule_problems(rules) -> dict[str, list[str]]:
    """Every problem with a set of rules (any object with the rule attributes)."""
    errors: dict[str, list[str]] = {}

    def problem(field: str, message: str, reason: str, **params) -> None:
        errors.setdefault(field, []).append(Problem(message, reason, **params))

    choices = {
        "exchange": EXCHANGES,
        "ranking": RANKINGS,
        "ace_low_run": ACE_LOW_RUNS,
        "tie_rule": TIE_RULES,
        "scoring": SCORINGS,
    }
    for field, allowed in choices.items():
        value = getattr(rules, field)
        if value not in allowed:
            problem(field, f"{value!r} is not one of: {', '.join(allowed)}.", "not_one_of",
                    value=repr(value), allowed=", ".join(allowed))
    for field in ("threes_high", "thirty_one", "blitz", "blitz_prials", "may_pass",
                  "stop_after_swap", "dealer_blind_swap", "floating"):
        if not isinstance(getattr(rules, field), bool):
            problem(field, "Must be on or off.", "on_or_off")
    ints = ("swap_limit", "starting_lives", "stopper_penalty", "target_points",
            "starting_chips", "min_players", "max_players")
    for field in ints:
        value = getattr(rules, field)
        if not isinstance(value, int) or isinstance(value, bool):
            problem(field, "Must be a whole number.", "whole_number")
    if errors:
        return errors

    if rules.blitz and not rules.thirty_one:
        problem("blitz", "Blitz needs thirty-one hands: turn on 'thirty_one' first.",
                "blitz_needs_thirty_one")
    if rules.blitz_prials and not rules.blitz:
        problem("blitz_prials", "Blitz prials need blitz to be on.",
                "blitz_prials_need_blitz")
    if rules.thirty_one and rules.ranking != "brag":
        problem("thirty_one", "Thirty-one is a Brag hand; Commerce hands have no thirty-one.",
                "thirty_one_not_commerce")

    if not 1 <= rules.swap_limit <= 3:
        problem("swap_limit", "A player can swap 1, 2 or 3 cards in a turn.",
                "swap_limit_range")
    elif rules.swap_limit > 1 and rules.exchange != "widow":
        problem("swap_limit", "Swapping several cards needs the widow exchange.",
                "several_swaps_need_widow")
    if rules.dealer_blind_swap and rules.exchange != "widow":
        problem("dealer_blind_swap", "The dealer's unseen swap is with the widow: "
                "it needs the widow exchange.", "blind_swap_needs_widow")
    if rules.stop_after_swap and rules.exchange != "widow":
        problem("stop_after_swap", "Swapping and then stopping is a widow rule; with the stock "
                "a player who stops does not draw.", "stop_after_swap_needs_widow")

    if not 1 <= rules.starting_lives <= MAX_LIVES:
        problem("starting_lives", f"Players start with 1 to {MAX_LIVES} lives.",
                "starting_lives_range", most=MAX_LIVES)
    if not 1 <= rules.stopper_penalty <= MAX_LIVES:
        problem("stopper_penalty", f"The stopper's penalty is 1 to {MAX_LIVES} lives.",
                "stopper_penalty_range", most=MAX_LIVES)
    if rules.target_points < 1:
        problem("target_points", f"A target of {rules.target_points} points would end the "
                "game before it starts: it must be at least 1.", "target_too_low",
                target=rules.target_points)
    elif rules.target_points > MAX_TARGET_POINTS:
        problem("target_points", f"The target is at most {MAX_TARGET_POINTS} points.",
                "target_too_high", most=MAX_TARGET_POINTS)
    if not 1 <= rules.starting_chips <= MAX_CHIPS:
        problem("starting_chips", f"Players start with 1 to {MAX_CHIPS} chips.",
                "starting_chips_range", most=MAX_CHIPS)

    family = family_of(rules.ranking)
    for field, messages in player_limit_problems(
            rules.min_players, rules.max_players, GAME_NAMES[family],
            *PLAYER_RANGES[family]).items():
        errors.setdefault(field, []).extend(messages)
    return errors


def describe_rules(rules: HouseRules) -> list[str]:
    """Plain-English sentences for the rules in force."""
    lines = []
    if rules.exchange == "widow":
        if rules.swap_limit == 1:
            lines.append("Three cards lie face up in the middle; on your turn swap one of "
                         "your cards for one of them.")
        else:
            lines.append(f"Three cards lie face up in the middle; on your turn swap 1 to "
                         f"{rules.swap_limit} of your cards for them"
                         + (" (three at once only once a hand)." if rules.swap_limit == 3
                            else "."))
        if rules.dealer_blind_swap:
            lines.append("Before looking at the hand, the dealer may swap cards unseen "
                         "with the middle.")
    else:
        lines.append("Draw the top of the stock or take the top discard, then discard "
                     "one card (not the discard you just took).")
    word = "knock" if rules.ranking == "commerce" else "stop the bus"
    lines.append(f"Instead of exchanging you may {word}: everyone else gets one more turn, "
                 "then all hands are shown.")
    if rules.stop_after_swap:
        lines.append("You may swap and then stop the bus in the same turn.")
    if rules.may_pass:
        lines.append("You may pass your turn at any time.")
    else:
        lines.append("Passing is allowed only in the final round, after the bus is stopped.")

    if rules.ranking == "commerce":
        lines.append("Commerce hands: tricon > sequence > flush > pair > point "
                     "(A = 11, pictures 10).")
    else:
        prial = ("3-3-3 is the best prial, then A-A-A down to 2-2-2." if rules.threes_high
                 else "A-A-A is the best prial, 2-2-2 the lowest.")
        lines.append("Brag hands: prial > running flush > run > flush > pair > high card. "
                     + prial)
        lines.append({
            "top": "A-2-3 is the best run, above A-K-Q.",
            "bottom": "A-2-3 is the lowest run, below 2-3-4.",
            "none": "A-2-3 is not a run; Q-K-A is the best run.",
        }[rules.ace_low_run])
        if rules.thirty_one:
            lines.append("Thirty-one (three cards of one suit worth 31, A = 11, pictures 10) "
                         "beats every prial.")
        if rules.blitz:
            lines.append("Holding thirty-one at the end of your turn is a blitz: play ends "
                         "at once.")
        if rules.blitz_prials:
            lines.append("3-3-3 and A-A-A also blitz, and beat thirty-one.")
    lines.append("Equal hands: " + ("the suit of the highest card decides (spades > hearts > "
                                    "diamonds > clubs)." if rules.tie_rule == "suits"
                                    else "they share the result."))

    if rules.scoring == "lives":
        lines.append(f"Everyone starts with {rules.starting_lives} "
                     f"{'life' if rules.starting_lives == 1 else 'lives'}; the worst hand "
                     "loses one.")
        if rules.stopper_penalty > 1:
            lines.append(f"If the player who stopped has the worst hand, they lose "
                         f"{rules.stopper_penalty} lives.")
        if rules.floating:
            lines.append("With no lives left you float on; losing again puts you out.")
        else:
            lines.append("You are out when your lives reach 0.")
        lines.append("The last player in wins.")
    elif rules.scoring == "points":
        lines.append(f"The best hand of each showdown scores a point; the first to "
                     f"{rules.target_points} alone wins.")
    else:
        lines.append(f"Everyone starts with {rules.starting_chips} chips and antes 1 a hand; "
                     "the best hand takes the pot. The last player with chips wins.")
    lines.append(f"{rules.min_players} to {rules.max_players} players.")
    return lines


@dataclass(frozen=True, slots=True)
class Preset:
    slug: str
    name: str
    description: str
    rules: HouseRules


PRESETS: dict[str, Preset] = {
    p.slug: p
    for p in (
        Preset(
            "classic",
            "Stop the Bus (classic)",
            "Bastard as it is played in pubs: swap with three cards in the middle, 3-3-3 "
            "best, three lives, floating.",
            HouseRules(),
        ),
        Preset(
            "draw-and-discard",
            "Stop the Bus (draw & discard)",
            "Draw from the stock or take the discard, as described on pagat.com; equal "
            "hands are split by suit.",
            HouseRules(exchange="stock", tie_rule="suits"),
        ),
        Preset(
            "aces-high",
            "Stop the Bus (aces high)",
            "Aces high: A-A-A is the best prial and A-2-3 is no run; you may swap and stop in "
            "the same turn; out at zero lives.",
            HouseRules(threes_high=False, ace_low_run="none", stop_after_swap=True,
                       floating=False),
        ),
        Preset(
            "thirty-one-blitz",
            "Thirty-One Blitz",
            "Stock and discard; thirty-one in one suit beats everything and ends play at once.",
            HouseRules(exchange="stock", thirty_one=True, blitz=True, starting_lives=3),
        ),
        Preset(
            "race-to-five",
            "Race to Five",
            "No lives: the best hand of each showdown scores a point; first to five wins.",
            HouseRules(scoring="points", target_points=5),
        ),
        Preset(
            "commerce",
            "Commerce",
            "The French forerunner: swap up to three cards, the dealer may swap unseen, "
            "knock to end, best hand takes the pot.",
            HouseRules(ranking="commerce", scoring="pot", swap_limit=3,
                       dealer_blind_swap=True, min_players=3, max_players=10),
        ),
        Preset(
            "double-or-nothing",
            "Double-or-nothing stop",
            "Classic rules, but a stopper with the worst hand loses two lives.",
            HouseRules(stopper_penalty=2),
        ),
    )
}
