from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from accounts.timezones import MAX_LENGTH as TIME_ZONE_MAX_LENGTH
from accounts.timezones import time_zone_choices, validate_time_zone


def language_choices():
    # A callable, so adding a language to settings.LANGUAGES needs no migration.
    return settings.LANGUAGES


class User(AbstractUser):
    """A player. Log-in is by username; the email address is where password
    resets go, so every account needs one and no two accounts may share it,
    whatever the letter case."""

    email = models.EmailField(_("email address"))
    # How the table looks and sounds to this player, wherever they sit.
    four_colour_deck = models.BooleanField(
        _("four-colour deck"), default=False,
        help_text=_("Clubs green and diamonds blue, so every suit tells itself apart at a glance."))
    sound = models.BooleanField(
        _("sounds at the table"), default=True,
        help_text=_("A chime on your turn, and sounds for the deal, a stopped bus and the result."))
    # Whether the site alerts this player on their turn (a notification while the tab is
    # out of sight): the player's choice, kept apart from the browser's permission.
    turn_alerts = models.BooleanField(
        _("turn alerts"), default=True,
        help_text=_("A notification when it is your turn and the table's tab is out of sight "
                    "(the browser asks once for its permission)."))
    # Blank: no preference saved, so the browser's Accept-Language decides.
    language = models.CharField(_("language"), max_length=10, blank=True, default="",
                                choices=language_choices)
    # An IANA zone ("Europe/London"). Blank: none chosen, the site's TIME_ZONE. The daily
    # digest's hour is read in it, and the player's pages show clock times in it.
    time_zone = models.CharField(
        _("time zone"), max_length=TIME_ZONE_MAX_LENGTH, blank=True, default="",
        choices=time_zone_choices, validators=[validate_time_zone],
        help_text=_("Blank: the site's time zone."))
    # Written by games.actions.post whenever the player's post turns change: the
    # navigation's count on every page, read with the signed-in user.
    post_turns = models.PositiveSmallIntegerField(
        _("post tables waiting"), default=0,
        help_text=_("How many post tables wait for this player's move."))
    # A visitor who plays at once, without an account (accounts/guests.py): a real row,
    # logged in through the session, unrated, on no leaderboard; signing up turns this
    # very row into the member's account, so the games played stay theirs.
    is_guest = models.BooleanField(
        _("guest"), default=False, db_index=True,
        help_text=_("Plays without an account: unrated, no private tables, no chat unless "
                    "the site allows it."))
    # Hints at the table (the hand in words, what each move does, the best move after a
    # hand). Empty: the default, on at practice tables and off elsewhere.
    hints = models.BooleanField(
        _("hints at the table"), null=True, blank=True, default=None,
        help_text=_("What your hand is worth, what each move does, and after each hand "
                    "what the best move would have been."))
    how_to_play_seen = models.BooleanField(_("how to play seen"), default=False)
    # The game kind "Play now" dealt last, offered first next time (games.kinds slug).
    last_kind = models.CharField(_("last game played"), max_length=20, blank=True, default="")

    REQUIRED_FIELDS = ["email"]

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                name="accounts_user_email_ci_unique",
                violation_error_message=_("An account with this email address already exists."),
            ),
        ]


class Holiday(models.Model):
    """Days a player is away from every post table: a bot sits in for them at once.

    An account may take ``HOLIDAY_DAYS_A_YEAR`` days a calendar year (a holiday over
    New Year counts its days in each year)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="holidays")
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("holiday")
        verbose_name_plural = _("holidays")
        ordering = ["start"]
        indexes = [models.Index(fields=["user", "end"])]
        constraints = [
            models.CheckConstraint(condition=models.Q(end__gte=models.F("start")),
                                   name="holiday_ends_after_it_starts"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.start}–{self.end}"

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


HOLIDAY_DAYS_A_YEAR = 14
