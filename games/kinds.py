"""The registry of game kinds: two games, one room.

A variant names its game kind (``Variant.game``); everything that reaches a
game, the actions layer, the table, the clock, bots, stats, replays, the admin
and the variant lab, asks the kind for what it needs instead of testing which
game it is::

    kind = kind_for(variant)          # or a Game, a Table, a rules object, a slug
    rules = kind.rules_class.from_dict(game.rules)
    state, events = kind.new_game(rules, names, seed)
    state, events = kind.apply(state, action)

A kind holds its rules class and rule names, its presets, its player range, its
engine's entry points, its bot levels, the groups its rules are shown in, and the
templates for its board, its rules and its lab figures.

The engine of a kind is imported the first time one of its entry points is
called, not when this module loads: the registry (and so the models and the
admin) only needs a kind's rules, and a kind's engine may be large.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from django.utils.translation import gettext_lazy, gettext_noop

from .engine.bots import BOT_LEVELS
from .engine.brag import BRAG_PRESETS, BRAG_RULE_NAMES, BragRules
from .engine.rules import PRESETS, RULE_NAMES, HouseRules, Preset


class UnknownKind(LookupError):
    """A game kind, or something that should name one, that the registry does not know."""


class EngineMissing(LookupError):
    """A kind's engine lacks an entry point the room needs."""


@dataclass(frozen=True)
class GameKind:
    slug: str
    label: str
    rules_class: type
    rule_names: tuple[str, ...]
    presets: Mapping[str, Preset]
    player_range: tuple[int, int]
    engine_module: str
    state_class: str
    bot_levels: Mapping[str, str]
    rule_sections: tuple[tuple[str, tuple[str, ...]], ...]
    glance_fields: tuple[str, ...]  # the rules that tell its variants apart, in a list
    board_template: str
    rules_template: str
    lab_template: str
    # Variant fields shared between kinds whose right default differs for this kind
    # (a Brag player starts with 100 chips, a Stop the Bus pot player with 10).
    variant_defaults: Mapping[str, object] = field(default_factory=dict)
    # Other names for the kind's first preset on the command line ("--preset brag").
    aliases: tuple[str, ...] = ()
    # How the room plugs the kind in, each a "module:name" read when first used (the
    # registry must load before the board, the frames and stats, which import it):
    # the board's template context for one viewer, the websocket frames its moves
    # arrive in, the move the clock makes for a player whose time ran out, what
    # records a finished game in stats, and what reads back the rating changes that
    # recording made (the end of game panel).
    keys_template: str = "games/_keys.html"  # the table page's keyboard help
    board_builder: str = ""
    frame_schema: str = ""
    timeout_move: str = ""
    stats_recorder: str = ""
    rating_changes: str = ""
    # what a player must do now, in words, from their seat's view (the list of turns)
    move_words: str = ""
    # the hints a learning player sees at their own seat (games/hints.py)
    hints: str = ""
    # The phase in which players take turns (the clock plays a timed-out turn while the
    # game is in it).
    play_phase: str = "play"

    def __str__(self) -> str:
        return self.label

    # -- rules ------------------------------------------------------------------------------

    def rules_from(self, values: Mapping) -> object:
        """This kind's rules from a dict (unknown keys ignored); RulesError if impossible."""
        return self.rules_class.from_dict(dict(values))

    @property
    def default_preset(self) -> Preset:
        return next(iter(self.presets.values()))

    # -- the engine -------------------------------------------------------------------------

    @property
    def engine(self):
        return importlib.import_module(self.engine_module)

    def hook(self, name: str):
        """The object this kind names for ``name`` (``board_builder``, ``frame_schema``,
        ``timeout_move``, ``stats_recorder``, ``rating_changes``, ``move_words``), imported on
        first use."""
        path = getattr(self, name)
        if not path:
            raise EngineMissing(f"{self.label} names no {name}.")
        module, _, attr = path.partition(":")
        return getattr(importlib.import_module(module), attr)

    def entry(self, name: str):
        """The engine's ``name``, or a clear error saying which engine lacks it."""
        try:
            return getattr(self.engine, name)
        except AttributeError:
            raise EngineMissing(f"The {self.label} engine ({self.engine_module}) has no "
                                f"{name!r}.") from None

    def new_game(self, rules, names, seed=None):
        return self.entry("new_game")(rules, names, seed)

    def apply(self, state, action):
        return self.entry("apply")(state, action)

    def legal_actions(self, state, seat):
        return self.entry("legal_actions")(state, seat)

    def view_for(self, state, seat):
        return self.entry("view_for")(state, seat)

    def seat_view(self, state, seat):
        return self.entry("seat_view")(state, seat)

    def replay(self, rules, names, seed, actions):
        return self.entry("replay")(rules, names, seed, actions)

    def state_from_dict(self, data: dict):
        return self.entry(self.state_class).from_dict(data)

    def make_bot(self, level: str, rules, rng=None):
        return self.entry("make_bot")(level, rules, rng)

    def simulate(self, rules, bots, games: int, seed=0):
        return self.entry("simulate")(rules, bots, games, seed)

    def fairness_reveals(self, state) -> list[dict]:
        return self.entry("fairness_reveals")(state)

    def action_from_dict(self, data: dict):
        """An engine action from untrusted data; IllegalAction if malformed."""
        return self.entry("Action").from_dict(data)

    def is_action(self, value) -> bool:
        return isinstance(value, self.entry("Action"))

    def next_hand(self):
        """The table's move that deals the next hand after a settlement."""
        return self.entry("next_hand")()

    def to_action(self, legal, stake: int | None = None):
        """The action a ``legal_actions`` entry stands for: Stop the Bus lists actions
        themselves, Brag lists moves with their price (a bet, its stake range), which
        make an action with ``.action(stake)``."""
        make = getattr(legal, "action", None)
        return make(stake) if callable(make) else legal


