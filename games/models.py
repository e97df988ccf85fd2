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
from django.db.models.query_utils import DeferredAttribute
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from .bot_names import bot_name, shown_name, stored_bot_name
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
from .pace import LIVE, PACE_CHOICES, is_post, pace_words
from .refusals import rules_problems
from .rules_text import RULE_LABELS

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


class Paced:
    """A ``pace`` field read in words: a table's, or a variant's (the pace its tables are
    opened at unless the host says otherwise)."""

    @property
    def is_post(self) -> bool:
        return is_post(self.pace)

    @property
    def pace_words(self) -> str:
        return pace_words(self.pace)


class Variant(Paced, models.Model):
    """A named set of house rules that admins shape and players pick."""

    name = models.CharField(_("Name"), max_length=80, unique=True)
    slug = models.SlugField(_("Slug"), max_length=80, unique=True)
    description = models.TextField(RULE_LABELS["description"], blank=True,
                                   help_text=_("Shown to players when they choose."))
    description_ja = models.TextField(
        _("description in Japanese"), blank=True,
        help_text=_("What players reading the site in Japanese see in place of the "
                    "description. Empty: a preset's own description in its Japanese "
                    "translation; a description of your own as written."))
    game = models.CharField(
        _("Game"),
        max_length=20, choices=KIND_CHOICES, default=DEFAULT_KIND,
        help_text=_("The game this variant plays. It cannot change once tables have used it."))

    # -- ranking ---------------------------------------------------------------------------------
    ranking = models.CharField(
        RULE_LABELS["ranking"],
        max_length=10, choices=_choices(RANKINGS), default="brag",
        help_text=_("Brag hands (prial, running flush, run, flush, pair) or Commerce hands "
                    "(tricon, sequence, flush, pair, point)."))
    threes_high = models.BooleanField(
        RULE_LABELS["threes_high"],
        default=True, help_text=_("3-3-3 is the best prial, above A-A-A. Off: A-A-A is best."))
    ace_low_run = models.CharField(
        RULE_LABELS["ace_low_run"],
        max_length=10, choices=_choices(ACE_LOW_RUNS), default="top",
        help_text=_("Where A-2-3 stands among runs: the best, the lowest, or not a run at all."))
    tie_rule = models.CharField(
        RULE_LABELS["tie_rule"],
        max_length=10, choices=_choices(TIE_RULES), default="share",
        help_text=_("Equal worst hands: everyone tied loses, or the suit of the highest card "
                    "decides (spades > hearts > diamonds > clubs)."))
    thirty_one = models.BooleanField(
        RULE_LABELS["thirty_one"],
        default=False, help_text=_("Three cards of one suit worth 31 (A = 11, pictures and tens "
                                   "10) beat every prial."))
    blitz = models.BooleanField(
        RULE_LABELS["blitz"],
        default=False, help_text=_("Holding 31 at the end of your turn ends play at once. "
                                   "Needs thirty-one."))
    blitz_prials = models.BooleanField(
        RULE_LABELS["blitz_prials"],
        default=False, help_text=_("3-3-3 and A-A-A also blitz, and beat 31. Needs blitz."))

    # -- exchange --------------------------------------------------------------------------------
    exchange = models.CharField(
        RULE_LABELS["exchange"],
        max_length=10, choices=_choices(EXCHANGES), default="widow",
        help_text=_("Swap with three face-up cards in the middle, or draw from a stock and "
                    "discard."))
    swap_limit = models.PositiveSmallIntegerField(
        RULE_LABELS["swap_limit"],
        default=1, validators=[MinValueValidator(1), MaxValueValidator(3)],
        help_text=_("How many cards a player may swap with the middle in one turn (Commerce: 3)."))
    dealer_blind_swap = models.BooleanField(
        RULE_LABELS["dealer_blind_swap"],
        default=False, help_text=_("Before looking, the dealer may swap cards unseen with the "
                                   "middle (Commerce)."))
    may_pass = models.BooleanField(
        RULE_LABELS["may_pass"],
        default=False, help_text=_("Players may pass at any time, not only in the final round."))

    # -- stopping the bus ------------------------------------------------------------------------
    stop_after_swap = models.BooleanField(
        RULE_LABELS["stop_after_swap"],
        default=False, help_text=_("A player may swap and then stop the bus in the same turn."))
    stopper_penalty = models.PositiveSmallIntegerField(
        RULE_LABELS["stopper_penalty"],
        default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_LIVES)],
        help_text=_("Lives lost by the player who stopped the bus if theirs is the worst hand."))

    # -- lives and scoring -----------------------------------------------------------------------
    scoring = models.CharField(
        RULE_LABELS["scoring"],
        max_length=10, choices=_choices(SCORINGS), default="lives",
        help_text=_("Lives: the worst hand loses a life. Points: the best hand scores. Pot: "
                    "everyone antes and the best hand takes the chips."))
    starting_lives = models.PositiveSmallIntegerField(
        RULE_LABELS["starting_lives"],
        default=3, validators=[MinValueValidator(1), MaxValueValidator(MAX_LIVES)],
        help_text=_("Lives each player starts with."))
    floating = models.BooleanField(
        RULE_LABELS["floating"],
        default=True, help_text=_("With no lives left a player floats on; losing again puts them "
                                  "out. Off: out at zero lives."))
    target_points = models.PositiveSmallIntegerField(
        RULE_LABELS["target_points"],
        default=5, validators=[MinValueValidator(1), MaxValueValidator(MAX_TARGET_POINTS)],
        help_text=_("Points scoring: the first to reach this alone wins."))
    starting_chips = models.PositiveSmallIntegerField(
        RULE_LABELS["starting_chips"],
        default=10, validators=[MinValueValidator(1), MaxValueValidator(MAX_VARIANT_CHIPS)],
        help_text=_("Chips each player starts with. Stop the Bus pot scoring (usually 10; the "
                  "ante is 1 a hand) or Brag (usually 100)."))

    # -- Three Card Brag ---------------------------------------------------------------------
    ante = models.PositiveSmallIntegerField(
        _("Ante"),
        default=_BRAG.ante, help_text=_("Chips every player still in pays before each deal. 0: "
                                        "no ante, the first bet opens the pot (a hand that "
                                        "everyone but one folds before a bet is void); then "
                                        "set a number of hands."))
    betting = models.CharField(
        _("Betting"),
        max_length=10, choices=BETTING_CHOICES, default=_BRAG.betting,
        help_text=_("Limit: stakes between the limits below. Pot limit: a stake may be as large "
                  "as every chip in the middle."))
    min_bet = models.PositiveSmallIntegerField(
        _("Smallest stake"),
        default=_BRAG.min_bet, help_text=_("The smallest opening stake (and what staying in "
                                         "costs before anyone bets)."))
    max_bet = models.PositiveSmallIntegerField(
        _("Largest opening stake"),
        default=_BRAG.max_bet, help_text=_("Limit play: the largest opening stake."))
    max_raise = models.PositiveSmallIntegerField(
        _("Largest raise"),
        default=_BRAG.max_raise, help_text=_("Limit play: the most a later bet may raise the "
                                           "stake. 0: fixed stakes, no bet may raise it."))
    blind_play = models.BooleanField(
        _("Blind play"),
        default=_BRAG.blind_play, help_text=_("Players may bet without looking at their cards; "
                                            "a blind bet counts double."))
    shuffle = models.CharField(
        _("Shuffle"),
        max_length=12, choices=SHUFFLE_CHOICES, default=_BRAG.shuffle,
        help_text=_("When the pack is shuffled between hands (the seed: only after a pot is won "
                  "with a prial shown)."))
    max_hands = models.PositiveSmallIntegerField(
        _("Most hands"),
        default=_BRAG.max_hands, help_text=_("The game ends after this many hands; 0: only when "
                                           "one player has every chip."))

    # -- table -----------------------------------------------------------------------------------
    min_players = models.PositiveSmallIntegerField(
        RULE_LABELS["min_players"],
        default=2, validators=[MinValueValidator(2)], help_text=_("Fewest players to start."))
    max_players = models.PositiveSmallIntegerField(
        RULE_LABELS["max_players"],
        default=6, validators=[MinValueValidator(2)], help_text=_("Most seats at a table."))
    turn_seconds = models.PositiveSmallIntegerField(
        RULE_LABELS["turn_seconds"],
        null=True, blank=True, default=45,
        validators=[MinValueValidator(5), MaxValueValidator(MAX_TURN_SECONDS)],
        help_text=_("Seconds per turn before the server plays for you. Empty: no clock "
                    "(friendly tables)."))
    pace = models.CharField(
        _("Pace"), max_length=5, choices=PACE_CHOICES, default=LIVE,
        help_text=_("Live: everyone plays now, with the turn clock above. Post: each move has "
                    "hours or days, and players come back when it is their turn. The host may "
                    "choose another pace when opening a table."))
    rated = models.BooleanField(
        RULE_LABELS["rated"],
        default=True, help_text=_("Games on this variant change players' ratings."))
    active = models.BooleanField(
        RULE_LABELS["active"],
        default=True, help_text=_("Only active variants can be chosen for new tables."))
    display_order = models.PositiveSmallIntegerField(_("Display order"), default=0)

    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    objects = VariantQuerySet.as_manager()

    class Meta:
        verbose_name = _("variant")
        verbose_name_plural = _("variants")
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


