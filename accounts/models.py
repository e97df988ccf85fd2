from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


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
    # Blank: no preference saved, so the browser's Accept-Language decides.
    language = models.CharField(_("language"), max_length=10, blank=True, default="",
                                choices=language_choices)

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