# The bot levels of both engines are random, greedy and mc; what they mean in play
# differs, so each kind names them for itself.
# (gettext_noop: stored as written, translated where shown)
BRAG_BOT_LEVELS = {
    "random": gettext_noop("Beginner"),
    "greedy": gettext_noop("Casual"),
    "mc": gettext_noop("Expert"),
}

STOP_THE_BUS = GameKind(
    slug="stop_the_bus",
    label=gettext_noop("Stop the Bus"),
    rules_class=HouseRules,
    rule_names=RULE_NAMES,
    presets=MappingProxyType(PRESETS),
    player_range=(2, 10),  # Stop the Bus 2-9, Commerce 3-10: the rules check which
    engine_module="games.engine",
    state_class="GameState",
    bot_levels=MappingProxyType(BOT_LEVELS),
    rule_sections=(
        ("Ranking", ("ranking", "threes_high", "ace_low_run", "tie_rule", "thirty_one",
                     "blitz", "blitz_prials")),
        ("Exchange", ("exchange", "swap_limit", "dealer_blind_swap", "may_pass")),
        ("Stopping the bus", ("stop_after_swap", "stopper_penalty")),
        ("Lives and scoring", ("scoring", "starting_lives", "floating", "target_points",
                               "starting_chips")),
    ),
    glance_fields=("exchange", "ranking", "scoring", "starting_lives"),
    board_template="games/_board.html",
    rules_template="games/rules/_stop_the_bus.html",
    lab_template="admin/games/variant/_lab_stop_the_bus.html",
    aliases=("stop-the-bus", "stop_the_bus"),
    board_builder="games.board:stop_the_bus_board",
    frame_schema="games.frames:STOP_THE_BUS_FRAMES",
    timeout_move="games.actions.moves:greedy_move",
    stats_recorder="stats.recording:record_finished_game",
    rating_changes="stats.recording:rating_changes",
    move_words="games.turn_words:stop_the_bus_words",
    hints="games.hints:stop_the_bus_hints",
    play_phase="play",
)