# A table's name the player did not type, by its kind: stored in these English words (as a
# bot's name is, games/bot_names.py) and shown in the reader's language (Table.name).
AUTO_NAMES = {
    "v_bots": gettext_noop("%(player)s v bots"),
    "practice": gettext_noop("%(player)s's practice"),
    "table": gettext_noop("%(player)s's table"),
}
AUTO_NAME_CHOICES = [("", _("typed by the host")), *(
    (kind, _(words)) for kind, words in AUTO_NAMES.items())]  # marked above


def stored_auto_name(kind: str, player: str) -> str:
    """The name a table of ``kind`` (AUTO_NAMES) opened by ``player`` stores: English,
    whoever opens it, cut to the field's length."""
    return (AUTO_NAMES[kind] % {"player": player})[:60]


def shown_table_name(stored: str, auto_name: str) -> str:
    """A table's stored name as the reader reads it, given its ``auto_name``: a name the
    site gave (AUTO_NAMES) in the active language while it is still the stored words;
    any other name as it is. ``Table.name`` reads so; so can a page's plain rows."""
    words = AUTO_NAMES.get(auto_name or "")
    if words is None or not stored:
        return stored
    before, _sep, after = words.partition("%(player)s")
    if not (stored.startswith(before) and stored.endswith(after)
            and len(stored) > len(before) + len(after)):
        return stored  # renamed since, or cut short: shown as it is
    player = stored[len(before):len(stored) - len(after)]
    shown = gettext(words) % {"player": player}
    return stored if shown == stored else ShownName(shown, stored)


