"""Variants, tables, seats, games and their action logs.

The engine (``games.engine``) holds every rule; these models hold what the
server must remember. Only ``games.actions`` writes a game's state and log.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .engine import HouseRules, RulesError
from .engine.bots import BOT_LEVELS
from .engine.brag import BragRules
from .engine.rules import (
    ACE_LOW_RUNS,
    EXCHANGES,
    MAX_LIVES,
    MAX_TARGET_POINTS,
    RANKINGS,
    SCORINGS,
    TIE_RULES,
)
from .kinds import DEFAULT_KIND, KIND_CHOICES, GameKind, UnknownKind, kind_for
from .refusals import rules_problems

MAX_TURN_SECONDS = 600
# The most chips any game kind lets a player start with; each kind's rules say what
# they accept, in their own words.
MAX_VARIANT_CHIPS = 10_000
BETTING_CHOICES = [("limit", _("Limit")), ("pot_limit", _("Pot limit"))]
SHUFFLE_CHOICES = [("prial_only", _("Only after a pot is won with a prial shown")),
                   ("every_hand", _("Before every hand"))]
_BRAG = BragRules()


def _choices(options: dict[str, str]) -> list[tuple[str, str]]:
    # Lazy, so forms and admin show the reader's language (games/rules_text.py marks them).
    return [(key, _(label)) for key, label in options.items()]


class VariantQuerySet(models.QuerySet):
    def active(self):
        return self.filter(active=True)


class Variant(models.Model):
    """A named set of house rules that admins shape and players pick."""

    name = models.CharField(max_length=80, unique=True)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True, help_text=_("Shown to players when they choose."))
    game = models.CharField(
        max_length=20, choices=KIND_CHOICES, default=DEFAULT_KIND,
        help_text=_("The game this variant plays. It cannot change once tables have used it."))

    # -- ranking ---------------------------------------------------------------------------------
    ranking = models.CharField(
        max_length=10, choices=_choices(RANKINGS), default="brag",
        help_text=_("Brag hands (prial, running flush, run, flush, pair) or Commerce hands "
                    "(tricon, sequence, flush, pair, point)."))
    threes_high = models.BooleanField(
        default=True, help_text=_("3-3-3 is the best prial, above A-A-A. Off: A-A-A is best."))
    ace_low_run = models.CharField(
        max_length=10, choices=_choices(ACE_LOW_RUNS), default="top",
        help_text=_("Where A-2-3 stands among runs: the best, the lowest, or not a run at all."))
    tie_rule = models.CharField(
        max_length=10, choices=_choices(TIE_RULES), default="share",
        help_text=_("Equal worst hands: everyone tied loses, or the suit of the highest card "
                    "decides (spades > hearts > diamonds > clubs)."))
    thirty_one = models.BooleanField(
        default=False, help_text=_("Three cards of one suit worth 31 (A = 11, pictures and tens "
                                   "10) beat every prial."))
    blitz = models.BooleanField(
        default=False, help_text=_("Holding 31 at the end of your turn ends play at once. "
                                   "Needs thirty-one."))
    blitz_prials = models.BooleanField(
        default=False, help_text=_("3-3-3 and A-A-A also blitz, and beat 31. Needs blitz."))

    # -- exchange --------------------------------------------------------------------------------
    exchange = models.CharField(
        max_length=10, choices=_choices(EXCHANGES), default="widow",
        help_text=_("Swap with three face-up cards in the middle, or draw from a stock and "
                    "discard."))
    swap_limit = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(3)],
        help_text=_("How many cards a player may swap with the middle in one turn (Commerce: 3)."))
    dealer_blind_swap = models.BooleanField(
        default=False, help_text=_("Before looking, the dealer may swap cards unseen with the "
                                   "middle (Commerce)."))
    may_pass = models.BooleanField(
        default=False, help_text=_("Players may pass at any time, not only in the final round."))

    # -- stopping the bus ------------------------------------------------------------------------
    stop_after_swap = models.BooleanField(
        default=False, help_text=_("A player may swap and then stop the bus in the same turn."))
    stopper_penalty = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_LIVES)],
        help_text=_("Lives lost by the player who stopped the bus if theirs is the worst hand."))

    # -- lives and scoring -----------------------------------------------------------------------
    scoring = models.CharField(
        max_length=10, choices=_choices(SCORINGS), default="lives",
        help_text=_("Lives: the worst hand loses a life. Points: the best hand scores. Pot: "
                    "everyone antes and the best hand takes the chips."))
    starting_lives = models.PositiveSmallIntegerField(
        default=3, validators=[MinValueValidator(1), MaxValueValidator(MAX_LIVES)],
        help_text=_("Lives each player starts with."))
    floating = models.BooleanField(
        default=True, help_text=_("With no lives left a player floats on; losing again puts them "
                                  "out. Off: out at zero lives."))
    target_points = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(MAX_TARGET_POINTS)],
        help_text=_("Points scoring: the first to reach this alone wins."))
    starting_chips = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1), MaxValueValidator(MAX_VARIANT_CHIPS)],
        help_text=_("Chips each player starts with. Stop the Bus pot scoring (usually 10; the "
                  "ante is 1 a hand) or Brag (usually 100)."))

    # -- Three Card Brag ---------------------------------------------------------------------
    ante = models.PositiveSmallIntegerField(
        default=_BRAG.ante, help_text=_("Chips every player still in pays before each deal."))
    betting = models.CharField(
        max_length=10, choices=BETTING_CHOICES, default=_BRAG.betting,
        help_text=_("Limit: stakes between the limits below. Pot limit: a stake may be as large "
                  "as every chip in the middle."))
    min_bet = models.PositiveSmallIntegerField(
        default=_BRAG.min_bet, help_text=_("The smallest opening stake (and what staying in "
                                         "costs before anyone bets)."))
    max_bet = models.PositiveSmallIntegerField(
        default=_BRAG.max_bet, help_text=_("Limit play: the largest opening stake."))
    max_raise = models.PositiveSmallIntegerField(
        default=_BRAG.max_raise, help_text=_("Limit play: the most a later bet may raise the "
                                           "stake."))
    blind_play = models.BooleanField(
        default=_BRAG.blind_play, help_text=_("Players may bet without looking at their cards; "
                                            "a blind bet counts double."))
    shuffle = models.CharField(
        max_length=12, choices=SHUFFLE_CHOICES, default=_BRAG.shuffle,
        help_text=_("When the pack is shuffled between hands (the seed: only after a pot is won "
                  "with a prial shown)."))
    max_hands = models.PositiveSmallIntegerField(
        default=_BRAG.max_hands, help_text=_("The game ends after this many hands; 0: only when "
                                           "one player has every chip."))

    # -- table -----------------------------------------------------------------------------------
    min_players = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(2)], help_text=_("Fewest players to start."))
    max_players = models.PositiveSmallIntegerField(
        default=6, validators=[MinValueValidator(2)], help_text=_("Most seats at a table."))
    turn_seconds = models.PositiveSmallIntegerField(
        null=True, blank=True, default=45,
        validators=[MinValueValidator(5), MaxValueValidator(MAX_TURN_SECONDS)],
        help_text=_("Seconds per turn before the server plays for you. Empty: no clock "
                    "(friendly tables)."))
    rated = models.BooleanField(
        default=True, help_text=_("Games on this variant change players' ratings."))
    active = models.BooleanField(
        default=True, help_text=_("Only active variants can be chosen for new tables."))
    display_order = models.PositiveSmallIntegerField(default=0)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = VariantQuerySet.as_manager()

    class Meta:
        ordering = ["display_order", "name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:rules") + f"#{self.slug}"

    @property
    def kind(self) -> GameKind:
        return kind_for(self)

    def rule_values(self) -> dict:
        """The house rules of this variant's game, by name (the other game's are ignored)."""
        return {name: getattr(self, name) for name in self.kind.rule_names}

    @property
    def rules(self):
        """The kind's rules object (HouseRules, BragRules); RulesError if impossible."""
        return self.kind.rules_class(**self.rule_values())

    def clean(self) -> None:
        super().clean()
        try:
            kind = self.kind
        except UnknownKind:
            return  # the game field's own choice check says so
        if self.pk is not None and self._kind_changed_under_use():
            raise ValidationError({"game": _("Tables or games have used this variant: its "
                                             "game cannot change. Duplicate it instead.")})
        try:
            kind.rules_class(**self.rule_values())
        except RulesError as exc:
            raise ValidationError(
                {field if field in kind.rule_names else "__all__": messages
                 for field, messages in rules_problems(exc).items()}
            ) from None

    def _kind_changed_under_use(self) -> bool:
        stored = Variant.objects.filter(pk=self.pk).values_list("game", flat=True).first()
        return (stored is not None and stored != self.game
                and (self.tables.exists() or self.games.exists()))


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("status", "Waiting for players")
        PLAYING = "playing", pgettext_lazy("status", "Playing")
        FINISHED = "finished", pgettext_lazy("status", "Finished")
        CLOSED = "closed", pgettext_lazy("status", "Closed")

    name = models.CharField(max_length=60)
    variant = models.ForeignKey(Variant, on_delete=models.PROTECT, related_name="tables")
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="hosted_tables")
    seats = models.PositiveSmallIntegerField(validators=[MinValueValidator(2)])
    private = models.BooleanField(
        default=False, help_text=_("Only people with the invite link can find and join it."))
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    allow_spectators = models.BooleanField(default=True)
    spectator_chat = models.BooleanField(default=True)
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    humans_last_seen = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["status", "private"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    @property
    def group_name(self) -> str:
        return f"table-{self.pk}"

    def current_game(self) -> Game | None:
        return self.games.order_by("-number").first()


class Seat(models.Model):
    """A place at a table, held by a user or a bot."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                             blank=True, related_name="seats")
    bot_level = models.CharField(max_length=10, blank=True, choices=_choices(BOT_LEVELS))
    away = models.BooleanField(
        default=False, help_text=_("The player timed out twice in a row; a bot plays for them."))
    timeouts = models.PositiveSmallIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_place"),
            models.UniqueConstraint(fields=["table", "user"], name="one_seat_per_user",
                                    condition=models.Q(user__isnull=False)),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(bot_level=""),
                name="seat_is_taken"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position + 1}: {self.display_name}"

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def display_name(self) -> str:
        if self.user_id:
            return self.user.username
        return f"{BOT_LEVELS.get(self.bot_level, 'Bot').split(' ')[0]} bot {self.position + 1}"


class Game(models.Model):
    """One game at a table: the rules it was started with, its seed, its log."""

    class Status(models.TextChoices):
        PLAYING = "playing", pgettext_lazy("status", "Playing")
        FINISHED = "finished", pgettext_lazy("status", "Finished")
        ABANDONED = "abandoned", pgettext_lazy("status", "Abandoned")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(default=1)
    variant = models.ForeignKey(Variant, on_delete=models.PROTECT, related_name="games")
    rules = models.JSONField(help_text=_("The house rules in force, copied when the game began."))
    rated = models.BooleanField(default=False)
    seed = models.CharField(max_length=64, help_text=_("Secret until the game is over."))
    state = models.JSONField(help_text=_("Snapshot of the engine state after the last action; "
                                       "a cache: the log is the truth."))
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    ready = models.JSONField(default=list, blank=True,
                             help_text=_("Seats that asked for the next hand."))
    recent_events = models.JSONField(
        default=list, blank=True,
        help_text=_("The last events as [seq, event] pairs, so pages need not read the log."))
    deadline = models.DateTimeField(null=True, blank=True,
                                    help_text=_("When the current turn's clock runs out."))
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_game_number_per_table"),
        ]
        indexes = [models.Index(fields=["status", "-finished_at"])]

    def __str__(self) -> str:
        return f"{self.table} game {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.table_id])

    @property
    def house_rules(self) -> HouseRules:
        return HouseRules.from_dict(self.rules)


class GamePlayer(models.Model):
    """Who sat where in a game, and where they finished."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="game_players")
    bot_level = models.CharField(max_length=10, blank=True)
    name = models.CharField(max_length=150)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    left_early = models.BooleanField(default=False)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_player_per_game_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.game}"