BRAG = GameKind(
    slug="brag",
    label=gettext_noop("Three Card Brag"),
    rules_class=BragRules,
    rule_names=BRAG_RULE_NAMES,
    presets=MappingProxyType(BRAG_PRESETS),
    player_range=(2, 8),
    engine_module="games.engine.brag",
    state_class="BragState",
    bot_levels=MappingProxyType(BRAG_BOT_LEVELS),
    rule_sections=(
        ("Chips and betting", ("starting_chips", "ante", "betting", "min_bet", "max_bet",
                               "max_raise")),
        ("Play", ("blind_play", "shuffle", "max_hands")),
        ("Ranking", ("threes_high", "ace_low_run")),
    ),
    glance_fields=("betting", "starting_chips", "ante", "blind_play", "shuffle"),
    board_template="games/brag/_board.html",
    rules_template="games/rules/_brag.html",
    lab_template="admin/games/variant/_lab_brag.html",
    variant_defaults=MappingProxyType({
        name: getattr(BragRules(), name) for name in ("starting_chips", "max_players")}),
    aliases=("brag",),
    keys_template="games/brag/_keys.html",
    board_builder="games.brag_board:brag_board",
    frame_schema="games.frames:BRAG_FRAMES",
    timeout_move="games.actions.moves:fold_move",
    stats_recorder="stats.brag:record_finished_brag_game",
    rating_changes="stats.brag:brag_rating_changes",
    move_words="games.turn_words:brag_words",
    hints="games.hints:brag_hints",
    play_phase="betting",
)

KINDS: Mapping[str, GameKind] = MappingProxyType({k.slug: k for k in (STOP_THE_BUS, BRAG)})
DEFAULT_KIND = STOP_THE_BUS.slug
KIND_CHOICES = [(k.slug, gettext_lazy(k.label)) for k in KINDS.values()]


def kind_named(slug: str) -> GameKind:
    try:
        return KINDS[slug]
    except (KeyError, TypeError):
        raise UnknownKind(f"Unknown game kind {slug!r}: choose from "
                          f"{', '.join(KINDS)}.") from None


def kind_for(subject) -> GameKind:
    """The kind of a Variant, a Game or a Table (through its variant), a rules object,
    a preset or a kind's slug."""
    if isinstance(subject, GameKind):
        return subject
    if isinstance(subject, str):
        return kind_named(subject)
    game = getattr(subject, "game", None)
    if isinstance(game, str):  # a Variant's own field
        return kind_named(game)
    state = getattr(subject, "state", None)
    if isinstance(state, dict) and state:  # a Game: its snapshot says, without a query
        return kind_named(state.get("game", DEFAULT_KIND))
    if game is not None:  # an action, a job, a chat message: through their game
        return kind_for(game)
    variant = getattr(subject, "variant", None)
    if variant is not None:  # a Game or a Table
        return kind_for(variant)
    rules = getattr(subject, "rules", subject)  # a Preset holds its rules
    for kind in KINDS.values():
        if isinstance(rules, kind.rules_class):
            return kind
    raise UnknownKind(f"No game kind for {subject!r}.")


def all_presets() -> dict[str, tuple[GameKind, Preset]]:
    """Every kind's presets by slug, in the registry's order."""
    return {slug: (kind, preset) for kind in KINDS.values()
            for slug, preset in kind.presets.items()}


def find_preset(name: str) -> tuple[GameKind, Preset]:
    """A preset by its slug, or a kind's first preset by one of the kind's aliases."""
    presets = all_presets()
    if name in presets:
        return presets[name]
    for kind in KINDS.values():
        if name in kind.aliases:
            return kind, kind.default_preset
    raise UnknownKind(f"Unknown preset {name!r}: choose from {', '.join(presets)} "
                      f"(or {', '.join(a for k in KINDS.values() for a in k.aliases[:1])}).")


__all__ = ["BRAG", "DEFAULT_KIND", "KINDS", "KIND_CHOICES", "STOP_THE_BUS", "EngineMissing",
           "GameKind", "UnknownKind", "all_presets", "find_preset", "kind_for", "kind_named"]