class ShownName(str):
    """A table's automatic name in the reader's language that still knows what is stored
    (``stored``): setting it back, saving it or looking it up stores the stored words."""

    stored: str

    def __new__(cls, shown: str, stored: str):
        self = super().__new__(cls, shown)
        self.stored = stored
        return self

    def __getnewargs__(self):
        return (str(self), self.stored)


def _stored(value):
    return value.stored if isinstance(value, ShownName) else value


class _ShownNameAttribute(DeferredAttribute):
    """``table.name``: the stored name, or an automatic one in the reader's language."""

    def __get__(self, instance, cls=None):
        if instance is None:
            return self
        stored = super().__get__(instance, cls)
        shown_name_of = getattr(instance, "shown_name_of", None)  # not in a migration's model
        return stored if shown_name_of is None else shown_name_of(stored)

    def __set__(self, instance, value):
        instance.__dict__[self.field.attname] = _stored(value)


class TableNameField(models.CharField):
    """A table's name. The model's attribute reads an automatic name (one the player did
    not type: ``Table.auto_name``) in the reader's language; what is saved, serialised,
    edited in a form (the admin) and looked up is the stored name."""

    descriptor_class = _ShownNameAttribute

    def value_from_object(self, obj):
        return _stored(getattr(obj, self.attname))

    def pre_save(self, model_instance, add):
        return self.value_from_object(model_instance)

    def get_prep_value(self, value):
        return super().get_prep_value(_stored(value))

    def to_python(self, value):
        return super().to_python(_stored(value))

    def clean(self, value, model_instance):
        return super().clean(_stored(value), model_instance)