class Action(models.Model):
    """The log: one row per applied action, numbered without gaps from 1."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.SmallIntegerField(null=True, blank=True)
    payload = models.JSONField(help_text=_("The engine action, as data."))
    events = models.JSONField(default=list, help_text=_("What it caused, in words."))
    by = models.CharField(max_length=10, default="player",
                          help_text=_("player, bot, clock (a timeout) or table (the next deal)."))
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_action_per_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.payload.get('kind')}"


class Job(models.Model):
    """Something due at a time: a bot's move, a turn deadline, the next deal.

    Any server process may run it; the first to claim it (row lock, skip locked)
    does. ``version`` is the game version it was scheduled for: if the game has
    moved on, the job is stale and does nothing.
    """

    class Kind(models.TextChoices):
        BOT_MOVE = "bot_move", _("Bot move")
        TURN_TIMEOUT = "timeout", _("Turn deadline")
        NEXT_HAND = "next_hand", _("Next hand")
        ABANDON_CHECK = "abandon", _("Abandoned table check")

    kind = models.CharField(max_length=10, choices=Kind.choices)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="jobs")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="jobs")
    version = models.PositiveIntegerField(null=True, blank=True)
    seat = models.SmallIntegerField(null=True, blank=True)
    due_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=64, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)
    result = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["due_at"]
        indexes = [models.Index(fields=["done_at", "due_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.table} at {self.due_at:%H:%M:%S}"


class ChatMessage(models.Model):
    MAX_LENGTH = 300

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at"]
        indexes = [models.Index(fields=["table", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class Presence(models.Model):
    """An open websocket at a table: who is watching or playing right now."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="presences")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="presences")
    channel_name = models.CharField(max_length=200, unique=True)
    connected_at = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["table", "last_seen"])]

    def __str__(self) -> str:
        return f"{self.user} at {self.table}"
