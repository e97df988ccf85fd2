"""What the stats pages read: aggregates written when a game ends.

Two tables, both written by :func:`stats.recording.record_finished_game` in the
transaction that finishes a game, and both rebuilt from the action logs by
``manage.py rebuild_stats``:

* :class:`PlayerStats` -- one row per user and *scope*: the overall scope
  (``variant`` is null) and one scope per variant they have played. Counts,
  distributions, the best hand and the rating live here, so a profile or the
  leaderboard is a read of a few rows, whatever the number of games.
* :class:`PlayerGame` -- one row per user per finished game: place, the
  game's hand facts and the rating before and after. History pages, the
  rating chart and head-to-head read these through indexes.

Bots get no rows: they are not users.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models import Game, Variant

from .rating import INITIAL_MU, INITIAL_SIGMA, display_rating


class PlayerStats(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="stats")
    variant = models.ForeignKey(Variant, verbose_name=_("variant"), on_delete=models.CASCADE,
                                null=True, blank=True,
                                related_name="player_stats",
                                help_text=_("Empty: every variant together."))

    games = models.PositiveIntegerField(pgettext_lazy("count", "games"), default=0)
    wins = models.PositiveIntegerField(pgettext_lazy("count", "wins"), default=0)
    place_total = models.PositiveIntegerField(_("place total"), default=0,
                                              help_text=_("Sum of places, for the average."))
    place_counts = models.JSONField(_("places"), default=dict, blank=True,
                                    help_text=_('Finishing places: {"1": games, "2": games, ...}'))
    hands = models.PositiveIntegerField(pgettext_lazy("count", "hands"), default=0,
                                        help_text=_("Showdowns taken part in."))
    hands_survived = models.PositiveIntegerField(_("hands survived"), default=0)
    lives_lost = models.PositiveIntegerField(_("lives lost"), default=0)
    stops = models.PositiveIntegerField(_("stops"), default=0,
                                        help_text=_("Times they stopped the bus."))
    stops_lost = models.PositiveIntegerField(_("stops lost"), default=0,
                                             help_text=_("Stops after which they lost the hand."))
    floats = models.PositiveIntegerField(_("floats"), default=0,
                                         help_text=_("Times they went floating."))
    blitzes = models.PositiveIntegerField(_("blitzes"), default=0)
    categories = models.JSONField(_("categories"), default=dict, blank=True,
                                  help_text=_('Showdown hands by category: {"pair": n, ...}'))

    best_hand = models.JSONField(_("best hand"), default=list, blank=True,
                                 help_text=_("Card codes."))
    best_hand_description = models.CharField(_("best hand description"), max_length=120, blank=True)
    best_hand_category = models.CharField(_("best hand category"), max_length=20, blank=True)
    best_hand_order = models.SmallIntegerField(_("best hand order"), default=-1,
                                               help_text=_("Category order "
                                                            "(higher is better) across rankings."))
    best_hand_percentile = models.FloatField(_("best hand percentile"), default=-1.0)
    best_hand_strength = models.IntegerField(_("best hand strength"), default=-1)
    best_hand_game = models.ForeignKey(Game, verbose_name=_("best hand game"),
                                       on_delete=models.SET_NULL, null=True, blank=True,
                                       related_name="+")

    rating_mu = models.FloatField(_("rating mu"), default=INITIAL_MU)
    rating_sigma = models.FloatField(_("rating sigma"), default=INITIAL_SIGMA)
    rating = models.FloatField(_("rating"), default=display_rating(INITIAL_MU, INITIAL_SIGMA),
                               help_text=_("Shown rating: 1000 + 20 x (mu - 3 sigma)."))
    rated_games = models.PositiveIntegerField(_("rated games"), default=0)
    last_played_at = models.DateTimeField(_("last played at"), null=True, blank=True)

    class Meta:
        verbose_name = _("player stats")
        verbose_name_plural = _("player stats")
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="stats_one_row_per_variant",
                                    condition=Q(variant__isnull=False)),
            models.UniqueConstraint(fields=["user"], name="stats_one_overall_row",
                                    condition=Q(variant__isnull=True)),
        ]
        indexes = [
            # the leaderboard: one scope, best rating first
            models.Index(fields=["variant", "-rating"], name="stats_leaderboard"),
        ]

    def __str__(self) -> str:
        if self.variant is None:
            return gettext("%(user)s in all variants") % {"user": self.user}
        return gettext("%(user)s in %(variant)s") % {"user": self.user, "variant": self.variant}

    @property
    def losses(self) -> int:
        return self.games - self.wins

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average_place(self) -> float | None:
        return self.place_total / self.games if self.games else None

    @property
    def survival_rate(self) -> float:
        return self.hands_survived / self.hands if self.hands else 0.0

    @property
    def stopper_loss_rate(self) -> float:
        return self.stops_lost / self.stops if self.stops else 0.0


class PlayerGame(models.Model):
    """One user's result in one finished game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="game_results")
    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE,
                             related_name="results")
    variant = models.ForeignKey(Variant, verbose_name=_("variant"), on_delete=models.CASCADE,
                                related_name="+")
    finished_at = models.DateTimeField(_("finished at"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    place = models.PositiveSmallIntegerField(_("place"))
    players = models.PositiveSmallIntegerField(pgettext_lazy("count", "players"),
                                               help_text=_("Seats in the game, bots included."))
    left_early = models.BooleanField(_("left early"), default=False)
    hands = models.PositiveSmallIntegerField(pgettext_lazy("count", "hands"), default=0)
    hands_survived = models.PositiveSmallIntegerField(_("hands survived"), default=0)
    lives_lost = models.PositiveSmallIntegerField(_("lives lost"), default=0)
    stops = models.PositiveSmallIntegerField(_("stops"), default=0)
    stops_lost = models.PositiveSmallIntegerField(_("stops lost"), default=0)
    rated = models.BooleanField(_("rated"), default=False)
    rating_before = models.FloatField(_("rating before"), null=True, blank=True)
    rating_after = models.FloatField(_("rating after"), null=True, blank=True)
    variant_rating_before = models.FloatField(_("variant rating before"), null=True, blank=True)
    variant_rating_after = models.FloatField(_("variant rating after"), null=True, blank=True)

    class Meta:
        verbose_name = _("player game")
        verbose_name_plural = _("player games")
        ordering = ["-finished_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="stats_one_result_per_game"),
        ]
        indexes = [
            models.Index(fields=["user", "-finished_at", "-id"], name="stats_history"),
            models.Index(fields=["user", "variant", "-finished_at", "-id"],
                         name="stats_variant_history"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s %(place)d of %(players)d in game %(game)d") % {
            "user": self.user, "place": self.place, "players": self.players, "game": self.game_id}

    @property
    def won(self) -> bool:
        return self.place == 1

    @property
    def rating_change(self) -> float | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before

    @property
    def variant_rating_change(self) -> float | None:
        if self.variant_rating_before is None or self.variant_rating_after is None:
            return None
        return self.variant_rating_after - self.variant_rating_before


# -- Three Card Brag: its own counts and its own rating ladder -----------------------------------
# Brag is another game, not another variant: its games are counted apart from Stop the Bus's
# (whose rows above never see them), with a ladder of their own. Written by
# :func:`stats.brag.record_finished_brag_game`, the Brag kind's stats recorder.


class BragStats(models.Model):
    """One user's Brag games, overall (``variant`` empty) or in one Brag variant."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="brag_stats")
    variant = models.ForeignKey(Variant, verbose_name=_("variant"), on_delete=models.CASCADE,
                                null=True, blank=True,
                                related_name="brag_stats",
                                help_text=_("Empty: every Brag variant together."))
    games = models.PositiveIntegerField(pgettext_lazy("count", "games"), default=0)
    wins = models.PositiveIntegerField(pgettext_lazy("count", "wins"), default=0)
    place_total = models.PositiveIntegerField(_("place total"), default=0)
    place_counts = models.JSONField(_("places"), default=dict, blank=True,
                                    help_text=_('{"1": games finished 1st, ...}'))
    net_chips = models.IntegerField(_("net chips"), default=0,
                                    help_text=_("Chips won less chips staked, "
                                                 "over every hand played."))
    biggest_pot = models.PositiveIntegerField(_("biggest pot"), default=0,
                                              help_text=_("The most chips taken in "
                                                           "one pot (open or closed)."))
    hands = models.PositiveIntegerField(pgettext_lazy("count", "hands"), default=0,
                                        help_text=_("Hands dealt to them."))
    hands_won = models.PositiveIntegerField(_("hands won"), default=0,
                                            help_text=_("Hands in which they took a pot."))
    sees_won = models.PositiveIntegerField(_("sees won"), default=0)
    sees_lost = models.PositiveIntegerField(_("sees lost"), default=0)
    blind_hands = models.PositiveIntegerField(_("blind hands"), default=0,
                                              help_text=_("Hands in which they bet "
                                                           "blind at least once."))
    rating_mu = models.FloatField(_("rating mu"), default=INITIAL_MU)
    rating_sigma = models.FloatField(_("rating sigma"), default=INITIAL_SIGMA)
    rating = models.FloatField(_("rating"), default=display_rating(INITIAL_MU, INITIAL_SIGMA))
    rated_games = models.PositiveIntegerField(_("rated games"), default=0)
    last_played_at = models.DateTimeField(_("last played at"), null=True, blank=True)

    class Meta:
        verbose_name = _("Brag stats")
        verbose_name_plural = _("Brag stats")
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="brag_one_row_per_variant",
                                    condition=Q(variant__isnull=False)),
            models.UniqueConstraint(fields=["user"], name="brag_one_overall_row",
                                    condition=Q(variant__isnull=True)),
        ]
        indexes = [models.Index(fields=["variant", "-rating"], name="brag_leaderboard")]

    def __str__(self) -> str:
        if self.variant is None:
            return gettext("%(user)s at Brag (all variants)") % {"user": self.user}
        return gettext("%(user)s at Brag (%(variant)s)") % {"user": self.user,
                                                            "variant": self.variant}

    @property
    def average_place(self) -> float | None:
        return self.place_total / self.games if self.games else None

    @property
    def sees(self) -> int:
        return self.sees_won + self.sees_lost


class BragResult(models.Model):
    """One user's result in one finished Brag game: their history and replays."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="brag_results")
    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE,
                             related_name="brag_results")
    variant = models.ForeignKey(Variant, verbose_name=_("variant"), on_delete=models.CASCADE,
                                related_name="+")
    finished_at = models.DateTimeField(_("finished at"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    place = models.PositiveSmallIntegerField(_("place"))
    players = models.PositiveSmallIntegerField(pgettext_lazy("count", "players"))
    left_early = models.BooleanField(_("left early"), default=False)
    chips = models.PositiveIntegerField(_("chips"), default=0, help_text=_("Chips at the end."))
    net_chips = models.IntegerField(_("net chips"), default=0)
    biggest_pot = models.PositiveIntegerField(_("biggest pot"), default=0)
    hands = models.PositiveSmallIntegerField(pgettext_lazy("count", "hands"), default=0)
    hands_won = models.PositiveSmallIntegerField(_("hands won"), default=0)
    sees_won = models.PositiveSmallIntegerField(_("sees won"), default=0)
    sees_lost = models.PositiveSmallIntegerField(_("sees lost"), default=0)
    blind_hands = models.PositiveSmallIntegerField(_("blind hands"), default=0)
    rated = models.BooleanField(_("rated"), default=False)
    rating_before = models.FloatField(_("rating before"), null=True, blank=True)
    rating_after = models.FloatField(_("rating after"), null=True, blank=True)

    class Meta:
        verbose_name = _("Brag result")
        verbose_name_plural = _("Brag results")
        ordering = ["-finished_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="brag_one_result_per_game"),
        ]
        indexes = [models.Index(fields=["user", "-finished_at", "-id"], name="brag_history")]

    def __str__(self) -> str:
        return gettext("%(user)s %(place)d of %(players)d in Brag game %(game)d") % {
            "user": self.user, "place": self.place, "players": self.players, "game": self.game_id}

    @property
    def won(self) -> bool:
        return self.place == 1

    @property
    def rating_change(self) -> float | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before