class Table(Paced, models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("status", "Waiting for players")
        PLAYING = "playing", pgettext_lazy("status", "Playing")
        FINISHED = "finished", pgettext_lazy("status", "Finished")
        CLOSED = "closed", pgettext_lazy("status", "Closed")

    # read in the reader's language when it is automatic (see TableNameField)
    name = TableNameField(_("name"), max_length=60)
    auto_name = models.CharField(
        _("automatic name"), max_length=10, blank=True, default="", choices=AUTO_NAME_CHOICES,
        help_text=_("A name the site gave the table is shown in each reader's language "
                    "while it is unchanged."))
    variant = models.ForeignKey(Variant, verbose_name=_("variant"), on_delete=models.PROTECT,
                                related_name="tables")
    host = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("host"),
                             on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="hosted_tables")
    seats = models.PositiveSmallIntegerField(pgettext_lazy("count", "seats"),
                                             validators=[MinValueValidator(2)])
    private = models.BooleanField(
        _("private"),
        default=False, help_text=_("Only people with the invite link can find and join it."))
    invite_code = models.CharField(_("invite code"), max_length=32, unique=True,
                                   default=new_invite_code)
    allow_spectators = models.BooleanField(_("allow spectators"), default=True)
    spectator_chat = models.BooleanField(_("spectator chat"), default=True)
    practice = models.BooleanField(
        _("practice table"), default=False,
        help_text=_("Against beginner bots, with hints on, for learning the game."))
    turn_seconds = models.PositiveSmallIntegerField(RULE_LABELS["turn_seconds"], null=True,
                                                    blank=True)
    pace = models.CharField(_("pace"), max_length=5, choices=PACE_CHOICES, default=LIVE)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.WAITING)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    humans_last_seen = models.DateTimeField(_("humans last seen"), default=timezone.now)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["status", "private"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    def shown_name_of(self, stored: str) -> str:
        """``stored`` (this table's stored name) as the reader reads it: an automatic name
        (``auto_name``) in the active language while it is still the words the site
        stored; any other name as it is."""
        return shown_table_name(stored, self.__dict__.get("auto_name") or "")

    @property
    def stored_name(self) -> str:
        """The name as stored (an automatic one in its stored English words)."""
        return _stored(self.name)

    @property
    def group_name(self) -> str:
        return f"table-{self.pk}"

    def current_game(self) -> Game | None:
        return self.games.order_by("-number").first()


class Seat(models.Model):
    """A place at a table, held by a user or a bot."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="seat_set")
    position = models.PositiveSmallIntegerField(_("position"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, null=True,
                             blank=True, related_name="seats")
    bot_level = models.CharField(_("bot level"), max_length=10, blank=True,
                                 choices=_choices(BOT_LEVELS))
    away = models.BooleanField(
        _("away"),
        default=False, help_text=_("The player timed out twice in a row; a bot plays for them."))
    timeouts = models.PositiveSmallIntegerField(_("timeouts"), default=0)
    missed_since = models.DateTimeField(
        _("missing since"), null=True, blank=True,
        help_text=_("Post tables: the deadline of the first of the turns missed in a row."))
    turn_since = models.DateTimeField(
        _("turn since"), null=True, blank=True,
        help_text=_("Post tables: when this player's current turn began (empty: not their "
                    "turn)."))
    turn_version = models.PositiveIntegerField(
        _("turn version"), null=True, blank=True,
        help_text=_("Post tables: the game version at which this player's turn began."))
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_place"),
            models.UniqueConstraint(fields=["table", "user"], name="one_seat_per_user",
                                    condition=models.Q(user__isnull=False)),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(bot_level=""),
                name="seat_is_taken"),
        ]
        indexes = [models.Index(fields=["user", "turn_since"])]

    def __str__(self) -> str:
        return gettext("%(table)s seat %(number)d: %(player)s") % {
            "table": self.table, "number": self.position + 1, "player": self.display_name}

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def display_name(self) -> str:
        """Who holds the seat, as the reader reads it: a player's name, or a bot's in the
        active language ("Casual bot 2", "カジュアル・ボット2")."""
        if self.user_id:
            return self.user.username
        return bot_name(self.bot_level, self.position + 1)

    @property
    def game_name(self) -> str:
        """The seat's name as a game records it when it begins (``GamePlayer.name``, the
        engine's names): a bot's in English whoever starts the game; pages show it in
        their reader's language (games/bot_names.py)."""
        if self.user_id:
            return self.user.username
        return stored_bot_name(self.bot_level, self.position)


class Game(models.Model):
    """One game at a table: the rules it was started with, its seed, its log."""

    class Status(models.TextChoices):
        PLAYING = "playing", pgettext_lazy("status", "Playing")
        FINISHED = "finished", pgettext_lazy("status", "Finished")
        ABANDONED = "abandoned", pgettext_lazy("status", "Abandoned")

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="games")
    number = models.PositiveIntegerField(_("number"), default=1)
    variant = models.ForeignKey(Variant, verbose_name=_("variant"), on_delete=models.PROTECT,
                                related_name="games")
    rules = models.JSONField(_("rules"),
                             help_text=_("The house rules in force, copied when the game began."))
    rated = models.BooleanField(_("rated"), default=False)
    seed = models.CharField(_("seed"), max_length=64, help_text=_("Secret until the game is over."))
    state = models.JSONField(_("state"),
                             help_text=_("Snapshot of the engine state after the last action; "
                                         "a cache: the log is the truth."))
    version = models.PositiveIntegerField(_("version"), default=0)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PLAYING)
    ready = models.JSONField(_("ready"), default=list, blank=True,
                             help_text=_("Seats that asked for the next hand."))
    recent_events = models.JSONField(
        _("recent events"),
        default=list, blank=True,
        help_text=_("The last events as [seq, event] pairs, so pages need not read the log."))
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True,
                                    help_text=_("When the current turn's clock runs out."))
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_game_number_per_table"),
        ]
        indexes = [models.Index(fields=["status", "-finished_at"])]

    def __str__(self) -> str:
        return gettext("%(table)s game %(number)d") % {"table": self.table,
                                                       "number": self.number}

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.table_id])

    @property
    def house_rules(self) -> HouseRules:
        return HouseRules.from_dict(self.rules)


class GamePlayer(models.Model):
    """Who sat where in a game, and where they finished."""

    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE,
                             related_name="players")
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="game_players")
    bot_level = models.CharField(_("bot level"), max_length=10, blank=True,
                                 choices=_choices(BOT_LEVELS))
    name = models.CharField(_("name"), max_length=150)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    left_early = models.BooleanField(_("left early"), default=False)

    class Meta:
        verbose_name = _("game player")
        verbose_name_plural = _("game players")
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_player_per_game_seat"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s in %(game)s") % {"player": self.shown_name, "game": self.game}

    @property
    def shown_name(self) -> str:
        """The name as the reader reads it (a bot's in their language): ``name`` is kept
        as the game began, in one language for everyone."""
        return shown_name(self)


# Who played an action: its player, a bot, the clock (a timeout) or the table (the next deal).
ACTION_BY = [("player", pgettext_lazy("action by", "player")),
             ("bot", pgettext_lazy("action by", "bot")),
             ("clock", pgettext_lazy("action by", "clock")),
             ("table", pgettext_lazy("action by", "table"))]


class Action(models.Model):
    """The log: one row per applied action, numbered without gaps from 1."""

    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE,
                             related_name="actions")
    seq = models.PositiveIntegerField(_("seq"))
    seat = models.SmallIntegerField(_("seat"), null=True, blank=True)
    payload = models.JSONField(_("payload"), help_text=_("The engine action, as data."))
    events = models.JSONField(_("events"), default=list, help_text=_("What it caused, in words."))
    by = models.CharField(_("by"), max_length=10, default="player", choices=ACTION_BY,
                          help_text=_("Who played it: the player, a bot, the clock (a timeout) or "
                                      "the table (the next deal)."))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("logged action")
        verbose_name_plural = _("action log")
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_action_per_seq"),
        ]

    def __str__(self) -> str:
        return gettext("%(game)s #%(seq)d") % {"game": self.game, "seq": self.seq}


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
        LAST_CALL = "last_call", _("Last call")

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="jobs")
    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE, null=True,
                             blank=True, related_name="jobs")
    version = models.PositiveIntegerField(_("version"), null=True, blank=True)
    seat = models.SmallIntegerField(_("seat"), null=True, blank=True)
    due_at = models.DateTimeField(_("due at"))
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    claimed_by = models.CharField(_("claimed by"), max_length=64, blank=True)
    done_at = models.DateTimeField(_("done at"), null=True, blank=True)
    result = models.CharField(_("result"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("job")
        verbose_name_plural = _("jobs")
        ordering = ["due_at"]
        indexes = [models.Index(fields=["done_at", "due_at"])]

    def __str__(self) -> str:
        return gettext("%(kind)s for %(table)s at %(time)s") % {
            "kind": self.get_kind_display(), "table": self.table,
            "time": f"{self.due_at:%H:%M:%S}"}


class TableSkip(models.Model):
    """A post table a player put behind the others in their list of turns, until ``until``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="table_skips")
    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="skips")
    until = models.DateTimeField(_("until"))

    class Meta:
        verbose_name = _("skipped table")
        verbose_name_plural = _("skipped tables")
        constraints = [
            models.UniqueConstraint(fields=["user", "table"], name="one_skip_per_user_table"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s skips %(table)s") % {"user": self.user, "table": self.table}


class ChatMessage(models.Model):
    MAX_LENGTH = 300

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="chat")
    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE)
    text = models.CharField(_("text"), max_length=MAX_LENGTH)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["created_at"]
        indexes = [models.Index(fields=["table", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class Presence(models.Model):
    """An open websocket at a table: who is watching or playing right now."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="presences")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="presences")
    channel_name = models.CharField(_("channel name"), max_length=200, unique=True)
    connected_at = models.DateTimeField(_("connected at"), default=timezone.now)
    last_seen = models.DateTimeField(_("last seen"), default=timezone.now)
    # the page says when it is hidden (another tab, a locked phone): "your turn" is
    # pushed to a player whose pages of the table are all hidden

    class Meta:
        verbose_name = _("presence")
        verbose_name_plural = _("presences")
        indexes = [models.Index(fields=["table", "last_seen"])]

    def __str__(self) -> str:
        return gettext("%(user)s at %(table)s") % {"user": self.user, "table": self.table}


class Invitation(models.Model):
    """The host of a waiting table asked a player by name to sit down
    (``games.actions.tables.do_invite``): the player is told, and may open the table even
    when it is private."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("invited player"),
                             on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("invited by"),
                                   null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="one_invitation_per_player"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s, invited to %(table)s") % {
            "player": self.user.username, "table": self.table.name}
